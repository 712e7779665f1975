"""The Normal bot: STRATEGY.md as rules (see :mod:`.strategy`), no search.

Each decision comes from :func:`.strategy.decide_bid` / :func:`.strategy.decide_play`,
the same functions the hints explain, so the bot and the hint never disagree.
"""

from __future__ import annotations

from ..bids import Bid
from ..cards import Card
from ..errors import UsageError
from ..views import View
from .strategy import decide_bid, decide_blind_nil, decide_play


class NormalBot:
    """Counts sure tricks to bid, reads the table, bids Nil with a Nil hand, covers and
    attacks Nils, follows the play conventions and avoids bags once the contract is made."""

    name = "normal"

    def blind_nil(self, view: View) -> bool:
        return decide_blind_nil(view).action is not None

    def bid(self, view: View) -> Bid:
        action = decide_bid(view).action
        if not isinstance(action, Bid):
            raise UsageError("the Normal bot bids only after looking at its cards")
        return action

    def play(self, view: View) -> Card:
        action = decide_play(view).action
        if not isinstance(action, Card):
            raise UsageError("no card to play in this view")
        return action
