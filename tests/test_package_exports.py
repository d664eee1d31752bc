"""Public names resolve lazily, and the CLI starts without importing the areas' heavy modules."""

import importlib
import subprocess
import sys

import pytest

PACKAGES = ["provebench.si", "provebench.evidence", "provebench.ledger", "provebench.pilot"]


@pytest.mark.parametrize("package", PACKAGES)
def test_every_public_name_resolves(package: str) -> None:
    module = importlib.import_module(package)
    assert module.__all__, f"{package} exports nothing"
    for name in module.__all__:
        assert getattr(module, name) is not None, name
    assert sorted(module.__all__) == dir(module)
    with pytest.raises(AttributeError, match="no attribute"):
        module.no_such_name  # noqa: B018


def test_cli_import_leaves_area_internals_unloaded() -> None:
    probe = (
        "import sys, provebench.cli; "
        "print(','.join(sorted(m for m in sys.modules if m.startswith('provebench.'))))"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout.strip()
    for heavy in (
        "provebench.pilot.lab._runner",
        "provebench.pilot.evaluate",
        "provebench.si.scoring._evaluate",
        "provebench.evidence._readers",
    ):
        assert heavy not in loaded.split(","), f"{heavy} imported at CLI start-up"
