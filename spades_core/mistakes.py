""""Your mistakes": the learner's own costly decisions, practised again on a spaced schedule.

Pure logic, no storage and no text (docs/progress.md, "Your mistakes"):

- :func:`items_from_review` (:func:`items_from_data` for ``review_to_dict``'s data): every
  decision of a review that is a mistake or a blunder (:func:`spades_core.judge.classify`)
  becomes an :class:`Item`: the exact position South saw (a :class:`Position`: the hand's
  deal, index, scores and bags before it, the rules, the actions before the decision), what
  was played, the better action, the reason (catalogue keys and their parameters, no text),
  the tip, the cost and the skill;
- the **Leitner schedule**: an item starts in box 1, due the day after it was made; a
  right answer moves it up a box (due again after :data:`INTERVALS` days of its new box), a
  wrong one back to box 1 (due the next day); a right answer in the last box retires it
  (``box`` :data:`RETIRED`, never due again);
- :func:`is_right`: an answer is right when it is the best action found or loses nothing
  worth calling an error (``best`` or ``good``: within the noise of the best counts);
  :func:`judge_steps` prices an answer in a stored position with the review's own measure
  (:func:`spades_core.review.weigh`);
- :func:`daily_round`: the items due on a day, at most :data:`ROUND`, the longest overdue
  first, then the lowest box, then the costliest;
- :func:`merge`: new items into a deck, one per position (the same decision again replaces
  nothing), the deck bounded by :data:`MAX_ITEMS` (the retired, then the oldest, go first).

Days are whole numbers (days since 1970-01-01 in the page's time zone): the schedule is a
pure function of the answers and their days.
"""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass, replace
from typing import Any

from .bids import Bid, parse_bid
from .cards import Card, parse_card
from .errors import RecordError
from .game import GameState, Phase
from .judge import ERRORS, classify
from .review import Review, hand_states, review_to_dict, weigh
from .rules import DEFAULT_RULES, Rules
from .seats import Seat
from .views import view_for

__all__ = [
    "INTERVALS", "MAX_ITEMS", "RETIRED", "ROUND", "Item", "Position", "answer", "daily_round",
    "is_right", "items_from_data", "items_from_review", "judge_steps", "merge",
    "position_from_dict", "position_of", "position_to_dict", "read_position", "state_at",
]

INTERVALS = (1, 2, 4, 8, 16)  # days before an item of box 1, 2, ... is due again
RETIRED = len(INTERVALS) + 1  # the box of an item answered right in the last box
ROUND = 5  # items in a daily round
MAX_ITEMS = 100  # items kept in a deck
MAX_SCORE = 100_000  # a stored position's scores, either sign (no real game goes near)
MAX_BAGS = 1000
MAX_HAND = 2000  # a stored position's hand index (record.MAX_HANDS)
MAX_ACTIONS = 55  # the actions of a hand before its last decision


@dataclass(frozen=True, slots=True)
class Position:
    """What South saw before a decision, as the game had it: replayed by :func:`state_at`."""

    rules: tuple[tuple[str, Any], ...]  # the rules that differ from the default ones
    hand_index: int  # 0 for the game's first hand (the dealer follows from it)
    scores: tuple[int, int]  # before the hand
    bags: tuple[int, int]
    cards: tuple[int, int, int, int]  # the hand as dealt, masks by seat
    actions: tuple[str, ...]  # the hand's bids and cards before the decision, in order


@dataclass(frozen=True, slots=True)
class Item:
    """One costly decision to practise again."""

    key: str  # the position's identity: the game's fingerprint, hand and decision index
    position: Position
    action_index: int  # bids 0-3, then plays 4-55: the position is the state before it
    played: str  # the action played (a card or bid text)
    better: str  # the best action found
    reason: str  # the review's sentence key (``review.why.*``)
    params: tuple[tuple[str, str], ...] = ()  # the sentences' parameters
    support: str = ""  # the review's supporting clause key, or ""
    contrast: str = ""  # the review's "not the X" clause key, or ""
    tip: str = ""  # the tip whose lesson fits
    cost: int = 0  # tenths of a point
    skill: str = ""  # judge.SKILLS
    kind: str = "mistake"  # "mistake" or "blunder"
    box: int = 1
    due: int = 0  # the day it is due
    made: int = 0  # the day it was made

    @property
    def hand_index(self) -> int:
        return self.position.hand_index


# --- the position -------------------------------------------------------------------------


def position_of(game: GameState, hand_index: int, action_index: int) -> Position | None:
    """The position before decision ``action_index`` (bids 0-3, plays 4-55) of the finished
    hand ``hand_index`` of ``game``; None when it cannot be stored so (a lesson's position
    that is not a whole deal): :func:`state_at` of it shows South what the game showed."""
    try:
        states = hand_states(game, hand_index)
    except ValueError:  # not a finished hand of the game
        return None
    if not 0 <= action_index < len(states):
        return None
    result = game.past_hands[hand_index]
    start = states[0]
    actions: tuple[Card | Bid, ...] = (*result.bid_history, *result.plays)
    rules = DEFAULT_RULES.to_dict()
    position = Position(
        tuple(sorted((k, v) for k, v in game.rules.to_dict().items() if rules.get(k) != v)),
        hand_index, start.scores, start.bags, result.dealt_masks,
        tuple(str(action) for action in actions[:action_index]))
    try:
        again = view_for(state_at(position), Seat.S)
    except (ValueError, TypeError):
        return None
    seen = view_for(states[action_index], Seat.S)
    if replace(seen, past_hands=again.past_hands) != again:  # only the past is not kept
        return None
    return position


def state_at(position: Position) -> GameState:
    """The game's state at ``position`` (South to act); raise RecordError (a ValueError)
    when it is not a legal position of South's."""
    state = GameState.at_hand(Rules.from_dict(dict(position.rules)), position.cards,
                              position.hand_index, position.scores, position.bags)
    for token in position.actions:
        action: Card | Bid = (parse_bid(token) if state.phase is Phase.BIDDING
                              else parse_card(token))
        state = state.apply(action)
    if state.to_act is not Seat.S:
        raise RecordError("not South's decision")
    return state


def position_to_dict(position: Position) -> dict[str, Any]:
    return {"rules": dict(position.rules), "hand": position.hand_index,
            "scores": list(position.scores), "bags": list(position.bags),
            "cards": list(position.cards), "acts": list(position.actions)}


def _int(value: object, low: int, high: int) -> int:
    if type(value) is not int or not low <= value <= high:
        raise RecordError("a number out of range")
    return value


def _pair(value: object, low: int, high: int) -> tuple[int, int]:
    if not isinstance(value, list) or len(value) != 2:
        raise RecordError("not a pair")
    return (_int(value[0], low, high), _int(value[1], low, high))


def read_position(data: object) -> tuple[Position, GameState]:
    """A stored position, checked (bounded numbers, a legal position of South's: it is
    replayed), and its state; raise RecordError (a ValueError)."""
    if not isinstance(data, dict) or set(data) != {"rules", "hand", "scores", "bags", "cards",
                                                    "acts"}:
        raise RecordError("not a position")
    rules, cards, acts = data["rules"], data["cards"], data["acts"]
    if not isinstance(rules, dict) or len(rules) > 32:
        raise RecordError("rules")
    Rules.from_dict(rules)
    if not (isinstance(cards, list) and len(cards) == 4):
        raise RecordError("cards")
    if not (isinstance(acts, list) and len(acts) <= MAX_ACTIONS
            and all(isinstance(a, str) and 0 < len(a) <= 8 for a in acts)):
        raise RecordError("actions")
    masks = tuple(_int(mask, 0, (1 << 64) - 1) for mask in cards)
    position = Position(
        tuple(sorted(rules.items())), _int(data["hand"], 0, MAX_HAND),
        _pair(data["scores"], -MAX_SCORE, MAX_SCORE), _pair(data["bags"], 0, MAX_BAGS),
        (masks[0], masks[1], masks[2], masks[3]), tuple(acts))
    return position, state_at(position)


def position_from_dict(data: object) -> Position:
    """:func:`read_position`'s position."""
    return read_position(data)[0]


# --- the items ----------------------------------------------------------------------------


def items_from_data(data: dict[str, Any], game: GameState, game_key: str,
                    day: int) -> list[Item]:
    """The review's mistakes and blunders (``review_to_dict``'s data of a hand of ``game``)
    as new items (box 1, due the next day).  Only the review's items (the costliest
    decisions, at most ``review.MAX_ITEMS``) have a better action and a reason: each of
    them that is a mistake or a blunder becomes an item; the skill is the judged entry's.
    A position that cannot be stored (:func:`position_of`) gives no item."""
    skills = {int(entry[0]): str(entry[1]) for entry in data.get("judged", [])}
    found = []
    for item in data.get("items", []):
        kind = classify(False, int(item["cost"]), True)  # an item is clear of the noise
        if kind not in ("mistake", "blunder"):
            continue
        hand, index = int(item["hand"]), int(item["index"])
        position = position_of(game, hand, index)
        if position is None:
            continue
        found.append(Item(
            key=f"{game_key}:{hand}:{index}", position=position, action_index=index,
            played=str(item["played"]), better=str(item["better"]),
            reason=str(item["reason"]),
            params=tuple(sorted((str(k), str(v)) for k, v in dict(item["params"]).items())),
            support=str(item.get("support", "")), contrast=str(item.get("contrast", "")),
            tip=str(item["tip"]), cost=int(item["cost"]), skill=skills.get(index, ""),
            kind=kind, box=1, due=day + INTERVALS[0], made=day))
    return found


def items_from_review(review: Review, game: GameState, game_key: str, day: int) -> list[Item]:
    """:func:`items_from_data` of a :class:`~.review.Review` of a hand of ``game``."""
    return items_from_data(review_to_dict(review), game, game_key, day)


def judge_steps(position: Position, token: str) -> Generator[None, None, dict[str, Any]]:
    """South's answer ``token`` (a card or bid text) in ``position``, priced as the review
    prices a decision (:func:`spades_core.review.weigh`: the Expert's choice, both played
    out in the same deals), in steps: ``{"right", "best", "cost", "se", "clear"}`` (``best``:
    the better action found, the answer itself when it is that or plays alike)."""
    state = state_at(position)
    view = view_for(state, Seat.S)
    action: Card | Bid = parse_bid(token) if state.phase is Phase.BIDDING else parse_card(token)
    legal = view.legal_bids if state.phase is Phase.BIDDING else view.legal_plays
    if action not in legal:
        raise RecordError(f"{token} is not a legal answer here")
    yield
    weighed = weigh(view, action)
    yield
    if weighed is None:
        return {"right": True, "best": str(action), "cost": 0, "se": 0, "clear": False}
    better, _evaluation, found = weighed
    return {"right": is_right(False, found.cost, found.clear), "best": str(better),
            "cost": found.cost, "se": found.se, "clear": found.clear}
def is_right(best: bool, cost: int, clear: bool) -> bool:
    """An answer priced against the best action found (as the review prices a decision):
    right unless it is an error (within the noise of the best is right)."""
    return classify(best, cost, clear) not in ERRORS


def answer(item: Item, right: bool, day: int) -> Item:
    """The item after an answer on ``day``: up a box (retired after the last) or back to
    box 1, due again after its box's interval."""
    if item.box >= RETIRED:
        return item
    if not right:
        return replace(item, box=1, due=day + INTERVALS[0])
    box = item.box + 1
    if box >= RETIRED:
        return replace(item, box=RETIRED, due=day)
    return replace(item, box=box, due=day + INTERVALS[box - 1])


def daily_round(deck: list[Item], day: int, size: int = ROUND) -> list[Item]:
    """The items due on ``day`` (at most ``size``): the longest overdue first, then the
    lowest box, then the costliest, then the oldest."""
    due = [item for item in deck if item.box < RETIRED and item.due <= day]
    due.sort(key=lambda item: (item.due, item.box, -item.cost, item.made, item.key))
    return due[:size]


def merge(deck: list[Item], new: list[Item], limit: int = MAX_ITEMS) -> list[Item]:
    """``new`` items added to ``deck`` (an item whose key is there already is left out),
    then, over ``limit``, the retired items and then the oldest made go first."""
    keys = {item.key for item in deck}
    found = [*deck, *(item for item in new if item.key not in keys)]
    while len(found) > limit:
        retired = [item for item in found if item.box >= RETIRED]
        victim = min(retired or found, key=lambda item: (item.made, item.key))
        found.remove(victim)
    return found
