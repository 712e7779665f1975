"""What a room sends (:class:`Broadcast`): the room as its players and spectators see it
(seats, host, rematch, the turn's clock) and each connection's ``state`` frame.

A seat's frame carries ``view_for(state, seat)`` (its cards hidden while it may still bid
Blind Nil unseen); a spectator's carries the table with no card that was not played. Typed
against :class:`~.roomtypes.RoomLike`, as the room's other parts are: it never imports
:mod:`.rooms`.
"""

from __future__ import annotations

import hashlib
import json
import time
from typing import Any

from spades_core.seats import SEATS, Seat
from spades_core.views import view_for

from .protocol import view_to_json, watcher_json
from .roomtypes import RoomLike


def _json(data: Any) -> str:
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)


class Broadcast:
    def __init__(self, room: RoomLike) -> None:
        self.room = room

    def info(self) -> dict[str, Any]:
        room = self.room
        connected = room.connected_seats()
        return {
            "code": room.code,
            "public": room.public,
            "status": room.status,
            "options": room.options,
            "seats": [
                {
                    "seat": seat.name,
                    "nickname": info.nickname,
                    "bot": not info.human or info.away,
                    "away": info.away,
                    "connected": int(seat) in connected,
                }
                for seat, info in zip(SEATS, room.seats, strict=True)
            ],
            "nudge": (
                {"by": room.nudge[0].name, "seat": room.nudge[1].name} if room.nudge else None
            ),
            "host": host.name if (host := room.host_seat()) is not None else None,
            "open": room.open,
            "rematch": ([seat.name for seat in SEATS if seat in room.rematch]
                        if room.status == "over" else None),
            "spectators": sum(1 for conn in room.connections if conn.seat is None),
            "timer": self.timer(),
            "clock": round(time.time(), 3),
        }

    def timer(self) -> dict[str, Any] | None:
        """The turn's clock while a person is to act (server epoch seconds; ``clock`` in the
        room says the server's time when it was sent): when the turn began, when the others
        may nudge, and once nudged when a bot takes the seat over."""
        room = self.room
        state = room.state
        if room.status != "playing" or state is None or state.to_act is None or room.ranked:
            return None  # (a ranked game: nobody to nudge its player)
        seat = state.to_act
        if room.bot_plays(seat):
            return None
        takeover = None
        if room.nudge is not None and room.nudged_at is not None:
            takeover = round(room.nudged_at + float(room.options["takeover_seconds"]), 3)
        return {
            "seat": seat.name,
            "since": round(room.last_move, 3),
            "nudge_at": round(room.last_move + room.manager.config.nudge_after, 3),
            "takeover_at": takeover,
        }

    def state_frame(self, seat: Seat | None, room_json: str | None = None) -> str:
        """The ``state`` frame for ``seat`` (``room_json``: ``info()`` as JSON, when the
        caller sends it to several seats)."""
        if room_json is None:
            room_json = _json(self.info())
        version, view = self._view(seat)
        return _frame(seat, version, room_json, view)

    def _view(self, seat: Seat | None) -> tuple[int, str]:
        """The room's version and ``seat``'s view as JSON (a spectator's: no card not played)."""
        room = self.room
        view: dict[str, Any] | None = None
        if room.state is not None and seat is not None:
            seen = room.hand_seen(seat)
            view = view_to_json(view_for(room.state, seat, hand_seen=seen), room.rules_json)
        elif room.state is not None:  # a spectator: the table, no card not played
            view = watcher_json(view_for(room.state, SEATS[2], hand_seen=False),
                                room.rules_json)
        return room.version(), _json(view)

    def state(self) -> None:
        """Each connection of the room (on this process) gets its ``state`` frame: each
        seat's frame (and the spectators' one) built once, however many sockets show it.

        A connection whose frame would be the one it was last sent (its seat's view and the
        room unchanged but for the server's clock: another seat looked at its cards, a
        connection came or went on a seat already shown connected) is sent nothing: each
        connection keeps the digest of its last state (``Connection.last_state``), none
        before its first, so a new connection (a join, a resume, a reconnect) always gets
        the whole state."""
        room = self.room
        info = self.info()
        clock = info.pop("clock")
        core = _json(info)  # the room without the server's clock: what a page shows
        room_json = f'{core[:-1]},"clock":{_json(clock)}}}'
        frames: dict[Seat | None, tuple[bytes, str]] = {}
        for conn in list(room.connections):
            if conn.closed:
                continue
            built = frames.get(conn.seat)
            if built is None:
                version, view = self._view(conn.seat)
                seen = hashlib.blake2b(
                    f"{_seat_json(conn.seat)}|{version}|{core}|{view}".encode(),
                    digest_size=16).digest()
                built = frames[conn.seat] = (seen, _frame(conn.seat, version, room_json, view))
            if conn.last_state == built[0]:
                continue  # nothing it shows changed
            conn.last_state = built[0]
            room.post(conn, built[1])

    def to_all(self, text: str) -> None:
        """Every connection of the room (on this process) gets ``text``."""
        for conn in list(self.room.connections):
            self.room.post(conn, text)


def _seat_json(seat: Seat | None) -> str:
    return f'"{seat.name}"' if seat is not None else "null"


def _frame(seat: Seat | None, version: int, room_json: str, view: str) -> str:
    return (f'{{"type":"state","version":{version},"seat":{_seat_json(seat)},'
            f'"room":{room_json},"view":{view}}}')
