"""The pilot 03 red team (pilot §14): every attack as a defective importer, run over generated
corpora at the §14 budget and judged by the evaluator (docs/pilot-redteam.md)."""

from provebench.pilot.redteam._budget import MINIMUM, PLANS, BudgetLevel, CorpusPlan
from provebench.pilot.redteam._catalogue import ATTACKS, Attack, agents_of
from provebench.pilot.redteam._harness import (
    REPORT_FILE,
    SUMMARY_FILE,
    RedteamReport,
    run_redteam,
)
from provebench.pilot.redteam._judge import judge_attack, positive_signal, signals

__all__ = [
    "ATTACKS",
    "MINIMUM",
    "PLANS",
    "REPORT_FILE",
    "SUMMARY_FILE",
    "Attack",
    "BudgetLevel",
    "CorpusPlan",
    "RedteamReport",
    "agents_of",
    "judge_attack",
    "positive_signal",
    "run_redteam",
    "signals",
]
