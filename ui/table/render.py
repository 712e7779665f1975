"""Drawing the table from its model (browser only): seats, scores, trick, hand, panels, menu.

``table(model)`` draws a :class:`ui.shared.models.TableModel`, built by the controller from
``view_for(state, Seat.S)``; this module reads no game state and imports no controller.
Everything is built with createElement/textContent (cards by ``ui/shared/cardview.py``); actions are
``data-action`` / ``data-arg`` attributes dispatched by the controller (``ui/shared/ports.py``).
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable
from typing import Any

import js  # type: ignore[import-not-found]
from pyodide.ffi import create_proxy  # type: ignore[import-not-found]

from spades_core import Seat

from ..shared import i18n
from ..shared.cardview import card_element
from ..shared.dom import add, byid, clear, el, nil, set_text
from ..shared.i18n import t
from ..shared.models import CardModel, MenuModel, TableModel
from .avatar import avatar_markup
from .welcome import CHOICES as WELCOME_CHOICES


def translate_static() -> None:
    for node in js.document.querySelectorAll("[data-t]"):
        node.textContent = t(str(node.dataset.t))
    byid("menu-button").setAttribute("aria-label", t("toolbar.menu"))
    byid("rules-button").setAttribute("aria-label", t("rules.title"))
    byid("hand").setAttribute("aria-label", t("hand.label"))
    byid("trick").setAttribute("aria-label", t("trick.label"))
    byid("screen-table").setAttribute("aria-label", t("trick.label"))
    byid("toolbar").setAttribute("aria-label", t("toolbar.label"))
    byid("boot-progress").setAttribute("aria-label", t("app.progress"))
    resay_message()


def _painter() -> Any:
    """ui/paint.js's ``spadesPaint`` (None where the page lacks it)."""
    return getattr(js.window, "spadesPaint", None)


def store_paint(key: str) -> None:
    """The solo table was just drawn: ui/paint.js copies it (once it has settled) for the
    next visit's first paint, with ``key`` (``savegame.paint_key``) and the "getting ready"
    lines in the page's language."""
    painter = _painter()
    if painter is None:
        return
    meta = {"key": key, "lang": i18n.language(), "ready": t("app.getting-ready"),
            "queued": t("app.getting-ready-kept")}
    try:
        painter.save(json.dumps(meta))
    except Exception as error:  # a copy for speed only: never in the way of the game
        js.console.warn(f"table not kept for the next visit: {error!r}")


def hold_paint() -> None:
    """The table shows what is not the saved game (a room, a practice hand): no copy of it
    is stored (the last one, of the saved game, stays)."""
    painter = _painter()
    if painter is not None:
        with contextlib.suppress(Exception):
            painter.hold()


# True from a painted table's takeover to the end of Python's first render of the table: the
# cards it shows were already there, so they do not land (nor are dealt) again.
_TAKEOVER = {"quiet": False}


def take_paint() -> dict[str, str] | None:
    """Before Python's first render: the table painted by ui/paint.js (if any) gives way to
    the page's own nodes (drawn in this same task, so no frame shows between), and what it
    kept: ``{"key", "action", "arg"}`` (action "" when no card or bid was clicked), or None."""
    painter = _painter()
    if painter is None:
        return None
    try:
        found = painter.revert()
        if nil(found):  # nothing was painted (JavaScript's null comes as jsnull, not None)
            return None
        _TAKEOVER["quiet"] = True
        return {name: str(getattr(found, name, "") or "") for name in ("key", "action", "arg")}
    except Exception as error:
        js.console.warn(f"painted table not taken over: {error!r}")
        return None


def enable_controls() -> None:
    for node in js.document.querySelectorAll("button[disabled]"):
        node.disabled = False


def notice(text: str, key: str = "") -> None:
    box = byid("notices")
    if key and box.querySelector(f'[data-key="{key}"]'):
        return
    item = el("div", cls="notice", data_key=key or None)
    add(item, el("span", text), el("button", t("notice.dismiss"), type="button",
                                    data_action="dismiss", data_arg=key or None))
    add(box, item)


def dismiss_notice(key: str) -> None:
    """Remove the notice of ``key`` (the first notice when ``key`` is empty)."""
    box = byid("notices")
    node = box.querySelector(f'[data-key="{key}"]') if key else box.querySelector(".notice")
    if node:
        node.remove()


Saying = Callable[[], str]
"""A message as a function that says it in the page's language (said again on a change)."""

# What the message under the table says now: how to say it again, and in which language.
_SAID: dict[str, Any] = {"say": None, "refusal": False, "kind": "", "lang": "", "shown": False}


def message(text: str | Saying, refusal: bool = False, kind: str = "") -> str:
    """The message under the table, and the text shown (for the live region). ``text`` may
    be a function that says it in the page's language: the message is then said again when
    the language changes (plain text is cleared then, never left in the old language).
    ``kind`` names what it is (``"hint"``) for :func:`clear_message`."""
    say = None if isinstance(text, str) else text
    shown = say() if say is not None else str(text)
    _SAID.update(say=say, refusal=refusal, kind=kind if shown else "",
                 lang=i18n.language(), shown=bool(shown))
    node = byid("message")
    node.textContent = shown
    node.className = "message refusal" if refusal and shown else "message"
    return shown


def resay_message() -> None:
    """After a change of the page's language: the message in the new language, or none."""
    if _SAID["lang"] == i18n.language():
        return
    if not _SAID["shown"]:
        _SAID["lang"] = i18n.language()
        return
    say = _SAID["say"]
    message(say if say is not None else "", bool(_SAID["refusal"]), str(_SAID["kind"]))


def clear_message(kind: str) -> None:
    """Clear the message if it is of ``kind`` (the hint, once hints are turned off)."""
    if kind and _SAID["kind"] == kind:
        message("")


def announce(text: str) -> None:
    live = byid("live")
    live.textContent = text


def turn_text(text: str, mine: bool) -> None:
    node = byid("turn")
    set_text(node, text)
    node.className = "turn mine" if mine else "turn"


def _centre(node: Any) -> tuple[float, float]:
    box = node.getBoundingClientRect()
    return float(box.left + box.width / 2), float(box.top + box.height / 2)


def reduced_motion() -> bool:
    return bool(js.window.matchMedia("(prefers-reduced-motion: reduce)").matches)


def gather(winner: Seat, ms: int) -> None:
    """The four cards of the trick slide to the winner's plate and fade (ui/cards.css)."""
    trick = byid("trick")
    trick.style.setProperty("--gather", f"{ms}ms")
    tx, ty = _centre(byid(f"seat-{winner.name}").querySelector(".seat-avatar"))
    for slot in trick.querySelectorAll(".slot"):
        sx, sy = _centre(slot)
        slot.style.setProperty("--gx", f"{tx - sx:.0f}px")
        slot.style.setProperty("--gy", f"{ty - sy:.0f}px")
    trick.dataset.winner = winner.name
    trick.classList.add("gathering")


def ungather() -> None:
    trick = byid("trick")
    trick.classList.remove("gathering")
    trick.removeAttribute("data-winner")


def flash_seat(seat: Seat) -> None:
    node = byid(f"seat-{seat.name}")
    node.classList.remove("won")
    _ = node.offsetWidth  # restart the animation
    node.classList.add("won")


def show_screen(name: str) -> None:
    for screen in ("table", "menu", "welcome", "lessons", "progress", "mistakes"):
        byid(f"screen-{screen}").hidden = screen != name
    js.document.body.setAttribute("data-screen", name)  # the score bar follows (table.css)


def focus_hand_or_panel() -> None:
    """The player's turn: the focus where they can act. A focus kept in the hand stays in
    the hand, on the nearest card they may play if it is on one they may not."""
    active = js.document.activeElement
    if (active and active != js.document.body and active.isConnected
            and not getattr(active, "disabled", False)):
        hand = byid("hand")
        if active.parentElement == hand and not active.classList.contains("playable"):
            cards = list(hand.querySelectorAll(".card"))
            at = next((i for i, card in enumerate(cards) if card == active), 0)
            playable = [i for i, card in enumerate(cards) if card.classList.contains("playable")]
            if playable:
                cards[min(playable, key=lambda i: (abs(i - at), i))].focus()
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


def table(model: TableModel) -> None:
    set_text(byid("score-ns"), i18n.number(model.scores[0]))
    set_text(byid("score-ew"), i18n.number(model.scores[1]))
    set_text(byid("bags-ns"), model.bags[0])
    set_text(byid("bags-ew"), model.bags[1])
    set_text(byid("deal-label"), model.deal_label)
    for seat in model.seats:
        node = byid(f"seat-{seat.seat}")
        avatar = node.querySelector(".seat-avatar")
        if not avatar.querySelector("svg"):
            avatar.insertAdjacentHTML("afterbegin", avatar_markup(seat.seat))
        name = node.querySelector(".seat-name")
        set_text(name, seat.name)
        name.title = seat.name  # whole on hover where a narrow plate cuts it with "…"
        set_text(node.querySelector(".seat-letter"), seat.letter)
        set_text(node.querySelector(".seat-bid"), seat.bid)
        set_text(node.querySelector(".seat-tricks"),
                 seat.tricks_text or t("seat.tricks", tricks=seat.tricks))
        # the marker before the words is drawn by CSS (.seat-turn::before)
        set_text(node.querySelector(".seat-turn"), seat.turn)
        node.classList.toggle("active", seat.active)
        node.classList.toggle("dealer", seat.dealer)
        if seat.presence:  # a room's presence dot (.seat[data-presence] in ui/table.css)
            node.setAttribute("data-presence", seat.presence)
        else:
            node.removeAttribute("data-presence")
        _place(node, seat.place)
        node.setAttribute("aria-label", seat.label)
        node.toggleAttribute("aria-current", seat.active)
        fan = node.querySelector(".seat-fan")
        if not fan and seat.place not in ("", "bottom"):
            # South's plate has none in the page; in a room South may sit elsewhere
            fan = el("span", cls="seat-fan", aria_hidden="true")
            add(node, fan)
        if fan:
            draw_fan(fan, seat.cards)
    draw_trick(model)
    draw_panel(model)
    draw_hand(model)
    turn_text(model.turn, model.turn_mine)
    hint_button = byid("hint-button")
    hint_button.hidden = not model.hint_visible
    hint_button.disabled = not model.hint_enabled
    claim_button = byid("claim-button")
    claim_button.hidden = not model.claim_visible
    claim_button.disabled = not model.claim_enabled
    table_node = byid("table")
    if str(table_node.getAttribute("data-dealt") or "") != model.deal_key:
        table_node.dataset.dealt = model.deal_key
        if (model.deal_motion and model.dealer and not reduced_motion()
                and not _TAKEOVER["quiet"]):
            deal(model.dealer)
    _TAKEOVER["quiet"] = False


PLACE_CLASSES = ("at-bottom", "at-left", "at-top", "at-right")


def _place(node: Any, place: str) -> None:
    """``at-bottom`` (``-left``, ``-top``, ``-right``): where the table's CSS puts a plate
    or a trick's slot (the reader's seat at the bottom)."""
    wanted = f"at-{place}" if place else ""
    if wanted and not node.classList.contains(wanted):
        for name in PLACE_CLASSES:
            node.classList.remove(name)
        node.classList.add(wanted)


def draw_fan(fan: Any, count: int) -> None:
    """A seat's hand as a fan of card backs: as many as the seat holds."""
    while fan.childElementCount > count:
        fan.lastElementChild.remove()
    if fan.childElementCount == count:
        return
    while fan.childElementCount < count:
        add(fan, card_element(CardModel(classes=("mini",))))
    middle = (count - 1) / 2
    for position, card in enumerate(fan.children):
        card.style.setProperty("--fan", f"{position - middle:.1f}")  # its angle (table.css)


DEAL_STEP_MS = 11  # between two cards dealt: 52 cards in about 0.6 s, each flies 0.22 s


def deal(dealer: str) -> None:
    """Cards fly from the dealer's plate to the hands, one at a time round the table from the
    dealer's left, as a deal is dealt (ui/cards.css ``.card.dealing``); under 1 s in all."""
    order = "NESW"
    start = order.index(dealer)
    ox, oy = _centre(byid(f"seat-{dealer}").querySelector(".seat-avatar"))
    flights = []
    for place in range(4):
        seat = order[(start + 1 + place) % 4]
        holder = byid("hand") if seat == "S" else byid(f"seat-{seat}").querySelector(".seat-fan")
        for number, card in enumerate(holder.querySelectorAll(".card")):
            if card.classList.contains("dealing"):
                card.classList.remove("dealing")
            cx, cy = _centre(card)
            flights.append((card, ox - cx, oy - cy, (number * 4 + place) * DEAL_STEP_MS))
    _ = byid("table").offsetWidth  # restart the animation of a card dealt again
    for card, dx, dy, delay in flights:
        card.style.setProperty("--deal-x", f"{dx:.0f}px")
        card.style.setProperty("--deal-y", f"{dy:.0f}px")
        card.style.setProperty("--deal-delay", f"{delay}ms")
        card.addEventListener("animationend", _dealt)  # the same listener: added once
        card.classList.add("dealing")


def _end_deal(event: Any) -> None:
    event.currentTarget.classList.remove("dealing")


_dealt = create_proxy(_end_deal)  # one proxy for every card, kept for the page's life


def draw_trick(model: TableModel) -> None:
    trick = byid("trick")
    for slot_model in model.trick:
        slot = trick.querySelector(f".slot-{slot_model.seat}")
        _place(slot, slot_model.place)
        card = slot_model.card
        current = slot.firstElementChild
        if current and card is not None and str(current.dataset.card) == card.text:
            current.classList.toggle("winner", slot_model.winner)
            continue
        clear(slot)
        if card is not None:
            node = card_element(card)
            if _TAKEOVER["quiet"]:  # painted there already: it does not land again
                node.classList.add("landed")
            add(slot, node)


def draw_panel(model: TableModel) -> None:
    panel = byid("panel")
    if not model.panel:
        panel.hidden = True
        panel.dataset.kind = ""
        return
    key = f"{model.panel}:{model.language}"
    if str(panel.dataset.kind or "") != key or panel.hidden:
        _fill_panel(panel, model, key)
    _light_hinted(panel, model.hinted_bid)


def _light_hinted(panel: Any, hinted: str) -> None:
    """Light the panel's button the hint points at (a bid, Blind Nil, or Look), as the hinted
    card is lit in the hand."""
    for button in panel.querySelectorAll("button"):
        bid = str(button.getAttribute("data-bid") or "")
        action = str(button.getAttribute("data-action") or "")
        lit = bool(hinted) and (bid == hinted or (hinted == "look" and action == "look")
                                or (hinted == "blind-nil" and action == "blind"))
        button.classList.toggle("hinted", lit)


def _fill_panel(panel: Any, model: TableModel, key: str) -> None:
    clear(panel)
    panel.dataset.kind = key
    if model.panel == "blind-confirm":
        # The second, deliberate step of Blind Nil; the safe answer comes first and has focus.
        add(panel, el("h2", t("bid.blind.confirm.title")), el("p", t("bid.blind.confirm.help")))
        row = el("div", cls="row")
        add(row, el("button", t("bid.blind.confirm.no"), "primary", type="button",
                    data_action="blind-no", data_autofocus=True),
            el("button", t("bid.blind.confirm.yes"), type="button", data_action="blind-yes"))
        add(panel, row)
    elif model.panel == "blind":
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
                     data_arg="nil", data_bid="nil",
                     aria_label=t("bid.button", bid=t("bid.name.nil"))))
        for number in range(1, 14):
            add(grid, el("button", str(number), type="button", data_action="bid",
                         data_arg=str(number), data_bid=str(number),
                         aria_label=t("bid.button", bid=number)))
        add(panel, grid)
    panel.hidden = False


def _hand_key(model: TableModel) -> str:
    return "|".join(f"{c.text}:{c.label}:{','.join(c.classes)}:{c.disabled}" for c in model.hand)


def draw_hand(model: TableModel) -> None:
    hand_node = byid("hand")
    key = _hand_key(model)
    if hand_node.childElementCount and str(hand_node.getAttribute("data-drawn") or "") == key:
        return  # unchanged: keep its nodes (a card in flight of the deal, the focus)
    hand_node.dataset.drawn = key
    focused = js.document.activeElement
    focused_card = None
    focused_at = -1
    if focused and focused.parentElement == hand_node:
        focused_card = str(focused.dataset.card or "")
        focused_at = next((i for i, node in enumerate(hand_node.querySelectorAll(".card"))
                           if node == focused), -1)
    clear(hand_node)
    hand_node.style.setProperty("--n", str(len(model.hand)))  # the overlap (table.css)
    if model.hand:
        hand_node.setAttribute("aria-label", model.hand_label)
    nodes = []
    for card in model.hand:
        node = card_element(card)
        add(hand_node, node)
        nodes.append(node)
        if card.face_up and focused_card == card.text:
            focused_card = None
            node.focus()
    if focused_card and focused_at >= 0:
        # The focused card was played: the focus stays in the hand, on the card that took
        # its place (or the new last one), never dropped on the page's body.
        buttons = [node for node in nodes if str(node.tagName).lower() == "button"]
        if buttons:
            buttons[min(focused_at, len(buttons) - 1)].focus()


# --- the menu screen -----------------------------------------------------------------------


def welcome() -> None:
    """The first visit's screen: what the app is and four ways in (also from the menu)."""
    section = clear(byid("screen-welcome"))
    add(section, el("h2", t("welcome.title"), id="welcome-title", tabindex="-1"),
        el("p", t("welcome.intro")))
    items = el("div", cls="menu-list welcome-list")
    for key, action, primary in WELCOME_CHOICES:  # ui/paint.js paints the same before Python
        button = el("button", None, "primary" if primary else None, type="button",
                    data_action=action, data_key=f"welcome-{key}")
        add(button, el("span", t(f"welcome.{key}"), "welcome-choice"),
            el("span", t(f"welcome.{key}.help"), "welcome-help"))
        add(items, button)
    add(section, items)
    title = byid("welcome-title")
    if title:
        title.focus()


def menu(model: MenuModel) -> None:
    section = clear(byid("screen-menu"))
    add(section, el("h2", t("menu.title")), el("p", t("menu.subtitle")))
    items = el("div", cls="menu-list")
    if model.resume:
        add(items, el("button", t("menu.resume"), "primary", type="button", data_action="resume"))
    if model.in_room:
        add(items, el("button", t("rooms.leave"), type="button", data_action="room-leave"))
    add(items,
        el("button", t("menu.new"), type="button", data_action="new"),
        el("button", t("menu.daily"), type="button", data_action="daily"),
        el("button", t("menu.ranked"), type="button", data_action="ranked"),
        el("button", t("menu.mistakes"), type="button", data_action="mistakes"),
        el("button", t("menu.rooms"), type="button", data_action="rooms"),
        el("button", t("menu.quick"), type="button", data_action="quick"),
        el("button", t("menu.lessons"), type="button", data_action="lessons"),
        el("button", t("menu.progress"), type="button", data_action="progress"),
        el("button", t("menu.welcome"), type="button", data_action="welcome"),
        el("button", t("menu.rules"), type="button", data_action="rules"),
        el("button", t("menu.options"), type="button", data_action="options"),
        el("button", t("menu.stats"), type="button", data_action="stats"))
    add(section, items)
    add(section, el("p", model.daily_line))
    if model.mistakes_due:  # the day's round of "Your mistakes", beside today's deal
        line = el("p", cls="menu-round", data_due=str(model.mistakes_due))
        add(line, el("span", i18n.hint_text("menu.mistakes.due", {
            "count": i18n.number(model.mistakes_due), "n": str(model.mistakes_due)})))
        add(line, el("button", t("menu.mistakes.round"), "link", type="button",
                     data_action="mistakes"))
        add(section, line)
