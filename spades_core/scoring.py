"""Scoring a hand: a pure function of the bids, the tricks and the bags carried in.

Bags are their own count, never read from the digits of a score.
"""

from __future__ import annotations

from typing import NamedTuple

from .bids import Bid
from .rules import Rules

# The results are NamedTuples rather than frozen dataclasses: as immutable, and built
# ten times faster (a frozen dataclass sets each field through object.__setattr__), which
# counts when a simulation scores a hand every few hundred microseconds.


class NilResult(NamedTuple):
    seat: int
    blind: bool
    made: bool
    points: int


class TeamScore(NamedTuple):
    """One team's result for one hand."""

    contract: int  # sum of the number bids (Nil adds nothing)
    tricks: int  # the team's tricks, the Nil bidders' included
    contract_points: int  # +10 per contracted trick (+1 per bag) or -10 per contracted trick
    bags: int  # bags taken this hand
    nils: tuple[NilResult, ...]
    bag_penalty: int  # 0 or a negative multiple of the rules' penalty
    bags_after: int  # the running bag count after the hand (penalties removed)
    points: int  # the hand's total for the team: contract, Nil and penalty points

    @property
    def made(self) -> bool:
        return self.tricks >= self.contract

    @property
    def nil_points(self) -> int:
        return sum(nil.points for nil in self.nils) if self.nils else 0


def score_team(
    seats: tuple[int, int],
    bids: tuple[Bid, Bid],
    tricks: tuple[int, int],
    bags_before: int,
    rules: Rules,
) -> TeamScore:
    """Score one team: ``seats``, ``bids`` and ``tricks`` are its two players'."""
    first, second = bids[0].tricks, bids[1].tricks
    contract = first + second
    team_tricks = tricks[0] + tricks[1]
    if team_tricks >= contract:
        bags = team_tricks - contract
        contract_points = 10 * contract + bags
    else:
        bags = 0
        contract_points = -10 * contract
    nils: tuple[NilResult, ...] = ()
    points = contract_points
    if not (first and second):  # somebody bid Nil
        nils = tuple(
            NilResult(seat, bid.blind, taken == 0, _nil_points(bid, taken, rules))
            for seat, bid, taken in zip(seats, bids, tricks, strict=True)
            if bid.is_nil
        )
        points += sum(nil.points for nil in nils)
    running = bags_before + bags
    penalty = 0
    if running >= rules.bag_limit:
        penalties, running = divmod(running, rules.bag_limit)
        penalty = -penalties * rules.bag_penalty
        points += penalty
    return TeamScore(contract, team_tricks, contract_points, bags, nils, penalty, running, points)


def _nil_points(bid: Bid, taken: int, rules: Rules) -> int:
    value = rules.blind_nil_value if bid.blind else rules.nil_value
    return value if taken == 0 else -value


def score_hand(
    bids_by_seat: tuple[Bid, Bid, Bid, Bid],
    tricks_by_seat: tuple[int, int, int, int],
    bags_before: tuple[int, int],
    rules: Rules,
) -> tuple[TeamScore, TeamScore]:
    """Score both teams (index 0 = NS, 1 = EW); per-seat tuples are indexed N, E, S, W."""
    return (
        score_team(
            (0, 2), (bids_by_seat[0], bids_by_seat[2]),
            (tricks_by_seat[0], tricks_by_seat[2]), bags_before[0], rules,
        ),
        score_team(
            (1, 3), (bids_by_seat[1], bids_by_seat[3]),
            (tricks_by_seat[1], tricks_by_seat[3]), bags_before[1], rules,
        ),
    )
