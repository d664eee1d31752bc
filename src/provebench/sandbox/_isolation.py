"""How a candidate was isolated: recorded in the run's identity (hash-chained in the log) and
carried into every verdict.

* `{"mode": "sandbox", "tool": "bubblewrap", "version": …, "policy_sha256": …,
  "environment_sha256": …}` — the candidate ran in the sandbox of that policy, beside
  provebench's environment of that digest (docs/sandbox.md);
* `{"mode": "trusted-shipped"}` — one of provebench's own agents (the reference, the no-op, the
  red team's defective importers, the scripted SI agents), chosen by provebench from the agent
  spec, never by an option;
* `{"mode": "endpoint", "url": …, "reach": "remote" | "local"[, "proxy": …]}` — provebench's
  own tool-calling loop driving a model behind an OpenAI-compatible endpoint that provebench did
  not start (through the proxy the environment names, if any, which answers for it). The
  model has only the tools, but whatever serves the URL is the operator's, not provebench's: a
  server on this machine or its network (`local`) may be the candidate's own code with a shell,
  outside the sandbox, so it is unsealed; a server that only resolves to public addresses
  (`remote`) cannot reach this machine's files, and is sealed as far as provebench can tell
  — the model client connects only to the addresses so judged (`judge_endpoint`,
  llm/_pinned.py), never to what the name resolves to later;
* `{"mode": "none", "reason": …}` — a candidate provebench did not start (`pilot serve`'s HTTP
  client, `si serve`'s MCP client). Its run evaluates, but it can never reach `laboratory_pass`
  or escrow, and every SI verdict of it says `sealed: false`.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final, Literal
from urllib.parse import urlsplit

from provebench.sandbox._this_machine import locally_routed

Isolation = dict[str, str]
# The digest of provebench's environment a sandboxed run ran in (`_manifest`).
ENVIRONMENT_KEY = "environment_sha256"

SHIPPED: Isolation = {"mode": "trusted-shipped"}
UNSANDBOXED_MCP: Isolation = {
    "mode": "none",
    "reason": "an MCP client: provebench did not start the agent and cannot seal it",
}
UNSANDBOXED_SERVED: Isolation = {
    "mode": "none",
    "reason": "served over HTTP: provebench did not start the importer and cannot seal it",
}


def sandboxed(version: str, policy_sha256: str) -> Isolation:
    return {
        "mode": "sandbox",
        "tool": "bubblewrap",
        "version": version,
        "policy_sha256": policy_sha256,
    }


def isolation_of(policy_sha256: str) -> Isolation:
    """The record of a launch under the policy with that digest, by the checked bubblewrap, in
    provebench's environment of that digest: checked to hold only provebench's code before any
    sandboxed launch is recorded (`_manifest.checked_environment_digest`, pilot red team 30,
    A12), and bound by its bytes (`environment_sha256`), which a run from a seal must share with
    the seal (docs/attestation.md)."""
    from provebench.sandbox._manifest import checked_environment_digest
    from provebench.sandbox._tool import bwrap_tool

    record = sandboxed(bwrap_tool().version, policy_sha256)
    record[ENVIRONMENT_KEY] = checked_environment_digest(field="--agent")
    return record


def endpoint_isolation(url: str, judgement: EndpointJudgement | None = None) -> Isolation:
    """The record of a model endpoint provebench did not start: its URL (without any user or
    password in it), whether it is on this machine or its network (`judgement`, else
    `judge_endpoint` now), and the proxy the requests go through when the environment names one
    (`proxy_for`)."""
    reach = (judgement or judge_endpoint(url)).reach
    record: Isolation = {"mode": "endpoint", "url": _shown_url(url), "reach": reach}
    proxy = proxy_for(url)
    if proxy is not None:
        record["proxy"] = _shown_url(proxy)
    return record


def _shown_url(url: str) -> str:
    parts = urlsplit(url)
    host = parts.hostname or ""
    shown = f"[{host}]" if ":" in host else host
    netloc = shown if parts.port is None else f"{shown}:{parts.port}"
    return parts._replace(netloc=netloc, query="", fragment="").geturl()


def proxy_for(url: str) -> str | None:
    """The proxy the environment names for `url`'s scheme (`HTTPS_PROXY`, `HTTP_PROXY`,
    `ALL_PROXY`, either case), which the OpenAI SDK's HTTP client sends the requests through:
    whatever answers there answers for the model. `NO_PROXY` is not consulted — clients read it
    each in their own way, and a bypass misread would record a local proxy's answers as a remote
    server's (fail closed: a named proxy is always judged)."""
    import urllib.request

    proxies = urllib.request.getproxies_environment()
    scheme = urlsplit(url).scheme.lower()
    return proxies.get(scheme) or proxies.get("all") or None


@dataclass(frozen=True)
class EndpointJudgement:
    """An endpoint's reach and what it was judged from: each host its requests may connect to
    (the URL's, and the proxy's when the environment names one), under `pin_key`, with the
    addresses that host resolved to, once. The model client connects to these addresses and no
    others (llm/_pinned.py): a name that resolves elsewhere afterwards — DNS rebinding, a
    public address when the reach was judged and loopback when the SDK connects (pilot red team
    20, H1) — reaches nothing it was not judged by."""

    reach: Literal["local", "remote"]
    addresses: Mapping[str, tuple[str, ...]]


def judge_endpoint(url: str) -> EndpointJudgement:
    """`remote` when every address the URL's host resolves to is a public one that is not this
    machine's own — and so does the proxy's, when the environment names one for the URL, since
    the proxy answers for the model; `local` otherwise — loopback, private, link-local,
    unresolvable: anything that may be a process next to the laboratory, which provebench cannot
    tell from candidate code (fail closed)."""
    proxy = proxy_for(url)
    hosts = [urlsplit(url).hostname] + ([urlsplit(proxy).hostname] if proxy is not None else [])
    reach: Literal["local", "remote"] = "remote"
    addresses: dict[str, tuple[str, ...]] = {}
    for host in hosts:
        if not host:
            reach = "local"
            continue
        resolved = _resolve(host)
        addresses[pin_key(host)] = resolved
        if _addresses_reach(resolved) == "local":
            reach = "local"
    return EndpointJudgement(reach, addresses)


def endpoint_reach(url: str) -> Literal["local", "remote"]:
    """The reach `judge_endpoint` gives `url`."""
    return judge_endpoint(url).reach


def pin_key(host: str) -> str:
    """A host as the HTTP client names it when it connects: lower case, IPv6 without brackets,
    an international name in its ASCII (IDNA) form."""
    key = host.strip("[]").lower()
    try:
        return key.encode("idna").decode("ascii")
    except UnicodeError:
        return key


def _resolve(host: str) -> tuple[str, ...]:
    """Every address `host` resolves to, in the resolver's order; none when it does not."""
    try:
        infos = socket.getaddrinfo(host, None)
    except (OSError, UnicodeError):
        return ()
    return tuple(dict.fromkeys(str(info[4][0]) for info in infos))


def _addresses_reach(resolved: tuple[str, ...]) -> Literal["local", "remote"]:
    if not resolved:
        return "local"
    own = _own_addresses()
    for text in resolved:
        address = ipaddress.ip_address(text.split("%")[0])
        if isinstance(address, ipaddress.IPv6Address) and address in _LOCAL_NAT64:
            return "local"
        embedded = _embedded_ipv4(address)
        # The carried address is judged as the address itself is, routing included: a
        # translator delivers to it (pilot red team 25, A2: `::8.8.8.8` judged remote while
        # 8.8.8.8 on `lo` was local).
        if embedded is not None and (
            not embedded.is_global or str(embedded) in own or _routed_to_self(embedded)
        ):
            return "local"
        if not address.is_global or str(address) in own or _routed_to_self(address):
            return "local"
    return "remote"


def _routed_to_self(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    """Whether the kernel routes `address` to this machine: a route of type `local` covers it
    (`_this_machine.locally_routed`), or the source address the kernel would give a datagram to
    it is the address itself (no packet is sent). The hostname's own addresses miss what an
    interface holds and no name gives (pilot red team 24, A1: a local model listening on this
    machine's public address was judged remote); the source address alone misses a `local`
    route with another preferred source (pilot red team 25, A2b: `ip route add local
    1.2.3.0/24 dev lo` — the source was 127.0.0.1, and a server here read the answer key under
    a `remote` record). Undecidable (no route): not this machine, as before — the client
    cannot reach it either; the connection itself is checked again (llm/_pinned.py)."""
    if locally_routed(address):
        return True
    family = socket.AF_INET6 if address.version == 6 else socket.AF_INET
    try:
        with socket.socket(family, socket.SOCK_DGRAM) as probe:
            probe.connect((str(address), 9))
            source = probe.getsockname()[0]
    except OSError:
        return False
    return bool(ipaddress.ip_address(str(source).split("%")[0]) == address)


_NAT64: Final = ipaddress.IPv6Network("64:ff9b::/96")
# RFC 8215's prefix for NAT64 within one operator's network: whatever it carries is that
# network's (pilot red team 24, A4)
_LOCAL_NAT64: Final = ipaddress.IPv6Network("64:ff9b:1::/48")


def _embedded_ipv4(
    address: ipaddress.IPv4Address | ipaddress.IPv6Address,
) -> ipaddress.IPv4Address | None:
    """The IPv4 address an IPv6 one carries, where a host may route it there: mapped
    (`::ffff:127.0.0.1`), compatible (`::127.0.0.1`), SIIT (`::ffff:0:7f00:1`), NAT64
    (`64:ff9b::7f00:1`) and 6to4 (`2002:7f00:1::`) — judged by the address carried (pilot red
    team 22, A11: the four but the first were judged remote around 127.0.0.1)."""
    if not isinstance(address, ipaddress.IPv6Address):
        return None
    if address.ipv4_mapped is not None:
        return address.ipv4_mapped
    if address.sixtofour is not None:
        return address.sixtofour
    value = int(address)
    low = ipaddress.IPv4Address(value & 0xFFFFFFFF)
    if address in _NAT64 or value >> 32 == 0 or value >> 32 == 0xFFFF0000:
        return low  # NAT64, IPv4-compatible (::a.b.c.d), SIIT (::ffff:0:a.b.c.d)
    return None


def _own_addresses() -> set[str]:
    try:
        return {str(info[4][0]) for info in socket.getaddrinfo(socket.gethostname(), None)}
    except (OSError, UnicodeError):
        return set()


def is_sealed(isolation: Mapping[str, Any] | None) -> bool:
    """Whether `isolation` says nothing the candidate controls ran outside provebench's seal: a
    sandbox, provebench's own code, or provebench's loop on a remote model endpoint. What the
    operator runs outside the sandbox is trusted by definition, but never recorded as sealed
    when it may be the candidate's own process (a local endpoint, an MCP or HTTP client)."""
    if is_sandboxed(isolation):
        return True
    return (
        isinstance(isolation, Mapping)
        and isolation.get("mode") == "endpoint"
        and isolation.get("reach") == "remote"
    )


def is_sandboxed(isolation: Mapping[str, Any] | None) -> bool:
    """Whether `isolation` says the candidate was sealed: a sandbox, or provebench's own code."""
    if not isinstance(isolation, Mapping):
        return False
    mode = isolation.get("mode")
    if mode == "trusted-shipped":
        return True
    return (
        mode == "sandbox"
        and isolation.get("tool") == "bubblewrap"
        and isinstance(isolation.get("policy_sha256"), str)
        and len(isolation["policy_sha256"]) == 64
    )


__all__ = [
    "ENVIRONMENT_KEY",
    "SHIPPED",
    "UNSANDBOXED_MCP",
    "UNSANDBOXED_SERVED",
    "EndpointJudgement",
    "Isolation",
    "endpoint_isolation",
    "endpoint_reach",
    "is_sandboxed",
    "is_sealed",
    "isolation_of",
    "judge_endpoint",
    "pin_key",
    "proxy_for",
    "sandboxed",
]
