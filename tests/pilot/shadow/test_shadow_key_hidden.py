"""Pilot red team 27, A9: a pseudonymisation key made by `pilot shadow-key` (0600) and named on a
candidate's command line was shown to it: the sandbox's user maps to the key's owner, and the
key was no hidden secret. A key made by provebench is now hidden from every candidate, by its
path and by its bytes."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from provebench._errors import ProvebenchError
from provebench.pilot.shadow._cli import shadow_key_command
from provebench.sandbox._policy import command_code_folders, never_shown


def test_a_key_made_here_is_never_shown_to_a_candidate(tmp_path: Path) -> None:
    key = tmp_path / "shadow" / "pseudo.key"
    key.parent.mkdir()
    shadow_key_command(key)
    assert never_shown(key) is not None
    (tmp_path / "imp").mkdir()
    (tmp_path / "imp" / "imp.py").write_text("", encoding="utf-8")
    with pytest.raises(ProvebenchError):
        command_code_folders(["/usr/bin/python3", str(tmp_path / "imp" / "imp.py"), str(key)])


def test_a_copy_of_the_key_in_the_candidates_folder_is_refused_by_its_bytes(
    tmp_path: Path,
) -> None:
    from provebench.sandbox._candidate import code_listing
    from provebench.sandbox._policy import hidden_from_every_candidate

    key = tmp_path / "pseudo.key"
    shadow_key_command(key)
    code = tmp_path / "code"
    code.mkdir()
    shutil.copyfile(key, code / "k.txt")
    with pytest.raises(ProvebenchError):
        code_listing([code], hidden_from_every_candidate(), field="--agent-cmd")
