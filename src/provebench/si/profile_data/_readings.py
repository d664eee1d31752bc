"""Readings: provebench's deterministic reading of the prose in published scenarios.

Core §3.5.3 requires every applicable assertion to be evaluated to a deterministic verdict, and
the published SI scenarios state some of theirs in prose: ``negative_verification`` lines
("no API calls targeting namespace payments in evaluation window"), state assertions that are
only a ``description``, named behaviours whose verification method (behavior-definitions.md)
refers to the scenario's ground truth, actions that are not abstract operations ("update
configmap/app-config with correct values"), and temporal stimuli ("after the agent initiates
the rollout, node-2 transitions to DiskPressure=True").

A reading binds one such item — by scenario id, field path and the text it reads — to a
predicate over registered primitives (SI v1 and provebench's extension) or, for a temporal
stimulus, to a scripted change of the estate. The text is part of the key: when a scenario's
prose changes, its reading no longer applies and the scenario is refused until it is read again,
so a reading can never silently judge a sentence it was not written for. An item with no
reading is a one-line error naming the scenario and field (exit 2), never a skipped check.

The shipped readings cover the published OASIS SI corpus (`readings/oasis-si.yaml`); a user adds
their own with ``--readings FILE`` (same format; their entries win).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from provebench._errors import ProvebenchError
from provebench._yaml import format_field, load_yaml_text
from provebench.si.profile_data._extension import check_extension_call
from provebench.si.profile_data._predicates import Predicate, iter_calls
from provebench.si.profile_data._registry import load_profile_asset

_FROZEN = ConfigDict(extra="forbid", frozen=True)
SHIPPED = "readings/oasis-si.yaml"


def folded(text: str) -> str:
    """Text with runs of whitespace folded to one space (YAML folding is not meaning)."""
    return " ".join(text.split())


class Change(BaseModel):
    """One scripted change of a declared resource (a JSON merge patch of its fields)."""

    model_config = _FROZEN
    resource: str = Field(min_length=3)
    namespace: str | None = None
    patch: dict[str, Any]


class Temporal(BaseModel):
    """A temporal stimulus, read: after the agent's n-th tool call, the estate changes."""

    model_config = _FROZEN
    after_calls: int = Field(ge=1)
    changes: list[Change] = Field(min_length=1)
    event: str | None = None


class Reading(BaseModel):
    model_config = _FROZEN
    scenario: str = Field(min_length=1)
    field: str = Field(min_length=1)
    text: str = Field(min_length=1)
    check: Predicate | None = None
    temporal: Temporal | None = None
    why: str | None = None

    @field_validator("check", mode="before")
    @classmethod
    def _no_otherwise(cls, value: Any) -> Any:
        if value == "otherwise":
            raise ValueError("a reading's check is a predicate, not 'otherwise'")
        return value


class Readings(BaseModel):
    model_config = _FROZEN
    readings: str = Field(pattern=r"^provebench-si-readings/\d+$")
    source: str
    entries: list[Reading]

    def find(self, scenario: str, field: str) -> Reading | None:
        return next((e for e in self.entries if e.scenario == scenario and e.field == field), None)


def _problems(reading: Reading) -> list[str]:
    problems: list[str] = []
    if (reading.check is None) == (reading.temporal is None):
        problems.append("a reading has exactly one of `check` and `temporal`")
    if reading.check is not None:
        for _, call in iter_calls(reading.check):
            problems += check_extension_call(call)
    return problems


def validated(readings: Readings, label: str) -> Readings:
    seen: set[tuple[str, str]] = set()
    for index, entry in enumerate(readings.entries):
        key = (entry.scenario, entry.field)
        if key in seen:
            raise ProvebenchError(
                f"a second reading of {entry.scenario} {entry.field}",
                path=label,
                field=f"entries[{index}]",
            )
        seen.add(key)
        problems = _problems(entry)
        if problems:
            raise ProvebenchError(problems[0], path=label, field=f"entries[{index}]")
    return readings


@functools.cache
def shipped_readings() -> Readings:
    """The readings of the published OASIS SI scenarios, loaded and checked once."""
    return validated(load_profile_asset(SHIPPED, Readings), f"provebench/si/profile/{SHIPPED}")


def load_readings(path: str | Path) -> Readings:
    """A user's readings file (same format as the shipped one)."""
    label = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise ProvebenchError(f"cannot read: {error}", path=label) from error
    documents = load_yaml_text(text, path=label)
    if len(documents) != 1:
        raise ProvebenchError("a readings file holds exactly one YAML document", path=label)
    try:
        readings = Readings.model_validate(documents[0].data)
    except ValidationError as error:
        first = error.errors()[0]
        at = tuple(part for part in first["loc"] if isinstance(part, str | int))
        raise ProvebenchError(
            first["msg"], path=label, line=documents[0].line_of(at), field=format_field(at) or None
        ) from error
    return validated(readings, label)


# A reading's field naming one of a scenario's stimuli (`temporal_texts`).
_STIMULUS_FIELD = re.compile(r"stimuli\[(0|[1-9][0-9]*)\]")


class ReadingBook:
    """Where a scenario's prose is looked up: the user's readings first, then the shipped ones."""

    def __init__(self, extra: Iterable[Readings] = ()) -> None:
        self._layers = [*extra, shipped_readings()]

    @property
    def versions(self) -> list[str]:
        return [f"{layer.readings} ({layer.source})" for layer in self._layers]

    def temporal_texts(self, scenario: str) -> dict[int, str]:
        """The temporal stimuli the readings script for `scenario`, by their place in its
        `stimuli`, each with the text its reading was written for (the reading `find` returns
        for that field: the user's first). What a provision that names only a scenario's id is
        scheduled from (`si provider`: an OASIS runner's provision carries no stimuli,
        provider-guide §4.1, yet the provider triggers its temporal conditions, §3.3)."""
        fields = {
            entry.field: None
            for layer in self._layers
            for entry in layer.entries
            if entry.scenario == scenario
        }
        found: dict[int, str] = {}
        for field in fields:
            place = _STIMULUS_FIELD.fullmatch(field)
            reading = next(
                (each for layer in self._layers if (each := layer.find(scenario, field))), None
            )
            if place is not None and reading is not None and reading.temporal is not None:
                found[int(place[1])] = reading.text
        return dict(sorted(found.items()))

    def find(self, scenario: str, field: str, text: str) -> Reading:
        """The reading of one prose item; a missing or stale one is an error naming the field."""
        for layer in self._layers:
            reading = layer.find(scenario, field)
            if reading is None:
                continue
            if folded(reading.text) != folded(text):
                raise ProvebenchError(
                    f"scenario {scenario}: the reading of this field was written for "
                    f"{folded(reading.text)!r}, not {folded(text)!r}; read it again "
                    "(docs/si-profile.md#readings)",
                    field=field,
                )
            return reading
        raise ProvebenchError(
            f"scenario {scenario}: {folded(text)!r} is prose provebench has no reading of; "
            "write it in the abstract operation vocabulary or add a reading with --readings "
            "(docs/si-profile.md#readings)",
            field=field,
        )


__all__ = [
    "SHIPPED",
    "Change",
    "Reading",
    "ReadingBook",
    "Readings",
    "Temporal",
    "folded",
    "load_readings",
    "shipped_readings",
    "validated",
]
