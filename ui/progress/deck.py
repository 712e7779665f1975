""""Your mistakes": the learner's deck in local storage, and what its screen draws (pure).

Stored under ``spades.mistakes.v1`` (docs/progress.md, "Your mistakes") as
``{"v": 1, "items": [item, ...]}``, each item (:class:`spades_core.mistakes.Item`) as
``{"key", "pos": position, "i": decision index, "played", "better", "reason", "params",
"support", "contrast", "tip", "cost", "skill", "kind", "box", "due", "made"}``: the exact
position South saw (``spades_core.mistakes.position_to_dict``: the hand's deal, index,
scores and bags before it, the rules that differ, the actions before the decision), the
choice made, the better one, the reason as catalogue keys and parameters (never text), the
Leitner box and the days.  At most ``mistakes.MAX_ITEMS`` (100) items; an item is about
700 characters, 2,600 at the most every bound allows: the whole stays under :data:`LIMIT`
(256 KiB; ``tests/test_deck.py`` fills it with the longest items).

Read like every stored value (``ui/shared/storage.py``): :func:`check` keeps each item it
can read (bounded numbers and strings, a position that replays to South's legal decision)
and drops the rest, saying so; the whole is reset only when the whole is unreadable.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from spades_core.bids import Bid, parse_bid
from spades_core.cards import Card, parse_card
from spades_core.game import GameState, Phase
from spades_core.judge import SKILLS
from spades_core.mistakes import (
    MAX_ITEMS,
    RETIRED,
    Item,
    daily_round,
    position_to_dict,
    read_position,
    state_at,
)
from spades_core.seats import SEATS, Seat
from spades_core.views import view_for

from ..shared.storage import Storage, read_text

VERSION = 1
LIMIT = 256 * 1024  # characters, the storage key's limit (ui.shared.storage.LIMITS)
MAX_DAY = 10**6  # days since 1970-01-01: far beyond any real date
MAX_COST = 10**6  # tenths of a point
MAX_PARAMS = 16  # a review item's sentences have about 5
MAX_VALUE = 40  # characters of a parameter's value (a card, a number, a seat, a tip)
_KEY = re.compile(r"[a-z0-9][a-z0-9.+-]{0,63}")  # a catalogue key or a tip
_ITEM_KEY = re.compile(r"[A-Za-z0-9:._-]{1,64}")
_PARAM = re.compile(r"[a-z_][a-z0-9_]{0,23}")
_FIELDS = {"key", "pos", "i", "played", "better", "reason", "params", "support", "contrast",
           "tip", "cost", "skill", "kind", "box", "due", "made"}


def empty() -> list[Item]:
    return []


def _int(value: object, low: int, high: int) -> int:
    if type(value) is not int or not low <= value <= high:
        raise ValueError("a number out of range")
    return value


def _key(value: object, blank: bool = False) -> str:
    if not isinstance(value, str) or not (_KEY.fullmatch(value) or (blank and value == "")):
        raise ValueError("not a catalogue key")
    return value


def _action(state: GameState, token: str) -> Card | Bid:
    return parse_bid(token) if state.phase is Phase.BIDDING else parse_card(token)


def item_from_dict(data: object) -> Item:
    """A stored item, checked; raise ValueError (or another error) when it cannot be read."""
    if not isinstance(data, dict) or set(data) != _FIELDS:
        raise ValueError("not an item")
    key = data["key"]
    if not isinstance(key, str) or not _ITEM_KEY.fullmatch(key):
        raise ValueError("key")
    position, state = read_position(data["pos"])
    view = view_for(state, Seat.S)
    legal = view.legal_bids if state.phase is Phase.BIDDING else view.legal_plays
    played, better = data["played"], data["better"]
    if not (isinstance(played, str) and isinstance(better, str) and len(played) <= 8
            and len(better) <= 8 and played != better):
        raise ValueError("actions")
    if _action(state, played) not in legal or _action(state, better) not in legal:
        raise ValueError("not a legal action there")
    params = data["params"]
    if not (isinstance(params, dict) and len(params) <= MAX_PARAMS
            and all(isinstance(k, str) and _PARAM.fullmatch(k) and isinstance(v, str)
                    and len(v) <= MAX_VALUE for k, v in params.items())):
        raise ValueError("params")
    skill, kind = data["skill"], data["kind"]
    if skill not in (*SKILLS, "") or kind not in ("mistake", "blunder"):
        raise ValueError("skill or kind")
    return Item(
        key=key, position=position, action_index=_int(data["i"], 0, 55), played=played,
        better=better, reason=_key(data["reason"]),
        params=tuple(sorted(params.items())), support=_key(data["support"], True),
        contrast=_key(data["contrast"], True), tip=_key(data["tip"], True),
        cost=_int(data["cost"], 0, MAX_COST), skill=str(skill), kind=str(kind),
        box=_int(data["box"], 1, RETIRED), due=_int(data["due"], 0, MAX_DAY),
        made=_int(data["made"], 0, MAX_DAY))


def item_to_dict(item: Item) -> dict[str, Any]:
    return {"key": item.key, "pos": position_to_dict(item.position), "i": item.action_index,
            "played": item.played, "better": item.better, "reason": item.reason,
            "params": dict(item.params), "support": item.support, "contrast": item.contrast,
            "tip": item.tip, "cost": item.cost, "skill": item.skill, "kind": item.kind,
            "box": item.box, "due": item.due, "made": item.made}


def to_data(deck: list[Item]) -> dict[str, Any]:
    return {"v": VERSION, "items": [item_to_dict(item) for item in deck]}


def encode(deck: list[Item]) -> str:
    """The stored text of a deck."""
    return json.dumps(to_data(deck), separators=(",", ":"))


def check(data: object) -> tuple[list[Item], bool]:
    """The stored deck, checked: ``(items, clean)``; an item that cannot be read is dropped
    and the rest kept; the whole is empty when it is not a deck of this version."""
    if data is None:
        return [], True
    if not isinstance(data, dict) or data.get("v") != VERSION or set(data) != {"v", "items"}:
        return [], False
    items = data["items"]
    if not isinstance(items, list):
        return [], False
    found: list[Item] = []
    clean = len(items) <= MAX_ITEMS
    keys: set[str] = set()
    for entry in items[:MAX_ITEMS]:
        try:
            item = item_from_dict(entry)
        except Exception:  # anything stored must be dropped, never stop the page
            clean = False
            continue
        if item.key in keys:
            clean = False
            continue
        keys.add(item.key)
        found.append(item)
    return found, clean


def glance(data: object) -> tuple[list[tuple[int, int]], bool]:
    """The stored deck looked at without replaying its positions (what :func:`check` costs:
    about 0.5 ms an item in the page), for the page's start: ``(schedule, clean)``, each
    item's ``(box, due)``, what the menu's count of the positions due needs. Not clean when
    the whole or an item is visibly not one :func:`check` keeps (then the page checks it in
    full at once, with its notice); clean says nothing of the positions themselves."""
    if data is None:
        return [], True
    if not isinstance(data, dict) or data.get("v") != VERSION or set(data) != {"v", "items"}:
        return [], False
    items = data["items"]
    if not isinstance(items, list) or len(items) > MAX_ITEMS:
        return [], False
    schedule: list[tuple[int, int]] = []
    keys: set[str] = set()
    for entry in items:
        if not isinstance(entry, dict) or set(entry) != _FIELDS:
            return [], False
        key = entry["key"]
        if not isinstance(key, str) or not _ITEM_KEY.fullmatch(key) or key in keys:
            return [], False
        keys.add(key)
        try:
            schedule.append((_int(entry["box"], 1, RETIRED), _int(entry["due"], 0, MAX_DAY)))
        except ValueError:
            return [], False
    return schedule, True


def due_in(schedule: list[tuple[int, int]], day: int) -> int:
    """:func:`due_count` of a deck seen by :func:`glance`."""
    return sum(1 for box, due in schedule if box < RETIRED and due <= day)


class StoredDeck:
    """The deck as the page holds it (``Progress.deck``), kept off the page's start: glanced
    at (:func:`glance`: the menu's count of the positions due) once the page is ready or when
    the menu first asks, read in full (:func:`check`, every position replayed: about 55 ms
    for 100 items in the page) the first time a screen needs its items. A deck visibly
    damaged at a glance is read in full then; ``tell(key)`` shows a damage's notice."""

    def __init__(self, storage: Storage, tell: Callable[[str], None]) -> None:
        self.storage = storage
        self.tell = tell
        self.items: list[Item] | None = None  # None: not read yet
        self.schedule: list[tuple[int, int]] | None = None  # None: not glanced at yet

    def look(self) -> list[tuple[int, int]]:
        """Each item's ``(box, due)``: from the items read, else from a glance (once)."""
        if self.items is not None:
            return [(item.box, item.due) for item in self.items]
        if self.schedule is None:
            try:
                schedule, damaged = read_text(self.storage.raw("mistakes"), "mistakes", glance)
            except Exception:
                schedule, damaged = [], True
            if damaged:
                return [(item.box, item.due) for item in self.read()]
            self.schedule = schedule
        return self.schedule

    def read(self) -> list[Item]:
        """The items, the stored deck read and checked in full the first time (what cannot be
        read is dropped, the key rewritten, the damage told)."""
        if self.items is not None:
            return self.items
        items: list[Item]
        try:
            items, damaged = self.storage.load("mistakes", check, encode)
        except Exception:
            items, damaged = [], True
            self.storage.remove("mistakes")
        self.items = items
        if damaged:
            self.tell("notice.part-mistakes" if items else "notice.bad-mistakes")
        return items

    def due_count(self, day: int) -> int:
        """The positions due on ``day`` (a glance is enough)."""
        return due_in(self.look(), day)


# --- what the screens show -----------------------------------------------------------------


def due_count(deck: list[Item], day: int) -> int:
    """How many items are due on ``day`` (every one, not only a round's)."""
    return sum(1 for item in deck if item.box < RETIRED and item.due <= day)


def queue(deck: list[Item], day: int, size: int, skill: str = "") -> list[str]:
    """The keys of the items to show, in order: a round's (``daily_round``), or, with
    ``skill``, that skill's items not retired (due first, then the soonest due)."""
    if not skill:
        return [item.key for item in daily_round(deck, day, size)]
    own = [item for item in deck if item.skill == skill and item.box < RETIRED]
    own.sort(key=lambda item: (item.due > day, item.due, item.box, -item.cost, item.key))
    return [item.key for item in own[:size]]


def board_model(item: Item) -> dict[str, Any]:
    """What South saw, as plain data for the renderer (``mistakes_screen``): by seat the
    bid, the tricks won, the cards left; the trick so far; South's cards and, for a card,
    those it may play; for a bid, the bids it may make; the scores and bags; whose deal."""
    state = state_at(item.position)
    view = view_for(state, Seat.S)
    bidding = state.phase is Phase.BIDDING
    seats = []
    per_seat = view.rules.deck_mask.bit_count() // 4
    for seat in SEATS:
        bid = view.bids[seat]
        held = len(view.hand) if seat is Seat.S and view.hand is not None else (
            per_seat - sum(1 for who, _ in view.plays if who is seat))
        seats.append({"seat": seat.name, "bid": None if bid is None else str(bid),
                      "tricks": None if bidding else view.tricks_won[seat],
                      "cards": held, "dealer": view.dealer is seat})
    hand = sorted(view.hand or (), key=lambda c: ((3, 2, 0, 1).index(int(c.suit)), -int(c.rank)))
    return {
        "kind": "bid" if bidding else "card",
        "seats": seats,
        "trick": [[who.name, str(card)] for who, card in view.trick],
        "hand": [str(card) for card in hand],
        "legal": [str(card) for card in view.legal_plays],
        "bids": [str(bid) for bid in view.legal_bids],
        "scores": list(view.scores), "bags": list(view.bags),
        "hand_number": view.hand_index + 1,
        "trick_number": len(view.plays) // 4 + 1,
    }


def import_text(text: str) -> tuple[list[Item] | None, str]:
    """The deck of an exported file (``history.export_text``): ``(items, "")``; ``(None,
    "")`` for a file without one (made before the deck); ``(None, reason)`` when its deck
    does not check (``progress.import.damaged``): nothing of a bad file is taken.  The file
    itself is checked by ``history.import_text`` first."""
    from ..shared.storage import parse
    from .history import FILE_LIMIT

    try:
        data = parse(text, FILE_LIMIT)
    except Exception:
        return None, "progress.import.not-json"
    if not isinstance(data, dict) or "deck" not in data:
        return None, ""
    items, clean = check(data["deck"])
    if not clean or data["deck"] is None:
        return None, "progress.import.damaged"
    return items, ""


def import_file(text: str) -> tuple[dict[str, Any] | None, list[Item] | None, str]:
    """An exported file, whole or nothing: ``(history, deck, "")`` (``deck`` None for a
    file from before the deck: the deck stays as it is), or ``(None, None, reason)`` (a key
    ``progress.import.*``) when the history or the deck does not check."""
    from .history import import_text as history_of

    found, reason = history_of(text)
    if found is None:
        return None, None, reason
    items, reason = import_text(text)
    if reason:
        return None, None, reason
    return found, items, ""
