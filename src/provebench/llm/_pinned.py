"""The model client connects only to the addresses its endpoint's reach was judged by.

An endpoint is `remote` (sealed) when every address its host — and its proxy's — resolves to is
public (sandbox/_isolation.py, `judge_endpoint`). The SDK's HTTP client resolves the name again
for every connection it opens, so a name answered with a public address when the reach was
judged and with 127.0.0.1 afterwards (DNS rebinding) had the requests served by whatever listens
on this machine — candidate code running as the operator, outside the sandbox — under a `remote`
record (pilot red team 20, H1). Here each connection the client opens goes to an address of the
judgement and to no other: the name is never looked up again; the Host header, TLS server name
and certificate check stay the name's, since only the socket's destination changes. A host the
judgement did not resolve (none can be, short of a client that connects elsewhere than its URL
and proxy) is refused, so the request fails as the endpoint's failure. For an endpoint judged
`remote`, each connection is also checked not to end on a socket of this machine
(`_this_machine.peer_is_this_machine`): the route the judgement read is not the only way a
packet comes home (pilot red team 25, A2b).

Every connection the client tries is written down (`ConnectionLog`): the host it asked for, the
address it connected to, how the endpoint was judged and what was checked, or why it was
refused. The pilot's run puts them in each cycle's transcript note, in the signed log beside
the reach its isolation records (docs/llm-agents.md, "Who runs the model"). No clock: the same
connections make the same record.
"""

from __future__ import annotations

import importlib
import socket
from collections.abc import Iterable, Mapping
from typing import Any

from provebench.llm._connections import PINNED, PINNED_AND_PEER, ConnectionLog
from provebench.sandbox._isolation import EndpointJudgement, pin_key
from provebench.sandbox._this_machine import peer_is_this_machine


class PinnedBackend:
    """A network backend (httpcore's interface) that connects a host's name to the addresses
    it was judged by, in the resolver's order, through the backend it wraps."""

    def __init__(
        self,
        inner: Any,
        addresses: Mapping[str, tuple[str, ...]],
        connect_error: type[Exception],
        *,
        remote: bool = False,
        log: ConnectionLog | None = None,
    ) -> None:
        self._inner = inner
        self._addresses = dict(addresses)
        self._connect_error = connect_error
        # Judged remote (sealed): every connection is checked to end elsewhere than here.
        self._remote = remote
        self._log = log if log is not None else ConnectionLog()

    def _record(
        self, host: str, port: int, address: str | None, outcome: str, reason: str | None = None
    ) -> None:
        entry: dict[str, object] = {
            "host": host,
            "port": port,
            "judged": "remote" if self._remote else "local",
            "checked": PINNED_AND_PEER if self._remote else PINNED,
            "address": address,
            "outcome": outcome,
            "reason": reason,
        }
        self._log.add(entry)

    def _refuse(self, host: str, port: int, address: str | None, reason: str) -> Exception:
        self._record(host, port, address, "refused", reason)
        return self._connect_error(f"{host}: {reason}; not connected")

    def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[Any] | None = None,
    ) -> Any:
        judged = self._addresses.get(pin_key(host), ())
        if not judged:
            raise self._refuse(
                host, port, None, "not an address the endpoint's reach was judged by"
            )
        failure: Exception | None = None
        for address in judged:
            try:
                stream = self._inner.connect_tcp(
                    address,
                    port,
                    timeout=timeout,
                    local_address=local_address,
                    socket_options=socket_options,
                )
            except Exception as error:  # the next judged address, as a resolver's client would
                # Its error text is the OS's and the timer's, not recorded: the run's record of
                # the failure is the endpoint's own (`EndpointFailure`).
                self._record(host, port, address, "unreachable")
                failure = error
                continue
            if self._remote:
                self._refuse_this_machine(host, port, address, stream)
            self._record(host, port, address, "connected")
            return stream
        assert failure is not None
        raise failure

    def _refuse_this_machine(self, host: str, port: int, address: str, stream: Any) -> None:
        """A connection of an endpoint judged remote whose other end is a socket of this
        machine is closed and refused: whatever routing delivered it here (a `local` route the
        judgement missed, one added since), the server is a process beside the laboratory,
        which may be the candidate's (pilot red team 25, A2b). A stream whose socket cannot be
        looked at is refused too (fail closed)."""
        connected = stream.get_extra_info("socket")
        if isinstance(connected, socket.socket) and not peer_is_this_machine(connected):
            return
        stream.close()
        raise self._refuse(
            host, port, address, "judged remote, but the connection ends on this machine"
        )

    def connect_unix_socket(self, path: str, *args: Any, **kwargs: Any) -> Any:
        raise self._refuse(path, 0, None, "a Unix socket is not an address that was judged")

    def sleep(self, seconds: float) -> None:
        self._inner.sleep(seconds)


def pin_client(client: Any, judgement: EndpointJudgement, log: ConnectionLog | None = None) -> None:
    """Make every transport of `client` (an httpx or httpx2 client: its own, and the proxies'
    the environment mounts) connect through a `PinnedBackend` of `judgement`, each connection
    written in `log`. A transport whose connection pool cannot be reached is refused rather
    than left to resolve on its own (fail closed)."""
    transports = [client._transport, *client._mounts.values()]
    for transport in transports:
        if transport is None:  # a mount that sends its URLs to no proxy: the client's own
            continue
        pool = getattr(transport, "_pool", None)
        backend = getattr(pool, "_network_backend", None)
        if backend is None:
            raise RuntimeError(
                f"cannot pin the model client's connections ({type(transport).__name__})"
            )
        core = importlib.import_module(type(pool).__module__.split(".")[0])
        pool._network_backend = PinnedBackend(  # type: ignore[union-attr]
            backend,
            judgement.addresses,
            core.ConnectError,
            remote=judgement.reach == "remote",
            log=log,
        )


__all__ = ["PinnedBackend", "pin_client"]
