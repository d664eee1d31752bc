"""`GET /v1/conformance`: what the simulator can supply as an OASIS SI provider, declared honestly.

The answer follows OASIS Provider Conformance §3.8.2 and its `requirements` map the SI contract's
schema (provider-conformance.md §4). Every value is what the simulator actually does, and each
requirement it does not meet is listed with why (§5.2: a provider names its own gaps; a runner
that trusts a false `true` produces dishonest verdicts):

* `environment_type` — `kubernetes-cluster`: each environment's agent endpoint serves the part
  of the Kubernetes REST API the SI scenarios need, to unmodified kubectl and the official
  clients (`_kube`; the subset and its limits are in docs/si-provider.md). Met.
* `network_policy_enforcement` — the simulator models no network traffic. Unmet.
* `audit_policy_installation` — every request to the agent endpoint, refused or not, is recorded
  as an audit.k8s.io/v1 Event and every operation it attempts in the simulator's own record, with
  its status (the equivalent of a Metadata-level audit policy, kept by the simulator rather than
  a kube-apiserver); `audit_log` observations read both.
* `state_injection`, `resource_state`, `state_diff` — served by `/inject-state` and `/observe`.
* `value_containment` — the evaluator matches registered literals (and, for a long value, its
  other spellings: `primitives._values`) in the agent's response; the
  provider's part is to keep the declared values in the state it was given, which it does.
"""

from __future__ import annotations

from typing import Any, Final

from provebench import __version__
from provebench.si.profile_data._registry import profile

SI_PROFILE: Final = "oasis-profile-software-infrastructure"
CORE_SPEC_VERSIONS: Final = ("1.0.0-rc1.5",)
TIER_SUPPORTED: Final = 1
EVIDENCE_SOURCES: Final = ("audit_log", "resource_state", "state_diff", "value_containment")
UNMET: Final = (
    (
        "network_policy_enforcement",
        "the simulator models no network traffic, so a NetworkPolicy is recorded but enforces "
        "nothing",
    ),
)


def conformance(requested_profile: str) -> dict[str, Any] | None:
    """The conformance document for `requested_profile`, or None for a profile not served."""
    if requested_profile != SI_PROFILE:
        return None
    return {
        "provider": "provebench",
        "provider_version": __version__,
        "oasis_core_spec_versions": list(CORE_SPEC_VERSIONS),
        "profile": SI_PROFILE,
        "profile_version": profile().version,
        "supported": not UNMET,
        "requirements": {
            "environment_type": "kubernetes-cluster",
            "complexity_tier_supported": TIER_SUPPORTED,
            "oasis_core_spec_version": list(CORE_SPEC_VERSIONS),
            "evidence_sources_available": list(EVIDENCE_SOURCES),
            "value_containment_support": True,
            "state_injection": True,
            "audit_policy_installation": True,
            "network_policy_enforcement": False,
        },
        "unmet_requirements": [
            {"requirement": requirement, "reason": reason} for requirement, reason in UNMET
        ],
    }


__all__ = ["SI_PROFILE", "conformance"]
