"""The coach's reasons: the scoring part a choice moves, said as the learner's reason.

The review (:mod:`.review`) and the hint (:mod:`.hints`) price two actions on the same
imagined deals (:func:`.pricing.confirmed_price`) and split the difference into the scoring
parts of :data:`~.pricing.PARTS`; the largest part chooses the sentence.  The review speaks
of a hand that was played (its sentences, in :mod:`.review`, use how it ended); the hint of
a decision still to make: :func:`hint_why` gives its main sentence, from the position alone.

:data:`PART_TIPS` says which tips (their lessons) fit each part: a hint's or a review item's
own sentence is kept beside the part's only where its tip is one of them, and the lesson it
links is then that tip's (else the part's own, the first).

Pure: keys and parameters only (the sentences are in ``locales/*/coach.json``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .bids import Bid
from .cards import CARD_TEXT, Card
from .pricing import PARTS, Price
from .seats import SEATS
from .views import View

__all__ = ["HINT_WHYS", "HINT_WHY_KEYS", "PART_TIPS", "Why", "hint_why"]

#: The tips (their lessons) that fit each part: an item's tip is the hint's for the better
#: action when it is one of these (its sentence then supports the main one), else the part's
#: own (the first; a Nil's is the Nil bidder's).
PART_TIPS: dict[str, tuple[str, ...]] = {
    "our-contract": ("count-cards", "count-sure-tricks", "cash-aces-early", "count-spades",
                     "read-the-table", "last-trick", "dont-trump-partner", "trump-wisely"),
    "our-bags": ("bags-cost", "duck-when-made"),
    "our-nil": ("nil-hand", "cover-partner-nil"),
    "their-contract": ("count-cards", "count-sure-tricks", "cash-aces-early", "count-spades",
                       "read-the-table", "last-trick", "trump-wisely"),
    "their-bags": ("bags-cost", "duck-when-made"),
    "their-nil": ("attack-nil",),
}


@dataclass(frozen=True, slots=True)
class Why:
    """A main sentence (a key of ``coach.json``), its parameters, and the tip whose lesson
    it links."""

    key: str
    tip: str
    params: dict[str, str] = field(default_factory=dict, hash=False)


_CARDS = ("card", "alt")
_BAGS = ("limit", "penalty")
_BIDS = ("bid", "alt_bid")

#: Each of the hint's main sentences (``coach.why.*``): the part it names (it is chosen by
#: that part, so an audit reads the part back from the key) and its parameters.
HINT_WHYS: dict[str, tuple[str, tuple[str, ...]]] = {
    "coach.why.need-us": ("our-contract", (*_CARDS, "contract", "short")),
    "coach.why.our-contract": ("our-contract", (*_CARDS, "contract")),
    "coach.why.bag-made": ("our-bags", (*_CARDS, "taken", "contract", *_BAGS)),
    "coach.why.bags": ("our-bags", (*_CARDS, "contract", *_BAGS)),
    "coach.why.my-nil": ("our-nil", (*_CARDS, "value")),
    "coach.why.partner-nil": ("our-nil", (*_CARDS, "value")),
    "coach.why.our-nil": ("our-nil", _CARDS),
    "coach.why.their-contract": ("their-contract", (*_CARDS, "contract")),
    "coach.why.their-bags": ("their-bags", (*_CARDS, "contract", *_BAGS)),
    "coach.why.their-nil": ("their-nil", (*_CARDS, "nil_seat", "value")),
    "coach.why.their-nils": ("their-nil", _CARDS),
    "coach.why.bid-higher": ("our-contract", _BIDS),
    "coach.why.bid-lower": ("our-contract", _BIDS),
    "coach.why.bid-bags": ("our-bags", _BIDS),
    "coach.why.bid-cover": ("our-nil", _BIDS),
    **{f"coach.why.bid.{part}": (part, _BIDS) for part in PARTS},
}

#: Every main sentence a hint may have (``hints.json``, both languages).
HINT_WHY_KEYS = tuple(HINT_WHYS)


def _contract(view: View, team: int) -> int:
    return sum(bid.tricks for bid in (view.bids[team], view.bids[team + 2]) if bid is not None)


def _nil_alive(view: View, seat: int) -> bool:
    bid = view.bids[seat]
    return bid is not None and bid.is_nil and view.tricks_won[seat] == 0


def _card_why(view: View, better: Card, other: Card, part: str) -> Why:
    seat = int(view.seat)
    team, partner = seat & 1, (seat + 2) & 3
    rules = view.rules
    ours, theirs = _contract(view, team), _contract(view, 1 - team)
    taken = view.tricks_won[team] + view.tricks_won[team + 2]
    both = {"card": CARD_TEXT[better.id], "alt": CARD_TEXT[other.id]}
    bags = {"limit": str(rules.bag_limit), "penalty": str(rules.bag_penalty)}
    if part == "our-contract":
        if taken < ours:
            return Why("coach.why.need-us", "count-cards",
                       {**both, "contract": str(ours), "short": str(ours - taken)})
        return Why("coach.why.our-contract", "count-cards", {**both, "contract": str(ours)})
    if part == "our-bags":
        if 0 < ours <= taken:
            return Why("coach.why.bag-made", "duck-when-made",
                       {**both, "taken": str(taken), "contract": str(ours), **bags})
        return Why("coach.why.bags", "bags-cost", {**both, "contract": str(ours), **bags})
    if part == "our-nil":
        value = {"value": str(rules.nil_value)}
        if _nil_alive(view, seat):
            return Why("coach.why.my-nil", "nil-hand", {**both, **value})
        if _nil_alive(view, partner):
            return Why("coach.why.partner-nil", "cover-partner-nil", {**both, **value})
        return Why("coach.why.our-nil", "nil-hand", both)
    if part == "their-contract":
        return Why("coach.why.their-contract", "count-cards", {**both, "contract": str(theirs)})
    if part == "their-bags":
        return Why("coach.why.their-bags", "bags-cost", {**both, "contract": str(theirs), **bags})
    alive = [s for s in ((seat + 1) & 3, (seat + 3) & 3) if _nil_alive(view, s)]
    if len(alive) == 1:
        return Why("coach.why.their-nil", "attack-nil",
                   {**both, "nil_seat": SEATS[alive[0]].name, "value": str(rules.nil_value)})
    return Why("coach.why.their-nils", "attack-nil", both)


def _bid_why(view: View, better: Bid, other: Bid, part: str) -> Why:
    seat = int(view.seat)
    partner_bid = view.bids[(seat + 2) & 3]
    both = {"bid": str(better), "alt_bid": str(other)}
    numbers = not better.is_nil and not other.is_nil
    if part == "our-contract" and numbers:
        key = "coach.why.bid-higher" if better.tricks > other.tricks else "coach.why.bid-lower"
        return Why(key, "count-sure-tricks", both)
    if part == "our-bags" and numbers and better.tricks > other.tricks:
        return Why("coach.why.bid-bags", "bags-cost", both)
    if part == "our-nil" and partner_bid is not None and partner_bid.is_nil and numbers:
        return Why("coach.why.bid-cover", "cover-partner-nil", both)
    return Why(f"coach.why.bid.{part}", PART_TIPS[part][0], both)


def hint_why(view: View, better: Card | Bid, other: Card | Bid, found: Price) -> Why:
    """The hint's main sentence for choosing ``better`` over ``other`` in ``view``, whose
    seat is to act: the sentence of the largest part of ``found`` (``better`` against
    ``other`` priced on the review's deals, its ``cost`` clear of their noise), with the
    facts of the position that make it true."""
    part = found.parts.largest()
    if isinstance(better, Bid) and isinstance(other, Bid):
        return _bid_why(view, better, other, part)
    assert isinstance(better, Card) and isinstance(other, Card)
    return _card_why(view, better, other, part)
