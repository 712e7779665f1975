"""Renderer: the "Your mistakes" screen (``#screen-mistakes``) from plain data.

One position at a time as "find the better play": the table as South saw it (the lessons'
board, ``lx-`` classes of ``ui/lessons.css``, every card through the page's one widget
``ui.shared.cardview``), South's cards it may play as buttons (``data-action="mistake-answer"``)
or, for a bid, the bids it may make; then the coach's verdict, the reason of the decision
in the game (the review's own sentence, ``i18n.review_sentence``) and where the schedule
moved the position.  The model is ``Progress.mistakes_model``'s (``deck.board_model`` for
the board); ``data-state`` on the screen says ``ask``, ``judging``, ``right``, ``wrong``,
``failed``, ``done`` or ``empty`` (tests wait on it).
"""

from __future__ import annotations

from typing import Any

from ..shared import i18n
from ..shared.cardview import card_element
from ..shared.dom import add, byid, clear, el
from ..shared.i18n import t
from ..shared.models import CardModel

CSS_HREF = "./ui/lessons.css"
AREAS = {"N": "north", "E": "east", "S": "south", "W": "west"}


def _ensure_css() -> None:
    import js  # type: ignore[import-not-found]

    if not js.document.querySelector(f'link[href="{CSS_HREF}"]'):
        link = js.document.createElement("link")
        link.rel = "stylesheet"
        link.href = CSS_HREF
        js.document.head.appendChild(link)


def _text(key: str, **params: object) -> str:
    """A sentence of the catalogues with the coach's parameters (plural marks resolved)."""
    values = {name: str(value) for name, value in params.items()}
    return t(key) if not values else i18n.hint_text(key, values)


def _action_name(kind: str, token: str) -> str:
    return i18n.bid_text(token) if kind == "bid" else i18n.card_short(token)


def _card(token: str, classes: str = "", action: str = "", small: bool = False) -> Any:
    red = token[-1:] in ("H", "D")
    cls = f"lx-card{' lx-red' if red else ''}{' lx-small' if small else ''} {classes}".split()
    if action:
        cls.append("lx-card-btn")
    return card_element(CardModel(text=token, label=i18n.card_name(token), action=action,
                                  arg=token if action else "", classes=tuple(cls),
                                  key=f"card:{token}" if action else ""))


def _backs(count: int) -> Any:
    group = el("span", cls="lx-backs", role="img", aria_label=t("mistakes.backs", count=count))
    for _ in range(min(count, 4)):
        add(group, card_element(CardModel(classes=("lx-cardback",))))
    if count > 4:
        add(group, el("span", f"×{count}", "lx-backs-count", aria_hidden="true"))
    return group


def _seat_box(seat: dict[str, Any]) -> Any:
    box = el("div", cls=f"lx-seat lx-seat-{AREAS[seat['seat']]}", data_seat=seat["seat"])
    label = el("div", cls="lx-seat-label")
    add(label, el("span", i18n.seat_name(seat["seat"]), "lx-seat-name"))
    if seat["dealer"]:
        add(label, el("span", t("mistakes.dealer"), "lx-badge lx-dealer"))
    if seat["bid"] is not None:
        add(label, el("span", t("mistakes.bid", bid=i18n.bid_text(seat["bid"])), "lx-badge"))
    if seat["tricks"] is not None:
        add(label, el("span", _text("mistakes.tricks", count=seat["tricks"]), "lx-badge"))
    add(box, label)
    return box


def _board(board: dict[str, Any], answer: dict[str, Any] | None, played: str,
           better: str) -> Any:
    node = el("div", cls="lx-board mk-board", role="group", aria_label=t("mistakes.table"))
    seats = {seat["seat"]: seat for seat in board["seats"]}
    for name in ("N", "W", "E"):
        box = _seat_box(seats[name])
        add(box, add(el("div", cls="lx-seat-cards"), _backs(seats[name]["cards"])))
        add(node, box)
    trick = el("div", cls="lx-trick", role="group", aria_label=t("mistakes.trick"))
    if not board["trick"]:
        add(trick, el("span", t("mistakes.lead" if board["kind"] == "card" else "mistakes.bidding"),
                      "lx-trick-empty"))
    for seat, token in board["trick"]:
        slot = el("div", cls=f"lx-slot lx-slot-{AREAS[seat]}")
        face = _card(token)
        face.setAttribute("aria-label", t("mistakes.played-by", seat=i18n.seat_name(seat),
                                          card=i18n.card_name(token)))
        add(trick, add(slot, face))
    add(node, trick)
    south = _seat_box(seats["S"])
    hand = el("div", cls="lx-hand", role="group", aria_label=t("mistakes.hand"))
    open_ = answer is None and board["kind"] == "card"
    chosen = None if answer is None else answer["chosen"]
    for token in board["hand"]:
        extra = ""
        if token == played:
            extra += " mk-played"
        if answer is not None and token == chosen:
            extra += " lx-right" if answer["right"] else " lx-wrong"
        if answer is not None and not answer["right"] and token == answer["best"]:
            extra += " lx-lit"
        playable = open_ and token in board["legal"]
        add(hand, _card(token, extra, "mistake-answer" if playable else ""))
    add(south, hand)
    add(node, south)
    line = el("p", cls="lx-scores")
    for index, team in enumerate(("NS", "EW")):
        bags = board["bags"][index]
        add(line, el("span", _text("mistakes.score", team=t(f"mistakes.team.{team}"),
                                   score=i18n.number(board["scores"][index]),
                                   bags=i18n.number(bags), n=bags), "lx-score"))
    add(node, line)
    return node


def _bids(board: dict[str, Any], answer: dict[str, Any] | None, played: str) -> Any:
    row = el("div", cls="mk-bids", role="group", aria_label=t("mistakes.bids"))
    for token in board["bids"]:
        cls = "lx-btn mk-bid" + (" mk-played" if token == played else "")
        if answer is not None and token == answer["chosen"]:
            cls += " lx-right" if answer["right"] else " lx-wrong"
        elif answer is not None and not answer["right"] and token == answer["best"]:
            cls += " lx-lit"
        add(row, el("button", i18n.bid_text(token), cls, type="button",
                    data_action="mistake-answer", data_arg=token,
                    disabled=answer is not None))
    return row


def _verdict(model: dict[str, Any]) -> Any:
    item, answer = model["item"], model["answer"]
    kind = item["kind"]
    box = el("div", cls="mk-verdict", role="status")
    if model["state"] == "judging":
        add(box, el("p", t("mistakes.judging"), "mk-judging"))
        return box
    if model["state"] == "failed":
        add(box, el("p", t("mistakes.failed"), "mk-failed"))
        return box
    if answer is None:
        return box
    chosen = _action_name(kind, answer["chosen"])
    if answer["right"]:
        same = answer["best"] == answer["chosen"]
        key = "mistakes.right.best" if same else "mistakes.right.close"
        add(box, el("p", t(key, answer=chosen), "mk-right"))
    else:
        points = i18n.whole_points(int(answer["cost"]))
        add(box, el("p", _text("mistakes.wrong", answer=chosen,
                               better=_action_name(kind, answer["best"]),
                               points=i18n.number(points), n=str(points)), "mk-wrong"))
    add(box, el("p", _text("mistakes.why", played=_action_name(kind, item["played"]),
                           better=_action_name(kind, item["better"])), "mk-why-head"))
    add(box, el("p", i18n.review_sentence(item), "mk-reason"))
    moved = answer["moved"]
    if moved["retired"]:
        add(box, el("p", t("mistakes.retired"), "mk-moved"))
    elif answer["right"]:
        add(box, el("p", _text("mistakes.up", box=moved["box"], days=moved["days"]), "mk-moved"))
    else:
        add(box, el("p", t("mistakes.back"), "mk-moved"))
    if i18n.has(f"tip.{item['tip']}.name"):
        add(box, el("button", t("review.lesson", tip=t(f"tip.{item['tip']}.name")),
                    "link coach-lesson", type="button", data_action="lesson-tip",
                    data_arg=item["tip"]))
    return box


def draw(model: dict[str, Any]) -> None:
    """The screen from ``model``: ``state``, ``title`` (a skill's name or ""), ``at`` and
    ``count`` (the position shown of the round), ``item`` (its played, better, reason keys
    and parameters, box; ``board``), ``answer`` (None until judged), ``right`` (right
    answers this round), ``more`` (other items due)."""
    _ensure_css()
    section = clear(byid("screen-mistakes"))
    state = model["state"]
    section.setAttribute("data-state", state)
    root = el("div", cls="lx-root mk-root")
    add(root, el("h2", t("mistakes.title"), id="mistakes-title"))
    if model["skill"]:
        add(root, el("p", t("mistakes.skill", skill=t(f"skill.{model['skill']}")), "mk-skill"))
    top = el("div", cls="pg-actions")
    add(top, el("button", t("progress.back"), type="button", data_action="menu"),
        el("button", t("menu.progress"), type="button", data_action="progress"))
    add(root, top)
    add(section, root)
    if state == "empty":
        add(root, el("p", t("mistakes.none"), "mk-none"))
        return
    if state == "done":
        add(root, el("p", _text("mistakes.done", right=model["right"], count=model["count"]),
                     "mk-done"))
        if model["more"]:
            add(root, el("button", _text("mistakes.more", count=model["more"]), "primary",
                         type="button", data_action="mistakes", data_arg=model["skill"]))
        return
    item = model["item"]
    kind = item["kind"]
    board = item["board"]
    body = el("div", cls="lx-body mk-body", data_key=item["key"], data_box=str(item["box"]))
    panel = el("div", cls="lx-panel mk-panel")
    add(panel, el("p", _text("mistakes.count", at=model["at"] + 1, count=model["count"]),
                  "mk-count"))
    ask = "mistakes.ask.bid" if kind == "bid" else "mistakes.ask.card"
    add(panel, el("p", _text(ask, hand=board["hand_number"], trick=board["trick_number"],
                             played=_action_name(kind, item["played"])), "mk-ask"))
    if kind == "bid":
        add(panel, _bids(board, model["answer"], item["played"]))
    add(panel, _verdict(model))
    following = None
    if model["answer"] is not None or state == "failed":
        last = model["at"] + 1 >= model["count"]
        following = el("button", t("mistakes.finish" if last else "mistakes.next"), "primary",
                       type="button", data_action="mistake-next", data_autofocus="")
        add(panel, following)
    add(body, _board(board, model["answer"], item["played"], item["better"]), panel)
    add(root, body)
    if following is not None:  # the verdict in sight (below the board on a phone)
        following.scrollIntoView(False)
        following.focus()


def to_top() -> None:
    """A new position, or a new round: the screen from its top."""
    import js

    byid("screen-mistakes").scrollTop = 0
    js.window.scrollTo(0, 0)
