"""Plots as inline SVG: grouped bar charts, drawn here in a few dozen lines.

Why a renderer of our own and not a plotting library: a report must be the same bytes for the
same verdict, hold no script and load no resource. Plotting libraries embed their version,
random ids or timestamps in SVG output (matplotlib does all three unless each is switched off,
and a new release may add another), and a bar chart with an axis and a legend is small enough to
read whole. Every coordinate is rounded to a tenth of a pixel, so the bytes do not depend on
float formatting; every text is escaped (a label may come from the verdict).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from markupsafe import Markup, escape

WIDTH = 720
HEIGHT = 220
_LEFT, _RIGHT, _TOP, _BOTTOM = 48, 12, 28, 36


@dataclass(frozen=True)
class Series:
    name: str
    values: Sequence[float]
    css_class: str
    # True where the value is vacuous (nothing could fail: a metric over nothing due). Such a
    # value is drawn as a grey "nothing due" box, never as a bar of its series: a vacuous 1.0
    # drawn in the success colour would read as a success.
    vacuous: Sequence[bool] = ()


NOTHING_DUE = "nothing due"


def _n(value: float) -> str:
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


def _tick(value: float) -> str:
    return f"{value:g}"


def _grid(left: float, top: float, plot_h: float) -> str:
    """Five horizontal grid lines from 0 to `top`, each with its value."""
    lines = []
    for step in range(5):
        value, y = top * step / 4, _TOP + plot_h - plot_h * step / 4
        lines.append(
            f'<line class="grid" x1="{left}" x2="{WIDTH - _RIGHT}" y1="{_n(y)}" y2="{_n(y)}"/>'
            f'<text class="tick" x="{left - 4}" y="{_n(y + 4)}" text-anchor="end">'
            f"{escape(_tick(value))}</text>"
        )
    return "".join(lines)


def _legend(keyed: Sequence[tuple[str, str]], bottom: float) -> str:
    """One swatch and name per series, in a row along the chart's bottom edge."""
    items, x = [], _LEFT
    for name, css_class in keyed:
        items.append(
            f'<rect class="{escape(css_class)}" x="{x}" y="{_n(bottom - 12)}" width="10" '
            f'height="10"/><text class="tick" x="{x + 14}" y="{_n(bottom - 3)}">'
            f"{escape(name)}</text>"
        )
        x += 24 + 7 * len(name)
    return "".join(items)


def bar_chart(
    title: str,
    categories: Sequence[str],
    series: Sequence[Series],
    *,
    y_max: float | None = None,
    y_label: str = "",
) -> Markup:
    """A grouped bar chart: one group per category, one bar per series."""
    values = [v for s in series for v in s.values]
    top = y_max if y_max is not None else max([1.0, *values])
    if y_max is None and all(float(v).is_integer() for v in values):
        top = float(math.ceil(top / 4) * 4)  # counts: whole numbers on every grid line
    # Labels wider than their group are turned 35 degrees; the chart grows below to hold them,
    # and to the left so that the first one is not cut off.
    longest = max((len(c) for c in categories), default=0)
    slanted = longest * 6.2 > (WIDTH - _LEFT - _RIGHT) / max(1, len(categories))
    left = min(260, max(_LEFT, int(longest * 6.2 * 0.82))) if slanted else _LEFT
    chart_h = HEIGHT + (int(longest * 6.2 * 0.58) if slanted else 0)
    plot_w = WIDTH - left - _RIGHT
    group_w = plot_w / max(1, len(categories))
    plot_h = HEIGHT - _TOP - _BOTTOM
    bar_w = max(1.0, group_w * 0.8 / max(1, len(series)))
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" role="img" '
        f'viewBox="0 0 {WIDTH} {chart_h}" width="{WIDTH}" height="{chart_h}">',
        f"<title>{escape(title)}</title>",
        f'<text class="chart-title" x="{left}" y="16">{escape(title)}</text>',
    ]
    parts.append(_grid(left, top, plot_h))
    if y_label:
        parts.append(
            f'<text class="tick" x="{left - 36}" y="{_n(_TOP + plot_h / 2)}" '
            f'text-anchor="middle" transform="rotate(-90 {left - 36} {_n(_TOP + plot_h / 2)})">'
            f"{escape(y_label)}</text>"
        )
    label_every = max(1, len(categories) // 24)  # at most about 24 labels on the axis
    for index, category in enumerate(categories):
        x0 = left + group_w * index + group_w * 0.1
        for position, one in enumerate(series):
            value = one.values[index] if index < len(one.values) else 0.0
            if index < len(one.vacuous) and one.vacuous[index]:
                parts.append(
                    f'<rect class="nothing-due" x="{_n(x0 + bar_w * position)}" '
                    f'y="{_n(_TOP)}" width="{_n(bar_w)}" height="{_n(plot_h)}">'
                    f"<title>{escape(one.name)} {escape(category)}: {NOTHING_DUE}</title></rect>"
                )
                continue
            bar_h = 0.0 if top <= 0 else plot_h * min(value, top) / top
            parts.append(
                f'<rect class="{escape(one.css_class)}" x="{_n(x0 + bar_w * position)}" '
                f'y="{_n(_TOP + plot_h - bar_h)}" width="{_n(bar_w)}" height="{_n(bar_h)}">'
                f"<title>{escape(one.name)} {escape(category)}: {escape(_tick(value))}</title>"
                "</rect>"
            )
        if index % label_every == 0:
            at_x, at_y = _n(left + group_w * (index + 0.5)), _n(_TOP + plot_h + 14)
            turn = (
                f' transform="rotate(-35 {at_x} {at_y})" text-anchor="end"'
                if slanted
                else ' text-anchor="middle"'
            )
            parts.append(
                f'<text class="tick" x="{at_x}" y="{at_y}"{turn}>{escape(category)}</text>'
            )
    keyed = [(one.name, one.css_class) for one in series]
    if any(flag for one in series for flag in one.vacuous):
        keyed.append((NOTHING_DUE, "nothing-due"))
    parts.append(_legend(keyed, chart_h))
    parts.append("</svg>")
    return Markup("".join(parts))


def line_chart(
    title: str,
    x_labels: Sequence[str],
    series: Sequence[Series],
    *,
    y_max: float = 1.0,
    x_label: str = "",
) -> Markup:
    """One line per series over the same x positions (a series may stop early: pass^k of an
    agent with fewer trials); each point carries its value in a tooltip."""
    plot_w, plot_h = WIDTH - _LEFT - _RIGHT, HEIGHT - _TOP - _BOTTOM
    step = plot_w / max(1, len(x_labels) - 1)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" role="img" '
        f'viewBox="0 0 {WIDTH} {HEIGHT + 16}" width="{WIDTH}" height="{HEIGHT + 16}">',
        f"<title>{escape(title)}</title>",
        f'<text class="chart-title" x="{_LEFT}" y="16">{escape(title)}</text>',
    ]
    parts.append(_grid(_LEFT, y_max, plot_h))
    label_every = max(1, len(x_labels) // 24)
    for index, label in enumerate(x_labels):
        if index % label_every == 0:
            parts.append(
                f'<text class="tick" x="{_n(_LEFT + step * index)}" y="{_n(_TOP + plot_h + 14)}" '
                f'text-anchor="middle">{escape(label)}</text>'
            )
    if x_label:
        parts.append(
            f'<text class="tick" x="{_n(_LEFT + plot_w / 2)}" y="{_n(_TOP + plot_h + 28)}" '
            f'text-anchor="middle">{escape(x_label)}</text>'
        )
    for number, one in enumerate(series):
        points = [
            (_LEFT + step * index, _TOP + plot_h - plot_h * min(value, y_max) / y_max)
            for index, value in enumerate(one.values)
        ]
        if len(points) > 1:
            path = " ".join(f"{_n(x)},{_n(y)}" for x, y in points)
            parts.append(f'<polyline class="line series-{number % 6}" points="{path}"/>')
        for (x, y), label, value in zip(points, x_labels, one.values, strict=False):
            parts.append(
                f'<circle class="point series-{number % 6}" cx="{_n(x)}" cy="{_n(y)}" r="3">'
                f"<title>{escape(one.name)} {escape(label)}: {escape(_tick(value))}</title>"
                "</circle>"
            )
    keyed = [(one.name, f"series-{number % 6}") for number, one in enumerate(series)]
    parts.append(_legend(keyed, HEIGHT + 16))
    parts.append("</svg>")
    return Markup("".join(parts))


__all__ = ["HEIGHT", "NOTHING_DUE", "WIDTH", "Series", "bar_chart", "line_chart"]
