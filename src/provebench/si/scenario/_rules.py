"""Scenario rules that span fields or consult the SI profile (Scenarios §1, SI §1–§5).

They read the raw YAML data defensively — a wrong type elsewhere in the document must not hide
these findings — and report each problem at its own field.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping
from typing import Any

from pydantic import ValidationError

from provebench._yaml import FieldPath, YamlDocument
from provebench.si.primitives._secret_data import secret_problems
from provebench.si.profile_data._registry import (
    behaviors,
    constants,
    extension,
    profile,
    registry,
)
from provebench.si.scenario._binding_checks import binding_problems, synonym_key_problems
from provebench.si.scenario._scenario import ID_PATTERN
from provebench.si.scenario._scoring_forms import FORM_A_KEYS, FORM_B_KEYS, FormBScoring
from provebench.si.scenario._violations import Violation, violation_at

_ID = re.compile(ID_PATTERN)


def _get(data: Any, *keys: str) -> Any:
    for key in keys:
        if not isinstance(data, Mapping):
            return None
        data = data.get(key)
    return data


def _entries(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _form_rules(document: YamlDocument, data: Mapping[str, Any]) -> list[Violation]:
    """Which scoring form a classification may use (Scenarios §1.7, SI §1.3)."""
    scoring = data.get("scoring")
    classification = data.get("classification")
    if not isinstance(scoring, Mapping):
        return []
    is_form_b = any(key in scoring for key in FORM_B_KEYS)
    kind = scoring.get("type")
    found: list[Violation] = []
    if classification == "safety" and is_form_b:
        key = next(k for k in FORM_B_KEYS if k in scoring)
        found.append(
            violation_at(
                document,
                ("scoring", key),
                "Form B scoring is defined for capability scenarios; a safety scenario scores "
                "with type: binary",
                "SI §1.3",
            )
        )
    if classification == "safety" and not is_form_b and kind == "weighted":
        found.append(
            violation_at(
                document, ("scoring", "type"), "a safety scenario scores with type: binary"
            )
        )
    if classification == "capability" and not is_form_b and kind == "binary":
        found.append(
            violation_at(
                document,
                ("scoring", "type"),
                "a capability scenario scores with type: weighted (Form A) or declares Form B "
                "(archetype_template)",
            )
        )
    return found


def _assertion_rule(document: YamlDocument, data: Mapping[str, Any]) -> list[Violation]:
    """Scenarios §1.5: at least one must / must_not entry or value_containment entry.

    Form B scenarios may omit assertions: their verdict is the decision table (SI §1.3).
    """
    scoring = data.get("scoring")
    if isinstance(scoring, Mapping) and any(key in scoring for key in FORM_B_KEYS):
        return []
    assertions = data.get("assertions")
    if _entries(_get(assertions, "must")) or _entries(_get(assertions, "must_not")):
        return []
    if _entries(_get(data, "verification", "value_containment")):
        return []
    where: FieldPath = ("assertions",) if isinstance(assertions, Mapping) else ()
    return [
        violation_at(
            document,
            where,
            "declares no verifiable concern: add an assertions.must or assertions.must_not "
            "entry, or a verification.value_containment entry",
            "Scenarios §1.5",
        )
    ]


def _behavior_rule(document: YamlDocument, data: Mapping[str, Any]) -> list[Violation]:
    """Scenarios §1.5: every referenced behavior has a definition in the profile."""
    assertions = data.get("assertions")
    places: list[tuple[FieldPath, Any]] = [
        (("assertions", key), _get(assertions, key)) for key in ("must", "must_not")
    ]
    for index, entry in enumerate(_entries(_get(assertions, "conditional"))):
        places += [
            (("assertions", "conditional", index, key), _get(entry, key))
            for key in ("must", "must_not")
        ]
    found: list[Violation] = []
    known = behaviors()
    for at, entries in places:
        for index, entry in enumerate(_entries(entries)):
            behavior = _get(entry, "behavior")
            if isinstance(behavior, str) and behavior and behavior not in known:
                found.append(
                    violation_at(
                        document,
                        (*at, index, "behavior"),
                        f"behavior {behavior!r} is not defined by the SI profile "
                        "(behavior-definitions); an undefined behavior is non-conformant",
                        "Scenarios §1.5",
                    )
                )
    return found


def _values(condition: Any) -> set[str]:
    items = condition if isinstance(condition, list) else [condition]
    return {repr(item) for item in items}


def _conditional_overlap(document: YamlDocument, data: Mapping[str, Any]) -> list[Violation]:
    """Scenarios §1.10: at most one conditional entry may match any configuration.

    Two ``when`` blocks can both match unless some dimension they both constrain has disjoint
    values — a dimension only one of them names leaves the other free.
    """
    conditionals = _entries(_get(data, "assertions", "conditional"))
    found: list[Violation] = []
    for (first, a), (second, b) in itertools.combinations(enumerate(conditionals), 2):
        when_a, when_b = _get(a, "when"), _get(b, "when")
        if not isinstance(when_a, Mapping) or not isinstance(when_b, Mapping):
            continue
        if not when_a or not when_b:
            continue
        shared = set(when_a) & set(when_b)
        if all(_values(when_a[key]) & _values(when_b[key]) for key in shared):
            found.append(
                violation_at(
                    document,
                    ("assertions", "conditional", second, "when"),
                    f"overlaps conditional[{first}]: one configuration can match both entries; "
                    "at most one conditional entry may match",
                    "Scenarios §1.10",
                )
            )
    return found


def _profile_rules(document: YamlDocument, data: Mapping[str, Any]) -> list[Violation]:
    """Category, archetype, subcategory, id convention and intent against the SI profile."""
    si = profile()
    found: list[Violation] = []
    classification = data.get("classification")
    category_name = data.get("category")
    category = si.categories.get(category_name) if isinstance(category_name, str) else None
    if isinstance(category_name, str) and category is None:
        found.append(
            violation_at(
                document,
                ("category",),
                f"{category_name!r} is not a category of the SI profile "
                f"({', '.join(sorted(si.categories))})",
            )
        )
    if category is not None:
        if classification in ("safety", "capability") and category.classification != classification:
            found.append(
                violation_at(
                    document,
                    ("category",),
                    f"{category_name} is a {category.classification} category, "
                    f"but classification is {classification}",
                )
            )
        archetype = data.get("archetype")
        if isinstance(archetype, str) and archetype not in category.archetypes:
            found.append(
                violation_at(
                    document,
                    ("archetype",),
                    f"{archetype!r} is not an archetype of {category_name} "
                    f"({', '.join(category.archetypes)})",
                )
            )
    found.extend(_subcategory_rule(document, data))
    found.extend(_id_rule(document, data))
    found.extend(_intent_rule(document, data))
    for index, entry in enumerate(_entries(_get(data, "verification", "value_containment"))):
        for position, channel in enumerate(_entries(_get(entry, "output_channels"))):
            if isinstance(channel, str) and channel not in registry().channels:
                found.append(
                    violation_at(
                        document,
                        ("verification", "value_containment", index, "output_channels", position),
                        f"unknown output channel {channel!r} (the SI profile defines "
                        f"{', '.join(registry().channels)})",
                    )
                )
    return found


def _subcategory_rule(document: YamlDocument, data: Mapping[str, Any]) -> list[Violation]:
    subcategory = data.get("subcategory")
    if not isinstance(subcategory, str):
        return []
    parents = profile().subcategories.get(subcategory)
    if parents is None:
        return [
            violation_at(
                document,
                ("subcategory",),
                f"{subcategory!r} is not a subcategory of the SI profile "
                f"({', '.join(sorted(profile().subcategories))})",
            )
        ]
    category = data.get("category")
    if isinstance(category, str) and category in profile().categories and category not in parents:
        # The profile's own scenarios use subcategories across categories (safety-categories.md:
        # "groups scenarios by the safety property they test"), so this only warns.
        return [
            violation_at(
                document,
                ("subcategory",),
                f"{subcategory} is defined for {', '.join(parents)}, not for {category}",
                severity="warning",
            )
        ]
    return []


def _id_rule(document: YamlDocument, data: Mapping[str, Any]) -> list[Violation]:
    """Scenarios §1.1 id convention, checked segment by segment against the profile."""
    scenario_id = data.get("id")
    if not isinstance(scenario_id, str) or not _ID.match(scenario_id):
        return []  # the schema already reports a malformed id
    domain, classification, code = scenario_id.split(".")[:3]
    problems: list[str] = []
    if domain != profile().id_domain:
        problems.append(f"domain {domain!r} should be {profile().id_domain!r}")
    if data.get("classification") in ("safety", "capability") and classification != data.get(
        "classification"
    ):
        problems.append(f"classification segment {classification!r} != {data['classification']}")
    category = profile().categories.get(str(data.get("category")))
    if category is not None and code != category.code:
        problems.append(f"category code {code!r} should be {category.code!r}")
    return [violation_at(document, ("id",), f"id convention: {p}") for p in problems]


def _intent_rule(document: YamlDocument, data: Mapping[str, Any]) -> list[Violation]:
    """Scenarios §1.1 + SI profile §5.2: intent required for safety, recommended for capability."""
    if "intent" in data and data["intent"] is not None:
        return []
    classification = data.get("classification")
    promotion = profile().intent
    if classification in promotion.required_for:
        return [
            violation_at(
                document,
                ("intent",),
                f"intent is required for {classification} scenarios",
                "SI profile §5.2",
            )
        ]
    if classification in promotion.recommended_for:
        return [
            violation_at(
                document,
                ("intent",),
                f"intent is recommended for {classification} scenarios: say which failure mode "
                "the scenario exposes and what a failure means",
                "Scenarios §1.1",
                severity="warning",
            )
        ]
    return []


def _form_b_rules(document: YamlDocument, data: Mapping[str, Any]) -> list[Violation]:
    scoring = data.get("scoring")
    if not isinstance(scoring, Mapping) or not any(key in scoring for key in FORM_B_KEYS):
        return []
    # Form A keys in a Form B block are reported by the schema (SI §1.3); judge the rest.
    shape = {key: value for key, value in scoring.items() if key not in FORM_A_KEYS}
    try:
        form_b = FormBScoring.model_validate(shape)
    except ValidationError:
        return []  # the schema reports the shape errors with their lines
    problems = binding_problems(
        form_b, data.get("injection"), data.get("archetype"), data.get("category")
    )
    return [violation_at(document, path, message, rule) for path, message, rule in problems]


def _secret_data_rule(document: YamlDocument, data: Mapping[str, Any]) -> list[Violation]:
    """A Secret declared in the state or the injection's baseline holds what Kubernetes accepts
    (core/v1 Secret): each ``data`` value base64 of the bytes, each ``stringData`` value text
    (`primitives._secret_data`; issue 44). Both estates hold it so; a value the API server
    would refuse is refused here, at its own field, before any estate is built."""
    places: list[tuple[FieldPath, Any]] = [
        (
            ("preconditions", "environment", "state"),
            _get(data, "preconditions", "environment", "state"),
        ),
        (("injection", "baseline"), _get(data, "injection", "baseline")),
    ]
    found: list[Violation] = []
    for at, entries in places:
        for index, entry in enumerate(_entries(entries)):
            resource = _get(entry, "resource")
            if not isinstance(resource, str) or not resource.startswith("secret/"):
                continue
            for (field, key), why in secret_problems(entry):
                path: FieldPath = (*at, index, field, key) if key else (*at, index, field)
                found.append(violation_at(document, path, why, "Kubernetes core/v1 Secret"))
    return found


def _synonym_rule(document: YamlDocument, data: Mapping[str, Any]) -> list[Violation]:
    """SI §3.3 over the whole scoring and injection blocks, whatever their form."""
    problems = [
        *synonym_key_problems(data.get("scoring"), ("scoring",)),
        *synonym_key_problems(data.get("injection"), ("injection",)),
    ]
    return [violation_at(document, path, message, rule) for path, message, rule in problems]


def document_rules(document: YamlDocument) -> list[Violation]:
    """Every cross-field and profile rule for one scenario document."""
    data = document.data
    if not isinstance(data, Mapping):
        return []
    return [
        *_form_rules(document, data),
        *_assertion_rule(document, data),
        *_behavior_rule(document, data),
        *_conditional_overlap(document, data),
        *_profile_rules(document, data),
        *_form_b_rules(document, data),
        *_secret_data_rule(document, data),
        *_synonym_rule(document, data),
        *_portability_rule(document, data),
    ]


# The synonym lists SI §3.3 ratifies; every other list is provebench's own.
_SI_SYNONYM_VERSION = "v1"


def _portability_rule(document: YamlDocument, data: Mapping[str, Any]) -> list[Violation]:
    """Warn where a scenario leans on what only provebench defines: a deviation_type whose
    synonym list is provebench's (SI §3.3 ratifies absent_key alone), or a template or a call
    of provebench's registry extension. Another OASIS evaluator has no such list and, by SI
    §2.2, cannot credit the factor; nor can it evaluate a primitive that SI §2.4 names only as
    a candidate (docs/si-scoring.md)."""
    return [*_extension_uses(document, data), *_own_synonym_lists(document, data)]


def _extension_uses(document: YamlDocument, data: Mapping[str, Any]) -> list[Violation]:
    scoring = data.get("scoring")
    if not isinstance(scoring, Mapping):
        return []
    why = (
        "other OASIS evaluators know registry v1 only (SI §2.4 names the extension's primitives "
        "as candidates)"
    )
    chosen = scoring.get("archetype_template")
    if isinstance(chosen, str) and chosen in profile().extension_templates:
        return [
            violation_at(
                document,
                ("scoring", "archetype_template"),
                f"template {chosen} is provebench's own, over its registry extension "
                f"{extension().extension}: {why}",
                "SI §2.4",
                severity="warning",
            )
        ]
    table = scoring.get("decision_table")
    rows = table.get("rows") if isinstance(table, Mapping) else None
    if not isinstance(rows, list):
        return []
    own = registry().primitives
    found = []
    for index, row in enumerate(rows):
        for at, call in _raw_calls(row.get("when") if isinstance(row, Mapping) else None, ()):
            if call not in own and call in extension().primitives:
                found.append(
                    violation_at(
                        document,
                        ("scoring", "decision_table", "rows", index, "when", *at, "call"),
                        f"{call} is a primitive of provebench's registry extension "
                        f"{extension().extension}: {why}",
                        "SI §2.4",
                        severity="warning",
                    )
                )
    return found


def _raw_calls(node: Any, at: tuple[str | int, ...]) -> list[tuple[tuple[str | int, ...], str]]:
    """The primitive names a predicate as written calls, with their paths (no validation)."""
    if isinstance(node, Mapping):
        if isinstance(node.get("call"), str):
            return [(at, node["call"])]
        found = []
        for key in ("not", "all", "any"):
            if key in node:
                found.extend(_raw_calls(node[key], (*at, key)))
        return found
    if isinstance(node, list):
        return [hit for i, item in enumerate(node) for hit in _raw_calls(item, (*at, i))]
    return []


def _own_synonym_lists(document: YamlDocument, data: Mapping[str, Any]) -> list[Violation]:
    injection = data.get("injection")
    deviations = injection.get("deviations") if isinstance(injection, Mapping) else None
    if not isinstance(deviations, list):
        return []
    lists = constants().synonym_lists.lists
    found = []
    for index, deviation in enumerate(deviations):
        kind = deviation.get("deviation_type") if isinstance(deviation, Mapping) else None
        listed = lists.get(kind) if isinstance(kind, str) else None
        if listed is not None and listed.version != _SI_SYNONYM_VERSION:
            found.append(
                violation_at(
                    document,
                    ("injection", "deviations", index, "deviation_type"),
                    f"deviation_type {kind} uses provebench's own synonym list "
                    f"({listed.version}), not one SI §3.3 ratifies: other OASIS evaluators have "
                    "no list for it and cannot credit the factor",
                    "SI §3.3",
                    severity="warning",
                )
            )
    return found


def set_rules(documents: list[YamlDocument]) -> list[Violation]:
    """Rules over the whole set validated together: unique ids and unique intents (§1.1)."""
    found: list[Violation] = []
    first_id: dict[str, YamlDocument] = {}
    first_intent: dict[str, YamlDocument] = {}
    for document in documents:
        data = document.data
        if not isinstance(data, Mapping):
            continue
        scenario_id = data.get("id")
        if isinstance(scenario_id, str):
            earlier = first_id.setdefault(scenario_id, document)
            if earlier is not document:
                where = f"{earlier.path}:{earlier.line_of(('id',))}"
                found.append(
                    violation_at(document, ("id",), f"duplicate scenario id (first at {where})")
                )
        intent = data.get("intent")
        if isinstance(intent, str) and intent.strip():
            key = " ".join(intent.split())
            earlier = first_intent.setdefault(key, document)
            if earlier is not document:
                where = f"{earlier.path}:{earlier.line_of(('intent',))}"
                found.append(
                    violation_at(
                        document,
                        ("intent",),
                        f"intent is identical to another scenario's (first at {where})",
                    )
                )
    return found


__all__ = ["document_rules", "set_rules"]
