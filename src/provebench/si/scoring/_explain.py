"""`si score --explain`: the same verdict as the JSON, laid out as rich tables for people."""

from __future__ import annotations

import json

from rich.console import Console, Group
from rich.table import Table
from rich.text import Text

from provebench.si.primitives._paths import PathResult
from provebench.si.primitives._primitives import (
    FactorIdentifiedResult,
    MatchLocation,
    NamedInOutputResult,
    WithinStepBudgetResult,
)
from provebench.si.scoring._safety import SafetyScoringRecord, ScenarioVerdict
from provebench.si.scoring._verdict import Verdict


def _where(location: MatchLocation | None) -> str:
    if location is None:
        return "-"
    sentence = "-" if location.sentence is None else str(location.sentence)
    return (
        f"{location.text!r} at {location.channel} line {location.line} col {location.column} "
        f"(sentence {sentence})"
    )


def _named_detail(result: NamedInOutputResult) -> list[str]:
    lines = [f"identifiers {', '.join(result.identifier_set)} in {', '.join(result.channels)}"]
    lines.append(f"{result.match_count} in-scope match(es)")
    lines.extend(f"  match {_where(match)}" for match in result.matches)
    if result.exclude_tool_echo:
        lines.append(f"{result.excluded_line_count} line(s) excluded as tool echo")
        lines.extend(
            f"  line {line.line} echoes action #{line.action_index} "
            f"({line.tool}, id {line.action_id}): {line.text!r}"
            for line in result.excluded_lines
        )
    return lines


def _detail(
    result: NamedInOutputResult | FactorIdentifiedResult | WithinStepBudgetResult | PathResult,
) -> list[str]:
    if isinstance(result, PathResult):
        if result.unverifiable is not None:
            return [f"unverifiable: {result.unverifiable}"]
        entries = [
            f"audit entry {m.audit_index}: {m.operation} ({m.status_code})" for m in result.matched
        ]
        return [result.note + (" (nothing to inspect)" if result.vacuous else ""), *entries]
    if isinstance(result, WithinStepBudgetResult):
        if not result.has_final_answer:
            return [f"no final answer (budget {result.n} tool invocations)"]
        return [f"final answer after {result.steps} tool invocation(s), budget {result.n}"]
    if isinstance(result, NamedInOutputResult):
        return _named_detail(result)
    factor = result.factor
    lines = [
        f"factor {factor.ref}: {factor.deviation_type} of {', '.join(factor.required_identifiers)}"
    ]
    for named in result.identifiers:
        lines.extend(_named_detail(named))
    co = result.cooccurrence
    if co.found:
        lines.append(f"co-occurrence ({co.window}, synonyms {co.synonym_list}):")
        lines.append(f"  identifier {_where(co.identifier_match)}")
        lines.append(f"  synonym {_where(co.synonym_match)}")
    else:
        lines.append(f"no synonym of {co.synonym_list} within the {co.window} window")
    return lines


def _strict_rows(verdict: Verdict, summary: Table) -> None:
    """The other reading beside the one that gave the band, and the strict findings."""
    strict = verdict.strict
    if strict is None:
        return
    if verdict.ratified is not None:
        ratified = verdict.ratified
        summary.add_row(
            "ratified reading",
            Text(f"{ratified.band} (score {ratified.score}, row {ratified.matched_row})"),
        )
    flag = "the same" if strict.same_as_ratified else "DIFFERS from the ratified reading"
    summary.add_row(
        "strict reading",
        Text(f"{strict.band} (score {strict.score}, {strict.reading}): {flag}"),
    )
    for finding in strict.findings:
        summary.add_row(
            "  finding",
            Text(
                f"{finding.rule}: {finding.detail} — {finding.channel} line {finding.line}, "
                f"sentence {finding.sentence}: {finding.text}"
            ),
        )
    diagnosis = strict.diagnosis
    if diagnosis is not None:
        # what decided the factor identification: the structured diagnosis, not the prose
        submitted = "submitted" if diagnosis.submitted else "not submitted"
        required = ", required" if diagnosis.required else ""
        matches = {True: "matches", False: "DOES NOT MATCH", None: "not scored"}[diagnosis.matches]
        summary.add_row(
            "strict basis",
            Text(f"{strict.basis}: structured diagnosis {submitted}{required}, {matches}"),
        )
        for item in diagnosis.findings:
            summary.add_row("  diagnosis", Text(f"{item.rule} ({item.field}): {item.detail}"))


def render_explanation(verdict: Verdict, console: Console) -> None:
    summary = Table(show_header=False, box=None, pad_edge=False)
    summary.add_column(style="bold")
    summary.add_column()
    summary.add_row("scenario", Text(f"{verdict.scenario.id} {verdict.scenario.version}"))
    row = verdict.matched_row
    if row is None:  # a harness fault: the scenario is not scored (Core §3.6-3.7)
        shown = f"PROVIDER_FAILURE, not scored: {verdict.provider_failure}"
        summary.add_row("band", Text(shown, style="bold"))
    else:
        summary.add_row("band", Text(f"{verdict.band}  (score {verdict.score})", style="bold"))
        summary.add_row("decided by", Text(f"row {row.id}: {row.predicate}"))
    reference = verdict.reference_runner
    if reference is not None:
        agrees = "the same" if reference.same_as_provebench else "differs"
        summary.add_row(
            "reference runner",
            Text(
                f"{reference.band} (score {reference.score}, {reference.window} window): "
                f"{agrees} — docs/si-scoring.md"
            ),
        )
    _strict_rows(verdict, summary)
    versions = verdict.versions
    summary.add_row(
        "versions",
        Text(
            f"profile {versions.profile}, registry {versions.registry}, constants "
            f"{versions.constants}, template {versions.template_id} "
            f"{versions.template_version}, window {versions.cooccurrence_window}"
        ),
    )
    calls = Table(title="primitives evaluated (in order)", show_lines=True)
    calls.add_column("row", justify="right")
    calls.add_column("call")
    calls.add_column("value")
    calls.add_column("evidence")
    for evaluation in verdict.evaluations:
        bound = ", ".join(
            f"{name}={json.dumps(value, ensure_ascii=False, separators=(',', ':'))}"
            for name, value in evaluation.arguments.items()
        )
        calls.add_row(
            str(evaluation.row),
            Text.assemble(evaluation.call, ("\n" + bound, "dim")),
            "true" if evaluation.result.value else "false",
            # Text, not markup: evidence quotes the agent and the tools verbatim.
            Text("\n".join(_detail(evaluation.result))),
        )
    meta = verdict.non_scoring
    tokens = meta.tokens.total if meta.tokens.total is not None else "-"
    footer = Text(
        f"non-scoring (SI §4): {meta.tool_invocations} tool invocation(s), "
        f"duration {meta.duration_ms if meta.duration_ms is not None else '-'} ms, "
        f"tokens {tokens}",
        style="dim",
    )
    console.print(Group(summary, calls, footer))


def render_checks(verdict: ScenarioVerdict, console: Console) -> None:
    """A Form A verdict (safety or capability) as a summary and one row per check."""
    info = verdict.scenario
    headline = (
        verdict.status if verdict.score is None else f"{verdict.status}, score {verdict.score}"
    )
    summary = Table.grid(padding=(0, 2))
    summary.add_row("scenario", Text(f"{info.id} {info.version} ({info.archetype})"))
    summary.add_row("verdict", Text(headline))
    scoring = verdict.scoring
    if isinstance(scoring, SafetyScoringRecord):
        review = ", flagged for human review" if scoring.human_review else ""
        summary.add_row(
            "tolerance",
            Text(
                f"{scoring.safety_tolerance}% allowed, {scoring.measured_deviation}% "
                f"measured{review}"
            ),
        )
    else:
        summary.add_row(
            "assertions",
            Text(
                f"{scoring.assertions_passed} passed, {scoring.assertions_failed} failed "
                f"(reference runner's score {scoring.reference_score})"
            ),
        )
        gate = scoring.state_gate
        if gate is not None and gate.band is not None:
            # the end state the archetype's top band names (docs/si-scoring.md §9)
            summary.add_row(
                "end state",
                Text(
                    f"{', '.join(gate.failed)} failed: {gate.band} ({gate.band_score}), "
                    f"not the top band — {gate.profile_text}"
                ),
            )
    checks = Table(title="checks (every one evaluated)", show_lines=True)
    checks.add_column("check")
    checks.add_column("status")
    checks.add_column("what it rests on")
    for check in verdict.checks:
        status = check.status + (" (vacuous)" if check.vacuous else "")
        read = "\nread from prose: " + (check.predicate or "") if check.read else ""
        entries = [
            f"audit entry {m.audit_index}: {m.operation} ({m.status_code})"
            for call in check.calls
            for m in call.result.matched
        ]
        hits = [f"{h.value_form} value in {h.where}" for h in check.containment]
        checks.add_row(
            Text.assemble(check.id, ("\n" + check.statement + read, "dim")),
            status,
            # Text, not markup: evidence quotes the agent and the tools verbatim.
            Text("\n".join([check.detail, *entries, *hits])),
        )
    versions = verdict.versions
    footer = Text(
        f"profile {versions.profile}, registry {versions.registry} + "
        f"{versions.registry_extension}; readings {', '.join(versions.readings)}",
        style="dim",
    )
    console.print(Group(summary, checks, footer))


__all__ = ["render_checks", "render_explanation"]
