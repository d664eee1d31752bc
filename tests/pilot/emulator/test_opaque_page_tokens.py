"""Red team 28, F1: over the HTTP face a page token names no file. The laboratory's own token
is the last id served in hex; handed out as it was, an answer masked to
`fields=nextPageToken` (no id shown, `shown_ids: []`) told the importer every page's id."""

from __future__ import annotations

from pathlib import Path

import pytest
from googleapiclient.errors import HttpError

from provebench.pilot.emulator._page_tokens import PageTokens, run_key
from tests.pilot.emulator.test_emulator_wire import open_cycle


def test_a_masked_answers_token_names_no_file_and_only_handed_out_tokens_are_read(
    tmp_path: Path,
) -> None:
    for cycle in open_cycle(tmp_path, files=3, page_size=1):
        files = cycle.drive().files()
        masked = files.list(pageSize=1, fields="nextPageToken").execute()
        token = masked["nextPageToken"]
        lab_token = "k" + b"f000".hex()  # the laboratory's token after f000
        assert "f000" not in token and b"f000".hex() not in token
        # The token handed out continues the listing where the laboratory's would.
        page = files.list(pageSize=1, pageToken=token, fields="files(id)").execute()
        assert [f["id"] for f in page["files"]] == ["f001"]
        # The laboratory's own form is no token of this face: refused, not decoded.
        with pytest.raises(HttpError) as forged:
            files.list(pageSize=1, pageToken=lab_token).execute()
        assert forged.value.status_code == 400
        # The log keeps the laboratory's token: deterministic, and replayable from the log.
        listed = cycle.kinds("drive.list")
        assert listed[0]["shown_ids"] == [] and listed[1]["page_token"] == lab_token
        requests = [r.get("query", {}).get("pageToken") for r in cycle.kinds("http.request")]
        assert [lab_token] in requests and [token] not in requests


def test_the_key_is_the_runs_and_deterministic() -> None:
    one, other = run_key("00" * 32), run_key("11" * 32)
    assert one == run_key("00" * 32) and one != other
    assert PageTokens(one).opaque("k00") == PageTokens(one).opaque("k00")
    assert PageTokens(one).opaque("k00") != PageTokens(other).opaque("k00")
