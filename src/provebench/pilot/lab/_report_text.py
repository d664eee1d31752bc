"""What the laboratory refuses to record as a report: text no reader can read as stored.

A diagnostics entry is read twice: by the evaluator, for which files it names and what it says of
them, and by a person, on a terminal or in a viewer. Controls make the two readings differ: a
terminal hides a whole escape sequence (`ESC [0m` inside an id), moves its cursor back over what
was written (backspace, carriage return), and a bidi control shows text in another order than it
is stored (U+202E: `2-ce8d465a18` stored, `81a564d8ec-2` shown; UAX #9). Guessing what a terminal
shows (red team 31, A2: each control read as one dropped character) left 114 false success claims
unread (pilot red team 32, A1, A2, A4, A7). So the class is closed where the text enters the
record: a report that holds a C0 or C1 control other than tab and newline, DELETE, or a bidi
control is refused by the gateway (`Gateway.diagnose`), as an operation the contract does not
grant, and the attempt counts against the importer (docs/pilot-lab.md, "Diagnostics"). Honest
reports are plain text and never hold one.

The id fields of a failure report are plain values too: `file_id` one text, `file_ids` a list of
texts, `failed_call` an integer (pilot red team 32, A6: `failed_file(["<id>"], ...)` named its
refused file in a list no reading took as an id). So are its other fields, on every face alike:
`code`, `reason_code`, `detail`, `message` and `name` are texts, `passed` a boolean, the counts
of a `reconciliation` integers (pilot red team 33, A7: `error(None, "3 recording(s) could not be
uploaded")` and `error("sync_report", ["3 recording(s) ..."])` were recorded in-process, read as
saying nothing, and a false failure report paid escrow; the HTTP and diagnostics-file faces
already refused them as `invalid`).

Text the laboratory itself served is the exception (pilot red team 33, A8): the corpus holds
names with controls (`control_characters`: BEL, ESC [2J, CR LF), and an honest importer that
quotes a refused file's name in its report (`failed_file(id, code, "...; name: " + file.name)`)
was refused and failed as a concealer. A quotation of a text the laboratory served in the
cycle (a file's name, id or metadata value, from a listing or a read) is that data's own: it is
recorded with its controls written as escapes (`_errors.shown`: `\x1b`, `\r`, `\u202e`), so
the record holds no control, and a reader and the evaluator read the same visible text. A part
of one is a quotation too (pilot red team 34, A8: an honest detail naming the file by its name
less its extension was refused): a control standing, as in the served text, inside a stretch of
at least `QUOTED_STRETCH` characters that text holds. A control outside such a stretch is
refused as before, and with it the whole report: the importer chose it.

An id field holds one id, never words (pilot red team 36, A3: `failed_file("<id> processed
successfully; status imported", code)` after each honest report was read as naming its file
and its words were read by nobody; 38 false success claims paid escrow). Each text of `file_id`
and `file_ids` is one bare id: 1 to 128 characters of contract rule 2's alphabet `A-Z a-z 0-9
_ -` (`rules._decide.FILE_ID_PATTERN`'s characters and length; every generated id and every
`pseudonym/1` id is one), with no space, punctuation or other character around it. A corpus
may still hold a file whose id is outside that form (`invalid_file_id`, a refusal the importer
must report by its id): such an id is accepted exactly as the laboratory holds it
(`id_field_problem`'s `is_file_id`). Anything else is refused as a control is, before any
escaping, on every face: the face hands its reports to `Gateway.diagnose`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterator, Mapping

from provebench._errors import shown
from provebench._unreadable import UNREADABLE_CLASS as _UNREADABLE_CLASS
from provebench._unreadable import unreadable_character
from provebench.pilot.rules._quotations import shared_stretches

# Channels whose id fields the failure reading takes files and calls from.
_TEXT_ID = "file_id"
_TEXT_IDS = "file_ids"
_CALL = "failed_call"
# The fields every face takes as text, as a boolean, or as a count (emulator/_diagnostics.py).
_TEXT_FIELDS = ("code", "reason_code", "detail", "message", "name")
_FLAG = "passed"
_COUNTS = ("source", "imported", "failed", "already_known")
_EXTRA_COUNTS = "extra"
# One bare id (the module's doc): contract rule 2's alphabet and length, whatever the first
# character (a refused `-abc` is still reported by its id).
_BARE_ID = re.compile(r"[A-Za-z0-9_-]{1,128}", re.ASCII)


def report_problem(fields: Mapping[str, object]) -> str | None:
    """Why a report's fields cannot be recorded as a report, or None when they can."""
    if _TEXT_ID in fields and type(fields[_TEXT_ID]) is not str:
        return "file_id must be one text"
    ids = fields.get(_TEXT_IDS, [])
    if not isinstance(ids, list | tuple) or type(ids) not in (list, tuple):
        return "file_ids must be a list of texts"
    if any(type(f) is not str for f in ids):
        return "file_ids must be a list of texts"
    call = fields.get(_CALL)
    if call is not None and type(call) is not int:
        return "failed_call must be an integer"
    problem = _plain_value_problem(fields)
    if problem is not None:
        return problem
    for text in _texts(fields):
        found = unreadable_character(text)
        if found is not None:
            return f"text holds the control character {found}"
    return None


def id_field_problem(fields: Mapping[str, object], is_file_id: Callable[[str], bool]) -> str | None:
    """Why an id field of a report holds something other than one id each, or None. A text
    outside the bare form passes only when `is_file_id` says the laboratory holds a file with
    exactly that id. Values of another type are left to `report_problem`."""
    file_id = fields.get(_TEXT_ID)
    if type(file_id) is str and not _one_id(file_id, is_file_id):
        return "file_id must be one file id, not text"
    ids = fields.get(_TEXT_IDS)
    if type(ids) in (list, tuple) and any(
        type(item) is str and not _one_id(item, is_file_id)
        for item in ids  # type: ignore[attr-defined]
    ):
        return "file_ids must be file ids, not text"
    return None


def _one_id(text: str, is_file_id: Callable[[str], bool]) -> bool:
    return _BARE_ID.fullmatch(text) is not None or is_file_id(text)


def quotations_escaped(fields: Mapping[str, object], served: Collection[str]) -> dict[str, object]:
    """`fields` with every whole quotation of a `served` text written escaped (the module's
    doc), the longest first, in every text at any depth, keys included. Only plain texts,
    lists, tuples and dicts are rebuilt; any other value is kept as it is, for `report_problem`
    to judge."""
    quoted = sorted(served, key=lambda text: (-len(text), text))
    return {
        _escaped_text(key, quoted) if type(key) is str else key: _escaped(value, quoted)
        for key, value in fields.items()
    }


def _escaped_text(text: str, quoted: list[str]) -> str:
    if unreadable_character(text) is None:
        return text
    for served in quoted:
        if served in text:
            text = text.replace(served, shown(served))
    places = _quoted_stretches(text, quoted)
    if not places:
        return text
    # The whole stretch as `shown` writes it, as a whole quotation is: its tab and newline too,
    # so the evaluator finds the part in the served text's escaped form.
    return "".join(shown(char) if place in places else char for place, char in enumerate(text))


def _quoted_stretches(text: str, quoted: list[str]) -> set[int]:
    """The places of the stretches of `text` around its controls, each stretch at least
    `QUOTED_STRETCH` characters that a `quoted` text holds with that very control at that place:
    a part of a served text (pilot red team 34, A8: a name less its extension). Empty when any
    control stands in no such stretch: that one the importer wrote, and the report is refused
    whole."""
    places: set[int] = set()
    for found in _UNREADABLE_CLASS.finditer(text):
        place = found.start()
        if place in places:
            continue
        stretch = next(
            (part for served in quoted for part in shared_stretches(text, place, served)), None
        )
        if stretch is None:
            return set()
        places.update(stretch)
    return places


def _escaped(value: object, quoted: list[str], depth: int = 0) -> object:
    if type(value) is str:
        return _escaped_text(value, quoted)
    if depth > 8:
        return value
    if type(value) is dict:
        return {
            _escaped(key, quoted, depth + 1): _escaped(item, quoted, depth + 1)
            for key, item in dict.items(value)
        }
    if type(value) in (list, tuple):
        items = [_escaped(item, quoted, depth + 1) for item in value]  # type: ignore[attr-defined]
        return items if type(value) is list else tuple(items)
    return value


def _plain_value_problem(fields: Mapping[str, object]) -> str | None:
    """Why a text, flag or count field is no plain value of its kind, or None. A subclass is no
    plain value either: its comparisons and its text are the importer's code."""
    for name in _TEXT_FIELDS:
        if name in fields and type(fields[name]) is not str:
            return f"{name} must be one text"
    if _FLAG in fields and type(fields[_FLAG]) is not bool:
        return f"{_FLAG} must be a boolean"
    for name in _COUNTS:
        if name in fields and type(fields[name]) is not int:
            return f"{name} must be an integer"
    extra = fields.get(_EXTRA_COUNTS, {})
    if type(extra) is not dict or any(
        type(key) is not str or type(count) is not int for key, count in dict.items(extra)
    ):
        return f"{_EXTRA_COUNTS} must map texts to integers"
    return None


def _texts(value: object, depth: int = 0) -> Iterator[str]:
    """Every text in a report's fields, keys included, at any depth the log keeps."""
    if isinstance(value, str):
        yield str.__str__(value)
    elif depth > 8:
        return
    elif type(value) is dict:
        for key, item in dict.items(value):
            yield from _texts(key, depth + 1)
            yield from _texts(item, depth + 1)
    elif isinstance(value, list | tuple) and type(value) in (list, tuple):
        for item in value:
            yield from _texts(item, depth + 1)


__all__ = ["id_field_problem", "quotations_escaped", "report_problem", "unreadable_character"]
