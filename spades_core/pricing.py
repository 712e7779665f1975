"""Pricing two actions in points: the measure the review and the hint share.

:func:`price` plays ``better`` and ``played`` out from the same position in the same
imagined deals (two independent draws, consistent with what the seat knew: :mod:`.bots.sampling`),
the rest of the hand by the bots' fast play-out player or, in the last tricks where the
Expert's search solves its deals, solved exactly (:class:`.bots.endgame.Solver`, valued in
points); each outcome is scored with the engine's scoring and split into the scoring parts
of :data:`PARTS` (:func:`split_outcome`).  The cost carries its standard error, and it is
``clear`` only when it is at least :data:`NOISE_Z` standard errors in each draw.  The
review (:mod:`.review`) prices each decision it weighs with it, and the hint
(:mod:`.hints`) the cards its "not the X" clauses name: one measure (docs/hints.md).

Pure and deterministic: integers only, every random draw from a
:class:`~.deal.SplitMix64` seeded by what the seat saw.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from math import isqrt

from .bids import NIL, Bid
from .bots.base import view_seed
from .bots.endgame import Solver
from .bots.expert import ExpertBudget
from .bots.handeval import expected_bid
from .bots.rollout import Contracts, play_out
from .bots.sampling import World, deal_worlds, knowledge
from .cards import Card
from .deal import SplitMix64
from .rules import Rules
from .scoring import score_hand
from .views import View

__all__ = [
    "NOISE_Z", "ODDS_AGAINST", "PARTS", "WORLDS", "Parts", "Price", "clear_of_noise",
    "confirmed_price", "exact_endgame", "odds_against", "price", "split_outcome",
    "standard_error",
]

WORLDS = 64  # imagined deals in which the two actions are played out
_REVIEW_SALT = 0x5E71
_CONFIRM_SALT = 0xC04F1  # the second draw's (xored with the first's salt)
_FRESH_SALT = 0x7A11  # the confirming pair's (xored with the first's salt)


#: The scoring parts of a hand's outcome for the reviewed seat's team, in this order: its
#: contract (``+10`` or ``-10`` a trick bid), its bags (``+1`` a bag now, the bag penalty at
#: its long-run cost), its Nil bids (bonus or penalty), and the same three for the
#: opponents, counted against the team (an opponent's point is ``-1``).
PARTS = ("our-contract", "our-bags", "our-nil", "their-contract", "their-bags", "their-nil")

NOISE_Z = 2  # a decision is flagged only when its cost is at least this many standard errors

#: Whom a stated Nil figure is said to assume (the ``against`` parameter of the sentences
#: that state one): the level of the bots at the table, or ``"any"`` where the opponents
#: are not the app's bots of one level (a room, a lesson, a caller that does not say).
#: The figure itself is the play-outs' (the Expert's fast play-out player at every other
#: seat), which ``lab/nil_odds.py`` found calibrated against the Normal bots, made more often
#: against the Beginner bots and less often against the Expert (docs/hints.md): each
#: sentence says so of the level at the table.
ODDS_AGAINST = ("beginner", "normal", "expert", "any")


def odds_against(level: str | None) -> str:
    """The ``against`` parameter for the opponents' bot ``level`` (one of
    :data:`ODDS_AGAINST`; ``"any"`` for None or another bot)."""
    return level if level is not None and level in ODDS_AGAINST[:3] else "any"


@dataclass(frozen=True, slots=True)
class Parts:
    """An amount in tenths of a point split into the scoring parts of :data:`PARTS` (for
    a cost: what the better action gains over the played one in each part)."""

    our_contract: int = 0
    our_bags: int = 0
    our_nil: int = 0
    their_contract: int = 0
    their_bags: int = 0
    their_nil: int = 0

    @property
    def total(self) -> int:
        return (self.our_contract + self.our_bags + self.our_nil + self.their_contract
                + self.their_bags + self.their_nil)

    def values(self) -> tuple[int, int, int, int, int, int]:
        return (self.our_contract, self.our_bags, self.our_nil, self.their_contract,
                self.their_bags, self.their_nil)

    def named(self) -> tuple[tuple[str, int], ...]:
        """``(part, amount)`` in the order of :data:`PARTS`."""
        return tuple(zip(PARTS, self.values(), strict=True))

    def largest(self) -> str:
        """The part with the largest amount; on a tie (within a tenth of a point, the
        rounding of the split), the first of :data:`PARTS`: a bag that moves from one team
        to the other is said as the team's own."""
        values = self.values()
        top = max(values)
        return next(name for name, value in zip(PARTS, values, strict=True) if value >= top - 1)


Split = tuple[int, int, int, int, int, int]


def split_outcome(bids: tuple[Bid, Bid, Bid, Bid], tricks: tuple[int, int, int, int],
                  bags_before: tuple[int, int], rules: Rules, team: int) -> Split:
    """A hand's outcome for ``team`` (0 North-South, 1 East-West) in tenths of a point,
    split into the parts of :data:`PARTS`; their sum is the outcome's value as the review
    counts it: the team's points minus the opponents', each bag at its long-run cost
    (``+1`` now, ``bag_penalty / bag_limit`` later: the penalty paid this hand is replaced
    by that cost, rounded down in tenths).  Pure, integers only."""
    teams = score_hand(bids, tricks, bags_before, rules)
    found: list[int] = []
    for side, sign in ((team, 1), (1 - team, -1)):
        score = teams[side]
        held = score.bags_after - bags_before[side]  # bags added, less those a penalty removed
        contract = 10 * (score.contract_points - score.bags)  # +-10 a trick bid
        bags = 10 * (score.bags + score.bag_penalty) - (
            10 * rules.bag_penalty * held) // rules.bag_limit
        nil = 10 * score.nil_points
        found += (sign * contract, sign * bags, sign * nil)
    return (found[0], found[1], found[2], found[3], found[4], found[5])


@dataclass(frozen=True, slots=True)
class Price:
    """Two actions played out in the same imagined deals: means in tenths."""

    cost: int  # value of ``better`` minus value of ``played``, tenths of a point
    tricks: int  # the team's tricks with ``better`` minus with ``played``, tenths
    bags: int  # the team's bags with ``played`` minus with ``better``, tenths
    theirs: int  # the opponents' tricks with ``played`` minus with ``better``, tenths
    parts: Parts = Parts()  # ``cost`` split into the scoring parts (they add up to it)
    se: int = 0  # the standard error of ``cost`` (tenths), from the per-deal differences
    clear: bool = False  # ``cost`` is positive and at least NOISE_Z standard errors
    worlds: int = 0  # the imagined deals played out
    team_tricks: int = 0  # the team's tricks with ``better``, mean in tenths
    nil_made: tuple[int, int] = (0, 0)  # deals where the seat took no trick: better, played
    part_se: Parts = Parts()  # each part's standard error (tenths), from its per-deal values


def _apportion(sums: Split | list[int], count: int, total: int) -> tuple[int, ...]:
    """The means of ``sums`` over ``count`` rounded so that they add up to ``total`` (the
    rounded mean of their sum): each rounded to the nearest, then the gap moved, a tenth at a
    time, onto the parts whose rounding went furthest the other way (the first on a tie)."""
    parts = [_mean(value, count) for value in sums]
    gap = total - sum(parts)
    if gap and count > 0:
        step = 1 if gap > 0 else -1
        order = sorted(range(len(parts)),
                       key=lambda i: (-step * (sums[i] - parts[i] * count), i))
        for index in order[:abs(gap)]:
            parts[index] += step
    return tuple(parts)


def standard_error(total: int, squares: int, count: int) -> int:
    """The standard error of a mean, in the values' unit rounded to the nearest integer:
    ``total`` and ``squares`` are the sum of ``count`` values and of their squares (the
    sample standard deviation over the square root of ``count``).  0 below two values."""
    if count < 2:
        return 0
    spread = count * squares - total * total  # count**2 * (count - 1) * se**2
    scale = count * count * (count - 1)
    return (isqrt(4 * spread // scale) + 1) // 2


def clear_of_noise(total: int, squares: int, count: int, z: int = NOISE_Z) -> bool:
    """Is the mean of the values (their ``total`` and ``squares`` over ``count``) positive
    and at least ``z`` standard errors?  Exact, in integers: ``mean >= z * se`` squared is
    ``total**2 * (count - 1) >= z**2 * (count * squares - total**2)``."""
    if count < 2 or total <= 0:
        return False
    return total * total * (count - 1) >= z * z * (count * squares - total * total)


# --- pricing two actions ------------------------------------------------------------------


def _net(view: View, bids: tuple[Bid, Bid, Bid, Bid], tricks: tuple[int, int, int, int]) -> int:
    """A hand's outcome for the view's team: its points minus the opponents', each bag
    counted at its long-run cost (in tenths: ``bag_penalty / bag_limit`` may not be whole);
    the sum of :func:`split_outcome`."""
    return sum(split_outcome(bids, tricks, view.bags, view.rules, int(view.seat) & 1))


def _team(tricks: tuple[int, int, int, int], team: int) -> int:
    return tricks[team] + tricks[team + 2]


def _bags(bids: tuple[Bid, Bid, Bid, Bid], tricks: tuple[int, int, int, int], team: int) -> int:
    return max(0, _team(tricks, team) - bids[team].tricks - bids[team + 2].tricks)


def _mean(total: int, count: int) -> int:
    """``total / count`` rounded to the nearest integer, halves away from zero."""
    if count <= 0:
        return 0
    sign = -1 if total < 0 else 1
    return sign * ((2 * abs(total) + count) // (2 * count))


def _worlds(view: View, count: int, salt: int) -> list[World]:
    return deal_worlds(knowledge(view), SplitMix64(view_seed(view, salt)), count)


def exact_endgame(view: View, budget: ExpertBudget | None = None) -> bool:
    """Whether the Expert's search solves this card decision's deals exactly (the last
    ``exact_tricks`` tricks, :func:`spades_core.bots.expert.evaluate`): :func:`price` then
    solves them too, so that the hint and the review price the end of a hand alike."""
    if view.hand is None or view.legal_bids:
        return False
    cards_left = view.unseen_mask().bit_count() + view.hand.mask.bit_count()
    return (cards_left + len(view.trick) + 3) // 4 <= (budget or ExpertBudget()).exact_tricks


_CODE = 1 << 16  # an outcome's value in the solver: its points (tenths) * _CODE + its tricks


def _points_value(view: View) -> Callable[[tuple[int, int, int, int]], int]:
    """The value of an end of hand for the view's team in the solver of the last tricks,
    in **points** (the review's value, :func:`split_outcome`'s sum), the outcome's tricks
    kept in the low digits (between outcomes worth the same points, the team prefers the
    higher code: any fixed order will do) so that the solved line's outcome can be read
    back (:func:`_tricks_of`) and split into parts."""
    team = int(view.seat) & 1
    bids = _bids(view)
    memo: dict[tuple[int, int, int, int], int] = {}

    def value(taken: tuple[int, int, int, int]) -> int:
        found = memo.get(taken)
        if found is None:
            code = ((taken[0] * 14 + taken[1]) * 14 + taken[2]) * 14 + taken[3]  # < 14**4
            points = sum(split_outcome(bids, taken, view.bags, view.rules, team))
            found = memo[taken] = points * _CODE + code
        return found

    return value


def _tricks_of(value: int) -> tuple[int, int, int, int]:
    """The outcome's tricks held in a :func:`_points_value` value."""
    code, west = divmod(value % _CODE, 14)
    code, south = divmod(code, 14)
    north, east = divmod(code, 14)
    return (north, east, south, west)


class _Tally:
    """Two actions' outcomes added up, deal by deal (better minus played), over the draws
    played so far: what :class:`Price` is made of."""

    def __init__(self) -> None:
        self.sums = [0, 0, 0, 0]  # value, team tricks, team bags, their tricks
        self.split = [0, 0, 0, 0, 0, 0]  # the value's parts
        self.split_squares = [0, 0, 0, 0, 0, 0]  # each part's per-deal differences squared
        self.squares = 0  # the per-deal value differences squared (the standard error)
        self.team_tricks = 0
        self.nil_made = [0, 0]
        self.count = 0
        self.draws: list[tuple[int, int, int]] = []  # each draw's value sum, squares, deals

    def clear(self, draws: slice) -> bool:
        """Is the cost clear of noise on the deals of ``draws`` pooled?"""
        chosen = self.draws[draws]
        return clear_of_noise(sum(d[0] for d in chosen), sum(d[1] for d in chosen),
                              sum(d[2] for d in chosen))

    def price(self, clear: bool) -> Price:
        n = self.count
        cost = _mean(self.sums[0], n)
        return Price(cost, _mean(10 * self.sums[1], n), _mean(10 * self.sums[2], n),
                     _mean(10 * self.sums[3], n), parts=Parts(*_apportion(self.split, n, cost)),
                     se=standard_error(self.sums[0], self.squares, n), clear=clear, worlds=n,
                     team_tricks=_mean(10 * self.team_tricks, n),
                     nil_made=(self.nil_made[0], self.nil_made[1]),
                     part_se=Parts(*(standard_error(self.split[i], self.split_squares[i], n)
                                     for i in range(6))))


def _play_draw(view: View, played: Card | Bid, better: Card | Bid, worlds: int, salt: int,
               tally: _Tally) -> None:
    """Both actions played out (or solved) in one draw of ``worlds`` imagined deals, added
    to ``tally``.  What does not change from one deal to the next (the position's bids,
    leader, trick, tricks and contracts) is read once, and an outcome's figures (its split,
    the team's tricks and bags) are worked out once per bids and tricks: a pure function
    of them (the same figures as working them out at every deal, for less)."""
    seat = int(view.seat)
    team = seat & 1
    value = _points_value(view) if isinstance(better, Card) and exact_endgame(view) else None
    if value is not None:  # solved deals: as many as the Expert's search solves, at most
        worlds = min(worlds, ExpertBudget().exact_worlds // 2)
    total = squares = 0
    drawn = _worlds(view, worlds, salt)
    bags_before, rules = view.bags, view.rules
    figures: dict[tuple[tuple[Bid, Bid, Bid, Bid], tuple[int, int, int, int]],
                  tuple[Split, int, int, int, bool]] = {}

    def outcome(bids: tuple[Bid, Bid, Bid, Bid],
                taken: tuple[int, int, int, int]) -> tuple[Split, int, int, int, bool]:
        found = figures.get((bids, taken))
        if found is None:
            found = figures[bids, taken] = (
                split_outcome(bids, taken, bags_before, rules, team), _team(taken, team),
                _bags(bids, taken, team), _team(taken, 1 - team), taken[seat] == 0)
        return found

    actions = (better, played)
    deal_leader = (int(view.dealer) + 1) & 3  # a bid's play-out: from the first lead
    card_bids = _bids(view)  # a card's: from the position
    card_contracts = Contracts.of(card_bids)
    leader = int(view.leader) if view.leader is not None else seat
    trick = tuple(card.id for _, card in view.trick)
    tricks_won, broken = view.tricks_won, view.spades_broken
    for world in drawn:
        outcomes = []
        solver = Solver(team, value) if value is not None else None
        for action in actions:
            if isinstance(action, Bid):
                bids = _imagined_bids(view, world, action)
                taken = play_out(world, deal_leader, (), (0, 0, 0, 0), False,
                                 Contracts.of(bids))
            else:
                bids = card_bids
                if solver is not None:  # the last tricks: best play on both sides
                    taken = _tricks_of(solver.solve(world, leader, trick, tricks_won, broken,
                                                    first=action.id))
                else:
                    taken = play_out(world, leader, trick, tricks_won, broken, card_contracts,
                                     first=action.id)
            outcomes.append(outcome(bids, taken))
        (parts_b, tricks_b, bags_b, theirs_b, zero_b) = outcomes[0]
        (parts_p, tricks_p, bags_p, theirs_p, zero_p) = outcomes[1]
        difference = 0
        for index in range(6):
            gained = parts_b[index] - parts_p[index]
            tally.split[index] += gained
            tally.split_squares[index] += gained * gained
            difference += gained
        total += difference
        squares += difference * difference
        tally.sums[1] += tricks_b - tricks_p
        tally.sums[2] += bags_p - bags_b
        tally.sums[3] += theirs_p - theirs_b
        tally.team_tricks += tricks_b
        tally.nil_made[0] += zero_b
        tally.nil_made[1] += zero_p
    tally.sums[0] += total
    tally.squares += squares
    tally.count += len(drawn)
    tally.draws.append((total, squares, len(drawn)))


def price(view: View, played: Card | Bid, better: Card | Bid, worlds: int = WORLDS,
          salt: int = _REVIEW_SALT) -> Price:
    """``better`` against ``played`` for the seat to act in ``view``: both played out in
    the same imagined deals, two independent draws of ``worlds`` (see the module; another
    ``salt`` draws other deals, for a judge independent of the review's own).  The cost,
    its parts and its standard error are over both draws; it is ``clear`` only when it is
    at least ``NOISE_Z`` standard errors in each draw on its own (one draw's luck is not a
    mistake).  A card in the last tricks (:func:`exact_endgame`) is not played out but
    solved, valued in points, in as many deals as the Expert's search solves
    (``exact_worlds``, half in each draw) at most: the same exact endgame as the search's.
    The review and the hint use :func:`confirmed_price`, which starts with this one."""
    tally = _Tally()
    for draw_salt in (salt, salt ^ _CONFIRM_SALT):  # a difference is clear only when it
        _play_draw(view, played, better, worlds, draw_salt, tally)  # is clear in each
    return tally.price(tally.clear(slice(0, 1)) and tally.clear(slice(1, 2)))


def confirmed_price(view: View, played: Card | Bid, better: Card | Bid,
                    worlds: int = WORLDS, salt: int = _REVIEW_SALT) -> Price:
    """:func:`price`, and where it finds the cost clear of noise, confirmed on two fresh
    draws (``_FRESH_SALT``): the cost must be at least ``NOISE_Z`` standard errors on those
    deals too, which played no part in finding it clear (the deals that flagged a decision
    are its luckiest: on an independent judge's deals, 6 of 60 items flagged on the first
    two draws alone were within noise; docs/hints.md, "The audit").  The cost, its parts
    (which choose the review's sentence) and its standard error are then over the four
    draws.  The review prices every decision it weighs with it, and the hint the cards its
    "not the X" clauses name: one measure, one verdict on the noise."""
    tally = _Tally()
    for draw_salt in (salt, salt ^ _CONFIRM_SALT):
        _play_draw(view, played, better, worlds, draw_salt, tally)
    if not (tally.clear(slice(0, 1)) and tally.clear(slice(1, 2))):
        return tally.price(False)
    fresh = salt ^ _FRESH_SALT
    for draw_salt in (fresh, fresh ^ _CONFIRM_SALT):
        _play_draw(view, played, better, worlds, draw_salt, tally)
    return tally.price(tally.clear(slice(2, 4)))


def _bids(view: View) -> tuple[Bid, Bid, Bid, Bid]:
    bids = tuple(bid if bid is not None else NIL for bid in view.bids)
    return (bids[0], bids[1], bids[2], bids[3])


def _imagined_bids(view: View, world: World, mine: Bid) -> tuple[Bid, Bid, Bid, Bid]:
    """The bids of an imagined deal: those made, ``mine`` for the seat, and a plain guess
    (:func:`.bots.handeval.expected_bid`) for the seats still to bid."""
    found: list[Bid] = []
    for player in range(4):
        bid = view.bids[player]
        if player == int(view.seat):
            bid = mine
        elif bid is None:
            bid = Bid(expected_bid(world[player]))
        found.append(bid)
    return (found[0], found[1], found[2], found[3])
