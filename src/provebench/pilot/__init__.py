"""provebench.pilot (public names are re-exported here as the package grows).

Names are imported on first use (PEP 562), so that `provebench` starts fast and a
command loads only the modules it needs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from provebench._lazy import lazy_exports

if TYPE_CHECKING:
    from provebench.pilot._contract import SELF_CHECK_PROBE_FILE_ID
    from provebench.pilot._corpus import (
        Corpus,
        load_corpus,
        write_corpus,
    )
    from provebench.pilot._decide import (
        SUPPORTED_MIME_TYPES,
        decide_row,
        metadata_disagreements,
    )
    from provebench.pilot._evaluate import (
        Verdict,
        Violation,
        evaluate_run,
        exit_code,
        write_verdict,
    )
    from provebench.pilot._grammar import (
        NameRejection,
        ParsedName,
        parse_call_name,
        render_call_name,
    )
    from provebench.pilot._mapping import (
        UNMAPPED_MANAGER_NAME,
        manager_mapping,
        manager_name_for,
    )
    from provebench.pilot._model import (
        DRIVE_EVENT_ADAPTER,
        EVENT_KINDS,
        FILE_CASES,
        ApiFault,
        CallMetadata,
        CorpusConfig,
        CorpusCounts,
        CorpusInfo,
        CorpusSizes,
        CycleStarted,
        DriveEvent,
        DriveFile,
        FileAdded,
        FileAddedDuringScan,
        FileMoved,
        FileReappeared,
        FileRelisted,
        FileRemoved,
        FileRenamed,
        RunVersion,
        TimeZoneChanged,
        run_version_for_cycle,
    )
    from provebench.pilot._profiles import (
        corpus_config,
    )
    from provebench.pilot._rows import (
        REGISTER_COLUMNS,
        Refusal,
        RegisterRow,
        formula_like_cells,
        register_csv_text,
        register_order_key,
        sorted_register,
    )
    from provebench.pilot._runner import (
        RunOutcome,
        run_lab,
    )
    from provebench.pilot._score_final import (
        FinalStateScore,
        score_final_state,
    )
    from provebench.pilot._score_final_selftest import (
        SelftestResult,
        run_selftest,
    )
    from provebench.pilot._timerule import (
        load_zone,
        local_datetime_text,
    )
    from provebench.pilot._versions import (
        RuleVersions,
        rule_versions,
    )

_EXPORTS: dict[str, str] = {
    "Corpus": "provebench.pilot._corpus",
    "load_corpus": "provebench.pilot._corpus",
    "write_corpus": "provebench.pilot._corpus",
    "SUPPORTED_MIME_TYPES": "provebench.pilot._decide",
    "decide_row": "provebench.pilot._decide",
    "metadata_disagreements": "provebench.pilot._decide",
    "SELF_CHECK_PROBE_FILE_ID": "provebench.pilot._contract",
    "Verdict": "provebench.pilot._evaluate",
    "Violation": "provebench.pilot._evaluate",
    "evaluate_run": "provebench.pilot._evaluate",
    "exit_code": "provebench.pilot._evaluate",
    "write_verdict": "provebench.pilot._evaluate",
    "NameRejection": "provebench.pilot._grammar",
    "ParsedName": "provebench.pilot._grammar",
    "parse_call_name": "provebench.pilot._grammar",
    "render_call_name": "provebench.pilot._grammar",
    "UNMAPPED_MANAGER_NAME": "provebench.pilot._mapping",
    "manager_mapping": "provebench.pilot._mapping",
    "manager_name_for": "provebench.pilot._mapping",
    "ApiFault": "provebench.pilot._model",
    "CallMetadata": "provebench.pilot._model",
    "CorpusConfig": "provebench.pilot._model",
    "CorpusCounts": "provebench.pilot._model",
    "CorpusInfo": "provebench.pilot._model",
    "CorpusSizes": "provebench.pilot._model",
    "CycleStarted": "provebench.pilot._model",
    "DRIVE_EVENT_ADAPTER": "provebench.pilot._model",
    "DriveEvent": "provebench.pilot._model",
    "DriveFile": "provebench.pilot._model",
    "EVENT_KINDS": "provebench.pilot._model",
    "FILE_CASES": "provebench.pilot._model",
    "FileAdded": "provebench.pilot._model",
    "FileAddedDuringScan": "provebench.pilot._model",
    "FileMoved": "provebench.pilot._model",
    "FileReappeared": "provebench.pilot._model",
    "FileRelisted": "provebench.pilot._model",
    "FileRemoved": "provebench.pilot._model",
    "FileRenamed": "provebench.pilot._model",
    "RunVersion": "provebench.pilot._model",
    "TimeZoneChanged": "provebench.pilot._model",
    "run_version_for_cycle": "provebench.pilot._model",
    "corpus_config": "provebench.pilot._profiles",
    "REGISTER_COLUMNS": "provebench.pilot._rows",
    "Refusal": "provebench.pilot._rows",
    "RegisterRow": "provebench.pilot._rows",
    "formula_like_cells": "provebench.pilot._rows",
    "register_csv_text": "provebench.pilot._rows",
    "register_order_key": "provebench.pilot._rows",
    "sorted_register": "provebench.pilot._rows",
    "RunOutcome": "provebench.pilot._runner",
    "run_lab": "provebench.pilot._runner",
    "FinalStateScore": "provebench.pilot._score_final",
    "score_final_state": "provebench.pilot._score_final",
    "SelftestResult": "provebench.pilot._score_final_selftest",
    "run_selftest": "provebench.pilot._score_final_selftest",
    "load_zone": "provebench.pilot._timerule",
    "local_datetime_text": "provebench.pilot._timerule",
    "RuleVersions": "provebench.pilot._versions",
    "rule_versions": "provebench.pilot._versions",
}


__all__ = [
    "DRIVE_EVENT_ADAPTER",
    "EVENT_KINDS",
    "FILE_CASES",
    "REGISTER_COLUMNS",
    "SELF_CHECK_PROBE_FILE_ID",
    "SUPPORTED_MIME_TYPES",
    "UNMAPPED_MANAGER_NAME",
    "ApiFault",
    "CallMetadata",
    "Corpus",
    "CorpusConfig",
    "CorpusCounts",
    "CorpusInfo",
    "CorpusSizes",
    "CycleStarted",
    "DriveEvent",
    "DriveFile",
    "FileAdded",
    "FileAddedDuringScan",
    "FileMoved",
    "FileReappeared",
    "FileRelisted",
    "FileRemoved",
    "FileRenamed",
    "FinalStateScore",
    "NameRejection",
    "ParsedName",
    "Refusal",
    "RegisterRow",
    "RuleVersions",
    "RunOutcome",
    "RunVersion",
    "SelftestResult",
    "TimeZoneChanged",
    "Verdict",
    "Violation",
    "corpus_config",
    "decide_row",
    "evaluate_run",
    "exit_code",
    "formula_like_cells",
    "load_corpus",
    "load_zone",
    "local_datetime_text",
    "manager_mapping",
    "manager_name_for",
    "metadata_disagreements",
    "parse_call_name",
    "register_csv_text",
    "register_order_key",
    "render_call_name",
    "rule_versions",
    "run_lab",
    "run_selftest",
    "run_version_for_cycle",
    "score_final_state",
    "sorted_register",
    "write_corpus",
    "write_verdict",
]

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, __all__)
