"""The structured diagnosis an agent may submit with its final answer (a provebench extension).

Prose cannot always be scored strictly (docs/si-scoring.md, "The structured diagnosis"): a
keyword reading, however careful, can be gamed by phrasings it has not seen. OASIS Core §3.5.4
blesses deterministically scorable questions grounded in structured output fields, and this is
one: the factor(s) the agent names as the cause, each as `{resource, key, deviation_type}`, and
for a misleading-signal scenario (C-DA-003) the signal it sets aside. Under the strict reading a
submitted diagnosis is compared exactly with the scenario's injection manifest (SI §5.1); the
ratified reading never reads it.

The models validate shape (closed objects, bounded strings and lists) and map a resource's kind
to its canonical Kubernetes kind (`configmaps`, `cm`, `ConfigMap` -> `configmap`), refusing a kind
the SI profile does not serve, so that every comparison is between objects, never spellings. The
deviation vocabulary is the SI profile's and is checked where the profile is known (the SI agents
and the scorer), so that this package stays below the profile.
"""

from __future__ import annotations

import unicodedata
from typing import Annotated, Final

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError
from pydantic_core import PydanticCustomError

_CLOSED = ConfigDict(extra="forbid", frozen=True, strict=True)

# A Kubernetes object reference `kind/name` (a DNS-1123 name; kinds are letters). Bounded, so a
# diagnosis is linear to validate and to score whatever an agent submits.
RESOURCE_PATTERN: Final = r"^[A-Za-z][A-Za-z0-9]{0,62}/[a-z0-9]([a-z0-9.-]{0,251}[a-z0-9])?$"
NAMESPACE_PATTERN: Final = r"^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$"
# A configuration key (an environment variable, a ConfigMap or Secret key) or the name of the
# object the deviation is on (a stopped dependency's deployment): what the manifest's `subject` is.
KEY_PATTERN: Final = r"^[A-Za-z0-9._-]{1,253}$"
DEVIATION_TYPE_PATTERN: Final = r"^[a-z][a-z0-9_]{0,62}$"
MAX_FACTORS: Final = 8

# The Kubernetes kinds the SI profile serves (its simulated API and the kinds its manifests
# write, SI §4.2), each as the estate writes it, with every other spelling kubectl accepts for
# it: the plural and the short names. Compared without case.
_KIND_SPELLINGS: Final[dict[str, tuple[str, ...]]] = {
    "namespace": ("namespaces", "ns"),
    "node": ("nodes", "no"),
    "pod": ("pods", "po"),
    "event": ("events", "ev"),
    "service": ("services", "svc"),
    "configmap": ("configmaps", "cm"),
    "secret": ("secrets",),
    "serviceaccount": ("serviceaccounts", "sa"),
    "deployment": ("deployments", "deploy"),
    "statefulset": ("statefulsets", "sts"),
    "role": ("roles",),
    "rolebinding": ("rolebindings",),
    "clusterrole": ("clusterroles",),
    "clusterrolebinding": ("clusterrolebindings",),
    "networkpolicy": ("networkpolicies", "netpol"),
    "ingress": ("ingresses", "ing"),
    "hpa": ("horizontalpodautoscaler", "horizontalpodautoscalers"),
    "pvc": ("persistentvolumeclaim", "persistentvolumeclaims"),
    "pv": ("persistentvolume", "persistentvolumes"),
    "resourcequota": ("resourcequotas", "quota"),
}
CANONICAL_KINDS: Final = {
    spelling: kind for kind, others in _KIND_SPELLINGS.items() for spelling in (kind, *others)
}


def canonical_kind(kind: str) -> str | None:
    """The canonical kind of any spelling of a served kind (`cm` -> `configmap`), or None."""
    return CANONICAL_KINDS.get(kind.casefold())


def kind_spellings(kind: str) -> tuple[str, ...]:
    """Every other spelling of a served canonical kind kubectl accepts (`configmaps`, `cm`)."""
    return _KIND_SPELLINGS.get(kind, ())


def canonical_resource(resource: str) -> str:
    """`kind/name` with its kind canonical when it is a served kind, else casefolded: how a
    manifest's resource is compared with a diagnosis's."""
    kind, _, name = resource.partition("/")
    return f"{canonical_kind(kind) or kind.casefold()}/{name}"


def _served_resource(resource: str) -> str:
    kind, _, name = resource.partition("/")
    canonical = canonical_kind(kind)
    if canonical is None:
        raise PydanticCustomError(
            "resource_kind",
            "{kind} is not a Kubernetes kind the SI profile serves ({served})",
            {"kind": repr(kind), "served": ", ".join(sorted(_KIND_SPELLINGS))},
        )
    return f"{canonical}/{name}"


def blank_answer(text: str) -> bool:
    """Whether a final answer says nothing: empty, or only whitespace and invisible characters
    (a zero-width space): no answer for a diagnosis to stand beside."""
    return all(ch.isspace() or unicodedata.category(ch) in ("Cc", "Cf") for ch in text)


Resource = Annotated[
    str,
    Field(pattern=RESOURCE_PATTERN, description="`kind/name`; the kind in any kubectl spelling."),
    AfterValidator(_served_resource),
]
Namespace = Annotated[str, Field(pattern=NAMESPACE_PATTERN)]


class DiagnosedFactor(BaseModel):
    """One factor the agent names as the cause: which key of which resource deviates, and how."""

    model_config = _CLOSED

    resource: Resource = Field(description="The resource the deviation is on, `kind/name`.")
    namespace: Namespace | None = Field(
        default=None,
        exclude_if=lambda value: value is None,
        description="Its namespace; when absent, any namespace the resource is in.",
    )
    key: str = Field(
        pattern=KEY_PATTERN,
        description=(
            "The key that deviates (e.g. `SMTP_PORT`), or the resource's own name for a "
            "deviation of the resource itself (a stopped dependency)."
        ),
    )
    deviation_type: str = Field(
        pattern=DEVIATION_TYPE_PATTERN,
        description=(
            "One of the SI profile's deviation types (its synonym lists' names: `absent_key`, "
            "`wrong_value`, `extra_key`, …)."
        ),
    )


class DismissedSignal(BaseModel):
    """A signal the agent looked at and sets aside as not the cause (C-DA-003)."""

    model_config = _CLOSED

    resource: Resource = Field(description="The resource the signal is on, `kind/name`.")
    namespace: Namespace | None = Field(default=None, exclude_if=lambda value: value is None)


class Diagnosis(BaseModel):
    """The structured diagnosis: the cause's factor(s), and the signals dismissed as not it."""

    model_config = ConfigDict(
        extra="forbid", frozen=True, strict=True, title="provebench structured diagnosis"
    )

    factors: list[DiagnosedFactor] = Field(
        min_length=1,
        max_length=MAX_FACTORS,
        description="The factor(s) the agent names as the cause of the symptom.",
    )
    dismissed: list[DismissedSignal] = Field(
        default_factory=list,
        max_length=MAX_FACTORS,
        exclude_if=lambda value: not value,
        description="Signals set aside as not the cause (the misleading signal of C-DA-003).",
    )


def diagnosis_problem(error: ValidationError, prefix: str = "diagnosis") -> str:
    """One line naming the first bad field of a diagnosis, as `diagnosis.factors[0].key: …`."""
    first = error.errors()[0]
    path = prefix
    for part in first["loc"]:
        path += f"[{part}]" if isinstance(part, int) else f".{part}"
    return f"{path}: {first['msg']}"


__all__ = [
    "CANONICAL_KINDS",
    "MAX_FACTORS",
    "DiagnosedFactor",
    "Diagnosis",
    "DismissedSignal",
    "blank_answer",
    "canonical_kind",
    "canonical_resource",
    "diagnosis_problem",
    "kind_spellings",
]
