"""The model loop's transcript note is a record of tool calls, not a report
(docs/pilot-evaluator.md): its turns name every file the model read or reported refused, and
reading them as claims failed every run of provebench's own `openai:` importer. Any other note
naming a refused file is still a claim."""

from __future__ import annotations

import json

from provebench.pilot.agents._openai import TRANSCRIPT_NOTE
from provebench.pilot.evaluate._claims import TRANSCRIPT_FORMAT, NamedFiles, is_transcript_note


def test_the_evaluator_knows_the_loop_s_transcript_format() -> None:
    assert TRANSCRIPT_FORMAT == TRANSCRIPT_NOTE


def test_a_transcript_note_is_not_read_for_claims_and_any_other_note_is() -> None:
    turns = [
        {
            "role": "assistant",
            "tool_calls": [
                {"function": {"name": "get_file", "arguments": json.dumps({"file_id": "bad-7"})}}
            ],
        }
    ]
    transcript = {
        "channel": "note",
        "message": json.dumps({"format": TRANSCRIPT_NOTE, "turns": turns}),
    }
    assert is_transcript_note(transcript)
    claim = {"channel": "note", "message": "bad-7 processed successfully"}
    other_format = {"channel": "note", "message": json.dumps({"format": "mine", "turns": turns})}
    on_another_channel = {"channel": "reconciliation", "message": transcript["message"]}
    for payload in (claim, other_format, on_another_channel):
        assert not is_transcript_note(payload)
        assert NamedFiles(frozenset({"bad-7"})).named(payload) == ["bad-7"]
