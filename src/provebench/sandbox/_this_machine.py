"""Whether an address, or the other end of a connection, is this machine — asked of the kernel.

An endpoint judged `remote` is sealed (`_isolation.judge_endpoint`), so "this machine" must be
what the kernel delivers locally, not what a name or a source address suggests. Two questions:

* `locally_routed`: does a route of type `local` (or IPv6 `anycast`) cover the address, in any
  routing table? Such a route delivers the address's packets to this machine's own sockets
  whatever prefix it names: `ip route add local 1.2.3.0/24 dev lo` made a public address a
  local one, and the source address the kernel picks for it (what `_routed_to_self` read) was
  127.0.0.1, not the address itself (pilot red team 25, A2b). Read from `/proc/net/fib_trie`
  (IPv4) and `/proc/net/ipv6_route` (IPv6; `RTF_LOCAL`, `RTF_ANYCAST`) of the laboratory's
  network namespace. Any table counts, the rules that pick one aside: judged local where it
  might be is the fail-closed side.
* `peer_is_this_machine`: is the other end of a connected TCP socket a socket of this machine —
  its reversed 4-tuple in `/proc/net/tcp` or `/proc/net/tcp6`? Asked once a connection is made
  (llm/_pinned.py), it catches what any routing trick delivers locally. Address translation
  (a NAT rule redirecting to another address) and a server in another network namespace of this
  machine leave no such socket: a limit (docs/sandbox.md).
"""

from __future__ import annotations

import ipaddress
import socket
import struct
from pathlib import Path
from typing import Final

Address = ipaddress.IPv4Address | ipaddress.IPv6Address
Network = ipaddress.IPv4Network | ipaddress.IPv6Network

FIB_TRIE: Final = Path("/proc/net/fib_trie")
IPV6_ROUTE: Final = Path("/proc/net/ipv6_route")
TCP_TABLES: Final = (Path("/proc/net/tcp"), Path("/proc/net/tcp6"))
# include/uapi/linux/ipv6_route.h: a route delivering to this machine.
_RTF_LOCAL: Final = 0x80000000
_RTF_ANYCAST: Final = 0x00100000


def locally_routed(address: Address) -> bool:
    """Whether a `local` route (IPv6: `local` or `anycast`) of any table covers `address`."""
    networks = _ipv4_local_routes() if address.version == 4 else _ipv6_local_routes()
    return any(address in network for network in networks)


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="ascii", errors="replace")
    except OSError:
        return ""


def _ipv4_local_routes() -> list[Network]:
    """Every `LOCAL` route of `/proc/net/fib_trie`: a leaf line `|-- A.B.C.D`, then one line per
    route of that prefix, `/LEN SCOPE TYPE [tos=N]` (net/ipv4/fib_trie.c, fib_trie_seq_show)."""
    found: list[Network] = []
    leaf: str | None = None
    for line in _read(FIB_TRIE).splitlines():
        words = line.split()
        if len(words) == 2 and words[0] == "|--":
            leaf = words[1]
        elif leaf is not None and len(words) >= 3 and words[0].startswith("/"):
            if words[2] == "LOCAL":
                try:
                    found.append(ipaddress.IPv4Network(f"{leaf}{words[0]}", strict=False))
                except ValueError:
                    continue
        else:
            leaf = None
    return found


def _ipv6_local_routes() -> list[Network]:
    """Every route of `/proc/net/ipv6_route` whose flags say it delivers here: `DEST LEN SRC
    SRCLEN NEXTHOP METRIC REFCNT USE FLAGS DEVICE`, hexadecimal (net/ipv6/route.c)."""
    found: list[Network] = []
    for line in _read(IPV6_ROUTE).splitlines():
        words = line.split()
        if len(words) < 10:
            continue
        try:
            flags = int(words[8], 16)
            if not flags & (_RTF_LOCAL | _RTF_ANYCAST):
                continue
            destination = ipaddress.IPv6Address(bytes.fromhex(words[0]))
            found.append(ipaddress.IPv6Network(f"{destination}/{int(words[1], 16)}", strict=False))
        except ValueError:
            continue
    return found


def peer_is_this_machine(connected: socket.socket) -> bool:
    """Whether a socket of this machine (of this network namespace) is the other end of
    `connected`: one whose local address is `connected`'s peer and whose peer is `connected`'s
    local address. Undecidable (not a TCP/IP socket, not connected): True — fail closed."""
    try:
        local = connected.getsockname()
        peer = connected.getpeername()
    except OSError:
        return True
    if connected.family not in (socket.AF_INET, socket.AF_INET6):
        return True
    wanted = (_endpoint(peer), _endpoint(local))
    return any(_entry(line) == wanted for table in TCP_TABLES for line in _lines(table))


def _endpoint(name: tuple[str | int, ...]) -> tuple[Address, int]:
    address = ipaddress.ip_address(str(name[0]).split("%")[0])
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped  # a dual-stack socket's IPv4 peer, as tcp lists it
    return address, int(name[1])


def _lines(table: Path) -> list[str]:
    return _read(table).splitlines()[1:]


def _entry(line: str) -> tuple[tuple[Address, int], tuple[Address, int]] | None:
    """`(local, remote)` of one line of `/proc/net/tcp{,6}`: `sl local rem st …`, each address
    `HEX:PORT`, the address in 32-bit words of the host's byte order."""
    words = line.split()
    if len(words) < 3:
        return None
    try:
        return _hex_endpoint(words[1]), _hex_endpoint(words[2])
    except ValueError:
        return None


def _hex_endpoint(text: str) -> tuple[Address, int]:
    address_hex, _, port_hex = text.partition(":")
    if len(address_hex) not in (8, 32):
        raise ValueError(text)
    packed = b"".join(
        struct.pack("=I", int(address_hex[i : i + 8], 16)) for i in range(0, len(address_hex), 8)
    )
    address = ipaddress.ip_address(packed)
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return address, int(port_hex, 16)


__all__ = ["locally_routed", "peer_is_this_machine"]
