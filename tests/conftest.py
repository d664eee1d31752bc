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
# run, shared by its workers (a report signed in one worker is verified in another), made before
# any test runs, never the user's own (~/.config/provebench/keys). Set in the environment so that
# the CLI a test starts as a subprocess signs with it too. It lives in the run's temporary root,
# which pytest removes with its other old runs.
import os
from pathlib import Path

import pytest

from provebench.attest import KEY_DIR_ENV, laboratory_signer
from tests.helpers.cpu_probe import FOLDER_ENV, CpuProbe
from tests.helpers.earlier_demo import make_earlier_demo
from tests.helpers.frozen_heap import FrozenHeap
from tests.helpers.shared_run import Completed, made_once, provebench_once

# Until the session's key is made, nothing may sign or look for a key: a path under /dev/null can
# be neither created nor read, so a test that did so at collection would fail loudly.
os.environ[KEY_DIR_ENV] = "/dev/null/no-laboratory-key-before-the-session"


def pytest_configure(config: pytest.Config) -> None:
    # The suite's own objects out of the collector's scans (tests/helpers/frozen_heap.py).
    config.pluginmanager.register(FrozenHeap(), "frozen-heap")
    # Opt-in: each test's CPU, what the suite spends its time on (tests/helpers/cpu_probe.py).
    if os.environ.get(FOLDER_ENV):
        config.pluginmanager.register(CpuProbe(Path(os.environ[FOLDER_ENV])), "cpu-probe")


@pytest.fixture(scope="session", autouse=True)
def laboratory_key(tmp_path_factory: pytest.TempPathFactory) -> Path:
    keys = made_once(tmp_path_factory, "laboratory-keys", lambda folder: laboratory_signer(folder))
    os.environ[KEY_DIR_ENV] = str(keys)
    return keys


@pytest.fixture(scope="session")
def demo_run(tmp_path_factory: pytest.TempPathFactory) -> Completed:
    """One `provebench demo` of this test run, read by every test that needs it.

    It runs over the folder an earlier demo left (tests/helpers/earlier_demo.py), as a user's
    second `make demo` does: what the demo writes is the same either way, since it replaces its
    own folder whole before any step, and tests/test_demo.py reads the replacing from this run
    instead of running the demo a second time (half a minute of the suite)."""
    completed = provebench_once(tmp_path_factory, "demo", "demo", before=make_earlier_demo)
    assert completed.exit_code == 0, completed.stderr
    return completed


@pytest.fixture(scope="session")
def red_team_run(tmp_path_factory: pytest.TempPathFactory) -> Completed:
    """One `provebench pilot redteam --seed 0 --budget full` of this test run (its exit code is
    for the tests to judge): the pilot §14 budget that `pilot_pass` accepts, through the command
    a user runs, read by every test on a red team (tests/pilot/conftest.py, `full_red_team`).
    The CI budget's catalogue is run in process by the seed sweep
    (tests/pilot/redteam/test_redteam_situations.py); a second red team through the command,
    at the CI budget, cost about 45 s of CPU and proved nothing this one does not."""
    return provebench_once(
        tmp_path_factory, "red-team-full", "pilot", "redteam", "--seed", "0", "--budget", "full"
    )


# The slowest tests first, dealt one at a time (Makefile: --maxschedchunk 1): a worker that is
# free takes the next test, so the suite does not end with one worker running a minute-long test
# while the other idles. The tests on the work shared once per run come first, led by one test
# per shared work, longest work first: the workers start different shared works side by side.
# The other tests on the short shared works follow, then every test of seconds (marked slow),
# then the other tests on the full red team, then the rest, each group in its collected order.
# The full red team's tests come that late because a worker that takes one while the red team
# is still being made (about a minute) waits on its lock, doing nothing: behind the tests of
# seconds, the red team has long been made when they start.
_SHARED_WORK = ("red_team_run", "demo_run")  # longest first
_FULL_RED_TEAM = _SHARED_WORK.index("red_team_run")


def names(item: pytest.Item) -> tuple[str, ...]:
    return tuple(getattr(item, "fixturenames", ()))


# A test on the shared red team may be the one that makes it: the full §14 budget, a couple of
# minutes on two quiet cores, more on a loaded machine; the timeout of one test (pyproject.toml)
# is too short for it.
_RED_TEAM_TIMEOUT_S = 900


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if _SHARED_WORK[_FULL_RED_TEAM] in names(item):
            item.add_marker(pytest.mark.timeout(_RED_TEAM_TIMEOUT_S))
    leaders: dict[int, int] = {}
    for order, work in enumerate(_SHARED_WORK):
        leader = next(
            (i for i, item in enumerate(items) if work in names(item)),
            None,
        )
        if leader is not None and leader not in leaders:
            leaders[leader] = order

    def rank(pair: tuple[int, pytest.Item]) -> tuple[int, int]:
        index, item = pair
        if index in leaders:
            return 0, leaders[index]
        needs = [order for order, work in enumerate(_SHARED_WORK) if work in names(item)]
        if _FULL_RED_TEAM in needs:
            return 3, 0
        if needs:
            return 1, -min(needs)  # on the shortest work first
        return (2 if item.get_closest_marker("slow") else 4), 0

    ranked = sorted(enumerate(items), key=lambda pair: (rank(pair), pair[0]))
    items[:] = [item for _, item in ranked]
    # xdist hands each worker two tests to begin with: the worker that makes the full red team
    # holds its second while it does. Another shared work's leader held there would wait about a
    # minute behind the red team instead of starting on a free worker, so the first test of
    # seconds on no shared work is held there instead.
    if _FULL_RED_TEAM in leaders.values() and len(leaders) > 1:
        filler = next(
            (
                position
                for position, (index, item) in enumerate(ranked)
                if rank((index, item)) == (2, 0)
            ),
            None,
        )
        if filler is not None:
            items.insert(1, items.pop(filler))
