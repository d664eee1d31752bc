"""What the tests of provebench's environment binding share: a digest computed afresh around
each test (the digest is kept once per process, as once per command), and one Python program
run in a real sandbox that shows nothing of the candidate's."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from provebench.sandbox._launch import run_sandboxed
from provebench.sandbox._manifest import forget_environment_digest
from provebench.sandbox._policy import SANDBOX_ENV, policy_for


@pytest.fixture
def fresh_digest() -> Iterator[None]:
    """The environment digest computed again in the test and after it (use with
    `pytest.mark.usefixtures`)."""
    forget_environment_digest()
    yield
    forget_environment_digest()


def sandboxed_python(tmp_path: Path, code: str) -> Path:
    """Run `code` in a sandbox that shows no code of a candidate's; its `/sandbox/work` folder,
    on the host, is returned (what the program wrote there). Asserts it exited 0."""
    private = tmp_path / "private"
    (private / "work").mkdir(parents=True)
    run = run_sandboxed(
        policy_for([], {}),
        [sys.executable, "-c", code],
        private_dir=private,
        env=SANDBOX_ENV,
        timeout=60,
    )
    assert run.returncode == 0, run
    return private / "work"
