"""provebench.pilot (public names are re-exported here as the package grows).

Names are imported on first use (PEP 562), so that `provebench` starts fast and a
command loads only the modules it needs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from provebench._lazy import lazy_exports

if TYPE_CHECKING:
    from provebench.pilot.corpus._folder import (
        Corpus,
        load_corpus,
        write_corpus,
    )
    from provebench.pilot.corpus._model import (
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
    from provebench.pilot.corpus._profiles import (
        corpus_config,
    )
    from provebench.pilot.evaluate import (
        Verdict,
        Violation,
        evaluate_run,
        exit_code,
        write_verdict,
    )
    from provebench.pilot.lab._runner import (
        RunOutcome,
        run_lab,
    )
    from provebench.pilot.rules._contract import SELF_CHECK_PROBE_FILE_ID
    from provebench.pilot.rules._decide import (
        SUPPORTED_MIME_TYPES,
        decide_row,
        metadata_disagreements,
    )
    from provebench.pilot.rules._grammar import (
        NameRejection,
        ParsedName,
        parse_call_name,
        render_call_name,
    )
    from provebench.pilot.rules._mapping import (
        UNMAPPED_MANAGER_NAME,
        manager_mapping,
        manager_name_for,
    )
    from provebench.pilot.rules._rows import (
        REGISTER_COLUMNS,
        Refusal,
        RegisterRow,
        formula_like_cells,
        register_csv_text,
        register_order_key,
        sorted_register,
    )
    from provebench.pilot.rules._timerule import (
        load_zone,
        local_datetime_text,
    )
    from provebench.pilot.rules._versions import (
        RuleVersions,
        rule_versions,
    )
    from provebench.pilot.score_final._score import (
        FinalStateScore,
        score_final_state,
    )
    from provebench.pilot.score_final._selftest import (
        SelftestResult,
        run_selftest,
    )

_EXPORTS: dict[str, str] = {
    "Corpus": "provebench.pilot.corpus._folder",
    "load_corpus": "provebench.pilot.corpus._folder",
    "write_corpus": "provebench.pilot.corpus._folder",
    "SUPPORTED_MIME_TYPES": "provebench.pilot.rules._decide",
    "decide_row": "provebench.pilot.rules._decide",
    "metadata_disagreements": "provebench.pilot.rules._decide",
    "SELF_CHECK_PROBE_FILE_ID": "provebench.pilot.rules._contract",
    "Verdict": "provebench.pilot.evaluate",
    "Violation": "provebench.pilot.evaluate",
    "evaluate_run": "provebench.pilot.evaluate",
    "exit_code": "provebench.pilot.evaluate",
    "write_verdict": "provebench.pilot.evaluate",
    "NameRejection": "provebench.pilot.rules._grammar",
    "ParsedName": "provebench.pilot.rules._grammar",
    "parse_call_name": "provebench.pilot.rules._grammar",
    "render_call_name": "provebench.pilot.rules._grammar",
    "UNMAPPED_MANAGER_NAME": "provebench.pilot.rules._mapping",
    "manager_mapping": "provebench.pilot.rules._mapping",
    "manager_name_for": "provebench.pilot.rules._mapping",
    "ApiFault": "provebench.pilot.corpus._model",
    "CallMetadata": "provebench.pilot.corpus._model",
    "CorpusConfig": "provebench.pilot.corpus._model",
    "CorpusCounts": "provebench.pilot.corpus._model",
    "CorpusInfo": "provebench.pilot.corpus._model",
    "CorpusSizes": "provebench.pilot.corpus._model",
    "CycleStarted": "provebench.pilot.corpus._model",
    "DRIVE_EVENT_ADAPTER": "provebench.pilot.corpus._model",
    "DriveEvent": "provebench.pilot.corpus._model",
    "DriveFile": "provebench.pilot.corpus._model",
    "EVENT_KINDS": "provebench.pilot.corpus._model",
    "FILE_CASES": "provebench.pilot.corpus._model",
    "FileAdded": "provebench.pilot.corpus._model",
    "FileAddedDuringScan": "provebench.pilot.corpus._model",
    "FileMoved": "provebench.pilot.corpus._model",
    "FileReappeared": "provebench.pilot.corpus._model",
    "FileRelisted": "provebench.pilot.corpus._model",
    "FileRemoved": "provebench.pilot.corpus._model",
    "FileRenamed": "provebench.pilot.corpus._model",
    "RunVersion": "provebench.pilot.corpus._model",
    "TimeZoneChanged": "provebench.pilot.corpus._model",
    "run_version_for_cycle": "provebench.pilot.corpus._model",
    "corpus_config": "provebench.pilot.corpus._profiles",
    "REGISTER_COLUMNS": "provebench.pilot.rules._rows",
    "Refusal": "provebench.pilot.rules._rows",
    "RegisterRow": "provebench.pilot.rules._rows",
    "formula_like_cells": "provebench.pilot.rules._rows",
    "register_csv_text": "provebench.pilot.rules._rows",
    "register_order_key": "provebench.pilot.rules._rows",
    "sorted_register": "provebench.pilot.rules._rows",
    "RunOutcome": "provebench.pilot.lab._runner",
    "run_lab": "provebench.pilot.lab._runner",
    "FinalStateScore": "provebench.pilot.score_final._score",
    "score_final_state": "provebench.pilot.score_final._score",
    "SelftestResult": "provebench.pilot.score_final._selftest",
    "run_selftest": "provebench.pilot.score_final._selftest",
    "load_zone": "provebench.pilot.rules._timerule",
    "local_datetime_text": "provebench.pilot.rules._timerule",
    "RuleVersions": "provebench.pilot.rules._versions",
    "rule_versions": "provebench.pilot.rules._versions",
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
