"""securesystemslib is imported once, without the cloud SDKs its signer package probes for
(provebench.attest._sslib): a command that signs does not pay for boto3."""

from __future__ import annotations

import ast
import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "provebench"

PROBE = """
import sys
import provebench.attest._envelope as envelope
print("boto3" in sys.modules, "botocore" in sys.modules)
import boto3  # still importable by anyone else
print(boto3.__name__)
"""


@pytest.mark.skipif(importlib.util.find_spec("boto3") is None, reason="boto3 is not installed")
def test_signing_imports_no_cloud_sdk_and_leaves_it_importable() -> None:
    done = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[:2] == ["False False", "boto3"]


def test_a_key_signs_and_verifies_through_the_guarded_import(tmp_path: Path) -> None:
    from provebench.attest._envelope import (
        read_statement,
        sign_statement,
        statement,
        write_envelope,
    )
    from provebench.attest._keys import PUBLIC_KEY_FILE, laboratory_signer, load_trusted_key

    signer = laboratory_signer(tmp_path / "keys")
    document = statement({"a.json": "0" * 64}, "https://example.invalid/p", {"fact": 1})
    write_envelope(tmp_path / "a.dsse.json", sign_statement(document, signer))
    trusted = load_trusted_key(tmp_path / "keys" / PUBLIC_KEY_FILE)
    assert read_statement(tmp_path / "a.dsse.json", trusted).predicate == {"fact": 1}


def test_only_the_guard_imports_securesystemslib() -> None:
    importers = []
    for path in sorted(SRC.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            if any(name.split(".")[0] == "securesystemslib" for name in names):
                importers.append(path.relative_to(SRC).as_posix())
    assert sorted(set(importers)) == ["attest/_sslib.py"]
