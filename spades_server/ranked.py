"""Today's ranked deal: a daily game dealt by the server from a secret, played as a room.

The deal number of a UTC day is derived from the server's secret (:func:`deal_of`:
HMAC-SHA256 of the secret and ``YYYYMMDD``, reduced to the engine's deal numbers), so
nothing the page has tells it before the day is over. A ranked game is a room whose South
is the player and whose three other seats are bots of the chosen level; the room's
machinery and privacy rules apply (each seat is sent only its own view), and a ranked room
takes only its player's actions: nobody may join, watch or peek at it, and its record is
not given before the day is published.

One game per player and level per day: the registry (:class:`RankedBoard`, in the server's
SQLite file, beside the rest of the board) refuses a second start for the same nickname
(case folded) or the same browser token (its SHA-256). A finished game is kept there as its
record and ranked on the day's board; a game left unfinished when its day is published is
marked abandoned (its room is expired by the sweep like any room unchanged for two days).

A day ``D`` is published at 00:00 UTC of ``D + 2``, when ``D`` is no longer near today
(:func:`spades_server.daily.near`, the daily board's tolerance): its day secret and deal
number are then given by ``GET /api/ranked/D``, and ``?deal=N`` replays it in the page.
"""

from __future__ import annotations

import datetime
import hashlib
import hmac
import secrets
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any, Generic, TypeVar

from spades_core import record
from spades_core.bots import LEVELS
from spades_core.deal import MAX_DEAL, daily_deal_number
from spades_core.game import GameState, Phase

from .connection import Connection, token_digest
from .daily import BOARD_RULES, BOARD_SIZE, PLAYER, BoardRefusal, day_of
from .protocol import ProtocolError
from .roomtypes import Manager, RoomLike

Room = TypeVar("Room", bound=RoomLike)  # the manager's room (``rooms.Room``)

SECRET_BYTES = 32


def today_utc() -> datetime.date:
    return datetime.datetime.now(datetime.UTC).date()


def day_secret(secret: bytes, day: int) -> bytes:
    """The secret of one day: HMAC-SHA256(server secret, "YYYYMMDD"). Published with the
    day; it tells nothing of another day's."""
    return hmac.new(secret, str(day).encode(), hashlib.sha256).digest()


def deal_from_day_secret(key: bytes) -> int:
    """The deal number a day secret maps to: its first 8 bytes, big-endian, modulo the
    engine's count of deal numbers (0 .. MAX_DEAL)."""
    return int.from_bytes(key[:8], "big") % (MAX_DEAL + 1)


def deal_of(secret: bytes, day: int) -> int:
    return deal_from_day_secret(day_secret(secret, day))


def commitment(secret: bytes, day: int) -> str:
    """SHA-256 of the day secret, given before the day is over: once the secret is
    published anyone can check that it was the one fixed in advance."""
    return hashlib.sha256(day_secret(secret, day)).hexdigest()


def published(day: int, today: datetime.date) -> bool:
    """Whether ``day``'s ranked deal may be told: from 00:00 UTC of ``day + 2``."""
    return (today - day_of(day)).days >= 2


_SCHEMA = """
CREATE TABLE IF NOT EXISTS secrets (
    name TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS ranked (
    day INTEGER NOT NULL,
    level TEXT NOT NULL,
    nick_key TEXT NOT NULL,
    nickname TEXT NOT NULL,
    player TEXT NOT NULL,
    code TEXT,
    status TEXT NOT NULL,
    started REAL NOT NULL,
    score INTEGER,
    opponents INTEGER,
    won INTEGER,
    hands INTEGER,
    record TEXT,
    finished REAL,
    PRIMARY KEY (day, level, nick_key),
    UNIQUE (day, level, player)
);
"""


class RankedBoard:
    """The ranked games of every day (one row per player, level and day), the board that
    ranks the finished ones, and the server's secret; in the server's SQLite file."""

    def __init__(self, path: Path | str, secret: str | None = None) -> None:
        self._lock = threading.Lock()
        self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None,
                                   timeout=10)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.executescript(_SCHEMA)
        self._secret = secret.encode() if secret else None

    @property
    def secret(self) -> bytes:
        """The given secret, or one made once (32 random bytes, at its first use) and kept
        in the file, so that a restart deals the same day."""
        if self._secret is None:
            self._secret = self._stored_secret()
        return self._secret

    def _stored_secret(self) -> bytes:
        with self._lock:
            self._db.execute("INSERT OR IGNORE INTO secrets VALUES ('ranked', ?)",
                             (secrets.token_hex(SECRET_BYTES),))
            row = self._db.execute("SELECT value FROM secrets WHERE name='ranked'").fetchone()
        return bytes.fromhex(row[0])

    def claim(self, day: int, level: str, nickname: str, player: str) -> None:
        """Book ``day``'s game at ``level`` for ``nickname`` and the browser token's digest
        ``player``; a :class:`BoardRefusal` when either has one already."""
        with self._lock:
            row = self._db.execute(
                "SELECT player, status, code FROM ranked WHERE day=? AND level=? "
                "AND (nick_key=? OR player=?)", (day, level, nickname.casefold(), player),
            ).fetchone()
            if row is not None:
                mine, status, code = row
                if hmac.compare_digest(mine, player) and status == "playing" and code:
                    raise BoardRefusal("ranked-unfinished", {"code": code})
                raise BoardRefusal("ranked-played")
            try:
                self._db.execute(
                    "INSERT INTO ranked (day, level, nick_key, nickname, player, status, started)"
                    " VALUES (?, ?, ?, ?, ?, 'playing', ?)",
                    (day, level, nickname.casefold(), nickname, player, time.time()))
            except sqlite3.IntegrityError:  # another process booked it meanwhile
                raise BoardRefusal("ranked-played") from None

    def set_code(self, day: int, level: str, player: str, code: str | None) -> None:
        """The room of a booked game (None: it could not be made, the booking is dropped)."""
        with self._lock:
            if code is None:
                self._db.execute("DELETE FROM ranked WHERE day=? AND level=? AND player=?",
                                 (day, level, player))
            else:
                self._db.execute("UPDATE ranked SET code=? WHERE day=? AND level=? AND player=?",
                                 (code, day, level, player))

    def finish(self, day: int, level: str, code: str, state: GameState) -> int | None:
        """Keep the finished game of room ``code``; its rank on the day's board."""
        winner = state.winner
        with self._lock:
            cursor = self._db.execute(
                "UPDATE ranked SET status='over', score=?, opponents=?, won=?, hands=?, record=?,"
                " finished=? WHERE day=? AND level=? AND code=? AND status='playing'",
                (state.scores[0], state.scores[1], int(winner is not None and winner.name == "NS"),
                 len(state.past_hands), record.dumps(state), time.time(), day, level, code))
            if cursor.rowcount != 1:
                return None
            nickname = self._db.execute(
                "SELECT nickname FROM ranked WHERE day=? AND level=? AND code=?",
                (day, level, code)).fetchone()[0]
        for entry in self.entries(day, level, limit=None):
            if entry["nickname"] == nickname:
                return int(entry["rank"])
        return None

    def abandon(self, before_day: int) -> int:
        """Games still on for a day before ``before_day`` (published): abandoned."""
        with self._lock:
            cursor = self._db.execute(
                "UPDATE ranked SET status='abandoned' WHERE status='playing' AND day<?",
                (before_day,))
        return int(cursor.rowcount)

    def entries(self, day: int, level: str, limit: int | None = BOARD_SIZE) -> list[dict[str, Any]]:
        with self._lock:
            rows = self._db.execute(
                "SELECT nickname, score, opponents, won, hands, rowid FROM ranked WHERE day=? "
                "AND level=? AND status='over' "
                "ORDER BY score DESC, score - opponents DESC, finished ASC"
                + (f" LIMIT {int(limit)}" if limit is not None else ""),
                (day, level),
            ).fetchall()
        return [
            {"rank": rank, "nickname": row[0], "score": row[1], "opponents": row[2],
             "won": bool(row[3]), "hands": row[4], "game": row[5]}
            for rank, row in enumerate(rows, start=1)
        ]

    def record_of(self, day: int, game: int) -> str | None:
        """The record of a finished game of ``day`` (its entry's ``game``)."""
        with self._lock:
            row = self._db.execute(
                "SELECT record FROM ranked WHERE rowid=? AND day=? AND status='over'",
                (game, day)).fetchone()
        return None if row is None else str(row[0])

    def status_of(self, code: str) -> str | None:
        with self._lock:
            row = self._db.execute("SELECT status FROM ranked WHERE code=?", (code,)).fetchone()
        return None if row is None else str(row[0])

    def close(self) -> None:
        with self._lock:
            self._db.close()


def board_json(board: RankedBoard, day: int, level: str, today: datetime.date,
               par: int | None) -> dict[str, Any]:
    """The day's ranked board: only ranked games. Once the day is published, its deal
    number and each entry's record link (``GET /api/ranked/D/record/GAME``)."""
    done = published(day, today)
    entries = board.entries(day, level)
    for entry in entries:
        game = entry.pop("game")
        if done:
            entry["record"] = f"api/ranked/{day}/record/{game}"
    return {"day": day, "level": level, "ranked": True, "rules": BOARD_RULES.to_dict(),
            "published": done, "deal": deal_of(board.secret, day) if done else None,
            "par": par if done else None, "entries": entries}


def day_json(board: RankedBoard, day: int, today: datetime.date) -> dict[str, Any]:
    """``GET /api/ranked/D``: before publication only the commitment; after, the day
    secret and the deal number (an ordinary ``?deal=N``)."""
    data: dict[str, Any] = {"day": day, "published": published(day, today),
                            "commitment": commitment(board.secret, day)}
    if data["published"]:
        key = day_secret(board.secret, day)
        data["secret"] = key.hex()
        data["deal"] = deal_from_day_secret(key)
    return data


class RankedDesk(Generic[Room]):
    """Starting a ranked game (the ``ranked`` message) and keeping it when it ends: a part
    of the rooms' manager, which owns it."""

    def __init__(self, manager: Manager[Room], board: RankedBoard) -> None:
        self.manager = manager
        self.board = board
        self.today = today_utc  # the clock (tests move it)

    def day(self) -> int:
        return daily_deal_number(self.today())

    async def enter(self, conn: Connection, fields: dict[str, object]) -> None:
        """Book today's game for the nickname and browser token, make its room (bots of the
        level in N, E, W), seat the player in South and deal the day's secret deal."""
        manager = self.manager
        guard, key = manager.guard, conn.address
        guard.check(key, "ranked")
        guard.check(key, "enter")
        guard.count(key, "enter")
        nickname, level = str(fields["nickname"]), str(fields["level"])
        if level not in LEVELS:
            raise ProtocolError("bad-option", {"option": "level"})
        player = token_digest(str(fields["player"]))
        day = self.day()
        try:
            self.board.claim(day, level, nickname, player)
        except BoardRefusal as refusal:
            raise ProtocolError(refusal.reason, refusal.params) from None
        room: Room | None = None
        try:
            room = await manager.create(
                {"bot_level": level, "hints": False, "ranked": {"day": day, "level": level},
                 "target": BOARD_RULES.target, "floor": BOARD_RULES.floor,
                 "blind_nil": BOARD_RULES.blind_nil}, public=False)
        finally:
            self.board.set_code(day, level, player, room.code if room is not None else None)
        assert room is not None
        async with manager.listening(room), manager.changing(room):
            connected = await manager.entrance.arrive(room, PLAYER, None)  # (may be busy:
            # before the seat is taken)
            token = room.take_seat(PLAYER, nickname)
            room.state = GameState.new(room.rules, deal=deal_of(self.board.secret, day))
            room.status = "playing"
            room.save()
            manager.entrance.seat(conn, room, PLAYER, token, token_digest(token), connected)
        guard.count(key, "ranked")  # a game started (a refused attempt is only an entry)
        room.kick()

    def check_action(self, room: Room) -> None:
        """A ranked game is played only while its day is not published."""
        ranked = room.options.get("ranked")
        if isinstance(ranked, dict) and published(int(ranked["day"]), self.today()):
            raise ProtocolError("ranked-day-over")

    def finished(self, room: Room) -> None:
        """Room.apply, at the game's end: the game goes on the board; its rank is told in
        the room's options (``ranked.rank``)."""
        ranked = room.options.get("ranked")
        state = room.state
        if not isinstance(ranked, dict) or state is None or state.phase is not Phase.OVER:
            return
        rank = self.board.finish(int(ranked["day"]), str(ranked["level"]), room.code, state)
        room.options = {**room.options, "ranked": {**ranked, "rank": rank}}

    def sweep(self) -> int:
        """The games still on for a published day are abandoned (the sweep calls it)."""
        before = daily_deal_number(self.today() - datetime.timedelta(days=1))
        return self.board.abandon(before)


RANKED_ACTIONS = frozenset({"look", "bid", "play", "chat", "ping"})

__all__ = ["RankedBoard", "RankedDesk", "board_json", "commitment", "day_json", "day_secret",
           "deal_from_day_secret", "deal_of", "published"]
