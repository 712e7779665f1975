"""Seats and partnerships.

Seats are numbered in play order, N=0, E=1, S=2, W=3 (clockwise seen from above), so the
next seat to play is ``(seat + 1) % 4`` and a seat's team is ``seat % 2``.
"""

from __future__ import annotations

from enum import IntEnum

from .errors import ParseError


class Seat(IntEnum):
    N = 0
    E = 1
    S = 2
    W = 3

    @property
    def team(self) -> Team:
        return TEAMS[self & 1]

    @property
    def partner(self) -> Seat:
        return SEATS[(self + 2) & 3]

    @property
    def left(self) -> Seat:
        """The next seat in play order (the player on this seat's left)."""
        return SEATS[(self + 1) & 3]

    def __str__(self) -> str:
        return self.name

    @classmethod
    def parse(cls, text: str) -> Seat:
        try:
            return cls[text.strip().upper()]
        except (KeyError, AttributeError):
            raise ParseError(f"{text!r} is not a seat (N, E, S or W)") from None


class Team(IntEnum):
    NS = 0
    EW = 1

    @property
    def seats(self) -> tuple[Seat, Seat]:
        return (SEATS[self], SEATS[self + 2])

    @property
    def other(self) -> Team:
        return TEAMS[1 - self]

    def __str__(self) -> str:
        return self.name


SEATS: tuple[Seat, Seat, Seat, Seat] = (Seat.N, Seat.E, Seat.S, Seat.W)
TEAMS: tuple[Team, Team] = (Team.NS, Team.EW)
FIRST_DEALER = Seat.E


def dealer_of_hand(hand_index: int) -> Seat:
    """The dealer of hand ``hand_index`` (0-based): East first, then one seat on."""
    return SEATS[(FIRST_DEALER + hand_index) & 3]
