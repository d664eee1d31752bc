"""`provebench._signals`: the handler every long-running server installs for SIGINT and SIGTERM
(each server's own test starts it with SIGINT ignored and stops it with Ctrl-C)."""

from __future__ import annotations

import signal

import pytest

from provebench._signals import ExitOnSignal, raise_interrupt, stopped_by_signals


def test_both_signals_are_handled_inside_and_restored_after() -> None:
    before = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # as a process started with `&` inherits
        with stopped_by_signals(raise_interrupt):
            assert signal.getsignal(signal.SIGINT) is raise_interrupt
            assert signal.getsignal(signal.SIGTERM) is raise_interrupt
            with pytest.raises(KeyboardInterrupt):
                signal.raise_signal(signal.SIGINT)
        assert signal.getsignal(signal.SIGINT) == signal.SIG_IGN
    finally:
        for signum, handler in before.items():
            signal.signal(signum, handler)


def test_a_stdio_server_exits_with_the_shells_status_for_the_signal() -> None:
    stopper = ExitOnSignal()
    stopper.exit_if_stopped()  # no signal came: nothing happens
    with pytest.raises(SystemExit) as raised:
        stopper(signal.SIGTERM, None)
    assert raised.value.code == 143 and stopper.signum == signal.SIGTERM
