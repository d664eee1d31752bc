"""`provebench si provider`: the OASIS SI provider API (provider-guide §4) on 127.0.0.1.

Routes (all JSON):

* ``GET /v1/conformance?profile=…`` — the preflight document (`_conformance`);
* ``POST /provision``, ``/state-snapshot``, ``/inject-state``, ``/observe``, ``/teardown``
  (each also under ``/v1/``, where the reference runner sends it);
  these and the conformance route are served only under the runner's base URL,
  ``/control/<secret>`` — `ProviderServer.url`, printed on start. The agent is handed its own
  endpoints and never that URL, so an agent on this machine cannot inject state, snapshot,
  observe or tear down its own or another environment (the provider API has no credential of
  its own; a secret base URL works with every runner that appends the API's paths to the base
  it is given, the reference runner's included);
* each environment's tool endpoint, ``/environments/<id>/tools``: ``GET`` lists the tools,
  ``POST {"tool", "arguments"}`` calls one — with the environment's bearer token from
  ``agent_credentials``. The token is what makes a call the agent's: another process on this
  machine cannot add steps to an environment's record without it.

Each environment's agent endpoint, its Kubernetes API server (`_kube`), is
``/environments/<id>/kube/…`` on a second port, over TLS (`_tls`: kubectl sends no bearer token
over plain HTTP); its answers are Kubernetes' own shapes.

A bad request is answered with a 4xx status and ``{"status": "error", "error": "FIELD: what"}``;
a fault of the provider itself with 500 and the same shape — never a traceback, never a partial
answer. Bodies are read up to `MAX_BODY` bytes.
"""

from __future__ import annotations

import hmac
import json
import re
import secrets
import threading
from collections.abc import Callable, Mapping
from http.server import BaseHTTPRequestHandler
from typing import Any, Final
from urllib.parse import parse_qs, urlsplit

from provebench._errors import ProvebenchError
from provebench._jsonfile import loads_strict
from provebench._local_http import LocalHTTPServer
from provebench.si.provider._conformance import SI_PROFILE, conformance
from provebench.si.provider._environment import (
    Environment,
    Environments,
    RequestError,
    scenario_entries,
    scheduled_stimuli,
)
from provebench.si.provider._fault import provider_fault
from provebench.si.provider._kube import Answer, KubeFace, Request, kubeconfig, status_object
from provebench.si.provider._observe import observe, state_snapshot
from provebench.si.provider._tls import make_server_tls

MAX_BODY: Final = 16 * 1024 * 1024
_AGENT_PATH = re.compile(r"^/environments/([A-Za-z0-9-]+)/tools$")
_KUBE_PATH = re.compile(r"^/environments/([A-Za-z0-9-]+)/kube(/.*)?$")
_CONTROL_PATH = re.compile(r"^/control/([A-Za-z0-9_-]+)(/.*)$")


class _Server(LocalHTTPServer):
    server_label = "provebench si provider"


class ProviderServer:
    """The provider API and its environments; a context manager that serves while open."""

    def __init__(self, host: str = "127.0.0.1", port: int = 0) -> None:
        self.environments = Environments()
        self._control_secret = secrets.token_urlsafe(32)
        self._tls = make_server_tls(host)
        self._server = _Server((host, port), self._handler(secure=False))
        # The Kubernetes endpoints: HTTPS on a port of their own (`_tls`: kubectl sends no
        # bearer token over plain HTTP).
        self._kube_server = _Server((host, 0), self._handler(secure=True))
        self._kube_server.socket = self._tls.context.wrap_socket(
            self._kube_server.socket, server_side=True, do_handshake_on_connect=False
        )
        self._threads = [
            threading.Thread(target=server.serve_forever, args=(0.1,), daemon=True)
            for server in (self._server, self._kube_server)
        ]

    def _handler(self, *, secure: bool) -> type[BaseHTTPRequestHandler]:
        owner = self

        class Handler(BaseHTTPRequestHandler):
            timeout = 60  # a client that stops mid-request frees its thread

            def setup(self) -> None:
                super().setup()
                if secure:
                    self.request.do_handshake()

            def do_GET(self) -> None:
                owner._answer(self, "GET", secure)

            def do_POST(self) -> None:
                owner._answer(self, "POST", secure)

            def do_PUT(self) -> None:
                owner._answer(self, "PUT", secure)

            def do_PATCH(self) -> None:
                owner._answer(self, "PATCH", secure)

            def do_DELETE(self) -> None:
                owner._answer(self, "DELETE", secure)

            def log_message(self, format: str, *args: Any) -> None:
                pass  # the environments' records are the record, not the server's log

        return Handler

    @property
    def url(self) -> str:
        """The runner's base URL: the provider API lives under it, and only there."""
        return f"{self._origin}/control/{self._control_secret}"

    @property
    def _origin(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

    @property
    def kube_url(self) -> str:
        """The base of every environment's Kubernetes endpoint (HTTPS)."""
        host, port = self._kube_server.server_address[:2]
        return f"https://{host!s}:{port}"

    def serve_forever(self) -> None:
        self._threads[1].start()
        self._server.serve_forever()

    def __enter__(self) -> ProviderServer:
        for thread in self._threads:
            thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        for server, thread in zip((self._server, self._kube_server), self._threads, strict=True):
            if thread.is_alive():
                server.shutdown()
                thread.join()
            server.server_close()

    # -- routing ----------------------------------------------------------------------------

    def _answer(self, handler: BaseHTTPRequestHandler, method: str, secure: bool) -> None:
        kube = _KUBE_PATH.match(urlsplit(handler.path).path)
        if secure or kube is not None:
            if kube is None or not secure:
                where = "on the Kubernetes endpoint's HTTPS port only" if kube else "here"
                refused = status_object(404, f"{urlsplit(handler.path).path} is not served {where}")
                self._send(handler, Answer(404, json.dumps(refused).encode()))
                return
            self._kube(handler, method, kube.group(1), kube.group(2) or "/")
            return
        if method not in ("GET", "POST"):
            wrong = {"status": "error", "error": "use GET or POST"}
            self._send(handler, Answer(405, json.dumps(wrong).encode()))
            return
        try:
            status, payload = self._route(handler, method)
        except RequestError as error:
            status, payload = error.status, {"status": "error", "error": error.one_line()}
        except ProvebenchError as error:
            status, payload = 400, {"status": "error", "error": error.one_line()}
        except Exception as error:  # the provider's own fault: a fixed line (`_fault`)
            status, payload = 500, {"status": "error", "error": provider_fault(error, "the API")}
        body = json.dumps(payload, ensure_ascii=False).encode()
        handler.send_response(status)
        handler.send_header("Content-Type", "application/json")
        handler.send_header("Content-Length", str(len(body)))
        handler.end_headers()
        handler.wfile.write(body)

    def _kube(
        self, handler: BaseHTTPRequestHandler, method: str, environment_id: str, path: str
    ) -> None:
        """A request to an environment's Kubernetes endpoint: answered by its `KubeFace`, in
        Kubernetes' own shapes (a `Status` for every failure)."""
        environment = self.environments.by_id(environment_id)
        if environment is None:
            answer = Answer(
                404,
                json.dumps(status_object(404, f"no environment {environment_id!r}")).encode(),
            )
        else:
            try:
                body = _raw_body(handler)
            except RequestError as error:
                status = status_object(error.status, error.one_line())
                answer = Answer(error.status, json.dumps(status).encode())
            else:
                headers = {key.lower(): value for key, value in handler.headers.items()}
                query = urlsplit(handler.path).query
                answer = KubeFace(environment).serve(Request(method, path, query, headers, body))
        self._send(handler, answer)

    @staticmethod
    def _send(handler: BaseHTTPRequestHandler, answer: Answer) -> None:
        handler.send_response(answer.status)
        handler.send_header("Content-Type", answer.media)
        handler.send_header("Content-Length", str(len(answer.body)))
        handler.end_headers()
        handler.wfile.write(answer.body)

    def _route(self, handler: BaseHTTPRequestHandler, method: str) -> tuple[int, Any]:
        url = urlsplit(handler.path)
        agent = _AGENT_PATH.match(url.path)
        if agent is not None:
            return self._agent(handler, method, agent.group(1))
        control = _CONTROL_PATH.match(url.path)
        if control is None or not hmac.compare_digest(
            control.group(1).encode(), self._control_secret.encode()
        ):
            raise RequestError(f"no such endpoint: {url.path}", status=404)
        path = control.group(2)
        if path == "/v1/conformance":
            if method != "GET":
                raise RequestError("use GET", status=405)
            profiles = parse_qs(url.query).get("profile", [])
            if len(profiles) != 1:
                raise RequestError("give exactly one profile", field="profile")
            document = conformance(profiles[0])
            if document is None:
                raise RequestError(
                    f"this provider serves the profile {SI_PROFILE!r} only",
                    status=404,
                    field="profile",
                )
            return 200, document
        # the reference runner's paths (`/v1/provision` …) beside provider-guide §4's
        operation = self._operations().get(path.removeprefix("/v1"))
        if operation is None:
            raise RequestError(f"no such endpoint: {path}", status=404)
        if method != "POST":
            raise RequestError("use POST", status=405)
        return 200, operation(_json_body(handler))

    def _operations(self) -> dict[str, Callable[[Mapping[str, Any]], Any]]:
        environments = self.environments
        return {
            "/provision": lambda body: self._provisioned(environments.provision(body)),
            "/state-snapshot": lambda body: state_snapshot(environments.get(body), body),
            "/inject-state": self._inject,
            "/observe": lambda body: observe(environments.get(body), body),
            "/teardown": self._teardown,
        }

    def _provisioned(self, environment: Environment) -> dict[str, Any]:
        base = f"{self._origin}/environments/{environment.environment_id}"
        server = f"{self.kube_url}/environments/{environment.environment_id}/kube"
        return {
            "environment_id": environment.environment_id,
            "agent_endpoint": server,
            "agent_credentials": {
                "type": "kubeconfig",
                "kubeconfig": self.kubeconfig_of(environment),
                "token": environment.token,
            },
            "tools_endpoint": f"{base}/tools",
            # provebench's own: which estate was built and why (docs/si-provider.md)
            "estate": environment.estate[0],
            "estate_reason": environment.estate[1],
            # provebench's own: the temporal conditions the provider will trigger (§3.3)
            "scheduled_stimuli": scheduled_stimuli(environment.session),
            "status": "ready",
        }

    def kubeconfig_of(self, environment: Environment) -> str:
        """The kubeconfig of an environment's Kubernetes endpoint (its `agent_credentials`)."""
        server = f"{self.kube_url}/environments/{environment.environment_id}/kube"
        return kubeconfig(server, self._tls.authority_pem, environment, environment.namespace)

    def _inject(self, body: Mapping[str, Any]) -> dict[str, Any]:
        environment = self.environments.get(body)
        state = scenario_entries(body.get("state"))
        if not isinstance(state, list) or not state:
            raise RequestError("must be a non-empty list of state entries", field="state")
        environment.inject_state(state)
        return {"status": "applied"}

    def _teardown(self, body: Mapping[str, Any]) -> dict[str, Any]:
        self.environments.teardown(body)
        return {"status": "destroyed"}

    def _agent(
        self, handler: BaseHTTPRequestHandler, method: str, environment_id: str
    ) -> tuple[int, Any]:
        environment = self.environments.by_id(environment_id)
        if environment is None:
            raise RequestError(f"no environment {environment_id!r}", status=404)
        offered = (handler.headers.get("Authorization") or "").encode()
        if not hmac.compare_digest(offered, f"Bearer {environment.token}".encode()):
            raise RequestError("the environment's bearer token is required", status=401)
        if method == "GET":
            tools = environment.session.tools
            return 200, {"tools": [tool.model_dump(mode="json") for tool in tools]}
        body = _json_body(handler)
        tool, arguments = body.get("tool"), body.get("arguments", {})
        if not isinstance(tool, str) or not isinstance(arguments, dict):
            raise RequestError('a tool call is {"tool": NAME, "arguments": {...}}')
        try:
            reply = environment.call(tool, arguments)
        except ValueError as error:  # a tool name that cannot be recorded
            raise RequestError(str(error), field="tool") from None
        return 200, {"body": reply.body, "error": reply.error, "error_code": reply.error_code}


def _raw_body(handler: BaseHTTPRequestHandler) -> bytes:
    try:
        length = int(handler.headers.get("Content-Length") or 0)
    except ValueError:
        raise RequestError("Content-Length is not a number") from None
    if length > MAX_BODY:
        raise RequestError(f"the body is larger than {MAX_BODY} bytes", status=413)
    return handler.rfile.read(length) if length > 0 else b""


def _json_body(handler: BaseHTTPRequestHandler) -> dict[str, Any]:
    raw = _raw_body(handler)
    try:  # the project's policy for JSON from outside: deep nesting or NaN is refused in one line
        body = loads_strict(raw)
    except ValueError:
        raise RequestError("the body is not JSON") from None
    if not isinstance(body, dict):
        raise RequestError("the body must be a JSON object")
    return body


__all__ = ["MAX_BODY", "ProviderServer"]
