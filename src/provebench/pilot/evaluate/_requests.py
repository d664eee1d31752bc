"""What a call asked, as a retry of it repeats it: the one key by which the evaluator tells that
a failed call was tried again (agent contract rule 8; pilot §11 "temporary failures").

A call's log entry holds the request and the laboratory's answer (`call`, `error`, `result`,
`applied`, and `shown_ids`, the ids a listing's answer carried when a `q` filter or `fields` mask
cut the page — docs/pilot-lab.md; a failed call's entry has none): the key is the request
alone. A listing page is asked for by where it starts — its `page_token` (the laboratory lists
one folder; a `drive.list` entry records no other field that chooses the page) — and its
`page_size` only bounds how much of it comes back: a page asked for again from the same token
with another size is the same page tried again, and its answer starts where the failed one
would have (pilot red team 39, A4: an importer that retried a 429'd page with a smaller page
size was judged "never tried again"). Every other field a listing entry may hold stays in the
key, so a request differing in anything that chooses the page is another request.
"""

from __future__ import annotations

from collections.abc import Mapping

from provebench._canonical import compact_json

# The fields of a call's entry that are the laboratory's answer or its number, not the request.
ANSWER_FIELDS = frozenset({"call", "error", "result", "applied", "shown_ids"})
# Per call kind, the request fields that bound the answer and do not choose what is asked for.
_BOUNDS_ONLY: dict[str, frozenset[str]] = {"drive.list": frozenset({"page_size"})}


def request_key(kind: str, payload: Mapping[str, object]) -> tuple[str, str]:
    """`kind` and what the call asked for, less its answer and its bounds: two calls with one
    key ask for the same thing, so the later one is a retry of the earlier."""
    left_out = ANSWER_FIELDS | _BOUNDS_ONLY.get(kind, frozenset())
    asked = {key: value for key, value in payload.items() if key not in left_out}
    return kind, compact_json(asked)


__all__ = ["ANSWER_FIELDS", "request_key"]
