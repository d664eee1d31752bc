"""The shadow operational level of pilot 03 (pilot §2, §8, §15): real Drive metadata captured
read-only and pseudonymised (`capture`, `pseudonym/1`), the event stream of consecutive
snapshots as a corpus (`shadow-corpus`, `shadow-stream/1`), on which a shadow run is an ordinary
sealed laboratory run. See docs/pilot-shadow.md.

Names are imported on first use (PEP 562): the command line mounts the shadow commands at
start-up without importing the level.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from provebench._lazy import lazy_exports

if TYPE_CHECKING:
    from provebench.pilot.shadow._capture import (
        LIST_FIELDS,
        METADATA_READONLY_SCOPE,
        capture,
        drive_file,
        drive_service,
        list_files,
    )
    from provebench.pilot.shadow._derive import (
        DEFAULT_PERIOD_DAYS,
        DERIVATION_VERSION,
        SHADOW_ESCROW_VERSION,
        derive_shadow_corpus,
    )
    from provebench.pilot.shadow._pseudonym import (
        MIN_KEY_BYTES,
        PSEUDONYM_VERSION,
        Pseudonymiser,
        new_key_text,
        read_key,
    )
    from provebench.pilot.shadow._snapshots import (
        CAPTURE_FORMAT,
        CAPTURE_MANIFEST,
        CaptureManifest,
        SnapshotEntry,
        append_snapshot,
        read_capture,
        snapshot_files,
    )

_EXPORTS = {
    "CAPTURE_FORMAT": "provebench.pilot.shadow._snapshots",
    "CAPTURE_MANIFEST": "provebench.pilot.shadow._snapshots",
    "DEFAULT_PERIOD_DAYS": "provebench.pilot.shadow._derive",
    "DERIVATION_VERSION": "provebench.pilot.shadow._derive",
    "LIST_FIELDS": "provebench.pilot.shadow._capture",
    "METADATA_READONLY_SCOPE": "provebench.pilot.shadow._capture",
    "MIN_KEY_BYTES": "provebench.pilot.shadow._pseudonym",
    "PSEUDONYM_VERSION": "provebench.pilot.shadow._pseudonym",
    "SHADOW_ESCROW_VERSION": "provebench.pilot.shadow._derive",
    "CaptureManifest": "provebench.pilot.shadow._snapshots",
    "Pseudonymiser": "provebench.pilot.shadow._pseudonym",
    "SnapshotEntry": "provebench.pilot.shadow._snapshots",
    "append_snapshot": "provebench.pilot.shadow._snapshots",
    "capture": "provebench.pilot.shadow._capture",
    "derive_shadow_corpus": "provebench.pilot.shadow._derive",
    "drive_file": "provebench.pilot.shadow._capture",
    "drive_service": "provebench.pilot.shadow._capture",
    "list_files": "provebench.pilot.shadow._capture",
    "new_key_text": "provebench.pilot.shadow._pseudonym",
    "read_capture": "provebench.pilot.shadow._snapshots",
    "read_key": "provebench.pilot.shadow._pseudonym",
    "snapshot_files": "provebench.pilot.shadow._snapshots",
}
__all__ = [
    "CAPTURE_FORMAT",
    "CAPTURE_MANIFEST",
    "DEFAULT_PERIOD_DAYS",
    "DERIVATION_VERSION",
    "LIST_FIELDS",
    "METADATA_READONLY_SCOPE",
    "MIN_KEY_BYTES",
    "PSEUDONYM_VERSION",
    "SHADOW_ESCROW_VERSION",
    "CaptureManifest",
    "Pseudonymiser",
    "SnapshotEntry",
    "append_snapshot",
    "capture",
    "derive_shadow_corpus",
    "drive_file",
    "drive_service",
    "list_files",
    "new_key_text",
    "read_capture",
    "read_key",
    "snapshot_files",
]

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, __all__)
