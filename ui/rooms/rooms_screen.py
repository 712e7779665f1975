"""The rooms' screens (browser only): the "Play with friends" dialog, the waiting room, the
room bar over the table (code, chat, mute, nudge, reconnecting) and the chat phrases.

A renderer: it draws plain data (``ui/rooms/rooms_client.py``'s models, strings) and declares its
buttons by action name (``data-action``); it imports no controller. Nicknames go in as text.
"""

from __future__ import annotations

from typing import Any

from spades_core.roomcode import CODE_INPUT_MAX, show_code

from ..shared import i18n
from ..shared.dom import add, byid, clear, document, el
from ..shared.i18n import t
from ..shared.options import CHOICES
from ..table.dialogs import open_dialog, show_dialog
from .rooms_client import NICKNAME_MAX, SEAT_NAMES, BoardModel, HostRow, LobbyModel

TARGETS: tuple[int, ...] = CHOICES["target"]  # a room offers the games solo play offers
LEVELS: tuple[str, ...] = CHOICES["level"]


def _found(node: Any) -> Any:
    """``node``, or None for JavaScript's null."""
    return None if node is None or type(node).__name__ in ("JsNull", "JsUndefined") else node


def _dialog(title: str) -> tuple[Any, Any]:
    return open_dialog(title, "dialog-body rooms-body")


_show = show_dialog


def _button(text: str, action: str, primary: bool = False, cls: str | None = None,
            **attrs: object) -> Any:
    return el("button", text, "primary" if primary else cls, type="button",
              data_action=action, **attrs)


def _field(label: str, control: Any) -> Any:
    row = el("label", cls="rooms-field")
    add(row, el("span", label), control)
    return row


def _select(name: str, choices: tuple[tuple[str, str], ...], chosen: str) -> Any:
    node = el("select", id=f"room-{name}", name=name)
    for value, text in choices:
        add(node, el("option", text, value=value, selected=value == chosen))
    return node


def _seat_choice(chosen: str = "") -> Any:
    """The seat a joining player asks for: the first free one, or a given seat."""
    choices = (("", t("rooms.seat.any")),) + tuple(
        (seat, i18n.seat_name(seat, person=False)) for seat in SEAT_NAMES)
    return _field(t("rooms.seat"), _select("seat", choices, chosen))


def friends_dialog(nickname: str, code: str = "", error: str = "") -> None:
    """Nickname, the new room's options, and a code to join."""
    dialog, body = _dialog(t("rooms.title"))
    add(body, el("p", t("rooms.help")))
    add(body, _field(t("rooms.nickname"), el(
        "input", id="room-nickname", type="text", maxlength=str(NICKNAME_MAX),
        autocomplete="nickname", value=nickname)))
    if error:
        add(body, el("p", error, "rooms-error", id="room-error", role="alert"))
    options = el("fieldset", cls="rooms-options")
    add(options, el("legend", t("rooms.options")))
    add(options,
        _field(t("options.target"), _select(
            "target", tuple((str(v), str(v)) for v in TARGETS), "500")),
        _field(t("options.floor"), el("input", id="room-floor", type="checkbox", checked=True)),
        _field(t("rooms.bot-level"), _select(
            "bot_level", tuple((v, t(f"options.level.{v}")) for v in LEVELS), "normal")),
        _field(t("rooms.takeover"), el("input", id="room-takeover", type="number",
                                       min="0", max="600", value="30")),
        _field(t("rooms.blind-nil"), el("input", id="room-blind_nil", type="checkbox",
                                        checked=True)),
        _field(t("rooms.hints"), el("input", id="room-hints", type="checkbox")))
    add(body, options, _button(t("rooms.create"), "room-create", primary=True))
    join = el("fieldset", cls="rooms-join")
    add(join, el("legend", t("rooms.join")),
        _field(t("rooms.code"), el("input", id="room-code", type="text",
                                   maxlength=str(CODE_INPUT_MAX),
                                   autocomplete="off", value=code, cls="rooms-code-input")),
        _seat_choice(),
        _button(t("rooms.join.button"), "room-join"))
    add(body, join)
    _show(dialog, _button(t("rooms.quick"), "quick"), _button(t("dialog.close"), "close"))


def _who_sits(seats: tuple[tuple[str, str | None], ...]) -> Any:
    """The join dialog's list of who sits where: (seat, nickname or None: a free seat)."""
    listing = el("ul", cls="rooms-who-sits", id="room-who-sits")
    for seat, nickname in seats:
        who = nickname if nickname is not None else t("rooms.empty")
        add(listing, el("li", t("rooms.sits", place=i18n.seat_name(seat, person=False),
                                who=who), "free" if nickname is None else None,
                        data_seat=seat))
    return listing


def nickname_dialog(code: str, nickname: str, error: str = "",
                    seats: tuple[tuple[str, str | None], ...] = ()) -> None:
    """Opened from a room's link: who sits where (once known), a nickname, then join, or
    watch the table."""
    dialog, body = _dialog(t("rooms.join.title", code=show_code(code)))
    if seats:
        add(body, _who_sits(seats))
    add(body, _field(t("rooms.nickname"), el(
        "input", id="room-nickname", type="text", maxlength=str(NICKNAME_MAX),
        autocomplete="nickname", value=nickname)))
    add(body, el("input", id="room-code", type="hidden", value=code))
    add(body, _seat_choice(), el("p", t("rooms.seat.help"), "rooms-note"))
    if error:
        add(body, el("p", error, "rooms-error", id="room-error", role="alert"))
    _show(dialog, _button(t("rooms.join.button"), "room-join", primary=True),
          _button(t("rooms.watch"), "room-watch", data_arg=code),
          _button(t("dialog.close"), "close"))


def seats_dialog(rows: tuple[HostRow, ...], host: bool, opened: bool, watching: bool,
                 spectators: int) -> None:
    """The seats during a game: who sits where; the host frees a seat or lets people take
    the bots' seats; anyone gives up their seat (a bot takes it at once)."""
    dialog, body = _dialog(t("rooms.seats"))
    listing = el("ul", cls="rooms-who-sits", id="room-seat-list")
    for row in rows:
        item = el("li", row.who, data_seat=row.seat)
        if row.can_free:
            add(item, _button(t("rooms.free"), "room-free", data_arg=row.seat,
                              id=f"room-free-{row.seat}"))
        add(listing, item)
    add(body, listing)
    if spectators:
        add(body, el("p", t("rooms.spectators", count=spectators), "rooms-note"))
    if host:
        add(body, _button(t("rooms.close-seats") if opened else t("rooms.open-seats"),
                          "room-open", data_arg="0" if opened else "1", id="room-open",
                          aria_pressed="true" if opened else "false"))
        add(body, el("p", t("rooms.open-help"), "rooms-note"))
    buttons = [_button(t("rooms.stop-watching") if watching else t("rooms.give-up"), "room-quit",
                       id="room-quit")]
    _show(dialog, *buttons, _button(t("dialog.close"), "close"))


def replaced_dialog(code: str, text: str) -> None:
    """The seat is now played on another page: why this one stopped, and "Play here"."""
    dialog, body = _dialog(t("rooms.label", code=show_code(code)))
    add(body, el("p", text, "rooms-error", id="room-replaced", role="alert"))
    _show(dialog, _button(t("rooms.replaced.back"), "room-here", primary=True),
          _button(t("dialog.close"), "close"))


def _move_picker(model: LobbyModel, seat: str, label: str) -> Any:
    """The host's seat picker for the player of ``seat``: choosing another seat moves the
    player there (swapping with whoever sits there)."""
    node = el("select", id=f"room-move-{seat}", cls="rooms-move", data_change="room-move",
              data_arg=seat, aria_label=label)
    for value, place, text in model.choices:
        add(node, el("option", place if value == seat else text, value=value,
                     selected=value == seat))
    return node


def lobby_dialog(model: LobbyModel, error: str = "") -> None:
    """The waiting room: the code and the link to share (a private room), who sits where
    (the host seats the players), Start (the host)."""
    active = _found(document.activeElement)
    refocus = str(active.id or "") if active is not None and active.closest("#dialog") else ""
    if model.public:
        dialog, body = _dialog(t("rooms.quick.waiting"))
        add(body, el("p", t("rooms.quick.help")))
    else:
        dialog, body = _dialog(t("rooms.waiting", code=show_code(model.code)))
        add(body, el("p", t("rooms.share")))
        add(body, el("p", show_code(model.code), "rooms-code", id="room-code-shown"))
        add(body, el("input", id="room-link", cls="rooms-link", type="text", readonly=True,
                     value=model.link, aria_label=t("rooms.link")))
    if error:
        add(body, el("p", error, "rooms-error", id="room-error", role="alert"))
    table = el("table", cls="rooms-seats", id="room-seats")
    for item in model.rows:
        row = el("tr", data_seat=item.seat)
        who = el("td")
        add(who, el("span", item.who, "rooms-who"))
        if item.host:
            add(who, el("span", t("rooms.host"), "rooms-host-badge"))
        add(row, el("th", item.place, scope="row"), who)
        if model.host:
            cell = el("td", cls="rooms-move-cell")
            if item.movable:
                add(cell, _move_picker(model, item.seat, item.move_label))
            add(row, cell)
        add(table, row)
    add(body, table)
    if model.host:
        add(body, el("p", t("rooms.arrange"), "rooms-note"))
    elif not model.public:
        add(body, el("p", t("rooms.host-starts", name=model.host_name) if model.host_name
                     else t("rooms.bots-fill"), "rooms-note", id="room-host-note"))
    buttons = []
    if model.host:
        buttons.append(_button(t("rooms.start"), "room-start", primary=True))
    if not model.public:
        buttons.append(_button(t("rooms.copy"), "room-copy"))
    buttons.append(_button(t("rooms.leave"), "room-leave"))
    _show(dialog, *buttons)
    if refocus:  # redrawn under the player's hands (a seat changed): keep their place
        again = _found(byid(refocus))
        if again is not None:
            again.focus()


def chat_dialog(phrases: tuple[str, ...], lines: tuple[str, ...] = ()) -> None:
    """The phrases to send, under the last lines said (they fade from the table)."""
    dialog, body = _dialog(t("rooms.chat"))
    if lines:
        said = el("ul", cls="rooms-chat-history", id="rooms-chat-history")
        for line in lines[-5:]:
            add(said, el("li", line))
        add(body, said)
    grid = el("div", cls="rooms-phrases")
    for key in phrases:
        add(grid, _button(t(key), "chat", data_arg=key))
    add(body, grid)
    _show(dialog, _button(t("dialog.close"), "close"))


def room_bar(code: str, muted: bool, nudge: bool, nudged: bool, reconnecting: bool,
             lines: tuple[str, ...], away: bool = False, stale: bool = False,
             timer: str = "", watching: bool = False, ranked: bool = False) -> None:
    """The strip over the table in a room (a ranked game's: its name only, nobody to chat
    with); created on first use. Its row (the room, Chat,
    Mute, Nudge) takes a line; what comes and goes (taken over, reconnecting, nudged, the
    chat's last lines, faded once ``stale``) floats over the table's top, so that the table,
    the hand and the buttons never move."""
    bar = _found(byid("room-bar"))
    if bar is None:
        bar = el("div", cls="room-bar", id="room-bar")
        table = byid("screen-table")
        table.insertBefore(bar, table.firstChild)
    clear(bar)
    bar.hidden = False
    head = el("div", cls="room-bar-row")
    if ranked:
        add(head, el("span", t("ranked.bar"), "room-bar-code", id="room-ranked"))
    else:
        add(head, el("span", t("rooms.label", code=show_code(code)), "room-bar-code"))
    if ranked:
        pass
    elif watching:
        add(head, el("span", t("rooms.watching"), "room-watching", id="room-watching"))
    else:
        add(head, _button(t("rooms.chat"), "room-chat", id="room-chat-button"))
    if not ranked:
        add(head, _button(t("rooms.unmute") if muted else t("rooms.mute"), "room-mute",
                          aria_pressed="true" if muted else "false", id="room-mute-button"),
            _button(t("rooms.seats"), "room-seats", id="room-seats-button"))
    if nudge:
        add(head, _button(t("rooms.nudge"), "nudge", True, id="room-nudge-button"))
    add(bar, head)
    floating = el("div", cls="room-bar-float")
    if timer:
        add(floating, el("p", timer, "room-timer", id="room-timer", role="timer"))
    if away:
        row = el("p", t("rooms.taken-over"), "room-nudged", id="room-away", role="alert")
        add(row, _button(t("rooms.back"), "room-back", True, id="room-back-button"))
        add(floating, row)
    if reconnecting:
        add(floating, el("p", t("rooms.reconnecting"), "room-reconnecting",
                         id="room-reconnecting", role="status"))
    if nudged:
        add(floating, el("p", t("rooms.nudged"), "room-nudged", id="room-nudged", role="alert"))
    log = el("ul", cls="room-chat-log stale" if stale else "room-chat-log", id="room-chat-log",
             aria_live="polite")
    for line in lines[-3:]:
        add(log, el("li", line))
    add(floating, log)
    add(bar, floating)


def team_names(ns: str, ew: str) -> None:
    """The score bar's team names in a room (the reader is not always South)."""
    for team_id, text in (("team-ns", ns), ("team-ew", ew)):
        node = js_query(f"#{team_id} .team-name")
        if node is not None:
            node.textContent = text


def js_query(selector: str) -> Any:
    return _found(byid("dialog").ownerDocument.querySelector(selector))


def hide_room_bar() -> None:
    bar = _found(byid("room-bar"))
    if bar is not None:
        bar.hidden = True


def room_end(scores: tuple[int, int], won: bool | None, record_url: str,
             rematch: str = "", asked: bool = False, ranked: bool = False) -> None:
    """The end of a room's game: the result (``won`` None: a spectator's), the record, and
    Rematch (same seats and rules, a new deal) or give up the seat. A ranked game's
    (``ranked``) has a box for its rank and the day's board (filled in when the board
    comes, which says when its records are published) instead: no rematch."""
    dialog, body = _dialog(t("end.title"))
    if won is not None:
        add(body, el("p", t("rooms.end.won" if won else "rooms.end.lost"), "end-result"))
    add(body, el("p", t("rooms.end.score", ns=i18n.number(scores[0]),
                        ew=i18n.number(scores[1]))))
    if ranked:
        add(body, el("div", None, "daily-box", id="ranked-box"))  # its note: when published
        _show(dialog, _button(t("rooms.leave"), "room-leave", primary=True),
              _button(t("dialog.close"), "close"))
        return
    if record_url:
        add(body, el("a", t("rooms.record"), "button", href=record_url,
                     download="spades-record.json", id="room-record"))
    if rematch:
        add(body, el("p", rematch, "rooms-note", id="room-rematch-note", role="status"))
    buttons = []
    if won is not None:
        buttons.append(_button(t("rooms.rematch"), "room-rematch", primary=True,
                               id="room-rematch", disabled=asked))
        buttons.append(_button(t("rooms.give-up"), "room-quit", id="room-quit"))
    _show(dialog, *buttons, _button(t("rooms.leave"), "room-leave"),
          _button(t("dialog.close"), "close"))


def ranked_dialog(nickname: str, level: str, error: str = "",
                  days: tuple[tuple[int, str], ...] = (), day: int = 0) -> None:
    """Today's ranked deal: what it is, a nickname and the bots' level, "Play", and the
    board of that level for one of ``days`` (``(day, label)``; ``day`` shown first), filled
    in when it comes (``daily_board("ranked-box", …)``)."""
    dialog, body = _dialog(t("ranked.title"))
    add(body, el("p", t("ranked.help"), id="ranked-help"))
    levels = _select("bot_level", tuple((v, t(f"options.level.{v}")) for v in LEVELS), level)
    levels.setAttribute("data-change", "ranked-level")  # the board of that level shown
    add(body, _field(t("rooms.nickname"), el(
        "input", id="room-nickname", type="text", maxlength=str(NICKNAME_MAX),
        autocomplete="nickname", value=nickname)),
        _field(t("ranked.level"), levels))
    if error:
        add(body, el("p", error, "rooms-error", id="room-error", role="alert"))
    if days:  # the board of another day: a published one lists its games' records
        chosen = _select("board_day", tuple((str(value), text) for value, text in days), str(day))
        chosen.setAttribute("data-change", "ranked-day")
        add(body, _field(t("ranked.day"), chosen))
    box = el("div", cls="daily-box", id="ranked-box")
    add(box, el("p", t("ranked.loading"), "rooms-note", id="ranked-status", role="status"))
    add(body, box)
    _show(dialog, _button(t("ranked.play"), "ranked-start", primary=True, id="ranked-start"),
          _button(t("dialog.close"), "close"))


def ranked_no_server() -> None:
    """The ranked dialog when the server cannot be reached: it says so, and nothing else."""
    dialog, body = _dialog(t("ranked.title"))
    add(body, el("p", t("ranked.no-server"), "rooms-error", id="ranked-no-server", role="alert"))
    _show(dialog, _button(t("dialog.close"), "close"))


def daily_unranked() -> None:
    """Appended to the open end dialog of the offline daily deal: it is not ranked (its
    hands are in every page), and the way to today's ranked deal."""
    body = _found(byid("dialog")).querySelector(".dialog-body")
    if _found(body) is None:
        return
    old = _found(byid("daily-box"))
    if old is not None:
        old.remove()
    box = el("div", cls="daily-box", id="daily-box")
    add(box, el("p", t("daily.unranked"), "rooms-note", id="daily-unranked"),
        _button(t("daily.unranked.play"), "ranked", id="daily-ranked"))
    add(body, box)


def daily_board(box_id: str, model: BoardModel | None, rank_line: str) -> None:
    """The daily board (ranked games only) inside the box ``box_id`` of a dialog (``model``
    None: it could not be read, only the rank line). Its title names the day and the bots'
    level; a published day's entries each open their game's record (``ranked-record``), and
    its deal is a link (``?deal=N``); before publication, only the day it will be."""
    box = _found(byid(box_id))
    if box is None:
        return
    clear(box)
    if rank_line:
        add(box, el("p", rank_line, "daily-rank", id="daily-rank"))
    if model is None:
        return
    add(box, el("p", model.title, "daily-board-title", id="daily-board-title",
                data_day=str(model.day)))
    if model.entries:
        listing = el("ol", cls="daily-board", id="daily-board", aria_labelledby="daily-board-title")
        for entry in model.entries:
            item = el("li")
            add(item, el("span", entry.line, "daily-entry"))
            if entry.record:
                add(item, _button(t("ranked.replay"), "ranked-record", cls="link daily-replay",
                                  data_arg=entry.record, aria_label=entry.label))
            add(listing, item)
        add(box, listing)
    else:
        add(box, el("p", model.empty, "rooms-note", id="daily-board-empty"))
    note = el("p", model.note, "rooms-note daily-board-note", id="daily-board-note")
    if model.deal is not None:
        note.append(" ")
        add(note, el("a", t("ranked.play-deal"), "daily-deal-link", href=f"?deal={model.deal}",
                     id="daily-deal-link"))
    add(box, note)


def board_error(box_id: str, text: str) -> None:
    """Under the board in ``box_id``: what went wrong (a game's record not read)."""
    box = _found(byid(box_id))
    if box is None:
        return
    old = _found(byid("daily-board-error"))
    if old is not None:
        old.remove()
    add(box, el("p", text, "rooms-error", id="daily-board-error", role="alert"))


def language() -> str:
    return i18n.language()
