"""Drawing the table from the game state (browser only): seats, scores, trick, hand, panels.

Everything is built with createElement/textContent; actions are ``data-action`` attributes
handled by one listener in :mod:`ui.app`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import js  # type: ignore[import-not-found]

from spades_core import Card, Phase, Seat

from . import deals, i18n
from .dialogs import (  # noqa: F401  (re-exported for ui.app)
    close_dialog,
    confirm_new,
    end_dialog,
    last_trick_dialog,
    options_dialog,
    rules_dialog,
    score_sheet,
    share_result,
    stats_confirm,
    stats_dialog,
)
from .dom import add, byid, clear, el, set_text
from .i18n import t

if TYPE_CHECKING:
    from .app import App

SUIT_LETTER = "CDHS"
HAND_SUIT_ORDER = (3, 2, 0, 1)  # spades, hearts, clubs, diamonds: colours alternate


def hand_order(cards: Iterable[Card]) -> list[Card]:
    return sorted(cards, key=lambda c: (HAND_SUIT_ORDER.index(int(c.suit)), -int(c.rank)))


def card_face(text: str, cls: str = "", tag: str = "span", **attrs: object) -> Any:
    """A face-up card element (``tag`` button for the hand)."""
    suit = text[1] if len(text) == 2 and text not in ("BJ", "LJ") else "S"
    node = el(tag, cls=f"card suit-{suit} {cls}".strip(), **attrs)
    short = i18n.card_short(text)
    # Drawn by CSS from data attributes: the card's accessible name is its aria-label alone.
    add(node, el("span", None, "rank", aria_hidden="true",
                 data_r=short[:-1] if len(short) <= 3 else short))
    add(node, el("span", None, "pip", aria_hidden="true",
                 data_r=short[-1] if len(short) <= 3 else "★"))
    return node


def translate_static() -> None:
    for node in js.document.querySelectorAll("[data-t]"):
        node.textContent = t(str(node.dataset.t))
    byid("menu-button").setAttribute("aria-label", t("toolbar.menu"))
    byid("rules-button").setAttribute("aria-label", t("rules.title"))
    byid("hand").setAttribute("aria-label", t("hand.label"))
    byid("trick").setAttribute("aria-label", t("trick.label"))
    byid("screen-table").setAttribute("aria-label", t("trick.label"))


def enable_controls() -> None:
    for node in js.document.querySelectorAll("button[disabled]"):
        node.disabled = False


def notice(text: str, key: str = "") -> None:
    box = byid("notices")
    if key and box.querySelector(f'[data-key="{key}"]'):
        return
    item = el("div", cls="notice", data_key=key or None)
    add(item, el("span", text), el("button", t("notice.dismiss"), type="button",
                                    data_action="dismiss"))
    add(box, item)


def message(text: str, refusal: bool = False) -> None:
    node = byid("message")
    node.textContent = text
    node.className = "message refusal" if refusal and text else "message"


def announce(text: str) -> None:
    live = byid("live")
    live.textContent = text


def turn_text(text: str, mine: bool) -> None:
    node = byid("turn")
    set_text(node, text)
    node.className = "turn mine" if mine else "turn"


def gather(winner: Seat, ms: int) -> None:
    trick = byid("trick")
    trick.style.setProperty("--gather", f"{ms}ms")
    trick.classList.add("gather", f"gather-{winner.name}")


def ungather() -> None:
    trick = byid("trick")
    for name in ("gather", "gather-N", "gather-E", "gather-S", "gather-W"):
        trick.classList.remove(name)


def flash_seat(seat: Seat) -> None:
    node = byid(f"seat-{seat.name}")
    node.classList.remove("won")
    _ = node.offsetWidth  # restart the animation
    node.classList.add("won")


def show_screen(name: str) -> None:
    for screen in ("table", "menu", "lessons"):
        byid(f"screen-{screen}").hidden = screen != name
    js.document.body.setAttribute("data-screen", name)  # the score bar follows (table.css)


def focus_hand_or_panel() -> None:
    active = js.document.activeElement
    if (active and active != js.document.body and active.isConnected
            and not getattr(active, "disabled", False)):
        return
    panel = byid("panel")
    target = (panel.querySelector("[data-autofocus]") or panel.querySelector("button")
              or byid("hand").querySelector(".playable"))
    if target:
        target.focus()


def focus_panel(selector: str = "[data-autofocus]") -> None:
    """Move the focus into the bidding panel (after it changed under the focused button)."""
    target = byid("panel").querySelector(selector) or byid("panel").querySelector("button")
    if target:
        target.focus()


def move_focus(step: int) -> bool:
    cards = list(byid("hand").querySelectorAll("button.card"))
    if not cards:
        return False
    active = js.document.activeElement
    index = next((i for i, c in enumerate(cards) if c == active), -1)
    index = 0 if index < 0 else (index + step) % len(cards)
    cards[index].focus()
    return True


# --- the table ---------------------------------------------------------------------------


def table(app: App) -> None:
    game = app.game
    assert game is not None
    state = game.state
    scores, bags = state.scores, state.bags
    set_text(byid("score-ns"), str(scores[0]))
    set_text(byid("score-ew"), str(scores[1]))
    set_text(byid("bags-ns"), t("team.bags", bags=bags[0]))
    set_text(byid("bags-ew"), t("team.bags", bags=bags[1]))
    deal = int(state.deal or 0)
    label = (t("deal.daily", date=deals.date_key(deal)) if game.daily
             else t("deal.label", deal=deal))
    set_text(byid("deal-label"), label)
    over = state.phase is Phase.OVER
    # While a score sheet waits to be read, nobody is to play: the next hand starts after it.
    sheet_pending = len(state.past_hands) > game.sheets
    to_act = (None if over or sheet_pending or app.shown_trick is not None
              else state.to_act)
    for seat in Seat:
        node = byid(f"seat-{seat.name}")
        bid = state.bid_of(seat)
        name = i18n.seat_name(seat.name)
        bid_text = i18n.bid_text(None if bid is None else str(bid))
        tricks = state.tricks_won[int(seat)]
        set_text(node.querySelector(".seat-name"), name)
        set_text(node.querySelector(".seat-letter"), t(f"seat.{seat.name}.letter"))
        set_text(node.querySelector(".seat-bid"), t("seat.bid", bid=bid_text))
        set_text(node.querySelector(".seat-tricks"), t("seat.tricks", tricks=tricks))
        active = seat == to_act
        # the marker before the words is drawn by CSS (.seat-turn::before)
        set_text(node.querySelector(".seat-turn"), t("seat.turn") if active else "")
        node.classList.toggle("active", active)
        node.setAttribute("aria-label", t("seat.label", seat=name, bid=bid_text, tricks=tricks))
        node.toggleAttribute("aria-current", active)
    draw_trick(app)
    draw_panel(app)
    draw_hand(app)
    draw_turn(app)
    hint_button = byid("hint-button")
    hint_button.hidden = not (game.hints and app.options["hints"])
    hint_button.disabled = not app.waiting


def draw_trick(app: App) -> None:
    state = app.state
    shown = app.shown_trick if app.shown_trick is not None else state.trick
    winner = app.trick_winner if app.shown_trick is not None else None
    trick = byid("trick")
    for seat in Seat:
        slot = trick.querySelector(f".slot-{seat.name}")
        played = next((c for s, c in shown if s == seat), None)
        current = slot.firstElementChild
        text = None if played is None else str(played)
        if current and text is not None and str(current.dataset.card) == text:
            current.classList.toggle("winner", seat == winner)
            continue
        clear(slot)
        if played is not None:
            label = f"{i18n.seat_name(seat.name)}: {i18n.card_name(text or '')}"
            cls = "winner" if seat == winner else ""
            add(slot, card_face(text or "", cls, role="img", aria_label=label, data_card=text))


def draw_panel(app: App) -> None:
    panel = byid("panel")
    state = app.state
    show = app.waiting and state.phase is Phase.BIDDING and state.to_act == Seat.S
    key = ""
    if show:
        key = "bid"
        if app.blind_offered():
            key = "blind-confirm" if app.blind_armed else "blind"
    key += ":" + i18n.language()
    if not show:
        panel.hidden = True
        panel.dataset.kind = ""
        return
    if str(panel.dataset.kind or "") == key and not panel.hidden:
        return
    clear(panel)
    panel.dataset.kind = key
    if key.startswith("blind-confirm"):
        # The second, deliberate step of Blind Nil; the safe answer comes first and has focus.
        add(panel, el("h2", t("bid.blind.confirm.title")), el("p", t("bid.blind.confirm.help")))
        row = el("div", cls="row")
        add(row, el("button", t("bid.blind.confirm.no"), "primary", type="button",
                    data_action="blind-no", data_autofocus=True),
            el("button", t("bid.blind.confirm.yes"), type="button", data_action="blind-yes"))
        add(panel, row)
    elif key.startswith("blind"):
        # Looking is the safe first choice (Enter on the first screen looks, never bids);
        # Blind Nil only asks to be confirmed.
        add(panel, el("h2", t("bid.blind.title")), el("p", t("bid.blind.help")))
        row = el("div", cls="row")
        add(row, el("button", t("bid.blind.show"), "primary", type="button", data_action="look",
                    data_autofocus=True),
            el("button", t("bid.blind.take"), type="button", data_action="blind"))
        add(panel, row)
    else:
        add(panel, el("h2", t("bid.title")), el("p", t("bid.help")))
        grid = el("div", cls="bids", role="group", aria_label=t("bid.title"))
        add(grid, el("button", t("bid.name.nil"), "bid-nil", type="button", data_action="bid",
                     data_bid="nil", aria_label=t("bid.button", bid=t("bid.name.nil"))))
        for number in range(1, 14):
            add(grid, el("button", str(number), type="button", data_action="bid",
                         data_bid=str(number), aria_label=t("bid.button", bid=number)))
        add(panel, grid)
    panel.hidden = False


def draw_hand(app: App) -> None:
    hand_node = byid("hand")
    state = app.state
    if state.phase is Phase.OVER:
        clear(hand_node)
        return
    cards = hand_order(state.hand_of(Seat.S))
    face_down = app.face_down()
    playing = app.waiting and state.phase is Phase.PLAYING
    legal = {c.id for c in state.legal_plays()} if playing else set()
    focused = js.document.activeElement
    focused_card = None
    if focused and focused.parentElement == hand_node:
        focused_card = str(focused.dataset.card or "")
    clear(hand_node)
    if face_down:
        hand_node.setAttribute("aria-label", t("hand.hidden"))
        for _ in cards:
            add(hand_node, el("span", cls="card back", aria_hidden="true"))
        return
    hand_node.setAttribute("aria-label", t("hand.label"))
    previous_suit = -1
    middle = (len(cards) - 1) / 2
    for position, card in enumerate(cards):
        text = str(card)
        name = i18n.card_name(text)
        ok = card.id in legal
        cls = "playable" if ok else ("illegal" if playing else "")
        if app.hinted == text:
            cls += " hinted"
        if previous_suit not in (-1, int(card.suit)):
            cls += " gap"
        previous_suit = int(card.suit)
        label = name if ok or not playing else t("card.unplayable", card=name)
        button = card_face(text, cls, tag="button", type="button", data_action="play",
                           data_card=text, aria_label=label,
                           )
        button.style.setProperty("--fan", f"{position - middle:.1f}")
        add(hand_node, button)
        if focused_card == text:
            button.focus()


def draw_turn(app: App) -> None:
    state = app.state
    if state.phase is Phase.OVER:
        turn_text(t("turn.game-over"), False)
        return
    if len(state.past_hands) > (app.game.sheets if app.game else 0):
        turn_text(t("turn.hand-over"), False)
        return
    seat = state.to_act
    if seat is None:
        turn_text("", False)
        return
    if seat == Seat.S:
        if not app.waiting:
            turn_text("", False)
        elif state.phase is Phase.BIDDING:
            turn_text(t("turn.you.bid"), True)
        else:
            turn_text(t("turn.you.lead" if not state.trick else "turn.you.play"), True)
        return
    key = "turn.other.bid" if state.phase is Phase.BIDDING else "turn.other.play"
    turn_text(t(key, seat=i18n.seat_name(seat.name)), False)


# --- the menu screen -----------------------------------------------------------------------


def menu(app: App) -> None:
    section = clear(byid("screen-menu"))
    add(section, el("h2", t("menu.title")), el("p", t("menu.subtitle")))
    items = el("div", cls="menu-list")
    if app.game is not None and app.state.phase is not Phase.OVER:
        add(items, el("button", t("menu.resume"), "primary", type="button", data_action="resume"))
    add(items,
        el("button", t("menu.new"), type="button", data_action="new"),
        el("button", t("menu.daily"), type="button", data_action="daily"),
        el("button", t("menu.lessons"), type="button", data_action="lessons"),
        el("button", t("menu.rules"), type="button", data_action="rules"),
        el("button", t("menu.options"), type="button", data_action="options"),
        el("button", t("menu.stats"), type="button", data_action="stats"))
    add(section, items)
    today = app.today_number()
    result = app.stats["daily"].get(str(today))
    if result is None:
        line = t("menu.daily.new", date=deals.date_key(today))
    else:
        line = t("menu.daily.played", date=deals.date_key(today),
                 result=t("end.daily.won" if result["won"] else "end.daily.lost"),
                 ns=result["ns"], ew=result["ew"])
    add(section, el("p", line))
