"""The SI profile as data: primitive registry, ratified constants, archetype templates.

Layer 1 (SI §2, §3) and Layer 2 (SI §5) live in versioned YAML files under ``si/profile/``; this
module loads them once, validates them with pydantic, and cross-checks every template against
the registry so that a broken profile asset fails at load, never mid-score.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping
from importlib import resources
from typing import Any, Final, Literal, TypeVar, cast

from pydantic import BaseModel, ConfigDict, Field, JsonValue, ValidationError

from provebench._errors import ProvebenchError
from provebench._yaml import format_field, load_yaml_text
from provebench.si.primitives._matching import identifier_problem
from provebench.si.profile_data._constants import (
    SEMVER_PATTERN,
    CooccurrenceWindow,
    IdentifierMatching,
    ScoringConstants,
    SentenceSplit,
    StepSemantics,
    SynonymList,
)
from provebench.si.profile_data._ext_params import ParamType, value_problem
from provebench.si.profile_data._predicates import (
    Call,
    Lit,
    Ref,
    RoleType,
    Row,
    check_rows,
    iter_calls,
)

_FROZEN = ConfigDict(extra="forbid", frozen=True)
_TEMPLATE_ID = re.compile(r"[A-Z]-[A-Z]{2}-\d{3}")


# ---------------------------------------------------------------------------------------------
# Layer 1: the primitive registry (SI §2)


class ParamSpec(BaseModel):
    model_config = _FROZEN
    type: RoleType
    required: bool
    default: JsonValue = None


class Primitive(BaseModel):
    model_config = _FROZEN
    section: str
    evidence: str
    params: Mapping[str, ParamSpec]


class Registry(BaseModel):
    """SI §2: the registered primitives and the profile's output channel identifiers."""

    model_config = _FROZEN
    registry: str
    profile_version: str
    channels: tuple[str, ...] = Field(min_length=1)
    primitives: dict[str, Primitive] = Field(min_length=1)


# provebench's registry extension (SI §2.4's candidates; profile_data._extension)


class ExtensionParam(ParamSpec):
    """A parameter of an extension primitive: of an extension type (`_ext_params`), or, for the
    strict primitives provebench's own templates call (`factor_asserted`, `signal_dismissed`),
    a factor or an identifier list as SI §5.1's roles type them."""

    type: ParamType | Literal["factor", "identifier_list"]


class ExtensionPrimitive(Primitive):
    params: Mapping[str, ExtensionParam]


class Extension(BaseModel):
    model_config = _FROZEN
    extension: str = Field(pattern=r"^provebench-si-ext/\d+$")
    extends: str
    primitives: dict[str, ExtensionPrimitive] = Field(min_length=1)


class PhraseLists(BaseModel):
    """Central phrase lists for detection-type behaviours (`phrases-1.yaml`)."""

    model_config = _FROZEN
    phrases: str = Field(pattern=r"^provebench-si-phrases/\d+$")
    lists: dict[str, tuple[str, ...]] = Field(min_length=1)


# `mentions` may also name an SI §3.3 synonym list, as ``synonyms:<deviation_type>``: the
# profile's own list, not a copy of it.
SYNONYMS: Final = "synonyms:"


# ---------------------------------------------------------------------------------------------
# Layer 2: archetype band templates (SI §5)


class RoleSpec(BaseModel):
    model_config = _FROZEN
    type: RoleType
    required: bool
    description: str | None = None


class Template(BaseModel):
    """An archetype's bands as a decision table over primitive roles (SI §1.2)."""

    model_config = _FROZEN
    id: str
    version: str = Field(pattern=SEMVER_PATTERN)
    archetype: str
    diagnosis_band: bool = False
    roles: dict[str, RoleSpec]
    rows: list[Row] = Field(min_length=1)


# ---------------------------------------------------------------------------------------------
# The profile file that ties them together


class CategorySpec(BaseModel):
    model_config = _FROZEN
    classification: str
    code: str
    archetypes: tuple[str, ...]


class CategoryAggregation(BaseModel):
    """Profile §6: how one capability category aggregates its archetypes' scores."""

    model_config = _FROZEN
    aggregation: Literal["weighted_average", "minimum"]
    weights: dict[str, float] = Field(default_factory=dict)
    maps_to: tuple[str, ...] = Field(min_length=1)


class CapabilityScoring(BaseModel):
    """Profile §9.2: category aggregation and the core dimensions' contributing categories."""

    model_config = _FROZEN
    categories: dict[str, CategoryAggregation]
    core_dimensions: dict[str, dict[str, float]]


class IntentPromotion(BaseModel):
    model_config = _FROZEN
    required_for: tuple[str, ...]
    recommended_for: tuple[str, ...]


class SiProfile(BaseModel):
    model_config = _FROZEN
    profile: str
    version: str = Field(pattern=SEMVER_PATTERN)
    registry: str
    constants: str
    behaviors: str
    templates: tuple[str, ...]
    # provebench's own templates over its registry extension (SI §2.4's path shapes): loaded
    # with the profile's, named apart so that a scenario using one is flagged as not portable
    extension_templates: tuple[str, ...] = ()
    id_domain: str
    intent: IntentPromotion
    categories: dict[str, CategorySpec]
    subcategories: dict[str, tuple[str, ...]]
    capability_scoring: CapabilityScoring
    tier_coverage: dict[int, int | Literal["all"]]


class BehaviorRegistry(BaseModel):
    """Named behaviors that assertions may reference (Scenarios §1.5)."""

    model_config = _FROZEN
    source: str
    behaviors: frozenset[str] = Field(min_length=1)


# ---------------------------------------------------------------------------------------------
# Loading

_Model = TypeVar("_Model", bound=BaseModel)


def _asset_text(relative: str) -> tuple[str, str]:
    asset = resources.files("provebench.si").joinpath("profile", *relative.split("/"))
    label = f"provebench/si/profile/{relative}"
    try:
        return label, asset.read_text(encoding="utf-8")
    except (FileNotFoundError, OSError) as error:
        raise ProvebenchError("profile asset missing", path=label) from error


def load_profile_asset(relative: str, model: type[_Model]) -> _Model:
    """A YAML asset of `si/profile/` as ``model``; a problem names its file, line and field."""
    label, text = _asset_text(relative)
    documents = load_yaml_text(text, path=label)
    if len(documents) != 1:
        raise ProvebenchError("a profile asset holds exactly one YAML document", path=label)
    document = documents[0]
    try:
        return model.model_validate(document.data)
    except ValidationError as error:
        first = error.errors()[0]
        at = tuple(part for part in first["loc"] if isinstance(part, str | int))
        raise ProvebenchError(
            first["msg"], path=label, line=document.line_of(at), field=format_field(at) or None
        ) from error


_V1_TYPES = frozenset({"factor", "identifier_list", "channel_list", "positive_int", "bool"})


def check_value(type_name: RoleType, value: Any, channels: tuple[str, ...]) -> str | None:
    """Why ``value`` is not a valid ``type_name`` (role or parameter type), or None if it is."""
    if type_name not in _V1_TYPES:
        return value_problem(cast(ParamType, type_name), value, phrase_list_names())
    if type_name == "bool":
        return None if isinstance(value, bool) else "must be true or false"
    if type_name == "positive_int":
        if isinstance(value, bool) or not isinstance(value, int):
            return "must be a positive integer"
        return None if value > 0 else "must be a positive integer (> 0)"
    if type_name in ("identifier_list", "channel_list"):
        if not isinstance(value, list) or not value:
            return "must be a non-empty list of strings"
        if not all(isinstance(item, str) and item.strip() for item in value):
            return "must be a non-empty list of non-empty strings"
        if type_name == "identifier_list":
            return _identifiers_problem(value, "")
        if type_name == "channel_list":
            unknown = [item for item in value if item not in channels]
            if unknown:
                return f"unknown channel(s) {unknown}; the profile defines {list(channels)}"
        return None
    # factor: {ref, required_identifiers} (SI §5.1 role table)
    if not isinstance(value, dict):
        return "must be a mapping {ref, required_identifiers}"
    extra = sorted(set(map(str, value)) - {"ref", "required_identifiers"})
    if extra:
        return f"unknown key(s) {extra}; a factor is {{ref, required_identifiers}}"
    if not isinstance(value.get("ref"), str) or not value["ref"]:
        return "needs `ref`: the id of an injection.deviations entry"
    identifiers = value.get("required_identifiers")
    if not isinstance(identifiers, list) or not identifiers:
        return "needs `required_identifiers`: a non-empty list of strings"
    if not all(isinstance(item, str) and item.strip() for item in identifiers):
        return "`required_identifiers` must be non-empty strings"
    return _identifiers_problem(identifiers, "required_identifiers")


def _identifiers_problem(identifiers: list[Any], name: str) -> str | None:
    # The rule scoring applies (SI §3.1, `identifier_problem`), so that `si validate` reports
    # with its file and line every identifier `si score` would refuse, and no other.
    for index, item in enumerate(identifiers):
        problem = identifier_problem(item)
        if problem is not None:
            return f"`{name}[{index}]`: {problem}" if name else f"item {index}: {problem}"
    return None


def check_call(
    call: Call,
    reg: Registry,
    roles: dict[str, RoleSpec] | None,
) -> list[tuple[tuple[str | int, ...], str]]:
    """Problems with one call, each with its path below the call (``with.n``, ``call``).

    ``roles`` is None for a scenario-local table, where only literal arguments are allowed
    (SI §1.4); for a template every ``$role`` must be declared with the parameter's type.
    """
    primitive = reg.primitives.get(call.call)
    if primitive is None:
        known = ", ".join(sorted(reg.primitives))
        return [
            (
                ("call",),
                f"{call.call!r} is not a registered primitive (registry {reg.registry}: {known}); "
                "primitives are added to the registry, never in scenario files (SI §2.4)",
            )
        ]
    problems: list[tuple[tuple[str | int, ...], str]] = []
    for name in call.args:
        if name not in primitive.params:
            problems.append(
                (("with", name), f"{call.call} has no parameter {name!r} ({primitive.section})")
            )
    for name, spec in primitive.params.items():
        arg = call.args.get(name)
        if arg is None:
            if spec.required:
                problems.append(
                    (("with",), f"{call.call} needs parameter {name!r} ({primitive.section})")
                )
            continue
        if isinstance(arg, Ref):
            if roles is None:
                problems.append(
                    (
                        ("with", name),
                        f"{arg} is a role reference; a scenario-local table takes literal "
                        "arguments only (SI §1.4)",
                    )
                )
            elif arg.role not in roles:
                problems.append((("with", name), f"{arg} is not a role of this template"))
            elif roles[arg.role].type != spec.type:
                problems.append(
                    (
                        ("with", name),
                        f"{arg} has type {roles[arg.role].type}, parameter {name!r} of "
                        f"{call.call} needs {spec.type}",
                    )
                )
        elif isinstance(arg, Lit) and spec.type == "deviation_scope":
            problems.append(
                (
                    ("with", name),
                    f"{name} is a deviation's resources, bound from the injection manifest by a "
                    "template role, never written as a literal",
                )
            )
        elif isinstance(arg, Lit):
            problem = check_value(spec.type, arg.value, reg.channels)
            if problem:
                problems.append((("with", name), f"{name} {problem}"))
    return problems


def check_template(tpl: Template, reg: Registry) -> list[tuple[tuple[str | int, ...], str]]:
    """Every way ``tpl`` disagrees with the registry or with the table rules."""
    problems: list[tuple[tuple[str | int, ...], str]] = []
    if not _TEMPLATE_ID.fullmatch(tpl.id):
        problems.append((("id",), f"template id {tpl.id!r} is not of the form C-XX-nnn"))
    for message in check_rows(tpl.rows):
        problems.append((("rows",), message))
    used: set[str] = set()
    for index, row in enumerate(tpl.rows):
        for at, call in iter_calls(row.when, ("rows", index, "when")):
            used.update(arg.role for arg in call.args.values() if isinstance(arg, Ref))
            problems.extend(((*at, *sub), text) for sub, text in check_call(call, reg, tpl.roles))
    for role in sorted(set(tpl.roles) - used):
        problems.append((("roles", role), f"role {role!r} is declared but no row uses it"))
    return problems


@functools.cache
def profile() -> SiProfile:
    """The SI profile data (version, categories, templates list)."""
    return load_profile_asset("profile.yaml", SiProfile)


@functools.cache
def registry() -> Registry:
    """Primitive registry (SI §2) of the active profile."""
    return load_profile_asset(profile().registry, Registry)


@functools.cache
def extension() -> Extension:
    """The registry extension, loaded and validated once."""
    return load_profile_asset("registry-ext-1.yaml", Extension)


@functools.cache
def phrase_lists() -> PhraseLists:
    """The phrase lists, loaded and validated once; an empty phrase is refused (it would
    match everything)."""
    loaded = load_profile_asset("phrases-1.yaml", PhraseLists)
    for name, phrases in loaded.lists.items():
        if not phrases or any(not p.strip() for p in phrases):
            raise ValueError(f"phrase list {name} holds an empty phrase")
    return loaded


@functools.cache
def phrase_list_names() -> frozenset[str]:
    """What a `phrase_list` argument may name: a list of the phrase asset, or an SI §3.3
    synonym list as ``synonyms:<deviation_type>``."""
    return frozenset(
        [
            *phrase_lists().lists,
            *(f"{SYNONYMS}{kind}" for kind in constants().synonym_lists.lists),
        ]
    )


@functools.cache
def scoring_registry() -> Registry:
    """The primitives a Form B table may call: registry v1 and provebench's extension.

    `registry()` stays the profile's own v1 (what other OASIS evaluators know); a table that
    calls an extension primitive is valid here, named in its verdict's versions
    (`registry_extension`) and flagged as not portable by `si validate`."""
    base = registry()
    added: dict[str, Primitive] = dict(extension().primitives)
    return base.model_copy(update={"primitives": {**base.primitives, **added}})


def uses_extension(rows: Iterable[Row]) -> bool:
    """Whether any call of these rows is to an extension primitive."""
    own = registry().primitives
    return any(call.call not in own for row in rows for _, call in iter_calls(row.when))


@functools.cache
def constants() -> ScoringConstants:
    """The ratified scoring constants (SI §3) of the active profile."""
    return load_profile_asset(profile().constants, ScoringConstants)


@functools.cache
def behaviors() -> frozenset[str]:
    """Behavior identifiers defined by the profile (Scenarios §1.5)."""
    return load_profile_asset(profile().behaviors, BehaviorRegistry).behaviors


@functools.cache
def templates() -> dict[str, Template]:
    """Every archetype band template of the profile, by id, checked against the registry."""
    loaded: dict[str, Template] = {}
    reg = scoring_registry()
    for template_id in (*profile().templates, *profile().extension_templates):
        relative = f"templates/{template_id}.yaml"
        tpl = load_profile_asset(relative, Template)
        problems = check_template(tpl, reg)
        if tpl.id != template_id:
            problems.insert(0, (("id",), f"file is named {template_id} but declares {tpl.id}"))
        if problems:
            at, text = problems[0]
            label = f"provebench/si/profile/{relative}"
            raise ProvebenchError(text, path=label, field=format_field(at))
        loaded[tpl.id] = tpl
    return loaded


def template(template_id: str) -> Template:
    """The archetype band template ``template_id``; unknown ids are an error (SI §2.4)."""
    found = templates().get(template_id)
    if found is None:
        known = ", ".join(sorted(templates()))
        raise ProvebenchError(
            f"{template_id!r} is not a registered archetype template (known: {known})",
            field="scoring.archetype_template",
        )
    return found


def synonyms_for(deviation_type: str) -> SynonymList:
    """The profile's synonym list for ``deviation_type`` (SI §3.3); unknown types are an error."""
    found = constants().synonym_lists.lists.get(deviation_type)
    if found is None:
        known = ", ".join(sorted(constants().synonym_lists.lists))
        raise ProvebenchError(
            f"no synonym list is registered for deviation_type {deviation_type!r} "
            f"(registered: {known}; SI §3.3)",
            field="deviation_type",
        )
    return found


def cooccurrence_window(window_id: str | None = None) -> CooccurrenceWindow:
    """A co-occurrence window by id (SI §2.2); None gives the profile's default."""
    table = constants().cooccurrence_windows
    chosen = table.default if window_id is None else window_id
    found = table.windows.get(chosen)
    if found is None:
        raise ProvebenchError(
            f"unknown co-occurrence window {chosen!r} (known: {', '.join(sorted(table.windows))})",
            field="window",
        )
    return found


__all__ = [
    "SYNONYMS",
    "BehaviorRegistry",
    "CapabilityScoring",
    "CategoryAggregation",
    "CategorySpec",
    "CooccurrenceWindow",
    "Extension",
    "ExtensionParam",
    "ExtensionPrimitive",
    "IdentifierMatching",
    "ParamSpec",
    "PhraseLists",
    "Primitive",
    "Registry",
    "RoleSpec",
    "ScoringConstants",
    "SentenceSplit",
    "SiProfile",
    "StepSemantics",
    "SynonymList",
    "Template",
    "behaviors",
    "check_call",
    "check_template",
    "check_value",
    "constants",
    "cooccurrence_window",
    "extension",
    "load_profile_asset",
    "phrase_list_names",
    "phrase_lists",
    "profile",
    "registry",
    "scoring_registry",
    "synonyms_for",
    "template",
    "templates",
    "uses_extension",
]
