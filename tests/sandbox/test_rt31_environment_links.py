"""provebench's environment binds what its links lead to (pilot red team 31, A7).

A7: `site-packages/rt31pbx -> /usr/local/lib/rt31pbx`, a folder every sandbox shows whole and no
root of the environment holds. The foreign-code walk (`os.walk`) never checked a link to a folder,
and the manifest recorded the link's target text only: the code there changed after the seal ran
as the sealed candidate's base class, the digest unchanged. A link whose real target leaves the
environment's roots is now refused, at the seal and at every checked launch; a folder link no
RECORD lists is refused by the foreign-code walk like a file.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from provebench._errors import ProvebenchError
from provebench.sandbox import _manifest
from provebench.sandbox._environment import foreign_code
from provebench.sandbox._manifest import environment_digest, forget_environment_digest
from tests.pilot.record.test_seal_holds_what_runs import fake_site
from tests.sandbox.environment_helpers import fresh_digest  # noqa: F401 (a fixture)

pytestmark = pytest.mark.usefixtures("fresh_digest")


@pytest.fixture
def roots(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Path]:
    venv, base, package = tmp_path / "venv", tmp_path / "base", tmp_path / "pkg"
    site = venv / "lib" / "python3.11" / "site-packages"
    for folder in [site, base / "bin", package]:
        folder.mkdir(parents=True)
    (base / "bin" / "python3.11").write_text("#!\n", encoding="utf-8")
    (package / "_demo.py").write_text("X = 1\n", encoding="utf-8")
    monkeypatch.setattr(_manifest, "environment_roots", lambda: [venv, base, package])
    outside = tmp_path / "usr-local-lib" / "rt31pbx"
    outside.mkdir(parents=True)
    (outside / "__init__.py").write_text("class Imp: pass  # a no-op\n", encoding="utf-8")
    return {"venv": venv, "base": base, "site": site, "outside": outside}


def test_a_folder_link_out_of_the_roots_is_refused_by_the_digest(roots: dict[str, Path]) -> None:
    """A7 as played: the link's target text is all the digest held, so the code it leads to
    could change after the seal; now no digest is taken of such an environment."""
    link = roots["site"] / "rt31pbx"
    link.symlink_to(roots["outside"])
    with pytest.raises(ProvebenchError) as refused:
        environment_digest()
    said = str(refused.value)
    assert "a link that leads out of it" in said and str(roots["outside"]) in said
    assert str(link) in said and "\n" not in said


@pytest.mark.parametrize("relative", [False, True])
def test_a_file_link_out_of_the_roots_is_refused_too(
    roots: dict[str, Path], *, relative: bool
) -> None:
    target = roots["outside"] / "__init__.py"
    link = roots["venv"] / "share" / "helper.py"
    link.parent.mkdir()
    link.symlink_to(Path("../../usr-local-lib/rt31pbx/__init__.py") if relative else target)
    with pytest.raises(ProvebenchError, match="a link that leads out of it"):
        environment_digest()


def test_links_inside_the_roots_are_bound_through_their_targets(roots: dict[str, Path]) -> None:
    """What a real venv holds (`bin/python` to the base interpreter, `lib64 -> lib`): allowed,
    and what they lead to is hashed by its own row, so a change there still moves the digest."""
    (roots["venv"] / "bin").mkdir()
    (roots["venv"] / "bin" / "python").symlink_to(roots["base"] / "bin" / "python3.11")
    (roots["venv"] / "lib64").symlink_to("lib")
    sealed = environment_digest()
    (roots["base"] / "bin" / "python3.11").write_text("#! other\n", encoding="utf-8")
    forget_environment_digest()
    assert environment_digest() != sealed


def test_a_folder_link_no_record_lists_is_foreign_code(tmp_path: Path) -> None:
    """The foreign-code walk checks a link to a folder like a file (it never entered it)."""
    site = fake_site(tmp_path / "site-packages")
    assert foreign_code([site]) is None
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "__init__.py").write_text("pass\n", encoding="utf-8")
    (site / "rt31pbx").symlink_to(elsewhere)
    assert foreign_code([site]) == (
        site / "rt31pbx",
        "holds a link to a folder no installed distribution lists",
    )
