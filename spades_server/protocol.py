"""The ``spades-room/1`` messages: validation of what clients send, and the views sent back.

Every client message is a JSON object with a ``type`` among :data:`SCHEMA`'s keys and only
the fields listed there, each of the listed kind and size; anything else is refused with a
:class:`ProtocolError` whose ``reason`` is a stable key (docs/protocol.md). What is sent
back to a seat is :func:`view_to_json` of ``view_for(state, seat)``: never a card the seat
may not see.
"""

from __future__ import annotations

import json
import math
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from spades_core.bots import LEVELS
from spades_core.game import HandResult
from spades_core.roomcode import CODE_ALPHABET, CODE_INPUT_MAX, CODE_LENGTH, parse_code
from spades_core.rules import BOUNDS
from spades_core.seats import SEATS
from spades_core.views import View

from . import PROTOCOL

NICKNAME_MAX = 20
MARKS_MAX = 2  # combining marks on one letter (Vietnamese needs two)
TOKEN_MAX = 64
# The close code of a connection whose seat was taken up by a newer connection on the same
# token (after its ``replaced`` frame): one live connection per seat.
CLOSE_REPLACED = 4001
TAKEOVER_BOUNDS = (0.0, 600.0)  # seconds after a nudge before a bot plays the seat
DEFAULT_TAKEOVER = 30.0


class ProtocolError(Exception):
    """A client message the protocol refuses: ``reason`` is a key, ``params`` its values."""

    def __init__(self, reason: str, params: dict[str, str] | None = None) -> None:
        self.reason = reason
        self.params = params or {}
        self.request: str | None = None  # the refused message's type, once it is known
        super().__init__(f"{reason} {self.params}")


@dataclass(frozen=True, slots=True)
class Field:
    check: Callable[[str, object], object]
    required: bool = False


def _string(max_len: int, min_len: int = 0) -> Callable[[str, object], object]:
    def check(name: str, value: object) -> object:
        if not isinstance(value, str) or not min_len <= len(value) <= max_len:
            raise ProtocolError("bad-field", {"field": name})
        return value

    return check


def stacked_marks(text: str) -> bool:
    """Whether ``text`` has more than MARKS_MAX combining marks on one letter: enough for
    any language's accents, not for a stack drawn over the others' names."""
    run = 0
    for char in unicodedata.normalize("NFD", text):  # an accented letter counts its marks
        run = run + 1 if unicodedata.combining(char) or unicodedata.category(char) in (
            "Mn", "Me") else 0
        if run > MARKS_MAX:
            return True
    return False


def _nickname(name: str, value: object) -> object:
    if not isinstance(value, str) or len(value) > 4 * NICKNAME_MAX:
        raise ProtocolError("bad-nickname")
    # stripped, inner runs of white space as one space, accents composed where they can be
    nick = unicodedata.normalize("NFC", " ".join(value.split()))
    if (not 1 <= len(nick) <= NICKNAME_MAX or not nick.isprintable()
            or stacked_marks(nick)):
        raise ProtocolError("bad-nickname")
    return nick


def _seat(name: str, value: object) -> object:
    if not isinstance(value, str) or value not in {seat.name for seat in SEATS}:
        raise ProtocolError("bad-field", {"field": name})
    return SEATS["NESW".index(value)]


def _code(name: str, value: object) -> object:
    if not isinstance(value, str) or len(value) > CODE_INPUT_MAX:
        raise ProtocolError("bad-field", {"field": name})
    code = parse_code(value)  # spades_core.roomcode: the one format, the page's too
    if code is None:
        raise ProtocolError("no-such-room")
    return code


def _bool(name: str, value: object) -> object:
    if not isinstance(value, bool):
        raise ProtocolError("bad-option", {"option": name})
    return value


def _int_option(key: str, nullable: bool = False) -> Callable[[str, object], object]:
    low, high = BOUNDS[key]

    def check(name: str, value: object) -> object:
        if value is None and nullable:
            return None
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise ProtocolError("bad-option", {"option": name, "min": str(low), "max": str(high)})
        return value

    return check


def _takeover(name: str, value: object) -> object:
    low, high = TAKEOVER_BOUNDS
    if (
        isinstance(value, bool)
        or not isinstance(value, int | float)
        or not math.isfinite(value)
        or not low <= value <= high
    ):
        raise ProtocolError("bad-option", {"option": name, "min": str(low), "max": str(high)})
    return float(value)


def _bot_level(name: str, value: object) -> object:
    if not isinstance(value, str) or value not in LEVELS:
        raise ProtocolError("bad-option", {"option": name})
    return value


OPTIONS: dict[str, Field] = {
    "target": Field(_int_option("target")),
    "floor": Field(_int_option("floor", nullable=True)),
    "blind_nil": Field(_bool),
    "bot_level": Field(_bot_level),
    "hints": Field(_bool),
    "takeover_seconds": Field(_takeover),
}


def _options(name: str, value: object) -> object:
    if not isinstance(value, dict):
        raise ProtocolError("bad-field", {"field": name})
    return _checked_fields(value, OPTIONS, "bad-option", "option")


_ACTION_SEAT = Field(_seat)
SCHEMA: dict[str, dict[str, Field]] = {
    "create": {
        "nickname": Field(_nickname, required=True),
        "options": Field(_options),
        "seat": Field(_seat),
    },
    "join": {
        "code": Field(_code, required=True),
        "nickname": Field(_nickname, required=True),
        "seat": Field(_seat),
    },
    "resume": {"code": Field(_code, required=True), "token": Field(_string(TOKEN_MAX, 1), True)},
    "quick": {"nickname": Field(_nickname, required=True)},
    "start": {},
    "move": {"from": Field(_seat, required=True), "to": Field(_seat, required=True)},
    "look": {"seat": _ACTION_SEAT},
    "bid": {"bid": Field(_string(12, 1), required=True), "seat": _ACTION_SEAT},
    "play": {"card": Field(_string(4, 1), required=True), "seat": _ACTION_SEAT},
    "chat": {"phrase": Field(_string(40, 1), required=True)},
    "nudge": {},
    "ping": {},
    # revision 3: the end of a game, leaving, the host's seats, watching, a look before joining
    "rematch": {},
    "leave": {},
    "free": {"seat": Field(_seat, required=True)},
    "open": {"open": Field(_bool, required=True)},
    "watch": {"code": Field(_code, required=True)},
    "peek": {"code": Field(_code, required=True)},
    # revision 4: today's ranked deal (spades_server/ranked.py); ``player``: the browser's token
    "ranked": {
        "nickname": Field(_nickname, required=True),
        "level": Field(_bot_level, required=True),
        "player": Field(_string(TOKEN_MAX, 16), required=True),
    },
}


def _checked_fields(
    data: dict[Any, Any], fields: dict[str, Field], unknown: str, what: str
) -> dict[str, object]:
    checked: dict[str, object] = {}
    for key, value in data.items():
        spec = fields.get(key)
        if spec is None:
            name = key[:40] if isinstance(key, str) else "?"
            raise ProtocolError(unknown, {what: name})
        checked[key] = spec.check(key, value)
    for key, spec in fields.items():
        if spec.required and key not in checked:
            raise ProtocolError("missing-field", {"field": key})
    return checked


@dataclass(frozen=True, slots=True)
class Message:
    type: str
    fields: dict[str, object] = field(default_factory=dict)


def parse_message(text: str | bytes, max_size: int) -> Message:
    """A client frame as a checked :class:`Message`; raise :class:`ProtocolError`."""
    if len(text) > max_size:
        raise ProtocolError("too-large", {"limit": str(max_size)})
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise ProtocolError("bad-json") from None
    if not isinstance(data, dict):
        raise ProtocolError("bad-json")
    kind = data.pop("type", None)
    if not isinstance(kind, str) or kind not in SCHEMA:
        raise ProtocolError("unknown-type")
    try:
        return Message(kind, _checked_fields(data, SCHEMA[kind], "unknown-field", "field"))
    except ProtocolError as error:
        error.request = kind
        raise


# --- what is sent -------------------------------------------------------------------


def _pairs(pairs: tuple[tuple[Any, Any], ...]) -> list[list[str]]:
    return [[seat.name, str(card)] for seat, card in pairs]


def _past_hand(result: HandResult) -> dict[str, Any]:
    """A finished hand: every card was played, so its plays are public."""
    return {
        "hand_index": result.hand_index,
        "dealer": result.dealer.name,
        "bids": [str(bid) for bid in result.bids_by_seat],
        "plays": [str(card) for card in result.plays],
        "tricks": list(result.tricks),
        "points": [team.points for team in result.teams],
        "scores": list(result.scores),
        "bags": list(result.bags),
    }


def view_to_json(view: View, rules: dict[str, Any] | None = None) -> dict[str, Any]:
    """A seat's view as JSON data: its own hand (or null, before it has looked), the public
    history of the hand and the game, and its legal actions. Nothing else. ``rules``: the
    view's ``rules.to_dict()`` when the caller has it already."""
    return {
        "seat": view.seat.name,
        "rules": rules if rules is not None else view.rules.to_dict(),
        "phase": view.phase.value,
        "to_act": view.to_act.name if view.to_act is not None else None,
        "hand_index": view.hand_index,
        "dealer": view.dealer.name,
        "hand": [str(card) for card in view.hand] if view.hand is not None else None,
        "bids": [str(bid) if bid is not None else None for bid in view.bids],
        "plays": _pairs(view.plays),
        "trick": _pairs(view.trick),
        "leader": view.leader.name if view.leader is not None else None,
        "tricks_won": list(view.tricks_won),
        "spades_broken": view.spades_broken,
        "scores": list(view.scores),
        "bags": list(view.bags),
        "past_hands": [_past_hand(result) for result in view.past_hands],
        "legal_plays": [str(card) for card in view.legal_plays],
        "legal_bids": [str(bid) for bid in view.legal_bids],
    }


def watcher_json(view: View, rules: dict[str, Any] | None = None) -> dict[str, Any]:
    """What a spectator sees: ``view`` (a seat's, its hand hidden) with no hand and no legal
    action, so no card that has not been played."""
    data = view_to_json(view, rules)
    data["hand"] = None
    data["legal_plays"] = []
    data["legal_bids"] = []
    return data


def frame(kind: str, **fields: Any) -> str:
    """A server message as its JSON text."""
    return json.dumps({"type": kind, **fields}, separators=(",", ":"), ensure_ascii=False)


__all__ = [
    "CODE_ALPHABET", "CODE_LENGTH", "PROTOCOL", "SCHEMA", "Message", "ProtocolError", "frame",
    "parse_code", "parse_message", "view_to_json", "watcher_json",
]
