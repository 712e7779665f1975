""""Your mistakes": the learner's own costly decisions, practised again on a spaced schedule.

Pure logic, no storage and no text (docs/progress.md, "Your mistakes"):

- :func:`items_from_review`: every decision of a review that is a mistake or a blunder
  (:func:`spades_core.judge.classify`) becomes an :class:`Item`: where it was (the game's
  record before the hand, the hand, the decision's index), what was played, the better
  action, the reason's key and tip, the cost and the skill;
- the **Leitner schedule**: an item starts in box 1, due the day after it was made; a
  right answer moves it up a box (due again after :data:`INTERVALS` days of its new box), a
  wrong one back to box 1 (due the next day); a right answer in the last box retires it
  (``box`` :data:`RETIRED`, never due again);
- :func:`is_right`: an answer is right when it is the best action found or loses nothing
  worth calling an error (``best`` or ``good``: within the noise of the best counts);
- :func:`daily_round`: the items due on a day, at most :data:`ROUND`, the longest overdue
  first, then the lowest box, then the costliest;
- :func:`merge`: new items into a deck, one per position (the same decision again replaces
  nothing), the deck bounded by :data:`MAX_ITEMS` (the retired, then the oldest, go first).

Days are whole numbers (days since 1970-01-01 in the page's time zone): the schedule is a
pure function of the answers and their days.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from .judge import ERRORS, classify
from .review import Review

__all__ = [
    "INTERVALS", "MAX_ITEMS", "RETIRED", "ROUND", "Item", "answer", "daily_round",
    "is_right", "items_from_review", "merge",
]

INTERVALS = (1, 2, 4, 8, 16)  # days before an item of box 1, 2, ... is due again
RETIRED = len(INTERVALS) + 1  # the box of an item answered right in the last box
ROUND = 5  # items in a daily round
MAX_ITEMS = 100  # items kept in a deck


@dataclass(frozen=True, slots=True)
class Item:
    """One costly decision to practise again."""

    key: str  # the position's identity: the game's fingerprint, hand and decision index
    record: str  # the game's record (``record.dumps``) up to the end of the hand
    hand_index: int
    action_index: int  # bids 0-3, then plays 4-55: the position is the state before it
    played: str  # the action played (a card or bid text)
    better: str  # the best action found
    reason: str  # the review's sentence key (``review.why.*``)
    tip: str  # the tip whose lesson fits
    cost: int  # tenths of a point
    skill: str  # judge.SKILLS
    kind: str  # "mistake" or "blunder"
    box: int = 1
    due: int = 0  # the day it is due
    made: int = 0  # the day it was made


def items_from_review(review: Review, record_text: str, game_key: str, day: int) -> list[Item]:
    """The review's mistakes and blunders as new items (box 1, due the next day).  Only
    the review's items (the costliest decisions, at most ``MAX_ITEMS`` of the review) have
    a better action and a reason: each of them that is a mistake or a blunder becomes an
    item; the skill is the judged entry's."""
    skills = {weighed.action_index: weighed.skill for weighed in review.judged}
    found = []
    for item in review.items:
        kind = classify(False, item.cost, True)  # an item is clear of the noise
        if kind not in ("mistake", "blunder"):
            continue
        found.append(Item(
            key=f"{game_key}:{item.hand_index}:{item.action_index}", record=record_text,
            hand_index=item.hand_index, action_index=item.action_index,
            played=str(item.played), better=str(item.better), reason=item.reason,
            tip=item.tip, cost=item.cost, skill=skills.get(item.action_index, ""),
            kind=kind, box=1, due=day + INTERVALS[0], made=day))
    return found


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
