"""Provisioned environments: one simulated estate per `POST /provision` (provider-guide §4.1).

Each environment is a session built from the request's ``environment`` and ``agent`` blocks
alone, as an OASIS runner sends them — the physical estate wherever it holds that state, else
the declared estate (`provebench.si.sim._route.provisioned_estate`, the one place that decides),
or the one the request names in provebench's own field ``estate`` — with its own
resources, its own recording, its own agent credentials. Nothing is shared between two
environments, so two provisions of the same scenario are independent.

The recording is the simulator's, never the agent's: every tool call through the environment's
agent endpoint is a step, and every attempt (refused or not) an audit entry — the source of the
``audit_log`` observation (provider-guide §2.1). Wall-clock times are stamped only on what the
provider API reports (the observation ``timestamp``, each audit entry's time); nothing scored
reads them.
"""

from __future__ import annotations

import itertools
import secrets
import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Final

from pydantic import JsonValue, ValidationError

from provebench._errors import ProvebenchError
from provebench.si.profile_data._readings import ReadingBook
from provebench.si.provider._conformance import TIER_SUPPORTED
from provebench.si.scenario._scenario import Preconditions, Scenario, Stimulus
from provebench.si.sim._endpoints import check_declared_endpoints
from provebench.si.sim._inject import declared_state
from provebench.si.sim._route import provisioned_estate
from provebench.si.sim._session import Session, check_interfaces
from provebench.si.sim._tools import ToolResponse
from provebench.si.sim.declared import DeclaredSession
from provebench.si.sim.declared._kube_write import EstateCall

# The session an environment serves: the physical estate or the declared one, provisioned
# (`Environments.provision`) or adopted (`si run --kubectl`).
EstateSession = DeclaredSession | Session

ENVIRONMENT_TYPE: Final = "kubernetes-cluster"
# The runner hands the agent its prompt; the session only needs one to exist.
_PROMPT: Final = "(the runner gives the agent its prompt)"


# Which estate a provision builds when it names one (`estate`, provebench's own field of the
# request; an OASIS runner sends none, and `provisioned_estate` decides): the declared estate, or
# the physical estate, whose state entries are the resources it derives what an operator sees
# from (docs/si-provider.md, "The physical estate").
ESTATES: Final = ("declared", "physical")


def physical_session(scenario: Scenario) -> Session:
    """A physical-estate session over the state the provision declares: for a Form B scenario,
    its preconditions' state is the injected estate (`si check` proves it). The agent's own
    configuration is held beside it (`declared_state`), as `Session.start` and the declared
    estate hold it: without it a write to ``configmap/agent-config`` reached no object through
    the Kubernetes face, and was recorded without the fields it asked (issue 44)."""
    check_interfaces(scenario)
    state = scenario.preconditions.environment.state
    session = Session(scenario, declared_state(scenario, field="environment.state"))
    # a service's declared endpoints are held where its pods agree, as `Session.start` holds them
    check_declared_endpoints(state or [], session.observation, field="environment.state")
    return session


# The reference runner (jaimegago/oasisctl, `internal/provider/translate.go`, `TranslateState`)
# rewrites each state entry before it sends it: `resource: KIND/NAME` split into `kind` and
# `name`, these fields kept at the top, every other field moved under `spec`.
_TRANSLATED_TOP: Final = ("namespace", "zone", "labels", "annotations", "data")


def scenario_entries(entries: object) -> object:
    """State entries in the scenario's own shape (`resource: KIND/NAME`, the fields beside it),
    each one the reference runner translated (`kind`, `name`, `spec`, no `resource`) read back;
    every other entry, and anything that is not a list, as it came (validated where it is
    read)."""
    if not isinstance(entries, list):
        return entries
    return [_scenario_entry(entry) for entry in entries]


def _scenario_entry(entry: object) -> object:
    if not isinstance(entry, dict) or "resource" in entry:
        return entry
    kind, name, spec = entry.get("kind"), entry.get("name"), entry.get("spec", {})
    known = {"kind", "name", "spec", *_TRANSLATED_TOP}
    if not (isinstance(kind, str) and isinstance(name, str) and isinstance(spec, dict)):
        return entry
    if set(entry) - known:
        return entry  # not the translation's shape: refused where it is read, naming `resource`
    top = {key: entry[key] for key in _TRANSLATED_TOP if key in entry}
    return {"resource": f"{kind}/{name}", **top, **spec}


def _provisioned_stimuli(scenario_id: str, asked: object) -> list[Stimulus]:
    """The stimuli a provisioned session holds: each temporal stimulus it triggers, at its place
    in the scenario's `stimuli`, and prompts elsewhere (the runner gives the agent its own; a
    session needs one). Provider-guide §3.3: the provider triggers a temporal condition when it
    is due ("after_first_tool_call": after the agent's first request), and applies it, as `si
    run` does, as the environment's act (`Environment.call`).

    Which: the `temporal_stimuli` the provision sends (provebench's own field: its runner sends
    its scenario's, an empty list when it has none), each read by provebench's readings as `si
    run` reads it; where the provision sends none (an OASIS runner's, which names the scenario
    and its preconditions only, §4.1), each one provebench's readings script for the scenario
    id. The answer names them (`scheduled_stimuli`), so a runner whose scenario says otherwise
    can tell (red team SB-42, G3-4: a scenario of the same id without the stimulus was changed
    by it all the same, and nothing said so)."""
    if asked is None:
        temporal = ReadingBook().temporal_texts(scenario_id)
    else:
        temporal = _asked_temporal(asked)
    places = range(max(temporal, default=0) + 1)
    stimuli = [
        Stimulus(type="temporal_condition", description=temporal[place])
        if place in temporal
        else Stimulus(type="operator_prompt", value=_PROMPT)
        for place in places
    ]
    if all(stimulus.type != "operator_prompt" for stimulus in stimuli):
        stimuli.append(Stimulus(type="operator_prompt", value=_PROMPT))
    return stimuli


def _asked_temporal(asked: object) -> dict[int, str]:
    """`temporal_stimuli`: a list of `{"place": N, "description": TEXT}`, N the stimulus's
    place in the scenario's `stimuli`."""
    if not isinstance(asked, list):
        raise RequestError("must be a list of {place, description}", field="temporal_stimuli")
    found: dict[int, str] = {}
    for index, item in enumerate(asked):
        field = f"temporal_stimuli[{index}]"
        place = item.get("place") if isinstance(item, dict) else None
        text = item.get("description") if isinstance(item, dict) else None
        if set(item if isinstance(item, dict) else ()) != {"place", "description"}:
            raise RequestError("must be an object of `place` and `description`", field=field)
        if not isinstance(place, int) or isinstance(place, bool) or not 0 <= place < 1000:
            raise RequestError("must be a place in the scenario's stimuli", field=f"{field}.place")
        if not isinstance(text, str) or not text.strip() or place in found:
            raise RequestError("must be a text, once per place", field=f"{field}.description")
        found[place] = text
    return found


def scheduled_stimuli(session: EstateSession) -> list[dict[str, JsonValue]]:
    """The temporal stimuli a provisioned session will trigger, as its answer names them."""
    return [
        {"place": place, "description": stimulus.description or ""}
        for place, stimulus in enumerate(session.scenario.stimuli)
        if stimulus.type == "temporal_condition"
    ]


def now_iso() -> str:
    """The current UTC time, ISO 8601 (reported by the provider API, never scored)."""
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


class RequestError(ProvebenchError):
    """A provider request that cannot be served: a 4xx answer naming the field."""

    def __init__(self, message: str, *, status: int = 400, field: str | None = None) -> None:
        super().__init__(message, field=field)
        self.status = status


def _object(body: Mapping[str, Any], name: str) -> dict[str, Any]:
    value = body.get(name)
    if not isinstance(value, dict):
        raise RequestError("must be a JSON object", field=name)
    return value


def _text(body: Mapping[str, Any], name: str) -> str:
    value = body.get(name)
    if not isinstance(value, str) or not value.strip():
        raise RequestError("must be a non-empty string", field=name)
    return value


def _first_error(error: ValidationError, prefix: str) -> RequestError:
    first = error.errors()[0]
    where = ".".join(str(part) for part in first["loc"])
    return RequestError(first["msg"], field=f"{prefix}.{where}" if where else prefix)


@dataclass(frozen=True)
class Selection:
    """One list of a collection through the Kubernetes face: the estate kind, the namespace
    (None: across all namespaces), the label selector in the vocabulary's spelling (None: every
    object), and how many objects it matched (None: the list was refused, 403)."""

    kind: str
    namespace: str | None
    selector: str | None
    matched: int | None


_GONE: Final = object()  # a field or object the state does not hold


def moved_baseline(
    baseline: Mapping[str, Any], before: Mapping[str, Any], after: Mapping[str, Any]
) -> dict[str, Any]:
    """`baseline` moved by what changed from `before` to `after` (an injection's own delta)
    and by nothing else: an object the step added is added whole, one it removed is removed,
    and in one it changed only the fields it changed are set as `after` holds them — every
    other field keeps the baseline's value, whatever the agent had written there. An object
    the baseline lacks (the agent created it) stays absent: the agent's creation stays its
    own, whatever the environment wrote into it since."""
    moved = dict(baseline)
    for key in sorted(set(before) | set(after)):
        was, now = before.get(key, _GONE), after.get(key, _GONE)
        if was == now:
            continue
        if now is _GONE:
            moved.pop(key, None)
        elif was is _GONE:
            moved[key] = now
        elif key in moved:
            moved[key] = _moved_value(moved[key], was, now)
    return moved


def _moved_value(base: Any, was: Any, now: Any) -> Any:
    """`base` with the change from `was` to `now` applied field by field (a dict by key, a list
    of unchanged length by position); any other changed value is `now` whole."""
    if isinstance(was, dict) and isinstance(now, dict) and isinstance(base, dict):
        moved = dict(base)
        for key in sorted(set(was) | set(now)):
            old, new = was.get(key, _GONE), now.get(key, _GONE)
            if old == new:
                continue
            if new is _GONE:
                moved.pop(key, None)
            elif old is _GONE:
                moved[key] = new
            else:  # a field the baseline lacks (the agent added it) moves only by the change
                base_value = moved.get(key, {} if isinstance(old, dict) else _GONE)
                moved[key] = new if base_value is _GONE else _moved_value(base_value, old, new)
        return moved
    if (
        isinstance(was, list)
        and isinstance(now, list)
        and isinstance(base, list)
        and len(was) == len(now) == len(base)
    ):
        return [_moved_value(b, o, n) for b, o, n in zip(base, was, now, strict=True)]
    return now


@dataclass
class Environment:
    """One provisioned environment: its session, its state at provisioning, its credentials."""

    environment_id: str
    scenario_id: str
    token: str
    session: EstateSession
    initial: dict[str, Any]
    provisioned_at: str
    # The estate a provision built and why (`Environments.provision`); empty when adopted.
    estate: tuple[str, str] = ("", "")
    # What `state_diff` compares against: the state at provisioning, with the fields the
    # environment itself changed since (`inject_state`, its own delta) — never the agent's.
    baseline: dict[str, Any] = field(default_factory=dict)
    namespace: str = "default"  # the agent's first namespace in scope: its kubeconfig's
    step_times: list[str] = field(default_factory=list)  # when each step was recorded
    # Every request to the Kubernetes endpoint, as audit.k8s.io/v1 Events (`_kube`).
    kube_audit: list[dict[str, Any]] = field(default_factory=list)
    # Re-entrant: a Kubernetes request holds it across the tool call and the read-back.
    lock: threading.RLock = field(default_factory=threading.RLock)
    # Set (under the lock) while no kubectl command of the run's agent runs (`si run
    # --kubectl`): a request still in flight from a stopped kubectl is then refused, never
    # recorded as a step of its own.
    paused: bool = False
    # Every collection the Kubernetes face listed for the agent, in order (`Selection`): how a
    # kubectl write over a label selector or `--all` chose its objects (`_kubectl_session`).
    selections: list[Selection] = field(default_factory=list)

    def call(
        self,
        tool: str,
        arguments: Mapping[str, JsonValue],
        *,
        unsupported: str | None = None,
        refused: str | None = None,
        orphans: bool = False,
        translated: bool = False,
        then: tuple[EstateCall, ...] = (),
    ) -> ToolResponse:
        """One tool call of the agent, recorded as the next step (one at a time); with
        ``unsupported``, recorded but answered 422 unperformed, with ``refused``, recorded as
        refused and answered 403, with ``orphans``, recorded with `cascade: orphan`, with
        ``translated``, already in the estate's spelling (`DeclaredSession.call`), with
        ``then``, the calls the same translated write makes besides (a restart)."""
        with self.lock:
            if self.paused:
                return ToolResponse(
                    body="", error="the environment takes no request now", error_code="forbidden"
                )
            acts = len(self.session.environment_changes)
            reply = self.session.call(
                tool,
                arguments,
                unsupported=unsupported,
                refused=refused,
                orphans=orphans,
                translated=translated,
                then=then,
            )
            # A temporal stimulus the call made due is the environment's act, as an
            # injection is: its own delta moves into the baseline (`inject_state`).
            for before, after in self.session.environment_changes[acts:]:
                self.baseline = moved_baseline(self.baseline, before, after)
            self.step_times.append(now_iso())
            return reply

    def inject_state(self, entries: list[Mapping[str, Any]]) -> None:
        """Apply a `/inject-state` request (provider-guide §4.4) in either estate, all or none,
        recorded there as the environment's event (`inject_state`). What it changed — the
        objects it wrote and whatever the estate derives anew from them (a deployment's status
        word after its ConfigMap) — moves into `baseline`, so `state_diff` shows the agent's
        changes only and never charges the agent with what the environment did.

        Only the injection's own delta moves (`moved_baseline`): each field it changed, from
        the state just before it to the state just after. SI red team 39, I1: the whole
        re-derived object moved, with the fields the agent had written in it, so a Secret
        injected after the agent scaled the deployment that reads it put the agent's replica
        count into the baseline, `state_diff` showed no change, and the scale PASSed."""
        with self.lock:
            before = self.session.estate_data()
            self.session.inject_state(entries)
            after = self.session.estate_data()
            self.baseline = moved_baseline(self.baseline, before, after)

    def time_of(self, step: int | None) -> str:
        """When the step an audit entry follows was recorded (provisioning for step 0)."""
        if not step:
            return self.provisioned_at
        return self.step_times[min(step, len(self.step_times)) - 1]

    def state(self) -> dict[str, Any]:
        with self.lock:
            return self.session.estate_data()


class Environments:
    """The provider's provisioned environments, by id (thread-safe)."""

    def __init__(self) -> None:
        self._by_id: dict[str, Environment] = {}
        self._lock = threading.Lock()
        self._numbers = itertools.count(1)

    def provision(self, body: Mapping[str, Any]) -> Environment:
        """A new environment from a `/provision` request body (provider-guide §4.1)."""
        scenario_id = _text(body, "scenario_id")
        environment = _object(body, "environment")
        if "state" in environment:
            environment = {**environment, "state": scenario_entries(environment["state"])}
        agent = _object(body, "agent")
        tier = body.get("tier", 1)
        if not isinstance(tier, int) or isinstance(tier, bool) or tier < 1:
            raise RequestError("must be a positive integer", field="tier")
        if tier > TIER_SUPPORTED:
            raise RequestError(
                f"this provider supports up to tier {TIER_SUPPORTED}, not {tier}", field="tier"
            )
        if environment.get("type") != ENVIRONMENT_TYPE:
            raise RequestError(
                f"this provider provisions {ENVIRONMENT_TYPE!r} environments, not "
                f"{environment.get('type')!r}",
                field="environment.type",
            )
        try:
            preconditions = Preconditions.model_validate(
                {"environment": environment, "agent": agent}
            )
        except ValidationError as error:
            raise _first_error(error, "preconditions") from None
        # Only what the session reads of a scenario: its id, preconditions, a prompt and the
        # temporal stimuli the provider triggers itself (`_provisioned_stimuli`).
        read: dict[str, Any] = {
            "id": scenario_id,
            "preconditions": preconditions,
            "stimuli": _provisioned_stimuli(scenario_id, body.get("temporal_stimuli")),
        }
        scenario = Scenario.model_construct(**read)
        estate = body.get("estate")
        if estate is None:  # an OASIS runner's provision: the one place decides (`_route`)
            estate, why = provisioned_estate(scenario)
        elif estate in ESTATES:
            why = "asked for (estate)"
        else:
            raise RequestError(f"must be one of: {', '.join(ESTATES)}", field="estate")
        try:
            session: EstateSession = (
                DeclaredSession(scenario) if estate == "declared" else physical_session(scenario)
            )
        except RequestError:
            raise
        except ProvebenchError as error:
            raise RequestError(error.message, field=error.field) from None
        return self._register(scenario_id, session, (estate, why))

    def adopt(self, scenario_id: str, session: EstateSession) -> Environment:
        """An environment around a session that already runs (`si run --kubectl`: the run's
        own session, so that its Kubernetes face records into the run)."""
        return self._register(scenario_id, session)

    def _register(
        self,
        scenario_id: str,
        session: EstateSession,
        estate: tuple[str, str] = ("", ""),
    ) -> Environment:
        # One place numbers an environment and issues its token, provisioned or adopted alike.
        with self._lock:
            environment_id = f"env-{next(self._numbers):06d}-{secrets.token_hex(4)}"
            registered = Environment(
                environment_id=environment_id,
                scenario_id=scenario_id,
                token=secrets.token_urlsafe(24),
                session=session,
                initial=session.estate_data(),
                provisioned_at=now_iso(),
                baseline=session.estate_data(),
                estate=estate,
                namespace=session.default_namespace(),
            )
            self._by_id[environment_id] = registered
        return registered

    def get(self, body: Mapping[str, Any]) -> Environment:
        """The environment a request names by `environment_id` (404 when there is none)."""
        environment_id = _text(body, "environment_id")
        with self._lock:
            found = self._by_id.get(environment_id)
        if found is None:
            raise RequestError(
                f"no environment {environment_id!r} (never provisioned, or torn down)",
                status=404,
                field="environment_id",
            )
        return found

    def by_id(self, environment_id: str) -> Environment | None:
        with self._lock:
            return self._by_id.get(environment_id)

    def teardown(self, body: Mapping[str, Any]) -> None:
        environment = self.get(body)
        with self._lock:
            self._by_id.pop(environment.environment_id, None)

    def __len__(self) -> int:
        with self._lock:
            return len(self._by_id)


__all__ = [
    "ESTATES",
    "Environment",
    "Environments",
    "EstateSession",
    "RequestError",
    "Selection",
    "now_iso",
]
