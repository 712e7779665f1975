"""Rooms: seats, tokens, the game record, bots for empty or abandoned seats, chat, nudges.

Every change of a room is made inside ``RoomManager.changing(room)``: under the room's lock
(an asyncio lock, or a Redis lock shared by every server process), on its latest revision
(reloaded first from a shared backend), then saved and published, and every process sends
the new state to its own connections (:mod:`.backend`; another process makes the change
again from its event, :mod:`.changes`). What runs by itself (bots, timers)
is the room's :class:`~.flow.RoomFlow`; what it sends (its info, each connection's
``state`` frame) its :class:`~.broadcast.Broadcast`; each connection's outbox is a
:class:`~.connection.Connection`; entering a room (create, join, resume, quick, watch, peek)
is the manager's :class:`~.entry.Entrance`; the limits per client address are :mod:`.guard`'s
and the sweep of old rooms :mod:`.sweep`'s. Those parts are typed against :mod:`.roomtypes`
(what they use of a room and of the manager), never against this module: none imports it
back. ``spades_core`` decides every rule: an action is
applied with ``GameState.apply`` and a refusal is the engine's own key.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import secrets
import time
from collections import deque
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from spades_core import record
from spades_core.bids import Bid, parse_bid
from spades_core.bots import Bot, make_bot
from spades_core.cards import Card, parse_card
from spades_core.deal import MAX_DEAL, deal_hand
from spades_core.errors import ParseError, RecordError, RulesError
from spades_core.game import GameState, Phase
from spades_core.rules import Rules
from spades_core.seats import SEATS, Seat

from . import changes
from .backend import Backend, LocalBackend, RedisBackend
from .broadcast import Broadcast
from .changes import Step
from .config import Config
from .connection import Connection, token_digest
from .entry import Entrance
from .flow import RoomFlow
from .guard import AddressGuard
from .protocol import (
    CLOSE_REPLACED,
    CODE_ALPHABET,
    CODE_LENGTH,
    DEFAULT_TAKEOVER,
    Message,
    ProtocolError,
    frame,
)
from .ranked import RANKED_ACTIONS, RankedBoard, RankedDesk
from .store import Store, StoredRoom
from .sweep import Sweeper

LOCALES = Path(__file__).resolve().parent.parent / "locales"


def _chat_phrases() -> frozenset[str]:
    data = json.loads((LOCALES / "en" / "chat.json").read_text(encoding="utf-8"))
    return frozenset(data)


CHAT_PHRASES = _chat_phrases()
DEFAULT_OPTIONS: dict[str, Any] = {
    "target": 500,
    "floor": -200,
    "blind_nil": True,
    "bot_level": "normal",
    "hints": False,
    "takeover_seconds": DEFAULT_TAKEOVER,
}

@dataclass(slots=True)
class SeatInfo:
    """A seat: empty (a bot plays it) or a player's, known by the digest of its token."""

    nickname: str | None = None
    token_digest: str | None = None
    away: bool = False  # taken over by a bot after a nudge, until its player is back
    looked: int = -1  # the hand index whose cards the player has looked at (Blind Nil)
    chats: deque[float] = field(default_factory=deque)

    @property
    def human(self) -> bool:
        return self.nickname is not None

    def to_dict(self) -> dict[str, Any]:
        return {
            "nickname": self.nickname,
            "token": self.token_digest,
            "away": self.away,
            "looked": self.looked,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> SeatInfo:
        return cls(data["nickname"], data["token"], bool(data["away"]), int(data["looked"]))


def random_deal(rules: Rules, hand_index: int,
                seed: int | None = None) -> tuple[int, int, int, int]:
    """The cards of a hand from a fresh secret deal number: the number is never kept nor sent,
    so nobody can work out the hands still to come (the record keeps each hand's cards).

    ``seed`` (tests only: ``Config.deal_seed``): hand ``hand_index`` of that deal number
    instead, the same on every run."""
    number = secrets.randbelow(MAX_DEAL + 1) if seed is None else seed
    return deal_hand(number, hand_index, rules.deck_mask)


class Room:
    def __init__(
        self,
        manager: RoomManager,
        code: str,
        options: dict[str, Any],
        public: bool,
        seats: list[SeatInfo] | None = None,
        state: GameState | None = None,
        status: str = "waiting",
    ) -> None:
        self.manager = manager
        self.code = code
        self.public = public
        self.connections: set[Connection] = set()
        self.bots: dict[Seat, Bot] = {}
        self.moves = 0  # actions applied since this instance was loaded
        self.rev = 0  # the stored revision this instance holds
        self.dirty = False  # changed since the last save
        self.touched = False  # something to broadcast (connections), though nothing to save
        self.remote_connected: set[int] | None = None  # seats connected on any process
        self.flow = RoomFlow(self)
        self.broadcast = Broadcast(self)  # what the room sends: its info, the state frames
        self.options = options
        self.rules = Rules(
            target=options["target"], floor=options["floor"], blind_nil=options["blind_nil"]
        )
        self.rules_json = self.rules.to_dict()
        self.seats = seats or [SeatInfo() for _ in SEATS]
        self.state = state
        self.status = status
        self.last_move = time.time()
        self.nudge: tuple[Seat, Seat] | None = None  # (by, target)
        self.host: str | None = None  # the token digest of the private room's host
        self.open = False  # whether a person may take a bot's seat once the game is on
        self.rematch: set[Seat] = set()  # the seats whose players asked for a new game
        self.base = 0  # the versions of the games played before this one (rematches)
        self.nudged_at: float | None = None  # when the nudge now on was sent
        # the actions applied in the change now on, (state before, seat, action, cards
        # dealt after it, state after): what the change's event carries to the other
        # processes
        self.steps: list[Step] = []
        # a seat freed in the change now on: its connections on other processes are being
        # let go, so its event does not say which seats are connected (each process reads
        # the counts once its own are taken away)
        self.recount = False

    # --- persistence -----------------------------------------------------------

    def stored(self) -> StoredRoom:
        meta = {
            "options": self.options,
            "seats": [seat.to_dict() for seat in self.seats],
            "last_move": self.last_move,
            "nudge": [self.nudge[0].name, self.nudge[1].name] if self.nudge else None,
            "host": self.host,
            "open": self.open,
            "rematch": [seat.name for seat in SEATS if seat in self.rematch],
            "base": self.base,
            "nudged_at": self.nudged_at,
        }
        text = record.dumps(self.state) if self.state is not None else None
        return StoredRoom(self.code, meta, text, self.status, self.public, self.rev)

    def load(self, stored: StoredRoom) -> None:
        """Take the stored room's settings, seats and game (a newer revision)."""
        state = record.loads(stored.record) if stored.record is not None else None
        self.take(stored.meta, state, stored.status, stored.public, stored.rev)

    def take(self, meta: dict[str, Any], state: GameState | None, status: str, public: bool,
             rev: int) -> None:
        """Take a revision's settings, seats and game (``load``, or a change's event)."""
        chats = [seat.chats for seat in self.seats]
        self.seats = [SeatInfo.from_dict(data) for data in meta["seats"]]
        for info, kept in zip(self.seats, chats, strict=False):
            info.chats = kept
        self.options = meta["options"]
        self.state = state
        self.status = status
        self.public = public
        self.rev = rev
        self.last_move = float(meta.get("last_move") or time.time())
        nudge = meta.get("nudge")
        self.nudge = None
        if nudge:
            self.nudge = (SEATS["NESW".index(nudge[0])], SEATS["NESW".index(nudge[1])])
        host = meta.get("host")
        self.host = host if isinstance(host, str) else None
        self.open = bool(meta.get("open", False))
        self.rematch = {SEATS["NESW".index(name)] for name in meta.get("rematch", ())}
        self.base = int(meta.get("base", 0))
        nudged_at = meta.get("nudged_at")
        self.nudged_at = float(nudged_at) if nudged_at is not None else None
        for seat in SEATS:
            if not self.bot_plays(seat):
                self.bots.pop(seat, None)
        self.reseat_connections()

    def save(self) -> None:
        """Mark the room changed: ``RoomManager.changing`` saves and publishes it."""
        self.dirty = True

    # --- what is sent ----------------------------------------------------------

    def hand_seen(self, seat: Seat) -> bool:
        """False while a seat may still bid Blind Nil and has not looked at its cards."""
        state = self.state
        if state is None or not self.rules.blind_nil or state.phase is not Phase.BIDDING:
            return True
        return state.bid_of(seat) is not None or self.seats[seat].looked == state.hand_index

    def connected_seats(self) -> set[int]:
        if self.remote_connected is not None:
            return self.remote_connected
        return {int(conn.seat) for conn in self.connections if conn.seat is not None}

    def version(self) -> int:
        """How many actions the game has had: a client acts at most once per version."""
        state = self.state
        if state is None:
            return self.base
        past = self.base + sum(
            len(hand.bid_history) + len(hand.play_ids) for hand in state.past_hands)
        return past + len(state.bid_history) + len(state.play_ids)

    def info(self) -> dict[str, Any]:
        """The room as its players and spectators see it (:meth:`.Broadcast.info`)."""
        return self.broadcast.info()

    def post(self, conn: Connection, text: str) -> None:
        """Queue ``text`` for one connection; never waits (:meth:`Connection.post`)."""
        self.manager.observe(self, conn.seat, text)
        conn.post(text)

    # --- seats -----------------------------------------------------------------

    def free_seat(self, wanted: Seat | None) -> Seat | None:
        if wanted is not None:
            return wanted if not self.seats[wanted].human else None
        return next((seat for seat in SEATS if not self.seats[seat].human), None)

    def take_seat(self, seat: Seat, nickname: str) -> str:
        token = secrets.token_urlsafe(24)
        chats = self.seats[seat].chats
        self.seats[seat] = SeatInfo(nickname, token_digest(token), chats=chats)
        self.bots.pop(seat, None)
        self.save()
        return token

    def seat_of_token(self, token: str) -> Seat | None:
        return self.seat_of_digest(token_digest(token))

    def seat_of_digest(self, digest: str | None) -> Seat | None:
        if digest is None:
            return None
        for seat, info in zip(SEATS, self.seats, strict=True):
            if info.token_digest is not None and hmac.compare_digest(info.token_digest, digest):
                return seat
        return None

    def host_seat(self) -> Seat | None:
        """Where the host sits now (None in a public room)."""
        return self.seat_of_digest(self.host)

    def is_host(self, seat: Seat) -> bool:
        """Whether ``seat``'s player is the host. A private room saved before hosts were
        recorded (revision 1) has none: each of its players may act as one."""
        if self.public:
            return False
        if self.host is None:
            return self.seats[seat].human
        return self.host_seat() == seat

    def reseat_connections(self) -> None:
        """After the seats moved (here or, with a shared backend, on another process):
        each connection sits where its token now is."""
        for conn in self.connections:
            seat = self.seat_of_digest(conn.digest)
            if seat is not None:
                conn.seat = seat

    def move(self, by: Seat, source: Seat, target: Seat) -> None:
        """The host puts the player of ``source`` at ``target``; whoever sat there (a
        player, or nobody: a bot) takes ``source``. Only before the game starts."""
        if self.status != "waiting":
            raise ProtocolError("already-started")
        if not self.is_host(by):
            raise ProtocolError("not-host")
        if source == target:
            raise ProtocolError("same-seat")
        if not self.seats[source].human and not self.seats[target].human:
            raise ProtocolError("no-player")
        self.seats[source], self.seats[target] = self.seats[target], self.seats[source]
        self.bots.pop(source, None)
        self.bots.pop(target, None)
        self.reseat_connections()
        self.save()

    def free(self, seat: Seat) -> str | None:
        """``seat``'s player goes (left, declined a new game, or freed by the host): the
        seat is free at once, a bot plays it; a host who goes hands the role to the next
        person seated (clockwise). The digest of the token it had."""
        info = self.seats[seat]
        digest = info.token_digest
        self.seats[seat] = SeatInfo(chats=info.chats)
        self.bots.pop(seat, None)
        self.rematch.discard(seat)
        if self.nudge is not None and self.nudge[1] == seat:
            self.nudge = self.nudged_at = None
            self.flow.cancel_takeover()
        if digest is not None and self.host == digest:
            following = (SEATS[(int(seat) + step) % 4] for step in (1, 2, 3))
            heir = next((other for other in following if self.seats[other].human), None)
            self.host = self.seats[heir].token_digest if heir is not None else None
        self.save()
        if self.status == "over":
            self.maybe_rematch()
        return digest

    def ask_rematch(self, seat: Seat) -> None:
        """``seat``'s player wants a new game (same seats and rules, a new deal): it starts
        once every person seated has asked (a player who declines leaves, ``free``)."""
        if self.status != "over":
            raise ProtocolError("not-over")
        self.rematch.add(seat)
        self.save()
        self.maybe_rematch()

    def maybe_rematch(self) -> None:
        people = [seat for seat in SEATS if self.seats[seat].human]
        if not people or not all(seat in self.rematch for seat in people):
            return
        self.base = self.version() + 1
        self.state = GameState.new(self.rules, cards=self.deal(0))
        for info in self.seats:
            info.looked = -1  # the new first hand is unseen (Blind Nil)
            info.away = False
        self.rematch = set()
        self.status = "playing"
        self._moved()
        self.save()

    def bot_plays(self, seat: Seat) -> bool:
        info = self.seats[seat]
        return not info.human or info.away

    def bot_for(self, seat: Seat) -> Bot:
        bot = self.bots.get(seat)
        if bot is None:
            bot = self.bots[seat] = make_bot(self.options["bot_level"])
        return bot

    # --- the game (called inside RoomManager.changing) ---------------------------

    def start(self) -> None:
        if self.status != "waiting":
            return
        self.flow.cancel_start()
        self.state = GameState.new(self.rules, cards=self.deal(0))
        self.status = "playing"
        self._moved()
        self.save()

    def deal(self, hand_index: int) -> tuple[int, int, int, int]:
        """The cards of this game's hand ``hand_index``: secret (:func:`random_deal`), or
        with a test's ``Config.deal_seed`` those of deal number seed + ``base`` (a rematch
        is a new deal, the same on every run)."""
        seed = self.manager.config.deal_seed
        if seed is not None:
            seed = (seed + self.base) % (MAX_DEAL + 1)
        return random_deal(self.rules, hand_index, seed)

    def _moved(self) -> None:
        self.last_move = time.time()
        self.moves += 1
        self.nudge = self.nudged_at = None
        self.flow.cancel_takeover()

    def apply(self, seat: Seat, action: Card | Bid) -> None:
        """Apply ``seat``'s action (raise IllegalAction, the room unchanged), deal the next
        hand when one ends, mark the room changed."""
        assert self.state is not None
        before = self.state
        state = before.apply(action, seat)
        cards = None
        if state.phase is Phase.DEALING:
            cards = self.deal(state.hand_index)
            state = state.deal_cards(cards)
        self.steps.append((before, seat, action, cards, state))
        self.state = state
        if state.phase is Phase.OVER:
            self.status = "over"
            if self.ranked:
                self.manager.ranked.finished(self)  # on the day's board (ranked.py)
        self._moved()
        self.save()

    @property
    def ranked(self) -> bool:
        """Today's ranked deal (spades_server/ranked.py): one player, three bots."""
        return isinstance(self.options.get("ranked"), dict)

    def bot_delay(self) -> float:
        """Seconds a bot waits before it acts (a ranked game's own, when configured)."""
        config = self.manager.config
        if self.ranked and config.ranked_bot_delay is not None:
            return config.ranked_bot_delay
        return config.bot_delay

    # --- what runs by itself: the bots, the timers (spades_server/flow.py) ----------

    def kick(self) -> None:
        self.flow.kick()

    def watch(self) -> None:
        self.flow.watch()

    def schedule_start(self, delay: float) -> None:
        self.flow.schedule_start(delay)

    def asleep(self) -> bool:
        """Nobody is connected (on any process): the room sleeps, its bots do not play. It
        wakes when a person comes back (``Entrance._entered`` kicks the bots)."""
        return not self.connected_seats()

    def driving(self) -> bool:
        return self.flow.driving()

    def stop_timers(self) -> None:
        self.flow.stop()

    def nudge_seat(self, by: Seat) -> None:
        state = self.state
        if state is None or state.to_act is None or self.status != "playing":
            raise ProtocolError("not-playing")
        target = state.to_act
        if target == by or self.bot_plays(target):
            raise ProtocolError("cannot-nudge")
        if self.nudge is not None:
            raise ProtocolError("already-nudged")
        waited = time.time() - self.last_move
        wait = self.manager.config.nudge_after
        if waited < wait:
            raise ProtocolError("too-early", {"seconds": str(max(1, round(wait - waited)))})
        self.nudge = (by, target)
        self.nudged_at = time.time()
        self.save()
        self.flow.arm_takeover(target, self.version(), self.options["takeover_seconds"])

    def back(self, seat: Seat) -> bool:
        """The seat's player is back (reconnected or acting): its bot stops."""
        info = self.seats[seat]
        if info.away:
            info.away = False
            self.save()
            return True
        return False


class RoomManager:
    """Every room of an app instance: loaded from the backend on demand, kept in memory
    (with a shared backend, refreshed before every change and on every published event)."""

    def __init__(
        self,
        config: Config,
        observe: Callable[[Room, Seat | None, str], None] | None = None,
    ) -> None:
        self.config = config
        self.store = Store(config.db_path)
        self.backend: Backend = (
            RedisBackend(config.redis_url, config.idle_expiry, config.finished_kept,
                         config.redis_connections)
            if config.redis_url else LocalBackend(self.store)
        )
        self.rooms: dict[str, Room] = {}
        self._entering: dict[str, int] = {}  # entries under way, by room (``listening``)
        self._observe = observe
        self.guard = AddressGuard(config)
        self.sweeper = Sweeper(self)
        self.entrance = Entrance(self)  # entering a room: create, join, resume, quick, watch
        # today's ranked deal: its registry and board (the SQLite file), its entry
        self.ranked = RankedDesk(self, RankedBoard(config.db_path, config.ranked_secret))
        self.loop: asyncio.AbstractEventLoop | None = None  # the app's (tests run on it)

    def observe(self, room: Room, seat: Seat | None, text: str) -> None:
        if self._observe is not None:
            self._observe(room, seat, text)

    async def start(self) -> None:
        self.loop = asyncio.get_running_loop()
        await self.backend.start(self.on_event)
        self.sweeper.start()

    async def aclose(self) -> None:
        await self.sweeper.stop()
        for room in self.rooms.values():
            room.stop_timers()
        await self.backend.close()
        self.store.close()
        self.ranked.board.close()

    # --- changes and events ---------------------------------------------------------

    async def refresh(self, room: Room) -> None:
        """With a shared backend: take the latest stored revision of the room."""
        if not self.backend.shared:
            return
        stored = await self.backend.load(room.code)
        if stored is not None and stored.rev != room.rev:
            room.load(stored)
        room.remote_connected = await self.backend.connected(room.code)

    @contextlib.asynccontextmanager
    async def changing(self, room: Room) -> AsyncIterator[Room]:
        """Change ``room`` under its lock, on its latest revision; on leaving (even by a
        refusal: what was changed before it was valid), save it and publish the change."""
        event: dict[str, Any] = {"kind": "state"}
        async with self.backend.change(room.code, room.rev) as change:
            if change.stored is not None:
                room.load(change.stored)
            if self.backend.shared:
                room.remote_connected = change.connected
            room.dirty = room.touched = False
            room.steps = []
            room.recount = False
            before = room.state
            refused = False
            try:
                yield room
            except BaseException:
                refused = True  # saved, but not published (nor sent)
                raise
            finally:
                dirty, publish = room.dirty, (room.dirty or room.touched) and not refused
                stored = None
                if dirty:
                    room.rev += 1
                    stored = room.stored()
                    if self.backend.shared and publish:
                        event.update(changes.change_of(room, stored, before))
                room.dirty = room.touched = False
                room.steps = []
                if self.backend.shared:
                    event["rev"] = room.rev
                    if room.remote_connected is not None and not room.recount:
                        event["conn"] = sorted(room.remote_connected)
                await change.commit(stored, event if publish else None)

    @contextlib.asynccontextmanager
    async def listening(self, room: Room) -> AsyncIterator[None]:
        """Around an entry into ``room`` (a connection may join it): this process listens
        to the room's events (its channel, with a shared backend) before the entry's change
        begins, so that none is missed; if no connection of the room is left here once
        the entry is over (it was refused), it stops (``settle``)."""
        code = room.code
        self._entering[code] = self._entering.get(code, 0) + 1
        try:
            await self.backend.listen(code)
            yield
        finally:
            left = self._entering[code] - 1
            if left:
                self._entering[code] = left
            else:
                del self._entering[code]
            await self.settle(room)

    async def settle(self, room: Room) -> None:
        """A connection of the room left this process (or an entry ended): with none left
        and none coming, the room's events are no longer this process's to read."""
        if not room.connections and room.code not in self._entering:
            await self.backend.unlisten(room.code)

    async def on_event(self, code: str, event: dict[str, Any]) -> None:
        """A published change: this process's connections to the room get it."""
        room = self.rooms.get(code)
        if room is None or not room.connections:
            return
        kind = event.get("kind")
        if kind == "state":
            rev = event.get("rev")
            if not isinstance(rev, int) or not self.backend.shared:
                await self.refresh(room)
            elif rev == room.rev or (rev == room.rev + 1 and changes.follow(room, event)):
                # the revision held (the change was this process's own) or made from the
                # event: nothing to read back
                conn = event.get("conn")
                if isinstance(conn, list):
                    room.remote_connected = {int(seat) for seat in conn}
                else:
                    room.remote_connected = await self.backend.connected(room.code)
            else:
                await self.refresh(room)
            room.broadcast.state()
            room.watch()
        elif kind == "chat":
            room.broadcast.to_all(frame("chat", seat=event["seat"], phrase=event["phrase"]))
        elif kind == "freed":
            await self._detach(room, str(event["digest"]), str(event["seat"]),
                               str(event["by"]))
        elif kind == "replace":
            for conn in list(room.connections):
                if conn.digest == event["digest"] and conn.ident != event["keep"]:
                    await self._replaced(room, conn)

    async def _replaced(self, room: Room, conn: Connection) -> None:
        """``conn``'s seat was taken up by a newer connection on the same token: ``conn``
        is told so (a ``replaced`` frame, then close 4001) and acts for no seat any more."""
        seat = conn.seat
        room.connections.discard(conn)
        room.post(conn, frame("replaced", code=room.code,
                              seat=seat.name if seat is not None else None))
        conn.room = conn.seat = None
        conn.finish(CLOSE_REPLACED)
        if self.backend.shared and seat is not None:
            await self.backend.connection(room.code, int(seat), -1)
        await self.settle(room)

    # --- finding and making rooms -------------------------------------------------

    def _room_limit(self) -> None:
        if len(self.rooms) >= self.config.max_rooms_loaded:
            for code, room in list(self.rooms.items()):  # drop rooms nobody is connected to
                if not room.connections:
                    room.stop_timers()
                    del self.rooms[code]
            if len(self.rooms) >= self.config.max_rooms_loaded:
                raise ProtocolError("server-full")

    async def get(self, code: str) -> Room | None:
        room = self.rooms.get(code)
        if room is not None:
            await self.refresh(room)
            return room
        stored = await self.backend.load(code)
        if stored is None:
            return None
        self._room_limit()
        options = stored.meta["options"]
        room = Room(self, code, options, stored.public)
        try:
            room.load(stored)
        except (RecordError, KeyError, ValueError, TypeError):
            return None
        room.remote_connected = await self.backend.connected(code)
        loaded = self.rooms.get(code)
        if loaded is not None:  # loaded meanwhile by another connection: one Room per code,
            # or the connections to it would be split between two objects
            room.stop_timers()
            await self.refresh(loaded)
            return loaded
        self.rooms[code] = room
        return room

    async def create(self, options: dict[str, Any], public: bool) -> Room:
        merged = {**DEFAULT_OPTIONS, **options}
        try:
            Rules(target=merged["target"], floor=merged["floor"], blind_nil=merged["blind_nil"])
        except RulesError:
            raise ProtocolError("bad-option", {"option": "floor"}) from None
        self._room_limit()
        while True:
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            if code in self.rooms:
                continue
            room = Room(self, code, merged, public)
            if await self.backend.create(room.stored()):
                break
        self.rooms[room.code] = room
        return room

    # --- the messages ---------------------------------------------------------------

    @staticmethod
    def room_of(conn: Connection) -> Room | None:
        """The room ``conn`` joined: one of the manager's rooms (the entrance seats it)."""
        room = conn.room
        assert room is None or isinstance(room, Room)
        return room

    async def handle(self, conn: Connection, message: Message) -> None:
        """Do what a checked message asks; raise ProtocolError or IllegalAction to refuse."""
        kind, fields = message.type, message.fields
        if kind == "ping":
            conn.post(frame("pong"))
            return
        if kind == "peek":
            await self.entrance.peek(conn, str(fields["code"]))
            return
        if kind in ("create", "join", "resume", "quick", "watch"):
            if conn.room is not None:
                raise ProtocolError("already-joined")
            await self.entrance.enter(conn, kind, fields)
            return
        if kind == "ranked":
            if conn.room is not None:
                raise ProtocolError("already-joined")
            await self.ranked.enter(conn, fields)
            return
        room, seat = self.room_of(conn), conn.seat
        if room is not None and seat is None and kind == "leave":  # a spectator goes
            room.connections.discard(conn)
            room.post(conn, frame("left", code=room.code, seat=None, by="self"))
            conn.room = None
            room.broadcast.state()
            await self.settle(room)
            return
        if room is None or seat is None:
            raise ProtocolError("not-seated")
        if room.ranked and kind not in RANKED_ACTIONS:
            raise ProtocolError("ranked-game")  # one player and bots: nothing else to do
        wanted = fields.get("seat")  # of an action: the seat it is for
        if kind in ("look", "bid", "play") and wanted is not None and wanted != seat:
            raise ProtocolError("not-your-seat")
        if kind == "chat":
            await self._chat(room, seat, str(fields["phrase"]))
            return
        async with self.changing(room):
            if kind == "start":
                if room.status != "waiting":
                    raise ProtocolError("already-started")
                if not room.is_host(seat):
                    raise ProtocolError("not-host")
                room.start()
            elif kind == "move":
                source, target = fields["from"], fields["to"]
                assert isinstance(source, Seat) and isinstance(target, Seat)
                room.move(seat, source, target)
                if self.backend.shared:
                    await self.backend.swap_connections(room.code, int(source), int(target))
                    room.remote_connected = await self.backend.connected(room.code)
            elif kind == "nudge":
                room.nudge_seat(seat)
            elif kind == "rematch":
                room.ask_rematch(seat)
            elif kind == "leave":
                await self._free(room, seat, "self")
            elif kind == "free":
                target = fields["seat"]
                assert isinstance(target, Seat)
                if room.public or not room.is_host(seat):
                    raise ProtocolError("not-host")
                if target == seat or not room.seats[target].human:
                    raise ProtocolError("no-player")
                await self._free(room, target, "host")
            elif kind == "open":
                if room.public or not room.is_host(seat):
                    raise ProtocolError("not-host")
                room.open = bool(fields["open"])
                room.save()
            elif kind in ("look", "bid", "play"):
                self._act(room, seat, kind, fields)
        room.kick()

    async def _free(self, room: Room, seat: Seat, by: str) -> None:
        """Inside a change: ``seat``'s player goes; its connections here are told so at
        once (``left``) and act for no seat any more; the other processes' too (an event)."""
        digest = room.free(seat)
        if digest is None:
            return
        await self._detach(room, digest, seat.name, by)
        if self.backend.shared:
            room.recount = True
            await self.backend.publish(room.code, {"kind": "freed", "digest": digest,
                                                   "seat": seat.name, "by": by})
            room.remote_connected = await self.backend.connected(room.code)

    async def _detach(self, room: Room, digest: str, seat: str, by: str) -> None:
        for conn in list(room.connections):
            if conn.digest != digest:
                continue
            had = conn.seat
            room.connections.discard(conn)
            room.post(conn, frame("left", code=room.code, seat=seat, by=by))
            conn.room = conn.seat = conn.digest = None
            if self.backend.shared and had is not None:
                await self.backend.connection(room.code, int(had), -1)
        await self.settle(room)

    async def left(self, conn: Connection) -> None:
        """A connection closed: the others see its seat disconnected."""
        room = self.room_of(conn)
        if room is None or conn not in room.connections:
            return
        room.connections.discard(conn)
        try:
            if self.backend.shared and conn.seat is not None:
                await self.backend.connection(room.code, int(conn.seat), -1)
                await self.backend.publish(room.code, {"kind": "state"})
            else:
                room.broadcast.state()
        finally:
            await self.settle(room)

    async def _chat(self, room: Room, seat: Seat, phrase: str) -> None:
        if phrase not in CHAT_PHRASES:
            raise ProtocolError("unknown-phrase")
        times = room.seats[seat].chats
        now = time.monotonic()
        while times and now - times[0] > self.config.chat_window:
            times.popleft()
        if len(times) >= self.config.chat_per_window:
            raise ProtocolError("rate-limited")
        times.append(now)
        await self.backend.publish(room.code, {"kind": "chat", "seat": seat.name,
                                               "phrase": phrase})

    def _act(self, room: Room, seat: Seat, kind: str, fields: dict[str, object]) -> None:
        if room.state is None:
            raise ProtocolError("not-started")
        if room.ranked:
            self.ranked.check_action(room)
        room.back(seat)
        if kind == "look":
            if room.state.phase is Phase.BIDDING:
                room.seats[seat].looked = room.state.hand_index
                room.save()
            room.touched = True
            return
        action: Card | Bid
        text = str(fields["bid"] if kind == "bid" else fields["card"])
        try:
            action = parse_bid(text) if kind == "bid" else parse_card(text)
        except ParseError:
            raise ProtocolError("bad-" + kind) from None
        if str(action) != text:  # the protocol takes the record's notation only ("TD", "nil")
            raise ProtocolError("bad-" + kind)
        blind = isinstance(action, Bid) and action.blind
        if blind and room.rules.blind_nil and room.hand_seen(seat):
            raise ProtocolError("hand-seen")
        room.apply(seat, action)
