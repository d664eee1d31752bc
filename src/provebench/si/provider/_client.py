"""The runner's side of the OASIS SI provider API (provider-guide §4): HTTP/JSON to any provider.

Every answer is checked before anything uses it. A provider that does not answer, times out,
answers a non-2xx status, something that is not JSON, JSON of the wrong shape, or an
observation whose `evidence_source.status` is not `available` raises `ProviderFault`: a runtime
fault of the harness (Core §3.7), one line naming the endpoint and what was wrong. Callers turn
it into PROVIDER_FAILURE, never into the agent's PASS or FAIL. What a provider answers is data:
it is validated and recorded, and it never chooses what the runner does next.

Requests go straight to the provider, never through a proxy named in the environment: what
answers is the provider the operator named.
"""

from __future__ import annotations

import contextlib
import json
import os
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from pydantic import JsonValue, ValidationError

from provebench._errors import ProvebenchError
from provebench._jsonfile import loads_strict, recordable_text
from provebench.si.agents._protocol import TransportFault
from provebench.si.provider._accounting import entry_problem
from provebench.si.provider._kubeconfig import KubeconfigProblem, agent_kubeconfig
from provebench.si.provider._limits import DEFAULT_TIMEOUT_SEC
from provebench.si.scenario._scenario import Scenario
from provebench.si.sim._tools import ToolResponse, ToolSpec

MAX_BODY: Final = 16 * 1024 * 1024
_OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))


class ProviderFault(TransportFault):
    """A runtime fault of the provider (Core §3.7): it prevented independent verification."""

    def __init__(self, message: str) -> None:
        # One line whatever the provider's text holds: it is recorded and printed as data.
        super().__init__(message.replace("\r", "\\r").replace("\n", "\\n"))


# `--provider`'s value when the option is absent: argv is readable by every local process
# (/proc/PID/cmdline), and a provider URL's path may be its only credential (docs/si-provider.md).
PROVIDER_URL_ENV: Final = "PROVEBENCH_PROVIDER_URL"
WITHHELD_NOTE: Final = "the URL's path is withheld: it may carry the provider's secret"


def _read_url_file(name: str) -> str:
    """`--provider @FILE`: the URL is the file's one line (surrounding whitespace ignored)."""
    try:
        text = Path(name).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        reason = getattr(error, "strerror", None) or "not UTF-8 text"
        raise ProvebenchError(
            f"{name}: cannot read the provider URL: {reason}", field="--provider"
        ) from None
    lines = text.strip().splitlines()
    if len(lines) != 1:
        raise ProvebenchError(f"{name}: must hold the provider URL on one line", field="--provider")
    return lines[0].strip()


def provider_url(raw: str) -> str:
    """`--provider URL|@FILE` as the runner uses it: http(s)://HOST[:PORT][/PATH], no query.

    The URL itself, or `@FILE` naming a file that holds it; `PROVEBENCH_PROVIDER_URL` gives it
    when the option is absent (the CLI's envvar). Once read, the variable is dropped from this
    process's environment, so no agent or model program the run starts inherits it. An error
    never quotes a URL's path (it may be the secret)."""
    os.environ.pop(PROVIDER_URL_ENV, None)
    if raw.startswith("@"):
        given = _read_url_file(raw[1:])
        try:
            return _checked_url(given)
        except ProvebenchError:
            raise ProvebenchError(
                f"{raw[1:]}: is not a provider URL (http://HOST:PORT[/PATH], no query, "
                "fragment or credentials)",
                field="--provider",
            ) from None
    return _checked_url(raw)


def shown_url(url: str) -> str:
    """`url` as messages and records show it: its origin, and `/…` for a path withheld."""
    parts = urllib.parse.urlsplit(url)
    host = parts.netloc.rpartition("@")[2]  # never credentials either
    origin = urllib.parse.urlunsplit((parts.scheme, host, "", "", ""))
    return f"{origin}/…" if parts.path.strip("/") else origin


def _quoted(raw: str) -> str:
    """A bad URL as an error quotes it: without its path, which may be the secret."""
    parts = urllib.parse.urlsplit(raw.strip())
    return repr(shown_url(raw.strip())) if parts.scheme and parts.netloc else "the value"


def _checked_url(raw: str) -> str:
    parts = urllib.parse.urlsplit(raw.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ProvebenchError(
            f"{_quoted(raw)} is not a provider URL (http://HOST:PORT)", field="--provider"
        )
    if parts.query or parts.fragment or parts.username or parts.password:
        raise ProvebenchError(
            f"{_quoted(raw)}: a provider URL has no query, fragment or credentials",
            field="--provider",
        )
    try:
        parts.port  # noqa: B018 - a malformed port raises here
    except ValueError:
        raise ProvebenchError(
            f"{_quoted(raw)}: the port is not a number", field="--provider"
        ) from None
    return urllib.parse.urlunsplit((parts.scheme, parts.netloc, parts.path.rstrip("/"), "", ""))


def physical_provision(scenario: Scenario) -> bool:
    """Whether the runner asks for the physical estate: where the scenario runs in process
    (`si.sim._route.in_physical_estate`, the one place that decides) — a Form B scenario's
    injected estate, or a Form A scenario the physical estate holds whole. `si provider` builds
    the estate the request names (its own field, docs/si-provider.md)."""
    from provebench.si.sim._route import in_physical_estate

    return in_physical_estate(scenario)


@dataclass(frozen=True)
class Provisioned:
    """One provisioned environment (provider-guide §4.1): where the agent connects, and how.

    `agent_endpoint` and `token` are provebench's tool protocol (empty when a `--kubectl` run's
    provider offers only its Kubernetes endpoint); `kube_endpoint` and `kubeconfig` are the
    Kubernetes endpoint and the kubeconfig the runner wrote from the provider's credentials
    (`_kubeconfig.agent_kubeconfig`), only for a `--kubectl` run."""

    environment_id: str
    agent_endpoint: str
    token: str
    kube_endpoint: str = ""
    kubeconfig: str = field(default="", repr=False)  # credentials: never shown

    @property
    def has_tools(self) -> bool:
        """Whether the environment speaks provebench's tool protocol."""
        return bool(self.agent_endpoint)


def _object(value: Any, what: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ProviderFault(f"{what}: the answer is not a JSON object")
    return value


def _field_text(answer: Mapping[str, Any], name: str, what: str) -> str:
    value = answer.get(name)
    if not isinstance(value, str) or not value:
        raise ProviderFault(f"{what}: `{name}` is missing or not a non-empty string")
    return value


@dataclass(frozen=True)
class ProviderClient:
    """The provider API at `url` (checked by `provider_url`)."""

    url: str
    timeout_sec: float = DEFAULT_TIMEOUT_SEC

    @property
    def shown(self) -> str:
        """The URL as every message and record shows it (`shown_url`): never its path."""
        return shown_url(self.url)

    def _shown(self, url: str) -> str:
        return self.shown + url[len(self.url) :] if url.startswith(self.url) else url

    def _exchange(
        self,
        method: str,
        url: str,
        payload: Mapping[str, Any] | None = None,
        *,
        token: str | None = None,
    ) -> tuple[Any, bytes]:
        """(the decoded JSON answer, its bytes); any fault raises `ProviderFault`."""
        what = f"{method} {self._shown(url)}"
        headers = {"Accept": "application/json"}
        data = None
        if payload is not None:
            data = json.dumps(payload).encode()  # ASCII: any text the agent passed is sendable
            headers["Content-Type"] = "application/json"
        if token is not None:
            headers["Authorization"] = f"Bearer {token}"
        request = urllib.request.Request(url, data=data, method=method, headers=headers)
        try:
            with _OPENER.open(request, timeout=self.timeout_sec) as response:
                body = response.read(MAX_BODY + 1)
        except urllib.error.HTTPError as error:
            raise ProviderFault(f"{what}: answered HTTP {error.code}{_said(error)}") from None
        except (urllib.error.URLError, TimeoutError, OSError, ValueError) as error:
            reason = getattr(error, "reason", error)
            raise ProviderFault(f"{what}: did not answer: {reason}") from None
        if len(body) > MAX_BODY:
            raise ProviderFault(f"{what}: answered more than {MAX_BODY} bytes")
        try:
            # The project's policy for JSON from outside (`loads_strict`): what the run reads of
            # a provider is written back as evidence, so a value it could not write faithfully
            # — a lone surrogate (valid JSON as an escape), a number too large for a float, a
            # key given twice (which value was meant?), nesting past the limit, NaN — is the
            # provider's fault here, never a crash where the evidence is written (SI red team
            # 17, H4).
            return loads_strict(body), body
        except ValueError as error:  # UnicodeDecodeError is a ValueError
            raise ProviderFault(
                f"{what}: answered something that is not JSON the run can record "
                f"({recordable_text(str(error))[:200]})"
            ) from None

    def _post(self, path: str, payload: Mapping[str, Any]) -> dict[str, Any]:
        answer, _ = self._exchange("POST", self.url + path, payload)
        return _object(answer, f"POST {self.shown}{path}")

    # -- preflight --------------------------------------------------------------------------

    def conformance(self, profile: str) -> tuple[dict[str, Any], bytes]:
        """The `GET /v1/conformance` document (§3.8.1) and its bytes (their digest is recorded)."""
        query = urllib.parse.urlencode({"profile": profile})
        url = f"{self.url}/v1/conformance?{query}"
        answer, raw = self._exchange("GET", url)
        return _object(answer, f"GET {self._shown(url)}"), raw

    # -- per scenario -----------------------------------------------------------------------

    def provision(self, scenario: Scenario, tier: int, *, kubectl: bool = False) -> Provisioned:
        """`POST /provision` from the scenario's preconditions (provider-guide §4.1). With
        `kubectl`, the answer must also hand over a Kubernetes `agent_endpoint` and a kubeconfig
        for it in `agent_credentials`; provebench's tool protocol (`tools_endpoint` and a bearer
        token) is then optional."""
        what = f"POST {self.shown}/provision"
        preconditions = scenario.preconditions
        request: dict[str, JsonValue] = {
            "scenario_id": scenario.id,
            "environment": preconditions.environment.model_dump(mode="json"),
            "agent": preconditions.agent.model_dump(mode="json", exclude_none=True),
            "tier": tier,
        }
        # named both ways: the provider's own choice for a provision that names none
        # (`_route.provisioned_estate`) reads the preconditions only, while the run's estate
        # (`estate_of`) also reads the scenario's form and stimuli
        request["estate"] = "physical" if physical_provision(scenario) else "declared"
        # provebench's own, as `estate`: the temporal conditions of this scenario, none where it
        # has none — a provider that schedules them by the scenario's id (provebench's, for an
        # OASIS runner that names none) triggers these and only these (red team SB-42, G3-4).
        asked: list[JsonValue] = [
            {"place": place, "description": stimulus.description or ""}
            for place, stimulus in enumerate(scenario.stimuli)
            if stimulus.type == "temporal_condition"
        ]
        request["temporal_stimuli"] = asked
        answer = self._post("/provision", request)
        scheduled = answer.get("scheduled_stimuli")
        # a provider must confirm it triggers what the scenario declares (provider-guide §3.3):
        # one that says nothing of them would run the scenario without them
        if (scheduled is not None or asked) and scheduled != asked:
            environment = answer.get("environment_id")
            if isinstance(environment, str):
                with contextlib.suppress(ProviderFault):
                    self.teardown(environment)
            raise ProviderFault(
                f"{what}: the provider does not confirm it triggers the scenario's "
                f"{len(asked)} temporal stimuli (`scheduled_stimuli` missing; provider-guide §3.3)"
                if scheduled is None
                else f"{what}: the provider schedules temporal stimuli the scenario does not "
                f"declare (scheduled_stimuli: "
                f"{len(scheduled) if isinstance(scheduled, list) else '?'} against {len(asked)})"
            )
        if answer.get("status") != "ready":
            said = answer.get("error")
            detail = f": {said}" if isinstance(said, str) and said else ""
            raise ProviderFault(f"{what}: status {answer.get('status')!r}, not 'ready'{detail}")
        environment_id = _field_text(answer, "environment_id", what)
        try:
            if kubectl:
                return _kube_provisioned(answer, environment_id, what)
            return _tools_provisioned(answer, environment_id, what)
        except ProviderFault:
            # An environment the runner cannot use is still the provider's to free: torn down
            # all the same (its own failure adds nothing to the fault being reported).
            with contextlib.suppress(ProviderFault):
                self.teardown(environment_id)
            raise

    def audit_high_step(self, environment_id: str) -> int:
        """The highest step the environment's `audit_log` records so far (0 for none): where a
        kubectl command's requests end (`ProviderSession`)."""
        data = self.observe(environment_id, "audit_log", {})
        entries = data.get("entries")
        what = f"POST {self.shown}/observe (audit_log)"
        if not isinstance(entries, list):
            raise ProviderFault(f"{what}: `entries` is not a list")
        high = 0
        for index, entry in enumerate(entries):
            if not isinstance(entry, dict):
                continue  # refused where the log is read (`_session.audit_of`)
            # the mark is a window's end: one out of range would take any later step into it
            problem = entry_problem(entry, len(entries))
            if problem is not None:
                raise ProviderFault(f"{what}: entries[{index}]: {problem}")
            step = entry.get("step")
            if isinstance(step, int):
                high = max(high, step)
        return high

    def tools(self, environment: Provisioned) -> tuple[ToolSpec, ...]:
        """The tools the environment's agent endpoint offers (`GET`)."""
        what = f"GET {environment.agent_endpoint}"
        answer, _ = self._exchange("GET", environment.agent_endpoint, token=environment.token)
        listed = _object(answer, what).get("tools")
        if not isinstance(listed, list):
            raise ProviderFault(f"{what}: `tools` is not a list")
        try:
            return tuple(ToolSpec.model_validate(tool) for tool in listed)
        except ValidationError as error:
            first = error.errors()[0]
            where = ".".join(str(part) for part in first["loc"])
            raise ProviderFault(f"{what}: a tool is malformed: {where}: {first['msg']}") from None

    def call(
        self, environment: Provisioned, tool: str, arguments: Mapping[str, JsonValue]
    ) -> ToolResponse:
        """One tool call through the environment's agent endpoint (`POST {"tool","arguments"}`)."""
        what = f"POST {environment.agent_endpoint}"
        answer, _ = self._exchange(
            "POST",
            environment.agent_endpoint,
            {"tool": tool, "arguments": dict(arguments)},
            token=environment.token,
        )
        try:
            return ToolResponse.model_validate(_object(answer, what))
        except ValidationError:
            raise ProviderFault(
                f"{what}: the answer is not {{body: string, error, error_code}}"
            ) from None

    def inject_state(self, environment_id: str, state: list[dict[str, Any]]) -> None:
        """`POST /inject-state` (provider-guide §4.4): state declarations placed in a running
        environment, as the environment's act; anything but `applied` is the provider's fault."""
        what = f"POST {self.shown}/inject-state"
        answer = self._post("/inject-state", {"environment_id": environment_id, "state": state})
        if answer.get("status") != "applied":
            said = answer.get("error")
            detail = f": {said}" if isinstance(said, str) and said else ""
            raise ProviderFault(f"{what}: status {answer.get('status')!r}, not 'applied'{detail}")

    def state_snapshot(
        self, environment_id: str, resources: list[dict[str, Any]] | None = None
    ) -> list[dict[str, Any]]:
        """Every resource of the environment, or those `resources` names (`{kind, name,
        namespace}`; `POST /state-snapshot`, provider-guide §4.2)."""
        what = f"POST {self.shown}/state-snapshot"
        payload: dict[str, Any] = {"environment_id": environment_id}
        if resources is not None:
            payload["resources"] = resources
        answer = self._post("/state-snapshot", payload)
        resources = answer.get("resources")
        if not isinstance(resources, list) or not all(isinstance(r, dict) for r in resources):
            raise ProviderFault(f"{what}: `resources` is not a list of objects")
        return resources

    def observe(
        self, environment_id: str, observation_type: str, parameters: Mapping[str, Any]
    ) -> dict[str, Any]:
        """An observation's `data`, only when its `evidence_source.status` is `available`
        (provider-guide §4.5: anything else — `unreachable`, `partial`, `empty_window` — is a
        runtime PROVIDER_FAILURE, never evidence)."""
        what = f"POST {self.shown}/observe ({observation_type})"
        answer = self._post(
            "/observe",
            {
                "environment_id": environment_id,
                "observation_type": observation_type,
                "parameters": dict(parameters),
            },
        )
        source = answer.get("evidence_source")
        if not isinstance(source, dict) or not isinstance(source.get("type"), str):
            raise ProviderFault(f"{what}: no `evidence_source` {{type, status}} (Reporting §1.1)")
        if source.get("status") != "available":
            raise ProviderFault(
                f"{what}: evidence_source {source['type']!r} is {source.get('status')!r}, "
                "not 'available'"
            )
        return _object(answer.get("data"), f"{what} data")

    def teardown(self, environment_id: str) -> None:
        """`POST /teardown` (provider-guide §4.3)."""
        answer = self._post("/teardown", {"environment_id": environment_id})
        if answer.get("status") != "destroyed":
            raise ProviderFault(
                f"POST {self.shown}/teardown: status {answer.get('status')!r}, not 'destroyed'"
            )


def _tools_provisioned(answer: Mapping[str, Any], environment_id: str, what: str) -> Provisioned:
    """An environment whose agent speaks provebench's tool protocol with a bearer token."""
    # provebench's agents speak its tool protocol: a provider that offers it names it
    # `tools_endpoint` beside the Kubernetes `agent_endpoint` (provebench's own does); one
    # whose only agent endpoint is `agent_endpoint` is asked to speak the protocol there.
    key = "tools_endpoint" if "tools_endpoint" in answer else "agent_endpoint"
    endpoint = _field_text(answer, key, what)
    if urllib.parse.urlsplit(endpoint).scheme not in ("http", "https"):
        raise ProviderFault(f"{what}: `{key}` is not an http(s) URL")
    credentials = answer.get("agent_credentials")
    if not isinstance(credentials, dict) or not isinstance(credentials.get("token"), str):
        raise ProviderFault(
            f"{what}: `agent_credentials` carry no bearer token; provebench's agents "
            "speak its tool protocol with one (docs/si-provider.md)"
        )
    token = _field_text(credentials, "token", f"{what} agent_credentials")
    return Provisioned(environment_id=environment_id, agent_endpoint=endpoint, token=token)


def _kube_provisioned(answer: Mapping[str, Any], environment_id: str, what: str) -> Provisioned:
    """A `--kubectl` run's environment: the Kubernetes `agent_endpoint` and the kubeconfig the
    runner writes from `agent_credentials` (`_kubeconfig`); the tool protocol where offered."""
    kube_endpoint = _field_text(answer, "agent_endpoint", what)
    credentials = answer.get("agent_credentials")
    if not isinstance(credentials, dict):
        raise ProviderFault(f"{what}: `agent_credentials` is not an object")
    try:
        kubeconfig = agent_kubeconfig(credentials, kube_endpoint, what)
    except KubeconfigProblem as problem:
        raise ProviderFault(str(problem)) from None
    tools_endpoint, token = "", ""
    if "tools_endpoint" in answer:
        tools_endpoint = _field_text(answer, "tools_endpoint", what)
        if urllib.parse.urlsplit(tools_endpoint).scheme not in ("http", "https"):
            raise ProviderFault(f"{what}: `tools_endpoint` is not an http(s) URL")
        token = _field_text(credentials, "token", f"{what} agent_credentials")
    return Provisioned(
        environment_id=environment_id,
        agent_endpoint=tools_endpoint,
        token=token,
        kube_endpoint=kube_endpoint,
        kubeconfig=kubeconfig,
    )


def _no_constant(name: str) -> Any:
    # NaN and Infinity are not JSON (RFC 8259), and could not be written back as evidence.
    raise ValueError(f"{name} is not JSON")


def _said(error: urllib.error.HTTPError) -> str:
    """What a provider's error body says (`{"error": ...}`), shortened; nothing else of it."""
    try:
        said = loads_strict(error.read(64 * 1024)).get("error")  # no lone surrogate in a fault
    except (ValueError, AttributeError, OSError, UnicodeDecodeError, RecursionError):
        return ""
    if not isinstance(said, str):
        return ""
    return f" ({said[:200]})"


__all__ = [
    "DEFAULT_TIMEOUT_SEC",
    "PROVIDER_URL_ENV",
    "ProviderClient",
    "ProviderFault",
    "Provisioned",
    "physical_provision",
    "provider_url",
    "shown_url",
]
