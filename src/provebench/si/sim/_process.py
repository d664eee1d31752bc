"""One container of the simulated estate: creating it, starting its process, and what it logs.

The rules are the simulator's own model of how a Kubernetes container and a typical service
process behave (see `_derive.py` for the list); they read the estate only. Log lines carry fixed
timestamps — there is no wall clock in anything the simulator shows.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from provebench.si.primitives._secret_data import decoded
from provebench.si.sim._estate import Container, Estate, resource_key

Phase = Literal[
    "ready", "unready", "crash", "config_error", "mount_error", "unscheduled", "image_pull"
]
# (cluster IP, service port, ready endpoints) of the service a host resolves to, or None.
# A service that exposes no port (`Service.port` None) serves none a connection names.
ServiceLookup = Callable[[str, str], "tuple[str, int | None, int] | None"]

_WAITING = {
    "config_error": "CreateContainerConfigError",
    "mount_error": "ContainerCreating",
    "crash": "CrashLoopBackOff",
    "unscheduled": "Pending",
    "image_pull": "ImagePullBackOff",
}
READINESS_FAILED = "Readiness probe failed: HTTP probe failed with statuscode: 503"
CLUSTER_DNS = "10.96.0.10:53"
_REQUEST_ERRORS = 3  # error lines a serving process logs between two readiness probes


@dataclass(frozen=True)
class SpanView:
    name: str
    status: str
    message: str
    duration_ms: int


@dataclass(frozen=True)
class Outcome:
    """What happened to one container: its phase, the message behind it, its log lines."""

    phase: Phase
    message: str = ""
    logs: tuple[str, ...] = ()
    spans: tuple[SpanView, ...] = ()

    @property
    def waiting_reason(self) -> str | None:
        return _WAITING.get(self.phase)

    @property
    def exit_code(self) -> int | None:
        return 1 if self.phase == "crash" else None


class _Log:
    def __init__(self) -> None:
        self.lines: list[str] = []

    def _stamp(self) -> str:
        minute, second = divmod(len(self.lines), 60)
        return f"2026-01-01T08:{minute % 60:02d}:{second:02d}.000Z"

    def write(self, level: str, message: str) -> None:
        self.lines.append(f"{self._stamp()} {level} {message}")

    def verbatim(self, line: str) -> None:
        self.lines.append(f"{self._stamp()} {line}")


def resolve_env(estate: Estate, namespace: str, container: Container) -> tuple[dict[str, str], str]:
    """The container's environment, or the reason it cannot be created (R1)."""
    env: dict[str, str] = {}
    for var in container.env:
        if var.value is not None:
            env[var.name] = var.value
            continue
        assert var.value_from is not None  # an EnvVar has exactly one source
        if var.value_from.configMapKeyRef is not None:
            ref, kind, label = var.value_from.configMapKeyRef, "configmap", "ConfigMap"
        else:
            assert var.value_from.secretKeyRef is not None
            ref, kind, label = var.value_from.secretKeyRef, "secret", "Secret"
        key = resource_key(kind, namespace, ref.name)
        if key not in estate:
            if ref.optional:
                continue
            return env, f'Error: {kind} "{ref.name}" not found'
        data = estate.config(key).data
        if ref.key not in data:
            if ref.optional:
                continue
            return env, f"Error: couldn't find key {ref.key} in {label} {namespace}/{ref.name}"
        # a Secret's data is base64 (`primitives._secret_data`); the process reads the value
        env[var.name] = decoded(data[ref.key]) if kind == "secret" else data[ref.key]
    return env, ""


def _startup_failure(
    estate: Estate, namespace: str, container: Container, env: dict[str, str]
) -> str:
    """The FATAL line of a process that exits at start (R3), or ``""``."""
    behavior = container.behavior
    for name in behavior.requires_env:
        if not env.get(name):
            return f"FATAL required environment variable {name} is not set"
    config = behavior.config_file
    if config is not None:
        data = estate.config(resource_key("configmap", namespace, config.configmap)).data
        unknown = sorted(set(data) - set(config.known_keys)) if config.strict else []
        if unknown:
            return (
                f'FATAL config {config.path}: unknown key "{unknown[0]}" '
                "(strict mode rejects unknown keys)"
            )
        for key in config.required_keys:
            if key not in data:
                return f'FATAL config {config.path}: required key "{key}" is missing'
    return ""


def _dial(host: str, port_text: str, namespace: str, lookup: ServiceLookup) -> tuple[str, int, str]:
    """(target shown, duration in ms, error or ``""``) of one connection attempt."""
    if not port_text.isdigit() or not 0 < int(port_text) < 65536:
        return f"{host}:{port_text}", 0, f"invalid port {port_text!r}"
    port = int(port_text)
    found = lookup(host, namespace)
    if found is None:
        return f"{host}:{port}", 2, f"dial tcp: lookup {host} on {CLUSTER_DNS}: no such host"
    ip, service_port, endpoints = found
    if port != service_port:
        return f"{host}:{port}", 5000, f"dial tcp {ip}:{port}: i/o timeout"
    if endpoints == 0:
        return f"{host}:{port}", 1, f"dial tcp {ip}:{port}: connect: connection refused"
    return f"{host}:{port}", 4, ""


def run_container(
    estate: Estate, namespace: str, container: Container, lookup: ServiceLookup
) -> Outcome:
    env, config_error = resolve_env(estate, namespace, container)
    if config_error:
        return Outcome("config_error", config_error)
    behavior = container.behavior
    config = behavior.config_file
    if config is not None and resource_key("configmap", namespace, config.configmap) not in estate:
        return Outcome(
            "mount_error",
            f'MountVolume.SetUp failed for volume "config" : configmap "{config.configmap}" '
            "not found",
        )
    log = _Log()
    log.write("INFO", f"starting {container.name}")
    for line in behavior.log_lines:
        log.verbatim(line)
    fatal = _startup_failure(estate, namespace, container, env)
    if fatal:
        log.write("FATAL", fatal.removeprefix("FATAL "))
        return Outcome("crash", fatal, tuple(log.lines))
    if config is not None:
        log.write("INFO", f"loaded config {config.path}")
    spans: list[SpanView] = []
    failures: list[str] = []
    for connection in behavior.connects:
        host = env.get(connection.host_env, "")
        port_text = env.get(connection.port_env, "")
        target, duration, error = _dial(host, port_text, namespace, lookup)
        if error and connection.at_startup:
            log.write("FATAL", f"cannot connect to {target}: {error}")
            return Outcome("crash", error, tuple(log.lines))
        spans.append(SpanView(f"connect {target}", "error" if error else "ok", error, duration))
        if error:
            failures.append(f"upstream {target}: {error}")
        else:
            log.write("INFO", f"connected to {target}")
    port = container.ports[0] if container.ports else 8080
    log.write("INFO", f"listening on :{port}")
    if failures:
        for _ in range(_REQUEST_ERRORS):
            for failure in failures:
                log.write("ERROR", f"request failed: {failure}")
        return Outcome("unready", READINESS_FAILED, tuple(log.lines), tuple(spans))
    return Outcome("ready", "", tuple(log.lines), tuple(spans))


WEDGED_PROBE = (
    'Readiness probe failed: Get "http://{ip}/healthz/ready": context deadline exceeded '
    "(Client.Timeout exceeded while awaiting headers)"
)
_WEDGE_SECONDS = 300


def shed_or_wedged(
    outcome: Outcome, container: Container, *, wedged: bool, share_rps: int
) -> Outcome:
    """R7 and R5 over a process that started and serves: a wedged process answers nothing (its
    probe times out); one offered more than its image serves sheds load (its probe gets 503)."""
    if outcome.phase not in ("ready", "unready"):
        return outcome
    lines = list(outcome.logs)
    log = _Log()
    log.lines = lines
    if wedged:
        log.write(
            "WARN", f"no request completed in the last {_WEDGE_SECONDS}s: every worker is blocked"
        )
        message = WEDGED_PROBE.replace("{ip}", f":{(container.ports or (8080,))[0]}")
        return Outcome("unready", message, tuple(log.lines), outcome.spans)
    capacity = container.behavior.capacity_rps
    if capacity is not None and share_rps > capacity:
        for _ in range(_REQUEST_ERRORS):
            log.write(
                "WARN",
                f"overloaded: {share_rps} req/s offered to this replica, it serves {capacity} "
                "req/s; shedding requests with 503",
            )
        return Outcome("unready", READINESS_FAILED, tuple(log.lines), outcome.spans)
    return outcome


__all__ = [
    "READINESS_FAILED",
    "Outcome",
    "Phase",
    "SpanView",
    "resolve_env",
    "run_container",
    "shed_or_wedged",
]
