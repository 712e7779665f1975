"""The coach's review of a finished hand: "where did the points go?".

:func:`review_hand` goes over one seat's own decisions in a hand (its bid and its cards),
asks the Expert's evaluation (:func:`spades_core.bots.expert.evaluate`, the same search as
the hint) which action it would have chosen, and where that differs from the one played,
prices the difference in **points**: both actions are played out from the same position in
the same imagined deals (deals consistent with what the seat knew then, from
:mod:`.bots.sampling`; the rest of the hand by the bots' fast play-out player, or, in the
last tricks where the Expert's search solves its deals exactly, solved exactly too), and each
play-out is scored with the engine's scoring.  The value of a play-out is the hand's
points of the seat's team minus those of the opponents, a bag counted at its long-run
cost (``+1`` now, ``bag_penalty / bag_limit`` later: ``-9`` with the default rules).  The
Expert's evaluation itself is in match equity (millionths of a win): it chooses the
better action, the play-outs say what it is worth in points.

The cost of a decision is the mean value of the better action minus that of the one
played, in tenths of a point (integers: the same figures in CPython and in the page), split
into the scoring parts of :data:`PARTS` (:func:`split_outcome`, deal by deal; the parts add
up to the cost exactly) and given with its standard error.  Decisions costing at least
:data:`MIN_COST` and at least :data:`NOISE_Z` standard errors are kept, the costliest
first, at most :data:`MAX_ITEMS`.  A forced decision (one distinct card) costs nothing; a
Blind Nil, decided before the cards are seen, is not reviewed.

Each :class:`ReviewItem` says where (hand, trick, the trick so far, the cards held), the
action played and the better one, the cost and its parts, and why: the sentence of the
largest part (:func:`why`, with the facts of the position and of the hand that make it
true), the hint's sentence for the better card where its tip fits the part
(:func:`spades_core.hints.explain`), a "not the X" clause about the card played where a
rule of the trick says it (:func:`spades_core.hints.contrast_against`), and the tip whose
lesson fits the part (docs/hints.md, "The review after each hand").

Pure and deterministic: no text (keys and parameters only), every random draw from a
:class:`~.deal.SplitMix64` seeded by what the seat saw.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from dataclasses import dataclass, field
from math import isqrt

from . import record
from .bids import NIL, Bid
from .bots.base import view_seed
from .bots.endgame import Solver, distinct_cards
from .bots.expert import Evaluation, ExpertBudget, evaluate, run_steps
from .bots.handeval import expected_bid
from .bots.rollout import Contracts, play_out
from .bots.sampling import World, deal_worlds, knowledge
from .cards import Card, CardSet
from .deal import SplitMix64
from .errors import UsageError
from .game import GameState, HandResult
from .hints import NEUTRAL, NEUTRAL_BID, TEMPLATES, contrast_against, explain
from .rules import Rules, trick_winner
from .scoring import score_hand
from .seats import SEATS, Seat
from .views import View, view_for

__all__ = [
    "MAX_ITEMS", "MIN_COST", "NOISE_Z", "PARTS", "PART_TIPS", "REASON_KEYS", "Parts", "Price",
    "Review", "ReviewItem", "Why", "clear_of_noise", "exact_endgame", "hand_states", "price",
    "review_hand", "review_steps", "review_to_dict", "split_outcome", "standard_error", "weigh",
    "why",
]

MIN_COST = 50  # tenths of a point: only decisions costing at least 5 points
MAX_ITEMS = 3
WORLDS = 64  # imagined deals in which the two actions are played out
_REVIEW_SALT = 0x5E71
_CONFIRM_SALT = 0xC04F1  # the second draw's (xored with the first's salt)


#: The scoring parts of a hand's outcome for the reviewed seat's team, in this order: its
#: contract (``+10`` or ``-10`` a trick bid), its bags (``+1`` a bag now, the bag penalty at
#: its long-run cost), its Nil bids (bonus or penalty), and the same three for the
#: opponents, counted against the team (an opponent's point is ``-1``).
PARTS = ("our-contract", "our-bags", "our-nil", "their-contract", "their-bags", "their-nil")

NOISE_Z = 2  # a decision is flagged only when its cost is at least this many standard errors


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


@dataclass(frozen=True, slots=True)
class ReviewItem:
    """One costly decision of the reviewed seat."""

    hand_index: int  # 0 for the game's first hand
    trick_number: int  # 1 to 13 for a card; 0 for the bid
    trick: tuple[tuple[Seat, Card], ...]  # the trick so far, before the decision
    held: CardSet  # the seat's cards at the time
    played: Card | Bid
    better: Card | Bid  # the Expert's choice (the hint's action)
    cost: int  # tenths of a point: the better action's mean value minus the played one's
    tip: str  # the tip key (STRATEGY.md) whose lesson fits the largest part
    reason: str  # the main sentence's key: the largest part's (``review.why.*``, coach.json)
    params: dict[str, str] = field(default_factory=dict, hash=False)  # of the three sentences
    contrast: str = ""  # a "not the X" clause key about the card played (hints.json), or ""
    support: str = ""  # the hint's sentence key for the better card where its tip fits, or ""
    parts: Parts = Parts()  # the cost split into the scoring parts (they add up to ``cost``)
    se: int = 0  # the cost's standard error, tenths of a point
    action_index: int = 0  # the decision's index in the hand: bids 0-3, then plays 4-55


@dataclass(frozen=True, slots=True)
class Review:
    """The review of one hand for one seat: the costly decisions, the costliest first."""

    hand_index: int
    seat: Seat
    decisions: int  # the seat's decisions weighed (forced ones and Blind Nil left out)
    items: tuple[ReviewItem, ...]

    @property
    def total_cost(self) -> int:
        """The flagged decisions' costs added up, in tenths of a point."""
        return sum(item.cost for item in self.items)


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


# --- the states of a hand -----------------------------------------------------------------


def hand_states(game: GameState, hand_index: int) -> list[GameState]:
    """The states of the finished hand ``hand_index`` of ``game``, one before each action
    (4 bids, 52 plays), replayed from ``game``'s record."""
    past = game.past_hands
    if not 0 <= hand_index < len(past):
        raise UsageError(f"hand {hand_index + 1} is not finished")
    result = past[hand_index]
    data = record.to_dict(game)
    cards = {seat.name: [str(card) for card in result.dealt(seat)] for seat in SEATS}
    data["hands"] = [*data["hands"][:hand_index], {"cards": cards, "bids": [], "plays": []}]
    state = record.from_dict(data)
    states: list[GameState] = []
    actions: tuple[Card | Bid, ...] = (*result.bid_history, *result.plays)
    for action in actions:
        states.append(state)
        state = state.apply(action)
    return states


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


def price(view: View, played: Card | Bid, better: Card | Bid, worlds: int = WORLDS,
          salt: int = _REVIEW_SALT) -> Price:
    """``better`` against ``played`` for the seat to act in ``view``: both played out in
    the same imagined deals, two independent draws of ``worlds`` (see the module; another
    ``salt`` draws other deals, for a judge independent of the review's own).  The cost,
    its parts and its standard error are over both draws; it is ``clear`` only when it is
    at least ``NOISE_Z`` standard errors in each draw on its own (one draw's luck is not a
    mistake).  A card in the last tricks (:func:`exact_endgame`) is not played out but
    solved, valued in points, in as many deals as the Expert's search solves
    (``exact_worlds``, half in each draw) at most: the same exact endgame as the search's;
    the hint prices its "not the X" cards here too."""
    seat = int(view.seat)
    team = seat & 1
    value = _points_value(view) if isinstance(better, Card) and exact_endgame(view) else None
    if value is not None:  # solved deals: as many as the Expert's search solves, at most
        worlds = min(worlds, ExpertBudget().exact_worlds // 2)
    # two independent draws: a difference is clear only when it is clear in each
    drawn = _worlds(view, worlds, salt)
    found = drawn + _worlds(view, worlds, salt ^ _CONFIRM_SALT)
    half = len(drawn)
    sums = [0, 0, 0, 0]  # value, team tricks, team bags, their tricks: better minus played
    split = [0, 0, 0, 0, 0, 0]  # the value's parts: better minus played
    squares = 0  # the per-deal value differences squared, for the standard error
    team_tricks = 0
    nil_made = [0, 0]
    first = (0, 0)  # the first draw's sum and squares
    for number, world in enumerate(found):
        if number == half:
            first = (sums[0], squares)
        outcomes = []
        solver = Solver(team, value) if value is not None else None
        for action in (better, played):
            if isinstance(action, Bid):
                bids = _imagined_bids(view, world, action)
                leader = (int(view.dealer) + 1) & 3
                taken = play_out(world, leader, (), (0, 0, 0, 0), False, Contracts.of(bids))
            else:
                bids = _bids(view)
                leader = int(view.leader) if view.leader is not None else seat
                trick = tuple(card.id for _, card in view.trick)
                if solver is not None:  # the last tricks: best play on both sides
                    taken = _tricks_of(solver.solve(world, leader, trick, view.tricks_won,
                                                    view.spades_broken, first=action.id))
                else:
                    taken = play_out(world, leader, trick, view.tricks_won,
                                     view.spades_broken, Contracts.of(bids), first=action.id)
            outcomes.append((split_outcome(bids, taken, view.bags, view.rules, team),
                             _team(taken, team), _bags(bids, taken, team),
                             _team(taken, 1 - team), taken[seat] == 0))
        (parts_b, tricks_b, bags_b, theirs_b, zero_b) = outcomes[0]
        (parts_p, tricks_p, bags_p, theirs_p, zero_p) = outcomes[1]
        difference = 0
        for index in range(6):
            split[index] += parts_b[index] - parts_p[index]
            difference += parts_b[index] - parts_p[index]
        sums[0] += difference
        squares += difference * difference
        sums[1] += tricks_b - tricks_p
        sums[2] += bags_p - bags_b
        sums[3] += theirs_p - theirs_b
        team_tricks += tricks_b
        nil_made[0] += zero_b
        nil_made[1] += zero_p
    n = len(found)
    cost = _mean(sums[0], n)
    parts = _apportion(split, n, cost)
    clear = (clear_of_noise(first[0], first[1], half)
             and clear_of_noise(sums[0] - first[0], squares - first[1], n - half))
    return Price(cost, _mean(10 * sums[1], n), _mean(10 * sums[2], n), _mean(10 * sums[3], n),
                 parts=Parts(*parts), se=standard_error(sums[0], squares, n),
                 clear=clear, worlds=n,
                 team_tricks=_mean(10 * team_tricks, n), nil_made=(nil_made[0], nil_made[1]))


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


# --- the review -------------------------------------------------------------------------


def _same_card(view: View, one: Card, other: Card) -> bool:
    """Whether two legal cards play alike (no card unseen or in the trick between them)."""
    in_trick = 0
    for _, card in view.trick:
        in_trick |= card.bit
    breaks = view.unseen_mask() | in_trick
    return len(distinct_cards(one.bit | other.bit, breaks)) == 1


# --- why: the sentence of the largest part -------------------------------------------------

#: The tips (their lessons) that fit each part: an item's tip is the hint's for the better
#: action when it is one of these (its sentence then supports the main one), else the part's
#: own (the first; a Nil's is the Nil bidder's: see :func:`_why`).
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


#: Every main sentence a review item may have (``coach.json``, both languages).
REASON_KEYS = (
    "review.why.bag-made-won", "review.why.bag-made", "review.why.bags-over", "review.why.bags",
    "review.why.set-us", "review.why.need-us", "review.why.our-contract",
    "review.why.my-nil-won", "review.why.my-nil", "review.why.partner-nil-lost",
    "review.why.partner-nil", "review.why.our-nil", "review.why.their-made",
    "review.why.their-contract", "review.why.their-bags", "review.why.their-nil",
    "review.why.their-nils", "review.why.bid-higher", "review.why.bid-lower",
    "review.why.bid-bags", "review.why.bid-nil", "review.why.bid-no-nil", "review.why.bid-cover",
    *(f"review.why.bid.{part}" for part in PARTS),
)


@dataclass(frozen=True, slots=True)
class Why:
    """The review item's main sentence (a ``review.why.*`` key of ``coach.json``), its
    parameters, and the tip whose lesson the item links."""

    key: str
    tip: str
    params: dict[str, str] = field(default_factory=dict, hash=False)


def _card(card: Card | Bid) -> str:
    return str(card)


def _contract(bids: tuple[Bid | None, ...], team: int) -> int:
    return sum(bid.tricks for bid in (bids[team], bids[team + 2]) if bid is not None)


def _nil_alive(view: View, seat: int) -> bool:
    bid = view.bids[seat]
    return bid is not None and bid.is_nil and view.tricks_won[seat] == 0


def _in_ten(count: int, worlds: int) -> str:
    """``count`` out of ``worlds`` as times in 10, rounded."""
    return str((20 * count + worlds) // (2 * worlds)) if worlds else "0"


def _why_card(view: View, played: Card, better: Card, part: str, result: HandResult,
              index: int) -> Why:
    """The sentence for a card: the part's, with the facts of the position and of the hand
    as it was played that make it true (see docs/hints.md)."""
    seat = int(view.seat)
    team, partner = seat & 1, (seat + 2) & 3
    rules = view.rules
    ours, theirs = _contract(view.bids, team), _contract(view.bids, 1 - team)
    taken = view.tricks_won[team] + view.tricks_won[team + 2]
    final = result.tricks[team] + result.tricks[team + 2]
    final_theirs = result.tricks[1 - team] + result.tricks[3 - team]
    play = index - 4  # the play's index in the hand
    start = play - play % 4
    at = trick_winner(list(result.play_ids[start:start + 4]))
    winner = (seat - play % 4 + at) & 3  # the seat that won the played card's trick
    won = winner == seat
    card, alt = _card(better), _card(played)
    bags = {"limit": str(rules.bag_limit), "penalty": str(rules.bag_penalty)}
    if part == "our-bags":
        made = 0 < ours <= taken
        tip = "duck-when-made" if made else "bags-cost"
        before = [c.id for _, c in view.trick]
        ducks = bool(before) and trick_winner([*before, better.id]) != len(before)
        if made and won and ducks:  # the better card would not have won it as it stood
            return Why("review.why.bag-made-won", tip,
                       {"alt": alt, "taken": str(taken), "contract": str(ours)})
        if made:
            return Why("review.why.bag-made", tip,
                       {"taken": str(taken), "contract": str(ours), **bags})
        if final > ours:
            return Why("review.why.bags-over", tip,
                       {"alt": alt, "final": str(final), "contract": str(ours), **bags})
        return Why("review.why.bags", tip, {"alt": alt, "contract": str(ours), **bags})
    if part == "our-contract":
        if final < ours:
            return Why("review.why.set-us", "count-cards",
                       {"card": card, "contract": str(ours), "final": str(final)})
        if taken < ours:
            return Why("review.why.need-us", "count-cards",
                       {"card": card, "alt": alt, "contract": str(ours),
                        "short": str(ours - taken)})
        return Why("review.why.our-contract", "count-cards",
                   {"card": card, "alt": alt, "contract": str(ours)})
    if part == "our-nil":
        value = str(rules.nil_value)
        if _nil_alive(view, seat):
            if won:
                return Why("review.why.my-nil-won", "nil-hand", {"alt": alt, "value": value})
            return Why("review.why.my-nil", "nil-hand", {"alt": alt, "value": value})
        if _nil_alive(view, partner):
            if winner == partner:
                return Why("review.why.partner-nil-lost", "cover-partner-nil",
                           {"card": card, "value": value})
            return Why("review.why.partner-nil", "cover-partner-nil",
                       {"alt": alt, "value": value})
    if part == "their-contract":
        key = "review.why.their-made" if final_theirs >= theirs else "review.why.their-contract"
        return Why(key, "count-cards", {"card": card, "contract": str(theirs)})
    if part == "their-bags":
        return Why("review.why.their-bags", "bags-cost",
                   {"card": card, "contract": str(theirs), **bags})
    if part == "their-nil":
        alive = [s for s in ((seat + 1) & 3, (seat + 3) & 3) if _nil_alive(view, s)]
        if len(alive) == 1:
            return Why("review.why.their-nil", "attack-nil",
                       {"card": card, "nil_seat": SEATS[alive[0]].name,
                        "value": str(rules.nil_value)})
        return Why("review.why.their-nils", "attack-nil", {"card": card})
    # the Nil part moves only while a Nil of the team is alive: not reached
    return Why("review.why.our-nil", "nil-hand", {"card": card})


def _why_bid(view: View, played: Bid, better: Bid, part: str, found: Price,
             result: HandResult) -> Why:
    """The sentence for a bid: the part's, with the play-outs' figures (the team's tricks,
    how often a Nil is made) that make it true."""
    seat = int(view.seat)
    partner = (seat + 2) & 3
    rules = view.rules
    tricks = str(max(0, found.team_tricks + 5) // 10)
    both = {"bid": str(better), "alt_bid": str(played)}
    numbers = not played.is_nil and not better.is_nil
    if part == "our-contract":
        if numbers and better.tricks > played.tricks:
            return Why("review.why.bid-higher", "count-sure-tricks", {**both, "tricks": tricks})
        if numbers and better.tricks < played.tricks:
            return Why("review.why.bid-lower", "count-sure-tricks", {**both, "tricks": tricks})
    if part == "our-bags" and numbers and better.tricks > played.tricks:
        return Why("review.why.bid-bags", "bags-cost", {**both, "tricks": tricks})
    if part == "our-nil":
        value = str(rules.nil_value)
        if better.is_nil:
            return Why("review.why.bid-nil", "nil-hand",
                       {"made": _in_ten(found.nil_made[0], found.worlds), "value": value})
        if played.is_nil:
            return Why("review.why.bid-no-nil", "nil-hand",
                       {**both, "made": _in_ten(found.nil_made[1], found.worlds),
                        "value": value})
        if result.bids_by_seat[partner].is_nil:
            return Why("review.why.bid-cover", "cover-partner-nil", both)
    return Why(f"review.why.bid.{part}", PART_TIPS[part][0], both)


def why(view: View, played: Card | Bid, better: Card | Bid, found: Price,
        result: HandResult, index: int) -> Why:
    """The main sentence of a review item: the one of the largest part of ``found``'s split
    (:attr:`Price.parts`), for the decision ``index`` (bids 0-3, plays 4-55) of the hand
    ``result``, in the position ``view``."""
    part = found.parts.largest()
    if isinstance(played, Bid) and isinstance(better, Bid):
        return _why_bid(view, played, better, part, found, result)
    assert isinstance(played, Card) and isinstance(better, Card)
    return _why_card(view, played, better, part, result, index)


def weigh(view: View, played: Card | Bid, budget: ExpertBudget | None = None,
          worlds: int = WORLDS) -> tuple[Card | Bid, Evaluation, Price] | None:
    """The Expert's better action for ``view`` and its price against ``played``; None when
    ``played`` is the Expert's choice (or plays alike) or the decision is forced."""
    if view.hand is None or not view.my_turn:
        return None
    if isinstance(played, Card):
        if len(view.legal_plays) < 2:
            return None
    elif played.blind:
        return None
    evaluation = evaluate(view, budget)
    better = evaluation.best
    if better == played:
        return None
    if isinstance(played, Card) and isinstance(better, Card) and _same_card(view, played, better):
        return None
    return better, evaluation, price(view, played, better, worlds)


def review_hand(game: GameState, hand_index: int, seat: Seat = Seat.S,
                budget: ExpertBudget | None = None, worlds: int = WORLDS) -> Review:
    """The review of the finished hand ``hand_index`` of ``game`` for ``seat``'s own
    decisions (see the module)."""
    return run_steps(review_steps(game, hand_index, seat, budget, worlds))


def review_steps(game: GameState, hand_index: int, seat: Seat = Seat.S,
                 budget: ExpertBudget | None = None,
                 worlds: int = WORLDS) -> Generator[None, None, Review]:
    """:func:`review_hand` in steps: yields after each decision weighed (for a caller that
    cannot block, the page's main thread); the same review."""
    states = hand_states(game, hand_index)
    result = game.past_hands[hand_index]
    actions: tuple[Card | Bid, ...] = (*result.bid_history, *result.plays)
    found: list[ReviewItem] = []
    decisions = 0
    for index, state in enumerate(states):
        if state.to_act != seat:
            continue
        played = actions[index]
        view = view_for(state, seat)
        if isinstance(played, Card) and len(view.legal_plays) < 2:
            continue
        if isinstance(played, Bid) and played.blind:
            continue
        decisions += 1
        weighed = weigh(view, played, budget, worlds)
        yield
        if weighed is None:
            continue
        better, evaluation, cost = weighed
        if cost.cost < MIN_COST or not cost.clear:
            continue
        found.append(_item(view, played, better, evaluation, cost, result, index))
    found.sort(key=lambda item: (-item.cost, item.action_index))
    return Review(hand_index, seat, decisions, tuple(found[:MAX_ITEMS]))


def _item(view: View, played: Card | Bid, better: Card | Bid, evaluation: Evaluation,
          cost: Price, result: HandResult, index: int) -> ReviewItem:
    """The review item of a flagged decision: where, what, the cost and its split, the
    sentence of the largest part, the hint's sentence where its tip fits the part, and the
    "not the X" clause about the card played where one of the trick's rules says it."""
    reason = why(view, played, better, cost, result, index)
    params = dict(reason.params)
    tip, support, contrast = reason.tip, "", ""
    hint = explain(view, better, evaluation, contrasts=False)
    part = cost.parts.largest()
    said = reason.key in ("review.why.bag-made", "review.why.bag-made-won")
    if (isinstance(better, Card) and hint.reason not in (NEUTRAL, NEUTRAL_BID)
            and not (said and hint.reason == "coach.play.bags-duck")  # it says it already
            and hint.tip in ((reason.tip,) if part == "our-nil" else PART_TIPS[part])):
        own = {key: hint.params[key] for key in TEMPLATES[hint.reason].params
               if key in hint.params}  # the template's own (not the hint's clause's)
        if _agrees(params, own):
            tip, support = hint.tip, hint.reason
            params.update(own)
    if isinstance(played, Card) and isinstance(better, Card):
        clause, extra = contrast_against(view, better, evaluation, played)
        if clause and _agrees(params, extra):
            contrast = clause
            params.update(extra)
    assert view.hand is not None
    return ReviewItem(
        hand_index=result.hand_index,
        trick_number=0 if isinstance(played, Bid) else (len(view.plays) // 4) + 1,
        trick=view.trick,
        held=view.hand,
        played=played,
        better=better,
        cost=cost.cost,
        tip=tip,
        reason=reason.key,
        params=params,
        contrast=contrast,
        support=support,
        parts=cost.parts,
        se=cost.se,
        action_index=index,
    )


def _agrees(params: dict[str, str], extra: dict[str, str]) -> bool:
    """No parameter of ``extra`` given another value in ``params``."""
    return all(params.get(key, value) == value for key, value in extra.items())


def review_to_dict(review: Review) -> dict[str, object]:
    """The review as plain JSON data (cards and bids as their texts), for the page's worker."""
    return {
        "hand": review.hand_index,
        "seat": review.seat.name,
        "decisions": review.decisions,
        "items": [
            {
                "hand": item.hand_index,
                "trick_number": item.trick_number,
                "trick": [[who.name, str(card)] for who, card in item.trick],
                "held": [str(card) for card in item.held],
                "played": str(item.played),
                "better": str(item.better),
                "cost": item.cost,
                "tip": item.tip,
                "reason": item.reason,
                "params": dict(item.params),
                "contrast": item.contrast,
                "support": item.support,
                "parts": dict(item.parts.named()),
                "se": item.se,
                "kind": "bid" if isinstance(item.played, Bid) else "card",
            }
            for item in review.items
        ],
    }
