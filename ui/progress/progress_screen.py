"""Renderer: the Progress screen (``#screen-progress``) from ``history.model``'s plain data.

Each chart (SVG, ``charts``) stands beside a plain table of the same numbers for screen
readers; the weakest skill links its lesson (``data-action="lesson-tip"``); export and
import of the whole progress (``progress-export``, the file field ``#progress-file``).
"""

from __future__ import annotations

from typing import Any

from ..shared import i18n
from ..shared.dom import add, byid, clear, el
from ..shared.i18n import t
from . import charts


def decimal(value: int, places: int) -> str:
    """``value`` in units of ``10**-places`` as the language writes it ("1.5", "1,5")."""
    sign = "−" if value < 0 else ""
    value = abs(value)
    whole, part = divmod(value, 10**places)
    mark = "," if i18n.language() == "fr" else "."
    return f"{sign}{whole}{mark}{part:0{places}d}" if places else f"{sign}{whole}"


def _table(caption: str, heads: list[str], rows: list[list[str]], cls: str,
           marked: int | None = None) -> Any:
    table = el("table", cls=f"pg-table {cls}")
    add(table, el("caption", caption))
    head = el("tr")
    for text in heads:
        add(head, el("th", text, scope="col"))
    add(table, add(el("thead"), head))
    body = el("tbody")
    for index, row in enumerate(rows):
        line = el("tr", cls="pg-marked-row" if index == marked else None)
        for column, text in enumerate(row):
            add(line, el("th" if column == 0 else "td", text, scope="row" if column == 0 else None))
        add(body, line)
    add(table, body)
    return table


def _figure(svg: str, table: Any) -> Any:
    box = el("div", cls="pg-figure")
    picture = el("div", cls="pg-picture")
    picture.innerHTML = svg
    add(box, picture, add(el("div", cls="pg-table-box"), table))
    return box


def _level(level: str) -> str:
    """A bot level's name as a table or an axis writes it ("Beginner", "Débutant")."""
    text = t(f"level.{level}")
    return text[:1].upper() + text[1:]


def _results(row: dict[str, Any]) -> list[str]:
    """A level's results as the tables write them: level, games, won, points per hand, Nils
    made of bid, bags per hand (the levels' table and the periods' one)."""
    return [_level(row["level"]), str(row["games"]), i18n.percent(row["win_rate"]),
            i18n.number(row["points"]),
            t("progress.nil-made", made=row["nil_made"], bid=row["nil_bid"]),
            decimal(row["bags"], 1)]


def _whole_or_tenths(value: int) -> str:
    return decimal(value, 1) if value % 10 else i18n.number(value // 10)


def _accuracy(value: int | None) -> str:
    return "—" if value is None else i18n.percent(value)


def _periods(rows: list[dict[str, Any]]) -> Any:
    """Results by bot level over time: the win rate by period, a line a level (the legend
    names each line), and the table of every figure by period and level."""
    block = el("section", cls="pg-block", id="pg-periods", aria_labelledby="pg-periods-h")
    add(block, el("h3", t("progress.periods.title"), id="pg-periods-h"))
    periods = sorted({(row["period"], row["first"], row["last"]) for row in rows})
    if len(periods) < 2:
        add(block, el("p", t("progress.periods.few"), "pg-periods-few"))
        return block
    labels = [f"{first}–{last}" for _period, first, last in periods]
    levels = [level for level in ("beginner", "normal", "expert")
              if any(row["level"] == level for row in rows)]
    series: list[tuple[str, list[int | None]]] = []
    for level in levels:
        found = {row["period"]: row["win_rate"] for row in rows if row["level"] == level}
        series.append((level, [found.get(period) for period, _first, _last in periods]))
    legend = el("p", cls="pg-legend", aria_hidden="true")
    for level in levels:
        add(legend, el("span", _level(level), f"pg-key pg-series-{level}"))
    add(block, el("p", t("progress.periods.help"), "pg-periods-help"), legend)
    svg = charts.lines_chart(t("progress.periods.title"), labels, series,
                             lambda top: i18n.percent(top), 100)
    table_rows = [[t("progress.periods.games", first=row["first"], last=row["last"]),
                   *_results(row)] for row in rows]
    add(block, _figure(svg, _table(
        t("progress.periods.caption"),
        [t("progress.col.period"), t("progress.col.level"), t("progress.col.games"),
         t("progress.col.won"), t("progress.col.pph"), t("progress.col.nil"),
         t("progress.col.bags")], table_rows, "pg-periods-table")))
    return block


def _mistakes_label(due: int) -> str:
    """The button to "Your mistakes", with how many positions are due today."""
    if not due:
        return t("menu.mistakes")
    return i18n.hint_text("progress.mistakes.due", {"count": i18n.number(due), "n": str(due)})


def draw(model: dict[str, Any], status: str = "", status_kind: str = "") -> None:
    section = clear(byid("screen-progress"))
    add(section, el("h2", t("progress.title")))
    top = el("div", cls="pg-actions")
    add(top, el("button", t("progress.back"), type="button", data_action="menu"),
        el("button", _mistakes_label(model.get("due", 0)), type="button",
           data_action="mistakes", id="pg-mistakes"))
    add(section, top)
    if model["empty"]:
        add(section, el("p", t("progress.empty"), "pg-empty"))
    series = model["series"]
    if series:
        block = el("section", cls="pg-block", id="pg-lost", aria_labelledby="pg-lost-h")
        add(block, el("h3", t("progress.lost.title"), id="pg-lost-h"))
        trend = model["trend"]
        if trend is None:
            line = t("progress.trend.few")
        elif trend < 0:
            line = t("progress.trend.down", points=decimal(-trend, 1))
        elif trend > 0:
            line = t("progress.trend.up", points=decimal(trend, 1))
        else:
            line = t("progress.trend.flat")
        add(block, el("p", line, "pg-trend-line"))
        values = [row["per_hand"] for row in series]
        svg = charts.line_chart(t("progress.lost.title"), values,
                                [str(row["game"]) for row in series],
                                _whole_or_tenths, trend)
        rows = [[str(row["game"]), _level(row["level"]), str(row["hands"]),
                 decimal(row["per_hand"], 1), _accuracy(row["accuracy"])] for row in series]
        add(block, _figure(svg, _table(
            t("progress.lost.caption"),
            [t("progress.col.game"), t("progress.col.level"), t("progress.col.hands"),
             t("progress.col.lost"), t("progress.col.accuracy")], rows, "pg-lost-table")))
        add(section, block)
    skills = [row for row in model["skills"] if row["decisions"]]
    if skills:
        block = el("section", cls="pg-block", id="pg-skills", aria_labelledby="pg-skills-h")
        add(block, el("h3", t("progress.skills.title"), id="pg-skills-h"))
        weakest = next((i for i, row in enumerate(skills) if row["weakest"]), None)
        if weakest is not None:
            row = skills[weakest]
            line = el("p", t("progress.weakest", skill=t(f"skill.{row['skill']}")),
                      "pg-weakest")
            add(line, el("button", t("progress.lesson"), "pg-lesson", type="button",
                         data_action="lesson-tip", data_arg=row["tip"]))
            if model.get("practise", {}).get(row["skill"]):  # its own positions in the deck
                add(line, el("button", t("progress.practise"), "pg-lesson pg-practise",
                             type="button", data_action="mistakes", data_arg=row["skill"]))
            add(block, line)
        else:
            add(block, el("p", t("progress.no-weakest"), "pg-weakest"))
        svg = charts.bar_chart(t("progress.skills.title"),
                               [row["per_decision"] for row in skills],
                               [t(f"skill.{row['skill']}.short") for row in skills],
                               lambda top: decimal(top, 2), weakest)
        rows = [[t(f"skill.{row['skill']}"), str(row["decisions"]),
                 _accuracy(100 * row["sound"] // row["decisions"]),
                 decimal(row["lost"], 1), decimal(row["per_decision"], 2)] for row in skills]
        add(block, _figure(svg, _table(
            t("progress.skills.caption"),
            [t("progress.col.skill"), t("progress.col.decisions"), t("progress.col.accuracy"),
             t("progress.col.points"), t("progress.col.per-decision")], rows,
            "pg-skills-table", weakest)))
        add(section, block)
    levels = model["levels"]
    if levels:
        block = el("section", cls="pg-block", id="pg-levels", aria_labelledby="pg-levels-h")
        add(block, el("h3", t("progress.levels.title"), id="pg-levels-h"))
        svg = charts.bar_chart(t("progress.levels.title"), [row["win_rate"] for row in levels],
                               [_level(row["level"]) for row in levels],
                               lambda top: i18n.percent(top), top=100)
        rows = [_results(row) for row in levels]
        add(block, _figure(svg, _table(
            t("progress.levels.caption"),
            [t("progress.col.level"), t("progress.col.games"), t("progress.col.won"),
             t("progress.col.pph"), t("progress.col.nil"), t("progress.col.bags")], rows,
            "pg-levels-table")))
        add(section, block)
        add(section, _periods(model["periods"]))
    files = el("section", cls="pg-block pg-files", aria_labelledby="pg-files-h")
    add(files, el("h3", t("progress.files.title"), id="pg-files-h"),
        el("p", t("progress.files.help")))
    row = el("div", cls="pg-actions")
    add(row, el("button", t("progress.export"), type="button", data_action="progress-export"))
    label = el("label", cls="pg-import")
    add(label, el("span", t("progress.import")),
        el("input", type="file", id="progress-file", accept=".json,application/json"))
    add(row, label)
    add(files, row)
    status_node = el("p", status, f"pg-status {status_kind}".strip(), id="progress-status",
                     role="status")
    add(files, status_node)
    add(section, files)
