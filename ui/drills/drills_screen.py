"""The drills on the lessons screen (browser only; a renderer): the Drills tab's list and
one drill's screen (the item, the answer controls, the feedback with the Bidding chart,
the end with the score).

It draws plain data: a :class:`ui.drills.drills_run.DrillRun` (pure), what the player has picked
(:class:`ui.drills.drills_run.Pick`) and the best scores, and returns elements whose callbacks are
names (``data-action="drill-answer" data-arg="4"``); ``ui/lessons/lessons_screen.py`` owns the
state, dispatches the actions and fetches the answers. Text goes in as ``textContent``;
cards are the page's one card widget (``ui/shared/cardview.py``); the chart's bars are ``div``s
sized through the CSS variable ``--h`` (the page's CSP allows no style attribute).
Classes start with ``lx-`` (``ui/lessons.css``).
"""

from __future__ import annotations

from typing import Any

from spades_core.bids import Bid
from spades_core.cards import Card
from spades_core.lessons.drills import DRILLS, ITEMS, SAMPLES, BidItem
from spades_core.seats import Seat
from spades_core.views import View

from ..shared import i18n
from ..shared.cardview import card_element
from ..shared.dom import el
from ..shared.models import RED_SUITS, CardModel, card_name, card_short, hand_order, suit_key
from .drills_run import (
    VOID_SEATS,
    DrillRun,
    Pick,
    answer_token,
    answer_words,
    chart,
    chart_summary,
    feedback,
    played_tricks,
    right_token,
    say,
)

AREAS = {Seat.N: "north", Seat.E: "east", Seat.S: "south", Seat.W: "west"}
TABLE_SEATS = (Seat.N, Seat.E, Seat.S, Seat.W)


def h(tag: str, cls: str | None = None, text: str | None = None, **attrs: object) -> Any:
    return el(tag, text, cls, **attrs)


def lt(key: str, **params: object) -> str:
    """A ``lessons.*`` text (the lesson screen's own keys)."""
    return i18n.t(f"lessons.{key}", **params)


def button(text: str, action: str, arg: str = "", cls: str = "lx-btn", key: str | None = None,
           **attrs: object) -> Any:
    return h("button", cls, text, type="button", data_action=action, data_arg=arg or None,
             data_key=key or f"{action}:{arg}", **attrs)


# --- the Drills tab ---------------------------------------------------------------------


def drills_list(best: dict[str, int]) -> Any:
    """The three drills, each with its best score (``best``: drill -> score)."""
    block = h("div", "lx-drills")
    block.append(h("p", "lx-intro", say("intro")))
    items = h("ol", "lx-lessons lx-drill-list")
    for drill in DRILLS:
        score = best.get(drill)
        item = h("li", "lx-lesson-li")
        card = button("", "drill", drill, cls="lx-lesson lx-drill-open"
                      + (" lx-complete" if score == ITEMS else ""), data_drill=drill)
        card.append(h("span", "lx-lesson-title", say(drill)),
                    h("span", "lx-lesson-summary", say(f"{drill}.summary")))
        meter = h("span", "lx-lesson-progress")
        if score is None:
            meter.append(h("span", "lx-drill-best lx-untried", say("untried")))
        else:
            shown = h("span", "lx-drill-best", data_best=str(score))
            shown.append(h("span", None, say("best.short", score=score), aria_hidden="true"),
                         h("span", "lx-sr-only", say("best", score=score)))
            meter.append(shown)
        card.append(meter)
        item.append(card)
        items.append(item)
    block.append(items)
    return block


# --- a drill ------------------------------------------------------------------------------


def drill_screen(run: DrillRun, pick: Pick, best: int | None, new_best: bool) -> Any:
    """One drill: the current item, or the end with the score."""
    root = h("div", "lx-drill", data_drill=run.drill)
    head = h("header", "lx-head")
    head.append(button("← " + say("back"), "drill-back", cls="lx-btn lx-back",
                       aria_label=say("back.label")),
                h("h2", "lx-title", say(run.drill), tabindex="-1", data_key="heading"))
    root.append(head)
    if run.finished:
        root.append(_end(run, best, new_best))
        return root
    kind = run.question_kind
    state = "answered" if run.answered else "thinking" if pick.waiting is not None else "asking"
    root.append(h("p", "lx-step-of lx-drill-progress",
                  say("item", number=run.index + 1, total=ITEMS) + " · "
                  + say("so.far", count=run.score)))
    body = h("div", "lx-body lx-drill-body")
    scene = h("div", "lx-drill-scene")
    scene.append(_board(run.view, kind))
    if kind in ("spades", "void"):
        scene.append(_tricks_table(run.view))
    body.append(scene)
    panel = h("div", "lx-panel lx-drill-panel", data_kind=kind, data_item=str(run.index + 1),
              data_state=state)
    panel.append(h("p", "lx-text lx-drill-ask", _question(kind)))
    panel.append(_controls(run, pick, kind))
    if pick.note and not run.answered:
        panel.append(h("p", "lx-feedback lx-bad lx-drill-note", say(pick.note)))
    if state == "thinking":
        panel.append(h("p", "lx-drill-thinking", say("thinking"), aria_busy="true"))
    if pick.failed:
        panel.append(h("p", "lx-notice", say("error"), role="alert"))
    if run.answered:
        panel.append(_feedback(run))
        if isinstance(run.current, BidItem) and run.counts:
            given = run.given[-1]
            panel.append(_chart(run.counts, run.current.expert,
                                given if isinstance(given, Bid) else None))
        bar = h("div", "lx-controls")
        last = run.index + 1 >= ITEMS
        label = lt("finish") if last else lt("next")
        bar.append(button(label + " →", "drill-next", cls="lx-btn lx-primary lx-next",
                          key="drill-next", aria_label=label))
        panel.append(bar)
    body.append(panel)
    root.append(body)
    return root


def _question(kind: str) -> str:
    return say({"bid": "bidding.ask", "nil": "nil.ask", "spades": "counting.spades",
                "void": "counting.void"}[kind])


def _end(run: DrillRun, best: int | None, new_best: bool) -> Any:
    panel = h("div", "lx-panel lx-drill-end", data_score=str(run.score))
    panel.append(h("p", "lx-drill-score", say("score", score=run.score)))
    if new_best:
        panel.append(h("p", "lx-feedback lx-good lx-newbest", say("newbest")))
    if best is not None:
        panel.append(h("p", "lx-drill-best-line", say("best", score=best), data_best=str(best)))
    bar = h("div", "lx-controls")
    bar.append(button(say("again"), "drill-again", cls="lx-btn lx-primary", key="drill-again"),
               button("← " + say("back"), "drill-back", cls="lx-btn", key="drill-back-end",
                      aria_label=say("back.label")))
    panel.append(bar)
    return panel


# --- the answer controls ------------------------------------------------------------------


def _mark(token: str, run: DrillRun, pick: Pick) -> str:
    """The classes of a choice: the answer given (right or wrong), the right one lit."""
    if run.answered:
        given = answer_token(run.given[-1])
        right = run.right[-1]
        if token == given:
            return " lx-right" if right else " lx-wrong"
        if not right and token == right_token(run.current, run.index):
            return " lx-lit"
        return ""
    if pick.waiting is not None and token == answer_token(pick.waiting):
        return " lx-selected-choice"
    return ""


def _controls(run: DrillRun, pick: Pick, kind: str) -> Any:
    locked = run.answered or pick.waiting is not None
    if kind == "bid":
        group = h("div", "lx-choices lx-bids lx-drill-bids", role="group",
                  aria_label=lt("bids.label"))
        for bid in run.view.legal_bids:
            if bid.blind:
                continue
            token = str(bid)
            group.append(button(i18n.bid_text(token), "drill-answer", token,
                                cls="lx-btn lx-choice" + _mark(token, run, pick),
                                data_bid=token, disabled=locked))
        return group
    if kind == "nil":
        group = h("div", "lx-choices lx-drill-yesno", role="group", aria_label=lt("choices.label"))
        for token in ("yes", "no"):
            group.append(button(say(token), "drill-answer", token,
                                cls="lx-btn lx-choice" + _mark(token, run, pick),
                                disabled=locked))
        return group
    if kind == "spades":
        form = h("form", "lx-entry lx-drill-entry")
        field = h("input", "lx-entry-input", type="text", inputmode="numeric", maxlength="2",
                  autocomplete="off", aria_label=say("counting.entry"), data_key="drill-entry")
        if run.answered:
            field.value = answer_token(run.given[-1])
            field.disabled = True
            field.className += " lx-right" if run.right[-1] else " lx-wrong"
        form.append(field)
        if not run.answered:
            form.append(h("button", "lx-btn lx-primary lx-entry-check", lt("check"), type="submit",
                          data_action="drill-enter", data_key="drill-enter"))
        return form
    box = h("div", "lx-drill-void")
    seats = h("div", "lx-choices lx-drill-seats", role="group",
              aria_label=say("counting.player"))
    seats.append(h("span", "lx-drill-label", say("counting.player"), aria_hidden="true"))
    given = answer_token(run.given[-1]) if run.answered else ""
    for seat in VOID_SEATS:
        chosen = (given.split(":")[0] if run.answered else pick.seat) == seat.name
        seats.append(button(i18n.seat_name(seat.name, person=False), "drill-seat", seat.name,
                            cls="lx-btn lx-choice" + (" lx-selected-choice" if chosen else ""),
                            aria_pressed="true" if chosen else "false", disabled=run.answered))
    suits = h("div", "lx-choices lx-drill-suits", role="group", aria_label=say("counting.suit"))
    suits.append(h("span", "lx-drill-label", say("counting.suit"), aria_hidden="true"))
    for suit, symbol in zip(i18n.SUIT_KEYS[::-1], i18n.SUIT_SYMBOLS[::-1], strict=True):
        chosen = (given.split(":")[-1] if run.answered else pick.suit) == suit
        red = " lx-red" if suit in RED_SUITS else ""
        suits.append(button(symbol, "drill-suit", suit,
                            cls="lx-btn lx-choice lx-drill-suit" + red
                            + (" lx-selected-choice" if chosen else ""),
                            aria_pressed="true" if chosen else "false",
                            aria_label=i18n.suit_name(suit), disabled=run.answered))
    box.append(seats, suits)
    if not run.answered:
        box.append(button(lt("check"), "drill-check", cls="lx-btn lx-primary lx-drill-check",
                          key="drill-check"))
    else:
        mark = " lx-right" if run.right[-1] else " lx-wrong"
        box.append(h("p", "lx-drill-given" + mark,
                     say("answer.given", answer=answer_words("void", run.given[-1]))))
    return box


def _feedback(run: DrillRun) -> Any:
    lines = feedback(run)
    tone = "good" if run.right[-1] else "bad"
    box = h("div", f"lx-feedback lx-{tone} lx-drill-feedback", data_tone=tone)
    for number, line in enumerate(lines):
        box.append(h("p", "lx-drill-verdict" if number == 0 else "lx-drill-why", line))
    return box


# --- the Bidding chart --------------------------------------------------------------------


def _chart(counts: tuple[int, ...], expert: Bid, given: Bid | None) -> Any:
    """The trick counts as bars (HTML and CSS), with their numbers in text for assistive
    technology and a summary in sentences."""
    figure = h("figure", "lx-chart")
    figure.append(h("figcaption", "lx-chart-title", say("bidding.chart", count=sum(counts)
                                                         or SAMPLES)))
    plot = h("div", "lx-chart-plot", aria_hidden="true")
    for bar in chart(counts, expert, given):
        column = h("div", "lx-chart-col" + (" lx-chart-expert" if bar.expert else "")
                   + (" lx-chart-yours" if bar.yours else ""), data_tricks=str(bar.tricks),
                   data_count=str(bar.count))
        column.style.setProperty("--h", f"{bar.height}%")
        area = h("div", "lx-chart-area")
        area.append(h("div", "lx-chart-bar"),
                    h("span", "lx-chart-count", str(bar.count) if bar.count else ""))
        column.append(area, h("span", "lx-chart-x", str(bar.tricks)))
        plot.append(column)
    figure.append(plot)
    figure.append(h("p", "lx-chart-axis", say("bidding.axis"), aria_hidden="true"))
    legend = h("p", "lx-chart-legend", aria_hidden="true")
    legend.append(h("span", "lx-chart-key lx-chart-key-expert", say("bidding.mark.expert")))
    if given is not None:
        legend.append(h("span", "lx-chart-key lx-chart-key-yours", say("bidding.mark.yours")))
    figure.append(legend)
    spoken = h("ul", "lx-sr-only lx-chart-text")
    for bar in chart(counts, expert, given):
        spoken.append(h("li", None, bar.label))
    figure.append(spoken)
    for line in chart_summary(counts, given):
        figure.append(h("p", "lx-chart-summary", line))
    return figure


# --- the table ----------------------------------------------------------------------------


def _card(card: Card, extra: str = "") -> Any:
    suit = suit_key(card)
    classes = f"lx-card lx-{suit}" + (" lx-red" if suit in RED_SUITS else "") + extra
    return card_element(CardModel(text=str(card), label=card_name(card),
                                  classes=tuple(classes.split())))


def _backs(count: int) -> Any:
    group = h("span", "lx-backs", role="img", aria_label=lt("seat.backs", count=count))
    for _ in range(min(count, 4)):
        group.append(card_element(CardModel(classes=("lx-cardback",))))
    if count > 4:
        group.append(h("span", "lx-backs-count", f"×{count}", aria_hidden="true"))
    return group


def _seat(view: View, seat: Seat, playing: bool) -> Any:
    box = h("div", f"lx-seat lx-seat-{AREAS[seat]}", data_seat=seat.name)
    label = h("div", "lx-seat-label")
    label.append(h("span", "lx-seat-name", i18n.seat_name(seat.name)))
    if not playing and view.dealer is seat:
        label.append(h("span", "lx-badge lx-dealer", lt("seat.dealer")))
    bid = view.bids[int(seat)]
    if bid is not None:
        label.append(h("span", "lx-badge lx-bid",
                       lt("seat.bid", bid=i18n.bid_text(str(bid)))))
    if playing:
        label.append(h("span", "lx-badge lx-tricks",
                       lt("seat.tricks", count=view.tricks_won[int(seat)])))
    box.append(label)
    return box


def _board(view: View, kind: str) -> Any:
    playing = kind in ("spades", "void")
    board = h("div", "lx-board" + ("" if playing else " lx-bidding"), role="group",
              aria_label=lt("table.label"))
    for seat in (Seat.N, Seat.W, Seat.E):
        box = _seat(view, seat, playing)
        held = 13 - sum(1 for player, _ in view.plays if player is seat)
        cards = h("div", "lx-seat-cards")
        cards.append(_backs(held))
        box.append(cards)
        board.append(box)
    centre = h("div", "lx-trick", role="group", aria_label=lt("trick.label"))
    if playing:
        if not view.trick:
            centre.append(h("span", "lx-trick-empty", lt("trick.empty")))
        for seat, card in view.trick:
            slot = h("div", f"lx-slot lx-slot-{AREAS[seat]}")
            face = _card(card)
            face.setAttribute("aria-label", lt("seat.card.played", seat=i18n.seat_name(seat.name),
                                               card=card_name(card)))
            slot.append(face)
            centre.append(slot)
    board.append(centre)
    south = _seat(view, Seat.S, playing)
    hand = h("div", "lx-hand", role="group", aria_label=lt("hand.label"))
    if view.hand is not None:
        for card in hand_order(view.hand):
            hand.append(_card(card))
    south.append(hand)
    board.append(south)
    return board


def _tricks_table(view: View) -> Any:
    """The tricks played so far: a row per trick, a column per seat; the lead and the
    winner marked (and said)."""
    box = h("div", "lx-played-box")
    table = h("table", "lx-played")
    table.append(h("caption", "lx-played-title", say("tricks.label")))
    head = h("tr")
    head.append(h("th", None, say("tricks.number"), scope="col"))
    for seat in TABLE_SEATS:
        head.append(h("th", None, i18n.seat_name(seat.name), scope="col"))
    thead = h("thead")
    thead.append(head)
    table.append(thead)
    body = h("tbody")
    for row in played_tricks(view):
        line = h("tr")
        line.append(h("th", None, str(row.number), scope="row"))
        for seat in TABLE_SEATS:
            card = row.card_of(seat)
            cell = h("td")
            if card is not None:
                suit = suit_key(card)
                cls = "lx-mini" + (" lx-red" if suit in RED_SUITS else "")
                if seat is row.leader:
                    cls += " lx-led"
                if seat is row.winner:
                    cls += " lx-won"
                spoken = card_name(card)
                if seat is row.leader:
                    spoken = say("card.led", card=spoken)
                if seat is row.winner:
                    spoken = say("card.won", card=spoken)
                chip = h("span", cls, data_card=str(card))
                chip.append(h("span", None, card_short(card), aria_hidden="true"),
                            h("span", "lx-sr-only", spoken))
                cell.append(chip)
            line.append(cell)
        body.append(line)
    table.append(body)
    key = h("p", "lx-played-key", aria_hidden="true")
    for cls, text in (("lx-led", say("tricks.led")), ("lx-won", say("tricks.won"))):
        item = h("span")
        item.append(h("span", f"lx-mini {cls}"), h("span", None, text))
        key.append(item)
    box.append(table, key)
    return box
