"""Published self-check sentences whose slots the log contradicts (pilot red team 46, H4).

The importer imports correctly and reports every failure honestly; only two self-check details
change, in each cycle whose append was left in doubt: the `reconciliation` check says
"source S = known K + imported I + failed F + in doubt 0" (its own sum short of S) and the
`temporary_failure_and_retry` check "append answered 200" (the §12 probe's sentence), both
`passed: true`. Before `call-import-evaluator/10`'s fix the in-doubt slot, the sentence's sum
and the answer slot were never read, and a sentence stood under any check.
"""

from __future__ import annotations

from typing import ClassVar

from provebench.pilot.agents.defective._base import CorrectImporter
from provebench.pilot.lab import TemporaryApiError


class HidesInDoubtInSelfCheckSentences(CorrectImporter):
    """Pilot red team 46, H4: "in doubt 0" and "append answered 200" beside an append in doubt."""

    name: ClassVar[str] = "hides-in-doubt-in-self-check-sentences"

    def run(self) -> None:
        self._in_doubt = False
        self._numbers: dict[str, int] = {}
        super().run()

    def report_in_doubt(self, error: TemporaryApiError, rows: list[list[str]]) -> None:
        self._in_doubt = True
        super().report_in_doubt(error, rows)

    def report_reconciliation(self, **numbers: int) -> None:
        self._numbers = dict(numbers)
        super().report_reconciliation(**numbers)

    def report_checks(self) -> None:
        n = self._numbers
        if self._in_doubt and n:
            lies = {
                "reconciliation": (
                    f"source {n['source']} = known {n['already_known']} + imported "
                    f"{n['imported']} + failed {n['failed']} + in doubt 0"
                ),
                "temporary_failure_and_retry": "append answered 200",
            }
            self.checks = [
                (name, True if name in lies else passed, lies.get(name, detail))
                for name, passed, detail in self.checks
            ]
        super().report_checks()
