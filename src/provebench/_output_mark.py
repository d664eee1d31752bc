"""The fixed line every human-readable provebench output that shows a scenario's answer begins
with (`si stress`'s table, `si check`'s report, `si score --explain`), which the sandbox refuses
in a candidate's code wherever it lies (`sandbox._outputs`). Before, those outputs carried no
marker at all, and a sealed agent answered from `si stress` or `si check` text saved as
`notes.txt` with no tool call (sandbox red team 42, G1-13 and G1-14). Here, not in an area: the
sandbox imports no area."""

from __future__ import annotations

# What the sandbox looks for: the line's fixed start.
OUTPUT_MARK = "#provebench-output:"


def output_mark_line(command: str) -> str:
    """The first line of `command`'s human-readable output (no line break)."""
    return f"{OUTPUT_MARK} {command} (names a scenario's answer; never in a candidate's code)"


__all__ = ["OUTPUT_MARK", "output_mark_line"]
