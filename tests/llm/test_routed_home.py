"""Pilot red team 25, A2b and A2: an endpoint judged `remote` whose packets the kernel delivers to
this machine.

A2b: `ip route add local 1.2.3.0/24 dev lo src 127.0.0.1` made 1.2.3.4 an address of this
machine, yet the source address the kernel picks for it was 127.0.0.1, so the judgement by
source address said `remote`: a server here read the answer key, `laboratory_pass`, escrow
released. The route's type is read now (`_this_machine.locally_routed`), and each connection of
a `remote` endpoint is checked not to end on a socket of this machine (`peer_is_this_machine`).
A2: the IPv4 address an IPv6 one carries was never asked of the routing at all.
"""

from __future__ import annotations

import ipaddress
import os
import socket
import subprocess
import sys
from pathlib import Path

import httpcore
import pytest

from provebench.llm._pinned import PinnedBackend
from provebench.sandbox import _isolation, _this_machine
from provebench.sandbox._isolation import _addresses_reach

pytestmark = pytest.mark.timeout(60)

# /proc/net/fib_trie as the kernel prints it after `ip route add local 1.2.3.0/24 dev lo`, with
# a unicast route to a public prefix beside it (which delivers nowhere here).
FIB_TRIE = """Main:
  +-- 0.0.0.0/0 3 0 5
     |-- 0.0.0.0
        /0 universe UNICAST
     |-- 9.9.9.0
        /24 link UNICAST
Local:
  +-- 0.0.0.0/0 3 0 5
     +-- 1.2.3.0/24 2 0 2
        |-- 1.2.3.0
           /24 host LOCAL
     |-- 127.0.0.1
        /32 host LOCAL
"""
# /proc/net/ipv6_route: a `local` route of a public prefix (flags RTF_LOCAL | RTF_NONEXTHOP |
# RTF_UP), an anycast one, and a unicast default route.
IPV6_ROUTE = (
    "26064700000500000000000000000000 30 00000000000000000000000000000000 00 "
    "00000000000000000000000000000000 00000000 00000001 00000000 80200001       lo\n"
    "2a001450000700000000000000000000 80 00000000000000000000000000000000 00 "
    "00000000000000000000000000000000 00000000 00000001 00000000 00100001     eth0\n"
    "00000000000000000000000000000000 00 00000000000000000000000000000000 00 "
    "fd000000000000000000000000000001 00000400 00000003 00000000 00000003     eth0\n"
)


@pytest.fixture
def routes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "fib_trie").write_text(FIB_TRIE, encoding="ascii")
    (tmp_path / "ipv6_route").write_text(IPV6_ROUTE, encoding="ascii")
    monkeypatch.setattr(_this_machine, "FIB_TRIE", tmp_path / "fib_trie")
    monkeypatch.setattr(_this_machine, "IPV6_ROUTE", tmp_path / "ipv6_route")


@pytest.mark.usefixtures("routes")
def test_an_address_under_a_local_route_is_local_whatever_its_prefix() -> None:
    assert _addresses_reach(("1.2.3.4",)) == "local"  # A2b
    assert _addresses_reach(("2606:4700:5::1",)) == "local"
    assert _addresses_reach(("2a00:1450:7::",)) == "local"  # an anycast route: delivered here
    # the honest controls: a unicast route, public, stays remote
    assert _addresses_reach(("9.9.9.9",)) == "remote"
    assert _addresses_reach(("2606:4700:6::1",)) == "remote"
    assert not _this_machine.locally_routed(ipaddress.ip_address("1.2.4.1"))


@pytest.mark.parametrize(
    "carried", ["::8.8.8.8", "::ffff:0:808:808", "64:ff9b::8.8.8.8", "2002:808:808::5"]
)
def test_an_embedded_ipv4_address_is_asked_of_the_routing(
    monkeypatch: pytest.MonkeyPatch, carried: str
) -> None:
    """A2: with 8.8.8.8 on `lo`, the address itself was local and every IPv6 form carrying it
    remote."""
    here = ipaddress.ip_address("8.8.8.8")
    monkeypatch.setattr(_isolation, "_routed_to_self", lambda address: address == here)
    monkeypatch.setattr(_isolation, "_own_addresses", set)
    assert _addresses_reach(("8.8.8.8",)) == "local"
    assert _addresses_reach((carried,)) == "local"
    assert _addresses_reach(("::9.9.9.9",)) == "remote"  # the control: carried, not here


def test_a_remote_endpoints_connection_that_ends_here_is_refused(listening: int) -> None:
    """Whatever the judgement missed, the connection is asked where it ended: its other end is a
    socket of this machine (its reversed 4-tuple in /proc/net/tcp)."""
    addresses = {"model.example": ("127.0.0.1",)}
    pinned = PinnedBackend(httpcore.SyncBackend(), addresses, httpcore.ConnectError, remote=True)
    with pytest.raises(httpcore.ConnectError, match="the connection ends on this machine"):
        pinned.connect_tcp("model.example", listening, timeout=5)
    # the control: an endpoint judged local connects as before
    local = PinnedBackend(httpcore.SyncBackend(), addresses, httpcore.ConnectError)
    local.connect_tcp("model.example", listening, timeout=5).close()


def test_a_connection_whose_other_end_is_no_socket_here_is_not_this_machine(
    listening: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The decision is the socket table's: the same connection, with a table that holds no
    socket at its other end (a server elsewhere), is not this machine's."""
    empty = tmp_path / "tcp"
    empty.write_text("  sl  local_address rem_address   st\n", encoding="ascii")
    with socket.create_connection(("127.0.0.1", listening), timeout=5) as connected:
        assert _this_machine.peer_is_this_machine(connected)
        monkeypatch.setattr(_this_machine, "TCP_TABLES", (empty,))
        assert not _this_machine.peer_is_this_machine(connected)


NAMESPACE_CHILD = """
import socket
from provebench.sandbox import _isolation
listening = socket.socket()
listening.bind(("0.0.0.0", 0))
listening.listen()
url = f"http://1.2.3.4:{listening.getsockname()[1]}/v1"
print("judged", _isolation.judge_endpoint(url).reach)
"""


def test_an_anyip_route_as_the_red_team_played_it() -> None:
    """A2b in a network namespace of its own (`unshare -rn`): the route is real."""
    script = (
        "ip link set lo up && ip route add local 1.2.3.0/24 dev lo src 127.0.0.1 table local "
        f'&& exec "{sys.executable}" -c "$CHILD"'
    )
    try:
        done = subprocess.run(
            ["unshare", "-rn", "sh", "-c", script], capture_output=True, text=True,
            env={**os.environ, "CHILD": NAMESPACE_CHILD}, timeout=30, check=False,
        )  # fmt: skip
    except OSError as error:
        pytest.skip(f"no unshare here: {error}")
    if done.returncode != 0 and not done.stdout:
        pytest.skip(f"no network namespace with routes here: {done.stderr.strip()}")
    assert done.returncode == 0, done.stderr
    assert "judged local" in done.stdout, done.stdout
