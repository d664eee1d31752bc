"""The lockstep join of two large registers in two halves, one per core (pilot §7, same counts).

Each file is cut once, at a line end near its middle: the expected file at the first line end
after its middle, the candidate file where the same line starts nearest the same relative place
(or at a line end there). A forked child joins the second halves while this process joins the
first ones; the child then sends what the join kept — counts, unpaired rows, repeated ids and
the ids it registered — and the two are added up. The result is the single pass's result only
when that can be shown, and `None` (score in one pass instead) otherwise:

* each cut must be a record boundary: the first half's parse, which starts at the top of the
  file and is therefore the file's own, must not run on past its cut (a quoted line break);
* no id may be registered on the same side in both halves (that is a repeat across the cut),
  and an id seen in both halves (expected in one, candidate in the other: a row moved across the
  cut) must not repeat; such an id is paired from the two halves' unpaired rows;
* order: when the first halves' id lists differ at a common position, the lists differ; when
  the first halves have as many rows and agree, the result is the second halves' check; when
  they have different lengths but agree as far as the shorter goes, that is not known;
* more than `UNPAIRED_LIMIT` unpaired rows on a side in either half (a shuffled candidate):
  one pass holds them once, the halves would hold and send them twice;
* any refusal (bytes that are not UTF-8, a field over the limit, an unreadable file) in either
  half: the one-pass scorer then finds and names it exactly as it always does.

So the output is a function of the input files alone, never of how the two processes ran.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import islice
from pathlib import Path
from typing import Any

from provebench._errors import ProvebenchError
from provebench.pilot._score_final_csv import (
    CsvRecordStream,
    headers_before_cuts,
    record_fields,
)
from provebench.pilot._score_final_fork import Channel, LostChild, can_fork, forked_child
from provebench.pilot._score_final_join import LockstepJoin, TooManyUnpaired
from provebench.pilot._score_final_layout import RowLayout

# Below this size (either file) one pass is quicker than a fork and the exchange of ids.
HALVES_MIN_BYTES = 32 << 20
_SEARCH_BYTES = 4 << 20  # how far from the expected place the candidate's cut is looked for
_IDS_PER_MESSAGE = 1 << 16
# Unpaired rows on one side past which a half gives up (a shuffled or unrelated candidate): they
# would be held by both processes and sent across, more memory than one pass needs.
UNPAIRED_LIMIT = 1 << 14
# Where the expected file is cut, in percent of its bytes. This process also adds the child's
# result to its own (reading the child's ids), the child also sends them: measured on the
# benchmark's registers the two sides come out about even at the middle.
_FIRST_SHARE_PERCENT = 50
_SUMMED = (
    "expected_rows",
    "candidate_rows",
    "expected_none_ids",
    "expected_empty_ids",
    "candidate_falsy_ids",
    "expected_distinct",
    "candidate_distinct",
    "in_both",
    "fields_matched",
    "fields_total",
)
_KEPT = (
    "order_ok",
    "order_mismatch",
    "pending_expected",
    "pending_candidate",
    "expected_repeats",
    "candidate_repeats",
    "repeat_matched",
    "first_rows_paired",
    "repeat_rows",
)


def join_in_halves(
    expected_csv: str | Path, candidate_csv: str | Path, stream_options: dict[str, int]
) -> LockstepJoin | None:
    """The join of the whole files, computed in two halves; None when one pass must do it."""
    if not can_fork():
        return None
    cuts = cut_points(expected_csv, candidate_csv)
    if cuts is None:
        return None
    try:
        return _join_halves(expected_csv, candidate_csv, cuts, stream_options)
    except ProvebenchError:
        return None  # the one-pass scorer names the fault exactly


def cut_points(
    expected_csv: str | Path,
    candidate_csv: str | Path,
    min_bytes: int | None = None,
) -> tuple[int, int] | None:
    """Byte offsets at which to cut each file (each just after a line feed), or None."""
    try:
        expected_size = Path(expected_csv).stat().st_size
        candidate_size = Path(candidate_csv).stat().st_size
        if min(expected_size, candidate_size) < (
            HALVES_MIN_BYTES if min_bytes is None else min_bytes
        ):
            return None
        with Path(expected_csv).open("rb") as handle:
            middle = expected_size * _FIRST_SHARE_PERCENT // 100
            handle.seek(middle)
            window = handle.read(_SEARCH_BYTES)
        line_start = window.find(b"\n") + 1
        line_end = window.find(b"\n", line_start) + 1
        if line_start == 0 or line_end == 0:
            return None
        expected_cut = middle + line_start
        line = window[line_start - 1 : line_end]  # its line feed before, and its own line end
        target = expected_cut * candidate_size // expected_size
        low = max(target - _SEARCH_BYTES, 0)
        with Path(candidate_csv).open("rb") as handle:
            handle.seek(low)
            region = handle.read(2 * _SEARCH_BYTES)
    except OSError:
        return None
    candidate_cut = _nearest(region, line, target - low)
    if candidate_cut is None:
        # The line end that ends at or after the target: the target itself when a line starts
        # there (files of one size are then cut alike).
        candidate_cut = region.find(b"\n", max(target - low - 1, 0)) + 1
        if candidate_cut == 0:
            return None
    candidate_cut += low
    if not 0 < candidate_cut < candidate_size:
        return None
    return expected_cut, candidate_cut


def _nearest(region: bytes, line: bytes, target: int) -> int | None:
    """The start (after its leading line feed) of the occurrence of `line` nearest `target`."""
    best: int | None = None
    found = region.find(line)
    while found >= 0:
        start = found + 1
        if best is None or abs(start - target) < abs(best - target):
            best = start
        if start >= target:
            break
        found = region.find(line, found + 1)
    return best


def _join_halves(
    expected_csv: str | Path,
    candidate_csv: str | Path,
    cuts: tuple[int, int],
    stream_options: dict[str, int],
) -> LockstepJoin | None:
    # The child needs only the headers: read them with a small read size, fork, and only then
    # open the first halves here (their first piece is parsed line by line, after the fork).
    found = headers_before_cuts(
        (expected_csv, candidate_csv), cuts, stream_options.get("chunk_bytes", 1 << 16)
    )
    if found is None:
        return None  # a header that runs on past the cut
    headers = [header for header, _ in found]

    def second_half(channel: Channel) -> None:  # pragma: no cover - runs in the forked child
        _child(channel, (expected_csv, candidate_csv), cuts, tuple(headers), stream_options)

    with (
        forked_child(second_half) as channel,
        CsvRecordStream(expected_csv, stop=cuts[0], **stream_options) as expected,
        CsvRecordStream(candidate_csv, stop=cuts[1], **stream_options) as candidate,
    ):
        join = LockstepJoin(RowLayout(expected.header), RowLayout(candidate.header))
        join.unpaired_limit = UNPAIRED_LIMIT
        try:
            join.run(expected.batches(), candidate.batches())
        except TooManyUnpaired:
            return None
        # A first half that ran on past its cut was cut inside a quoted field.
        if expected.ran_past_stop or candidate.ran_past_stop:
            return None
        merged = _merge(join, channel)
        channel.complete = merged is not None
        return merged


def _child(
    channel: Channel,
    paths: tuple[str | Path, str | Path],
    cuts: tuple[int, int],
    headers: tuple[list[str] | None, ...],
    stream_options: dict[str, int],
) -> None:  # pragma: no cover - runs in the forked child
    try:
        with (
            CsvRecordStream.part(paths[0], headers[0], cuts[0], None, **stream_options) as expected,
            CsvRecordStream.part(
                paths[1], headers[1], cuts[1], None, **stream_options
            ) as candidate,
        ):
            join = LockstepJoin(RowLayout(headers[0]), RowLayout(headers[1]))
            bulk_ids = join.keep_bulk_ids()
            join.unpaired_limit = UNPAIRED_LIMIT
            join.run(expected.batches(), candidate.batches())
    except (ProvebenchError, TooManyUnpaired):
        channel.send(None)
    else:
        for message in _messages(join, bulk_ids):  # one piece of ids at a time in memory
            channel.send(message)


def _messages(join: LockstepJoin, bulk_ids: list[str]) -> Iterator[Any]:
    """The second half's join: its state, the ids it settled in bulk (`bulk_ids`, in pieces,
    ended by None), and its other ids with their flags (in pieces, ended by None)."""
    state = {name: getattr(join, name) for name in _SUMMED + _KEPT}
    yield state
    # The ids registered in bulk are those registered but not in `seen` (an id registered in
    # bulk never goes to `seen`); gathered in file order during the join, they are at hand
    # here without a walk over `registered`.
    for start in range(0, len(bulk_ids), _IDS_PER_MESSAGE):
        ids = bulk_ids[start : start + _IDS_PER_MESSAGE]
        lines = "\n".join(ids)
        # As one text when no id holds a line feed (much quicker to send and read than a list).
        fits = lines.count("\n") == len(ids) - 1
        yield lines if fits else ids
    yield None
    seen = iter(join.seen.items())
    while piece := dict(islice(seen, _IDS_PER_MESSAGE)):
        yield piece
    yield None


def _merge(join: LockstepJoin, replies: Channel) -> LockstepJoin | None:
    """Add the second half's join (from the child) to the first half's; None if not exact."""
    try:
        state: dict[str, Any] | None = replies.receive()
        if state is None:
            return None  # the child met bad input
        moved = _ids_in_both_halves(join, replies)
    except LostChild:
        return None  # the child failed: one pass will tell why
    if moved is None:
        return None
    if join.order_mismatch:
        order_ok = False
    elif join.expected_rows == join.candidate_rows:
        order_ok = state["order_ok"]
    else:
        return None  # first halves of different lengths that agree so far: unknown here
    repeated = (
        join.expected_repeats.keys()
        | join.candidate_repeats.keys()
        | state["expected_repeats"].keys()
        | state["candidate_repeats"].keys()
    )
    if not repeated.isdisjoint(moved):
        return None
    for name in _SUMMED:
        setattr(join, name, getattr(join, name) + state[name])
    pending_expected = {**join.pending_expected, **state["pending_expected"]}
    pending_candidate = {**join.pending_candidate, **state["pending_candidate"]}
    for file_id in moved:
        expected_row = pending_expected.pop(file_id, None)
        candidate_row = pending_candidate.pop(file_id, None)
        if expected_row is None or candidate_row is None:
            return None
        join.in_both += 1
        join.fields_matched += join.compare.matches(
            record_fields(expected_row), record_fields(candidate_row)
        )
    join.pending_expected, join.pending_candidate = pending_expected, pending_candidate
    join.order_ok = order_ok
    join.order_mismatch = join.order_mismatch or state["order_mismatch"]
    join.expected_repeats.update(state["expected_repeats"])
    join.candidate_repeats.update(state["candidate_repeats"])
    join.repeat_matched.update(state["repeat_matched"])
    join.first_rows_paired |= state["first_rows_paired"]
    join.repeat_rows.update(state["repeat_rows"])
    return join


def _ids_in_both_halves(join: LockstepJoin, replies: Channel) -> list[str] | None:
    """Ids registered in both halves, each on one side only per half (a row moved across the
    cut); None when an id is on the same side in both halves (a repeat across the cut)."""
    seen, registered = join.seen, join.registered
    while (ids := replies.receive()) is not None:  # the child's ids settled in bulk
        if isinstance(ids, str):
            ids = ids.split("\n")
        if not registered.isdisjoint(ids):
            return None
    moved: list[str] = []
    while (flags_by_id := replies.receive()) is not None:
        for file_id in set(filter(registered.__contains__, flags_by_id)):
            ours = seen.get(file_id)
            if ours is None or ours & flags_by_id[file_id]:
                return None  # settled in bulk here (both sides), or on a common side
            moved.append(file_id)
    moved.sort()  # the order of pairing does not change the sums; sorted for a fixed one
    return moved


__all__ = ["HALVES_MIN_BYTES", "cut_points", "join_in_halves"]
