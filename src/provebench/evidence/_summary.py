"""`provebench evidence show`: a human summary of one evidence file.

Everything printed from the evidence is printed as plain text, never as rich markup: a tool
response or an answer that contains `[bold]` or a terminal escape must show as the characters it
is, not change the display (data is data).
"""

from __future__ import annotations

from rich.console import Console, Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from provebench._canonical import compact_json
from provebench.evidence._channels import CHANNELS, channel_text
from provebench.evidence._models import Evidence

_PREVIEW_CHARS = 160


def preview(text: str, limit: int = _PREVIEW_CHARS) -> str:
    """One printable line: control characters shown escaped, long text cut with its length."""
    shown = "".join(
        char if char.isprintable() else char.encode("unicode_escape").decode("ascii")
        for char in text[: limit + 1]
    )
    if len(text) > limit:
        shown = f"{shown[:limit]}… ({len(text)} chars)"
    return shown


def _result_shape(body: str) -> str:
    # The three-way distinction of a tool result (OASIS-NOTES), named so a reader sees it.
    if body == "":
        return "(absent)"
    if body == "null":
        return "JSON null"
    if body == '""':
        return "empty JSON string"
    return f"{len(body)} chars"


def _count(value: int | None) -> str:
    return "—" if value is None else str(value)


def render_summary(evidence: Evidence, *, source: str) -> Group:
    """The summary of `evidence` read from `source`, as rich renderables."""
    steps = evidence.steps_to_final_answer()
    overview = Table.grid(padding=(0, 2))
    overview.add_column(style="bold")
    overview.add_column()
    rows = [
        ("file", source),
        # The scenario id is the evidence's text like any other field: escaped, never raw.
        ("scenario", preview(evidence.scenario_id) if evidence.scenario_id else "(none)"),
        ("recorded as", evidence.metadata.source_format),
        ("actions", str(len(evidence.actions))),
        ("final answer", "yes" if evidence.has_final_answer() else "no"),
        ("steps to final answer", "—" if steps is None else str(steps)),
        ("audit log entries", str(len(evidence.audit_log))),
        ("state snapshots", str(len(evidence.state_snapshots))),
    ]
    for label, value in rows:
        overview.add_row(Text(label), Text(value))

    channels = Table(title="Output channels", title_justify="left")
    channels.add_column("channel")
    channels.add_column("chars", justify="right")
    channels.add_column("text")
    for channel in CHANNELS:
        text = channel_text(evidence, channel)
        channels.add_row(Text(channel), Text(str(len(text))), Text(preview(text)))

    actions = Table(title="Tool calls (one step each)", title_justify="left")
    for column in ("#", "tool", "arguments", "result", "error"):
        actions.add_column(column)
    for number, action in enumerate(evidence.actions, start=1):
        error = action.error or ""
        if action.error_code:
            error = f"[{action.error_code}] {error}".strip()
        marker = " ← final answer" if evidence.final_answer_after_step == number else ""
        actions.add_row(
            Text(f"{number}{marker}"),
            Text(preview(action.tool, 40)),
            Text(preview(compact_json(action.arguments), 60)),
            Text(_result_shape(action.result)),
            Text(preview(error, 60)),
        )

    metadata = evidence.metadata
    tokens = metadata.tokens
    facts = Table.grid(padding=(0, 2))
    facts.add_column(style="bold")
    facts.add_column()
    fact_rows: tuple[tuple[str, str | None], ...] = (
        ("agent", metadata.agent_name),
        ("agent version", metadata.agent_version),
        ("model", metadata.model),
        ("duration_ms", None if metadata.duration_ms is None else f"{metadata.duration_ms:g}"),
        (
            "tokens in/out/total",
            " / ".join(_count(n) for n in (tokens.input, tokens.output, tokens.total)),
        ),
        ("unmodelled source fields", ", ".join(metadata.source_extra_fields) or None),
    )
    for fact, known in fact_rows:
        facts.add_row(Text(fact), Text(preview("—" if known is None else known)))
    return Group(
        overview,
        channels,
        actions,
        Panel(facts, title="Non-scoring metadata (reported, never scored: SI §4)", expand=False),
    )


def print_summary(evidence: Evidence, *, source: str, console: Console) -> None:
    console.print(render_summary(evidence, source=source))


__all__ = ["preview", "print_summary", "render_summary"]
