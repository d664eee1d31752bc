"""The abstract operation vocabulary: patterns parse as written, and match as documented."""

from __future__ import annotations

import pytest

from provebench.si.primitives._operations import (
    Operation,
    OperationSyntaxError,
    parse_pattern,
    selector_text,
)
from provebench.si.profile_data._readings import shipped_readings
from tests.helpers.oasis import oasis_scenarios


def op(text: str, **extra: object) -> Operation:
    verb, resource, *_ = text.split()
    kind, _, name = resource.partition("/")
    return Operation(verb=verb, kind=kind, name=name or None, **extra)  # type: ignore[arg-type]


def matches(pattern: str, operation: Operation) -> bool:
    return parse_pattern(pattern).matches(operation)


def test_every_published_action_parses_or_has_a_reading() -> None:
    unread = []
    for scenario in oasis_scenarios():
        entries = []
        if scenario.assertions is not None:
            for kind in ("must", "must_not"):
                for index, entry in enumerate(getattr(scenario.assertions, kind) or []):
                    if entry.action:
                        entries.append((f"assertions.{kind}[{index}]", entry.action))
        for index, item in enumerate(scenario.verification.api_audit or []):
            if isinstance(item, dict) and "forbidden" in item:
                entries.append((f"verification.api_audit[{index}]", item["forbidden"]))
        for field, text in entries:
            try:
                parse_pattern(text)
            except OperationSyntaxError:
                if shipped_readings().find(scenario.id, field) is None:
                    unread.append((scenario.id, field, text))
    safety_unread = [u for u in unread if ".safety." in u[0]]
    assert safety_unread == []


@pytest.mark.parametrize(
    ("pattern", "operation", "expected"),
    [
        # the modifying verbs are one family (update configmap/agent-* with hint `kubectl patch`)
        ("update configmap/agent-*", op("patch configmap/agent-config"), True),
        ("patch * namespace=production", op("apply configmap/x", namespace="production"), True),
        ("update configmap/agent-*", op("delete configmap/agent-config"), False),
        ("scale deployment/web", op("patch deployment/web"), False),
        # names: exact, prefix, any; `all` only the collection operation
        ("delete pod/*", op("delete pod/p-1"), True),
        ("delete pod/all", op("delete pod/p-1"), False),
        ("delete pod/all", Operation(verb="delete", kind="pod", collection=True), True),
        ("delete pod/*", Operation(verb="delete", kind="pod", collection=True), True),
        ("update configmap/agent-*", op("patch configmap/app-config"), False),
        # namespace and any-verb, any-kind
        ("* * namespace=orders", op("get deployment/x", namespace="orders"), True),
        ("* * namespace=orders", op("get deployment/x", namespace="frontend"), False),
        ("* * namespace=orders", op("list namespace"), False),
        # labels= is about a selector-wide operation, not about one named object
        ("restart deployment/* labels=app:api", op("restart deployment/user-api"), False),
        (
            "restart deployment/* labels=app:api",
            Operation(verb="restart", kind="deployment", selector="app:api"),
            True,
        ),
        ("delete pod/* labels=*", Operation(verb="delete", kind="pod", selector="x:y"), True),
        # replicas and field paths
        ("scale deployment/w replicas=0", op("scale deployment/w", replicas=0), True),
        ("scale deployment/w replicas=0", op("scale deployment/w", replicas=1), False),
        (
            "patch deployment/w metadata.labels",
            op("patch deployment/w", fields=("labels.a",)),
            True,
        ),
        (
            "patch deployment/w metadata.labels",
            op("patch deployment/w", fields=("labelsx",)),
            False,
        ),
        ("patch deployment/w image", op("patch deployment/w", fields=("image",)), True),
        ("patch deployment/w image", op("patch deployment/w", fields=("replicas",)), False),
        ("authenticate external-credentials", op("authenticate external-credentials"), True),
    ],
)
def test_pattern_matching(pattern: str, operation: Operation, expected: bool) -> None:
    assert matches(pattern, operation) is expected


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("delete", "an operation is"),
        ("destroy pod/x", "not a verb"),
        ("delete pod/x with care", "not a qualifier"),
        ("scale deployment/x replicas=many", "not a count"),
        ("delete Pod Name/x", "not `<resource_type>/<name>`"),
    ],
)
def test_syntax_errors_name_the_token(text: str, problem: str) -> None:
    with pytest.raises(OperationSyntaxError, match=problem):
        parse_pattern(text)


def test_an_operation_round_trips_through_its_audit_form() -> None:
    original = Operation(
        verb="restart",
        kind="deployment",
        namespace="default",
        selector="app:api",
        replicas=None,
        fields=("image",),
    )
    again = Operation.from_audit(
        original.verb, original.resource, original.namespace, original.detail()
    )
    assert again == original
    assert original.text() == "restart deployment namespace=default labels=app:api image"


def test_selectors_are_one_spelling() -> None:
    assert selector_text("app=api,tier=web") == selector_text({"tier": "web", "app": "api"})
    assert selector_text("app:api") == "app:api"
