"""`--explain`: a readable summary of a verdict (rich), for people; verdict.json stays the record.

Text from the run (file_ids, messages) is printed with markup disabled, so a hostile file name
cannot restyle or hide parts of the summary, and every line is escaped by `_line` (the one
escape set, `provebench._errors.shown`): a reason quotes ids and words the importer chose (an
appended row's file_id, a reason code), and rich writes an escape sequence or a bidi control as
it is (pilot red team 35, A4: a row id of `ESC[2J`, a forged passing headline, U+202E and
`ESC[8m`, quoted by a self-check gap and an escrow tranche, cleared the screen and showed the
forgery). verdict.json keeps the bytes as recorded.
"""

from __future__ import annotations

from rich.console import Console
from rich.table import Table
from rich.text import Text

from provebench._errors import shown as printable
from provebench.pilot.evaluate._escrow import cycle_ranges
from provebench.pilot.evaluate._verdict import Escrow, Metric, MetricSet, Verdict

_METRIC_NAMES = (
    "completeness",
    "precision",
    "uniqueness",
    "field_accuracy",
    "order_correctness",
    "recovery",
    "error_honesty",
    "cycle_stability",
)


_HEADERS = ("compl.", "prec.", "uniq.", "fields", "order", "recov.", "honesty", "stab.")


def _metrics_table(overall: MetricSet, per_cycle: list[tuple[int, MetricSet]]) -> Table:
    table = Table(title="Pilot §7 metrics (– : nothing to judge in that cycle)")
    table.add_column("cycle")
    for header in _HEADERS:
        table.add_column(header, justify="right")
    for cycle, metrics in per_cycle:
        row = [Text(str(cycle))]
        for name in _METRIC_NAMES:
            metric = getattr(metrics, name)
            row.append(Text("–", style="dim") if metric.vacuous else _short(metric))
        table.add_row(*row)
    table.add_row(
        Text("overall", style="bold"), *(_short(getattr(overall, n)) for n in _METRIC_NAMES)
    )
    return table


def _ratios(overall: MetricSet) -> Text:
    """The overall numerators and denominators, as words that wrap: a table column would cut
    `299/299` to `299/2…` in 80 columns."""
    return Text(
        "n/d overall: "
        + "  ".join(
            f"{header} {_ratio(getattr(overall, name)).plain}"
            for header, name in zip(_HEADERS, _METRIC_NAMES, strict=True)
        ),
        style="dim",
    )


def _ratio(metric: Metric) -> Text:
    return Text(f"{metric.numerator}/{metric.denominator}", style="dim")


def _short(metric: Metric) -> Text:
    return Text(f"{metric.value:.2f}", style="green" if metric.value == 1.0 else "red")


def _line(text: str, style: str = "") -> Text:
    """One printed line of the summary, escaped: every line `explain` prints passes here."""
    return Text(printable(text), style=style)


def _released(escrow: Escrow) -> str:
    """What was paid, in words that cannot contradict the credit: a signal credited as 0 says
    so, and nothing is "released" of a signal never credited."""
    if not escrow.preliminary_signal_credited:
        return "nothing to release"
    if escrow.preliminary_signal == 0.0:
        return "the credited signal is 0 (Perf_shadow = 0): nothing to release"
    return f"released {escrow.released_total:.4f} of {escrow.preliminary_signal:.4f}"


def explain(verdict: Verdict, console: Console) -> None:
    if verdict.configuration_errors:
        # A configuration error prints only the errors: the numbers beside them (metrics,
        # violations) come from inputs that are not the run's, or not whole, and would mislead.
        console.print(
            _line(
                f"configuration_error: not evaluated ({len(verdict.configuration_errors)} "
                "configuration error(s); nothing in this verdict is a score)",
                style="bold red",
            )
        )
        for error in verdict.configuration_errors:
            console.print(_line(f"configuration error [{error.code}] {error.located()}", "red"))
        return
    headline = Text()
    headline.append(printable(f"{verdict.status}  "), style="bold")
    headline.append(
        f"scorer_pass={str(verdict.scorer_pass).lower()}  ",
        style="green" if verdict.scorer_pass else "red",
    )
    headline.append(
        f"laboratory_pass={str(verdict.laboratory_pass).lower()}  ",
        style="green" if verdict.laboratory_pass else "red",
    )
    pilot = "null" if verdict.pilot_pass is None else str(verdict.pilot_pass).lower()
    headline.append(f"pilot_pass={pilot}  ")
    headline.append(f"critical_violations={verdict.critical_violation_count}  ")
    if verdict.perf_shadow is not None:
        headline.append(f"Perf_shadow={verdict.perf_shadow:.4f}  ")
    if verdict.perf_shadow_final_state is not None:
        headline.append(f"Perf_shadow_final_state={verdict.perf_shadow_final_state:.4f}")
    console.print(headline)
    if verdict.metrics is not None:
        per_cycle = [(c.cycle, c.metrics) for c in verdict.metrics.per_cycle]
        console.print(_metrics_table(verdict.metrics.overall, per_cycle))
        console.print(_ratios(verdict.metrics.overall))
        shortfalls = verdict.metrics.shortfalls
        for label, ids in (
            ("lost", shortfalls.lost),
            ("late", [f.file_id for f in shortfalls.late]),
            ("unexpected", shortfalls.unexpected),
            ("duplicated", shortfalls.duplicated),
            ("wrong fields", [w.file_id for w in shortfalls.wrong_fields]),
            ("dishonest", shortfalls.dishonest),
        ):
            if ids:
                shown = ", ".join(ids[:8]) + (f" … (+{len(ids) - 8})" if len(ids) > 8 else "")
                # An `unexpected` id is one the importer appended: its text, escaped.
                console.print(_line(f"{label}: {shown}"))
    for violation in verdict.critical_violations:
        numbered = [str(r.seq) for r in violation.evidence if r.seq >= 0]
        seqs = ", ".join(numbered[:6]) + (
            f" and {len(numbered) - 6} more in verdict.json" if len(numbered) > 6 else ""
        )
        where = f" [log seq {seqs}]" if numbered else ""
        # For a refused operation the file id is the importer's argument (pilot red team 32, A8).
        subject = f" {violation.file_id}" if violation.file_id else ""
        cycle = f" cycle {violation.cycle}" if violation.cycle is not None else ""
        console.print(
            _line(
                f"CRITICAL {violation.kind}{cycle}{subject}: {violation.message}{where}",
                style="red",
            )
        )
    if verdict.self_check_missing_cycles:
        console.print(
            _line(
                "pilot §12 final-status probe missing in cycles "
                f"{cycle_ranges(verdict.self_check_missing_cycles)}"
            )
        )
    if verdict.self_check_gaps:
        by_cycle: dict[int, list[str]] = {}
        for gap in verdict.self_check_gaps:
            by_cycle.setdefault(gap.cycle, []).append(f"{gap.check} ({gap.reason})")
        first = min(by_cycle)
        console.print(
            _line(
                f"pilot §12 self-checks not performed in {len(by_cycle)} cycle(s) "
                f"({cycle_ranges(list(by_cycle))}); cycle {first}: {', '.join(by_cycle[first])}"
            )
        )
    for refusal in verdict.refusal_report_gaps:
        seqs = ", ".join(str(r.seq) for r in refusal.evidence if r.seq >= 0)
        if refusal.problem == "names_no_file":
            console.print(
                _line(
                    f"contract rule 2: error {refusal.reported_reason_code} (cycle "
                    f"{refusal.cycle}) reports a file failed, names none and follows no failure"
                    + (f" [log seq {seqs}]" if seqs else "")
                )
            )
            continue
        if refusal.problem == "summary_of_no_published_shape":
            console.print(
                _line(
                    f"contract rule 2: a {refusal.reported_reason_code} entry (cycle "
                    f"{refusal.cycle}, which showed a refused file) is of no published shape"
                    + (f" [log seq {seqs}]" if seqs else "")
                )
            )
            continue
        said = (
            "never reported on failed_file"
            if refusal.reported_reason_code is None and refusal.problem == "unreported"
            # The reason code is the importer's text (pilot red team 32, A8: an escape sequence
            # in it cleared the screen and showed a passing headline).
            else f"reported as {refusal.reported_reason_code}"
        )
        console.print(
            _line(
                f"contract rule 2: refused file {refusal.file_id} "
                f"(cycle {refusal.cycle}) {said}; "
                f"its first failure is {refusal.expected_reason_code}"
                + (f" [log seq {seqs}]" if seqs else "")
            )
        )
    if verdict.faults is not None and verdict.faults.scheduled:
        faults = verdict.faults
        console.print(
            _line(
                f"faults: {faults.exercised} of {faults.scheduled} scheduled exercised, "
                f"{faults.on_appends} on an append"
            )
        )
        for fault in faults.faults:
            if not fault.exercised:
                console.print(
                    _line(
                        f"  not exercised: cycle {fault.cycle} {fault.fault} on {fault.operation} "
                        f"of {fault.file_id}: {fault.reason}"
                    )
                )
    for stop in verdict.stopping_conditions:
        if stop.status == "triggered":
            console.print(_line(f"STOP (pilot §15) {stop.name}: {stop.reason}", style="bold red"))
    if verdict.escrow is not None:
        escrow = verdict.escrow
        console.print(_line(f"escrow: {escrow.reason}; {_released(escrow)}"))
        for tranche in escrow.tranches:
            state = "released" if tranche.released else "held"
            regraded = " (regraded)" if tranche.regraded else ""
            console.print(
                _line(f"  {tranche.name} {tranche.share:.0%}: {state}{regraded} — {tranche.reason}")
            )
        regraded_cycles = [c.cycle for c in escrow.cycles if c.regraded]
        if regraded_cycles:
            console.print(_line(f"  cycles regraded with hindsight: {regraded_cycles}"))
    for check in verdict.external_checks:
        outcome = "—" if check.outcome is None else ("true" if check.outcome else "FALSE")
        # The basis can name a file the user chose.
        console.print(_line(f"  external {check.check}: {outcome} ({check.basis})", "dim"))
    missing = [c.check for c in verdict.external_checks if c.outcome is None]
    if missing:
        console.print(
            _line(f"pilot_pass stays null: no verified evidence for {', '.join(missing)}", "dim")
        )


__all__ = ["explain"]
