"""Entering a room: ``create``, ``join``, ``resume``, ``quick``, ``watch``, and ``peek`` (who
sits where, before joining).

:class:`Entrance` is a part of the rooms' manager (:class:`~.rooms.RoomManager`), which owns
it: it finds or makes the room through the manager (``get``, ``create``), within the limits
of the connection's address (:mod:`.guard`), seats the connection inside the room's change
(``RoomManager.changing``; the process listening to the room's events from before it:
``RoomManager.listening``) and sends its ``joined``; the state that follows is the change's.
"""

from __future__ import annotations

from typing import Any, Generic, TypeVar

from spades_core.seats import Seat

from .connection import Connection, token_digest
from .guard import FAILURES
from .protocol import ProtocolError, frame
from .roomtypes import Manager, RoomLike

Room = TypeVar("Room", bound=RoomLike)  # the manager's room (``rooms.Room``)


class Entrance(Generic[Room]):
    def __init__(self, manager: Manager[Room]) -> None:
        self.manager = manager

    async def waiting_public_room(self) -> Room:
        """The public table now filling up (one for every process of a shared backend)."""
        manager = self.manager
        code = await manager.backend.get_value("quick")
        if code is not None:
            room = await manager.get(code)
            if room is not None and room.status == "waiting" and room.free_seat(None):
                return room
        room = await manager.create({}, public=True)
        await manager.backend.set_value("quick", room.code)
        return room

    async def enter(self, conn: Connection, kind: str, fields: dict[str, object]) -> None:
        """``_enter`` within the limits of the connection's address (guard.py): a join or
        resume after too many that found nothing, too many entries or rooms made in the
        window, are refused before any room is looked up."""
        guard, key = self.manager.guard, conn.address
        if kind in ("join", "resume", "watch"):
            guard.check(key, "fail")
        guard.check(key, "enter")
        if kind == "create":
            guard.check(key, "create")
        guard.count(key, "enter")
        try:
            await self._enter(conn, kind, fields)
        except ProtocolError as error:
            if error.reason in FAILURES:
                guard.count(key, "fail")
            raise
        if kind == "create":
            guard.count(key, "create")

    async def _enter(self, conn: Connection, kind: str, fields: dict[str, object]) -> None:
        manager = self.manager
        if kind == "resume":
            room = await manager.get(str(fields["code"]))
            if room is None:
                raise ProtocolError("bad-token")
        elif kind == "create":
            options = fields.get("options", {})
            assert isinstance(options, dict)
            room = await manager.create(options, public=False)
        elif kind == "quick":
            async with manager.backend.lock("quick"):
                room = await self.waiting_public_room()
                async with manager.listening(room), manager.changing(room):
                    await self._seat_player(conn, room, fields)
            return await self._entered(room)
        else:
            found = await manager.get(str(fields["code"]))
            if found is None or found.public or found.ranked:  # a ranked game is its player's
                raise ProtocolError("no-such-room")
            room = found
        if kind == "watch":
            watching = sum(1 for other in room.connections if other.seat is None)
            if watching >= manager.config.max_spectators:
                raise ProtocolError("too-many-spectators",
                                    {"limit": str(manager.config.max_spectators)})
            # (a busy refusal of either: nothing done yet)
            async with manager.listening(room), manager.changing(room):
                conn.room, conn.seat, conn.digest = room, None, None
                conn.last_state = None  # its first state is sent whole
                room.post(conn, frame("joined", code=room.code, seat=None, public=False,
                                      watching=True))
                room.connections.add(conn)
                room.touched = True  # every page sees one more spectator
            return
        async with manager.listening(room), manager.changing(room):
            if kind == "resume":
                seat = room.seat_of_token(str(fields["token"]))
                if seat is None:
                    raise ProtocolError("bad-token")
                digest = token_digest(str(fields["token"]))
                # any other connection on this token, on any process, is told it was
                # replaced and closed (one live connection per seat)
                connected = await self.arrive(room, seat, {"kind": "replace", "digest": digest,
                                                           "keep": conn.ident})
                room.back(seat)
                self.seat(conn, room, seat, None, digest, connected)
            else:
                await self._seat_player(conn, room, fields)
                if kind == "create":
                    room.host = conn.digest
        await self._entered(room)

    async def _seat_player(self, conn: Connection, room: Room, fields: dict[str, object]) -> None:
        if room.status == "over":
            raise ProtocolError("game-over")
        if room.status == "playing" and not room.public and not room.open:
            raise ProtocolError("seats-closed")  # a bot's seat, until the host opens them
        wanted = fields.get("seat")
        assert wanted is None or isinstance(wanted, Seat)
        seat = room.free_seat(wanted)
        if seat is None:
            raise ProtocolError("seat-taken" if wanted is not None else "room-full")
        connected = await self.arrive(room, seat, None)  # first: a busy refusal here leaves
        # the room as it was
        token = room.take_seat(seat, str(fields["nickname"]))
        if not room.public and room.host_seat() is None:
            room.host = token_digest(token)  # the creator, or the first person back in an
            # empty room
        if room.status == "waiting" and all(info.human for info in room.seats):
            room.start()
        self.seat(conn, room, seat, token, token_digest(token), connected)

    async def arrive(self, room: Room, seat: Seat,
                     event: dict[str, Any] | None) -> set[int] | None:
        """Inside the change, before anything of the room is changed: a connection is
        counted on ``seat`` (with a shared backend, on every process; ``event``, a resume's
        ``replace``, published in the same step) and the seats connected read back. The one
        step of an entry that may be refused ``busy`` (no connection to Redis in time): made
        first, so that the refusal leaves the room as it was."""
        return await self.manager.backend.arrive(room.code, int(seat), event)

    def seat(self, conn: Connection, room: Room, seat: Seat, token: str | None, digest: str,
             connected: set[int] | None) -> None:
        """Seat ``conn`` (inside the change, once ``arrive`` counted it): its ``joined``
        first, then, as one of the room's connections, the state that the change
        publishes. Nothing here waits, nor can be refused."""
        joined: dict[str, Any] = {"code": room.code, "seat": seat.name, "public": room.public}
        if token is not None:
            joined["token"] = token
        conn.room, conn.seat, conn.digest = room, seat, digest
        conn.last_state = None  # its first state is sent whole, whatever it saw before
        room.post(conn, frame("joined", **joined))
        room.connections.add(conn)
        if self.manager.backend.shared:
            room.remote_connected = connected
        room.touched = True

    async def peek(self, conn: Connection, code: str) -> None:
        """Who sits where before joining (the join dialog): a ``room`` frame, or a refusal
        counted as a failed join (a look is no way to guess codes)."""
        guard, key = self.manager.guard, conn.address
        guard.check(key, "fail")
        guard.check(key, "enter")
        guard.count(key, "enter")
        room = await self.manager.get(code)
        if room is None or room.public or room.ranked:
            guard.count(key, "fail")
            raise ProtocolError("no-such-room")
        info = room.info()
        conn.post(frame("room", code=room.code, status=room.status, open=room.open,
                        host=info["host"], seats=[
                            {"seat": seat["seat"], "nickname": seat["nickname"],
                             "free": seat["nickname"] is None, "connected": seat["connected"]}
                            for seat in info["seats"]]))

    async def _entered(self, room: Room) -> None:
        if room.status == "waiting" and room.public:
            room.schedule_start(self.manager.config.quick_wait)
        room.kick()
