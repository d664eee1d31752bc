"""A model endpoint's reach is judged from the addresses its client connects to.

The attack (pilot red team 20, H1): `--base-url http://model.example:PORT/v1` resolved to a
public address when the run's isolation was judged (`reach: remote`, sealed), then to 127.0.0.1
when the SDK's HTTP client connected (DNS rebinding): a local server — candidate code as the
operator, outside the sandbox — read the answer key and reached laboratory_pass and escrow. Here
a resolver the test controls answers a public address first and loopback after, and a network
the test controls refuses every public address: the client must connect to the judged (public)
address, never to the loopback model, on the pilot's side and the SI side alike, and through an
environment proxy as directly.
"""

from __future__ import annotations

import socket
from collections.abc import Callable, Iterator, Mapping
from typing import Any
from urllib.parse import urlsplit

import openai
import pytest

from provebench.llm._endpoint import Endpoint
from provebench.pilot.agents._openai import openai_agent
from provebench.si.agents._openai import LoadedOpenAIAgent
from tests.helpers.fake_openai import FakeModel, fake_openai_server

PUBLIC = "93.184.215.14"
REBINDING = "model.rebind.test"
_PROXIES = ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy")


def _pilot_isolation(endpoint: Endpoint) -> Mapping[str, str]:
    return openai_agent(endpoint, "the contract").isolation


def _si_isolation(endpoint: Endpoint) -> Mapping[str, str]:
    return LoadedOpenAIAgent(endpoint).isolation


@pytest.fixture
def rebinding_network(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """`REBINDING` resolves to `PUBLIC` the first time and to 127.0.0.1 every time after; a
    connection to a public address is refused at once (no network is used). Yields the
    addresses connected to."""
    for name in _PROXIES:
        monkeypatch.delenv(name, raising=False)
    real_getaddrinfo = socket.getaddrinfo
    real_connect = socket.create_connection
    answers = iter([PUBLIC])
    connected: list[str] = []

    def rebinding_getaddrinfo(host: Any, port: Any, *args: Any, **kwargs: Any) -> Any:
        if host != REBINDING:
            return real_getaddrinfo(host, port, *args, **kwargs)
        address = next(answers, "127.0.0.1")
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (address, port or 0))]

    def controlled_connect(address: tuple[str, int], *args: Any, **kwargs: Any) -> Any:
        host, port = address
        resolved = rebinding_getaddrinfo(host, port)[0][4][0] if host == REBINDING else host
        connected.append(resolved)
        if resolved == PUBLIC:
            raise ConnectionRefusedError(f"{resolved}: this test's network reaches no public host")
        return real_connect((resolved, port), *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", rebinding_getaddrinfo)
    monkeypatch.setattr(socket, "create_connection", controlled_connect)
    yield connected


@pytest.mark.parametrize("isolation_of", [_pilot_isolation, _si_isolation], ids=["pilot", "si"])
@pytest.mark.parametrize("through_proxy", [False, True], ids=["direct", "proxy"])
def test_a_name_rebound_to_loopback_after_the_judgement_is_never_connected(
    rebinding_network: list[str],
    monkeypatch: pytest.MonkeyPatch,
    isolation_of: Callable[[Endpoint], Mapping[str, str]],
    through_proxy: bool,
) -> None:
    model = FakeModel(lambda call: "the answer key, read by a local process")
    with fake_openai_server(model) as served:
        port = urlsplit(served).port
        url = f"http://{REBINDING}:{port}/v1"
        if through_proxy:
            # The proxy answers for the model: its name is the one that rebinds.
            monkeypatch.setenv("HTTP_PROXY", f"http://{REBINDING}:{port}")
            url = f"http://{PUBLIC}/v1"
        endpoint = Endpoint(model="m", base_url=url, api_key="k", max_retries=0)
        isolation = isolation_of(endpoint)
        assert isolation["reach"] == "remote"  # judged from the first (public) answer
        with pytest.raises(openai.APIConnectionError):
            endpoint.client().chat.completions.create(
                model="m", messages=[{"role": "user", "content": "hi"}]
            )
    assert model.requests == []  # the loopback "model" was never reached
    assert rebinding_network == [PUBLIC]  # only the judged address was connected to


def test_an_honest_name_is_connected_to_and_keeps_its_host_header(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A name that stays on loopback (judged local): the pinned client still reaches it, and the
    # server is asked for the name, not the address.
    hosts: list[str] = []
    real_getaddrinfo = socket.getaddrinfo

    def localhost_alias(host: Any, port: Any, *args: Any, **kwargs: Any) -> Any:
        name = "127.0.0.1" if host == "models.local.test" else host
        return real_getaddrinfo(name, port, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", localhost_alias)
    model = FakeModel(lambda call: "hello")
    with fake_openai_server(model) as served:
        url = served.replace("127.0.0.1", "models.local.test")
        endpoint = Endpoint(model="m", base_url=url, api_key="k", max_retries=0)
        assert endpoint.judgement().reach == "local"
        client = endpoint.client()
        response = client.chat.completions.with_raw_response.create(
            model="m", messages=[{"role": "user", "content": "hi"}]
        )
        hosts.append(response.http_request.headers["host"])
    assert response.parse().choices[0].message.content == "hello"
    assert hosts == [f"models.local.test:{urlsplit(served).port}"]


def test_a_host_or_transport_outside_the_judgement_is_refused() -> None:
    from types import SimpleNamespace

    from provebench.llm._pinned import PinnedBackend, pin_client
    from provebench.sandbox._isolation import EndpointJudgement

    class Refused(Exception):
        pass

    class NeverCalled:
        def connect_tcp(self, *args: Any, **kwargs: Any) -> Any:
            raise AssertionError("a host outside the judgement was connected")

    backend = PinnedBackend(NeverCalled(), {"model.example": (PUBLIC,)}, Refused)
    with pytest.raises(Refused, match=r"elsewhere\.example"):
        backend.connect_tcp("elsewhere.example", 443)
    with pytest.raises(Refused):
        backend.connect_unix_socket("/tmp/model.sock")
    # A client whose connection pool cannot be reached is not left to resolve on its own.
    judgement = EndpointJudgement("remote", {"model.example": (PUBLIC,)})
    with pytest.raises(RuntimeError, match="cannot pin"):
        pin_client(SimpleNamespace(_transport=object(), _mounts={}), judgement)


@pytest.mark.parametrize(
    ("address", "reach"),
    [
        ("::127.0.0.1", "local"),  # IPv4-compatible
        ("::ffff:0:7f00:1", "local"),  # SIIT
        ("64:ff9b::7f00:1", "local"),  # NAT64
        ("2002:7f00:1::", "local"),  # 6to4
        ("::ffff:127.0.0.1", "local"),  # IPv4-mapped
        ("64:ff9b::5db8:d822", "remote"),  # NAT64 of a public address
        ("2606:4700::1111", "remote"),
    ],
)
def test_an_ipv6_address_carrying_an_ipv4_one_is_judged_by_it(address: str, reach: str) -> None:
    # pilot red team 22, A11: four IPv6 spellings of 127.0.0.1 were judged remote.
    from provebench.sandbox._isolation import _addresses_reach

    assert _addresses_reach((address,)) == reach


def test_an_address_the_kernel_routes_to_this_machine_is_local(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # pilot red team 24, A1/A4: a public address an interface holds (no hostname lookup gives
    # it) was judged remote; so was RFC 8215's local-use NAT64 prefix.
    import ipaddress

    from provebench.sandbox import _isolation

    assert _isolation._routed_to_self(ipaddress.ip_address("127.0.0.1"))
    held = "93.184.215.14"
    monkeypatch.setattr(_isolation, "_routed_to_self", lambda address: str(address) == held)
    assert _isolation._addresses_reach((held,)) == "local"
    assert _isolation._addresses_reach(("93.184.216.34",)) == "remote"
    assert _isolation._addresses_reach(("64:ff9b:1::c0a8:101",)) == "local"
