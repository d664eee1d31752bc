"""`residual-risks.md`: what the published evaluation does not establish (pilot §16 "residual
risks are published"; in the spirit of the SI profile's scope notes: a score says what was
measured, and the bundle says what was not).

The fixed part is the scope of pilot 03 as provebench implements it; the facts part is taken
from the bundle itself (which levels it holds, what the shadow stream could not show), so a
reader sees the gaps of *this* evaluation, not a generic disclaimer.
"""

from __future__ import annotations

from pathlib import Path

from provebench._errors import ProvebenchError
from provebench._read_once import read_once
from provebench.pilot.corpus import Corpus

_SCOPE = """\
# Residual risks

What this evaluation does not establish. Each point is a limit of the method or of this
bundle, not a finding about the candidate.

## Limits of the method

- **The laboratory is synthetic.** Its corpora follow the published grammar, mapping table and
  time rule (pilot §4); a production stream may hold names, types or metadata no corpus held.
  A laboratory pass does not replace the operational check (pilot §2).
- **Faults are the laboratory's.** Temporary API errors, pagination shifts and files added during
  a scan are injected from a seeded schedule. Recovery from faults of other kinds (quota
  exhaustion over hours, partial outages, clock skew) is not measured.
- **Costs are not scored.** API calls, retries, tokens and wall time are reported as non-scoring
  (pilot §13); a correct but expensive candidate passes.
- **The red team is finite.** The attacks of pilot §14 at the recorded budget were caught; an
  attack outside the catalogue was not tried. A new exploit found later is a §15 stopping
  condition and a reason to re-evaluate.
- **The sandbox is a sandbox.** Isolation rests on bubblewrap's namespaces and the kernel
  (docs/sandbox.md); a kernel exploit or a side channel is out of scope.
- **Signatures say who, not whether.** Every file is signed with the laboratory key in the
  bundle: a reader must compare that key with the one the laboratory announced, and trust the
  operator who holds it (docs/attestation.md).
- **Language models vary.** A model-backed candidate's behaviour depends on the served model and
  its sampling; one run of it is one sample (see pass^k over repeated trials).

## Limits of the shadow level

- **Pseudonyms keep shapes and times.** File names keep their call timestamps, durations and
  sizes; file ids, folder ids, phone numbers, manager codes and free text are keyed pseudonyms
  (`pseudonym/1`). Timing and duration patterns can still be quasi-identifying to someone who
  holds other records of the same calls.
- **Free text is replaced.** Instruction-like text in real names or metadata becomes a token, so
  the shadow level does not test injection resistance; the laboratory and the red team do.
- **Snapshots are moments.** A file that appeared and vanished between two captures is invisible;
  no fault is invented, so recovery on the shadow stream is measured only on the faults that
  really happened between captures (usually none).
- **A file is fixed at first sight.** The event model (`drive-events/2`) has no change of size,
  duration, type, creation time or metadata for a known file; such real changes are counted in
  each shadow corpus's `shadow_origin.json` and listed below.
"""


# The operator's own page is prose for readers, never an input: bounded so that it stays one.
MAX_OPERATOR_RISKS_BYTES = 256 * 1024


def read_operator_risks(path: Path) -> str:
    """The operator's residual risks (`--risks`): UTF-8 Markdown, not empty, at most
    `MAX_OPERATOR_RISKS_BYTES`; a one-line error naming the file otherwise.

    Read by the one opener (`read_once`): no link followed, a regular file only, and never a
    file of the laboratory's key folder by any name (red team round 13, H4: a `--risks`
    replaced by a link to the private key put the key in a bundle that verified)."""
    try:
        data = read_once(path, max_bytes=MAX_OPERATOR_RISKS_BYTES).data
    except ProvebenchError as error:
        raise ProvebenchError(error.message, path=path, field="--risks") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise ProvebenchError(
            f"not UTF-8 text (byte {error.start})", path=path, field="--risks"
        ) from None
    if not text.strip():
        raise ProvebenchError("empty: say what the evaluation does not establish", path=path,
                              field="--risks")  # fmt: skip
    return text


def residual_risks_markdown(
    corpora: list[tuple[str, Corpus]], *, redteam: bool, operator: str | None = None
) -> str:
    """The bundle's residual-risks page: the fixed scope, then this bundle's own gaps, then
    what the operator states (`--risks`), verbatim under its own heading."""
    lines = [_SCOPE, "## This bundle", ""]
    profiles = {corpus.info.config.profile for _, corpus in corpora}
    if "shadow" not in profiles:
        lines.append(
            "- **No shadow level.** Every run here is a laboratory run: nothing shows how the "
            "candidate operates on real metadata (pilot §2)."
        )
    if "control" not in profiles:
        lines.append(
            "- **No fresh control.** No run here is on a control corpus made after the candidate "
            "was fixed (pilot §11)."
        )
    if not redteam:
        lines.append(
            "- **No red-team report.** The evaluator's resistance to the §14 attacks is not "
            "evidenced in this bundle."
        )
    for name, corpus in corpora:
        origin = corpus.shadow
        if origin is None:
            continue
        changes = {k: v for k, v in origin.unrepresented_changes.items() if v}
        said = ", ".join(f"{k} {v}" for k, v in changes.items()) if changes else "none"
        lines.append(
            f"- **Shadow corpus `{name}`:** {len(origin.snapshots)} snapshot(s) from "
            f"{origin.snapshots[0].captured_at} to {origin.snapshots[-1].captured_at}; real "
            f"changes the event model could not show: {said}; escrow "
            f"{origin.escrow.rule}, period {origin.escrow.period_days} day(s)."
        )
    if lines[-1] == "":
        lines.append("- Nothing beyond the limits above.")
    if operator is not None:
        lines += ["", "## Stated by the operator", "", operator.strip("\n")]
    return "\n".join(lines) + "\n"


__all__ = ["MAX_OPERATOR_RISKS_BYTES", "read_operator_risks", "residual_risks_markdown"]
