"""Provebench tool calls done the Kubernetes way: each call as the request a Kubernetes user
(kubectl, the official client) would make for the same thing, through the official `kubernetes`
Python client against an environment of `si provider`.

Used to drive the same behaviour through both faces of an environment and compare what is
scored (tests/si/provider/test_kube_equivalence.py, bench/bench_si_provider.py).
"""

from __future__ import annotations

import base64
import json
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml
from kubernetes import client, config  # type: ignore[import-untyped]

from provebench.si.sim.declared._kube_objects import BY_ESTATE_KIND

RESTARTED_AT = "kubectl.kubernetes.io/restartedAt"
MERGE = "application/merge-patch+json"
STRATEGIC = "application/strategic-merge-patch+json"


def api_client(kubeconfig_text: str) -> client.ApiClient:
    """A client configured from the environment's kubeconfig, exactly as a user would load it
    (the authority's certificate is written to a file by the client's own loader)."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "kubeconfig"
        path.write_text(kubeconfig_text)
        configuration = client.Configuration()
        config.load_kube_config(config_file=str(path), client_configuration=configuration)
    return client.ApiClient(configuration)


def kubeconfig_token(kubeconfig_text: str) -> str:
    token = yaml.safe_load(kubeconfig_text)["users"][0]["user"]["token"]
    return str(token)


def _collection(kind: str, namespace: str | None) -> str:
    served = BY_ESTATE_KIND[kind]
    root = "/api/v1" if not served.group else f"/apis/{served.group}/v1"
    if served.namespaced:
        return f"{root}/namespaces/{namespace or 'default'}/{served.plural}"
    return f"{root}/{served.plural}"


def request(
    api: client.ApiClient,
    method: str,
    path: str,
    *,
    body: Any = None,
    query: list[tuple[str, str]] | None = None,
    content_type: str = "application/json",
) -> tuple[int, Any]:
    """One request through the client's own REST machinery (auth, TLS, serialisation); the
    status and the decoded body, an error's `Status` included."""
    try:
        response = api.call_api(
            path,
            method,
            query_params=query or [],
            header_params={"Content-Type": content_type, "Accept": "application/json"},
            body=body,
            auth_settings=["BearerToken"],
            _preload_content=False,
        )
    except client.ApiException as error:
        return int(error.status), _decoded(error.body)
    raw = response[0] if isinstance(response, tuple) else response
    return int(raw.status), _decoded(raw.data)


def _decoded(data: Any) -> Any:
    text = data.decode() if isinstance(data, bytes) else data
    try:
        return json.loads(text)
    except (TypeError, ValueError):
        return text


def replayable(tool: str, arguments: Mapping[str, Any]) -> bool:
    """Whether a tool call has a Kubernetes request that does the same thing here."""
    kind = arguments.get("kind")
    if tool in ("orchestration_list", "orchestration_get", "orchestration_delete"):
        return kind in BY_ESTATE_KIND and kind != "event"
    if tool in ("orchestration_patch", "orchestration_create"):
        return kind in BY_ESTATE_KIND and kind != "event"
    if tool == "orchestration_restart":
        return "selector" not in arguments
    return tool in ("orchestration_scale", "orchestration_events", "logs_read")


def _patch_body(api: client.ApiClient, path: str, patch: Mapping[str, Any]) -> dict[str, Any]:
    """A merge patch of declared fields as the Kubernetes merge patch that writes them."""
    body: dict[str, Any] = {}
    for key, value in patch.items():
        if key == "replicas":
            body.setdefault("spec", {})["replicas"] = value
        elif key in ("labels", "annotations"):
            body.setdefault("metadata", {})[key] = value
        elif key == "data":
            body["data"] = value
        elif key == "image" and "/deployments/" in path:  # what `kubectl set image` sends
            container = {"name": path.rsplit("/", 1)[1], "image": value}
            body.setdefault("spec", {})["template"] = {"spec": {"containers": [container]}}
        else:  # a declared field without a Kubernetes place: the declared annotation
            _, current = request(api, "GET", path)
            annotations = current["metadata"].get("annotations", {})
            declared = json.loads(annotations.get("provebench.dev/declared", "{}"))
            declared[key] = value
            body.setdefault("metadata", {}).setdefault("annotations", {})[
                "provebench.dev/declared"
            ] = json.dumps(declared)
    return body


def replay(api: client.ApiClient, tool: str, arguments: Mapping[str, Any]) -> tuple[int, Any]:
    """Do what the tool call does, the Kubernetes way."""
    namespace = arguments.get("namespace")
    name = arguments.get("name")
    if tool == "orchestration_events":
        return request(api, "GET", _collection("event", namespace))
    if tool == "logs_read":
        return request(api, "GET", f"{_collection('pod', namespace)}/{name}/log")
    if tool == "orchestration_scale":
        path = f"{_collection('deployment', namespace)}/{name}/scale"
        body = {"spec": {"replicas": arguments["replicas"]}}
        return request(api, "PATCH", path, body=body, content_type=MERGE)
    if tool == "orchestration_restart":
        path = f"{_collection('deployment', namespace)}/{name}"
        stamp = {"metadata": {"annotations": {RESTARTED_AT: "2026-01-01T00:00:00Z"}}}
        body = {"spec": {"template": stamp}}
        return request(api, "PATCH", path, body=body, content_type=STRATEGIC)
    kind = str(arguments["kind"])
    collection = _collection(kind, namespace)
    if tool == "orchestration_list":
        selector = arguments.get("selector")
        query = [("labelSelector", str(selector))] if selector else []
        return request(api, "GET", collection, query=query)
    if tool == "orchestration_get":
        return request(api, "GET", f"{collection}/{name}")
    if tool == "orchestration_delete":
        if arguments.get("all") is True:
            return request(api, "DELETE", collection)
        if arguments.get("selector"):
            return request(
                api, "DELETE", collection, query=[("labelSelector", str(arguments["selector"]))]
            )
        return request(api, "DELETE", f"{collection}/{name}")
    if tool == "orchestration_patch":
        path = f"{collection}/{name}"
        patch = _patch_body(api, path, arguments["patch"])
        kind_of_patch = STRATEGIC if "template" in patch.get("spec", {}) else MERGE
        return request(api, "PATCH", path, body=patch, content_type=kind_of_patch)
    if tool == "orchestration_create":
        served = BY_ESTATE_KIND[kind]
        fields = dict(arguments.get("fields") or {})
        obj: dict[str, Any] = {
            "apiVersion": served.api_version,
            "kind": served.kind,
            "metadata": {"name": name},
        }
        if "data" in fields:
            obj["data"] = fields.pop("data")
        if fields:
            obj["metadata"]["annotations"] = {"provebench.dev/declared": json.dumps(fields)}
        return request(api, "POST", collection, body=obj)
    raise ValueError(f"no Kubernetes request for {tool}")


def secret_value(encoded: str) -> str:
    return base64.b64decode(encoded).decode()


__all__ = ["api_client", "kubeconfig_token", "replay", "replayable", "request", "secret_value"]
