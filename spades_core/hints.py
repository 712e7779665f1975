"""Hints: the Normal bot's decision for the seat to act, with the tip behind it.

``hint(view)`` returns a :class:`Hint`: the suggested action (a :class:`~.bids.Bid` or a
:class:`~.cards.Card`), the STRATEGY.md tip key, and a reason key with string parameters,
for the text catalogues ``ui/locales/{en,fr}/hints.json``.  Parameters: ``card`` and
``winner`` are card texts (``"AH"``), ``suit`` a suit key (``"hearts"``), ``seat`` a seat
letter, the rest decimal numbers.

Before the seat has looked at its cards (``view.hand is None``, when Blind Nil is
offered), the action is Blind Nil or None, meaning "look at your cards first".
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .bids import Bid
from .bots.strategy import REASONS, TIPS, Decision, decide_bid, decide_play
from .cards import Card
from .game import Phase
from .views import View

__all__ = ["REASONS", "TIPS", "Hint", "hint"]


@dataclass(frozen=True, slots=True)
class Hint:
    action: Card | Bid | None
    tip: str  # a STRATEGY.md tip key, e.g. "cash-aces-early"
    reason: str  # a reason key, e.g. "play.cash-ace"
    params: dict[str, str] = field(default_factory=dict, hash=False)

    @classmethod
    def of(cls, decision: Decision) -> Hint:
        return cls(decision.action, decision.tip, decision.key, dict(decision.params))


def hint(view: View) -> Hint:
    """The suggestion for ``view``, whose seat must act (bid or play)."""
    if not view.my_turn:
        raise ValueError(f"{view.seat} is not to act")
    if view.phase is Phase.BIDDING:
        return Hint.of(decide_bid(view))
    if view.phase is Phase.PLAYING:
        return Hint.of(decide_play(view))
    raise ValueError("nothing to decide in this phase")
