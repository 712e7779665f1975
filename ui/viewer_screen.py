"""The hand viewer's renderer (browser only): a finished hand trick by trick, in the page's
dialog.

It draws ``ui/viewer.py``'s :class:`~ui.viewer.ViewerModel` (plain data) with the one card
widget (``ui/cardview.py``) and declares its buttons by action name: ``viewer-prev``,
``viewer-next``, ``viewer-go`` (``data-arg``: a frame), ``viewer-back`` (to the score
sheet). It reads no game state and imports no controller. Stepping redraws the viewer in
place and keeps the focus on the button pressed, so that Next can be pressed again.
"""

from __future__ import annotations

from typing import Any

from . import dialogs
from .cardview import card_element
from .dom import add, byid, clear, document, el
from .i18n import t
from .viewer import ViewerHand, ViewerModel

VIEWER_ID = "viewer"


def _found(node: Any) -> bool:
    return node is not None and type(node).__name__ not in ("JsNull", "JsUndefined") and bool(node)


def viewer_dialog(model: ViewerModel) -> None:
    """Open the viewer on ``model``'s frame, or redraw it in place when it is open."""
    dialog = byid("dialog")
    current: Any = dialog.querySelector(f"#{VIEWER_ID}") if dialog.open else None
    if current is not None and _found(current):
        focused = document.activeElement
        action, arg = "", ""
        if _found(focused) and bool(current.contains(focused)):
            action = str(focused.getAttribute("data-action") or "")
            arg = str(focused.getAttribute("data-arg") or "")
        title = dialog.querySelector("#dialog-title")
        if _found(title):
            title.textContent = model.title
        clear(current)
        _fill(current, model)
        _refocus(current, action, arg)
        return
    dialog, body = dialogs.open_dialog(model.title, "dialog-body viewer-body")
    root = el("div", cls="viewer", id=VIEWER_ID)
    add(body, root)
    _fill(root, model)
    dialogs.show_dialog(dialog, el("button", t("viewer.back"), "primary", type="button",
                                   data_action="viewer-back"))


def _refocus(root: Any, action: str, arg: str) -> None:
    """The focus back on the button pressed (``action``, ``arg``), or on the other step
    button when it is now disabled (the first or the last frame)."""
    if not action.startswith("viewer-"):
        return
    wanted = [f"[data-action={action}][data-arg='{arg}']" if arg else
              f"[data-action={action}]", "[data-action=viewer-next]",
              "[data-action=viewer-prev]"]
    for selector in wanted:
        button = root.querySelector(selector)
        if _found(button) and not button.disabled:
            button.focus()
            return


def _fill(root: Any, model: ViewerModel) -> None:
    root.setAttribute("data-hand", str(model.hand_index))
    root.setAttribute("data-frame", str(model.frame))
    root.setAttribute("data-frames", str(model.frames))
    root.setAttribute("data-review", model.review_state)
    # the coach's verdict, when there is one, right under the step buttons: in view on a
    # phone, before the four hands
    add(root, _nav(model), _verdict(model) if model.verdict is not None else None,
        _table(model))
    note = el("div", cls="vw-review")
    add(note, el("p", model.review_note, "vw-review-note"))
    if model.flagged:
        jumps = el("div", cls="vw-jumps", role="group", aria_label=t("viewer.jumps"))
        for frame, label in model.flagged:
            add(jumps, el("button", label, "vw-jump", type="button", data_action="viewer-go",
                          data_arg=str(frame),
                          aria_current="step" if frame == model.frame else None))
        add(note, jumps)
    add(root, note)


def _nav(model: ViewerModel) -> Any:
    nav = el("div", cls="vw-nav")
    prev = el("button", t("viewer.prev"), "vw-prev", type="button", data_action="viewer-prev",
              disabled=not model.has_prev, aria_keyshortcuts="ArrowLeft")
    step = el("p", model.step, "vw-step", aria_live="polite")
    nxt = el("button", t("viewer.next"), "vw-next", type="button", data_action="viewer-next",
             disabled=not model.has_next, aria_keyshortcuts="ArrowRight")
    add(nav, prev, step, nxt)
    return nav


def _hand(hand: ViewerHand) -> Any:
    section = el("section", cls=f"vw-hand at-{hand.place}", data_seat=hand.seat,
                 aria_label=hand.label)
    info = el("p", cls="vw-info")
    add(info, el("span", hand.name, "vw-name"),
        el("span", f"{hand.bid} · {hand.tricks}", "vw-figures"))
    if hand.dealer:
        add(info, el("span", t("seat.dealer"), "vw-dealer"))
    cards = el("div", cls="vw-cards")
    for card in hand.cards:
        add(cards, card_element(card))
    add(section, info, cards)
    return section


def _table(model: ViewerModel) -> Any:
    table = el("div", cls="vw-table")
    centre = el("div", cls="vw-centre")
    if model.plays:
        trick = el("ol", cls="vw-trick", aria_label=t("viewer.trick"))
        for play in model.plays:
            item = el("li", cls="vw-play winner" if play.winner else "vw-play",
                      data_seat=play.seat)
            add(item, card_element(play.card), el("span", play.name, "vw-play-name"))
            add(trick, item)
        add(centre, trick, el("p", model.winner, "vw-winner"))
    else:
        bids = el("ol", cls="vw-bids", aria_label=t("viewer.bids"))
        for bid in model.bids:
            item = el("li", cls="vw-bid flagged" if bid.flagged else "vw-bid",
                      data_seat=bid.seat)
            add(item, el("span", bid.name, "vw-bid-name"), el("strong", bid.bid))
            add(bids, item)
        add(centre, bids)
    # the reader's partner on top, the reader at the bottom, the others at the sides
    order = {"top": 0, "left": 1, "right": 2, "bottom": 3}
    hands = sorted(model.hands, key=lambda hand: order.get(hand.place, 4))
    add(table, *(_hand(hand) for hand in hands[:3]), centre, *(_hand(h) for h in hands[3:]))
    return table


def _verdict(model: ViewerModel) -> Any:
    verdict = model.verdict
    assert verdict is not None
    box = el("section", cls="vw-verdict", data_kind=verdict.kind, data_played=verdict.played,
             data_better=verdict.better, aria_label=t("viewer.verdict"))
    add(box, el("p", verdict.head, "vw-verdict-head"))
    if verdict.played_card is not None and verdict.better_card is not None:
        pair = el("div", cls="vw-pair")
        for card, label in ((verdict.played_card, verdict.played_label),
                            (verdict.better_card, verdict.better_label)):
            figure = el("figure")
            add(figure, card_element(card), el("figcaption", label))
            add(pair, figure)
        add(box, pair)
    add(box, el("p", verdict.sentence, "vw-verdict-sentence"),
        el("p", verdict.cost, "vw-verdict-cost"))
    return box
