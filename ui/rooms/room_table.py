"""The rooms' table: the room's game drawn from the server's view with the solo table's
renderers, the player's actions sent (a card, a bid, Blind Nil, looking, the hint), the room
bar (chat, mute, nudge, "I'm back", leave), the score sheet and the end of the game.

``RoomTable`` is a part of the rooms' controller (``ui/rooms/rooms.py``, ``Rooms``), an
object it owns: it keeps what is the table's own (the chat lines, the hinted card, the score
sheets seen, Blind Nil armed, the nudge's and the turn timer's clocks) and reaches the room's
state and the socket through the ``Rooms`` it is given. The server is the authority: nothing
here applies an action.
"""

from __future__ import annotations

import asyncio
from typing import Any

import js  # type: ignore[import-not-found]
from pyodide.ffi import create_proxy  # type: ignore[import-not-found]

from spades_core import BLIND_NIL, Phase
from spades_core.rules import game_winner, winning_play
from spades_core.views import View

from ..shared import i18n, models, sound
from ..shared.i18n import t
from ..table import dialogs, render
from . import rooms_client as rc
from . import rooms_screen

NUDGE_AFTER_MS = 20_000
CHAT_SHOWN_S = 10  # a chat line floats over the table this long after the last one


class RoomTable:
    def __init__(self, rooms: Any) -> None:
        self.rooms = rooms  # the room connection (ui.rooms.rooms.Rooms)
        self.app = rooms.app
        self.hinted: str | None = None  # the card the coach's hint points at
        self.lines: list[str] = []
        self.chat_said = 0  # lines received so far: the chat fades CHAT_SHOWN_S after the last
        self.chat_stale = False
        self.sheets_seen = 0
        self.blind_armed = False
        self.moved_at = 0.0  # when the seat to act got its turn (performance.now)
        self.turn_key: tuple[int, str | None] = (-1, None)
        self.phrases = self._phrases()
        self._proxies: list[Any] = []
        self._timer: Any = None  # the nudge's timer (setTimeout)
        self._tick: Any = None  # the turn timer's one-second redraw (setInterval)

    @staticmethod
    def _phrases() -> tuple[str, ...]:
        i18n.load("chat")
        return tuple(i18n.catalogue(i18n.DEFAULT_LANGUAGE, "chat"))

    # --- what the server sends: the table's part --------------------------------------

    def moved_on(self, previous: View | None, view: View | None) -> None:
        """A state came (``view`` the room's view now, ``previous`` the one before): Blind
        Nil disarmed at a new hand, the turn's clock restarted, the sheets counted again at a
        rematch, the hint forgotten once the position moved on."""
        if view is not None and previous is not None and view.hand_index != previous.hand_index:
            self.blind_armed = False
        turn_key = None if view is None else (
            view.hand_index, view.to_act.name if view.to_act is not None else None)
        if turn_key is not None and turn_key != self.turn_key:
            self.turn_key = turn_key
            self.moved_at = float(js.performance.now())
            self.arm_nudge_timer()
        if (previous is not None and view is not None and previous.phase is Phase.OVER
                and view.phase is not Phase.OVER):  # a rematch: a new game at the same table
            self.sheets_seen = 0
            if self.app.dialog_kind == "room-end":
                dialogs.close_dialog()
                self.app.dialog_kind = ""
        if view is None or previous is None or (view.hand_index, len(view.plays), view.bids) \
                != (previous.hand_index, len(previous.plays), previous.bids):
            self.hinted = None  # the position moved on: the hinted card is no longer advice

    def show(self, view: View, previous: View | None, room: rc.RoomInfo,
             rematch_before: Any) -> None:
        """The game under way (``room`` and ``view`` just came): the table shown and drawn,
        the sound of a trick taken, the score sheet of a hand just over, the end of the game."""
        rooms = self.rooms
        if self.app.dialog_kind in ("rooms", "lobby"):
            dialogs.close_dialog()
            self.app.dialog_kind = ""
        if not rooms.active:
            rooms.active = True
            self.sheets_seen = len(view.past_hands)
            self.app.show_screen("table")
        if previous is not None and view.phase is Phase.PLAYING and len(view.trick) == 0 \
                and view.plays and len(previous.trick) == 3 and self.app.options["sound"]:
            sound.play("trick")
        self.render()
        if view.my_turn:
            render.focus_hand_or_panel()
        if len(view.past_hands) > self.sheets_seen and self.app.dialog_kind == "":
            dialogs.score_sheet(self.sheet(view, pending=True))
            self.app.dialog_kind = "room-sheet"
        elif view.phase is Phase.OVER and (self.app.dialog_kind != "room-end"
                                           or room.rematch != rematch_before):
            self.end()

    def stop(self) -> None:
        """The table left: the nudge's timer and the turn timer's redraw stopped."""
        if self._timer is not None:
            js.clearTimeout(self._timer)
            self._timer = None
        self.arm_tick(False)

    def do_room_leave(self, arg: str) -> None:
        self.rooms.leave()
        dialogs.close_dialog()
        self.app.show_screen("menu")

    def do_room_rematch(self, arg: str) -> None:
        self.rooms.send({"type": "rematch"})

    def do_room_quit(self, arg: str) -> None:
        """Give up the seat (a bot takes it at once), or stop watching."""
        self.rooms.send({"type": "leave"})

    def do_room_free(self, arg: str) -> None:
        if arg in rc.SEAT_NAMES:
            self.rooms.send({"type": "free", "seat": arg})
            dialogs.close_dialog()
            self.app.dialog_kind = ""

    def do_room_open(self, arg: str) -> None:
        self.rooms.send({"type": "open", "open": arg == "1"})
        dialogs.close_dialog()
        self.app.dialog_kind = ""

    def do_room_seats(self, arg: str) -> None:
        room = self.rooms.room
        if room is None:
            return
        rooms_screen.seats_dialog(rc.host_rows(room, self.rooms.seat),
                                  rc.reader_is_host(room, self.rooms.seat), room.open,
                                  self.rooms.watching, room.spectators)
        self.app.dialog_kind = "room-seats"

    def on_left(self, data: dict[str, Any]) -> None:
        """This page's seat was given up (or freed by the host), or it stopped watching:
        the seat's token is forgotten and the page goes back to the menu."""
        if self.rooms.code is not None:
            self.rooms.data["seats"].pop(self.rooms.code, None)
            self.rooms.save()
        by_host = data.get("by") == "host"
        self.rooms.token = self.rooms.seat = None
        self.rooms.watching = False
        self.rooms.leave()
        dialogs.close_dialog()
        self.app.dialog_kind = ""
        self.app.show_screen("menu")
        if by_host:
            render.notice(t("rooms.freed"), "rooms-freed")

    def do_room_chat(self, arg: str) -> None:
        rooms_screen.chat_dialog(self.phrases, tuple(self.lines))
        self.app.dialog_kind = "rooms"

    def do_chat(self, arg: str) -> None:
        if arg in self.phrases:
            self.rooms.send({"type": "chat", "phrase": arg})
        dialogs.close_dialog()

    def do_room_mute(self, arg: str) -> None:
        self.rooms.data["muted"] = not self.rooms.data["muted"]
        self.rooms.save()
        self.draw_bar()

    def do_room_back(self, arg: str) -> None:
        """Back at the table after a bot took the seat over: any action of the seat's
        brings it back; ``look`` changes nothing else."""
        self.rooms.send({"type": "look"})

    def do_nudge(self, arg: str) -> None:
        self.rooms.send({"type": "nudge"})

    def say(self, line: str) -> None:
        """A line for the table's chat log (a phrase, or who joined), faded in a while."""
        self.lines = [*self.lines[-9:], line]
        self.chat_said += 1
        self.chat_stale = False
        render.announce(line)
        self.draw_bar()
        said = self.chat_said

        async def fade() -> None:
            await asyncio.sleep(CHAT_SHOWN_S)
            if self.chat_said == said:  # no line since: the chat fades from the table
                self.chat_stale = True
                self.draw_bar()

        self.app.schedule(fade())

    def away(self) -> bool:
        """A bot plays the reader's seat (taken over after a nudge)."""
        return rc.is_away(self.rooms.room, self.rooms.seat)

    def refuse_away(self) -> bool:
        """While a bot plays the seat, a card or a bid is not sent: "I'm back" first."""
        if not self.away():
            return False
        render.announce(render.message(lambda: t("rooms.away.turn"), refusal=True))
        return True

    def ui_state(self, view: View) -> models.UiState:
        return models.UiState(
            waiting=(view.my_turn and self.rooms.sent_version != self.rooms.version
                     and not self.away()),
            face_down=view.hand is None, blind_armed=self.blind_armed,
            sheets_seen=self.sheets_seen, speed="instant", hinted=self.hinted,
            hints_on=bool(self.rooms.room is not None and self.rooms.room.hints
                          and bool(self.app.options["hints"])),
        )

    def render(self) -> None:
        view, room = self.rooms.view, self.rooms.room
        if view is None or room is None or not self.rooms.active:
            return
        render.table(rc.room_table_model(view, room, self.ui_state(view), self.rooms.watching))
        rooms_screen.team_names(t("rooms.team.NS"), t("rooms.team.EW"))
        self.draw_bar()

    def nudge_open(self) -> bool:
        view = self.rooms.view
        return bool(view is not None and self.rooms.room is not None and view.to_act is not None
                    and not self.rooms.reconnecting
                    and view.phase is not Phase.OVER and not view.my_turn
                    and self.rooms.room.nudge_seat is None
                    and not next(s for s in self.rooms.room.seats if s.seat == view.to_act.name).bot
                    and float(js.performance.now()) - self.moved_at >= NUDGE_AFTER_MS)

    def arm_nudge_timer(self) -> None:
        if self._timer is not None:
            js.clearTimeout(self._timer)
        proxy = create_proxy(lambda: self.draw_bar())
        self._proxies = self._proxies[-64:] + [proxy]
        self._timer = js.setTimeout(proxy, NUDGE_AFTER_MS + 100)

    def draw_bar(self) -> None:
        if not self.rooms.active or self.rooms.code is None:
            return
        room = self.rooms.room
        nudged = bool(room is not None and self.rooms.seat is not None
                      and room.nudge_seat == self.rooms.seat)  # never a spectator's
        away = self.away()
        timer = ""
        if room is not None:
            elapsed = (float(js.performance.now()) - self.rooms.state_at) / 1000
            timer = rc.timer_text(room, room.timer, elapsed, self.rooms.seat)
        self.arm_tick(bool(timer))
        rooms_screen.room_bar(self.rooms.code, self.rooms.data["muted"], self.nudge_open(), nudged,
                              self.rooms.reconnecting, tuple(self.lines), away, self.chat_stale,
                              timer, self.rooms.watching,
                              ranked=room is not None and room.ranked is not None)

    def arm_tick(self, on: bool) -> None:
        """Redraw the room bar every second while a turn timer is shown."""
        if on and self._tick is None:
            proxy = create_proxy(lambda: self.draw_bar())
            self._proxies = self._proxies[-64:] + [proxy]
            self._tick = js.setInterval(proxy, 1000)
        elif not on and self._tick is not None:
            js.clearInterval(self._tick)
            self._tick = None

    def end(self) -> None:
        view, room = self.rooms.view, self.rooms.room
        if view is None or self.rooms.code is None or room is None:
            return
        if room.ranked is not None and self.rooms.token is not None:
            won = game_winner(view.scores, view.rules) == 0  # the player is South
            rooms_screen.room_end(view.scores, won, "", ranked=True)
            self.rooms.daily.show_end(room.ranked)  # its rank and the board
        elif self.rooms.watching or self.rooms.token is None:
            rooms_screen.room_end(view.scores, None, "")
        else:
            mine = 0 if self.rooms.seat in ("N", "S") else 1
            won = game_winner(view.scores, view.rules) == mine
            url = f"/api/rooms/{self.rooms.code}/record?token={self.rooms.token}"
            rooms_screen.room_end(view.scores, won, url, rc.rematch_text(room, self.rooms.seat),
                                  asked=bool(room.rematch and self.rooms.seat in room.rematch))
        self.app.dialog_kind = "room-end"

    def dialog_closed(self, kind: str) -> None:
        if kind == "room-sheet" and self.rooms.view is not None:
            self.sheets_seen = len(self.rooms.view.past_hands)
            self.render()
            if self.rooms.view.phase is Phase.OVER:
                self.end()

    def do_play(self, arg: str) -> None:
        view, room = self.rooms.view, self.rooms.room
        if view is None or room is None or self.refuse_away():
            return
        if not view.my_turn:
            text = rc.wait_text(room, view)
            render.message(text, refusal=bool(text))
            return
        if self.rooms.sent_version == self.rooms.version:
            return  # one action per version: the answer is on its way
        self.rooms.sent_version = self.rooms.version
        render.message("")
        self.rooms.send({"type": "play", "card": arg})
        self.render()

    def do_bid(self, arg: str) -> None:
        view = self.rooms.view
        if view is None or self.refuse_away() or not view.my_turn \
                or view.phase is not Phase.BIDDING:
            return
        if self.rooms.sent_version == self.rooms.version:
            return
        self.rooms.sent_version = self.rooms.version
        render.message("")
        self.rooms.send({"type": "bid", "bid": arg})
        self.render()

    def do_look(self, arg: str) -> None:
        self.blind_armed = False
        self.rooms.send({"type": "look"})

    def do_blind(self, arg: str) -> None:
        if self.refuse_away():
            return
        self.blind_armed = True
        self.render()

    def do_blind_yes(self, arg: str) -> None:
        self.blind_armed = False
        self.do_bid(str(BLIND_NIL))

    def do_blind_no(self, arg: str) -> None:
        self.blind_armed = False
        self.render()

    def do_hint(self, arg: str) -> None:
        """The coach's advice for the reader's view, when the room allows hints: the same
        ``hint(view)`` as in solo play, from the view the server sent (no hidden card)."""
        view, room = self.rooms.view, self.rooms.room
        if view is None or room is None or not room.hints or not view.my_turn \
                or self.rooms.sent_version == self.rooms.version:
            render.message(lambda: t("hint.none"), kind="hint")
            return
        from spades_core.hints import hint

        advice = hint(view)
        if view is not self.rooms.view:
            return
        self.hinted = "look" if advice.action is None else str(advice.action)
        self.render()
        mine = view.seat.name

        def say() -> str:  # said again in the new language if it changes meanwhile
            return i18n.hint_message(advice, lambda seat: rc.seat_words(room, seat, mine))

        render.announce(render.message(say, kind="hint"))

    def do_last(self, arg: str) -> None:
        """As in solo play: this hand's last trick, or the previous hand's until the first
        trick of this one is complete; the seats named as at the table."""
        view, room = self.rooms.view, self.rooms.room
        if view is None or room is None:
            return
        trick, previous = models.shown_last_trick(view)
        winner = winning_play(trick)[0] if trick else None
        names = {seat: rc.seat_words(room, seat, view.seat.name) for seat in rc.SEAT_NAMES}
        dialogs.last_trick_dialog(models.last_trick_model(trick, winner, previous, names))
        self.app.dialog_kind = "last"

    def sheet(self, view: View, pending: bool) -> models.SheetModel:
        """The score sheet with the seats named as at the table and the teams by place."""
        room = self.rooms.room
        names = ({seat: rc.seat_words(room, seat, view.seat.name) for seat in rc.SEAT_NAMES}
                 if room is not None else None)
        return models.sheet_model(view, pending, names=names,
                                  teams=(t("rooms.team.NS"), t("rooms.team.EW")))

    def do_sheet(self, arg: str) -> None:
        if self.rooms.view is not None:
            dialogs.score_sheet(self.sheet(self.rooms.view, pending=False))
            self.app.dialog_kind = "sheet"

    def do_sheet_next(self, arg: str) -> None:
        dialogs.close_dialog()
