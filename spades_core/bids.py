"""Bids: a number of tricks from 1 to 13, Nil (0) or Blind Nil.

Text tokens (the game record's): ``"1"``..``"13"``, ``"nil"`` (``"0"`` accepted) and
``"blind-nil"``.  ``parse_bid(str(bid)) == bid`` always.
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import BidParseError as BidParseError  # re-exported: bids.BidParseError
from .errors import UsageError


@dataclass(frozen=True, slots=True)
class Bid:
    tricks: int  # 0 for Nil and Blind Nil
    blind: bool = False

    def __post_init__(self) -> None:
        if not 0 <= self.tricks <= 13 or (self.blind and self.tricks):
            raise UsageError(f"no such bid: {self.tricks} tricks, blind={self.blind}")

    @property
    def is_nil(self) -> bool:
        return self.tricks == 0

    def __str__(self) -> str:
        if self.blind:
            return "blind-nil"
        return "nil" if self.tricks == 0 else str(self.tricks)

    def __repr__(self) -> str:
        return f"Bid({str(self)!r})"


NIL = Bid(0)
BLIND_NIL = Bid(0, blind=True)
NUMBER_BIDS: tuple[Bid, ...] = tuple(Bid(n) for n in range(1, 14))
ALL_BIDS: tuple[Bid, ...] = (NIL, *NUMBER_BIDS, BLIND_NIL)
_BY_TOKEN = {str(bid): bid for bid in ALL_BIDS} | {"0": NIL}


def parse_bid(text: str) -> Bid:
    if not isinstance(text, str):
        raise BidParseError(f"a bid is written as text, not {type(text).__name__}")
    bid = _BY_TOKEN.get(text.strip().lower())
    if bid is None:
        raise BidParseError(f"{text!r} is not a bid")
    return bid
