"""Defective importers: public, documented stand-ins for the pilot §14 / §1 attacks.

Each class is the reference importer (`agents/_reference.py`) with one step changed, through
`CorrectImporter`, which hands the reference's steps to an attack as dict rows and listed files
by id; each is named after the attack it implements. Run one with
`provebench pilot run --agent provebench.pilot.agents.defective:ImportsFirstN …`; the evaluator
must fail every one of them (docs/pilot-evaluator.md, "Defective importers").
"""

from provebench.pilot.agents.defective._base import CorrectImporter
from provebench.pilot.agents.defective._claims_outside_report_attacks import (
    ClaimsRefusedImportedInCallArgument,
    ClaimsRefusedImportedInException,
    ClaimsRefusedImportedInIdField,
    ClaimsRefusedImportedInRejectedAppend,
    ClaimsRefusedImportedInRejectedRowCells,
)
from provebench.pilot.agents.defective._closed_refusal_attacks import (
    ClaimsRefusedImportedInSquaredLetters,
    ClaimsRefusedUploadOkInCamelCase,
    ReportsInDoubtAppendAsLanded,
)
from provebench.pilot.agents.defective._closed_vocabulary_attacks import (
    ClaimsRefusedImportedInSplitFolders,
    ClaimsRefusedImportedNevertheless,
    ClaimsRefusedImportedThenDeniesAnother,
    ClaimsRefusedImportedUnderDoubleNegation,
    ReportsSettledFailuresAsVanished,
)
from provebench.pilot.agents.defective._contract_attacks import (
    AcceptsEverythingInName,
    AssignsFinalStatus,
    ClaimsCorruptedProcessed,
    ConcealsFailedAppends,
    DeletesAnError,
    EditsEvaluatorLog,
    ModifiesSourceList,
    ObeysInstructionInName,
    ReportsCorruptedAsImported,
    WritesDoneWithoutImport,
)
from provebench.pilot.agents.defective._display_attacks import QuotesTerminalControlsInARowId
from provebench.pilot.agents.defective._evidence_attacks import (
    AbsorbsFaultsWithIdleCalls,
    ReportsChecksFailedWithoutDoingThem,
)
from provebench.pilot.agents.defective._glued_word_attacks import (
    ClaimsRefusedImportedGluedToOwnId,
    ClaimsRefusedImportedInCamelCase,
    ClaimsRefusedImportedInDigitLookAlikes,
    ClaimsRefusedImportedUnderCoveringNegations,
)
from provebench.pilot.agents.defective._gone_file_attacks import (
    ReportsFilesFailedAfterReadingRemovedFiles,
)
from provebench.pilot.agents.defective._import_attacks import (
    ArtificialErrorThenCorrection,
    ChangesOrderAfterSorting,
    DuplicatesAfterRepeatedRun,
    DuplicatesLate,
    ImportsFirstN,
    OmitsFinalPage,
    PassesOneCycleThenFails,
    SkipsSelfChecks,
    StatusProbeOnRealFile,
    UsesCreationTime,
)
from provebench.pilot.agents.defective._invariant_attacks import (
    AnswersWithoutListing,
    ClaimsUncheckedSelfChecks,
    NearDuplicateIds,
    ReportsUnrelatedFailure,
    RunRehashedOffline,
    SelfFillsExternalChecks,
)
from provebench.pilot.agents.defective._named_by_name_attacks import (
    ClaimsRefusedImportedByServedName,
    ClaimsRefusedReimportedInCallArgument,
)
from provebench.pilot.agents.defective._redteam_attacks import (
    ClaimsRefusedImportedBehindTerminalControls,
    ClaimsRefusedImportedDisguised,
    ClaimsRefusedImportedInOwnReport,
    ClaimsRefusedImportedInOwnReportLookAlikeId,
    ClaimsRefusedImportedInWords,
    ClaimsRefusedImportedSplitByControl,
    ConcealsRefusals,
    ForgesFailureReports,
    ForgesLogEntries,
    ImportsOnlyEasyCases,
    MergesSameNameFiles,
    MissesFileAddedDuringScan,
    ProbesFinalStatusByMoving,
    ReimportsRenamedFile,
    ReportsFilesFailedInOtherWords,
    ReportsImportedAsFailed,
    ReportsImportedAsFailedInWords,
    ReportsImportedAsFailedLookAlikeId,
    ReportsImportedAsFailedOnError,
    ReportsImportedAsFailedSplitByControl,
    ReportsOnlySuccessfulCycles,
    ReportsRefusalsLate,
    RetriesInDoubtAfterDecoyRead,
    RetriesInDoubtAppend,
    RetriesTimedOutAppend,
    RetriesTimedOutAppendAfterIdleRead,
    TampersCorpusFiles,
)
from provebench.pilot.agents.defective._refusal_shape_attacks import (
    ClaimsRefusedImportedInCodePoints,
    ClaimsRefusedNotRefusedInListedWords,
    ReportsInDoubtAppendAsConfirmed,
)
from provebench.pilot.agents.defective._regrouped_id_attacks import (
    ClaimsRefusedImportedSplitOverFields,
    ClaimsRefusedImportedWithRegroupedIds,
)
from provebench.pilot.agents.defective._report_attacks import (
    DefersRowClaimsInDoubt,
    NeverRetries,
)
from provebench.pilot.agents.defective._report_seam_attacks import (
    ClaimsRefusedImportedInWorkFileNames,
    ClaimsRefusedImportedWithSplitIds,
)
from provebench.pilot.agents.defective._retried_failure_attacks import (
    ReportsFailuresAsNotSavedBeforeRetry,
    ReportsRetriedFailuresAsNotSaved,
)
from provebench.pilot.agents.defective._sandbox_attacks import (
    FindsTheCorpusThroughProc,
    ReadsTheAnswerKeyFromDisk,
)
from provebench.pilot.agents.defective._seam_attacks import (
    ClaimsRefusedImportedGluedToCompatibilityDigits,
    ClaimsRefusedImportedGluedToWords,
    ClaimsRefusedImportedInLookAlikeDigits,
    ReportsFilesFailedAfterDecoyRead,
    ReportsFilesFailedWithNoTextCode,
)
from provebench.pilot.agents.defective._self_check_slot_attacks import (
    HidesInDoubtInSelfCheckSentences,
)
from provebench.pilot.agents.defective._summary_shape_attacks import (
    ClaimsImportedTiedToOwnFailedGet,
    ClaimsRefusedImportedInNoteNamingImportedFile,
    ClaimsRefusedImportedInNoteParaphrase,
    ClaimsRefusedImportedInReconciliationKey,
    ClaimsRefusedImportedInSelfCheckDetail,
    ReportsInDoubtAppendByIdsAsLanded,
    ReportsInDoubtAppendWithBogusCall,
)

DEFECTIVE_IMPORTERS: tuple[type[CorrectImporter], ...] = (
    AcceptsEverythingInName,
    ArtificialErrorThenCorrection,
    AssignsFinalStatus,
    ChangesOrderAfterSorting,
    ClaimsCorruptedProcessed,
    ConcealsFailedAppends,
    DeletesAnError,
    DuplicatesAfterRepeatedRun,
    DuplicatesLate,
    EditsEvaluatorLog,
    ImportsFirstN,
    ModifiesSourceList,
    ObeysInstructionInName,
    OmitsFinalPage,
    PassesOneCycleThenFails,
    ReportsCorruptedAsImported,
    SkipsSelfChecks,
    StatusProbeOnRealFile,
    UsesCreationTime,
    WritesDoneWithoutImport,
)

__all__ = [
    "DEFECTIVE_IMPORTERS",
    "AbsorbsFaultsWithIdleCalls",
    "AcceptsEverythingInName",
    "AnswersWithoutListing",
    "ArtificialErrorThenCorrection",
    "AssignsFinalStatus",
    "ChangesOrderAfterSorting",
    "ClaimsCorruptedProcessed",
    "ClaimsImportedTiedToOwnFailedGet",
    "ClaimsRefusedImportedBehindTerminalControls",
    "ClaimsRefusedImportedByServedName",
    "ClaimsRefusedImportedDisguised",
    "ClaimsRefusedImportedGluedToCompatibilityDigits",
    "ClaimsRefusedImportedGluedToOwnId",
    "ClaimsRefusedImportedGluedToWords",
    "ClaimsRefusedImportedInCallArgument",
    "ClaimsRefusedImportedInCamelCase",
    "ClaimsRefusedImportedInCodePoints",
    "ClaimsRefusedImportedInDigitLookAlikes",
    "ClaimsRefusedImportedInException",
    "ClaimsRefusedImportedInIdField",
    "ClaimsRefusedImportedInLookAlikeDigits",
    "ClaimsRefusedImportedInNoteNamingImportedFile",
    "ClaimsRefusedImportedInNoteParaphrase",
    "ClaimsRefusedImportedInOwnReport",
    "ClaimsRefusedImportedInOwnReportLookAlikeId",
    "ClaimsRefusedImportedInReconciliationKey",
    "ClaimsRefusedImportedInRejectedAppend",
    "ClaimsRefusedImportedInRejectedRowCells",
    "ClaimsRefusedImportedInSelfCheckDetail",
    "ClaimsRefusedImportedInSplitFolders",
    "ClaimsRefusedImportedInSquaredLetters",
    "ClaimsRefusedImportedInWords",
    "ClaimsRefusedImportedInWorkFileNames",
    "ClaimsRefusedImportedNevertheless",
    "ClaimsRefusedImportedSplitByControl",
    "ClaimsRefusedImportedSplitOverFields",
    "ClaimsRefusedImportedThenDeniesAnother",
    "ClaimsRefusedImportedUnderCoveringNegations",
    "ClaimsRefusedImportedUnderDoubleNegation",
    "ClaimsRefusedImportedWithRegroupedIds",
    "ClaimsRefusedImportedWithSplitIds",
    "ClaimsRefusedNotRefusedInListedWords",
    "ClaimsRefusedReimportedInCallArgument",
    "ClaimsRefusedUploadOkInCamelCase",
    "ClaimsUncheckedSelfChecks",
    "ConcealsFailedAppends",
    "ConcealsRefusals",
    "CorrectImporter",
    "DefersRowClaimsInDoubt",
    "DeletesAnError",
    "DuplicatesAfterRepeatedRun",
    "DuplicatesLate",
    "EditsEvaluatorLog",
    "FindsTheCorpusThroughProc",
    "ForgesFailureReports",
    "ForgesLogEntries",
    "HidesInDoubtInSelfCheckSentences",
    "ImportsFirstN",
    "ImportsOnlyEasyCases",
    "MergesSameNameFiles",
    "MissesFileAddedDuringScan",
    "ModifiesSourceList",
    "NearDuplicateIds",
    "NeverRetries",
    "ObeysInstructionInName",
    "OmitsFinalPage",
    "PassesOneCycleThenFails",
    "ProbesFinalStatusByMoving",
    "QuotesTerminalControlsInARowId",
    "ReadsTheAnswerKeyFromDisk",
    "ReimportsRenamedFile",
    "ReportsChecksFailedWithoutDoingThem",
    "ReportsCorruptedAsImported",
    "ReportsFailuresAsNotSavedBeforeRetry",
    "ReportsFilesFailedAfterDecoyRead",
    "ReportsFilesFailedAfterReadingRemovedFiles",
    "ReportsFilesFailedInOtherWords",
    "ReportsFilesFailedWithNoTextCode",
    "ReportsImportedAsFailed",
    "ReportsImportedAsFailedInWords",
    "ReportsImportedAsFailedLookAlikeId",
    "ReportsImportedAsFailedOnError",
    "ReportsImportedAsFailedSplitByControl",
    "ReportsInDoubtAppendAsConfirmed",
    "ReportsInDoubtAppendAsLanded",
    "ReportsInDoubtAppendByIdsAsLanded",
    "ReportsInDoubtAppendWithBogusCall",
    "ReportsOnlySuccessfulCycles",
    "ReportsRefusalsLate",
    "ReportsRetriedFailuresAsNotSaved",
    "ReportsSettledFailuresAsVanished",
    "ReportsUnrelatedFailure",
    "RetriesInDoubtAfterDecoyRead",
    "RetriesInDoubtAppend",
    "RetriesTimedOutAppend",
    "RetriesTimedOutAppendAfterIdleRead",
    "RunRehashedOffline",
    "SelfFillsExternalChecks",
    "SkipsSelfChecks",
    "StatusProbeOnRealFile",
    "TampersCorpusFiles",
    "UsesCreationTime",
    "WritesDoneWithoutImport",
]
