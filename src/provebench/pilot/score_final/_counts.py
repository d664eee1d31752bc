"""The counts a join of two registers leaves for `score_final_state` (pilot §7).

Shared by the scorer's two roads: the id join (`_idjoin`) and the published reading
(`_published`).
"""

from __future__ import annotations


class KeyedJoin:
    """The counts `score_final_state` turns into the published metrics."""

    def __init__(self) -> None:
        self.expected_rows = 0
        self.candidate_rows = 0
        self.expected_none_ids = 0
        self.expected_empty_ids = 0
        self.candidate_falsy_ids = 0
        self.expected_distinct = 0
        self.candidate_distinct = 0
        self.in_both = 0
        self.expected_repeats = 0  # rows with a non-empty id that an earlier row already had
        self.candidate_repeats = 0
        self.fields_matched = 0
        self.fields_total = 0
        self.order_ok = True


def finish(join: KeyedJoin) -> KeyedJoin:
    """The counts with the candidate's repeats: its rows with an id, less its distinct ids."""
    truthy_rows = join.candidate_rows - join.candidate_falsy_ids
    join.candidate_repeats = truthy_rows - join.candidate_distinct
    return join


__all__ = ["KeyedJoin", "finish"]
