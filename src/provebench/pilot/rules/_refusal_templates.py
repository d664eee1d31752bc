"""The published shape of an importer's text about a refused file (agent contract rule 2;
`call-import-evaluator/7`, pilot red team 43, A1, A2, A8, A9, F1, F2).

Round 42 read that text by a closed SET of words; round 43 composed claims of them: "not
refused: the file is valid; append values on sheets", "sheets append values <id>: http 201
created", `U+0049 U+004D U+0050 …` (IMPORTED, code points read as numbers) and the work path
`sheets/append/values/not/refused/<id>.json` all passed, while the contract's own descriptions
("`duration_sec` missing", "a control character U+0007 at position 42") and the value seen of
an unsupported mime type ("mime type video/mp4 is not one of …") failed. A closed set of words
does not close what they say; a closed set of sentences does.

So the detail of a `failed_file` entry (and of an `error` entry naming a refused file) is empty,
the reference rules' own detail for that file (`rules/_decide.py`, `rules/_grammar.py`), or one
of `REFUSAL_DETAIL_TEMPLATES` of a reason code the file has or of `ANY_REASON_TEMPLATES`,
optionally after the file's id and `:` or a blank. A template's slots hold only what is true of
THAT file (`detail_fits`):

- `{mime_type}`, `{value}`: a whole quotation of a value the laboratory served for the file (any
  served field: name, mime_type, created_at_utc, size_bytes, duration_sec, folder_id, a metadata
  value), verbatim or as the gateway escapes it; `{field}` the name of the field it is;
- `{size_bytes}`, `{duration_sec}`, `{name_length}`: the file's own number;
- `{code_point}` and `{position}`: `U+XXXX` (4 to 6 hex digits, either case) of a character the
  grammar forbids and the place (from 0) where the name holds that very character;
- `{segment}`: `N (part)` of a part of the name that does not conform;
- `{offset}`, `{year}`: the name's own offset text and year.

The literal text of a template is read in any case, a blank in it matches any run of blanks
(space, tab, CR, LF), a `_` in a field name matches a space too ("mime type"), and one final `.`
is allowed. Anything else is a report that the file went through: fail closed.

A path in the importer's work directory that names a refused file is exactly
`<filing word>/<file_id>.<extension>`, with a word of `WORK_FILING_WORDS` and an extension of
`WORK_FILE_EXTENSIONS` (A9).
"""

from __future__ import annotations

import math
import re
from collections.abc import Collection, Iterable, Sequence
from functools import cache
from typing import TYPE_CHECKING

from provebench._errors import shown
from provebench.pilot.rules._decide import SUPPORTED_MIME_TYPES, decide_row
from provebench.pilot.rules._grammar import (
    EXTENSIONS,
    FIRST_YEAR,
    LAST_YEAR,
    MAX_NAME_LENGTH,
    NameRejection,
    mismatched_segments,
    name_shape,
    parse_name_fields,
)
from provebench.pilot.rules._report_vocabulary import UNSETTLED_REPORT_WORDS
from provebench.pilot.rules._rows import Refusal

if TYPE_CHECKING:  # the event model is the corpus's; a rule only reads a file's fields
    from provebench.pilot.corpus._model import DriveFile

_MIMES = ", ".join(SUPPORTED_MIME_TYPES)
_EXTENSIONS = ", ".join(EXTENSIONS)

# Per reason code, the sentences a detail may be (the module's doc). The contract prints them
# (rule 2), and its own description of each reason code is one of them (pilot red team 43, F2).
_SENTENCES: dict[str, tuple[str, ...]] = {
    "invalid_file_id": ("file_id is malformed",),
    "unsupported_mime_type": (
        f"mime_type is not one of {_MIMES}",
        f"mime_type {{mime_type}} is not one of {_MIMES}",
    ),
    "corrupted_empty_file": ("size_bytes is {size_bytes}",),
    "corrupted_unreadable_duration": (
        "duration_sec could not be read",
        "duration_sec missing",
        "duration_sec is missing",
    ),
    "corrupted_non_positive_duration": ("duration_sec is {duration_sec}",),
    "name_too_long": (
        f"{{name_length}} characters, at most {MAX_NAME_LENGTH}",
        f"name has {{name_length}} characters, more than {MAX_NAME_LENGTH}",
        f"more than {MAX_NAME_LENGTH} characters",
    ),
    "name_forbidden_character": (
        "{code_point} at position {position}",
        "a control character {code_point} at position {position}",
        "a lone surrogate {code_point} at position {position}",
        "a forbidden character {code_point} at position {position}",
    ),
    "name_not_conforming": (
        f"extension is not one of {_EXTENSIONS}",
        "segment {segment} does not conform",
        "empty tag",
        "the name has not the grammar's shape",
    ),
    "name_invalid_timestamp": (
        "offset {offset} out of range",
        "offset -0000 is not allowed (write +0000 or Z)",
        f"year {{year}} outside {FIRST_YEAR}..{LAST_YEAR}",
        "not a calendar date-time",
        "an offset over 14:00",
        "minutes over 59",
        "no such date or time of day",
    ),
}
# Each reason code's own name is a sentence of it too ("name_not_conforming").
REFUSAL_DETAIL_TEMPLATES: dict[str, tuple[str, ...]] = {
    code: (code, *sentences) for code, sentences in _SENTENCES.items()
}
# Of any reason code: the value seen of one of the file's served fields, or that it was refused.
ANY_REASON_TEMPLATES: tuple[str, ...] = (
    "{field} is {value}",
    "refused",
    "refused by the admissibility rules",
)
# The served fields a `{field}` slot names (`DriveFile` and its metadata).
SERVED_FIELDS: tuple[str, ...] = (
    "file_id", "name", "created_at_utc", "mime_type", "size_bytes", "duration_sec", "folder_id",
    "direction", "phone", "manager_code",
)  # fmt: skip
# The codes an `error` entry naming a refused file may give, besides the reason codes.
REFUSED_FILE_ERROR_CODES: tuple[str, ...] = ("refused", "file_refused", "failed_file")
# A work path naming a refused file: `<filing word>/<file_id>.<extension>` and nothing else.
WORK_FILING_WORDS: tuple[str, ...] = ("refused", "refusals", "failed", "failures", "decisions")
WORK_FILE_EXTENSIONS: tuple[str, ...] = ("json", "txt")

_NUMBER = r"[-+]?(?:[0-9]+(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?|nan|inf)"
_SLOTS: dict[str, str] = {
    "mime_type": r".+",
    "value": r".+",
    "field": r"[a-z_ ]+",
    "size_bytes": _NUMBER,
    "duration_sec": _NUMBER,
    "name_length": r"[0-9]+",
    "code_point": r"[Uu]\+[0-9A-Fa-f]{4,6}",
    "position": r"[0-9]+",
    "segment": r"[0-9]+ \([a-z ]+\)",
    "offset": r"[-+][0-9]{4}",
    "year": r"[0-9]{1,4}",
}
_FAILURE_REPORT = frozenset((*UNSETTLED_REPORT_WORDS, "read", "get", "failed", "fail"))
_SLOT = re.compile(r"\{([a-z_]+)\}")
_BLANKS = " \t\r\n"


def _literal(text: str) -> str:
    """The regex of a template's literal text: any case, a blank any run of blanks, a `_` a
    `_` or a blank."""
    pattern = "".join(
        "[ \t\r\n]+" if char == " " else "[_ ]" if char == "_" else re.escape(char) for char in text
    )
    return f"(?i:{pattern})" if pattern else ""


@cache
def _compiled(template: str) -> re.Pattern[str]:
    parts: list[str] = []
    at = 0
    for slot in _SLOT.finditer(template):
        parts.append(_literal(template[at : slot.start()]))
        parts.append(f"(?P<{slot.group(1)}>{_SLOTS[slot.group(1)]})")
        at = slot.end()
    parts.append(_literal(template[at:]))
    return re.compile("".join(parts) + r"\.?", re.DOTALL)


def _number_forms(value: float | int | None) -> set[str]:
    if value is None:
        return set()
    if isinstance(value, int):
        return {str(value)}
    forms = {repr(value), str(value)}
    if math.isfinite(value) and value == int(value):
        forms.add(str(int(value)))
    return {form.lower() for form in forms}


def _served_fields(file: DriveFile) -> dict[str, str]:
    served: dict[str, str] = {
        "file_id": file.file_id,
        "name": file.name,
        "created_at_utc": file.created_at_utc,
        "mime_type": file.mime_type,
        "size_bytes": str(file.size_bytes),
        "folder_id": file.folder_id,
    }
    if file.duration_sec is not None:
        served["duration_sec"] = str(file.duration_sec)
    metadata = file.metadata
    if metadata is not None:
        for key in ("direction", "phone", "manager_code"):
            value = getattr(metadata, key)
            if isinstance(value, str):
                served[key] = value
    return served


def _quoted(candidate: str, value: str) -> bool:
    return bool(value) and candidate in (value, shown(value))


def _slots_true(slots: dict[str, str], file: DriveFile) -> bool:
    """Whether every slot of a matched template holds what is true of `file`."""
    name = file.name
    for slot, said in slots.items():
        if slot == "mime_type":
            ok = _quoted(said, file.mime_type)
        elif slot == "value":
            field = slots.get("field", "").replace(" ", "_").lower()
            ok = _quoted(said, _served_fields(file).get(field, ""))
        elif slot == "field":
            ok = said.replace(" ", "_").lower() in SERVED_FIELDS
        elif slot == "size_bytes":
            ok = said.lower() in _number_forms(file.size_bytes)
        elif slot == "duration_sec":
            ok = said.lower() in _number_forms(file.duration_sec)
        elif slot == "name_length":
            ok = said == str(len(name))
        elif slot == "code_point":
            position = int(slots["position"])
            ok = position < len(name) and int(said[2:], 16) == ord(name[position])
            ok = ok and bool(forbidden_at(name, position))
        elif slot == "position":
            ok = True  # read with `code_point`
        elif slot == "segment":
            ok = f"segment {said} does not conform" in mismatched_segments(name)
        elif slot == "offset":
            ok = said == (name_shape(name) or {}).get("offset")
        elif slot == "year":
            date = (name_shape(name) or {}).get("date", "")
            ok = bool(date) and said.lstrip("0") == date[:4].lstrip("0")
        else:  # pragma: no cover - every slot is one of `_SLOTS`
            ok = False
        if not ok:
            return False
    return True


def forbidden_at(name: str, position: int) -> bool:
    """Whether the grammar forbids the character at `position` of `name`."""
    char = name[position]
    return char == "/" or ord(char) < 0x20 or 0x7F <= ord(char) <= 0x9F or _surrogate(char)


def _surrogate(char: str) -> bool:
    return 0xD800 <= ord(char) <= 0xDFFF


def reason_codes_of(file: DriveFile) -> tuple[str, ...]:
    """The reason code the reference rules refuse `file` with, or none (it is admissible)."""
    decided = decide_row(file, "UTC")  # a refusal does not depend on the zone
    return (decided.reason_code,) if isinstance(decided, Refusal) else ()


def reference_details(file: DriveFile) -> tuple[str, ...]:
    """The reference rules' own detail for `file` (`rules/_decide.py`, `rules/_grammar.py`)."""
    decided = decide_row(file, "UTC")
    if isinstance(decided, Refusal):
        return (decided.detail,)
    parsed = parse_name_fields(file.name)
    return (parsed.detail,) if isinstance(parsed, NameRejection) else ()


def detail_fits(detail: str, versions: Iterable[DriveFile], ids: Collection[str] = ()) -> bool:
    """Whether `detail` is empty, the reference rules' detail, or a template of a reason code
    of a served version of the file (`versions`, its name changed by a rename among them), its
    slots true of that version; after one of the entry's `ids` and `: ` where it begins
    (the module's doc)."""
    return slot_text(detail, versions, ids) is not None


def slot_text(detail: str, versions: Iterable[DriveFile], ids: Collection[str] = ()) -> str | None:
    """What of `detail` is the importer's own: its slots' text, each apart (`\n`), when it fits
    (`detail_fits`); `""` for an empty detail or the reference rules' own; None when it does not
    fit. Only this may name another file of the corpus (pilot red team 44, F1: the literal
    words of the published template "mime_type is not one of audio/mpeg, audio/wav, audio/ogg,
    audio/mp4" read as naming a corpus file served as `audio.mp4`, and the reference importer's
    honest refusal reports became claims)."""
    text = detail.strip(_BLANKS)
    for file_id in sorted(ids, key=lambda each: (-len(each), each)):
        rest = text[len(file_id) :]
        if file_id and text.startswith(file_id) and rest[:1] in (":", *_BLANKS):
            text = rest[1:].strip(_BLANKS)
            break
    if not text:
        return ""
    for file in versions:
        if text in reference_details(file) or text.rstrip(".") in reference_details(file):
            return ""
        templates = [
            template
            for code in reason_codes_of(file)
            for template in REFUSAL_DETAIL_TEMPLATES.get(code, ())
        ]
        for template in (*templates, *ANY_REASON_TEMPLATES):
            matched = _compiled(template).fullmatch(text)
            if matched is not None and _slots_true(matched.groupdict(), file):
                return "\n".join(matched.groupdict().values())
    return None


# Where a report's text parts into words (as `evaluate/_refusal_reports.py` parts a rule-8
# report): any character other than a letter or a digit, a case change, a letter beside a digit.
_PARTS = re.compile(
    r"[\W_]+|(?<=[^\W\d_])(?=\d)|(?<=\d)(?=[^\W\d_])|(?<=[a-z])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])"
)
# The HTTP codes of a temporary failure (rule 8): the only numbers of such a report.
FAILURE_NUMBERS: tuple[str, ...] = ("429", "500", "503")


def says_call_failed_only(text: str, ids: Collection[str] = ()) -> bool:
    """Whether an `error` entry's code or detail naming a refused file says only that a call
    failed (rule 8's words of a failure the cycle did not settle, `UNSETTLED_REPORT_WORDS`,
    and no number but an HTTP code of a temporary failure): a read of a file that timed out
    before the importer could know the rules refuse it ("read_failed", "TimeoutError") is no
    claim, and no predicate or outcome fits this shape (pilot red team 43, A2: "http 201
    created")."""
    for file_id in sorted(ids, key=lambda each: (-len(each), each)):
        if file_id:
            text = text.replace(file_id, " ")
    if not (text.isascii() and text.isprintable()):
        return False
    return all(
        word.lower() in _FAILURE_REPORT or word in FAILURE_NUMBERS
        for word in _PARTS.split(text)
        if word
    )


def work_path_fits(path: str, file_ids: Sequence[str]) -> bool:
    """Whether a work path naming the refused files `file_ids` is `<filing word>/<id>.<ext>`
    of the one file it names (pilot red team 43, A9)."""
    folder, slash, leaf = path.partition("/")
    stem, dot, extension = leaf.rpartition(".")
    return (
        bool(slash and dot)
        and folder in WORK_FILING_WORDS
        and extension in WORK_FILE_EXTENSIONS
        and list(file_ids) == [stem]
    )


__all__ = [
    "ANY_REASON_TEMPLATES",
    "FAILURE_NUMBERS",
    "REFUSAL_DETAIL_TEMPLATES",
    "REFUSED_FILE_ERROR_CODES",
    "SERVED_FIELDS",
    "WORK_FILE_EXTENSIONS",
    "WORK_FILING_WORDS",
    "detail_fits",
    "forbidden_at",
    "reason_codes_of",
    "reference_details",
    "says_call_failed_only",
    "slot_text",
    "work_path_fits",
]
