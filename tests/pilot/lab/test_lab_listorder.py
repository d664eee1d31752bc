"""The compiled merge of the Drive's listing order, `provebench.pilot.lab._listorder`.

`merge_tail(ids, files, start)` must leave both lists exactly as a stable sort of the (id, file)
pairs by id leaves them, or decline (False) and leave them as they were — never a third thing:
ids of every internal width of `str`, ids shared by the head and the tail, empty runs, and
arguments it must not touch. `DriveState`'s pages are held to the listing rule on both roads in
test_lab_listing.py.
"""

from __future__ import annotations

import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

listorder = pytest.importorskip(
    "provebench.pilot.lab._listorder",
    reason="the C accelerator was not compiled (no C compiler at install)",
)
merge_tail = listorder.merge_tail


# Ids of every internal width of str; "ab" and "aé" share a first code point.
ID = st.sampled_from(["", "a", "ab", "aé", "é", "b", "€", "𝄞", "a€", "x𝄞", "ab𝄞", "z"])


def _stably_sorted(ids: list[str], files: list[object]) -> tuple[list[str], list[object]]:
    pairs = sorted(zip(ids, files, strict=True), key=lambda pair: pair[0])
    return [i for i, _ in pairs], [f for _, f in pairs]


@settings(max_examples=1500, deadline=None)
@given(head=st.lists(ID, max_size=40), tail=st.lists(ID, max_size=40))
def test_merge_is_a_stable_sort_of_the_pairs(head: list[str], tail: list[str]) -> None:
    ids = sorted(head) + sorted(tail)
    files: list[object] = [object() for _ in ids]  # each file itself: identity tells the order
    expected = _stably_sorted(ids, files)
    assert merge_tail(ids, files, len(head)) is True
    assert ids == expected[0]
    assert all(a is b for a, b in zip(files, expected[1], strict=True))


def test_merge_moves_references_without_counting_them() -> None:
    ids = [f"{n:03d}" for n in range(0, 100, 2)] + [f"{n:03d}" for n in range(1, 100, 2)]
    files = [[n] for n in range(100)]
    held = [*ids, *files]  # every object, in the order before: each count includes this list
    before = [sys.getrefcount(item) for item in held]
    assert merge_tail(ids, files, 50) is True
    assert ids == [f"{n:03d}" for n in range(100)]
    assert files == [[n // 2] if n % 2 == 0 else [50 + n // 2] for n in range(100)]
    assert [sys.getrefcount(item) for item in held] == before


class _OtherStr(str):
    """A str subclass: its comparison could be Python code, so the merge declines."""


class _OtherList(list[object]):
    pass


@pytest.mark.parametrize(
    ("ids", "files", "start"),
    [
        pytest.param(("a", "b"), ["x", "y"], 1, id="ids-not-a-list"),
        pytest.param(["a", "b"], ("x", "y"), 1, id="files-not-a-list"),
        pytest.param(_OtherList(["a", "b"]), ["x", "y"], 1, id="a-list-subclass"),
        pytest.param(["a", "b"], ["x"], 1, id="lengths-differ"),
        pytest.param(["a", "b"], ["x", "y"], -1, id="start-below"),
        pytest.param(["a", "b"], ["x", "y"], 3, id="start-above"),
        pytest.param(["a", "c", "b"], ["x", "y", "z"], 1, id="tail-not-ascending"),
        pytest.param(["a", "c", 7], ["x", "y", "z"], 2, id="tail-id-not-str"),
        pytest.param(["a", "c", _OtherStr("b")], ["x", "y", "z"], 2, id="tail-id-str-subclass"),
        pytest.param([_OtherStr("a"), "c", "b"], ["x", "y", "z"], 2, id="head-id-str-subclass"),
        pytest.param([1, 3, "b"], ["x", "y", "z"], 2, id="head-id-not-str"),
    ],
)
def test_what_it_cannot_merge_it_leaves_as_it_was(ids: object, files: object, start: int) -> None:
    ids_before = list(ids)  # type: ignore[call-overload]
    files_before = list(files)  # type: ignore[call-overload]
    assert merge_tail(ids, files, start) is False
    assert all(a is b for a, b in zip(ids, ids_before, strict=True))  # type: ignore[call-overload]
    assert all(a is b for a, b in zip(files, files_before, strict=True))  # type: ignore[call-overload]


def test_empty_runs_merge_as_they_are() -> None:
    for ids, start in ((["a", "b"], 2), (["a", "b"], 0), ([], 0)):
        files = list(ids)
        assert merge_tail(ids, files, start) is True
        assert ids == files == sorted(ids)


def test_a_wrong_call_is_a_type_error() -> None:
    with pytest.raises(TypeError):
        merge_tail([], [])
    with pytest.raises(TypeError):
        merge_tail([], [], "0")
