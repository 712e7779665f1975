"""The daily deal's checks and pars: a finished game of a deal replayed and checked against
the board's bots (:func:`replay`, :func:`verify`), and the pars the board shows
(:class:`Board`). The board itself ranks only ranked games (spades_server/ranked.py): a
result of the offline daily deal is no longer ranked, since its deal is known to the page.

A submission is ``{"nickname", "level", "day", "score": [NS, EW], "record": {...}}``: the
page's daily game (South is the player; North, East and West are one bot of ``level``, as
the page and ``spades_core.par`` use them). :func:`verify` replays the record with
``spades_core``: its deal must be the day's (the deal number ``YYYYMMDD`` and every hand's
cards), its rules the board's (:data:`BOARD_RULES`), the game over, every action of North,
East and West the one the deterministic bot chooses in that position, and the claimed score
the replayed one. Anything else is refused with a reason key.

The par (the Expert's own result in South's seat, ``spades_core.par``) is computed when that
module exists: :func:`par_hook`.
"""

from __future__ import annotations

import datetime
import hashlib
import importlib
import importlib.util
import sqlite3
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from spades_core import record
from spades_core.bids import Bid
from spades_core.bots import LEVELS, Bot, bot_action, make_bot
from spades_core.cards import CARDS, Card
from spades_core.deal import daily_deal_date, deal_hand
from spades_core.errors import IllegalAction, RecordError
from spades_core.game import GameState, Phase
from spades_core.rules import DAILY_RULES
from spades_core.seats import Seat

from .protocol import ProtocolError, _nickname

BOARD_RULES = DAILY_RULES  # RULES.md's defaults: every result of a board is of the same game
PLAYER = Seat.S
MAX_SUBMISSION = 64 * 1024  # bytes of one POST body: a long daily game's record is some kB
BOARD_SIZE = 100  # entries returned by GET


class BoardRefusal(Exception):
    def __init__(self, reason: str, params: dict[str, str] | None = None) -> None:
        self.reason = reason
        self.params = params or {}
        super().__init__(f"{reason} {self.params}")


@dataclass(frozen=True, slots=True)
class Verified:
    day: int
    level: str
    nickname: str
    scores: tuple[int, int]
    won: bool
    hands: int
    digest: str  # of the record's actions: the same game twice is one entry


def day_of(number: int) -> datetime.date:
    """The date of a deal number ``YYYYMMDD``; ValueError when it names none."""
    found = daily_deal_date(number)
    if found is None:
        raise ValueError(f"not a day: {number}")
    return found


def near(day: int, today: datetime.date) -> bool:
    """Whether ``day`` is today's deal, give or take the time zones: the days a result may
    be submitted for, and so the only days whose par is worth computing."""
    return abs((day_of(day) - today).days) <= 1


_BOTS: dict[str, Bot] = {}
_BOTS_LOCK = threading.Lock()


def _bot(level: str) -> Bot:
    with _BOTS_LOCK:
        bot = _BOTS.get(level)
        if bot is None:
            bot = _BOTS[level] = make_bot(level)
        return bot


def _actions(state: GameState) -> list[list[Card | Bid]]:
    hands: list[list[Card | Bid]] = []
    for past in state.past_hands:
        hands.append([*past.bid_history, *(CARDS[i] for i in past.play_ids)])
    return hands


def check_fields(data: object, today: datetime.date) -> tuple[str, str, int, Any, Any]:
    """The submission's fields, checked (a :class:`BoardRefusal` otherwise)."""
    if not isinstance(data, dict):
        raise BoardRefusal("bad-json")
    unknown = set(data) - {"nickname", "level", "day", "score", "record"}
    if unknown:
        raise BoardRefusal("unknown-field", {"field": str(sorted(unknown)[0])[:40]})
    for key in ("nickname", "level", "day", "score", "record"):
        if key not in data:
            raise BoardRefusal("missing-field", {"field": key})
    try:
        nickname = str(_nickname("nickname", data["nickname"]))
    except ProtocolError:
        raise BoardRefusal("bad-nickname") from None
    level = data["level"]
    if not isinstance(level, str) or level not in LEVELS:
        raise BoardRefusal("bad-level")
    day = data["day"]
    if isinstance(day, bool) or not isinstance(day, int):
        raise BoardRefusal("bad-field", {"field": "day"})
    try:
        close = near(day, today)
    except ValueError:
        raise BoardRefusal("bad-field", {"field": "day"}) from None
    if not close:
        raise BoardRefusal("wrong-day")
    score = data["score"]
    if (
        not isinstance(score, list) or len(score) != 2
        or any(isinstance(v, bool) or not isinstance(v, int) for v in score)
    ):
        raise BoardRefusal("bad-field", {"field": "score"})
    if not isinstance(data["record"], dict):
        raise BoardRefusal("bad-field", {"field": "record"})
    return nickname, level, day, score, data["record"]


def verify(data: object, today: datetime.date) -> Verified:
    """Replay a submission (see the module); raise :class:`BoardRefusal`."""
    nickname, level, day, score, raw = check_fields(data, today)
    try:
        played = record.from_dict(raw)
    except RecordError as error:
        raise BoardRefusal("bad-record", {"why": str(error)[:120]}) from None
    if played.deal != day:
        raise BoardRefusal("wrong-deal")
    if played.rules != BOARD_RULES:
        raise BoardRefusal("not-board-rules")
    for past in played.past_hands:
        if past.dealt_masks != deal_hand(day, past.hand_index, BOARD_RULES.deck_mask):
            raise BoardRefusal("wrong-deal", {"hand": str(past.hand_index + 1)})
    if played.phase is not Phase.OVER:
        raise BoardRefusal("not-finished")
    state = replay(played, day, level)
    if tuple(score) != state.scores:
        raise BoardRefusal("wrong-score")
    winner = state.winner
    digest = hashlib.sha256(record.dumps(state).encode()).hexdigest()
    return Verified(day, level, nickname, state.scores, winner is not None and winner.name == "NS",
                    len(state.past_hands), digest)


def replay(played: GameState, deal: int, level: str) -> GameState:
    """``played`` replayed from deal number ``deal`` under the board's rules, South's
    actions as they are, every other seat's checked to be the bot of ``level``'s own
    choice; a :class:`BoardRefusal` otherwise (or when the replay differs)."""
    bot = _bot(level)
    state = GameState.new(BOARD_RULES, deal=deal)
    for hand_index, actions in enumerate(_actions(played)):
        for index, action in enumerate(actions):
            seat = state.to_act
            assert seat is not None
            if seat is not PLAYER and bot_action(bot, state) != action:
                raise BoardRefusal(
                    "not-the-bots-action",
                    {"hand": str(hand_index + 1), "action": str(index + 1), "seat": seat.name},
                )
            try:
                state = state.apply(action)
            except IllegalAction:  # cannot happen after record.from_dict; kept as a guard
                raise BoardRefusal("bad-record", {"why": "illegal action"}) from None
    if state != played or state.phase is not Phase.OVER:
        raise BoardRefusal("bad-record", {"why": "the replay differs"})
    return state


# --- the par (spades_core.par, when it exists) --------------------------------------------


def par_hook() -> Callable[[int, str], int | None] | None:
    """``par(day, level)``: South's par score from ``spades_core.par.par_game`` under the
    board's rules, or None while that module does not exist."""
    if importlib.util.find_spec("spades_core.par") is None:
        return None
    par_module = importlib.import_module("spades_core.par")
    par_game = getattr(par_module, "par_game", None)
    if par_game is None:
        return None

    def par(day: int, level: str) -> int | None:
        return int(par_game(day, level, BOARD_RULES).scores[0])

    return par


# --- the board's store -----------------------------------------------------------------

_SCHEMA = """
CREATE TABLE IF NOT EXISTS daily_par (
    day INTEGER NOT NULL,
    level TEXT NOT NULL,
    par INTEGER NOT NULL,
    PRIMARY KEY (day, level)
);
"""


class Board:
    """The pars, in the server's SQLite file (shared by the processes of a
    machine when they are given the same ``--db``)."""

    def __init__(self, path: Path | str,
                 par: Callable[[int, str], int | None] | None = None) -> None:
        self._lock = threading.Lock()
        self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None,
                                   timeout=10)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.executescript(_SCHEMA)
        self._par = par if par is not None else par_hook()  # ``par``: tests give their own
        self._par_running: set[tuple[int, str]] = set()
        self._closed = False

    def par(self, day: int, level: str, today: datetime.date) -> int | None:
        """The par of the daily deal ``day`` when known. Asked about a day near ``today``
        (:func:`near`), it starts the computation in a thread, one at a time: a later ask
        starts the next, so no run of requests can keep more than one core busy with pars."""
        return self._par_of(day, level, near(day, today))

    def par_of_deal(self, deal: int, level: str, recent: bool) -> int | None:
        """The same for any deal number (a published ranked deal): computed only when
        ``recent`` (its day was published lately), else only read."""
        return self._par_of(deal, level, recent)

    def _par_of(self, deal: int, level: str, may_start: bool) -> int | None:
        if self._par is None:
            return None
        with self._lock:
            row = self._db.execute(
                "SELECT par FROM daily_par WHERE day=? AND level=?", (deal, level)
            ).fetchone()
            if row is not None:
                return int(row[0])
            if self._par_running or not may_start:
                return None
            self._par_running.add((deal, level))
        threading.Thread(target=self._compute_par, args=(deal, level), daemon=True).start()
        return None

    def _compute_par(self, day: int, level: str) -> None:
        assert self._par is not None
        try:
            value = self._par(day, level)
        except Exception:
            value = None
        with self._lock:
            self._par_running.discard((day, level))
            if value is not None and not self._closed:  # a par still computing at shutdown
                self._db.execute("INSERT OR REPLACE INTO daily_par VALUES (?, ?, ?)",
                                 (day, level, value))

    def close(self) -> None:
        with self._lock:
            self._closed = True
            self._db.close()


__all__ = ["BOARD_RULES", "Board", "BoardRefusal", "Verified", "day_of", "near", "replay",
           "verify"]
