"""Pilot red team 27, A3: a matrix rerun after the `--model-cmd` server's code changed said "1 of
1 job(s) already done and verified" and kept the old verdicts: an `openai:` job's identity held
the command's text only. The held server's digest is now in every such job's identity, and in
the end-of-matrix check of the candidates."""

from __future__ import annotations

import sys
from pathlib import Path

from provebench.pilot.matrix._plan import plan_pilot_matrix


def _identities(out: Path, server: Path) -> list[object]:
    request = plan_pilot_matrix(
        out, ["openai:m"], [1], "public", 1, {}, None, model_cmd=f"{sys.executable} {server}"
    )
    return [spec.identity for spec in request.specs]


def test_a_server_whose_code_changed_is_another_job(tmp_path: Path) -> None:
    server = tmp_path / "srv" / "server.py"
    server.parent.mkdir()
    server.write_text("print('v1')\n", encoding="utf-8")
    (server.parent / "version.txt").write_text("v1\n", encoding="utf-8")
    before = _identities(tmp_path / "mx", server)
    assert before == _identities(tmp_path / "mx", server)  # the same code, the same job
    (server.parent / "version.txt").write_text("v2\n", encoding="utf-8")
    assert _identities(tmp_path / "mx", server) != before
