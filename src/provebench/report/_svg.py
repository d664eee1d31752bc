"""Plots as inline SVG: grouped bar charts, drawn here in a few dozen lines.

Why a renderer of our own and not a plotting library: a report must be the same bytes for the
same verdict, hold no script and load no resource. Plotting libraries embed their version,
random ids or timestamps in SVG output (matplotlib does all three unless each is switched off,
and a new release may add another), and a bar chart with an axis and a legend is small enough to
read whole. Every coordinate is rounded to a tenth of a pixel, so the bytes do not depend on
float formatting; every text is escaped (a label may come from the verdict).
"""

from __future__ import annotations

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


def _n(value: float) -> str:
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


def _tick(value: float) -> str:
    return f"{value:g}"


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
    plot_w = WIDTH - _LEFT - _RIGHT
    plot_h = HEIGHT - _TOP - _BOTTOM
    group_w = plot_w / max(1, len(categories))
    bar_w = max(1.0, group_w * 0.8 / max(1, len(series)))
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" role="img" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" height="{HEIGHT}">',
        f"<title>{escape(title)}</title>",
        f'<text class="chart-title" x="{_LEFT}" y="16">{escape(title)}</text>',
    ]
    for step in range(5):  # horizontal grid lines and their values
        value = top * step / 4
        y = _TOP + plot_h - plot_h * step / 4
        parts.append(
            f'<line class="grid" x1="{_LEFT}" x2="{WIDTH - _RIGHT}" y1="{_n(y)}" y2="{_n(y)}"/>'
            f'<text class="tick" x="{_LEFT - 4}" y="{_n(y + 4)}" text-anchor="end">'
            f"{escape(_tick(value))}</text>"
        )
    if y_label:
        parts.append(
            f'<text class="tick" x="10" y="{_n(_TOP + plot_h / 2)}" text-anchor="middle" '
            f'transform="rotate(-90 10 {_n(_TOP + plot_h / 2)})">{escape(y_label)}</text>'
        )
    label_every = max(1, len(categories) // 24)  # at most about 24 labels on the axis
    for index, category in enumerate(categories):
        x0 = _LEFT + group_w * index + group_w * 0.1
        for position, one in enumerate(series):
            value = one.values[index] if index < len(one.values) else 0.0
            height = 0.0 if top <= 0 else plot_h * min(value, top) / top
            parts.append(
                f'<rect class="{escape(one.css_class)}" x="{_n(x0 + bar_w * position)}" '
                f'y="{_n(_TOP + plot_h - height)}" width="{_n(bar_w)}" height="{_n(height)}">'
                f"<title>{escape(one.name)} {escape(category)}: {escape(_tick(value))}</title>"
                "</rect>"
            )
        if index % label_every == 0:
            parts.append(
                f'<text class="tick" x="{_n(_LEFT + group_w * (index + 0.5))}" '
                f'y="{_n(_TOP + plot_h + 14)}" text-anchor="middle">{escape(category)}</text>'
            )
    x = _LEFT
    for one in series:  # the legend, under the axis
        parts.append(
            f'<rect class="{escape(one.css_class)}" x="{x}" y="{HEIGHT - 12}" width="10" '
            f'height="10"/><text class="tick" x="{x + 14}" y="{HEIGHT - 3}">'
            f"{escape(one.name)}</text>"
        )
        x += 24 + 7 * len(one.name)
    parts.append("</svg>")
    return Markup("".join(parts))


__all__ = ["HEIGHT", "WIDTH", "Series", "bar_chart"]
