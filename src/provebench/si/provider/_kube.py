"""Each environment's Kubernetes-compatible agent endpoint: the part of the Kubernetes REST API
the SI profile's scenarios need, served over the environment's own session (docs/si-provider.md).

The face holds no state of its own. Every request for a resource is turned into the call of
provebench's own tools that does the same thing — ``GET …/deployments/x`` is
``orchestration_get``, ``PATCH`` is ``orchestration_patch`` with the declared fields the patch
changes, ``…/scale`` is ``orchestration_scale``, ``…/pods/x/log`` is ``logs_read`` — and made
through `Environment.call`: the same step, the same operation in the simulator's record, the
same refusal for a write the agent's mode or scope forbids (here a 403 ``Status``). So a
behaviour scores the same through kubectl as through the tools (SI provider-guide §2.1: the
record is the simulator's, never the agent's). The answer is then read back from the session
and shown as Kubernetes objects (`si.sim.declared._kube_objects`, the builder the tools'
reads answer with too).

Every request — discovery, refused, malformed, unauthenticated, outside the served API — is also
an ``audit.k8s.io/v1`` Event in the environment's Kubernetes audit log, the ``events`` of the
``audit_log`` observation. Requests that name no resource (discovery) are not steps.

A request the face refuses itself — malformed, unsupported (a dry run, a watch, protobuf), an
unknown resource — is answered with a 400/404/405/415 ``Status`` before it becomes a tool call:
it is an audit Event only, never an operation in the simulator's record, so it is not scored as
something the agent did (docs/si-provider.md, "Refused before it is an operation"). Two
refusals are not of that kind, because a real API server would act on them: an orphaning
delete and a write whose body is not strict JSON are recorded as the agent's attempt at that
delete or write, never performed (SI red team 17, H1/H7).
"""

from __future__ import annotations

import base64
import hmac
import json
import re
import uuid
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Final
from urllib.parse import parse_qs

import yaml

from provebench import __version__
from provebench._jsonfile import loads_strict, nested_too_deep
from provebench.si.primitives._operations import selector_text
from provebench.si.provider._environment import Environment, Selection, now_iso
from provebench.si.provider._fault import provider_fault
from provebench.si.provider._kube_patch import PatchError, apply_patch
from provebench.si.sim._tools import ToolResponse
from provebench.si.sim.declared._kube_objects import (
    BY_ESTATE_KIND,
    BY_PATH,
    CREATED,
    GROUPS,
    RESOURCES,
    SCALABLE,
    KubeResource,
    access_modes_shown,
    resource_version,
    to_kube,
    uid_of,
)
from provebench.si.sim.declared._kube_write import (
    EstateCall,
    EstateWrite,
    absent_object,
    create_of,
    estate_calls,
    write_of,
)

AGENT_USER: Final = "oasis-agent"
# The annotation `kubectl apply` (client-side) writes with the whole configuration it applied.
LAST_APPLIED: Final = "kubectl.kubernetes.io/last-applied-configuration"
SERVER_VERSION: Final = {
    "major": "1",
    "minor": "32",
    "gitVersion": f"v1.32.0+provebench.{__version__}",
    "gitCommit": "",
    "gitTreeState": "clean",
    "buildDate": CREATED,
    "goVersion": "",
    "compiler": "provebench",
    "platform": "simulated",
}
_REASONS: Final = {
    400: "BadRequest",
    401: "Unauthorized",
    403: "Forbidden",
    404: "NotFound",
    405: "MethodNotAllowed",
    409: "Conflict",
    413: "RequestEntityTooLarge",
    415: "UnsupportedMediaType",
    422: "Invalid",
    500: "InternalError",
}
_TOOL_STATUS: Final = {
    "not_found": 404,
    "conflict": 409,
    "forbidden": 403,
    "invalid_arguments": 422,
    "unsupported_field": 422,
    "unknown_tool": 404,
    "unsupported": 400,
}
# Verbs that change something: a dry run of one is refused (`_dry_run`).
_MUTATING: Final = frozenset({"create", "update", "patch", "delete", "deletecollection"})
_SELECTOR_TERM = re.compile(r"^([A-Za-z0-9_./-]+)\s*(==|=|!=)\s*([A-Za-z0-9_.:/-]*)$")


@dataclass
class Answer:
    """One response: status, body (bytes), media type."""

    status: int
    body: bytes
    media: str = "application/json"


@dataclass
class Request:
    """One request to an environment's Kubernetes endpoint, relative to its prefix."""

    method: str
    path: str
    query: str
    headers: Mapping[str, str]  # names in lower case
    body: bytes
    # filled while it is served, for the audit event
    verb: str = ""
    object_ref: dict[str, str] = field(default_factory=dict)
    tool: str | None = None
    step: int | None = None
    # why the body is read only as a lenient API server reads it (a key given twice: the last
    # one); the write it asks for is then recorded as the attempt it is, never performed
    body_problem: str | None = None

    @property
    def uri(self) -> str:
        return self.path + (f"?{self.query}" if self.query else "")

    def param(self, name: str) -> str | None:
        values = parse_qs(self.query).get(name)
        return values[0] if values else None


def limited_log(text: str, request: Request) -> bytes:
    """A pod's log as the API server answers a read that limits it: the last ``tailLines``
    lines, then the first ``limitBytes`` bytes (`sinceSeconds` and `sinceTime` cut nothing: the
    estate's lines carry no time). Before, the face ignored both, so it showed the first line
    under `kubectl logs --tail=1`, and the runner held a faithful provider that did not to that
    line (provider red team 45, PV8). A value that is not a whole number cuts nothing."""
    return cut_log(text, request.param("tailLines"), request.param("limitBytes"))


def cut_log(text: str, tail: str | None, limit: str | None) -> bytes:
    """`limited_log`'s cut of ``text`` by the query's ``tailLines`` and ``limitBytes`` values:
    one function, which the runner's reference answer to a provider's log read uses too
    (`_log_reference`, provider red team 46, H4-H6)."""
    if tail is not None and tail.isdigit():
        lines = text.splitlines(keepends=True)
        text = "".join(lines[len(lines) - int(tail) :]) if int(tail) < len(lines) else text
    body = text.encode()
    if limit is not None and limit.isdigit() and int(limit) > 0:
        body = body[: int(limit)]
    return body


class KubeError(Exception):
    """A request answered with a Kubernetes ``Status`` (the code, why, what it names)."""

    def __init__(self, code: int, message: str, details: Mapping[str, str] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.details = dict(details or {})
        # `details.causes` of an Invalid (422) Status: one per field, as kubectl prints them
        self.causes: list[dict[str, str]] = []


class UnreadableBody(KubeError):
    """A write's body that is not JSON even as a lenient API server reads it."""


def _lenient_json(body: bytes) -> Any:
    """The body as an API server that does not validate strictly reads it — a key given twice
    is its last value (kubectl patch's default field validation only warns) — and otherwise by
    the project's policy (`loads_strict`: no NaN, no lone surrogate, bounded nesting).
    `ValueError` where even that cannot read it."""

    def refuse(constant: str) -> Any:
        raise ValueError(f"{constant} is not JSON")

    try:
        document = json.loads(body.decode("utf-8"), parse_constant=refuse)
        return loads_strict(json.dumps(document))
    except RecursionError:
        raise ValueError("nested too deeply") from None


def status_object(
    code: int,
    message: str,
    details: Mapping[str, str] | None = None,
    causes: list[dict[str, str]] | None = None,
) -> dict[str, Any]:
    """A ``meta/v1`` Status, as the API server answers a failure."""
    status: dict[str, Any] = {
        "kind": "Status",
        "apiVersion": "v1",
        "metadata": {},
        "status": "Failure",
        "message": message,
        "reason": _REASONS.get(code, "Unknown"),
        "code": code,
    }
    if details or causes:
        status["details"] = {**dict(details or {}), **({"causes": causes} if causes else {})}
    return status


def _json(value: Any, status: int = 200) -> Answer:
    return Answer(status, json.dumps(value, ensure_ascii=False).encode())


def kubeconfig(server: str, authority_pem: bytes, environment: Environment, namespace: str) -> str:
    """The kubeconfig of `agent_credentials`: one cluster, one user (the bearer token), one
    context whose namespace is the agent's first in scope."""
    name = f"provebench-{environment.environment_id}"
    config = {
        "apiVersion": "v1",
        "kind": "Config",
        "clusters": [
            {
                "name": name,
                "cluster": {
                    "server": server,
                    "certificate-authority-data": base64.b64encode(authority_pem).decode(),
                },
            }
        ],
        "users": [{"name": AGENT_USER, "user": {"token": environment.token}}],
        "contexts": [
            {
                "name": name,
                "context": {"cluster": name, "user": AGENT_USER, "namespace": namespace},
            }
        ],
        "current-context": name,
        "preferences": {},
    }
    return yaml.safe_dump(config, sort_keys=False)


# -- discovery ------------------------------------------------------------------------------


def _resource_list(group: str) -> dict[str, Any]:
    version = f"{group}/v1" if group else "v1"
    listed: list[dict[str, Any]] = []
    for served in RESOURCES:
        if served.group != group:
            continue
        entry: dict[str, Any] = {
            "name": served.plural,
            "singularName": served.kind.lower(),
            "namespaced": served.namespaced,
            "kind": served.kind,
            "verbs": list(served.verbs),
        }
        if served.short_names:
            entry["shortNames"] = list(served.short_names)
        listed.append(entry)
        if served.estate_kind in SCALABLE:
            listed.append(
                {
                    "name": f"{served.plural}/scale",
                    "singularName": "",
                    "namespaced": True,
                    "group": "autoscaling",
                    "version": "v1",
                    "kind": "Scale",
                    "verbs": ["get", "patch", "update"],
                }
            )
        if served.estate_kind == "pod":
            listed.append(
                {
                    "name": "pods/log",
                    "singularName": "",
                    "namespaced": True,
                    "kind": "Pod",
                    "verbs": ["get"],
                }
            )
    return {
        "kind": "APIResourceList",
        "apiVersion": "v1",
        "groupVersion": version,
        "resources": listed,
    }


def _group(name: str) -> dict[str, Any]:
    version = {"groupVersion": f"{name}/v1", "version": "v1"}
    return {"name": name, "versions": [version], "preferredVersion": version}


def _discovery(path: str) -> dict[str, Any] | None:
    if path in ("/version", "/version/"):
        return dict(SERVER_VERSION)
    if path == "/api":
        return {
            "kind": "APIVersions",
            "apiVersion": "v1",
            "versions": ["v1"],
            "serverAddressByClientCIDRs": [{"clientCIDR": "0.0.0.0/0", "serverAddress": ""}],
        }
    if path == "/apis":
        groups = [_group(g) for g in GROUPS if g]
        return {"kind": "APIGroupList", "apiVersion": "v1", "groups": groups}
    if path == "/api/v1":
        return _resource_list("")
    for group in GROUPS:
        if group and path == f"/apis/{group}":
            return {"kind": "APIGroup", "apiVersion": "v1", **_group(group)}
        if group and path == f"/apis/{group}/v1":
            return _resource_list(group)
    return None


# -- the face -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Target:
    """What a resource request names."""

    served: KubeResource
    namespace: str | None
    name: str | None
    subresource: str | None


def _parse_target(path: str) -> tuple[str, str, Target] | None:
    """(group, plural, target) of a resource path; None when the path is not one."""
    parts = [p for p in path.split("/") if p]
    if parts[:2] == ["api", "v1"]:
        group, rest = "", parts[2:]
    elif len(parts) >= 3 and parts[0] == "apis" and parts[2] == "v1":
        group, rest = parts[1], parts[3:]
    else:
        return None
    namespace = None
    if len(rest) >= 3 and rest[0] == "namespaces":
        namespace, rest = rest[1], rest[2:]
    if not 1 <= len(rest) <= 3:
        return None
    plural = rest[0]
    served = BY_PATH.get((group, plural))
    name = rest[1] if len(rest) > 1 else None
    sub = rest[2] if len(rest) > 2 else None
    if served is None:
        return group, plural, Target(RESOURCES[0], namespace, name, sub)
    return group, plural, Target(served, namespace, name, sub)


def _dry_run(request: Request) -> str | None:
    """How a mutating request asks for a dry run, or None: a `dryRun` query parameter, whatever
    its value or spelling of case (kubectl's `--dry-run=server` on create, patch, apply, scale),
    or a `dryRun` in a DELETE's `DeleteOptions` body (kubectl's delete). The simulator has no
    dry run, so one is refused before it reaches the session: a dry run must never mutate, and
    a refusal must never be mistaken for an operation the agent performed."""
    for name, values in parse_qs(request.query, keep_blank_values=True).items():
        if name.lower() == "dryrun":
            return f"dryRun={values[0]}"
    if request.method != "DELETE" or not request.body:
        return None
    try:
        options = json.loads(request.body)
    except (ValueError, UnicodeDecodeError):
        # unread, it could have asked for a dry run: refused, never performed
        raise KubeError(400, "the DeleteOptions body is not JSON") from None
    if options is None:
        return None
    if not isinstance(options, dict):
        raise KubeError(400, "the DeleteOptions body is not a JSON object")
    for name, value in options.items():
        if name.lower() == "dryrun" and value not in (None, []):
            return f"DeleteOptions.dryRun={json.dumps(value)}"
    return None


def _orphaning(request: Request) -> str | None:
    """How a DELETE asks to leave the object's dependents, or None: a `propagationPolicy` of
    `Orphan` (kubectl's `--cascade=orphan`), or the older `orphanDependents`, in the query or
    the DeleteOptions body (already read as JSON by `_dry_run`). The simulated estate's pods
    belong to their workload — a workload deleted takes its pods with it, and the audit log's
    `delete` of it reads so (si.primitives `Operation.consequences`) — so one is refused, and
    never performed as the cascading delete it did not ask for."""
    if request.method != "DELETE":
        return None
    asked: list[tuple[str, Any]] = [
        (name, values[0])
        for name, values in parse_qs(request.query, keep_blank_values=True).items()
    ]
    if request.body:
        options = json.loads(request.body)
        if isinstance(options, dict):
            asked += list(options.items())
    for name, value in asked:
        lowered = name.lower()
        if lowered == "propagationpolicy" and str(value).lower() == "orphan":
            return f"{name}={value}"
        if lowered == "orphandependents" and str(value).lower() != "false" and value:
            return f"{name}={json.dumps(value)}"
    return None


def _label_selector(raw: str | None) -> str | None:
    """An equality label selector as the tools take it; 400 for set-based ones."""
    if raw is None or not raw.strip():
        return None
    pairs = []
    for term in raw.split(","):
        match = _SELECTOR_TERM.match(term.strip())
        if match is None or match.group(2) == "!=":
            raise KubeError(
                400, f"labelSelector {raw!r}: only equality terms (key=value) are served"
            )
        pairs.append(f"{match.group(1)}={match.group(3)}")
    return ",".join(pairs)


def _field_filter(raw: str | None) -> list[tuple[list[str], bool, str]]:
    if raw is None or not raw.strip():
        return []
    terms = []
    for term in raw.split(","):
        match = _SELECTOR_TERM.match(term.strip())
        if match is None:
            raise KubeError(400, f"fieldSelector {raw!r}: terms are field=value or field!=value")
        terms.append((match.group(1).split("."), match.group(2) != "!=", match.group(3)))
    return terms


def _field_value(obj: Any, path: list[str]) -> str:
    for part in path:
        obj = obj.get(part) if isinstance(obj, dict) else None
    return "" if obj is None else str(obj)


def _matches(obj: Mapping[str, Any], terms: list[tuple[list[str], bool, str]]) -> bool:
    return all((_field_value(obj, path) == value) == equal for path, equal, value in terms)


def _event(namespace: str, index: int, declared: Any) -> dict[str, Any]:
    entry = declared if isinstance(declared, dict) else {"message": str(declared)}
    target = str(entry.get("object", ""))
    kind, _, name = target.partition("/")
    involved: dict[str, Any] = {"namespace": namespace}
    served = BY_ESTATE_KIND.get(kind)
    if served is not None and name:
        involved.update(
            {
                "apiVersion": served.api_version,
                "kind": served.kind,
                "name": name,
                "uid": uid_of(kind, namespace if served.namespaced else None, name),
            }
        )
    elif name:
        involved.update({"kind": kind, "name": name})
    event_name = f"{name or namespace}.{index:04d}"
    metadata: dict[str, Any] = {
        "name": event_name,
        "namespace": namespace,
        "uid": uid_of("event", namespace, event_name),
        "resourceVersion": resource_version({"event": entry}),
        "creationTimestamp": CREATED,
    }
    extra = {k: v for k, v in entry.items() if k not in ("object", "reason", "message", "type")}
    if extra:
        metadata["annotations"] = {
            "provebench.dev/declared": json.dumps(extra, sort_keys=True, separators=(",", ":"))
        }
    return {
        "apiVersion": "v1",
        "kind": "Event",
        "metadata": metadata,
        "involvedObject": involved,
        "reason": str(entry.get("reason", "")),
        "message": str(entry.get("message", "")),
        "type": str(entry.get("type", "Normal")),
        "count": 1,
        "firstTimestamp": CREATED,
        "lastTimestamp": CREATED,
        "source": {"component": "provebench-simulator"},
    }


def _asked_replicas(body: Any) -> Any:
    """The replica count a scale request's body says without the object, or None (recorded
    with a refused scale; never a count the request did not ask for)."""
    if isinstance(body, dict) and isinstance(body.get("spec"), dict):
        return body["spec"].get("replicas")
    if isinstance(body, list):
        for op in body:
            writes = isinstance(op, dict) and op.get("op") in ("add", "replace")
            if writes and op.get("path") == "/spec/replicas":
                return op.get("value")
    return None


def _applied(body: Any) -> Any:
    """The configuration a `kubectl apply` patch carries (its last-applied annotation, the
    whole document applied), or None for a patch that carries none."""
    metadata = body.get("metadata") if isinstance(body, dict) else None
    annotations = metadata.get("annotations") if isinstance(metadata, dict) else None
    text = annotations.get(LAST_APPLIED) if isinstance(annotations, dict) else None
    if not isinstance(text, str):
        return None
    try:
        return loads_strict(text.encode())
    except ValueError:
        return None


def _stated_count(document: Any, new: Mapping[str, Any]) -> dict[str, Any] | None:
    """The replica count a write's document states (`{"spec": {"replicas": N}}`), named as
    written even where the object already held it, as the tools' `orchestration_apply` of an
    object names every field it gives (`_kube_write.write_of`); None where it states none, or
    one the object written does not hold. An `apply -f -` or `replace -f -` states the count of
    its document, and the runner holds a write of it recorded done to that count — without it,
    a provider that dropped the count of a scale to 5000 could not be told from an apply that
    left the count as it was (SI red team 21, H2)."""
    spec = document.get("spec") if isinstance(document, dict) else None
    count = spec.get("replicas") if isinstance(spec, dict) else None
    held = new.get("spec") if isinstance(new, Mapping) else None
    if not isinstance(count, int) or isinstance(count, bool) or not isinstance(held, dict):
        return None
    if held.get("replicas") != count:
        return None
    return {"spec": {"replicas": count}}


def _wants_table(request: Request) -> bool:
    """kubectl get asks for server-side printing (a meta.k8s.io/v1 Table) first."""
    return "as=Table" in request.headers.get("accept", "")


def _column(name: str, kind: str = "string") -> dict[str, Any]:
    return {
        "name": name,
        "type": kind,
        "format": "name" if name == "Name" else "",
        "description": "",
        "priority": 0,
    }


def _cells(served: KubeResource, obj: Mapping[str, Any]) -> list[Any]:
    name = obj["metadata"]["name"]
    status: dict[str, Any] = obj["status"] if isinstance(obj.get("status"), dict) else {}
    if served.estate_kind == "pod":
        statuses = status.get("containerStatuses") or [{}]
        ready = sum(1 for c in statuses if c.get("ready"))
        waiting = (statuses[0].get("state") or {}).get("waiting") or {}
        shown = waiting.get("reason") or status.get("phase", "")
        restarts = sum(int(c.get("restartCount", 0)) for c in statuses)
        return [name, f"{ready}/{len(statuses)}", shown, restarts, ""]
    if served.estate_kind in SCALABLE:
        spec = obj.get("spec", {})
        ready = status.get("readyReplicas", 0)
        if served.estate_kind == "statefulset":
            return [name, f"{ready}/{spec.get('replicas', 0)}", ""]
        return [
            name,
            f"{ready}/{spec.get('replicas', 0)}",
            status.get("updatedReplicas", 0),
            status.get("availableReplicas", 0),
            "",
        ]
    if served.estate_kind == "event":
        involved = obj.get("involvedObject", {})
        subject = f"{str(involved.get('kind', '')).lower()}/{involved.get('name', '')}"
        return ["", obj.get("type", ""), obj.get("reason", ""), subject, obj.get("message", "")]
    if served.estate_kind == "pvc":
        spec = obj.get("spec", {})
        capacity = (status.get("capacity") or {}).get("storage", "")
        modes = access_modes_shown(status.get("accessModes")) if capacity else ""
        shown_class = spec.get("storageClassName", "")
        return [
            name,
            status.get("phase", ""),
            spec.get("volumeName", ""),
            capacity,
            modes,
            shown_class,
            "<unset>",
            "",
        ]
    if served.estate_kind == "pv":
        spec = obj.get("spec", {})
        claim = spec.get("claimRef") or {}
        return [
            name,
            (spec.get("capacity") or {}).get("storage", ""),
            access_modes_shown(spec.get("accessModes")),
            spec.get("persistentVolumeReclaimPolicy", ""),
            status.get("phase", ""),
            f"{claim['namespace']}/{claim['name']}" if claim else "",
            spec.get("storageClassName", ""),
            "<unset>",
            "",
            "",
        ]
    if served.estate_kind in ("namespace", "node"):
        condition = (status.get("conditions") or [{}])[0]
        state = status.get("phase") or (
            "Ready" if condition.get("status") == "True" else "NotReady"
        )
        return [name, state, ""]
    return [name, ""]


_TABLE_COLUMNS: Final = {
    "pod": ("Name", "Ready", "Status", "Restarts", "Age"),
    "deployment": ("Name", "Ready", "Up-to-date", "Available", "Age"),
    "statefulset": ("Name", "Ready", "Age"),
    "event": ("Last Seen", "Type", "Reason", "Object", "Message"),
    "pvc": (
        "Name",
        "Status",
        "Volume",
        "Capacity",
        "Access Modes",
        "StorageClass",
        "VolumeAttributesClass",
        "Age",
    ),
    "pv": (
        "Name",
        "Capacity",
        "Access Modes",
        "Reclaim Policy",
        "Status",
        "Claim",
        "StorageClass",
        "VolumeAttributesClass",
        "Reason",
        "Age",
    ),
    "namespace": ("Name", "Status", "Age"),
    "node": ("Name", "Status", "Age"),
}


def table(served: KubeResource, items: list[dict[str, Any]]) -> dict[str, Any]:
    """The objects as a meta.k8s.io/v1 Table, the columns kubectl shows for the kind (ages are
    left blank: the simulated cluster has no clock)."""
    names = _TABLE_COLUMNS.get(served.estate_kind, ("Name", "Age"))
    return {
        "kind": "Table",
        "apiVersion": "meta.k8s.io/v1",
        "metadata": {},
        "columnDefinitions": [
            _column(n, "integer" if n == "Restarts" else "string") for n in names
        ],
        "rows": [{"cells": _cells(served, item), "object": item} for item in items],
    }


@contextmanager
def _naming_causes(unset: list[tuple[str, ...]]) -> Iterator[None]:
    """A 422 raised inside for a write that sets fields the estate cannot hold names each
    field as a cause (kubectl prints them: `The deployments "web" is invalid: …`)."""
    try:
        yield
    except KubeError as error:
        if error.code == 422 and unset:
            error.causes = [
                {
                    "reason": "FieldValueNotSupported",
                    "message": "Unsupported value: this simulated API server cannot write it",
                    "field": ".".join(path),
                }
                for path in unset
            ]
        raise


_DELETED_LINE = re.compile(r'^[a-z-]+ "([^"]+)" deleted$')


def _deleted_names(body: str) -> list[str]:
    """The objects a delete over a collection deleted, from its answer in either estate: the
    declared estate's JSON (``{"deleted": [KIND/NAME, …]}``) or the physical estate's kubectl
    lines (``pod "NAME" deleted``) — the second was read as JSON and answered 500 (issue 44)."""
    try:
        answered = json.loads(body)
    except ValueError:
        return [m.group(1) for line in body.splitlines() if (m := _DELETED_LINE.match(line))]
    deleted = answered.get("deleted", []) if isinstance(answered, dict) else []
    return [str(d) for d in deleted] if isinstance(deleted, list) else []


class KubeFace:
    """Serves one environment's Kubernetes requests over its session (module doc)."""

    def __init__(self, environment: Environment) -> None:
        self.environment = environment

    # -- entry ------------------------------------------------------------------------------

    def serve(self, request: Request) -> Answer:
        """Answer one request and record it as an audit event; never raises."""
        received = now_iso()
        environment = self.environment
        with environment.lock:
            user = AGENT_USER
            try:
                offered = (request.headers.get("authorization") or "").encode()
                if not hmac.compare_digest(offered, f"Bearer {environment.token}".encode()):
                    user = "system:anonymous"
                    request.verb = request.method.lower()
                    raise KubeError(401, "Unauthorized: the environment's bearer token is required")
                answer = self._route(request)
            except KubeError as error:
                answer = _json(
                    status_object(error.code, error.message, error.details, error.causes),
                    error.code,
                )
            except Exception as error:  # the provider's own fault: a Status of a fixed line
                message = provider_fault(error, "the Kubernetes endpoint")  # (`_fault`)
                answer = _json(status_object(500, message), 500)
            environment.kube_audit.append(self._audit_event(request, answer, user, received))
        return answer

    def _audit_event(
        self, request: Request, answer: Answer, user: str, received: str
    ) -> dict[str, Any]:
        environment = self.environment
        number = len(environment.kube_audit) + 1
        response: dict[str, Any] = {"metadata": {}, "code": answer.status}
        if answer.status >= 400 and answer.media == "application/json":
            try:
                failure = json.loads(answer.body)
                response.update(
                    {
                        "status": "Failure",
                        "reason": failure["reason"],
                        "message": failure["message"],
                    }
                )
            except (ValueError, KeyError, TypeError):
                pass
        event: dict[str, Any] = {
            "kind": "Event",
            "apiVersion": "audit.k8s.io/v1",
            "level": "Metadata",
            "auditID": str(
                uuid.uuid5(uuid.NAMESPACE_URL, f"{environment.environment_id}/{number}")
            ),
            "stage": "ResponseComplete",
            "requestURI": request.uri,
            "verb": request.verb or request.method.lower(),
            "user": {
                "username": user,
                "groups": ["system:authenticated"]
                if user == AGENT_USER
                else ["system:unauthenticated"],
            },
            "sourceIPs": ["127.0.0.1"],
            "userAgent": request.headers.get("user-agent", ""),
            "responseStatus": response,
            "requestReceivedTimestamp": received,
            "stageTimestamp": now_iso(),
        }
        if request.object_ref:
            event["objectRef"] = dict(request.object_ref)
        if request.tool is not None:
            event["annotations"] = {
                "provebench.dev/tool": request.tool,
                "provebench.dev/step": str(request.step),
            }
        return event

    def _route(self, request: Request) -> Answer:
        path = request.path.rstrip("/") or "/"
        discovered = _discovery(path)
        if discovered is not None:
            request.verb = "get"
            if request.method != "GET":
                raise KubeError(405, f"{request.method} is not allowed on {path}")
            return _json(discovered)
        parsed = _parse_target(path)
        if parsed is None:
            request.verb = request.method.lower()
            raise KubeError(
                404,
                f"the server could not find the requested resource ({request.method} {path}): "
                "this simulated API server serves the resources its discovery lists",
            )
        group, plural, target = parsed
        request.verb = self._verb(request, target)
        request.object_ref = {"resource": plural, "apiGroup": group, "apiVersion": "v1"}
        if target.namespace is not None:
            request.object_ref["namespace"] = target.namespace
        if target.name is not None:
            request.object_ref["name"] = target.name
        if target.subresource is not None:
            request.object_ref["subresource"] = target.subresource
        served = BY_PATH.get((group, plural))
        details = {"group": group, "kind": plural, **({"name": target.name} if target.name else {})}
        if served is None:
            raise KubeError(
                404,
                f"the server doesn't have a resource type {plural!r}"
                + (f" in group {group!r}" if group else ""),
                details,
            )
        if request.param("watch") in ("true", "1"):
            raise KubeError(405, f"watch is not served ({plural})", details)
        if served.namespaced and target.namespace is None and target.name is not None:
            raise KubeError(404, f"{plural} is namespaced: name the namespace", details)
        if not served.namespaced and target.namespace is not None:
            raise KubeError(404, f"{plural} is cluster-scoped: it has no namespace", details)
        if request.verb not in served.verbs and target.subresource is None:
            raise KubeError(405, f"{request.verb} is not allowed on {plural}", details)
        dry_run = _dry_run(request) if request.verb in _MUTATING else None
        if dry_run is not None:
            raise KubeError(
                400,
                f"dry run ({dry_run}) is not supported by this simulated API server: the "
                f"{request.verb} was refused and nothing was changed",
                details,
            )
        orphaning = _orphaning(request) if request.verb in _MUTATING else None
        if orphaning is not None:
            return self._orphaning_delete(request, target, details, orphaning)
        try:
            return self._serve(request, target, details)
        except UnreadableBody as error:
            if request.tool is None and target.name is not None and request.verb != "create":
                # a write of a named object whose body cannot be read at all: still the agent's
                # attempt at writing that object (SI red team 17, H7), recorded as a write of
                # fields it did not say, answered unperformed — never lost before the session
                nothing = self._args(target, patch={})
                self._checked(request, "orchestration_patch", nothing, details, error.message)
            raise

    def _orphaning_delete(
        self, request: Request, target: Target, details: dict[str, str], orphaning: str
    ) -> Answer:
        """A delete that asks to orphan the dependents is not performed (the simulated estate
        has no orphaned pods), but it is the agent's attempt at the delete: a real API server
        deletes the object (a namespace with everything in it). So it is recorded as that
        delete, `cascade: orphan`, refused 403 where the agent's mode or scope forbids it and
        answered 422 unperformed otherwise — never lost before the session, where the safety
        checks could not see it (SI red team 17, H1; Core §1.3: an attempt counts)."""
        message = (
            f"an orphaning delete ({orphaning}) is not supported by this simulated API server: "
            "a workload's pods are deleted with it; the delete was refused and nothing was "
            "changed"
        )
        self._checked(
            request,
            "orchestration_delete",
            self._delete_arguments(request, target, details),
            details,
            unsupported=message,
            orphans=True,
        )
        raise KubeError(422, message, details)  # fail closed: the call is never performed

    def _delete_arguments(
        self, request: Request, target: Target, details: dict[str, str]
    ) -> dict[str, Any]:
        """The `orchestration_delete` arguments a DELETE of the object or collection is."""
        if target.name is not None:
            return self._args(target)
        selector = _label_selector(request.param("labelSelector"))
        if request.param("fieldSelector"):
            raise KubeError(400, "deletecollection takes a labelSelector only", details)
        more: dict[str, Any] = {"selector": selector} if selector else {"all": True}
        return self._args(target, **more)

    @staticmethod
    def _verb(request: Request, target: Target) -> str:
        method = request.method
        if method == "GET":
            return "list" if target.name is None else "get"
        if method == "POST":
            return "create"
        if method == "PUT":
            return "update"
        if method == "PATCH":
            return "patch"
        if method == "DELETE":
            return "deletecollection" if target.name is None else "delete"
        return method.lower()

    # -- calls ------------------------------------------------------------------------------

    def _call(
        self,
        request: Request,
        tool: str,
        arguments: dict[str, Any],
        unsupported: str | None = None,
        refused: str | None = None,
        orphans: bool = False,
        then: tuple[EstateCall, ...] = (),
    ) -> ToolResponse:
        if unsupported is None:  # a write read from a body only a lenient server reads
            unsupported = request.body_problem
        # the face's calls are its own translation of the request already (`_estate_write`)
        reply = self.environment.call(
            tool,
            arguments,
            unsupported=unsupported,
            refused=refused,
            orphans=orphans,
            translated=True,
            then=then,
        )
        request.tool = tool
        request.step = len(self.environment.step_times)
        return reply

    def _checked(
        self,
        request: Request,
        tool: str,
        arguments: dict[str, Any],
        details: Mapping[str, str],
        unsupported: str | None = None,
        refused: str | None = None,
        orphans: bool = False,
        then: tuple[EstateCall, ...] = (),
    ) -> ToolResponse:
        reply = self._call(request, tool, arguments, unsupported, refused, orphans, then)
        if reply.error is not None:
            code = _TOOL_STATUS.get(reply.error_code or "", 400)
            message = reply.error
            served = request.object_ref.get("resource", "")
            group = request.object_ref.get("apiGroup", "")
            qualified = f"{served}.{group}" if group else served
            if reply.error_code == "unknown_tool":
                message = (
                    f"{qualified} is not served to this agent: the scenario's interface types "
                    f"give it no {tool} tool"
                )
            elif code == 404 and reply.error_code == "not_found":
                message = f'{qualified} "{details.get("name", "")}" not found'
            elif code == 403:
                named = f' "{details["name"]}"' if details.get("name") else ""
                message = (
                    f"{qualified}{named} is forbidden: User "
                    f'"{AGENT_USER}" cannot {request.verb} {qualified}: {reply.error}'
                )
            raise KubeError(code, message, details)
        return reply

    def _authorise(
        self,
        request: Request,
        target: Target,
        details: Mapping[str, str],
        call: tuple[str, dict[str, Any]],
        attempted: Callable[[], tuple[str, dict[str, Any]] | EstateWrite] | None = None,
    ) -> None:
        """Refuse a write the agent's mode or scope forbids before anything is answered from
        the object: a refused request tells nothing of it, not its content (a failed
        JSON-patch `test`), not its existence (a stale `resourceVersion`'s 409, a 404). The
        decision is the session's own check of the tool `call` the request is; the refusal is
        that call, made and recorded as through the tools (a 403 operation). `attempted`
        says which fields the request asked to write, so that the record names them as the
        tools' record does; it is only recorded, never answered, and only if the session
        refuses it too (a call that would run is never made here). A write that is several
        calls (a restart beside other changes, `write_of`) is refused as all of them."""
        session = self.environment.session
        if session.refusal(*call) is None:
            return
        then: tuple[EstateCall, ...] = ()
        if attempted is not None:
            try:
                given = attempted()
            except (KubeError, PatchError, ValueError, TypeError, KeyError, AttributeError):
                given = call
            asked = (given.tool, given.arguments) if isinstance(given, EstateWrite) else given
            if session.refusal(*asked) is not None:
                call = asked
                then = estate_calls(given)[1:] if isinstance(given, EstateWrite) else ()
        # refused and recorded: raises 403
        self._checked(request, call[0], call[1], details, then=then)
        raise KubeError(403, f"{target.served.plural} is forbidden", details)  # fail closed

    def _estate_write(
        self, target: Target, new: Mapping[str, Any], named: Mapping[str, Any] | None = None
    ) -> EstateWrite:
        """The tool call writing `new` over the object is, by the one translation the tools'
        ``orchestration_patch`` of an object uses too (`si.sim.declared._kube_write`); `named`:
        what the request states it writes whatever its present value (`_stated_count`)."""
        current = self._current(target)
        return write_of(target.served, target.namespace, target.name, current, new, named)

    def _write_call(
        self, target: Target, new: Mapping[str, Any], named: Mapping[str, Any] | None = None
    ) -> EstateWrite:
        """The tool calls writing `new` over the object are (a patch of nothing when absent)."""
        return self._estate_write(target, new, named)

    def _current(self, target: Target) -> dict[str, Any] | None:
        if target.name is None:
            return None
        namespace = target.namespace if target.served.namespaced else None
        return self.environment.session.resource(target.served.estate_kind, namespace, target.name)

    def _args(self, target: Target, **more: Any) -> dict[str, Any]:
        arguments: dict[str, Any] = {"kind": target.served.estate_kind}
        if target.name is not None:
            arguments["name"] = target.name
        if target.served.namespaced and target.namespace is not None:
            arguments["namespace"] = target.namespace
        arguments.update(more)
        return arguments

    def _body(self, request: Request) -> Any:
        """The request's JSON body (kubectl and the clients send JSON; nothing else is read)."""
        media = request.headers.get("content-type", "").split(";", 1)[0].strip().lower()
        if "protobuf" in media or "cbor" in media or "yaml" in media:
            raise KubeError(415, f"the media type {media!r} is not served: send JSON")
        if nested_too_deep(request.body or b""):
            # measured before any parse: both reads below would descend to Python's recursion
            # limit before refusing it (the policy's limit, MAX_JSON_DEPTH, is far above any
            # Kubernetes object)
            raise UnreadableBody(400, "the request body is not JSON")
        try:  # the project's policy for JSON from outside: deep nesting or NaN is a 400, not a 500
            return loads_strict(request.body or b"null")
        except ValueError as strict:
            problem = str(strict)
        # A real API server reads what it can (a key given twice: the last one, SI red team 17,
        # H7): that write is the agent's attempt, recorded with what it asked, never performed.
        try:
            document = _lenient_json(request.body)
        except ValueError:
            raise UnreadableBody(400, "the request body is not JSON") from None
        request.body_problem = (
            f"the request body is not strict JSON ({problem}): this simulated API server does "
            "not guess which value was meant, so the write was refused and nothing was changed"
        )
        return document

    def _serve(self, request: Request, target: Target, details: dict[str, str]) -> Answer:
        kind = target.served.estate_kind
        sub = target.subresource
        if sub is not None:
            if sub == "log" and kind == "pod" and request.verb == "get":
                return self._log(request, target, details)
            if sub == "scale" and kind in SCALABLE and request.verb in ("get", "update", "patch"):
                return self._scale(request, target, details)
            raise KubeError(404, f"{target.served.plural}/{sub} is not served", details)
        if target.served.namespaced and target.namespace is None:
            refusal = "a list across all namespaces is outside the agent's scope: name a namespace"
            if request.verb == "list" and kind == "event":
                # `get events -A`, `events -A`: the agent's refused events list with no
                # namespace, as for any other kind (SI red team 13, K3: it was recorded as
                # "made no request", and a zone-crossing reading never saw it)
                self._checked(request, "orchestration_events", {}, details, refused=refusal)
            elif request.verb == "list":
                # a list across all namespaces (`-A`), refused: what a write over it attempted,
                # and the agent's refused `list <kind>` with no namespace, recorded through the
                # session as the tools record a refused call (the forbidden polarity of a check
                # matches it against any namespace), never "made no request"
                selector = _label_selector(request.param("labelSelector"))
                self._selected(target, selector, None)
                more = {"selector": selector} if selector else {}
                self._checked(
                    request,
                    "orchestration_list",
                    self._args(target, **more),
                    details,
                    refused=refusal,
                )
            raise KubeError(
                403,
                f'{target.served.plural} is forbidden: User "{AGENT_USER}" cannot '
                f"{request.verb} {target.served.plural} at the cluster scope: name a namespace",
                details,
            )
        handler = {
            "list": self._list,
            "get": self._get,
            "create": self._create,
            "update": self._update,
            "patch": self._patch,
            "delete": self._delete,
            "deletecollection": self._delete_collection,
        }.get(request.verb)
        if handler is None:
            raise KubeError(405, f"{request.method} is not allowed", details)
        return handler(request, target, details)

    def _list(self, request: Request, target: Target, details: dict[str, str]) -> Answer:
        terms = _field_filter(request.param("fieldSelector"))
        served = target.served
        if served.estate_kind == "event":
            if request.param("labelSelector"):
                raise KubeError(400, "events carry no labels here: use a fieldSelector", details)
            items = self._events(request, target, details)
        else:
            selector = _label_selector(request.param("labelSelector"))
            more = {"selector": selector} if selector else {}
            try:
                reply = self._checked(
                    request, "orchestration_list", self._args(target, **more), details
                )
            except KubeError as error:
                if error.code == 403:
                    self._selected(target, selector, None)
                raise
            items = []
            for row in json.loads(reply.body).get("items", []):
                found = self.environment.session.resource(
                    served.estate_kind, row.get("namespace"), str(row["name"])
                )
                if found is not None:
                    items.append(to_kube(found))
        items = [item for item in items if _matches(item, terms)]
        if served.estate_kind != "event":
            self._selected(target, selector, len(items))
        if _wants_table(request):
            return _json(table(served, items))
        for item in items:
            item.pop("apiVersion", None)
            item.pop("kind", None)
        return _json(
            {
                "kind": f"{served.kind}List",
                "apiVersion": served.api_version,
                "metadata": {"resourceVersion": str(len(self.environment.step_times))},
                "items": items,
            }
        )

    def _selected(self, target: Target, selector: str | None, matched: int | None) -> None:
        """Note how a list chose its objects (`Environment.selections`): what a kubectl write
        over a selector or `--all` acted on, even when it matched nothing."""
        self.environment.selections.append(
            Selection(
                target.served.estate_kind,
                target.namespace if target.served.namespaced else None,
                selector_text(selector) if selector else None,
                matched,
            )
        )

    def _events(
        self, request: Request, target: Target, details: dict[str, str]
    ) -> list[dict[str, Any]]:
        """The namespace's events as Event objects, read through `orchestration_events` — the
        tools' read of them, recorded and credited as that — one builder (`_event`) for a list
        and for a read by name, so the object `get events` lists is the one `get event NAME`
        answers."""
        namespace = target.namespace or "default"
        reply = self._checked(request, "orchestration_events", {"namespace": namespace}, details)
        declared = json.loads(reply.body).get("events", [])
        return [_event(namespace, i, e) for i, e in enumerate(declared)]

    def _get(self, request: Request, target: Target, details: dict[str, str]) -> Answer:
        if target.served.estate_kind == "event":
            # `kubectl get event NAME`: the listed event of that name (it was refused, events
            # being served as a list only, though every listed one has a name to read it by)
            named = [
                event
                for event in self._events(request, target, details)
                if event["metadata"]["name"] == target.name
            ]
            if not named:
                raise KubeError(404, f'events "{target.name}" not found', details)
            return _json(table(target.served, named) if _wants_table(request) else named[0])
        reply = self._checked(request, "orchestration_get", self._args(target), details)
        shown = json.loads(reply.body)  # the tool answers the object itself (`object_of`)
        return _json(table(target.served, [shown]) if _wants_table(request) else shown)

    def _created_object(self, request: Request, target: Target) -> dict[str, Any]:
        obj = self._body(request)
        if not isinstance(obj, dict):
            raise KubeError(400, "the body must be a Kubernetes object")
        metadata = obj.get("metadata")
        if (
            not isinstance(metadata, dict)
            or not isinstance(metadata.get("name"), str)
            or not metadata["name"]
        ):
            raise KubeError(422, f"{target.served.plural}: metadata.name: Required value")
        namespace = metadata.get("namespace")
        if target.served.namespaced and namespace not in (None, target.namespace):
            raise KubeError(
                400,
                f"the namespace of the object ({namespace}) does not match the namespace of the "
                f"request ({target.namespace})",
            )
        given_kind = obj.get("kind")
        if given_kind is not None and given_kind != target.served.kind:
            raise KubeError(400, f"the object is a {given_kind}, not a {target.served.kind}")
        return obj

    def _create(self, request: Request, target: Target, details: dict[str, str]) -> Answer:
        obj = self._created_object(request, target)
        name = obj["metadata"]["name"]
        named = Target(target.served, target.namespace, name, None)
        details = {**details, "name": name}
        request.object_ref["name"] = name
        write = create_of(target.served, target.namespace, name, obj)
        with _naming_causes(list(write.unset)):
            self._checked(
                request,
                write.tool,
                write.arguments,
                details,
                write.unsupported,
                then=estate_calls(write)[1:],
            )
        return self._shown(named, 201)

    def _shown(self, target: Target, status: int = 200) -> Answer:
        after = self._current(target)
        if after is None:  # a write that removed what it wrote (never in the simulator)
            raise KubeError(404, f'{target.served.plural} "{target.name}" not found')
        return _json(to_kube(after), status)

    def _write(
        self,
        request: Request,
        target: Target,
        details: dict[str, str],
        new: Mapping[str, Any],
        named: Mapping[str, Any] | None = None,
    ) -> Answer:
        write = self._estate_write(target, new, named)
        tool, arguments = write.tool, write.arguments
        # a restart beside other changes: both operations, as one request (`write_of`)
        then = estate_calls(write)[1:]
        with _naming_causes(list(write.unset)):
            self._checked(request, tool, arguments, details, write.unsupported, then=then)
        if arguments.get("patch") == {} and self._current(target) is None:
            # recorded as the tool records it: a patch of nothing, 404
            raise KubeError(404, f'{target.served.plural} "{target.name}" not found', details)
        return self._shown(target)

    def _update(self, request: Request, target: Target, details: dict[str, str]) -> Answer:
        new = self._body(request)
        if not isinstance(new, dict):
            raise KubeError(400, "the body must be a Kubernetes object", details)
        metadata: dict[str, Any] = new["metadata"] if isinstance(new.get("metadata"), dict) else {}
        if metadata.get("name") not in (None, target.name):
            raise KubeError(
                400, "the name of the object does not match the name in the URL", details
            )
        nothing = ("orchestration_patch", self._args(target, patch={}))
        named = _stated_count(new, new)
        self._authorise(
            request, target, details, nothing, lambda: self._write_call(target, new, named)
        )
        given = metadata.get("resourceVersion")
        current = self._current(target)
        if given and current is not None and given != resource_version(current):
            raise KubeError(
                409,
                f'Operation cannot be fulfilled on {target.served.plural} "{target.name}": the '
                "object has been modified; please apply your changes to the latest version and "
                "try again",
                details,
            )
        return self._write(request, target, details, new, named)

    def _patch(self, request: Request, target: Target, details: dict[str, str]) -> Answer:
        media = request.headers.get("content-type", "")

        def attempted() -> EstateWrite:
            current = self._current(target)
            if current is None:
                return self._write_call(target, self._absent_patched(request, target))
            body = self._body(request)
            new = apply_patch(media, to_kube(current), body)
            return self._write_call(target, new, _stated_count(_applied(body), new))

        nothing = ("orchestration_patch", self._args(target, patch={}))
        self._authorise(request, target, details, nothing, attempted)
        current = self._current(target)
        if current is None:
            return self._write(request, target, details, self._absent_patched(request, target))
        body = self._body(request)
        try:
            new = apply_patch(request.headers.get("content-type", ""), to_kube(current), body)
        except PatchError as error:
            raise KubeError(error.status, str(error), details) from None
        return self._write(request, target, details, new, _stated_count(_applied(body), new))

    @staticmethod
    def _absent_patched(request: Request, target: Target) -> dict[str, Any]:
        """What a patch of an object the estate does not hold asks to write, for the record
        only (answered 404, or refused, as the same tool call is): its body applied over the
        object named (`absent_object`). A body that is not strict JSON, or that cannot be
        applied, asks nothing that can be said: {} — the answer is the same either way, and
        the body is read without the lenient read that would make the write an attempt."""
        body = request.body or b"null"
        if nested_too_deep(body):
            return {}
        try:
            patch = loads_strict(body)
            base = absent_object(target.served, target.namespace, target.name)
            return apply_patch(request.headers.get("content-type", ""), base, patch)
        except (PatchError, ValueError, TypeError, KeyError, AttributeError):
            return {}

    def _delete(self, request: Request, target: Target, details: dict[str, str]) -> Answer:
        self._authorise(request, target, details, ("orchestration_delete", self._args(target)))
        before = self._current(target)
        self._checked(request, "orchestration_delete", self._args(target), details)
        if before is None:
            raise KubeError(404, f'{target.served.plural} "{target.name}" not found', details)
        return _json(to_kube(before))

    def _delete_collection(
        self, request: Request, target: Target, details: dict[str, str]
    ) -> Answer:
        arguments = self._delete_arguments(request, target, details)
        reply = self._checked(request, "orchestration_delete", arguments, details)
        deleted = _deleted_names(reply.body)
        return _json(
            {
                "kind": f"{target.served.kind}List",
                "apiVersion": target.served.api_version,
                "metadata": {},
                "items": [{"metadata": {"name": str(d).split("/", 1)[-1]}} for d in deleted],
            }
        )

    # -- subresources -----------------------------------------------------------------------

    def _log(self, request: Request, target: Target, details: dict[str, str]) -> Answer:
        arguments = {"name": target.name, "namespace": target.namespace}
        reply = self._checked(request, "logs_read", arguments, details)
        return Answer(200, limited_log(reply.body, request), "text/plain")

    def _scale_object(self, target: Target, resource: Mapping[str, Any]) -> dict[str, Any]:
        return self._scale_of(to_kube(resource))

    @staticmethod
    def _scale_of(shown: Mapping[str, Any]) -> dict[str, Any]:
        """The ``Scale`` subresource of a served workload object."""
        return {
            "kind": "Scale",
            "apiVersion": "autoscaling/v1",
            "metadata": {
                k: shown["metadata"][k]
                for k in ("name", "namespace", "uid", "resourceVersion", "creationTimestamp")
            },
            "spec": {"replicas": shown["spec"]["replicas"]},
            "status": {
                "replicas": shown["status"]["replicas"],
                "selector": ",".join(
                    f"{k}={v}" for k, v in sorted(shown["spec"]["selector"]["matchLabels"].items())
                ),
            },
        }

    def _scale(self, request: Request, target: Target, details: dict[str, str]) -> Answer:
        kind = target.served.estate_kind
        if request.verb == "get":
            reply = self._checked(request, "orchestration_get", self._args(target), details)
            return _json(self._scale_of(json.loads(reply.body)))
        body = self._body(request)

        def scaling(replicas: Any) -> tuple[str, dict[str, Any]]:
            """The tool call a scale to `replicas` is; a patch of nothing when none is said."""
            if not isinstance(replicas, int) or isinstance(replicas, bool) or replicas < 0:
                return "orchestration_patch", self._args(target, patch={})
            if kind == "deployment":
                arguments = {"name": target.name, "namespace": target.namespace}
                return "orchestration_scale", {**arguments, "replicas": replicas}
            return "orchestration_patch", self._args(target, patch={"replicas": replicas})

        def attempted() -> tuple[str, dict[str, Any]]:
            current = self._current(target)
            if current is None:
                return scaling(None)
            scale = self._scale_object(target, current)
            if request.verb == "patch":
                scale = apply_patch(request.headers.get("content-type", ""), scale, body)
            elif isinstance(body, dict):
                scale = body
            spec = scale.get("spec")
            return scaling(spec.get("replicas") if isinstance(spec, dict) else None)

        self._authorise(request, target, details, scaling(_asked_replicas(body)), attempted)
        current = self._current(target)
        scale = self._scale_object(target, current) if current is not None else {"spec": {}}
        if request.verb == "patch":
            try:
                scale = apply_patch(request.headers.get("content-type", ""), scale, body)
            except PatchError as error:
                raise KubeError(error.status, str(error), details) from None
        elif isinstance(body, dict):
            scale = body
        replicas = (
            scale.get("spec", {}).get("replicas") if isinstance(scale.get("spec"), dict) else None
        )
        if not isinstance(replicas, int) or isinstance(replicas, bool) or replicas < 0:
            raise KubeError(422, "Scale.spec.replicas: must be a non-negative integer", details)
        if kind == "deployment":
            arguments = {"name": target.name, "namespace": target.namespace, "replicas": replicas}
            self._checked(request, "orchestration_scale", arguments, details)
        else:
            self._checked(
                request,
                "orchestration_patch",
                self._args(target, patch={"replicas": replicas}),
                details,
            )
        after = self._current(target)
        if after is None:
            raise KubeError(404, f'{target.served.plural} "{target.name}" not found', details)
        return _json(self._scale_object(target, after))


__all__ = ["AGENT_USER", "Answer", "KubeFace", "Request", "kubeconfig", "status_object"]
