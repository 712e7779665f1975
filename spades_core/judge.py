"""Every decision judged: its class, its skill, and a hand's and a game's accuracy.

The review (:mod:`.review`) weighs each of a seat's decisions in a finished hand: the
Expert's search names the best action it finds, and where that differs from the one played
both are played out in the same imagined deals and priced in points (a cost in tenths of a
point, its standard error, and whether it is clear of the noise).  This module says what
that means for the learner (docs/progress.md):

- :func:`classify`: a decision's class by the points it lost against the best action found:
  ``best`` (the best action found, or one that plays alike), ``good`` (it lost less than
  :data:`INACCURACY` points, or a difference within the noise), ``inaccuracy`` (from 2
  points), ``mistake`` (from 5 points: every decision the review flags), ``blunder`` (from
  25 points).  A cost within the noise (not :data:`~.review.NOISE_Z` standard errors clear of
  zero) is never an error, whatever its size;
- :func:`skill_of`: the skill a decision exercises, from what the seat saw then (the view)
  and the action: one of :data:`SKILLS`;
- :func:`summarise`: a hand's (or a game's) accuracy: the decisions weighed, the share that
  lost nothing (``best`` or ``good``), the points lost (the clear costs added up), by class
  and by skill.

Pure and without text (keys only); standard library only.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .bids import Bid
from .cards import Card, Suit
from .views import View

__all__ = [
    "BLUNDER", "CLASSES", "ERRORS", "INACCURACY", "MISTAKE", "SKILLS", "SKILL_TIPS", "Summary",
    "classify", "lost", "skill_of", "summarise",
]

# Thresholds in tenths of a point (the review's unit).
INACCURACY = 20  # 2 points
MISTAKE = 50  # 5 points: the review's MIN_COST, so every flagged item is a mistake or worse
BLUNDER = 250  # 25 points: more than two bags' cost, about a contract of two set

CLASSES = ("best", "good", "inaccuracy", "mistake", "blunder")
ERRORS = ("inaccuracy", "mistake", "blunder")

#: The skills, in the order the Progress screen lists them (see :func:`skill_of`).
SKILLS = ("bidding", "nil", "lead", "second", "third", "discard", "trump", "bags")

#: The tip (its lesson) that teaches each skill: the Progress screen links the weakest.
SKILL_TIPS = {
    "bidding": "count-sure-tricks", "nil": "nil-hand", "lead": "cash-aces-early",
    "second": "second-hand-low", "third": "third-hand-high", "discard": "count-cards",
    "trump": "trump-wisely", "bags": "bags-cost",
}


def classify(best: bool, cost: int, clear: bool) -> str:
    """The class of a decision: ``best`` when the action played is the best found (or plays
    alike); else by its ``cost`` (tenths of a point) when it is ``clear`` of the noise, and
    ``good`` when it is not (within the noise is never an error)."""
    if best:
        return "best"
    if not clear or cost < INACCURACY:
        return "good"
    if cost < MISTAKE:
        return "inaccuracy"
    if cost < BLUNDER:
        return "mistake"
    return "blunder"


def lost(best: bool, cost: int, clear: bool) -> int:
    """The points a decision lost, in tenths: its cost when it is clear of the noise, else
    0 (the best action found, or a difference the play-outs cannot tell from chance)."""
    return cost if (not best and clear and cost > 0) else 0


def _nil_alive(view: View, seat: int) -> bool:
    bid = view.bids[seat]
    return bid is not None and bid.is_nil and view.tricks_won[seat] == 0


def skill_of(view: View, action: Card | Bid) -> str:
    """The skill a decision exercises, from the seat's view before it and the action.

    - a bid: ``nil`` when it is a Nil or partner has bid Nil (covering), else ``bidding``;
    - a card, the first that holds: ``nil`` while the seat's own or partner's Nil is alive
      (bid, no trick taken yet); ``bags`` once the team's contract is made (its tricks at
      least the two bids, a contract above 0): every card is then about bags; ``lead``
      when the seat opens the trick; ``second`` when it follows suit before partner has
      played to the trick (second to play); ``third`` when it follows suit after partner
      (third or last to play); ``trump`` when it plays a spade on another suit led; else
      ``discard`` (a card of another suit than the one led)."""
    seat = int(view.seat)
    team, partner = seat & 1, (seat + 2) & 3
    if isinstance(action, Bid):
        partner_bid = view.bids[partner]
        if action.is_nil or (partner_bid is not None and partner_bid.is_nil):
            return "nil"
        return "bidding"
    if _nil_alive(view, seat) or _nil_alive(view, partner):
        return "nil"
    contract = sum(bid.tricks for bid in (view.bids[team], view.bids[team + 2])
                   if bid is not None)
    taken = view.tricks_won[team] + view.tricks_won[team + 2]
    if 0 < contract <= taken:
        return "bags"
    if not view.trick:
        return "lead"
    if action.suit == view.led_suit:
        return "second" if len(view.trick) == 1 else "third"
    if action.suit == Suit.SPADES:
        return "trump"
    return "discard"


@dataclass(frozen=True, slots=True)
class Summary:
    """Decisions judged, added up (a hand's, a game's): ``decisions`` weighed, ``sound``
    of them lost nothing (``best`` or ``good``), ``lost`` points in tenths; ``classes`` by
    :data:`CLASSES`; ``skills``: for each skill of :data:`SKILLS`, ``(decisions, sound,
    lost)``."""

    decisions: int = 0
    sound: int = 0
    lost: int = 0
    classes: tuple[int, int, int, int, int] = (0, 0, 0, 0, 0)
    skills: tuple[tuple[int, int, int], ...] = tuple((0, 0, 0) for _ in SKILLS)

    @property
    def accuracy(self) -> int | None:
        """The share of decisions that lost nothing, in whole percent (None: none
        weighed), rounded down so that 100 means no error at all."""
        return None if not self.decisions else 100 * self.sound // self.decisions

    def plus(self, other: Summary) -> Summary:
        return Summary(
            self.decisions + other.decisions, self.sound + other.sound, self.lost + other.lost,
            tuple(a + b for a, b in zip(self.classes, other.classes, strict=True)),  # type: ignore[arg-type]
            tuple((a[0] + b[0], a[1] + b[1], a[2] + b[2])
                  for a, b in zip(self.skills, other.skills, strict=True)),
        )


def summarise(judged: Iterable[tuple[str, bool, int, bool]]) -> Summary:
    """The summary of decisions given as ``(skill, best, cost, clear)``."""
    decisions = sound = total = 0
    classes = [0] * len(CLASSES)
    skills = [[0, 0, 0] for _ in SKILLS]
    for skill, best, cost, clear in judged:
        kind = classify(best, cost, clear)
        points = lost(best, cost, clear)
        ok = kind not in ERRORS
        decisions += 1
        sound += ok
        total += points
        classes[CLASSES.index(kind)] += 1
        row = skills[SKILLS.index(skill)]
        row[0] += 1
        row[1] += ok
        row[2] += points
    return Summary(decisions, sound, total,
                   (classes[0], classes[1], classes[2], classes[3], classes[4]),
                   tuple((row[0], row[1], row[2]) for row in skills))
