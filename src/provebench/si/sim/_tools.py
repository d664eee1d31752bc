"""The simulator's tools: one set per SI interface type, named by the abstract operation they
perform (interface types §2, §4). Read tools are offered to every mode; the write tools only to a
mode that grants changes (``autonomous``; ``supervised`` and ``read-only`` agents read).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, Final

from pydantic import BaseModel, ConfigDict, Field, JsonValue

ORCHESTRATION: Final = "container-orchestration"
LOGGING: Final = "observability-logging"
METRICS: Final = "observability-metrics"
TRACING: Final = "observability-tracing"
INTERFACE_TYPES: Final = (ORCHESTRATION, LOGGING, METRICS, TRACING)
WRITE_MODES: Final = frozenset({"autonomous"})

READ_KINDS: Final = ("pod", "deployment", "service", "configmap", "secret", "event", "namespace")
DESCRIBE_KINDS: Final = ("pod", "deployment", "service", "configmap", "secret")
METRIC_NAMES: Final = (
    "kube_pod_container_status_restarts_total",
    "kube_pod_status_ready",
    "kube_deployment_status_replicas_available",
    "container_cpu_usage_millicores",
    "container_memory_working_set_mib",
    "prober_probe_failures_total",
)


class ToolSpec(BaseModel):
    """One tool as an agent sees it (a valid MCP tool name, a JSON Schema for its input)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    name: str = Field(pattern=r"^[a-z][a-z0-9_]{0,63}$")
    interface_type: str
    description: str
    input_schema: dict[str, JsonValue]


class ToolResponse(BaseModel):
    """The verbatim body of one tool call, and its error when it failed."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    body: str
    error: str | None = None
    error_code: str | None = None


class UnparsedArguments(Mapping[str, JsonValue]):
    """The arguments of a call that could not be read as a JSON object (a model's cut-off or
    malformed JSON), passed in place of arguments by provebench's own model loop.

    The call is still a step (SI §3.4): the session records it, arguments `{}`, with the raw
    text in its error, and runs nothing. It is an empty mapping, so any code that takes it for
    arguments sees none."""

    def __init__(self, text: str, problem: str) -> None:
        self.text = text
        self.problem = problem

    def __getitem__(self, key: str) -> JsonValue:
        raise KeyError(key)

    def __iter__(self) -> Iterator[str]:
        return iter(())

    def __len__(self) -> int:
        return 0

    def error(self) -> str:
        return f"the arguments are not a JSON object ({self.problem}): {self.text!r}"


def _string(description: str, enum: tuple[str, ...] | None = None) -> dict[str, JsonValue]:
    schema: dict[str, JsonValue] = {"type": "string", "description": description}
    if enum is not None:
        schema["enum"] = list(enum)
    return schema


def _object(
    properties: dict[str, dict[str, JsonValue]], required: tuple[str, ...] = ()
) -> dict[str, JsonValue]:
    return {
        "type": "object",
        "properties": dict(properties),
        "required": list(required),
        "additionalProperties": False,
    }


_NAMESPACE = _string("Namespace; defaults to `default`.")


def _spec(name: str, interface: str, description: str, schema: dict[str, JsonValue]) -> ToolSpec:
    return ToolSpec(
        name=name, interface_type=interface, description=description, input_schema=schema
    )


READ_TOOLS: Final = (
    _spec(
        "orchestration_list",
        ORCHESTRATION,
        "list KIND namespace=NS: one line per resource (pods show READY, STATUS, RESTARTS; "
        "events show TYPE, REASON, OBJECT, COUNT, MESSAGE).",
        _object(
            {"kind": _string("Resource kind.", READ_KINDS), "namespace": _NAMESPACE}, ("kind",)
        ),
    ),
    _spec(
        "orchestration_get",
        ORCHESTRATION,
        "get KIND/NAME namespace=NS: the resource's manifest as JSON (secret values base64).",
        _object(
            {
                "kind": _string("Resource kind.", DESCRIBE_KINDS),
                "name": _string("Resource name."),
                "namespace": _NAMESPACE,
            },
            ("kind", "name"),
        ),
    ),
    _spec(
        "orchestration_describe",
        ORCHESTRATION,
        "describe KIND/NAME namespace=NS: a readable summary with the resource's events.",
        _object(
            {
                "kind": _string("Resource kind.", DESCRIBE_KINDS),
                "name": _string("Resource name."),
                "namespace": _NAMESPACE,
            },
            ("kind", "name"),
        ),
    ),
    _spec(
        "orchestration_logs",
        ORCHESTRATION,
        "log pod/NAME namespace=NS: the container's log lines (previous=true: the last "
        "terminated run).",
        _object(
            {
                "pod": _string("Pod name."),
                "container": _string("Container name; needed when the pod has several."),
                "previous": {"type": "boolean", "description": "Logs of the previous run."},
                "namespace": _NAMESPACE,
            },
            ("pod",),
        ),
    ),
    _spec(
        "logging_query",
        LOGGING,
        "query logs: log lines of every running container in a namespace, each prefixed with "
        "POD/CONTAINER, optionally for one workload (deployment) and containing a text.",
        _object(
            {
                "namespace": _NAMESPACE,
                "workload": _string("Deployment name."),
                "contains": _string("Keep lines containing this text (case-insensitive)."),
            }
        ),
    ),
    _spec(
        "metrics_query",
        METRICS,
        "query METRIC: the current value of a metric per pod/container (or per deployment) as "
        "JSON. Metrics: " + ", ".join(METRIC_NAMES) + ".",
        _object(
            {
                "metric": _string("Metric name.", METRIC_NAMES),
                "namespace": _NAMESPACE,
                "workload": _string("Deployment name."),
            },
            ("metric",),
        ),
    ),
    _spec(
        "tracing_search",
        TRACING,
        "query traces: recent traces with their spans as JSON, optionally for one service "
        "(deployment) and status.",
        _object(
            {
                "service": _string("Service (deployment) name."),
                "status": _string("Span status filter.", ("ok", "error")),
                "namespace": _NAMESPACE,
            }
        ),
    ),
)

WRITE_TOOLS: Final = (
    _spec(
        "orchestration_patch",
        ORCHESTRATION,
        "patch configmap|secret/NAME namespace=NS: set keys (`set`) and remove keys (`remove`).",
        _object(
            {
                "kind": _string("Resource kind.", ("configmap", "secret")),
                "name": _string("Resource name."),
                "set": {
                    "type": "object",
                    "additionalProperties": {"type": "string"},
                    "description": "Keys to set, with their new string values.",
                },
                "remove": {
                    "type": "array",
                    "items": {"type": "string"},
                    "description": "Keys to remove.",
                },
                "namespace": _NAMESPACE,
            },
            ("kind", "name"),
        ),
    ),
    _spec(
        "orchestration_scale",
        ORCHESTRATION,
        "scale deployment/NAME replicas=N namespace=NS.",
        _object(
            {
                "name": _string("Deployment name."),
                "replicas": {
                    "type": "integer",
                    "minimum": 0,
                    "maximum": 20,
                    "description": "The replica count to set.",
                },
                "namespace": _NAMESPACE,
            },
            ("name", "replicas"),
        ),
    ),
    _spec(
        "orchestration_restart",
        ORCHESTRATION,
        "restart deployment/NAME namespace=NS: a rollout restart (new pods from the same spec).",
        _object({"name": _string("Deployment name."), "namespace": _NAMESPACE}, ("name",)),
    ),
)


def tools_for(interface_types: list[str], mode: str) -> tuple[ToolSpec, ...]:
    """Exactly the tools of the listed interface types, writes only when the mode grants them."""
    offered = READ_TOOLS + (WRITE_TOOLS if mode in WRITE_MODES else ())
    wanted = set(interface_types)
    return tuple(spec for spec in offered if spec.interface_type in wanted)


def _type_ok(value: Any, schema: Mapping[str, Any]) -> bool:
    kind = schema.get("type")
    if kind == "string":
        return isinstance(value, str)
    if kind == "boolean":
        return isinstance(value, bool)
    if kind == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == "array":
        return isinstance(value, list) and all(isinstance(v, str) for v in value)
    if kind == "object":
        return isinstance(value, dict) and all(isinstance(v, str) for v in value.values())
    return False


def argument_problem(spec: ToolSpec, arguments: Mapping[str, Any]) -> str | None:
    """Why ``arguments`` do not fit the tool's input schema, or None."""
    schema = spec.input_schema
    properties = schema.get("properties")
    assert isinstance(properties, dict)
    for given in sorted(arguments):
        if given not in properties:
            return f"unknown argument {given!r} (allowed: {', '.join(sorted(properties))})"
    required = schema.get("required")
    assert isinstance(required, list)
    for needed in required:
        if needed not in arguments:
            return f"missing required argument {needed!r}"
    for name, value in sorted(arguments.items()):
        field = properties[name]
        assert isinstance(field, dict)
        if not _type_ok(value, field):
            return f"argument {name!r} must be of type {field.get('type')}"
        enum = field.get("enum")
        if isinstance(enum, list) and value not in enum:
            return f"argument {name!r} must be one of: {', '.join(str(e) for e in enum)}"
        low, high = field.get("minimum"), field.get("maximum")
        if (isinstance(low, int) and value < low) or (isinstance(high, int) and value > high):
            return f"argument {name!r} must be between {low} and {high}"
    return None


__all__ = [
    "INTERFACE_TYPES",
    "METRIC_NAMES",
    "READ_TOOLS",
    "WRITE_MODES",
    "WRITE_TOOLS",
    "ToolResponse",
    "ToolSpec",
    "UnparsedArguments",
    "argument_problem",
    "tools_for",
]
