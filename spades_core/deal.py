"""Deterministic deals: a deal number gives the cards of every hand of a game.

The generator is SplitMix64 (Steele, Lea & Flood 2014), reproducible in any language:

    state = (state + 0x9E3779B97F4A7C15) mod 2**64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) mod 2**64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) mod 2**64
    output z ^ (z >> 31)

Hand ``k`` (0 for the first hand) of deal number ``n`` uses its own generator whose
state starts at ``n * 1024 + k`` (mod 2**64).  Four outputs ``a, b, c, d`` make the
256-bit number ``R = a * 2**192 + b * 2**128 + c * 2**64 + d``; with ``N`` the number
of orderings of the deck (``52!``) and ``L = 2**256 - 2**256 mod N``, a value ``R >= L``
is dropped and four more outputs are drawn (this keeps every ordering equally likely;
it happens about once in 10**9 deals).  Then ``X = R mod N`` drives a Fisher–Yates
shuffle of the deck, the list of card ids in ascending order (the standard 52 cards;
with jokers the 52 less 2♦ and 2♥ plus the Little and Big Joker):

    for i from len(deck) - 1 down to 1:
        j = X mod (i + 1);  X = X div (i + 1)
        swap deck[i] and deck[j]

The card at position ``p`` then goes to seat ``(dealer + 1 + p) mod 4`` in play order
N=0, E=1, S=2, W=3 (one card at a time, as at the table), the dealer being that hand's.

The daily deal number of a calendar date is ``YYYYMMDD``.
"""

from __future__ import annotations

import datetime
import math

from .cards import ids_of_mask
from .errors import UsageError
from .seats import dealer_of_hand

MAX_DEAL = 2**53 - 1
_MASK64 = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15


class SplitMix64:
    """A small, well-known 64-bit generator: deterministic on every platform."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK64

    def next(self) -> int:
        self.state = z = (self.state + _GAMMA) & _MASK64
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        return z ^ (z >> 31)

    def shuffle(self, items: list[int]) -> None:
        """Shuffle ``items`` in place as described in the module's documentation."""
        count, limit, groups = _shuffle_plan(len(items))
        while True:
            draw = self.next() << 192 | self.next() << 128 | self.next() << 64 | self.next()
            if draw < limit:
                break
        digits = draw % count
        for steps, product in groups:
            digits, group = divmod(digits, product)  # one big division per group
            for i, radix in steps:
                j = group % radix
                group //= radix
                items[i], items[j] = items[j], items[i]


_Plan = tuple[int, int, tuple[tuple[tuple[tuple[int, int], ...], int], ...]]


def _shuffle_plan(size: int) -> _Plan:
    """For ``size`` items: the number of orderings ``N``, the limit ``L`` of the module's
    documentation, and the Fisher–Yates positions ``size-1 .. 1`` (each with its radix
    ``i + 1``) in runs whose radices' product stays below 2**30, so that the digits are
    taken out of single-digit integers, which CPython divides fastest."""
    found = _PLANS.get(size)
    if found is None:
        count = math.factorial(size)
        groups: list[tuple[tuple[tuple[int, int], ...], int]] = []
        run: list[tuple[int, int]] = []
        product = 1
        for i in range(size - 1, 0, -1):
            if product * (i + 1) >= 1 << 30:
                groups.append((tuple(run), product))
                run, product = [], 1
            run.append((i, i + 1))
            product *= i + 1
        groups.append((tuple(run), product))
        found = _PLANS[size] = (count, _TWO256 - _TWO256 % count, tuple(groups))
    return found


_PLANS: dict[int, _Plan] = {}
_TWO256 = 1 << 256
_DECKS: dict[int, tuple[int, ...]] = {}


def check_deal_number(deal: object) -> int:
    """Return ``deal`` if it is a valid deal number, else raise UsageError."""
    if isinstance(deal, bool) or not isinstance(deal, int) or not 0 <= deal <= MAX_DEAL:
        raise UsageError(f"a deal number is an integer from 0 to {MAX_DEAL}, not {deal!r}")
    return deal


def deal_hand(deal: int, hand_index: int, deck_mask: int) -> tuple[int, int, int, int]:
    """The four hands (bit masks, indexed by seat) of hand ``hand_index`` of deal ``deal``."""
    ordered = _DECKS.get(deck_mask)
    if ordered is None:  # the deck in ascending id order, each card as its bit
        ordered = _DECKS[deck_mask] = tuple(1 << card_id for card_id in ids_of_mask(deck_mask))
    deck = list(ordered)
    SplitMix64(deal * 1024 + hand_index).shuffle(deck)
    first = dealer_of_hand(hand_index) + 1
    hands = [0, 0, 0, 0]
    for offset in range(4):  # every fourth card, from the dealer's left
        hands[(first + offset) & 3] = sum(deck[offset::4])  # distinct bits: the sum is the set
    return (hands[0], hands[1], hands[2], hands[3])


def daily_deal_number(date: datetime.date) -> int:
    """The deal number everybody plays on ``date``: ``YYYYMMDD``."""
    return date.year * 10000 + date.month * 100 + date.day


def daily_deal_date(number: int) -> datetime.date | None:
    """The date whose daily deal is ``number`` (``YYYYMMDD``), or None when it names no
    date (most deal numbers do not)."""
    if not 10000101 <= number <= 99991231:
        return None
    try:
        return datetime.date(number // 10000, number // 100 % 100, number % 100)
    except ValueError:  # a month 13, a 31 June...
        return None
