"""Log format drive.list/2: a listing page by digest, replayed from the log; the Drive's pages."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest

from provebench.ledger import Ledger
from provebench.pilot import DriveFile
from provebench.pilot.evaluate._log import read_log
from provebench.pilot.lab import DriveState, _drive_state, lab_file
from provebench.pilot.record import ListingReplay, listing_result, page_digest
from provebench.pilot.rules import REGISTER_COLUMNS, presented_order_key
from tests.helpers.pilot_evaluation import make_small_corpus, run_agent


def _file(file_id: str, name: str = "n") -> DriveFile:
    return DriveFile(
        file_id=file_id,
        name=name,
        created_at_utc="2026-01-01T00:00:00Z",
        mime_type="audio/mpeg",
        size_bytes=1,
        duration_sec=1.0,
        folder_id="f",
    )


def _naive_page(
    files: dict[str, str], present: set[str], after: str | None, size: int
) -> tuple[list[str], list[str], str | None]:
    """The listing rule (drive-events/1) written the obvious way: ids, names, continuation."""
    ids = sorted(f for f in present if after is None or f > after)
    page = ids[:size]
    following = ids[size:]
    return page, [files[f] for f in page], (page[-1] if following and page else None)


@pytest.mark.parametrize("compiled", [True, False], ids=["compiled-merge", "python-merge"])
def test_drive_pages_match_the_listing_rule_under_random_changes(
    compiled: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    if not compiled:  # the road of an install without a C compiler (_listorder.c)
        monkeypatch.setattr(_drive_state, "_merge_tail", None)
    elif _drive_state._merge_tail is None:
        pytest.skip("the C accelerator was not compiled (no C compiler at install)")
    rng = random.Random(7)
    drive, names, present = DriveState(), {}, set()
    for step in range(400):
        # Several changes between two pages: a merge of several additions at once.
        for change in range(rng.randrange(1, 8)):
            action = rng.random()
            file_id = f"{rng.randrange(300):03d}"
            if action < 0.45 and file_id not in names:
                names[file_id] = f"name-{step}-{change}"
                present.add(file_id)
                (drive.add if rng.random() < 0.7 else drive.add_now)(
                    lab_file(_file(file_id, names[file_id]))
                )
                if rng.random() < 0.1:
                    drive.settle()
            elif action < 0.6 and file_id in names:
                drive.remove(file_id)
                present.discard(file_id)
            elif action < 0.7 and file_id in names:
                drive.reappear(file_id)
                present.add(file_id)
            elif action < 0.8 and file_id in names:
                names[file_id] = f"renamed-{step}-{change}"
                drive.replace(lab_file(_file(file_id, names[file_id])))
        drive.settle()
        after = rng.choice([None, f"{rng.randrange(300):03d}"])
        size = rng.randrange(1, 40)
        ids, files, last = drive.page(after, size)
        assert (ids, [f.name for f in files], last) == _naive_page(names, present, after, size)
        # What a page's fast road relies on: the absent ids, and only those.
        assert drive._absent == set(names) - present
        assert drive._absent_sorted == sorted(drive._absent)


def test_listing_result_logs_a_digest_and_only_ambiguous_pages_by_their_ids() -> None:
    assert listing_result(["a", "b"], "kxx") == {
        "count": 2,
        "last_id": "b",
        "ids_sha256": page_digest(["a", "b"]),
        "next_page_token": "kxx",
    }
    assert listing_result([], None)["count"] == 0
    assert listing_result(["a\nb"], None) == {"file_ids": ["a\nb"], "next_page_token": None}
    # The digest tells apart what a plain concatenation would not.
    assert page_digest(["ab", "c"]) != page_digest(["a", "bc"])


def _entries(run_dir: Path) -> list:  # type: ignore[type-arg]
    with Ledger.open_readonly(run_dir / "ledger.sqlite") as ledger:
        return list(ledger.entries())


def test_a_run_log_proves_every_page_it_served(tmp_path: Path) -> None:
    corpus = make_small_corpus(tmp_path, seed=3, admissible_files=40, file_events=80, cycles=5)
    run_dir = run_agent(corpus, "reference", tmp_path / "run")
    entries = _entries(run_dir)
    replay = ListingReplay()
    pages = [replay.feed(e.seq, e.kind, e.payload) for e in entries]
    served = [e.kind == "drive.list" and "result" in e.payload for e in entries]
    listed = [p for p, shown in zip(pages, served, strict=True) if shown]
    assert listed and all(page is not None for page in listed)
    assert replay.mismatches == []
    facts = read_log(entries)
    assert not [p for p in facts.problems if p[0] == "listing_page"]
    # Every appended file was shown to the importer first, by a logged page.
    appended = {row[0] for e in entries if e.kind == "sheets.append" for row in e.payload["rows"]}
    assert appended and appended <= set(facts.first_shown)


def test_a_page_the_log_does_not_prove_is_a_log_problem(tmp_path: Path) -> None:
    corpus = make_small_corpus(tmp_path, seed=3, admissible_files=40, file_events=80, cycles=5)
    run_dir = run_agent(corpus, "reference", tmp_path / "run")
    entries = _entries(run_dir)
    target = next(
        e
        for e in entries
        if e.kind == "drive.list" and "result" in e.payload and e.payload["result"]["count"]
    )  # a served page (a faulted one carries an error instead)
    forged = dict(target.payload)
    forged["result"] = {**target.payload["result"], "ids_sha256": page_digest(["not-a-file"])}
    tampered = [e.model_copy(update={"payload": forged}) if e is target else e for e in entries]
    facts = read_log(tampered)
    problems = [p for p in facts.problems if p[0] == "listing_page"]
    assert len(problems) == 1 and problems[0][2][0].seq == target.seq


def test_presented_order_is_the_order_of_the_utc_instant_text() -> None:
    rng = random.Random(11)
    rows = []
    for index in range(300):
        offset = timezone(timedelta(minutes=rng.choice([-600, -90, 0, 60, 120, 345])))
        instant = datetime(2026, 3, 29, 0, 0, tzinfo=UTC) + timedelta(
            seconds=rng.randrange(-7200, 7200), microseconds=rng.choice([0, 0, 500_000])
        )
        shown = instant.astimezone(offset).isoformat()
        cells = dict.fromkeys(REGISTER_COLUMNS, "x")
        cells["file_id"] = f"f{rng.randrange(50):02d}-{index}"
        cells["call_local_datetime"] = rng.choice([shown, shown, "2026-03-29T01:00:00", "bad"])
        rows.append([cells[c] for c in REGISTER_COLUMNS])
    time_at, id_at = (
        REGISTER_COLUMNS.index("call_local_datetime"),
        REGISTER_COLUMNS.index("file_id"),
    )

    def by_text(cells: list[str]) -> tuple[int, str, str]:
        try:
            instant = datetime.fromisoformat(cells[time_at])
        except ValueError:
            return 1, cells[time_at], cells[id_at]
        if instant.tzinfo is None:
            return 1, cells[time_at], cells[id_at]
        return 0, instant.astimezone(UTC).isoformat(), cells[id_at]

    assert sorted(rows, key=presented_order_key) == sorted(rows, key=by_text)


def test_a_time_without_a_utc_instant_sorts_with_the_invalid_ones() -> None:
    cells = dict.fromkeys(REGISTER_COLUMNS, "x")
    cells["call_local_datetime"] = "0001-01-01T00:00:00+01:00"
    row = [cells[c] for c in REGISTER_COLUMNS]
    assert presented_order_key(row)[0] == 1


def test_register_lines_are_what_the_csv_writer_writes() -> None:
    import csv
    import io

    from provebench.pilot.lab._publish import _write_rows

    rng = random.Random(5)
    alphabet = ["a", "é", " ", ",", '"', "\n", "\r", "\t", "\x00", "=", "'", "\u202e", ""]
    rows = [
        tuple("".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 4))) for _ in range(9))
        for _ in range(3000)
    ]
    rows += [("plain",) * 9, ("",) * 9, ("a", "b")]  # a short row goes through the writer
    expected = io.StringIO()
    csv.writer(expected, lineterminator="\n").writerows(rows)
    written = io.StringIO()
    _write_rows(written, csv.writer(written, lineterminator="\n"), rows)  # type: ignore[arg-type]
    assert written.getvalue() == expected.getvalue()
