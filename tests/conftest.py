"""Fixtures for the whole suite."""

from __future__ import annotations

from provebench.sandbox._candidate import SHIPPED_MODULE_PREFIXES

# provebench's own test importers (`tests.…:Class`) are instrumented: they share state with the
# test that runs them (a mutation plan, classes made during the test), so they run in the test
# process, as provebench's shipped importers do. A `path.py:Class` written by a test is still a
# candidate and runs sealed (tests/sandbox, tests/pilot/lab/test_runner_cli.py).
if "tests." not in SHIPPED_MODULE_PREFIXES:
    SHIPPED_MODULE_PREFIXES.append("tests.")

# The laboratory key every run of the suite is signed with (docs/attestation.md): one per test
# process, made before any test runs, never the user's own (~/.config/provebench/keys). Set in
# the environment so that the CLI a test starts as a subprocess signs with it too.
import atexit
import os
import shutil
import tempfile

from provebench.attest import KEY_DIR_ENV, laboratory_signer

_KEY_DIR = tempfile.mkdtemp(prefix="provebench-test-keys-")
atexit.register(shutil.rmtree, _KEY_DIR, True)
os.environ[KEY_DIR_ENV] = _KEY_DIR
laboratory_signer()
