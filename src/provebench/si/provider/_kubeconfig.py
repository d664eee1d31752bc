"""A provider's kubeconfig (`agent_credentials.kubeconfig`), read and re-written by the runner.

Under `--provider … --kubectl` the agent's kubectl runs against the environment's Kubernetes
endpoint with the credentials the provider handed over (provider-guide §4.1: `agent_endpoint`,
`agent_credentials`). A kubeconfig is more than a server and a token: a user's `exec` or
`auth-provider` makes kubectl start a program, `tokenFile`, `client-key` and
`certificate-authority` make it read the runner's files, `proxy-url` sends the traffic
elsewhere. What the provider answers is data, never what the runner does next, so only the
fields that say where the endpoint is and who the agent is are taken — one cluster, one user,
one context — and the runner writes a kubeconfig of its own from them. Anything else, or a
server other than the `agent_endpoint` the provider named, is the provider's fault (Core §3.7),
never a kubeconfig passed through.
"""

from __future__ import annotations

import base64
import binascii
import urllib.parse
from collections.abc import Mapping
from typing import Any, Final

import yaml


class KubeconfigProblem(ValueError):
    """Why the runner cannot take a provider's kubeconfig: the runner's client makes it a
    `ProviderFault` (Core §3.7)."""


MAX_KUBECONFIG: Final = 1024 * 1024  # characters: a kubeconfig is a few kilobytes
_CLUSTER_FIELDS: Final = frozenset({"server", "certificate-authority-data", "tls-server-name"})
_USER_FIELDS: Final = frozenset({"token", "client-certificate-data", "client-key-data"})
_CONTEXT_FIELDS: Final = frozenset({"cluster", "user", "namespace"})
_TOP_FIELDS: Final = frozenset(
    {"apiVersion", "kind", "clusters", "users", "contexts", "current-context", "preferences"}
)
# The names the runner's own kubeconfig gives its one cluster, user and context.
_NAME: Final = "oasis-environment"
_USER: Final = "oasis-agent"


def _one(config: Mapping[str, Any], key: str, what: str) -> dict[str, Any]:
    """The one entry of `clusters`, `users` or `contexts`, its inner mapping."""
    entries = config.get(key)
    if not isinstance(entries, list) or len(entries) != 1 or not isinstance(entries[0], dict):
        raise KubeconfigProblem(f"{what}: `{key}` must hold exactly one entry")
    inner = entries[0].get(key[:-1])
    if not isinstance(inner, dict):
        raise KubeconfigProblem(f"{what}: `{key}[0].{key[:-1]}` is not a mapping")
    return inner


def _only(inner: Mapping[str, Any], allowed: frozenset[str], where: str, what: str) -> None:
    extra = sorted(str(key) for key in inner if key not in allowed)
    if extra:
        raise KubeconfigProblem(
            f"{what}: `{where}.{extra[0]}` is not accepted (a kubeconfig from a provider may "
            f"hold only {', '.join(sorted(allowed))})"
        )
    for key, value in inner.items():
        if not isinstance(value, str) or not value:
            raise KubeconfigProblem(f"{what}: `{where}.{key}` is not a non-empty string")


def _base64(value: str, where: str, what: str) -> None:
    try:
        base64.b64decode(value, validate=True)
    except (binascii.Error, ValueError):
        raise KubeconfigProblem(f"{what}: `{where}` is not base64") from None


def _parsed(raw: object, what: str) -> dict[str, Any]:
    if not isinstance(raw, str) or not raw.strip():
        raise KubeconfigProblem(f"{what}: `agent_credentials.kubeconfig` is missing or not text")
    if len(raw) > MAX_KUBECONFIG:
        raise KubeconfigProblem(
            f"{what}: the kubeconfig is longer than {MAX_KUBECONFIG} characters"
        )
    try:
        config = yaml.safe_load(raw)
    except (yaml.YAMLError, RecursionError):
        raise KubeconfigProblem(f"{what}: the kubeconfig is not YAML") from None
    if not isinstance(config, dict):
        raise KubeconfigProblem(f"{what}: the kubeconfig is not a mapping")
    if config.get("kind") != "Config" or config.get("apiVersion") != "v1":
        raise KubeconfigProblem(f"{what}: the kubeconfig is not `apiVersion: v1`, `kind: Config`")
    extra = sorted(str(key) for key in config if key not in _TOP_FIELDS)
    if extra:
        raise KubeconfigProblem(f"{what}: the kubeconfig's `{extra[0]}` is not accepted")
    return config


def agent_kubeconfig(credentials: Mapping[str, Any], endpoint: str, what: str) -> str:
    """The kubeconfig the runner gives kubectl: the provider's cluster (its server must be
    `endpoint`, the `agent_endpoint`), user and context, nothing else; `KubeconfigProblem` naming
    the field for anything it cannot take."""
    config = _parsed(credentials.get("kubeconfig"), what)
    cluster = _one(config, "clusters", what)
    user = _one(config, "users", what)
    context = _one(config, "contexts", what)
    _only(cluster, _CLUSTER_FIELDS, "clusters[0].cluster", what)
    _only(user, _USER_FIELDS, "users[0].user", what)
    _only(context, _CONTEXT_FIELDS, "contexts[0].context", what)
    server = cluster.get("server")
    if server != endpoint:
        raise KubeconfigProblem(
            f"{what}: the kubeconfig's server is not the `agent_endpoint` the provider named"
        )
    if urllib.parse.urlsplit(endpoint).scheme != "https":
        # kubectl sends no credential over plain HTTP: the agent would act as nobody.
        raise KubeconfigProblem(f"{what}: `agent_endpoint` is not an https URL")
    for key in ("certificate-authority-data",):
        if key in cluster:
            _base64(cluster[key], f"clusters[0].cluster.{key}", what)
    for key in ("client-certificate-data", "client-key-data"):
        if key in user:
            _base64(user[key], f"users[0].user.{key}", what)
    if "token" not in user and "client-key-data" not in user:
        raise KubeconfigProblem(f"{what}: the kubeconfig's user has no token or client key")
    if ("client-certificate-data" in user) != ("client-key-data" in user):
        raise KubeconfigProblem(f"{what}: the kubeconfig's user has a client key without its pair")
    own_context: dict[str, str] = {"cluster": _NAME, "user": _USER}
    if "namespace" in context:
        own_context["namespace"] = context["namespace"]
    own = {
        "apiVersion": "v1",
        "kind": "Config",
        "clusters": [{"name": _NAME, "cluster": dict(cluster)}],
        "users": [{"name": _USER, "user": dict(user)}],
        "contexts": [{"name": _NAME, "context": own_context}],
        "current-context": _NAME,
        "preferences": {},
    }
    return yaml.safe_dump(own, sort_keys=False)


__all__ = ["MAX_KUBECONFIG", "KubeconfigProblem", "agent_kubeconfig"]
