"""An `openai:` endpoint that provebench did not start is recorded as what it is.

The attack: `--base-url http://127.0.0.1:…` points at whatever process serves that port — here a
"model" that is candidate code running as the operator, outside the sandbox, which reads the
scenario file (the answer key) and answers with no tool call. provebench's own loop drives it,
so the run was recorded `trusted-shipped` and signed as a sealed 1.0. Now the endpoint is
recorded as `endpoint` with its URL, a loopback or local one is unsealed in every SI verdict
and cannot reach the pilot's `laboratory_pass`.
"""

from __future__ import annotations

import json
import socket
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from provebench.attest import load_trusted_key
from provebench.attest._envelope import read_verified
from provebench.cli import app
from provebench.pilot.agents import ReferenceImporter
from provebench.sandbox import _isolation, is_sealed
from provebench.sandbox._isolation import endpoint_isolation
from provebench.si import load_scenarios
from provebench.si.agents import CorrectDiagnoser, run_agent
from provebench.si.agents._signing import RUN_ENVELOPE_FILE, SI_RUN_PREDICATE
from provebench.si.sim import Session
from tests.helpers.fake_openai import FakeModel, ToolCall, fake_openai_server
from tests.helpers.pilot_evaluation import evaluate, make_small_corpus
from tests.helpers.pilot_tools import ToolContext
from tests.helpers.si_lab import write_fixture


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1:8000/v1",
        "http://localhost:11434/v1",
        "http://[::1]:8000/v1",
        "http://[::ffff:127.0.0.1]:8000/v1",
        "http://10.1.2.3:8000/v1",
        "http://192.168.0.7/v1",
        "http://169.254.1.1/v1",
        "http://0.0.0.0:8000/v1",
    ],
)
def test_an_endpoint_on_this_machine_or_its_network_is_local_and_unsealed(url: str) -> None:
    isolation = endpoint_isolation(url)
    assert (isolation["mode"], isolation["reach"]) == ("endpoint", "local")
    assert not is_sealed(isolation)


_PROXY_VARIABLES = (
    "HTTP_PROXY",
    "HTTPS_PROXY",
    "ALL_PROXY",
    "http_proxy",
    "https_proxy",
    "all_proxy",
)


@pytest.fixture
def no_proxy_variables(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    for name in _PROXY_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    return monkeypatch


def test_a_public_endpoint_is_remote_and_sealed(no_proxy_variables: pytest.MonkeyPatch) -> None:
    isolation = endpoint_isolation("https://user:secret@93.184.215.14/v1?key=k#x")
    # The URL as it is, without the credentials, query or fragment it may carry.
    assert isolation == {"mode": "endpoint", "url": "https://93.184.215.14/v1", "reach": "remote"}
    assert is_sealed(isolation)
    assert not is_sealed({**isolation, "reach": "local"})
    assert not is_sealed({"mode": "endpoint", "url": isolation["url"]})


def test_a_name_that_does_not_resolve_is_local(monkeypatch: pytest.MonkeyPatch) -> None:
    def unresolvable(*args: Any, **kwargs: Any) -> Any:
        raise socket.gaierror("no such name")

    monkeypatch.setattr(_isolation.socket, "getaddrinfo", unresolvable)
    assert endpoint_isolation("https://models.example/v1")["reach"] == "local"


def test_a_name_resolving_to_this_machine_is_local(monkeypatch: pytest.MonkeyPatch) -> None:
    public = [(socket.AF_INET, socket.SOCK_STREAM, 6, "", ("93.184.215.14", 0))]
    monkeypatch.setattr(_isolation.socket, "getaddrinfo", lambda *a, **k: public)
    # Every name resolves to the public address, this machine's own name too.
    assert endpoint_isolation("https://models.example/v1")["reach"] == "local"


@pytest.mark.slow
def test_a_loopback_model_that_reads_the_scenario_is_signed_unsealed(tmp_path: Path) -> None:
    scenario_file = write_fixture(tmp_path)

    def reads_the_scenario(call: ToolCall) -> str:
        # Candidate code behind the port, as the operator's user: it opens the scenario file.
        solved = run_agent(Session.start(load_scenarios(scenario_file)[0]), CorrectDiagnoser())
        call("submit_answer", {"final_answer": solved.evidence.final_answer})
        return ""

    model = FakeModel(reads_the_scenario, frozenset({"submit_answer"}))
    out = tmp_path / "run"
    with fake_openai_server(model) as url:
        command = ["si", "run", str(scenario_file), "--agent", "openai:fake", "--base-url", url]
        result = CliRunner().invoke(app, [*command, "--out", str(out)])
    assert result.exit_code == 0, result.output
    verdict = json.loads((out / "verdict.json").read_text())
    evidence = json.loads((out / "evidence.json").read_text())
    assert (verdict["score"], evidence["actions"]) == (1.0, [])  # the attack reaches the score
    assert verdict["sealed"] is False
    assert verdict["non_scoring"]["agent_isolation"] == {
        "mode": "endpoint",
        "url": url,
        "reach": "local",
    }
    signed = read_verified(
        out / RUN_ENVELOPE_FILE, load_trusted_key(), predicate_type=SI_RUN_PREDICATE
    )
    assert signed.predicate["outcome"]["sealed"] is False
    assert signed.predicate["agent"]["isolation"]["mode"] == "endpoint"


@pytest.mark.slow
@pytest.mark.parametrize("through_proxy", [False, True])
def test_a_loopback_model_cannot_reach_the_laboratory_gate(
    tmp_path: Path, no_proxy_variables: pytest.MonkeyPatch, through_proxy: bool
) -> None:
    # through_proxy: the red team's pilot variant — --base-url names a public address, and
    # HTTP_PROXY sends every request to the loopback "model" (it had reached laboratory_pass
    # and escrow, the endpoint recorded remote).
    corpus = make_small_corpus(tmp_path, seed=3)
    work = tmp_path / "model-memory"
    work.mkdir()

    def cycle(call: ToolCall) -> str:
        # A correct importer behind the port: still not provebench's code, and not sealed.
        ReferenceImporter().run_cycle(ToolContext(call, work))  # type: ignore[arg-type]
        call("finish_cycle", {})
        return ""

    run = tmp_path / "run"
    with fake_openai_server(FakeModel(cycle, frozenset({"finish_cycle"}))) as served:
        url = served
        if through_proxy:
            no_proxy_variables.setenv("HTTP_PROXY", served.removesuffix("/v1"))
            url = "http://93.184.215.14/v1"  # never reached: the proxy answers for it
        result = CliRunner().invoke(app, ["pilot", "run", "--corpus", str(corpus), "--agent",
                                          "openai:fake", "--base-url", url, "--out", str(run),
                                          "--quiet"])  # fmt: skip
    assert result.exit_code == 0, result.output
    verdict = evaluate(run, corpus)
    assert verdict.scorer_pass  # the register is right ...
    assert not verdict.laboratory_pass  # ... but the gate needs a sealed candidate
    reasons = [stop.reason for stop in verdict.stopping_conditions if stop.status == "triggered"]
    assert any(f"model endpoint {url}" in reason for reason in reasons), reasons
    isolation = verdict.result_evidence.isolation  # type: ignore[union-attr]
    proxy = {"proxy": served.removesuffix("/v1")} if through_proxy else {}
    assert isolation == {"mode": "endpoint", "url": url, "reach": "local", **proxy}


@pytest.mark.parametrize("variable", ["HTTPS_PROXY", "https_proxy", "ALL_PROXY"])
def test_a_public_url_through_a_proxy_on_this_machine_is_local_and_unsealed(
    no_proxy_variables: pytest.MonkeyPatch, variable: str
) -> None:
    # The red team's attack: --base-url names a public address while the SDK's HTTP client sends
    # every request to a "proxy" on loopback — candidate code that answers for the model, and had
    # been recorded remote and sealed. The proxy answers for the model, so its reach is judged.
    no_proxy_variables.setenv(variable, "http://user:pw@127.0.0.1:3128")
    isolation = endpoint_isolation("https://93.184.215.14/v1")
    assert isolation == {
        "mode": "endpoint",
        "url": "https://93.184.215.14/v1",
        "reach": "local",
        "proxy": "http://127.0.0.1:3128",
    }
    assert not is_sealed(isolation)


def test_no_proxy_does_not_excuse_a_local_proxy(no_proxy_variables: pytest.MonkeyPatch) -> None:
    # Clients read NO_PROXY each in their own way; a misread bypass must not turn a local
    # proxy's answers into a remote server's (fail closed).
    no_proxy_variables.setenv("HTTPS_PROXY", "http://127.0.0.1:3128")
    no_proxy_variables.setenv("NO_PROXY", "93.184.215.14")
    assert endpoint_isolation("https://93.184.215.14/v1")["reach"] == "local"


def test_a_public_proxy_for_a_public_url_stays_remote_and_is_recorded(
    no_proxy_variables: pytest.MonkeyPatch,
) -> None:
    no_proxy_variables.setenv("HTTPS_PROXY", "http://93.184.215.15:3128")
    isolation = endpoint_isolation("https://93.184.215.14/v1")
    assert (isolation["reach"], isolation["proxy"]) == ("remote", "http://93.184.215.15:3128")
    assert is_sealed(isolation)
    # A proxy for another scheme is not the one these requests take.
    no_proxy_variables.delenv("HTTPS_PROXY")
    no_proxy_variables.setenv("HTTP_PROXY", "http://127.0.0.1:3128")
    assert endpoint_isolation("https://93.184.215.14/v1")["reach"] == "remote"


def test_a_redirect_is_never_followed_to_wherever_it_points() -> None:
    # The endpoint's reach is judged from `--base-url`; a server there that answers 307 to a
    # loopback "model" (candidate code, as the operator) must not get that model's answer used.
    from http.server import BaseHTTPRequestHandler

    import openai

    from provebench.llm._endpoint import Endpoint
    from tests.helpers.http_serving import serving

    model = FakeModel(lambda call: "the answer a redirect would buy")
    with fake_openai_server(model) as target:

        class Redirecting(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                self.send_response(307)
                self.send_header("Location", f"{target}/chat/completions")
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, format: str, *args: Any) -> None:
                pass

        with serving(Redirecting) as (host, port):
            endpoint = Endpoint(model="m", base_url=f"http://{host}:{port}/v1", api_key="k")
            with pytest.raises(openai.APIStatusError) as raised:
                endpoint.client().chat.completions.create(
                    model="m", messages=[{"role": "user", "content": "hi"}]
                )
    assert raised.value.status_code == 307
    assert model.requests == []
