"""Kubernetes audit entries read as the agent's operations (provider-guide §2.1, Core §3.4).

A provider's `audit_log` observation records what the Kubernetes API server saw: a verb of the
API's own set (`get`, `list`, `watch`, `create`, `update`, `patch`, `delete`,
`deletecollection`), a plural resource (`deployments`), an optional subresource (`scale`, `log`,
`exec`), the object's name and namespace, who asked, and the response code. provebench's
independent evidence speaks the abstract operation vocabulary of SI interface types §4
(``<verb> <kind>/<name> [qualifiers]``, docs/si-profile.md): this module is the bridge, one entry
at a time.

Two entry shapes are read: the `audit.k8s.io/v1` Event an API server writes (`verb`,
`objectRef{resource,namespace,name,subresource,apiGroup}`, `responseStatus.code`,
`user.username`, `requestURI`, `requestObject`), and the flattened entry of the provider guide
§4.5 and the reference runner (`verb`, `resource`, `subresource`, `name`, `namespace`, `user`,
`request_body`, and the Event itself in `raw` when the provider kept it). The readings, each
documented in docs/evidence.md:

- a subresource pins the verb: `update`/`patch` of `…/scale` is `scale` (its `replicas` read from
  the body), `get` of `pods/log` is `log`, `create` or `get` of `pods/exec` is `exec`, `create` of
  `pods/eviction` is `delete` of the pod;
- `deletecollection` is `delete <kind>/all`; `watch` is `list`;
- a `patch` or `update` whose body stamps the pod template's
  `kubectl.kubernetes.io/restartedAt` annotation and changes nothing else is `restart` (what
  `kubectl rollout restart` sends);
- a write's body gives the fields it touched (Kubernetes paths; a JSON patch's `path`s);
- a `labelSelector` in the request URI is the operation's selector;
- a response code of 400 or more is a refused operation, below 400 a permitted one.

A third shape is already in the vocabulary: the `api_call` entry (`"kind": "api_call"`, `verb`,
`resource` as `kind/name`, `namespace`, `user`, `status_code`, `request_body` an object) that
provebench's own provider (`si provider`) writes for every operation the agent made through
either of its faces. It is read as it is, with no Kubernetes reading between: a Kubernetes
request of that provider is already one of these operations.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final
from urllib.parse import parse_qs, urlsplit

from pydantic import JsonValue, ValidationError

from provebench._errors import ProvebenchError
from provebench.evidence._records import ApiCallEntry

AUDIT_EVENT_API: Final = "audit.k8s.io/v1"
# The actor provebench's audit log gives the agent's own operations (si.primitives reads it).
AGENT_ACTOR: Final = "agent"
# The `kind` of an entry already in the abstract vocabulary (module doc).
OPERATION_ENTRY: Final = "api_call"
# The actor of a request the log cannot attribute to the agent although it may be the agent's:
# another principal's (a forwarded kubeconfig is another principal) or one that never finished.
# Never counted as the agent's operation; one a forbidden or negative check matches makes that
# check unverifiable (si.primitives reads `detail["unattributed"]`, the reason).
UNATTRIBUTED_ACTOR: Final = "unattributed"
# Stages that record a finished request; `RequestReceived` and `ResponseStarted` are earlier
# records of the same request, and counting them would count one operation two or three times.
_FINAL_STAGES: Final = frozenset({"ResponseComplete", "Panic"})
RESTARTED_AT: Final = "kubectl.kubernetes.io/restartedAt"
_RESTART_FIELD: Final = f"spec.template.metadata.annotations.{RESTARTED_AT}"
_RESTARTABLE: Final = frozenset({"deployment", "statefulset", "daemonset"})

# Plural resource -> the kind the scenarios and the simulator write. Irregular plurals and the
# simulator's short kinds are listed; any other plural loses its final `s`.
_KINDS: Final = {
    "ingresses": "ingress",
    "networkpolicies": "networkpolicy",
    "endpoints": "endpoints",
    "horizontalpodautoscalers": "hpa",
    "persistentvolumeclaims": "pvc",
    "persistentvolumes": "pv",
    "podsecuritypolicies": "podsecuritypolicy",
    "priorityclasses": "priorityclass",
    "storageclasses": "storageclass",
    "ingressclasses": "ingressclass",
}
# (audit verb, subresource) -> the vocabulary's verb, where the subresource pins it.
_SUBRESOURCE_VERBS: Final = {
    ("update", "scale"): "scale",
    ("patch", "scale"): "scale",
    ("get", "log"): "log",
    ("create", "exec"): "exec",
    ("get", "exec"): "exec",
    ("create", "eviction"): "delete",
}
_PLAIN_VERBS: Final = {"watch": "list", "deletecollection": "delete"}


def kind_of(resource: str) -> str:
    """The vocabulary's kind for a Kubernetes plural resource (`deployments` -> `deployment`)."""
    plural = resource.lower()
    if plural in _KINDS:
        return _KINDS[plural]
    return plural[:-1] if plural.endswith("s") else plural


@dataclass(frozen=True)
class AuditRecord:
    """One finished API request, as the API server attributed it."""

    user: str | None
    verb: str
    resource: str
    subresource: str | None = None
    name: str | None = None
    namespace: str | None = None
    status_code: int | None = None
    request_uri: str | None = None
    body: JsonValue = None
    audit_id: str | None = None
    extra: dict[str, JsonValue] = field(default_factory=dict)
    # An `api_call` entry: already the operation (module doc); `verb`/`resource` repeat it.
    operation: ApiCallEntry | None = None
    # the audit stage (`RequestReceived` … `ResponseComplete`); None for a flattened entry,
    # which records finished requests only
    stage: str | None = None

    @property
    def finished(self) -> bool:
        return self.stage is None or self.stage in _FINAL_STAGES

    def request_key(self) -> tuple[str | None, ...]:
        """What ties the stages of one request together: its audit ID, or else its content."""
        if self.audit_id is not None:
            return (self.audit_id,)
        return (
            self.user,
            self.verb,
            self.resource,
            self.subresource,
            self.name,
            self.namespace,
            self.request_uri,
        )

    def entry(self, unattributed: str | None = None) -> ApiCallEntry:
        """The operation this request was, in the abstract vocabulary, as the agent's — or,
        given why it cannot be attributed, as an `UNATTRIBUTED_ACTOR`'s."""
        if self.operation is not None:
            if unattributed is None:
                return self.operation
            marked = {**self.operation.detail, "unattributed": unattributed}
            return self.operation.model_copy(update={"actor": UNATTRIBUTED_ACTOR, "detail": marked})
        kind = kind_of(self.resource)
        verb = self._verb(kind)
        detail: dict[str, JsonValue] = {"kubernetes": self._source()}
        collection = self.verb == "deletecollection"
        if collection:
            detail["collection"] = True
        selector = _selector(self.request_uri)
        if selector is not None:
            detail["selector"] = selector
        if verb in ("scale", "create", "update", "patch"):
            # a write that sets replicas is a scale to that count whatever its verb
            # (si.primitives' `Operation.effects`): the count is kept for every write
            replicas = _replicas(self.body)
            if replicas is not None:
                detail["replicas"] = replicas
        if verb in ("create", "update", "patch"):
            fields = changed_fields(self.body)
            if fields:
                detail["fields"] = list(fields)
        if verb == "delete" and _orphans(self.body):
            detail["cascade"] = "orphan"  # its dependents were left (si.primitives `ORPHAN`)
        name = None if collection else self.name
        if unattributed is not None:
            detail["unattributed"] = unattributed
        return ApiCallEntry(
            actor=AGENT_ACTOR if unattributed is None else UNATTRIBUTED_ACTOR,
            verb=verb,
            resource=f"{kind}/all" if collection else kind if name is None else f"{kind}/{name}",
            namespace=self.namespace,
            status_code=self.status_code,
            detail=detail,
        )

    def _verb(self, kind: str) -> str:
        if self.subresource:
            return _SUBRESOURCE_VERBS.get((self.verb, self.subresource), self.verb)
        if self.verb in ("patch", "update") and kind in _RESTARTABLE and _restarts(self.body):
            return "restart"
        return _PLAIN_VERBS.get(self.verb, self.verb)

    def _source(self) -> dict[str, JsonValue]:
        """What the API server recorded, kept beside the operation (never read again)."""
        source: dict[str, JsonValue] = {"verb": self.verb, "resource": self.resource}
        for key, value in (
            ("subresource", self.subresource),
            ("request_uri", self.request_uri),
            ("audit_id", self.audit_id),
        ):
            if value is not None:
                source[key] = value
        source.update(self.extra)
        return source


def _orphans(body: JsonValue) -> bool:
    """Whether a DELETE's DeleteOptions left the object's dependents (kubectl's
    `--cascade=orphan`): `propagationPolicy: Orphan`, or the older `orphanDependents: true`."""
    if not isinstance(body, dict):
        return False
    return body.get("propagationPolicy") == "Orphan" or body.get("orphanDependents") is True


def _restarts(body: JsonValue) -> bool:
    # Only a body that changes nothing else: the annotation beside an image change is an
    # update that also restarts, and reading it as a restart would hide the update.
    return changed_fields(body) == (_RESTART_FIELD,)


_REPLICAS: Final = ("spec", "replicas")


def _replicas(body: JsonValue) -> int | None:
    """The replica count a write's body sets: an object's (or a merge patch's)
    `spec.replicas`, or the last value a JSON patch puts at `/spec/replicas` or above it."""
    if not isinstance(body, list):
        return _count(_at(body, _REPLICAS))
    found: int | None = None
    for operation in body:
        if not isinstance(operation, dict) or operation.get("op") not in ("add", "replace"):
            continue
        path = _pointer(operation.get("path"))
        if path is None or path != _REPLICAS[: len(path)]:
            continue
        value = _count(_at(operation.get("value"), _REPLICAS[len(path) :]))
        if value is not None:
            found = value
    return found


def _count(value: JsonValue) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _pointer(path: JsonValue) -> tuple[str, ...] | None:
    """A JSON pointer's tokens (RFC 6901), or None for what is not one."""
    if not isinstance(path, str) or (path and not path.startswith("/")):
        return None
    if not path:
        return ()
    return tuple(p.replace("~1", "/").replace("~0", "~") for p in path[1:].split("/"))


def _at(value: JsonValue, path: tuple[str, ...]) -> JsonValue:
    for part in path:
        if not isinstance(value, dict):
            return None
        value = value.get(part)
    return value


def changed_fields(body: JsonValue) -> tuple[str, ...]:
    """The field paths a write's body sets, in Kubernetes spelling (`metadata.labels.team`).

    A JSON patch (a list of operations) gives each operation's `path`, the leaves of its
    `value` beneath that path, and the `from` of a `copy` or `move`; a merge or
    strategic-merge patch or a whole object gives its leaves, a list of objects read through
    without an index (a container's `image` is `spec.template.spec.containers.image`).
    Strategic-merge directives (`$patch`, `$retainKeys`, …) are instructions, not fields. A
    `test` changes nothing. A section written whole (`/metadata`) is kept as its path: the
    matcher reads it as covering every field it holds."""
    found: list[str] = []
    if isinstance(body, list):
        for operation in body:
            if not isinstance(operation, dict) or operation.get("op") == "test":
                continue
            path = _pointer(operation.get("path"))
            if path is None:
                continue
            prefix = _dotted(path)
            found.append(prefix)
            if operation.get("op") in ("add", "replace"):
                _leaves(operation.get("value"), prefix, found)
            source = _pointer(operation.get("from"))
            if operation.get("op") in ("copy", "move") and source is not None:
                found.append(_dotted(source))
    else:
        _leaves(body, "", found)
    return tuple(dict.fromkeys(path for path in found if path))


def _dotted(pointer: tuple[str, ...]) -> str:
    # list indices and the append token `-` are read through, as a merge patch's lists are
    return ".".join(p for p in pointer if not p.isdigit() and p != "-")


def _leaves(value: JsonValue, prefix: str, found: list[str]) -> None:
    if isinstance(value, dict) and value:
        for key, item in value.items():
            if key.startswith("$"):
                continue
            _leaves(item, f"{prefix}.{key}" if prefix else key, found)
    elif isinstance(value, list) and any(isinstance(item, dict) for item in value):
        for item in value:
            _leaves(item, prefix, found)
    elif prefix not in ("apiVersion", "kind"):
        found.append(prefix)


def _selector(request_uri: str | None) -> str | None:
    """A request's label selector, `k:v` pairs sorted (the vocabulary's spelling); a set-based
    selector (`tier in (a,b)`) is kept as written."""
    if not request_uri:
        return None
    values = parse_qs(urlsplit(request_uri).query).get("labelSelector")
    if not values or not values[0]:
        return None
    pairs: dict[str, str] = {}
    for part in values[0].split(","):
        key, equals, value = part.partition("=")
        if not equals or " " in key.strip() or "!" in key:
            return values[0]
        pairs[key.strip()] = value.lstrip("=").strip()
    return ",".join(f"{key}:{pairs[key]}" for key in sorted(pairs))


# -- reading one entry ---------------------------------------------------------------------


class _Reader:
    """Typed access to one entry's members; a wrong type is an error naming the field."""

    def __init__(self, entry: Mapping[str, Any], where: str, source: str) -> None:
        self.entry, self.where, self.source = entry, where, source

    def problem(self, name: str, message: str) -> ProvebenchError:
        return ProvebenchError(message, path=self.source, field=f"{self.where}.{name}")

    def text(self, name: str, *, required: bool = False) -> str | None:
        value = self.entry.get(name)
        if value is None or (value == "" and not required):
            if required:
                raise self.problem(name, "required field is missing")
            return None
        if not isinstance(value, str) or not value:
            raise self.problem(name, "expected a non-empty string")
        return value

    def mapping(self, name: str) -> Mapping[str, Any] | None:
        value = self.entry.get(name)
        if value is None:
            return None
        if not isinstance(value, dict):
            raise self.problem(name, "expected an object")
        return value

    def code(self, name: str) -> int | None:
        value = self.entry.get(name)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int) or not 100 <= value <= 599:
            raise self.problem(name, "expected an HTTP status code (100-599)")
        return value


def is_audit_event(entry: Mapping[str, Any]) -> bool:
    return entry.get("apiVersion") == AUDIT_EVENT_API or isinstance(entry.get("objectRef"), dict)


def read_audit_entry(entry: Any, *, where: str, source: str) -> AuditRecord | None:
    """One entry of an `audit_log` observation (an earlier stage of a request included: see
    `AuditRecord.finished`); None for a request for no object (API discovery)."""
    if not isinstance(entry, dict):
        raise ProvebenchError("expected an object (an audit entry)", path=source, field=where)
    if entry.get("kind") == OPERATION_ENTRY:
        return _read_operation(entry, where, source)
    raw = entry.get("raw")
    if isinstance(raw, dict) and is_audit_event(raw):
        return _read_event(raw, f"{where}.raw", source)
    if is_audit_event(entry):
        return _read_event(entry, where, source)
    return _read_flat(entry, where, source)


def _read_event(event: Mapping[str, Any], where: str, source: str) -> AuditRecord | None:
    read = _Reader(event, where, source)
    stage = read.text("stage")
    object_ref = read.mapping("objectRef")
    if object_ref is None:
        return None  # a non-resource request (discovery, /version): no object was acted on
    ref = _Reader(object_ref, f"{where}.objectRef", source)
    user = _Reader(read.mapping("user") or {}, f"{where}.user", source)
    status = _Reader(read.mapping("responseStatus") or {}, f"{where}.responseStatus", source)
    extra: dict[str, JsonValue] = {}
    api_group = ref.text("apiGroup")
    if api_group is not None:
        extra["api_group"] = api_group
    return AuditRecord(
        user=user.text("username"),
        verb=_verb(read),
        resource=_resource(ref),
        subresource=ref.text("subresource"),
        name=ref.text("name"),
        namespace=ref.text("namespace"),
        status_code=status.code("code"),
        request_uri=read.text("requestURI"),
        body=event.get("requestObject"),
        audit_id=read.text("auditID"),
        extra=extra,
        stage=stage,
    )


def _read_flat(entry: Mapping[str, Any], where: str, source: str) -> AuditRecord:
    read = _Reader(entry, where, source)
    body: JsonValue = None
    text = read.text("request_body")
    if text is not None:
        try:
            body = json.loads(text)
        except ValueError:
            raise read.problem("request_body", "not valid JSON") from None
    code = read.code("status_code")
    return AuditRecord(
        user=read.text("user"),
        verb=_verb(read),
        resource=_resource(read),
        subresource=read.text("subresource"),
        name=read.text("name"),
        namespace=read.text("namespace"),
        status_code=code if code is not None else read.code("response_code"),
        request_uri=read.text("request_uri"),
        body=body,
        audit_id=read.text("auditID"),
    )


def _read_operation(entry: Mapping[str, Any], where: str, source: str) -> AuditRecord:
    read = _Reader(entry, where, source)
    verb = _verb(read)
    resource = read.text("resource", required=True)
    assert resource is not None
    body = entry.get("request_body")
    if body is not None and not isinstance(body, dict):
        raise read.problem("request_body", "expected an object (an `api_call` entry's detail)")
    step = entry.get("step")
    if step is not None and (isinstance(step, bool) or not isinstance(step, int) or step < 0):
        raise read.problem("step", "expected a non-negative integer")
    namespace = read.text("namespace")
    code = read.code("status_code")
    try:
        operation = ApiCallEntry(
            actor=AGENT_ACTOR,
            verb=verb,
            resource=resource,
            namespace=namespace,
            status_code=code,
            after_step=step,
            detail=dict(body or {}),
        )
    except ValidationError as error:
        first = error.errors()[0]
        field_name = ".".join(str(part) for part in first["loc"]) or "request_body"
        raise read.problem(field_name, first["msg"]) from None
    kind, _, name = resource.partition("/")
    return AuditRecord(
        user=read.text("user"),
        verb=verb,
        resource=kind,
        name=name or None,
        namespace=namespace,
        status_code=code,
        body=body,
        operation=operation,
    )


def _verb(read: _Reader) -> str:
    verb = read.text("verb", required=True)
    assert verb is not None
    return verb.lower()


def _resource(read: _Reader) -> str:
    resource = read.text("resource", required=True)
    assert resource is not None
    if "/" in resource:
        raise read.problem(
            "resource", "expected a plural resource (`deployments`), not a `kind/name` path"
        )
    return resource.lower()


__all__ = [
    "AGENT_ACTOR",
    "AUDIT_EVENT_API",
    "OPERATION_ENTRY",
    "RESTARTED_AT",
    "UNATTRIBUTED_ACTOR",
    "AuditRecord",
    "changed_fields",
    "is_audit_event",
    "kind_of",
    "read_audit_entry",
]
