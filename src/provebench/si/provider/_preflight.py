"""The runner's preflight handshake (Provider Conformance §3.8.3) against any SI provider.

Before any provision, the runner asks `GET /v1/conformance?profile=…` and compares what the
provider declares with what the selected scenarios need. A gap is one line naming the endpoint
and the gap, and nothing runs (Core §3.7: a configuration gap is not a runtime fault).

What the selected scenarios need (the SI contract, provider-conformance.md §3, read per
scenario as 08 §3.6 asks: "a provider that does not support an operation required by a scenario
cannot execute that scenario; the preflight … MUST detect such gaps and abort the run"):

* every scenario: `environment_type: kubernetes-cluster`, a core spec version
  `>= 1.0.0-rc1.5`, `state_injection`, `audit_policy_installation`, and the `audit_log` and
  `resource_state` evidence sources (the runner observes both for every scenario);
* the tier asked for (`--tier`, or the scenario's own for `si run`): `complexity_tier_supported`;
* a scenario that declares `verification.value_containment`: `value_containment_support` and the
  `value_containment` evidence source;
* a scenario whose preconditions declare a `networkpolicy/…` resource:
  `network_policy_enforcement` (contract §3.8: a policy that is not enforced would let the
  scenario pass for the wrong reason).

`supported: false` (§3.8.2: "the runner uses this as a fast-path check") does not by itself
refuse a run: the runner reads `unmet_requirements` and its own check of the `requirements` map,
and refuses the whole run — every scenario, not only the one in need — when any selected scenario
needs a requirement that is unmet (the contract forbids silently leaving scenarios out, §3.6).
`supported: false` with no unmet requirement named is a gap of its own (fail closed); an unmet
requirement provebench does not know is needed by every scenario. The unmet requirements no
selected scenario needs are recorded with the run (docs/si-provider.md).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from provebench._canonical import sha256_bytes
from provebench._errors import ProvebenchError
from provebench.si.provider._client import WITHHELD_NOTE, ProviderClient, ProviderFault
from provebench.si.provider._conformance import SI_PROFILE
from provebench.si.provider._stimuli import undelivered
from provebench.si.scenario._scenario import Scenario

ENVIRONMENT_TYPE: Final = "kubernetes-cluster"
CORE_SPEC_MINIMUM: Final = "1.0.0-rc1.5"  # provider-conformance-requirements.yaml
# The profile versions whose conformance contract (the eight keys) is the one checked here.
CONTRACT_VERSIONS: Final = ((0, 2), (0, 3))
EVERY_SCENARIO: Final = (
    "environment_type",
    "oasis_core_spec_version",
    "state_injection",
    "audit_policy_installation",
)
KNOWN_REQUIREMENTS: Final = frozenset(
    {
        "environment_type",
        "complexity_tier_supported",
        "oasis_core_spec_version",
        "evidence_sources_available",
        "value_containment_support",
        "state_injection",
        "audit_policy_installation",
        "network_policy_enforcement",
    }
)
BOOLEAN_REQUIREMENTS: Final = (
    "value_containment_support",
    "state_injection",
    "audit_policy_installation",
    "network_policy_enforcement",
)
_SEMVER = re.compile(r"^(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$")


@dataclass(frozen=True)
class AcceptedProvider:
    """The provider a run was accepted against, as every evidence file records it."""

    url: str
    conformance_sha256: str
    provider: str
    provider_version: str
    profile_version: str
    unmet_not_needed: tuple[str, ...]
    # the observation types the provider declared (`evidence_sources_available`)
    evidence_sources: tuple[str, ...] = ()

    def record(self) -> dict[str, Any]:
        return {
            "url": self.url,  # the origin: a path may carry the provider's secret
            **({"url_note": WITHHELD_NOTE} if self.url.endswith("/…") else {}),
            "conformance_sha256": self.conformance_sha256,
            "provider": self.provider,
            "provider_version": self.provider_version,
            "profile_version": self.profile_version,
            "unmet_not_needed": list(self.unmet_not_needed),
        }


def semver_key(text: str) -> tuple[tuple[int, int, int], tuple[tuple[int, int, str], ...]] | None:
    """A sort key for a semver (SemVer 2.0 §11 precedence), None when `text` is not one."""
    found = _SEMVER.match(text)
    if found is None:
        return None
    core = (int(found[1]), int(found[2]), int(found[3]))
    if found[4] is None:
        return core, ((2, 0, ""),)  # a release ranks above each of its pre-releases
    parts = tuple(
        (0, int(part), "") if part.isdigit() else (1, 0, part) for part in found[4].split(".")
    )
    return core, parts


def _at_least(version: object, minimum: str) -> bool:
    key, floor = semver_key(str(version)), semver_key(minimum)
    return key is not None and floor is not None and key >= floor


def needs(scenario: Scenario) -> set[str]:
    """The requirement keys this scenario needs of a provider (besides the tier)."""
    needed = set(EVERY_SCENARIO) | {"evidence_sources_available"}
    if scenario.verification.value_containment:
        needed.add("value_containment_support")
    for entry in scenario.preconditions.environment.state:
        resource = entry.get("resource")
        if isinstance(resource, str) and resource.lower().startswith("networkpolicy/"):
            needed.add("network_policy_enforcement")
    return needed


def _evidence_needed(scenarios: Sequence[Scenario]) -> list[str]:
    wanted = ["audit_log", "resource_state"]
    if any(s.verification.value_containment for s in scenarios):
        wanted.append("value_containment")
    return wanted


def _own_check(
    requirements: Mapping[str, Any], scenarios: Sequence[Scenario], tier: int
) -> dict[str, str]:
    """The requirements whose declared value does not meet the contract, and why."""
    unmet: dict[str, str] = {}
    if requirements.get("environment_type") != ENVIRONMENT_TYPE:
        unmet["environment_type"] = (
            f"declared {requirements.get('environment_type')!r}, not {ENVIRONMENT_TYPE!r}"
        )
    declared_tier = requirements.get("complexity_tier_supported")
    if not isinstance(declared_tier, int) or isinstance(declared_tier, bool):
        unmet["complexity_tier_supported"] = "not declared as an integer"
    elif declared_tier < tier:
        unmet["complexity_tier_supported"] = (
            f"provider supports up to tier {declared_tier} but the run asks for tier {tier}"
        )
    versions = requirements.get("oasis_core_spec_version")
    if not isinstance(versions, list) or not any(_at_least(v, CORE_SPEC_MINIMUM) for v in versions):
        unmet["oasis_core_spec_version"] = f"declares no core spec version >= {CORE_SPEC_MINIMUM}"
    sources = requirements.get("evidence_sources_available")
    declared = set(sources) if isinstance(sources, list) else set()
    missing = [s for s in _evidence_needed(scenarios) if s not in declared]
    if missing:
        unmet["evidence_sources_available"] = f"missing {', '.join(missing)}"
    for name in BOOLEAN_REQUIREMENTS:
        if requirements.get(name) is not True:
            unmet[name] = f"declared {requirements.get(name)!r}, not true"
    return unmet


def _declared_unmet(document: Mapping[str, Any]) -> dict[str, str]:
    listed = document.get("unmet_requirements") or []
    if not isinstance(listed, list):
        raise _malformed("`unmet_requirements` is not a list")
    unmet: dict[str, str] = {}
    for item in listed:
        if not isinstance(item, dict) or not isinstance(item.get("requirement"), str):
            raise _malformed("an `unmet_requirements` entry has no `requirement`")
        reason = item.get("reason")
        unmet[item["requirement"]] = reason if isinstance(reason, str) and reason else "unmet"
    return unmet


def _malformed(what: str) -> ProviderFault:
    return ProviderFault(f"the conformance document is malformed: {what}")


def _who(requirement: str, scenarios: Sequence[Scenario], needed_by: Mapping[str, set[str]]) -> str:
    ids = [s.id for s in scenarios if requirement in needed_by[s.id]]
    if len(ids) == len(scenarios) > 1:
        return "needed by every selected scenario"
    shown = ", ".join(ids[:3]) + (f" and {len(ids) - 3} more" if len(ids) > 3 else "")
    return f"needed by {shown}"


def _gaps(
    document: Mapping[str, Any], scenarios: Sequence[Scenario], tier: int
) -> tuple[list[str], list[str]]:
    """(the gaps that refuse the run, the unmet requirements no selected scenario needs)."""
    if document.get("profile") != SI_PROFILE:
        return [f"profile: answers for {document.get('profile')!r}, not {SI_PROFILE!r}"], []
    version = semver_key(str(document.get("profile_version")))
    if version is None or version[0][:2] not in CONTRACT_VERSIONS:
        accepted = " or ".join(f"{a}.{b}.x" for a, b in CONTRACT_VERSIONS)
        return [
            f"profile_version: {document.get('profile_version')!r} is not a profile version "
            f"whose conformance contract provebench checks ({accepted})"
        ], []
    core = document.get("oasis_core_spec_versions")
    if not isinstance(core, list) or not any(_at_least(v, CORE_SPEC_MINIMUM) for v in core):
        return [f"oasis_core_spec_versions: implements none >= {CORE_SPEC_MINIMUM}"], []
    supported = document.get("supported")
    if not isinstance(supported, bool):
        raise _malformed("`supported` is not a boolean")
    requirements = document.get("requirements")
    if not isinstance(requirements, dict):
        raise _malformed("`requirements` is not an object")
    unmet = {**_own_check(requirements, scenarios, tier), **_declared_unmet(document)}
    if not supported and not unmet:
        return ["supported: false, and no unmet requirement is named"], []
    needed_by = {s.id: needs(s) for s in scenarios}
    needed_by_run = set().union(*needed_by.values())
    refusing, not_needed = [], []
    for requirement, reason in sorted(unmet.items()):
        if requirement == "complexity_tier_supported":
            refusing.append(f"{requirement}: {reason}")
        elif requirement in needed_by_run:
            refusing.append(f"{requirement}: {reason} ({_who(requirement, scenarios, needed_by)})")
        elif requirement not in KNOWN_REQUIREMENTS:  # fail closed: it may be needed by all
            refusing.append(f"{requirement}: {reason} (a requirement provebench does not know)")
        else:
            not_needed.append(requirement)
    for scenario in scenarios:
        refusing += undelivered(scenario)
    return refusing, not_needed


def preflight(client: ProviderClient, scenarios: Iterable[Scenario], tier: int) -> AcceptedProvider:
    """Accept the provider for these scenarios at this tier, or raise one line naming the gap
    (`ProvebenchError`, exit 2): before any provision, and nothing is run on a gap."""
    selected = list(scenarios)
    where = f"{client.shown}/v1/conformance"
    try:
        document, raw = client.conformance(SI_PROFILE)
        refusing, not_needed = _gaps(document, selected, tier)
    except ProviderFault as fault:
        raise ProvebenchError(f"preflight failed: {fault}", field="--provider") from None
    if refusing:
        raise ProvebenchError(
            f"provider {where} does not meet the run's needs: {'; '.join(refusing)}",
            field="--provider",
        )
    return AcceptedProvider(
        url=client.shown,
        conformance_sha256=sha256_bytes(raw),
        provider=str(document.get("provider")),
        provider_version=str(document.get("provider_version")),
        profile_version=str(document.get("profile_version")),
        unmet_not_needed=tuple(not_needed),
        evidence_sources=tuple(
            source
            for source in document["requirements"].get("evidence_sources_available") or ()
            if isinstance(source, str)
        ),
    )


__all__ = ["AcceptedProvider", "needs", "preflight", "semver_key"]
