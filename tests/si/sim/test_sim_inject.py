"""Deviation application, restore, delta, and every bad injection input naming its field."""

from __future__ import annotations

from typing import Any

import pytest

from provebench._errors import ProvebenchError
from provebench.si.sim import build_scene, check_counterfactual, delta, restore
from provebench.si.sim._inject import ABSENT
from tests.si.sim.sim_helpers import EXTRA, PORT, SECRET, SMTP, STOPPED, shipped, variant


def test_absent_key_removes_the_key_and_restore_puts_it_back() -> None:
    scene = build_scene(shipped(SMTP))
    assert scene.healthy is not None
    (applied,) = scene.applied
    assert (applied.key, applied.path, applied.before, applied.after) == (
        "configmap/default/smtp-config",
        ("data", "SMTP_PORT"),
        "2525",
        ABSENT,
    )
    assert "SMTP_PORT" not in scene.injected.raw("configmap/default/smtp-config")["data"]
    assert restore(scene.injected, scene.applied) == scene.healthy
    (change,) = delta(scene.healthy, scene.injected)
    assert (change.path, change.op, change.before) == (
        "configmap/default/smtp-config.data.SMTP_PORT",
        "remove",
        "2525",
    )


@pytest.mark.parametrize(
    ("path", "op", "changed_path", "before", "after"),
    [
        (
            SECRET,
            "remove",
            "secret/default/payments-db-credentials.data.DB_PASSWORD",
            # the scenario's stringData, held as Kubernetes holds it: base64 in data
            "czNjcjN0LXJvdGF0ZWQtMjAyNg==",
            None,
        ),
        (PORT, "replace", "configmap/shop/checkout-config.data.INVENTORY_PORT", "8080", "8081"),
        (EXTRA, "add", "configmap/search/indexer-config.data.LEGACY_SHARD_COUNT", None, "4"),
        (STOPPED, "replace", "deployment/orders/orders-db.replicas", 1, 0),
    ],
)
def test_each_deviation_type_gives_exactly_its_delta(
    path: Any, op: str, changed_path: str, before: Any, after: Any
) -> None:
    scene = build_scene(shipped(path))
    assert scene.healthy is not None
    (change,) = delta(scene.healthy, scene.injected)
    assert (change.op, change.path, change.before, change.after) == (
        op,
        changed_path,
        before,
        after,
    )
    assert restore(scene.injected, scene.applied) == scene.healthy
    assert delta(scene.healthy, restore(scene.injected, scene.applied)) == []


def _deviation(data: dict[str, Any]) -> dict[str, Any]:
    deviation: dict[str, Any] = data["injection"]["deviations"][0]
    return deviation


def _set(**fields: Any) -> Any:
    def mutate(data: dict[str, Any]) -> None:
        _deviation(data).update(fields)

    return mutate


BAD_INJECTIONS = [
    # (scenario, mutation, field named, message fragment)
    (
        SMTP,
        _set(resource="configmap/no-such-config"),
        "injection.deviations[0].resource",
        "not in the baseline",
    ),
    (
        SMTP,
        _set(resource="widget/smtp-config"),
        "injection.deviations[0].resource",
        "not simulated",
    ),
    (SMTP, _set(resource="smtp-config"), "injection.deviations[0].resource", "KIND/NAME"),
    (SMTP, _set(subject="SMTP_USER"), "injection.deviations[0].subject", "has no key 'SMTP_USER'"),
    (
        SMTP,
        _set(deviation_type="expired_certificate"),
        "injection.deviations[0].deviation_type",
        "not simulated",
    ),
    (SMTP, _set(colour="blue"), "injection.deviations[0].colour", "unknown deviation field"),
    (
        SMTP,
        _set(resource="deployment/notification-service"),
        "injection.deviations[0].resource",
        "configmap or a secret",
    ),
    (PORT, _set(value="8080"), "injection.deviations[0].value", "changes nothing"),
    (PORT, _set(value=8081), "injection.deviations[0].value", "needs `value`"),
    (EXTRA, _set(subject="BATCH_SIZE"), "injection.deviations[0].subject", "already has key"),
    (STOPPED, _set(subject="cart-cache"), "injection.deviations[0].subject", "names neither"),
    (
        STOPPED,
        _set(resource="service/orders-db"),
        "injection.deviations[0].resource",
        "applies to a deployment",
    ),
]


@pytest.mark.parametrize(("path", "mutate", "field", "fragment"), BAD_INJECTIONS)
def test_bad_deviation_names_its_field(path: Any, mutate: Any, field: str, fragment: str) -> None:
    scenario = variant(path, mutate)
    with pytest.raises(ProvebenchError) as caught:
        build_scene(scenario)
    assert caught.value.field == field
    assert fragment in caught.value.message


def test_a_stopped_dependency_that_is_already_stopped_changes_nothing() -> None:
    def mutate(data: dict[str, Any]) -> None:
        data["injection"]["baseline"][0]["replicas"] = 0

    with pytest.raises(ProvebenchError, match="already has 0 replicas") as caught:
        build_scene(variant(STOPPED, mutate))
    assert caught.value.field == "injection.deviations[0].resource"


def test_a_prose_baseline_cannot_be_simulated() -> None:
    def mutate(data: dict[str, Any]) -> None:
        data["injection"]["baseline"] = "smtp-config holds SMTP_HOST and SMTP_PORT"

    with pytest.raises(ProvebenchError, match="prose") as caught:
        build_scene(variant(SMTP, mutate))
    assert caught.value.field == "injection.baseline"


def test_a_baseline_entry_with_a_typo_names_the_baseline_field() -> None:
    def mutate(data: dict[str, Any]) -> None:
        data["injection"]["baseline"][0]["dta"] = {"SMTP_PORT": "2525"}

    with pytest.raises(ProvebenchError) as caught:
        build_scene(variant(SMTP, mutate))
    assert caught.value.field == "injection.baseline[0].dta"


def test_a_state_entry_with_a_bad_field_names_it() -> None:
    def mutate(data: dict[str, Any]) -> None:
        data["preconditions"]["environment"]["state"][0]["replicas"] = "two"

    with pytest.raises(ProvebenchError) as caught:
        build_scene(variant(SMTP, mutate))
    assert caught.value.field == "preconditions.environment.state[0].replicas"


def test_state_that_baseline_plus_deviations_do_not_reproduce_is_an_error() -> None:
    def mutate(data: dict[str, Any]) -> None:
        data["preconditions"]["environment"]["state"][1]["data"]["SMTP_HOST"] = "mail.internal"

    with pytest.raises(ProvebenchError, match="SMTP_HOST") as caught:
        build_scene(variant(SMTP, mutate))
    assert caught.value.field == "preconditions.environment.state"


def test_an_already_unhealthy_baseline_is_an_error_naming_the_baseline() -> None:
    # The healthy baseline must be healthy: here it lacks SMTP_HOST as well (and so does the state).
    def mutate(data: dict[str, Any]) -> None:
        data["injection"]["baseline"][0]["data"] = {"SMTP_PORT": "2525", "OTHER": "x"}
        data["preconditions"]["environment"]["state"][1]["data"] = {"OTHER": "x"}

    with pytest.raises(ProvebenchError, match="already unhealthy") as caught:
        check_counterfactual(variant(SMTP, mutate))
    assert caught.value.field == "injection.baseline"


@pytest.mark.parametrize(
    ("symptom", "field"),
    [
        ("pods crash", "injection.symptom"),
        (
            {"resource": "configmap/smtp-config", "condition": "CrashLoopBackOff"},
            "injection.symptom.resource",
        ),
        (
            {"resource": "deployment/notification-service", "condition": "Sad"},
            "injection.symptom.condition",
        ),
        (
            {"resource": "deployment/nowhere", "condition": "CrashLoopBackOff"},
            "injection.symptom.resource",
        ),
        (
            {
                "resource": "deployment/notification-service",
                "condition": "CrashLoopBackOff",
                "x": 1,
            },
            "injection.symptom.x",
        ),
    ],
)
def test_a_symptom_that_cannot_be_checked_names_its_field(symptom: Any, field: str) -> None:
    def mutate(data: dict[str, Any]) -> None:
        data["injection"]["symptom"] = symptom

    with pytest.raises(ProvebenchError) as caught:
        check_counterfactual(variant(SMTP, mutate))
    assert caught.value.field == field
