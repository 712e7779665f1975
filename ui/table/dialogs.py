"""Dialogs (browser only): score sheet, end of game, last trick, rules and FAQ, options, stats.

Each draws plain data (``ui/shared/models.py``'s sheet and last-trick models, the options and the
statistics) and declares its buttons by action name; it reads no game state and imports no
controller. Cards are drawn by ``ui/shared/cardview.py``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from spades_core import Seat, parse_card

from ..shared import i18n
from ..shared import options as opts
from ..shared.cardview import card_element
from ..shared.dom import add, byid, clear, el
from ..shared.i18n import t
from ..shared.models import LastTrickModel, SheetModel, hand_order
from . import stats as stats_mod
from .icons import icon
from .viewer import review_frame

TEAM_SEATS = ((Seat.S, Seat.N), (Seat.E, Seat.W))


def _open(title: str, body_cls: str = "dialog-body") -> tuple[Any, Any]:
    dialog = byid("dialog")
    clear(dialog)
    # Focusable by script only: a dialog opens on its title, at its top (see _show).
    add(dialog, el("h2", title, id="dialog-title", tabindex="-1"))
    body = el("div", cls=body_cls)
    add(dialog, body)
    return dialog, body


def _show(dialog: Any, *buttons: Any) -> None:
    actions = el("div", cls="actions")
    for button in buttons:
        add(actions, button)
    add(dialog, actions)
    if not dialog.open:
        dialog.showModal()
    # Open at the top, on the title: focusing the first button would scroll a long dialog
    # (rules, FAQ, score sheet) to its bottom, and Enter would act before anything was read.
    # Tab then reaches the dialog's controls in order.
    title = dialog.querySelector("#dialog-title")
    if title:
        title.focus()
    dialog.scrollTop = 0
    for node in dialog.querySelectorAll(".scroll, .dialog-body"):
        node.scrollTop = 0


def _button(key: str, action: str, primary: bool = False) -> Any:
    return el("button", t(key), "primary" if primary else None, type="button",
              data_action=action)


def close_dialog() -> None:
    dialog = byid("dialog")
    if dialog.open:
        dialog.close()


# --- score sheet -----------------------------------------------------------------------


_signed, _number = i18n.signed, i18n.number  # "+60", "−60": the page's one number format


def score_sheet(model: SheetModel) -> None:
    hands, pending = model.hands, model.pending
    title = t("sheet.title", number=len(hands)) if pending and hands else t("sheet.title.all")
    dialog, body = _open(model.title or title)
    if not hands:
        add(body, el("p", t("sheet.none")))
    else:
        last = hands[-1]
        bids = last.bids_by_seat
        wrap = el("div", cls="scroll")
        table = el("table", cls="dense")
        head = el("tr")
        for key in ("sheet.team", "sheet.bids", "sheet.tricks", "sheet.points", "sheet.bags",
                    "sheet.total"):
            add(head, el("th", t(key), "num" if key not in ("sheet.team", "sheet.bids") else None,
                         scope="col"))
        add(table, el("thead"))
        table.firstChild.appendChild(head)
        tbody = el("tbody")
        notes: list[str] = []
        for team, seats in enumerate(TEAM_SEATS):
            score = last.teams[team]
            parts = [f"{model.seats[int(s)]} {i18n.bid_text(str(bids[int(s)]))}" for s in seats]
            # no line break inside a figure ("(1 + 6)", "+1 → 1") on a phone's narrow sheet
            tricks = "\u00a0+\u00a0".join(str(last.tricks[int(s)]) for s in seats)
            status = t("sheet.made" if score.made else "sheet.set")
            row = el("tr")
            add(row, el("th", model.teams[team], scope="row"),
                el("td", t("sheet.contract", contract=score.contract, bids=", ".join(parts))),
                el("td", f"{score.tricks} ({tricks}) · {status}", "num"),
                el("td", _signed(score.points), "num"),
                el("td", f"+{score.bags}\u00a0→\u00a0{score.bags_after}", "num"),
                el("td", _number(last.scores[team]), "num"))
            add(tbody, row)
            for nil in score.nils:
                bid_name = t("bid.name.blind-nil" if nil.blind else "bid.name.nil")
                key = "sheet.nil.made" if nil.made else "sheet.nil.failed"
                notes.append(t(key, seat=model.seats[nil.seat], bid=bid_name,
                               points=_signed(nil.points)))
            if score.bag_penalty:
                penalty = t("sheet.penalty", points=_number(score.bag_penalty))
                notes.append(f"{model.teams[team]} — {penalty}")
        add(table, tbody)
        add(wrap, table)
        add(body, wrap)
        if model.replay:  # the hand viewer: this hand trick by trick, every hand face up
            add(body, el("button", t("sheet.replay", number=last.hand_index + 1),
                         "vw-open", type="button", data_action="viewer",
                         data_arg=str(last.hand_index)))
        if notes:
            items = el("ul")
            for note in notes:
                add(items, el("li", note))
            add(body, items)
        if len(hands) > 1:
            add(body, el("h3", t("sheet.total")))
            history = el("table")
            head = el("tr")
            add(head, el("th", "#", scope="col"),
                el("th", model.teams[0], "num", scope="col"),
                el("th", model.teams[1], "num", scope="col"))
            add(history, head)
            for result in hands:
                row = el("tr")
                name = t("sheet.hand", number=result.hand_index + 1)
                cell = el("th", None if model.replay else name, scope="row")
                if model.replay:  # the hand's row opens it in the hand viewer
                    add(cell, el("button", name, "link vw-row", type="button",
                                 data_action="viewer", data_arg=str(result.hand_index),
                                 aria_label=t("sheet.replay", number=result.hand_index + 1)))
                add(row, cell,
                    el("td", f"{_signed(result.teams[0].points)} = {_number(result.scores[0])}",
                       "num"),
                    el("td", f"{_signed(result.teams[1].points)} = {_number(result.scores[1])}",
                       "num"))
                add(history, row)
            wrap2 = el("div", cls="scroll")
            add(wrap2, history)
            add(body, wrap2)
    if pending:
        key = ("practice.back" if model.practice else "sheet.to-end" if model.over
               else "sheet.next")
        _show(dialog, _button(key, "sheet-next", primary=True))
    elif model.back is not None:  # a board's game: back to the board, or close
        text, action, arg = model.back
        _show(dialog, el("button", text, "primary", type="button", data_action=action,
                         data_arg=arg, id="sheet-back"), _button("dialog.close", "close"))
    else:
        _show(dialog, _button("dialog.close", "close", primary=True))


# --- end of game ---------------------------------------------------------------------------


def end_dialog(scores: tuple[int, int], deal: int, level: str, won: bool,
               daily_line: str | None) -> None:
    dialog, body = _open(t("end.title"))
    ns, ew = scores
    result = el("p", t("end.won" if won else "end.lost"), "end-result")
    if won:
        result.prepend(icon("trophy"))
    add(body, result)
    add(body, el("p", t("end.score", ns=_number(ns), ew=_number(ew))))
    add(body, el("p", t("end.deal", deal=deal, level=t(f"level.{level}"))))
    if daily_line:
        add(body, el("p", daily_line))
    add(body, el("div", cls="share-box", id="share-box"))
    _show(dialog,
          _button("end.new", "new", primary=True),
          _button("end.replay", "replay"),
          _button("end.share", "share"),
          _button("end.daily", "daily"))


def daily_done(date: str, won: bool, scores: tuple[int, int]) -> None:
    """Today's deal asked for once its result is in: said, and offered again."""
    dialog, body = _open(t("daily-done.title"))
    add(body, el("p", t("daily-done.text", date=date,
                        result=t("end.daily.won" if won else "end.daily.lost"),
                        ns=_number(scores[0]), ew=_number(scores[1]))))
    _show(dialog, _button("daily-done.again", "daily-again", primary=True),
          _button("dialog.close", "close"))


def confirm_new(scores: tuple[int, int], hand_number: int, coming: str = "") -> None:
    """Asked before an unfinished game is replaced: keeping it is the first, focused answer.
    ``coming`` names the game a link opens ("Deal 12345"), when a link asks."""
    dialog, body = _open(t("confirm-new.title"))
    add(body, el("p", t("confirm-new.help")),
        el("p", t("confirm-new.where", hand=hand_number, ns=_number(scores[0]),
                  ew=_number(scores[1]))))
    if coming:
        add(body, el("p", t("confirm-new.link", deal=coming), id="confirm-new-link"))
    _show(dialog, _button("confirm-new.keep", "new-no", primary=True),
          _button("confirm-new.start", "new-yes"))


def share_result(url: str, copied: bool) -> None:
    box = byid("share-box")
    if not box:
        return
    clear(box)
    add(box, el("p", t("end.shared" if copied else "end.share-manual")),
        el("code", url, "share-link", id="share-link"))


# --- last trick --------------------------------------------------------------------------


def last_trick_dialog(model: LastTrickModel) -> None:
    dialog, body = _open(t("last.title"))
    if not model.cards:
        add(body, el("p", t("last.none")))
    else:
        row = el("div", cls="trick-row")
        for seat_name, card in model.cards:
            figure = el("figure")
            add(figure, card_element(card), el("figcaption", seat_name))
            add(row, figure)
        add(body, row)
        if model.winner is not None:
            add(body, el("p", t("last.winner", seat=model.winner)))
        if model.previous:
            add(body, el("p", t("last.previous"), "last-previous", id="last-previous"))
    _show(dialog, _button("dialog.close", "close", primary=True))


# --- rules and FAQ ---------------------------------------------------------------------------


def _section_order(key: str) -> tuple[str, int, str]:
    """``rules.02.h`` before ``rules.02.1``; ``faq.03.q`` before ``faq.03.a``."""
    _, section, item = (key.split(".") + ["", ""])[:3]
    return section, 0 if item in ("h", "q") else 1, item.zfill(3)


def rules_dialog(tab: str) -> None:
    dialog, body = _open(t("rules.title"))
    tabs = el("div", cls="tabs", role="group")
    for name in ("rules", "faq"):
        add(tabs, el("button", t(f"rules.tab.{name}"), type="button", data_action=name,
                     aria_pressed="true" if name == tab else "false",
                     aria_selected=None))
    add(body, tabs)
    entries = i18n.catalogue(i18n.language(), tab) or i18n.catalogue("en", tab)
    if tab == "rules":
        current = None
        for key in sorted(entries, key=_section_order):
            if key.endswith(".h"):
                add(body, el("h3", entries[key]))
                current = el("ul")
                add(body, current)
            elif current is not None:
                add(current, el("li", entries[key]))
    else:
        listing = el("dl")
        for key in sorted(entries, key=_section_order):
            add(listing, el("dt" if key.endswith(".q") else "dd", entries[key]))
        add(body, listing)
    _show(dialog, _button("dialog.close", "close", primary=True))


# --- options ---------------------------------------------------------------------------------


def options_dialog(options: dict[str, Any]) -> None:
    dialog, body = _open(t("options.title"))
    grid = el("div", cls="form-grid")
    for name, values in opts.CHOICES.items():
        ident = f"opt-{name}"
        label = el("label", t(f"options.{name}"), for_=ident)
        if values and isinstance(values[0], bool):
            field = el("input", type="checkbox", id=ident, data_option=name)
            field.checked = bool(options[name])
        else:
            field = el("select", id=ident, data_option=name)
            for value in values:
                text = str(value) if name == "target" else t(f"options.{name}.{value}")
                option = el("option", text, value=str(value))
                if value == options[name]:
                    option.selected = True
                add(field, option)
        add(grid, label, field)
    add(body, grid, el("p", t("options.rules-note")))
    _show(dialog, _button("dialog.close", "close", primary=True))


# --- statistics -------------------------------------------------------------------------------


def _rate(row: dict[str, Any]) -> str:
    rate = stats_mod.win_rate(row)
    return t("stats.none") if rate is None else i18n.percent(round(rate * 100))


def stats_dialog(stats: dict[str, Any], done: bool = False) -> None:
    dialog, body = _open(t("stats.title"))
    wrap = el("div", cls="scroll")
    table = el("table", cls="dense", id="stats-table")
    # one column a level, one row a figure: five columns fit a phone's width
    columns = [(t(f"options.level.{lvl}"), stats["levels"][lvl]) for lvl in stats_mod.LEVELS]
    columns.append((t("stats.all"), stats_mod.totals(stats)))
    head = el("tr")
    add(head, el("th", t("stats.level"), scope="col"))
    for label, _ in columns:
        add(head, el("th", label, "num", scope="col"))
    add(table, head)
    figures: list[tuple[str, Callable[[dict[str, Any]], str]]] = [
        ("stats.played", lambda row: str(row["played"])),
        ("stats.won", lambda row: str(row["won"])),
        ("stats.rate", _rate),
        ("stats.best", lambda row: t("stats.none") if row["best"] is None
         else _number(row["best"])),
        ("stats.streak", lambda row: str(row["streak"])),
        ("stats.best-streak", lambda row: str(row["best_streak"])),
    ]
    for key, figure in figures:
        line = el("tr")
        add(line, el("th", t(key), scope="row"))
        for _, row in columns:
            add(line, el("td", figure(row), "num"))
        add(table, line)
    add(wrap, table)
    add(body, wrap, el("p", t("stats.daily", count=len(stats["daily"]))))
    recent = sorted(stats["daily"].items())[-5:]
    if recent:
        items = el("ul")
        for date, result in reversed(recent):
            add(items, el("li", t("end.daily-result", date=i18n.day_text(int(date)),
                                  result=t("end.daily.won" if result["won"] else "end.daily.lost"),
                                  ns=_number(result["ns"]), ew=_number(result["ew"]))))
        add(body, items)
    if done:
        add(body, el("p", t("stats.reset.done"), role="status"))
    _show(dialog, _button("dialog.close", "close", primary=True),
          _button("stats.reset", "stats-reset"))


def stats_confirm() -> None:
    dialog, body = _open(t("stats.title"))
    add(body, el("p", t("stats.reset.confirm")))
    _show(dialog, _button("stats.reset.no", "stats-reset-no", primary=True),
          _button("stats.reset.yes", "stats-reset-yes"))


# --- the coach: the review beside the score sheet, the par in the end-of-game dialog -------


def _coach_text(key: str, **params: object) -> str:
    """A sentence of the coach's catalogue, plural marks resolved."""
    values = {name: str(value) for name, value in params.items()}
    return t(key) if not values else i18n.hint_text(key, values)


def _small_card(text: str) -> Any:
    from ..shared.models import CardModel

    return card_element(CardModel(text=text, label=i18n.card_name(text), classes=("small",)))


def _decision_head(item: dict[str, Any]) -> str:
    """A reviewed decision's heading: what was played and what was better."""
    kind = item["kind"]
    played, better = _action_name(kind, item["played"]), _action_name(kind, item["better"])
    if kind == "bid":
        return _coach_text("review.bid", played=played, better=better)
    return _coach_text("review.card", trick=item["trick_number"], played=played, better=better)


open_dialog, show_dialog = _open, _show  # for the other screens' dialogs (ui/rooms/rooms_screen.py)


def _action_name(kind: str, text: str) -> str:
    return i18n.bid_text(text) if kind == "bid" else i18n.card_short(text)


def _found(node: Any) -> bool:
    """Whether a DOM lookup found an element (a miss is None, or Pyodide's JsNull)."""
    return node is not None and type(node).__name__ != "JsNull" and bool(node)


def _panel(panel_id: str, keys: str, data: dict[str, Any] | None) -> Any:
    """The dialog's coach panel ``panel_id`` (made at the end of the body), emptied and
    titled ``{keys}.title``; while ``data`` is None it says ``{keys}.computing`` and None is
    returned, as it is when no dialog is open: the caller has nothing more to draw."""
    node = byid(panel_id)
    if not _found(node):
        dialog = byid("dialog")
        body = dialog.querySelector(".dialog-body") if _found(dialog) else None
        if not _found(body):
            return None
        node = el("section", cls="coach-panel", id=panel_id, aria_live="polite")
        add(body, node)
    clear(node)
    add(node, el("h3", t(f"{keys}.title")))
    if data is None:
        node.setAttribute("data-state", "computing")
        add(node, el("p", t(f"{keys}.computing"), "coach-computing"))
        return None
    return node


def _in_hand_order(cards: list[str]) -> list[str]:
    """Card texts in the order the hand shows them (the one order of the page)."""
    return [str(card) for card in hand_order(parse_card(text) for text in cards)]


def review_progress(done: int, count: int) -> None:
    """How far the review of the hand got: "Reviewing your decisions… 4 of 13"."""
    node = byid("coach-review")
    if not _found(node) or node.getAttribute("data-state") != "computing":
        return
    line = node.querySelector(".coach-computing")
    if _found(line):
        line.textContent = t("review.progress", done=done, count=count)
    node.setAttribute("data-review-done", str(done))
    node.setAttribute("data-review-of", str(count))


def _figure_line(figure: dict[str, Any], key: str) -> str:
    """A hand's or a game's accuracy figure in words (``history.figure``'s data)."""
    accuracy = figure["accuracy"]
    if accuracy is None:
        return t(f"{key}.none")
    classes = figure["classes"]
    errors = ", ".join(_coach_text(f"judge.count.{name}", n=classes[index])
                       for index, name in ((2, "inaccuracy"), (3, "mistake"), (4, "blunder"))
                       if classes[index])
    lost = i18n.number(i18n.whole_points(int(figure["lost"])))
    per_hand = i18n.number(i18n.whole_points(int(figure["per_hand"])))
    return _coach_text(key, accuracy=i18n.percent(int(accuracy)), sound=figure["sound"],
                       decisions=figure["decisions"], lost=lost, per_hand=per_hand,
                       hands=figure["hands"], errors=errors or t("judge.no-error"))


def game_figure(figure: dict[str, Any] | None, hands: int) -> None:
    """The game's accuracy figure in the end dialog (``#game-figure``), or that the
    coach is still judging its last hands."""
    dialog = byid("dialog")
    body: Any = dialog.querySelector(".dialog-body") if _found(dialog) else None
    if not _found(body):
        return
    node = byid("game-figure")
    if not _found(node):
        node = el("p", cls="game-figure", id="game-figure", aria_live="polite")
        result = body.querySelector(".end-result")
        if _found(result):
            result.insertAdjacentElement("afterend", node)
        else:
            add(body, node)
    judged = 0 if figure is None else int(figure["hands"])
    node.setAttribute("data-hands", str(judged))
    if figure is not None:
        node.setAttribute("data-accuracy", str(figure["accuracy"]))
        node.setAttribute("data-lost", str(figure["lost"]))
    text = "" if figure is None else _figure_line(figure, "judge.game")
    if judged < hands:
        text = (text + " " + t("judge.game.pending", judged=judged, hands=hands)).strip()
    node.textContent = text


def review_panel(data: dict[str, Any] | None) -> None:
    """The review of the hand (``spades_core.review.review_to_dict``), or "computing…"
    while ``data`` is None; the hand's accuracy figure first (``data["figure"]``)."""
    node = _panel("coach-review", "review", data)
    if node is None or data is None:
        return
    items = data.get("items", [])
    node.setAttribute("data-state", "failed" if data.get("failed") else "done")
    figure = data.get("figure")
    if figure is not None:
        line = el("p", _figure_line(figure, "judge.hand"), "coach-figure",
                  data_accuracy=str(figure["accuracy"]), data_lost=str(figure["lost"]))
        add(node, line)
    if not items:
        add(node, el("p", t("review.none"), "coach-none"))
        return
    listing = el("ol", cls="coach-items")
    for item in items:
        kind = item["kind"]
        entry = el("li", cls="coach-item", data_played=item["played"], data_better=item["better"])
        head = _decision_head(item)
        add(entry, el("p", head, "coach-head"))
        if kind == "card":
            row = el("div", cls="coach-position")
            trick = el("div", cls="coach-trick")
            if item["trick"]:
                add(trick, el("span", t("review.trick"), "coach-label"))
                for seat, card in item["trick"]:
                    add(trick, el("span", i18n.seat_name(seat), "coach-seat"), _small_card(card))
            else:
                add(trick, el("span", t("review.lead"), "coach-label"))
            held = el("div", cls="coach-held")
            add(held, el("span", t("review.position"), "coach-label"))
            for card in _in_hand_order(item["held"]):
                node_card = _small_card(card)
                if card == item["played"]:
                    node_card.classList.add("coach-played")
                if card == item["better"]:
                    node_card.classList.add("coach-better")
                add(held, node_card)
            add(row, trick, held)
            add(entry, row)
        add(entry, el("p", i18n.review_sentence(item), "coach-reason"))
        cost = i18n.whole_points(int(item["cost"]))  # "about 134 points", not "134.2"
        add(entry, el("p", _coach_text("review.cost", points=_number(cost), n=str(cost)),
                      "coach-cost"))
        parts = [_coach_text(f"review.part.{name}", amount=amount)
                 for name, amount in i18n.review_parts(item.get("parts", {}))]
        if parts:
            add(entry, el("p", _coach_text("review.parts", parts=", ".join(parts)),
                          "coach-parts"))
        if "hand" in item:  # the decision in the hand viewer, its verdict beside it
            frame = review_frame(item)
            add(entry, el("button", t("review.replay"), "link vw-see", type="button",
                          data_action="viewer", data_arg=f"{item['hand']}:{frame}"))
        if i18n.has(f"tip.{item['tip']}.name"):
            add(entry, el("button", t("review.lesson", tip=t(f"tip.{item['tip']}.name")),
                          "link coach-lesson", type="button", data_action="lesson-tip",
                          data_arg=item["tip"]))
        add(listing, entry)
    add(node, listing)


def practice_panel(data: dict[str, Any] | None) -> None:
    """After a lesson's practice hand, below the review: whether the lesson's situation
    arose and how its tip went (``spades_core.lessons.practice_review.report_to_dict``, with
    ``decision``: the review item it names, or None); "computing…" while ``data`` is None."""
    node = _panel("coach-practice", "practice", data)
    if node is None or data is None:
        return
    verdict = str(data["verdict"])
    node.setAttribute("data-verdict", verdict)
    node.setAttribute("data-arose", "true" if data["arose"] else "false")
    situation = t(f"practice.situation.{data['situation']}")
    tip = t(f"tip.{data['tip']}.name")
    if verdict == "costly" and data.get("decision"):
        item = data["decision"]
        head = _decision_head(item)
        cost = i18n.whole_points(int(item["cost"]))
        text = _coach_text("practice.costly", tip=tip, decision=head,
                           points=_number(cost), n=str(cost))
        add(node, el("p", text, "coach-practice-line"))
        if not data["arose"]:
            add(node, el("p", _coach_text("practice.absent-too", situation=situation),
                         "coach-practice-note"))
        return
    key = {"matched": "practice.matched", "absent": "practice.absent"}.get(
        verdict, "practice.arose" if data["arose"] else "practice.absent-too")
    add(node, el("p", _coach_text(key, tip=tip, situation=situation), "coach-practice-line"))


def par_panel(data: dict[str, Any] | None, score: int) -> None:
    """The deal's par beside the player's score, and where the two games parted
    ("computing…" while ``data`` is None; how far the par game got while ``data`` has
    ``progress``: its hands and scores so far)."""
    node = _panel("coach-par", "par", data)
    if node is None or data is None:
        return
    if data.get("failed"):
        node.setAttribute("data-state", "failed")
        add(node, el("p", t("par.failed")))
        return
    if data.get("progress"):  # the par game so far, after a hand
        scores = data["scores"]
        node.setAttribute("data-state", "working")
        node.setAttribute("data-par-hands", str(data["hands"]))
        add(node, el("p", _coach_text("par.progress", hand=data["hands"],
                                      ns=_number(int(scores["NS"])),
                                      ew=_number(int(scores["EW"]))), "coach-par-line"))
        return
    par = int(data["par"])
    node.setAttribute("data-state", "pending" if data.get("pending") else "done")
    if "hands" in data:
        node.setAttribute("data-par-hands", str(data["hands"]))
    node.setAttribute("data-par", str(par))
    line = _coach_text("par.line", level=t(f"level.{data['level']}"), par=_number(par),
                       n=str(par), score=_number(score))
    add(node, el("p", line, "coach-par-line"))
    parted = data.get("parted")
    if parted:
        kind = "bid" if int(parted["trick"]) == 0 else "card"
        add(node, el("p", _coach_text(f"par.parted.{kind}", hand=parted["hand"],
                                      trick=parted["trick"],
                                      played=_action_name(kind, parted["played"]),
                                      par=_action_name(kind, parted["par"])), "coach-parted"))
    elif "parted" in data and not data.get("pending"):
        add(node, el("p", t("par.same"), "coach-parted"))
