"""Render a verdict as one self-contained HTML page, and write it atomically.

The page is a pure function of the verdict: no timestamps, no random ids, inline CSS, no script
and no external URL. Every value goes through `show` (invisible characters spelled out) and then
Jinja2's autoescape, so text in a verdict can never become markup.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Any, Final

import jinja2

from provebench._canonical import canonical_json, compact_json, sha256_bytes, write_atomic
from provebench._errors import ProvebenchError
from provebench._jsonfile import parse_json_bytes
from provebench._paths import check_output_file
from provebench.report._kind import detect_kind
from provebench.report._matrix_view import matrix_view
from provebench.report._reasons import number
from provebench.report._redteam_view import redteam_view
from provebench.report._signature import NO_FILE, SignatureCheck, check_signature
from provebench.report._suite_view import suite_view
from provebench.report._text import show, visible_text
from provebench.report._view import pilot_view, si_view

MAX_LIST_ITEMS: Final = 50
# Longer lists and tables are folded (`<details>`): a reader sees the count, and opens them.
FOLD_ITEMS: Final = 10
MAX_DEPTH: Final = 8
REPORT_NAME: Final = "report.html"


def _is_list(value: object) -> bool:
    return isinstance(value, list | tuple)


def _is_records(value: object) -> bool:
    """A non-empty list of objects: shown as a table with one column per key."""
    if not isinstance(value, list | tuple) or not value:
        return False
    return all(isinstance(item, Mapping) for item in value)


def _columns(records: list[Mapping[str, Any]]) -> list[str]:
    names: list[str] = []
    for record in records:
        names.extend(key for key in record if key not in names)
    return names


def _scalar_class(value: object) -> str:
    if value is True:
        return "true"
    if value is False:
        return "false"
    if value is None:
        return "null"
    return "num" if isinstance(value, int | float) else "str"


# Fields whose value says whether something is good: only these are coloured (a `vacuous` or
# an `admissible` flag is neither good nor bad, and green/red on it would mislead).
GOOD_WHEN_TRUE: Final = frozenset(
    {
        "scorer_pass",
        "laboratory_pass",
        "pilot_pass",
        "passed",
        "released",
        "outcome",
        "laboratory_finding",
        "attached_passed",
        "preliminary_signal_credited",
        "clean_when_confirmed",
        "same_as_provebench",
        "same_as_ratified",
        "safety_gate_passed",
    }
)
GOOD_STATUSES: Final = frozenset({"clear", "PASS", "pass", "evaluated"})
BAD_STATUSES: Final = frozenset({"triggered", "FAIL", "fail", "configuration_error"})


def _tone(pair: tuple[object, object]) -> str:
    key, value = pair
    if key in GOOD_WHEN_TRUE and isinstance(value, bool):
        return " good" if value else " bad"
    if key in ("status", "safety_gate") and isinstance(value, str):
        if value in GOOD_STATUSES:
            return " good"
        if value in BAD_STATUSES:
            return " bad"
    return ""


def _rounded(value: object) -> object:
    """A float at four significant digits (the exact value goes in the tooltip); any other
    value as it is."""
    return number(value) if isinstance(value, float) else value


def _exact(value: object) -> str:
    """The exact value of a float that is shown rounded, else ""."""
    if isinstance(value, float) and number(value) != repr(value):
        return repr(value)
    return ""


def _compact(value: object) -> str:
    return visible_text(compact_json(value))


@cache
def _environment() -> jinja2.Environment:
    environment = jinja2.Environment(
        loader=jinja2.PackageLoader("provebench.report", "templates"),
        autoescape=True,
        finalize=show,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    environment.tests["jlist"] = _is_list
    environment.tests["records"] = _is_records
    environment.filters["columns"] = _columns
    environment.filters["scalar_class"] = _scalar_class
    environment.filters["compact"] = _compact
    environment.filters["tone"] = _tone
    environment.filters["rounded"] = _rounded
    environment.filters["exact"] = _exact
    environment.globals["max_items"] = MAX_LIST_ITEMS
    environment.globals["max_depth"] = MAX_DEPTH
    environment.globals["fold_items"] = FOLD_ITEMS
    return environment


def render_report(
    verdict: Mapping[str, Any],
    *,
    verdict_sha256: str | None = None,
    evidence: Mapping[str, Any] | None = None,
    attacks: Sequence[Mapping[str, Any]] = (),
    signature: SignatureCheck = NO_FILE,
) -> str:
    """The HTML report of a pilot or SI verdict (pure: same verdict, same text).

    `verdict_sha256` is the sha256 of the verdict file's bytes, which ties the report to the JSON
    a reader holds; without it the sha256 of the verdict's canonical JSON is shown, and said so.
    `evidence` is the SI evidence the verdict scored (its answer is shown marked up); `attacks`
    the red team's attack list (`redteam.json`) beside its summary; `signature` what vouches
    for the verdict's bytes (`check_signature`), shown at the top and under Integrity.
    """
    kind = detect_kind(verdict)
    if verdict_sha256 is None:
        # A lone surrogate is valid in parsed JSON but not in UTF-8; keep it hashable.
        canonical = canonical_json(verdict).encode("utf-8", "surrogatepass")
        digest, digest_of = sha256_bytes(canonical), "canonical"
    else:
        digest, digest_of = verdict_sha256, "file"
    if kind == "pilot":
        view = pilot_view(verdict)
    elif kind == "si":
        view = si_view(verdict, evidence)
    elif kind == "redteam":
        view = redteam_view(verdict, attacks)
    elif kind == "matrix":
        view = matrix_view(verdict)
    else:
        view = suite_view(verdict)
    if verdict.get("sealed") is True and not signature.verified and "reasons" in view:
        # The flag is the verdict's own word: unsigned, it is anyone's (docs/report.md).
        view["reasons"].insert(0, {"text": unvouched_sealed(signature), "anchor": "integrity"})
    foreign = foreign_run(verdict, signature) if kind == "pilot" else None
    if foreign is not None and "reasons" in view:
        view["reasons"].insert(0, {"text": foreign, "anchor": "integrity"})
    template = _environment().get_template(f"{kind}.html.j2")
    return template.render(
        verdict=verdict,
        view=view,
        kind=kind,
        digest=digest,
        digest_of=digest_of,
        signature=signature,
    )


def foreign_run(verdict: Mapping[str, Any], signature: SignatureCheck) -> str | None:
    """The reason shown first when a pilot verdict is about a run another key signed than the
    one that signed the verdict (`pilot evaluate --trust-key OTHER`): another laboratory's run,
    which this laboratory neither credits with a red team or fresh control nor passes (red team
    round 13, H5). None otherwise, or when no verified signature says whose verdict it is."""
    evidence = verdict.get("result_evidence")
    run_signer = evidence.get("run_signer") if isinstance(evidence, Mapping) else None
    if not signature.verified or signature.keyid is None or not isinstance(run_signer, str):
        return None
    if run_signer.startswith(signature.keyid):
        return None
    return (
        f"ANOTHER LABORATORY'S RUN: the run was signed by key {run_signer[:16]}, this verdict by "
        f"key {signature.keyid}; the verdict's laboratory did not run it, credits it with no red "
        "team or fresh control, and does not assess its pilot_pass."
    )


def unvouched_sealed(signature: SignatureCheck) -> str:
    """The reason shown first when a verdict says `sealed: true` and no signature vouches for
    its bytes."""
    return (
        f"NOT VOUCHED FOR: the verdict says it is a sealed result, but its signature is "
        f"{signature.status} ({signature.detail}); anyone holding the file can write that flag, "
        "so this is not shown as a sealed result."
    )


def _load(verdict_path: Path) -> tuple[Any, bytes]:
    try:
        data = verdict_path.read_bytes()
    except OSError as error:
        raise ProvebenchError(
            f"cannot read the verdict: {error.strerror}", path=verdict_path
        ) from None
    # The strict reader every JSON input goes through: deep nesting, duplicate keys, NaN and
    # non-UTF-8 bytes are each one line naming the file.
    return parse_json_bytes(data, source=str(verdict_path)), data


EVIDENCE_NAME: Final = "evidence.json"


def _scored_evidence(verdict_path: Path, verdict: Mapping[str, Any]) -> Any:
    """The evidence beside an SI verdict, when it is the file the verdict scored (its sha256 is
    the verdict's `inputs.evidence_file_sha256`); else None, and the report says so."""
    inputs = verdict.get("inputs")
    wanted = inputs.get("evidence_file_sha256") if isinstance(inputs, Mapping) else None
    path = verdict_path.with_name(EVIDENCE_NAME)
    if not isinstance(wanted, str) or not path.is_file():
        return None
    data = path.read_bytes()
    if sha256_bytes(data) != wanted:
        return None
    evidence = parse_json_bytes(data, source=str(path))
    return evidence if isinstance(evidence, Mapping) else None


# What `provebench report FOLDER` looks for, in this order: a red team's, a suite's, a verdict.
FOLDER_DOCUMENTS: Final = ("redteam-summary.json", "summary.json", "verdict.json")
REDTEAM_ATTACKS_NAME: Final = "redteam.json"


def _document_of(path: Path) -> Path:
    """The file a report is made from: `path`, or the known document inside the folder."""
    if not path.is_dir():
        return path
    for name in FOLDER_DOCUMENTS:
        if (path / name).is_file():
            return path / name
    raise ProvebenchError(
        f"holds none of {', '.join(FOLDER_DOCUMENTS)}: not a red-team, suite or run folder",
        path=path,
    )


def _attacks_beside(summary_path: Path) -> list[Mapping[str, Any]]:
    path = summary_path.with_name(REDTEAM_ATTACKS_NAME)
    if not path.is_file():
        return []
    attacks = parse_json_bytes(path.read_bytes(), source=str(path))
    if not isinstance(attacks, list) or not all(isinstance(a, Mapping) for a in attacks):
        raise ProvebenchError("a red team's attacks are a JSON list of objects", path=path)
    return attacks


def write_report(
    verdict_path: str | Path,
    out_path: str | Path | None = None,
    *,
    trust_key: str | Path | None = None,
) -> Path:
    """Render `verdict_path` (a verdict, a red-team or suite summary, or a folder holding one)
    to `out_path` (default: `report.html` beside the document) atomically. The signature beside
    the document is checked against `trust_key` (a PEM public key), or this laboratory's key."""
    source = _document_of(Path(verdict_path))
    target = source.with_name(REPORT_NAME) if out_path is None else Path(out_path)
    verdict, data = _load(source)
    # Checked here, with the file's name, before anything is rendered or written; the report
    # may not replace the verdict it shows, a folder, a FIFO, a device or a link.
    kind = detect_kind(verdict, source=source)
    check_output_file(target, inputs=[source], field=None if out_path is None else "--out")
    evidence = _scored_evidence(source, verdict) if kind == "si" else None
    attacks = _attacks_beside(source) if kind == "redteam" else []
    signature = check_signature(source, data, None if trust_key is None else Path(trust_key))
    html = render_report(
        verdict,
        verdict_sha256=sha256_bytes(data),
        evidence=evidence,
        attacks=attacks,
        signature=signature,
    )
    write_atomic(target, html)
    return target


__all__ = ["MAX_DEPTH", "MAX_LIST_ITEMS", "REPORT_NAME", "render_report", "write_report"]
