"""An `--agent-url` agent's output is recorded as it sent it, not as a lenient parse read it (SI
red team 20, the class of S1/S2): a tool request the endpoint refuses — no strict JSON, a key
given twice, a key a call does not carry — is kept whole in `agent_messages`, where every
containment check searches it, as are an answer's keys the contract does not name; an answer
with a key given twice is no answer (PROVIDER_FAILURE, never the last value's PASS)."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler

import pytest

from provebench._mcp_face import ClientMessages
from provebench.si.agents._http import _request, _ToolServer
from provebench.si.agents._protocol import TransportFault
from tests.helpers.http_serving import serving

SECRET = "super-secret-password"


class _Reply:
    body, error, error_code = "ok", None, None


def _post(url: str, body: bytes) -> int:
    try:
        with urllib.request.urlopen(urllib.request.Request(url, data=body), timeout=10) as r:
            return int(r.status)
    except urllib.error.HTTPError as error:
        return error.code


REFUSED = [
    f'{{"tool":"t","arguments":{{"kind":"{SECRET}","kind":"pods"}}}}',
    f'{{"tool":"{SECRET}","tool":"t","arguments":{{}}}}',
    f'{{"tool":"t","arguments":{{}},"note":"{SECRET}"}}',
    f'{{"tool":"t","arguments":{{"v":NaN,"w":"{SECRET}"}}}}',
    f"hello {SECRET}",
]


def test_a_refused_tool_request_is_recorded_as_sent_an_accepted_one_as_its_action() -> None:
    called: list[tuple[str, object]] = []

    def call(tool: str, arguments: object) -> _Reply:
        called.append((tool, arguments))
        return _Reply()

    sent = ClientMessages()
    with _ToolServer(call, sent) as tools:  # type: ignore[arg-type]
        for body in REFUSED:
            assert _post(tools.url, body.encode()) == 400
        assert _post(tools.url, b'{"tool":"t","arguments":{"kind":"pods"}}') == 200
    assert [json.loads(text) for text in sent.texts] == [{"unparsed_line": b} for b in REFUSED]
    assert called == [("t", {"kind": "pods"})]  # the call the endpoint made, recorded as a step


def _answering(answer: bytes) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            self.rfile.read(int(self.headers["Content-Length"]))
            self.send_response(200)
            self.send_header("Content-Length", str(len(answer)))
            self.end_headers()
            self.wfile.write(answer)

        def log_message(self, format: str, *args: object) -> None:
            pass

    return Handler


def test_an_answer_with_a_key_given_twice_is_no_answer() -> None:
    answer = f'{{"final_answer":"{SECRET}","final_answer":"I will not say."}}'.encode()
    with (
        serving(_answering(answer)) as (host, port),
        pytest.raises(TransportFault, match="strict JSON"),
    ):
        _request(f"http://{host}:{port}/", {}, 10)


def test_an_answer_s_keys_the_contract_does_not_name_are_kept() -> None:
    from provebench.si.agents._http import HttpDiagnosisAgent
    from provebench.si.agents._protocol import Task

    answer = json.dumps({"final_answer": "no", "actions": [], "note": SECRET}).encode()
    with serving(_answering(answer)) as (host, port):
        agent = HttpDiagnosisAgent(f"http://{host}:{port}", 10.0)
        task = Task(prompt="p", tools=(), mode="diagnose", scope={})
        assert agent.run(task, lambda tool, arguments: None).final_answer == "no"  # type: ignore[arg-type,return-value]
    assert agent.sent_messages() == [f'{{"answer":{{"note":"{SECRET}"}}}}']


def test_the_refused_requests_reach_the_evidence_and_their_cut_too() -> None:
    from provebench.evidence import Evidence
    from provebench.si.agents._http import HttpDiagnosisAgent
    from provebench.si.agents._run import _with_agent_text

    agent = HttpDiagnosisAgent("http://127.0.0.1:1", 1.0, sent=ClientMessages(limit=60))
    assert agent.sent.record_line(f"hello {SECRET}".encode())
    assert not agent.sent.record_line(b"x" * 100)
    blank = Evidence(final_answer="", reasoning_trace="", actions=[])
    evidence = _with_agent_text(blank, agent, None)  # type: ignore[arg-type]
    assert evidence.agent_messages == [f'{{"unparsed_line":"hello {SECRET}"}}']
    assert [cut.channel for cut in evidence.agent_cuts] == ["agent_messages"]


def test_a_header_the_endpoint_cannot_read_is_recorded_and_never_printed(
    capfd: pytest.CaptureFixture[str],
) -> None:
    # SI red team 23, H4: `Content-Length: <the password>` made int() fail, and the server's
    # one-line error printed the password on the operator's terminal, recorded nowhere.
    import http.client
    from urllib.parse import urlsplit

    sent = ClientMessages()
    with _ToolServer(lambda tool, arguments: _Reply(), sent) as tools:  # type: ignore[arg-type]
        where = urlsplit(tools.url)
        connection = http.client.HTTPConnection(where.hostname or "", where.port, timeout=10)
        connection.putrequest("POST", where.path)
        connection.putheader("Content-Length", SECRET)
        connection.endheaders()
        assert connection.getresponse().status == 400
        connection.close()
    assert any(SECRET in text for text in sent.texts)
    assert SECRET not in capfd.readouterr().err
