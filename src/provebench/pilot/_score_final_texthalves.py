"""The text join in two parts, one per core: the same counts as `text_join` in one process.

Large files are cut as the lockstep halves cut them (`cut_points`), just after a line feed near
the middle of each (the candidate at its own middle: its rows are in another order). This
process reads the first part of each file, a forked child the second part, and each does what
`text_join` does with its part: its expected records become its own set of pending records, and
its candidate records are taken out of that set batch by batch. A candidate record its part did
not pair — in a shuffled candidate, mostly an expected row of the other part — is written, with
its place, to an unlinked temporary file (not held in memory). Once both parts are read, each
process takes the other's unpaired records out of its own set: what pairs neither part is a
leftover, and the leftovers of both are counted here, in file order, exactly as one pass counts
them (`count_leftovers`), from the expected records of their ids that each process looks up in
its part. Every expected row is in one part only, so an expected row is met when either process
met it, and the unmet rows are the two sets' sums.

One pass meets the candidate's rows in file order, so a copy of an expected row that is a
leftover comes after the copy that paired; here a copy in the first part can be a leftover of
the second part's pairing. So every id whose expected row was met and that has a leftover has
its last row read again from the candidate file — one pass only does that when it must.

What two processes cannot tell, one process then scores (`None`): a cut inside a quoted field,
bad input in either part (one pass names it exactly), a record holding a line break, the order
check when the first parts agree row for row but have different lengths, a child that fails.
What one pass would decline is declined here too, for the same reason (`Declined`): files the
text join is not made for (the same checks on each part, and expected ids repeated across the
parts), or a candidate whose rows mostly differ from the expected ones. So the output depends
on the files alone, never on how the two processes ran.
"""

from __future__ import annotations

import os
from array import array
from collections.abc import Callable, Collection, Iterator
from contextlib import suppress
from itertools import compress
from operator import not_
from pathlib import Path
from typing import IO, Any

from provebench._errors import ProvebenchError
from provebench.pilot._score_final_counts import KeyedJoin
from provebench.pilot._score_final_csv import (
    CsvRecordStream,
    Record,
    headers_before_cuts,
    quoted_record,
)
from provebench.pilot._score_final_fork import Channel, LostChild, can_fork, forked_child
from provebench.pilot._score_final_halves import cut_points
from provebench.pilot._score_final_layout import RowLayout
from provebench.pilot._score_final_textjoin import (
    LEFTOVER_LIMIT,
    Declined,
    _DistinctIds,
    _expected_lines,
    _Foretaste,
    _NotPlain,
    _Pairing,
    _RowsDiffer,
    bulk_counts,
    check_leftovers,
    count_leftovers,
    finish,
)

# Below this size (either file) one process is quicker than a fork and the exchange.
TEXT_HALVES_MIN_BYTES = 32 << 20
# Read size of each part's files and of the other part's unpaired records: a quarter of one
# pass's, since two processes hold their pieces at once (measured: no slower).
_PIECE_BYTES = 1 << 20


class _NotHere(Exception):
    """Two processes cannot give the exact result: one process scores instead."""


def text_join_in_halves(
    expected_csv: str | Path, candidate_csv: str | Path, sizes: dict[str, int]
) -> KeyedJoin | Declined | None:
    """The text join's counts, computed in two parts; why the text join declines these files,
    or None when one process must compute them."""
    if not can_fork():
        return None
    # The candidate is in another order: cut where its bytes are halved, not where a line is.
    cuts = cut_points(expected_csv, candidate_csv, TEXT_HALVES_MIN_BYTES, same_line=False)
    if cuts is None:
        return None
    try:
        return _in_halves(_Files(expected_csv, candidate_csv, cuts, sizes))
    except _RowsDiffer:
        return Declined.ROWS_DIFFER
    except _NotPlain:
        return Declined.NOT_PLAIN
    except (_NotHere, LostChild, ProvebenchError, OSError):
        return None


class _Files:
    """The two files, where each is cut, their header and where their data starts."""

    def __init__(
        self,
        expected_csv: str | Path,
        candidate_csv: str | Path,
        cuts: tuple[int, int],
        sizes: dict[str, int],
    ) -> None:
        self.paths = (expected_csv, candidate_csv)
        self.cuts = cuts
        self.sizes = sizes or {"chunk_bytes": _PIECE_BYTES}
        found = headers_before_cuts(self.paths, cuts, self.sizes.get("chunk_bytes", _PIECE_BYTES))
        if found is None:
            raise _NotHere  # a header that runs on past the cut
        (self.header, expected_start), (candidate_header, candidate_start) = found
        if candidate_header != self.header:
            raise _NotPlain  # rows of another header never equal ours as text
        self.starts = (expected_start, candidate_start)
        self.layout = RowLayout(self.header)

    def part(self, index: int, which: int) -> CsvRecordStream:
        """Part `which` (0: first, 1: second) of file `index` (0: expected, 1: candidate)."""
        start, stop = (
            (self.starts[index], self.cuts[index]) if which == 0 else (self.cuts[index], None)
        )
        return CsvRecordStream.part(self.paths[index], self.header, start, stop, **self.sizes)


def _in_halves(files: _Files) -> KeyedJoin:
    # Imported here: tempfile (with shutil, random and the compression modules it loads) costs
    # ≈6 ms of the command's start, and only large unordered pairs come this way.
    from tempfile import TemporaryFile

    foretaste = _Foretaste(files.paths[1], files.paths[0])
    # Unlinked files, each written by one process and read by the other.
    with (
        TemporaryFile() as first_spill,
        TemporaryFile() as second_spill,
        TemporaryFile() as first_ids,
    ):
        files_between = _Between(first_spill, second_spill, first_ids)

        def second_part(channel: Channel) -> None:  # pragma: no cover - the forked child
            _serve_second_part(channel, files, foretaste, files_between)

        with forked_child(second_part) as channel:
            halves = _first_part(channel, files, foretaste, files_between)
            join = _leftovers_counted(channel, halves, files)
            channel.complete = True
            return join


class _Between:
    """The files the two processes hand each other: each part's unpaired candidate records,
    and the hashes of the first part's expected ids."""

    def __init__(
        self, first_spill: IO[bytes], second_spill: IO[bytes], first_ids: IO[bytes]
    ) -> None:
        self.spills = (first_spill, second_spill)
        self.first_ids = first_ids


class _PartPairing(_Pairing):
    """A part's pairing: the records it cannot pair are written to `spill` with their places
    (records spanning lines, never an expected row, are leftovers at once)."""

    def __init__(self, lines: list[Record], layout: RowLayout, spill: IO[bytes]) -> None:
        super().__init__(lines, layout)
        self.spill = spill
        self.spilled = array("q")  # the place of each record written to `spill`

    def unpaired(self, records: list[Record], start: int, met: set[Record]) -> None:
        try:
            unpaired = list(map(not_, map(met.__contains__, records)))
        except TypeError:  # records spanning lines (lists, unhashable): leftovers at once
            unpaired = [record.__class__ is not list and record not in met for record in records]
            self.leftovers += [
                (start + offset, record)
                for offset, record in enumerate(records)
                if record.__class__ is list
            ]
        texts: list[str] = list(compress(records, unpaired))  # type: ignore[arg-type]
        if texts:
            self.spilled.extend(compress(range(start, start + len(records)), unpaired))
            text = "\n".join(texts)
            if text.count("\n") != len(texts) - 1:
                raise _NotHere  # a record holding a line feed would not read back as one
            self.spill.write(text.encode("utf-8"))
            self.spill.write(b"\n")

    def take_spilled(self, spill: IO[bytes]) -> list[tuple[int, Record]]:
        """Take the other part's unpaired records (read from `spill`) out of `pending`; those
        that pair no expected row here either are leftovers, returned with their index in
        `spill` (the other part knows their places)."""
        unpaired: list[tuple[int, Record]] = []
        first = 0
        for text in _pieces(spill):
            records = text[:-1].split("\n")
            met = self.take_out(records)  # type: ignore[arg-type]
            if met is not None:
                unpaired += [
                    (index, quoted_record(record))
                    for index, record in enumerate(records, first)
                    if record not in met
                ]
                check_leftovers(len(self.leftovers) + len(unpaired), self.position)
            first += len(records)
        return unpaired


def _pieces(written: IO[bytes]) -> Iterator[str]:
    """The text of a file the other process wrote, in pieces that end with a line feed (read
    by offset: the file's position is shared with the other process). A line longer than a
    piece is carried on until it ends."""
    descriptor = written.fileno()
    size = os.fstat(descriptor).st_size
    offset = 0
    rest = b""
    while offset < size:
        block = os.pread(descriptor, min(_PIECE_BYTES, size - offset), offset)
        if not block:
            raise _NotHere  # the file shrank: not as it was written
        offset += len(block)
        data = rest + block
        cut = data.rfind(b"\n") + 1
        rest = data[cut:]
        if cut:
            yield data[:cut].decode("utf-8")
    if rest:
        raise _NotHere  # the file does not end with a line feed: not as it was written


def _read_part(
    files: _Files,
    which: int,
    foretaste: _Foretaste,
    spill: IO[bytes],
    ids_done: Callable[[_DistinctIds], None],
    between: Callable[[], None],
) -> _PartPairing:
    """Pair one part of the candidate with the same part of the expected rows."""
    distinct = _DistinctIds()
    # (An expected record that runs on past the cut spans lines: `_expected_lines` declines.)
    with files.part(0, which) as expected:
        lines = _expected_lines(expected, files.layout, foretaste, distinct)
    ids_done(distinct)
    del distinct
    pairing = _PartPairing(lines, files.layout, spill)
    with files.part(1, which) as candidate:
        for batch in candidate.batches():
            between()
            pairing.take(batch.records())
        if candidate.ran_past_stop:
            raise _NotHere  # a cut inside a quoted field: the parts are not the file's
    spill.flush()
    return pairing


def _first_part(
    channel: Channel, files: _Files, foretaste: _Foretaste, between: _Between
) -> _Halves:
    early: list[dict[str, Any]] = []

    def child_done() -> None:
        # The child's report, when it came early: a child that declined or failed ends this
        # part at once (its "read" report is kept for later).
        if not early and channel.has_message():
            early.append(_report(channel.receive()))

    def hand_over_ids(distinct: _DistinctIds) -> None:
        # The child proves the ids of both parts distinct, from its own set and these hashes.
        hashes = array("q")
        hashes.fromlist(list(distinct.hashes))  # twice as quick as array("q", a_set)
        hashes.tofile(between.first_ids)
        distinct.hashes.clear()
        between.first_ids.flush()
        with suppress(BrokenPipeError):  # a child that has ended: its report says why
            channel.send("ids")

    pairing = _read_part(files, 0, foretaste, between.spills[0], hand_over_ids, child_done)
    second = early[0] if early else _report(channel.receive())
    if not pairing.order_ok:
        order_ok = False  # the first parts differ at a common place
    elif pairing.position == len(pairing.lines):
        order_ok = second["order_ok"]
    else:
        raise _NotHere  # first parts of different lengths that agree so far: not known here
    channel.send({"first_candidate_rows": pairing.position})
    # The second part's unpaired records, taken out of this part's pending records.
    second_places = array("q")
    second_places.frombytes(second["spilled"])
    before = pairing.position
    leftovers = pairing.leftovers
    leftovers += [
        (before + second_places[index], record)
        for index, record in pairing.take_spilled(between.spills[1])
    ]
    paired = _report(channel.receive())
    leftovers += paired["leftovers"]
    leftovers += [(pairing.spilled[index], record) for index, record in paired["from_first"]]
    if len(leftovers) > LEFTOVER_LIMIT:
        raise _RowsDiffer
    leftovers.sort(key=_place)
    return _Halves(
        pairing=pairing,
        expected_rows=len(pairing.lines) + second["expected_rows"],
        unmet=len(pairing.pending) + paired["unmet"],
        candidate_rows=pairing.position + second["candidate_rows"],
        order_ok=order_ok,
        leftovers=leftovers,
    )


def _place(leftover: tuple[int, Record]) -> int:
    return leftover[0]


class _Halves:
    """Both parts' counts, before the leftovers are counted."""

    def __init__(
        self,
        *,
        pairing: _PartPairing,
        expected_rows: int,
        unmet: int,
        candidate_rows: int,
        order_ok: bool,
        leftovers: list[tuple[int, Record]],
    ) -> None:
        self.pairing = pairing
        self.expected_rows = expected_rows
        self.unmet = unmet
        self.candidate_rows = candidate_rows
        self.order_ok = order_ok
        self.leftovers = leftovers


def _leftovers_counted(channel: Channel, halves: _Halves, files: _Files) -> KeyedJoin:
    join, compare = bulk_counts(
        files.layout,
        expected_rows=halves.expected_rows,
        unmet=halves.unmet,
        candidate_rows=halves.candidate_rows,
        order_ok=halves.order_ok,
    )
    if not halves.leftovers:
        channel.send(None)  # nothing to look up: the child may end
        return finish(join)

    def expected_rows_of(wanted: Collection[str]) -> dict[str, tuple[Record, bool]]:
        channel.send(sorted(wanted))
        found: dict[str, tuple[Record, bool]] = _report(channel.receive())["found"]
        found.update(halves.pairing.expected_rows_of(wanted))
        return found

    count_leftovers(
        join,
        files.layout,
        compare,
        halves.leftovers,
        expected_rows_of,
        files.paths[1],
        files.sizes,
        copies_follow=False,
    )
    return finish(join)


def _report(message: Any) -> dict[str, Any]:
    """A report of the child; its refusals become this side's."""
    kind = message[0]
    if kind == "declined":
        raise _RowsDiffer if message[1] == Declined.ROWS_DIFFER.name else _NotPlain
    if kind != "ok":
        raise _NotHere
    report: dict[str, Any] = message[1]
    return report


def _serve_second_part(
    channel: Channel, files: _Files, foretaste: _Foretaste, between: _Between
) -> None:  # pragma: no cover - runs in the forked child
    def check_ids(distinct: _DistinctIds) -> None:
        if channel.receive() != "ids":
            raise _NotHere
        first_ids = array("q")
        descriptor = between.first_ids.fileno()
        first_ids.frombytes(os.pread(descriptor, os.fstat(descriptor).st_size, 0))
        if not distinct.hashes.isdisjoint(first_ids):
            raise _NotPlain  # an id in both parts (or two ids with one hash)
        distinct.hashes.clear()

    try:
        pairing = _read_part(files, 1, foretaste, between.spills[1], check_ids, lambda: None)
        channel.send(
            (
                "ok",
                {
                    "expected_rows": len(pairing.lines),
                    "candidate_rows": pairing.position,
                    "order_ok": pairing.order_ok,
                    "spilled": pairing.spilled.tobytes(),
                },
            )
        )
        before = channel.receive()["first_candidate_rows"]
        from_first = pairing.take_spilled(between.spills[0])
        channel.send(
            (
                "ok",
                {
                    # Leftovers of this part's own records (placed in the whole file), and of
                    # the first part's, by index in its spill (the parent holds their places).
                    "leftovers": [(before + place, record) for place, record in pairing.leftovers],
                    "from_first": from_first,
                    "unmet": len(pairing.pending),
                },
            )
        )
        wanted = channel.receive()
        if wanted is not None:
            channel.send(("ok", {"found": pairing.expected_rows_of(set(wanted))}))
    except _NotPlain as declined:
        reason = Declined.ROWS_DIFFER if isinstance(declined, _RowsDiffer) else Declined.NOT_PLAIN
        channel.send(("declined", reason.name))
    except (ProvebenchError, _NotHere, LostChild, OSError, UnicodeDecodeError):
        channel.send(("failed",))
