"""Rendering of a `ValidationReport` for people (rich text) and machines (canonical JSON)."""

from __future__ import annotations

from rich.console import Console
from rich.text import Text

from provebench._canonical import canonical_json
from provebench._errors import shown
from provebench.si.scenario._validate import ValidationReport

# The format of `si validate --format json` (docs/si-scenarios.md).
VALIDATE_FORMAT = "provebench.si.validate/1"


def render_json(report: ValidationReport) -> str:
    """`si validate --format json`: the report, named by its format as provebench's output (as
    every report it prints for machines is: sandbox red team 41, SB7)."""
    return canonical_json({"format": VALIDATE_FORMAT, **report.model_dump(mode="json")})


def render_text(report: ValidationReport, console: Console) -> None:
    """One ``FILE:LINE: FIELD: message [rule]`` line per violation, then a summary line."""
    for violation in report.violations:
        line = Text()
        # A file name, a key or a value quoted in a message is data: its control characters are
        # shown as escapes, so none breaks the one-violation-per-line form or drives the terminal.
        line.append(f"{shown(violation.file)}:{violation.line}", style="bold")
        line.append(": ")
        line.append(shown(violation.field) or "(document)", style="cyan")
        line.append(": ")
        warning = violation.severity == "warning"
        line.append(shown(violation.message), style="yellow" if warning else "red")
        line.append(f" [{violation.rule}]", style="dim")
        if warning:
            line.append(" (warning)", style="yellow")
        console.print(line, soft_wrap=True)
    files = len(report.files)
    summary = (
        f"{report.scenarios} scenario(s) in {files} file(s): "
        f"{report.errors} error(s), {report.warnings} warning(s) "
        f"(SI profile {report.profile_version}, registry {report.registry})"
    )
    console.print(Text(summary, style="bold red" if report.errors else "bold green"))


__all__ = ["render_json", "render_text"]
