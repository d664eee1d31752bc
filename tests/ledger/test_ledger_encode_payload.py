"""`encode_payload` (encode once, no parse-back for exact JSON types) accepts exactly what the
round trip accepts, and `append_batch` writes the same chain as `append_many`."""

from __future__ import annotations

import enum
import math
from pathlib import Path

import pytest

from provebench._errors import ProvebenchError
from provebench.ledger import Ledger
from provebench.ledger._entry import canonical_payload, encode_payload


class Colour(enum.StrEnum):
    RED = "red"


def _nested(depth: int) -> object:
    value: object = 1
    for _ in range(depth):
        value = [value]
    return value


ACCEPTED = [
    {},
    {"ids": ["a", "b"], "n": 1, "x": 1.5, "ok": True, "none": None},
    {"nested": [{"a": [1, [2, [3]]]}, {"b": {"c": "é"}}]},
    {"enum": Colour.RED},  # a str subclass the round trip keeps equal: slow path, accepted
    {"deep": _nested(70)},  # deeper than the fast check goes: the round trip decides
]
REFUSED = [
    {"t": (1, 2)},
    {1: "int key"},
    {"nan": math.nan},
    {"inf": [1.0, math.inf]},
    {"surrogate": ["ok", "\ud800"]},
    {"set": {1}},
    {"object": object()},
    {"big": 10**5000},
    {"ids": ["a", ("b",)]},
]


@pytest.mark.parametrize("payload", ACCEPTED)
def test_accepted_payloads_encode_as_the_round_trip_does(payload: dict[str, object]) -> None:
    assert encode_payload(payload) == canonical_payload(payload)[0]


@pytest.mark.parametrize("payload", REFUSED)
def test_refused_payloads_are_refused_by_both(payload: dict[object, object]) -> None:
    with pytest.raises(ProvebenchError):
        encode_payload(payload)
    with pytest.raises(ProvebenchError):
        canonical_payload(payload)


def test_append_batch_writes_the_chain_append_many_writes(tmp_path: Path) -> None:
    items = [("drive.list", {"file_ids": [f"f{i}" for i in range(50)], "n": i}) for i in range(4)]
    with Ledger.open(tmp_path / "a.sqlite") as first, Ledger.open(tmp_path / "b.sqlite") as second:
        many = first.append_many(items)
        assert second.append_batch(items[:2]) == 2
        assert second.append_batch(items[2:]) == 2
        assert [e.hash for e in second.entries()] == [e.hash for e in many]


def test_append_batch_refuses_a_bad_item_and_writes_nothing(tmp_path: Path) -> None:
    with Ledger.open(tmp_path / "a.sqlite") as ledger:
        with pytest.raises(ProvebenchError, match="item 1"):
            ledger.append_batch([("ok", {}), ("bad", {"x": (1,)})])
        assert len(ledger) == 0
