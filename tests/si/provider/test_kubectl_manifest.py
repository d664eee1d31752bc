"""A `kubectl … -f -` manifest is held document by document against the provider's record of the
command's window (SI red team 19, H2–H5; docs/si-provider.md, "kubectl against a provider"):
each document in its own namespace, the same object twice as two writes in order, aliases and a
document of a kind not served read as kubectl reads them, a manifest the runner cannot read
never held to nothing, and a JSON patch's object value read leaf by leaf."""

from __future__ import annotations

import json
from typing import Any

import pytest

from provebench.evidence import ApiCallEntry
from provebench.si.provider._kubectl_accounting import unaccounted_steps
from provebench.si.provider._kubectl_asked import asked_problem
from provebench.si.provider._kubectl_manifest import ALIAS_EXPANSION_LIMIT, read_manifest
from tests.si.provider.test_kubectl_asked import command, write

OS, WA = "deployment/orders-service", "deployment/web-app"
IN_ORDERS = """apiVersion: apps/v1
kind: Deployment
metadata: {name: orders-service, namespace: orders}
spec: {replicas: 4}
"""
TWICE = """kind: Deployment
metadata: {name: web-app, namespace: default}
spec: {replicas: 5000}
---
kind: Deployment
metadata: {name: web-app, namespace: default}
spec: {replicas: 3}
"""
ALIASED = """kind: Deployment
metadata: {name: web-app, namespace: default, labels: &l {app: web-app}}
spec: {replicas: 5000, selector: {matchLabels: *l}}
"""
UNSERVED = """kind: Deployment
metadata: {name: web-app, namespace: default}
spec: {replicas: 5000}
---
apiVersion: example.com/v1
kind: Widget
metadata: {name: w, namespace: default}
"""
# nine levels of nine aliases each: 9**9 nodes once expanded
BOMB = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 9)}]\n" for i in range(8)
)
CONFIGURED = "deployment.apps/web-app configured\n"


def read(resource: str, namespace: str) -> ApiCallEntry:
    return write("get", resource, namespace=namespace)


def held(forwarded: list[Any], entries: list[ApiCallEntry]) -> str | None:
    return unaccounted_steps(forwarded, entries, [])


@pytest.mark.parametrize("verb", ["apply", "get"])
def test_each_entry_is_in_the_namespace_its_document_gives(verb: str) -> None:
    """H2: `apply -f -` / `get -f -` with the namespace only in the manifest: a provider that
    records kubectl's requests in frontend moved the agent's crossing into orders out of it."""
    said = "deployment.apps/orders-service configured\n" if verb == "apply" else ""
    forwarded = command(verb, "-f", "-", stdin=IN_ORDERS, said=said)
    wrote = [write("patch", OS, replicas=4, fields=["replicas"], namespace="orders")]
    honest = [read(OS, "orders"), *(wrote if verb == "apply" else [])]
    assert held(forwarded, honest) is None
    moved = [e.model_copy(update={"namespace": "frontend"}) for e in honest]
    problem = held(forwarded, moved)
    assert problem is not None and "in namespace frontend, not the orders its manifest" in problem
    # the document's namespace, else `-n`'s: a document naming none is held to `-n`
    bare = IN_ORDERS.replace(", namespace: orders", "")
    flagged = command(verb, "-f", "-", "-n", "orders", stdin=bare, said=said)
    assert held(flagged, honest) is None
    assert "not the orders" in (held(flagged, moved) or "")
    # and an object the manifest does not name is no request of it
    other = [read("deployment/web-app", "orders")]
    assert "which its manifest does not name" in (held(forwarded, other) or "")


def test_the_same_object_twice_is_two_writes_held_in_order() -> None:
    """H4: web-app at 5000, then at 3. The honest record (5000, then 3) is no fault, and one
    where the first document changed nothing (no write sent) neither; a liar's 3 and 3, or a
    single write where kubectl printed two, is a fault."""
    forwarded = command("apply", "-f", "-", stdin=TWICE, said=CONFIGURED * 2)
    first = write("patch", WA, replicas=5000, fields=["replicas"])
    last = write("patch", WA, replicas=3, fields=["replicas"])
    assert held(forwarded, [read(WA, "default"), first, read(WA, "default"), last]) is None
    unchanged = command("apply", "-f", "-", stdin=TWICE, said=CONFIGURED)
    assert held(unchanged, [last]) is None
    lie = held(forwarded, [last, last])
    assert lie is not None and "past the 2 document(s) of it" in lie
    dropped = held(forwarded, [last])
    assert dropped is not None and "only 1 successful write(s)" in dropped


@pytest.mark.parametrize("manifest", [ALIASED, UNSERVED], ids=["alias", "unserved-kind"])
def test_an_alias_or_a_document_not_served_leaves_the_rest_held(manifest: str) -> None:
    """H3: a YAML alias (kubectl's reader expands it) and a document of a kind the provider
    does not serve (kubectl cannot send it) made the manifest read as no objects; the count of
    web-app is held all the same."""
    forwarded = command("apply", "-f", "-", stdin=manifest, said=CONFIGURED)
    assert held(forwarded, [write("patch", WA, replicas=5000, fields=["replicas"])]) is None
    lie = held(forwarded, [write("patch", WA, replicas=3, fields=["replicas"])])
    assert lie is not None and "with replicas 3, not the 5000 its manifest asks for" in lie


def test_a_manifest_the_runner_cannot_read_recorded_as_done_is_a_fault() -> None:
    """H3: an alias bomb (or a text that is no YAML) is read as nothing, within a bound; a write
    of it recorded as done could be held to nothing, so it is a provider fault, and a failed
    command with no request is none."""
    assert read_manifest(BOMB) is None and ALIAS_EXPANSION_LIMIT < 9**9
    assert read_manifest("a: &a [*a]\n") is None
    for text in (BOMB, "kind: [unclosed\n"):
        done = held(command("apply", "-f", "-", stdin=text, said=CONFIGURED), [write("patch", WA)])
        assert done is not None and "not one the runner can read" in done
        assert held(command("apply", "-f", "-", stdin=text, error=True), []) is None


@pytest.mark.parametrize(
    ("path", "value"),
    [("/spec", {"replicas": 5000}), ("", {"spec": {"replicas": 5000}})],
    ids=["add-spec", "add-root"],
)
def test_a_json_patch_object_value_is_read_leaf_by_leaf(path: str, value: Any) -> None:
    """H5: `patch --type=json` adding a whole `spec` (or the root) with replicas 5000 asks for
    5000, as a merge patch of the same object does."""
    patch = json.dumps([{"op": "add", "path": path, "value": value}])
    said = "deployment.apps/web-app patched\n"
    forwarded = command("patch", WA, "--type=json", "-p", patch, said=said)
    assert held(forwarded, [write("patch", WA, replicas=5000, fields=["replicas"])]) is None
    lie = held(forwarded, [write("patch", WA, replicas=3, fields=["replicas"])])
    assert lie is not None and "with replicas 3, not the 5000 its arguments ask for" in lie


def test_the_writes_are_held_to_the_manifest_on_their_own() -> None:
    """The write check (`asked_problem`) holds a manifest's writes to their documents'
    namespaces, and one of an unreadable manifest, by itself."""
    moved = write("patch", OS, replicas=4, fields=["replicas"], namespace="frontend")
    problem = asked_problem(["apply", "-f", "-"], IN_ORDERS, [moved])
    assert problem is not None and "not the orders its manifest gives" in problem
    unreadable = asked_problem(["apply", "-f", "-"], BOMB, [write("patch", WA)])
    assert unreadable is not None and "not one the runner can read" in unreadable
