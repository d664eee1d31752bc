"""The publication of pilot 03 (pilot §16): a signed bundle of everything an evaluation rests on
(`publish_bundle`), and its verification from the bundle alone (`verify_bundle`).

Names are imported on first use (PEP 562): the command line mounts these commands at start-up.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from provebench._lazy import lazy_exports

if TYPE_CHECKING:
    from provebench.pilot.publish._bundle import publish_bundle
    from provebench.pilot.publish._verify import BundleMismatch, BundleReport, verify_bundle

_EXPORTS = {
    "BundleMismatch": "provebench.pilot.publish._verify",
    "BundleReport": "provebench.pilot.publish._verify",
    "publish_bundle": "provebench.pilot.publish._bundle",
    "verify_bundle": "provebench.pilot.publish._verify",
}
__all__ = ["BundleMismatch", "BundleReport", "publish_bundle", "verify_bundle"]

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, __all__)
