"""Fixtures for the whole suite."""

from __future__ import annotations

from provebench.sandbox._candidate import SHIPPED_MODULE_PREFIXES

# provebench's own test importers (`tests.…:Class`) are instrumented: they share state with the
# test that runs them (a mutation plan, classes made during the test), so they run in the test
# process, as provebench's shipped importers do. A `path.py:Class` written by a test is still a
# candidate and runs sealed (tests/sandbox, tests/pilot/test_runner_cli.py).
if "tests." not in SHIPPED_MODULE_PREFIXES:
    SHIPPED_MODULE_PREFIXES.append("tests.")
