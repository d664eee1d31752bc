"""pass^k: the chance that *k* independent trials of a task all succeed, estimated without bias
from *n* trials with *c* successes as C(c, k) / C(n, k), then averaged over tasks (the measure
τ-bench introduced for reliability; pass^1 is the plain success rate).

Exact arithmetic: each task's value is a `Fraction`, the average too, and only the result is
turned into a float, so the figure does not depend on the order tasks are added in (the matrix
summary must be the same bytes whatever order jobs complete in).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from math import comb


def task_pass_hat(successes: int, trials: int, k: int) -> Fraction:
    """C(c, k) / C(n, k) for one task; k must be 1..n."""
    if not 1 <= k <= trials or not 0 <= successes <= trials:
        raise ValueError(
            f"pass^k needs 1 <= k <= n and 0 <= c <= n, got k={k} n={trials} c={successes}"
        )
    return Fraction(comb(successes, k), comb(trials, k))


def pass_hat_k(tasks: Sequence[tuple[int, int]], k: int) -> float | None:
    """The mean of C(c, k) / C(n, k) over the tasks `(c, n)` that have at least k trials; None
    when none has."""
    eligible = [(c, n) for c, n in tasks if n >= k]
    if not eligible:
        return None
    total = sum((task_pass_hat(c, n, k) for c, n in eligible), Fraction(0))
    return float(total / len(eligible))


def pass_hat_curve(tasks: Sequence[tuple[int, int]]) -> dict[str, float]:
    """pass^k for k = 1 … the largest n, keyed by k as text (a JSON object's keys)."""
    largest = max((n for _, n in tasks), default=0)
    curve: dict[str, float] = {}
    for k in range(1, largest + 1):
        value = pass_hat_k(tasks, k)
        if value is not None:
            curve[str(k)] = value
    return curve


__all__ = ["pass_hat_curve", "pass_hat_k", "task_pass_hat"]
