"""What a reader reads of an answer's markup (`_markup`, docs/si-scoring.md §11 "Markup").

The strict reading blanks what a reader does not read as the agent's assertion and keeps every
offset and line break, so the rest of the strict reading (and its findings) speak of the
original text.
"""

from __future__ import annotations

import time

import pytest

from provebench.si.primitives._markup import read_markup


def kept(text: str) -> str:
    read = read_markup(text)
    assert len(read.text) == len(text)
    assert [i for i, c in enumerate(read.text) if c in "\r\n"] == [
        i for i, c in enumerate(text) if c in "\r\n"
    ]
    return " ".join(read.text.split())


def kinds(text: str) -> list[str]:
    return [kind for kind, _start, _end in read_markup(text).dropped]


@pytest.mark.parametrize(
    ("text", "reads", "dropped"),
    [
        ("<!-- X is missing. --> I do not know.", "I do not know.", ["html_comment"]),
        ("I do not know. <!-- X is missing.", "I do not know.", ["html_comment"]),  # unclosed
        ("~~X is missing.~~ Y is the cause.", "Y is the cause.", ["struck_through"]),
        ("a <s>X is missing.</s> b <DEL>Y</DEL> c", "a b c", ["struck_through"] * 2),
        ("a <del>X is missing.\n\nb", "a b", ["struck_through"]),  # unclosed: its paragraph
        ("Example:\n```\nX is missing\n```\nDone.", "Example: Done.", ["code_block"]),
        ("Example:\n~~~yaml\nX is missing\n", "Example:", ["code_block"]),  # unclosed fence
        ("Example:\n\n    X is missing\n\nDone.", "Example: Done.", ["code_block"]),
        (
            "No.[^1]\n\n[^1]: X is missing.\n    Really.",
            "No.",
            ["definition", "footnote_reference"],
        ),
        ("[ref]: http://x.invalid 'X is missing'\nNo.", "No.", ["definition"]),
        ("See [notes](http://x.invalid 'X is missing') now.", "See [notes] now.", ["link"]),
    ],
)
def test_markup_that_is_not_asserted_is_dropped(text: str, reads: str, dropped: list[str]) -> None:
    assert kept(text) == reads
    assert kinds(text) == dropped


@pytest.mark.parametrize(
    ("text", "reads"),
    [
        # emphasis markers are blanked: a full stop before `**` ends its sentence
        ("**X is missing.** The cause is Y.", "X is missing. The cause is Y."),
        ("__X is missing.__ _Y_ and *Z*.", "X is missing. Y and Z ."),
        # headings, list items and block quote markers at the start of a line
        ("# Diagnosis\n1. X is missing\n- Y\n> Z", "Diagnosis X is missing Y Z"),
        # an identifier in backticks, an intraword underscore: prose, kept as written
        (
            "`SMTP_PORT` is missing from configmap/smtp-config",
            "`SMTP_PORT` is missing from configmap/smtp-config",
        ),
        ("SMTP_PORT and DB__PASSWORD stay", "SMTP_PORT and DB__PASSWORD stay"),
        # an indented line that continues a list item is not code
        ("- X is missing\n\n    and so is nothing else", "X is missing and so is nothing else"),
        # `~~` that does not close in its paragraph strikes nothing (GFM), and is no word
        ("a ~~b\n\nc~~ d", "a b c d"),
        ("X is missing.~~ The cause is Y.", "X is missing. The cause is Y."),
    ],
)
def test_markers_are_blanked_and_prose_is_kept(text: str, reads: str) -> None:
    assert kept(text) == reads


def test_an_answer_without_markup_is_read_as_it_is() -> None:
    text = "SMTP_PORT is missing from configmap/smtp-config.\nNothing else."
    read = read_markup(text)
    assert read.text is text and read.dropped == ()


HOSTILE = [
    "<!--",
    "<!---->",
    "~~a",
    "**_",
    "](",
    "<s ",
    "<s>a</s>",
    "[^1]",
    "_a",
    "```\n",
    "\n    x\n",
    "- a\n",
    "[^",
]


def test_a_megabyte_of_nested_and_unclosed_markers_reads_in_well_under_a_second() -> None:
    piece = "".join(HOSTILE)
    text = (piece * (1_000_000 // len(piece) + 1))[:1_000_000]
    best = float("inf")
    for _ in range(2):
        started = time.process_time()
        read = read_markup(text)
        best = min(best, time.process_time() - started)
    assert len(read.text) == len(text)
    assert best < 1.0, f"{best:.2f} s of CPU for 1 MB"


@pytest.mark.parametrize("piece", HOSTILE)
def test_the_reading_is_linear_for_each_marker(piece: str) -> None:
    # four times the answer costs about four times the CPU (a quadratic reading costs sixteen)
    def cpu_seconds(size: int) -> float:
        text = (piece * (size // len(piece) + 1))[:size]
        best = float("inf")
        for _ in range(3):
            started = time.process_time()
            read_markup(text)
            best = min(best, time.process_time() - started)
        return best

    small, large = cpu_seconds(50_000), cpu_seconds(200_000)
    assert large < 8 * max(small, 0.005)
