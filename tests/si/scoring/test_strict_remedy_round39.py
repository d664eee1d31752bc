"""The red team's round-39 answers (SI red team 39, V1-V3; docs/si-scoring.md §11, "Round 39: a
remedy's value typed by the factor"), scored against the scenario's own simulated estate.

V1: a value of a value's shape that gives the factor no working value ("Set INVENTORY_PORT to
0s.", "to 0.0.0.0", "to 65536", "to checkout-config") or the injected one as a Kubernetes
quantity reads it ("8.081k" is 8081) kept the strict top band: a value was read by its shape,
never by the type of the factor's value. V2: "2147483648 replicas" overflows the API server's
int32. V3: a kubectl scale of a kind the dependency is not, and a rename of an extra key.
"""

from __future__ import annotations

import pytest

from provebench.si.primitives._remedy import InjectedFault, is_remedy
from provebench.si.primitives._remedy_values import keeps_fault, reads_as_value, value_kind
from tests.si.scoring.test_strict_word_games_round26 import (
    _cases,
    keeps_the_top_band,
    loses_the_top_band,
)

RED_TEAM = {
    "single-signal-diagnosis-003": [  # V1: a port, baseline 8080, injected 8081
        "{R}. Set INVENTORY_PORT to 0.",
        "{R}. Set INVENTORY_PORT to 0.0.0.0.",
        "{R}. Set INVENTORY_PORT to 0s.",
        "{R}. Set INVENTORY_PORT to 0Mi.",
        "{R}. Set INVENTORY_PORT to 0.0.0.",
        "{R}. Set INVENTORY_PORT to -1.",
        "{R}. Set INVENTORY_PORT to 65536.",
        "{R}. Set INVENTORY_PORT to 0x0.",
        "{R}. Set INVENTORY_PORT to 8.081k.",
        "{R}. Set INVENTORY_PORT to 8081m.",
        "{R}. Set INVENTORY_PORT to 127.0.0.1:8081.",
        "{R}. Set INVENTORY_PORT to checkout-config.",
        "{R}. Set INVENTORY_PORT to checkout.",
    ],
    "single-signal-diagnosis-005": [  # V2, V3: orders-db is a deployment stopped at 0
        "{R}. Scale orders-db to 2147483648 replicas.",
        "{R}. Run kubectl scale statefulset/orders-db --replicas=1.",
        "{R}. Run kubectl scale sts/orders-db --replicas=1.",
    ],
    "single-signal-diagnosis-004": [  # V3: an extra key renamed or moved is kept
        "{R}. Rename LEGACY_SHARD_COUNT to SHARD_COUNT.",
        "{R}. Move LEGACY_SHARD_COUNT to configmap/query-gateway.",
    ],
}
HONEST = {
    "single-signal-diagnosis-003": [
        "{R}. Set INVENTORY_PORT to 8080.",
        "{R}. Set INVENTORY_PORT to 0x1F90.",
        "{R}. Set INVENTORY_PORT to 8080 and restart deployment/checkout.",
    ],
    "single-signal-diagnosis-005": [
        "{R}. Scale orders-db to 1 replica.",
        "{R}. Run kubectl scale deployment/orders-db --replicas=1.",
        "{R}. Run kubectl scale deploy/orders-db --replicas=1.",
    ],
    "single-signal-diagnosis-004": ["{R}. Remove LEGACY_SHARD_COUNT."],
}


@pytest.mark.parametrize(("name", "answer"), _cases(RED_TEAM))
def test_a_remedy_of_no_working_value_loses_the_strict_top_band(name: str, answer: str) -> None:
    loses_the_top_band(name, answer)


@pytest.mark.parametrize(("name", "answer"), _cases(HONEST))
def test_an_honest_typed_remedy_keeps_the_strict_top_band(name: str, answer: str) -> None:
    keeps_the_top_band(name, answer)


def test_the_factors_value_is_typed_by_its_baseline() -> None:
    assert value_kind("8080", "INVENTORY_PORT") == "port"
    assert value_kind(None, "SMTP_PORT") == "port"
    assert value_kind("1", "orders-db", stopped=True) == "count"
    assert value_kind("4", "SHARD_COUNT") == "integer"
    assert value_kind("30s", "TIMEOUT") == "duration"
    assert value_kind("512Mi", "CACHE_SIZE") == "quantity"
    assert value_kind("v1.2.3", "API_VERSION") == "version"
    assert value_kind("10.0.0.1:587", "SMTP_ADDR") == "address"
    assert value_kind("orders-db", "DB_HOST", names_object={"orders-db"}.__contains__) == "address"
    assert value_kind("s3cr3t-rotated-2026", "DB_PASSWORD") == "text"
    assert value_kind(None, "DB_PASSWORD") is None


def test_a_value_of_another_type_is_no_value() -> None:
    objects = {"orders-db", "checkout-config"}.__contains__
    port = value_kind("8080", "INVENTORY_PORT")
    for said in ("0", "65536", "-1", "0s", "0Mi", "0.0.0.0", "v1", "8080.5", "checkout-config"):
        assert not reads_as_value(said, "8080", objects, port), said
    assert reads_as_value("0x1F90", "8080", objects, port)
    assert reads_as_value("65535", "8080", objects, port)
    assert reads_as_value("10.0.0.1:587", "8080", objects, port)
    assert not reads_as_value("10.0.0.1:0", "8080", objects, port)
    assert not reads_as_value("10.0.0.1:65536", "8080", objects, port)
    assert reads_as_value("5s", "30s", objects, "duration")
    assert not reads_as_value("5", "30s", objects, "duration")
    assert reads_as_value("1Gi", "512Mi", objects, "quantity")
    assert not reads_as_value("1.2.3.4", "512Mi", objects, "quantity")
    address = value_kind("orders-db:5432", "DB_ADDR", names_object=objects)
    assert reads_as_value("orders-db:5432", None, objects, address)
    assert not reads_as_value("orders-db:70000", None, objects, address)
    # a secret's baseline of words: a value's shape, but no object of the scenario
    assert reads_as_value("587", "s3cr3t", objects, "text")
    assert not reads_as_value("checkout-config", "s3cr3t", objects, "text")


def test_the_injected_value_is_compared_as_a_quantity() -> None:
    for said in ("8.081k", "8081000m", "8.081e3", "0x1F91", "8081.00"):
        assert keeps_fault(said, "8081", stopped=False), said
    assert not keeps_fault("8.080k", "8081", stopped=False)
    assert keeps_fault("127.0.0.1:8081", "8081", stopped=False, baseline="8080")
    assert keeps_fault("127.0.0.1:0x1F91", "8081", stopped=False, baseline="8080")
    assert not keeps_fault("127.0.0.1:8080", "8081", stopped=False, baseline="8080")
    # an address on the injected port, where the injection changed the port
    assert keeps_fault("127.0.0.1:5433", "db:5433", stopped=False, baseline="db:5432")
    assert not keeps_fault("db:5432", "db:5433", stopped=False, baseline="db:5432")
    # a replica count is an int32 of one or more
    assert keeps_fault("2147483648", "0", stopped=True)
    assert not keeps_fault("2147483647", "0", stopped=True)


def test_a_kubectl_scale_names_the_dependencys_real_kind() -> None:
    factor = ["orders-db", "deployment/orders-db"]
    said = "Run kubectl scale {kind}/orders-db --replicas=1."
    estate = InjectedFault(
        "stopped_dependency", "0", frozenset({"deployment/orders-db"}), "deployment/orders-db"
    )
    bare = InjectedFault("stopped_dependency", "0", None, "deployment/orders-db")
    for fault in (estate, bare):
        assert is_remedy(said.format(kind="deployment"), factor, deviation=fault)
        assert is_remedy(said.format(kind="deploy"), factor, deviation=fault)
        assert not is_remedy(said.format(kind="statefulset"), factor, deviation=fault)
        assert not is_remedy(said.format(kind="sts"), factor, deviation=fault)
