"""A room's change between server processes (a shared backend, :mod:`.backend`).

The process that changes a room publishes an event; each other process that holds the
revision before makes the same change from it (:func:`follow`) instead of reading the room
back from Redis or replaying its record: the event carries the settings and seats and the
actions applied, with the cards dealt after them (:func:`change_of`). Where it cannot (a new
game, a revision missed), the room is read back. The actions are applied with
``GameState.apply``: the engine decides, as at the process that took them.
"""

from __future__ import annotations

from typing import Any, Protocol

from spades_core.bids import Bid, parse_bid
from spades_core.cards import Card, parse_card
from spades_core.errors import SpadesError
from spades_core.game import GameState, Phase
from spades_core.seats import SEATS, Seat

from .store import StoredRoom

# An action applied in a change: (state before, seat, action, cards dealt after it, state after)
Step = tuple[GameState, Seat, "Card | Bid", "tuple[int, int, int, int] | None", GameState]


class ChangedRoom(Protocol):
    """What a change's event reads and makes of a room (``rooms.Room``)."""

    state: GameState | None
    steps: list[Step]  # the actions applied in the change now on

    def take(self, meta: dict[str, Any], state: GameState | None, status: str, public: bool,
             rev: int) -> None: ...


def change_of(room: ChangedRoom, stored: StoredRoom, before: GameState | None) -> dict[str, Any]:
    """What another process that holds the revision before needs to make this one
    without reading the room back from Redis nor replaying its record: the settings and
    seats, and the actions applied (with the cards dealt after them). None of the
    actions when the game was replaced (a start, a rematch): it reads the room then."""
    change: dict[str, Any] = {"meta": stored.meta, "status": stored.status,
                              "public": stored.public}
    steps = []
    state = before
    for prior, seat, action, cards, after in room.steps:
        if prior is not state:
            return change
        steps.append([seat.name, "bid" if isinstance(action, Bid) else "card", str(action),
                      list(cards) if cards is not None else None])
        state = after
    if state is room.state:
        change["steps"] = steps
    return change


def follow(room: ChangedRoom, event: dict[str, Any]) -> bool:
    """Make the change of ``event`` (revision ``room.rev + 1``) from the room held, as
    its process did; False when the event does not say how (then read the room)."""
    steps = event.get("steps")
    if not isinstance(steps, list) or not isinstance(event.get("meta"), dict):
        return False
    state = room.state
    try:
        for seat_name, kind, text, cards in steps:
            if state is None:
                return False
            action: Card | Bid = parse_bid(text) if kind == "bid" else parse_card(text)
            state = state.apply(action, SEATS["NESW".index(seat_name)])
            if state.phase is Phase.DEALING:
                if cards is None:
                    return False
                state = state.deal_cards(tuple(cards))
        room.take(event["meta"], state, str(event["status"]), bool(event["public"]),
                  int(event["rev"]))
    except (SpadesError, ValueError, TypeError, KeyError):
        return False
    return True
