"""The Progress screen's charts as SVG markup, drawn from plain numbers (pure).

Each chart is decorative for a screen reader (``aria-hidden``): the table beside it says the
same numbers.  Every mark carries its number (``data-value``) so that a test can read it.
"""

from __future__ import annotations

from collections.abc import Callable
from html import escape

WIDTH, HEIGHT = 320, 160
# the left pad holds the top's label: six characters at the charts' 10px ("191.40")
PAD_LEFT, PAD_RIGHT, PAD_TOP, PAD_BOTTOM = 42, 8, 10, 22


def _scale(top: int) -> int:
    """A round top for the axis at or above ``top`` (at least 10): 1, 2 or 5 times a power
    of ten."""
    step = 10
    while True:
        for factor in (1, 2, 5):
            if top <= step * factor:
                return step * factor
        step *= 10


def _svg(label: str, inner: str, kind: str) -> str:
    return (f'<svg class="pg-chart pg-chart-{kind}" viewBox="0 0 {WIDTH} {HEIGHT}" '
            f'preserveAspectRatio="xMidYMid meet" aria-hidden="true" focusable="false" '
            f'data-chart="{kind}"><title>{escape(label)}</title>{inner}</svg>')


def _axis(top: int, unit: str) -> str:
    """The frame, the 0 and top lines and their labels (``unit``: the top's)."""
    x0, x1 = PAD_LEFT, WIDTH - PAD_RIGHT
    y0, y1 = HEIGHT - PAD_BOTTOM, PAD_TOP
    return (f'<line class="pg-axis" x1="{x0}" y1="{y0}" x2="{x1}" y2="{y0}"/>'
            f'<line class="pg-grid" x1="{x0}" y1="{y1}" x2="{x1}" y2="{y1}"/>'
            f'<text class="pg-tick" x="{x0 - 4}" y="{y0 + 4}" text-anchor="end">0</text>'
            f'<text class="pg-tick" x="{x0 - 4}" y="{y1 + 4}" text-anchor="end">'
            f'{escape(unit)}</text>')


def line_chart(label: str, values: list[int], labels: list[str],
               top_text: Callable[[int], str], trend_per_10: int | None) -> str:
    """Points lost per hand, game after game (``values`` in tenths), with the trend line
    (least squares: ``trend_per_10`` tenths per 10 games) when there is one."""
    top = _scale(max(values, default=0))
    x0, x1 = PAD_LEFT, WIDTH - PAD_RIGHT
    y0, y1 = HEIGHT - PAD_BOTTOM, PAD_TOP
    count = len(values)

    def x(i: int) -> float:
        return x0 + (x1 - x0) * (i + 0.5) / max(count, 1)

    def y(v: float) -> float:
        return y0 - (y0 - y1) * min(max(v, 0.0), top) / top

    parts = [_axis(top, top_text(top))]
    if count > 1:
        points = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(values))
        parts.append(f'<polyline class="pg-line" points="{points}"/>')
    if trend_per_10 is not None and count >= 3:
        mean = sum(values) / count
        slope = trend_per_10 / 10
        start = mean - slope * (count - 1) / 2
        parts.append(f'<line class="pg-trend" data-trend="{trend_per_10}" x1="{x(0):.1f}" '
                     f'y1="{y(start):.1f}" x2="{x(count - 1):.1f}" '
                     f'y2="{y(start + slope * (count - 1)):.1f}"/>')
    for i, v in enumerate(values):
        parts.append(f'<circle class="pg-dot" cx="{x(i):.1f}" cy="{y(v):.1f}" r="3.5" '
                     f'data-value="{v}"/>')
        if count <= 12 or i % 2 == 0:
            parts.append(f'<text class="pg-tick" x="{x(i):.1f}" y="{HEIGHT - 6}" '
                         f'text-anchor="middle">{escape(labels[i])}</text>')
    return _svg(label, "".join(parts), "line")


def bar_chart(label: str, values: list[int], labels: list[str],
              top_text: Callable[[int], str], marked: int | None = None,
              top: int | None = None) -> str:
    """One bar per value (``marked``: the index of the bar that stands out)."""
    top = top or _scale(max(values, default=0))
    x0, x1 = PAD_LEFT, WIDTH - PAD_RIGHT
    y0, y1 = HEIGHT - PAD_BOTTOM, PAD_TOP
    count = max(len(values), 1)
    slot = (x1 - x0) / count
    parts = [_axis(top, top_text(top))]
    for i, v in enumerate(values):
        height = (y0 - y1) * min(max(v, 0), top) / top
        cls = "pg-bar pg-marked" if i == marked else "pg-bar"
        parts.append(f'<rect class="{cls}" x="{x0 + slot * i + slot * 0.15:.1f}" '
                     f'y="{y0 - height:.1f}" width="{slot * 0.7:.1f}" height="{height:.1f}" '
                     f'data-value="{v}"/>')
        parts.append(f'<text class="pg-tick" x="{x0 + slot * (i + 0.5):.1f}" y="{HEIGHT - 6}" '
                     f'text-anchor="middle">{escape(labels[i])}</text>')
    return _svg(label, "".join(parts), "bars")


def lines_chart(label: str, labels: list[str], series: list[tuple[str, list[int | None]]],
                top_text: Callable[[int], str], top: int) -> str:
    """One line per named series over the same steps (``labels``), ``None`` where a series
    has no value (its line breaks there); each series' marks carry ``pg-series-NAME``."""
    x0, x1 = PAD_LEFT, WIDTH - PAD_RIGHT
    y0, y1 = HEIGHT - PAD_BOTTOM, PAD_TOP
    count = max(len(labels), 1)

    def x(i: int) -> float:
        return x0 + (x1 - x0) * (i + 0.5) / count

    def y(v: float) -> float:
        return y0 - (y0 - y1) * min(max(v, 0.0), top) / top

    parts = [_axis(top, top_text(top))]
    for name, values in series:
        run: list[str] = []
        for i, v in enumerate([*values, None]):
            if v is not None:
                run.append(f"{x(i):.1f},{y(v):.1f}")
                continue
            if len(run) > 1:
                parts.append(f'<polyline class="pg-line pg-series-{escape(name)}" '
                             f'points="{" ".join(run)}"/>')
            run = []
        for i, v in enumerate(values):
            if v is not None:
                parts.append(f'<circle class="pg-dot pg-series-{escape(name)}" cx="{x(i):.1f}" '
                             f'cy="{y(v):.1f}" r="3.5" data-series="{escape(name)}" '
                             f'data-value="{v}"/>')
    for i, text in enumerate(labels):
        parts.append(f'<text class="pg-tick" x="{x(i):.1f}" y="{HEIGHT - 6}" '
                     f'text-anchor="middle">{escape(text)}</text>')
    return _svg(label, "".join(parts), "lines")
