"""pass^k = mean over tasks of C(c, k) / C(n, k), checked against values worked by hand."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from provebench.matrix import pass_hat_curve, pass_hat_k, task_pass_hat


def test_hand_computed_values() -> None:
    # Three tasks of three trials: 2, 3 and 0 successes.
    tasks = [(2, 3), (3, 3), (0, 3)]
    # k=1: (2/3 + 1 + 0) / 3 = 5/9; k=2: (C(2,2)/C(3,2) = 1/3 + 1 + 0) / 3 = 4/9; k=3: 1/3.
    assert pass_hat_curve(tasks) == {"1": 5 / 9, "2": 4 / 9, "3": 1 / 3}
    assert task_pass_hat(4, 10, 2) == Fraction(6, 45)  # C(4,2)/C(10,2)
    # A task with fewer trials than k does not count for that k.
    assert pass_hat_k([(1, 1), (1, 2)], 2) == 0.0
    assert pass_hat_k([(1, 1)], 2) is None


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ValueError):
        task_pass_hat(4, 3, 1)
    with pytest.raises(ValueError):
        task_pass_hat(1, 3, 0)


@given(
    st.lists(
        st.tuples(st.integers(0, 8), st.integers(1, 8)).map(lambda t: (min(t), max(t[1], 1))),
        min_size=1,
        max_size=6,
    )
)
def test_pass_hat_1_is_the_success_rate_and_order_free(tasks: list[tuple[int, int]]) -> None:
    tasks = [(min(c, n), n) for c, n in tasks]
    curve = pass_hat_curve(tasks)
    assert curve["1"] == pytest.approx(sum(c / n for c, n in tasks) / len(tasks))
    # Order-free: the same tasks in another order give the same bytes.
    assert pass_hat_curve(list(reversed(tasks))) == curve
