"""Streaming CSV records, exactly as the published final-state scorer reads them (pilot §10).

The published `score_final_state.py` reads each file with
`csv.DictReader(open(path, encoding="utf-8-sig", newline=""))`. This module yields the same
records without building a dict per row, so that two large files can be compared in one pass:

* bytes are decoded as strict UTF-8 after one leading byte-order mark is dropped (`utf-8-sig`);
* lines end at `\\n`, `\\r` or `\\r\\n` (universal newlines, line endings kept), as `newline=""`
  makes the text layer deliver them to the csv parser;
* the first record is the header, even when it is a blank line (`DictReader` then has no field
  names); every later blank record is skipped, as `DictReader` does;
* a quoted field may hold delimiters, quotes and line breaks; such records, and any line too long
  to be safe, go through `csv.reader` itself, so its quirks (`"a"b` reads as `ab`, an unterminated
  quote runs to the end of the file, the field size limit) are the published ones by construction.

A record is handed out either as a `str` (a line with no quote character, no line break and no
field longer than the limit: its fields are exactly `record.split(",")`) or as the `list[str]`
that `csv.reader` produced. Keeping simple records as one string halves the memory and lets whole
runs of identical records be compared at C speed.

Where the published script crashes (missing or unreadable file, bytes that are not UTF-8, a field
over the limit) a one-line `ProvebenchError` naming the file, and the line where known, is raised.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterator
from pathlib import Path

from provebench._errors import ProvebenchError

# `csv.field_size_limit()` as shipped with CPython; the published script never changes it.
PUBLISHED_FIELD_SIZE_LIMIT = 131072
_BOM = b"\xef\xbb\xbf"
_DEFAULT_CHUNK_BYTES = 1 << 22

Record = str | list[str]


def record_fields(record: Record) -> list[str]:
    """The fields `csv.reader` gives for a record."""
    return record.split(",") if isinstance(record, str) else record


class CsvRecordStream:
    """The header and then batches of data records of one CSV file, read front to back once."""

    def __init__(self, path: str | Path, *, chunk_bytes: int = _DEFAULT_CHUNK_BYTES) -> None:
        self.path = str(path)
        self._chunk_bytes = max(chunk_bytes, 4)
        try:
            self._file = Path(path).open("rb")  # noqa: SIM115 - closed by close() / the owner
        except OSError as error:
            raise ProvebenchError(f"cannot open file: {_os_reason(error)}", path=path) from None
        self._pieces = self._decoded_pieces()
        # The text being parsed line by line (line endings kept) and the next line to parse.
        # Only used for the header and for text the fast path cannot take (see `_fast_records`).
        self._lines: list[str] = []
        self._position = 0
        self._lines_first_line = 1
        self._reader = csv.reader(_LineFeeder(self))
        self.header: list[str] | None = self._read_header()

    def close(self) -> None:
        self._file.close()

    def __enter__(self) -> CsvRecordStream:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # -- bytes to text ---------------------------------------------------------------------

    def _decoded_pieces(self) -> Iterator[tuple[str, int]]:
        """Strict UTF-8 text, with its first line number, in pieces that end with a line feed
        (except perhaps the last).

        Cutting after a line feed never splits a multi-byte character or a `\\r\\n` pair, so each
        piece decodes on its own and every universal-newline line lies within one piece.
        """
        pending = b""
        first = True
        line = 1
        while True:
            try:
                block = self._file.read(self._chunk_bytes)
            except OSError as error:
                raise ProvebenchError(
                    f"cannot read file: {_os_reason(error)}", path=self.path
                ) from None
            data = pending + block if pending else block
            if first and (len(data) >= len(_BOM) or not block):
                first = False
                if data.startswith(_BOM):
                    data = data[len(_BOM) :]
            if not block:
                if data:
                    yield self._decode(data, line), line
                return
            cut = 0 if first else data.rfind(b"\n") + 1
            if cut == 0:
                pending = data
                continue
            piece = data[:cut]
            pending = data[cut:]
            yield self._decode(piece, line), line
            line += piece.count(b"\n")

    def _decode(self, data: bytes, first_line: int) -> str:
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError as error:
            line = first_line + data.count(b"\n", 0, error.start)
            raise ProvebenchError(
                f"not valid UTF-8 text ({error.reason} at byte {error.start} of this piece)",
                path=self.path,
                line=line,
            ) from None

    # -- text to records, line by line through csv.reader ----------------------------------

    def _set_lines(self, text: str, first_line: int) -> None:
        self._lines = _universal_lines(text)
        self._position = 0
        self._lines_first_line = first_line

    def _load_next_piece(self) -> bool:
        """Parse the next piece line by line (a quoted field runs on into it); False at the end."""
        piece = next(self._pieces, None)
        if piece is None:
            return False
        self._set_lines(*piece)
        return True

    def _parse_with_csv(self) -> list[str] | None:
        """One record by `csv.reader`, from the current line on (None at the end of the file)."""
        try:
            return next(self._reader, None)
        except csv.Error as error:
            done = "".join(self._lines[: max(self._position - 1, 0)])
            raise ProvebenchError(
                f"CSV error: {error}",
                path=self.path,
                line=self._lines_first_line + done.count("\n"),
            ) from None

    def _read_header(self) -> list[str] | None:
        # `DictReader` takes the first record as field names, even a blank one; an empty file
        # has none and then yields no rows at all.
        return self._parse_with_csv()

    def _records_line_by_line(self) -> list[Record]:
        """Records from the current line to the end of the current text."""
        batch: list[Record] = []
        while self._position < len(self._lines):
            line = self._lines[self._position]
            if '"' in line or len(line) > PUBLISHED_FIELD_SIZE_LIMIT:
                fields = self._parse_with_csv()  # may read on into the next piece
                if fields:
                    batch.append(fields)
                continue
            self._position += 1
            text = line.rstrip("\r\n")
            if text:
                batch.append(text)
        return batch

    # -- batches ---------------------------------------------------------------------------

    def batches(self) -> Iterator[list[Record]]:
        """Lists of data records in file order; blank records are left out, as DictReader does."""
        while True:
            if self._position < len(self._lines):
                # Text left after a record that csv.reader read (the header): back to fast.
                done = "".join(self._lines[: self._position])
                first_line = self._lines_first_line + done.count("\n")
                text = "".join(self._lines[self._position :])
                self._lines, self._position = [], 0
            else:
                piece = next(self._pieces, None)
                if piece is None:
                    return
                text, first_line = piece
            batch = _fast_records(text)
            if batch is None:
                self._set_lines(text, first_line)
                batch = self._records_line_by_line()
            if batch:
                yield batch


def _fast_records(text: str) -> list[Record] | None:
    """The records of a text that starts at a record boundary, or None when that needs the
    line-by-line path: a bare CR, a line longer than the field size limit, or a quoted field
    that does not end on its own line."""
    carriage_returns = text.count("\r")
    if carriage_returns == 0:
        lines = text.split("\n")
    else:
        crlf = text.count("\r\n")
        if carriage_returns != crlf:
            return None
        lines = (
            text.split("\r\n")
            if crlf == text.count("\n")
            else text.replace("\r\n", "\n").split("\n")
        )
    if len(text) > PUBLISHED_FIELD_SIZE_LIMIT and max(map(len, lines)) > PUBLISHED_FIELD_SIZE_LIMIT:
        return None
    records: list[Record] = lines  # type: ignore[assignment]
    if '"' in text:
        quoted = [index for index, line in enumerate(lines) if '"' in line]
        # Parse the quoted lines on their own, then a blank sentinel line. If every one of them
        # is a whole record, csv.reader returns one record per line and then [] for the
        # sentinel; a quoted field running on past its line swallows a later line instead.
        try:
            parsed = list(csv.reader([lines[index] + "\n" for index in quoted] + ["\n"]))
        except csv.Error:
            return None
        if len(parsed) != len(quoted) + 1 or parsed[-1]:
            return None
        for index, fields in zip(quoted, parsed, strict=False):
            records[index] = fields
    if "" in records:
        records = [record for record in records if record]
    return records


_UNIVERSAL_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")


def _universal_lines(text: str) -> list[str]:
    """Lines ending at LF, CR or CRLF, endings kept: what `open(newline="")` hands to csv."""
    lines = text.splitlines(keepends=True)
    breaks = text.count("\n") + text.count("\r") - text.count("\r\n")
    if text and text[-1] not in "\r\n":
        breaks += 1
    if len(lines) == breaks:
        return lines
    # str.splitlines also breaks at VT, FF, FS, GS, RS, NEL, LS and PS; the text layer does not.
    return _UNIVERSAL_LINE.findall(text)


class _LineFeeder:
    """The line source of the stream's one `csv.reader`: the current line, then the next ones."""

    def __init__(self, stream: CsvRecordStream) -> None:
        self._stream = stream

    def __iter__(self) -> _LineFeeder:
        return self

    def __next__(self) -> str:
        stream = self._stream
        while stream._position >= len(stream._lines):
            if not stream._load_next_piece():
                raise StopIteration
        line = stream._lines[stream._position]
        stream._position += 1
        return line


def _os_reason(error: OSError) -> str:
    return error.strerror or type(error).__name__


__all__ = ["PUBLISHED_FIELD_SIZE_LIMIT", "CsvRecordStream", "Record", "record_fields"]
