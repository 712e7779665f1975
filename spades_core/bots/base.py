"""The Bot protocol: bots see views only, never the full state.

A bot is deterministic: the same view gives the same decision on any machine and in
Pyodide.  Any randomness comes from :func:`view_seed`, a seed mixed from the view's
contents with SplitMix64 (never Python's ``hash`` of a string, never the clock).
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from ..bids import Bid
from ..cards import Card
from ..deal import SplitMix64
from ..views import View


@runtime_checkable
class Bot(Protocol):
    """What every bot level (and an outside bot for the arena) provides."""

    def blind_nil(self, view: View) -> bool:
        """Asked before the bot looks at its cards (``view.hand`` is None), only when the
        rules allow Blind Nil: True bids Blind Nil without seeing the hand."""
        ...

    def bid(self, view: View) -> Bid:
        """The bid for a view whose seat is to bid (``view.legal_bids`` lists them)."""
        ...

    def play(self, view: View) -> Card:
        """The card for a view whose seat is to play (``view.legal_plays`` lists them)."""
        ...


def view_seed(view: View, salt: int = 0) -> int:
    """A 64-bit seed that depends only on what the view shows (and ``salt``)."""
    generator = SplitMix64(salt)
    value = 0
    hand = view.hand.mask if view.hand is not None else 0
    for part in (
        view.seat, view.hand_index, hand, view.played_mask, len(view.plays),
        *(bid.tricks * 2 + bid.blind if bid is not None else 99 for bid in view.bids),
        view.scores[0] & 0xFFFF, view.scores[1] & 0xFFFF,
    ):
        generator.state ^= part & ((1 << 64) - 1)
        value = generator.next()
    return value
