"""The coach's review of a finished hand: "where did the points go?".

:func:`review_hand` goes over one seat's own decisions in a hand (its bid and its cards),
asks the Expert's evaluation (:func:`spades_core.bots.expert.evaluate`, the same search as
the hint) which action it would have chosen, and where that differs from the one played,
prices the difference in **points**: both actions are played out from the same position in
the same imagined deals (deals consistent with what the seat knew then, from
:mod:`.bots.sampling`; the rest of the hand by the bots' fast play-out player), and each
play-out is scored with the engine's scoring.  The value of a play-out is the hand's
points of the seat's team minus those of the opponents, a bag counted at its long-run
cost (``+1`` now, ``bag_penalty / bag_limit`` later: ``-9`` with the default rules).  The
Expert's evaluation itself is in match equity (millionths of a win): it chooses the
better action, the play-outs say what it is worth in points.

The cost of a decision is the mean value of the better action minus that of the one
played, in tenths of a point (integers: the same figures in CPython and in the page).
Decisions costing at least :data:`MIN_COST` are kept, the costliest first, at most
:data:`MAX_ITEMS`.  A forced decision (one distinct card) costs nothing; a Blind Nil,
decided before the cards are seen, is not reviewed.

Each :class:`ReviewItem` says where (hand, trick, the trick so far, the cards held), the
action played and the better one, the hint's tip and sentence for the better action
(:func:`spades_core.hints.explain`: the page and the terminal say it and link the tip's
lesson), and one fact: the tricks the team would have taken more, the bags it would have
avoided, or the tricks the opponents would have taken fewer (means over the play-outs).

Pure and deterministic: no text (keys and parameters only), every random draw from a
:class:`~.deal.SplitMix64` seeded by what the seat saw.
"""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass, field

from . import record
from .bids import NIL, Bid
from .bots.base import view_seed
from .bots.endgame import distinct_cards
from .bots.expert import Evaluation, ExpertBudget, evaluate, run_steps
from .bots.handeval import expected_bid
from .bots.rollout import Contracts, play_out
from .bots.sampling import World, deal_worlds, knowledge
from .cards import Card, CardSet
from .deal import SplitMix64
from .errors import UsageError
from .game import GameState
from .hints import explain
from .scoring import score_hand
from .seats import SEATS, Seat
from .views import View, view_for

__all__ = [
    "MAX_ITEMS", "MIN_COST", "Price", "Review", "ReviewItem", "hand_states", "price", "review_hand",
    "review_steps", "review_to_dict", "weigh",
]

MIN_COST = 50  # tenths of a point: only decisions costing at least 5 points
MAX_ITEMS = 3
WORLDS = 64  # imagined deals in which the two actions are played out
_REVIEW_SALT = 0x5E71


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
    tip: str  # the hint's tip key (STRATEGY.md) for the better action
    reason: str  # the hint's sentence key
    params: dict[str, str] = field(default_factory=dict, hash=False)
    contrast: str = ""  # the hint's "not the X" clause key, or ""
    # "tricks": the team takes more; "bags": it takes fewer bags; "set": the opponents take
    # fewer tricks; "" when none of the three improves
    fact: str = ""
    fact_tenths: int = 0  # the fact's amount, in tenths (means over the play-outs)
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


@dataclass(frozen=True, slots=True)
class Price:
    """Two actions played out in the same imagined deals: means in tenths."""

    cost: int  # value of ``better`` minus value of ``played``, tenths of a point
    tricks: int  # the team's tricks with ``better`` minus with ``played``, tenths
    bags: int  # the team's bags with ``played`` minus with ``better``, tenths
    theirs: int  # the opponents' tricks with ``played`` minus with ``better``, tenths


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
    counted at its long-run cost (in tenths: ``bag_penalty / bag_limit`` may not be whole)."""
    rules = view.rules
    teams = score_hand(bids, tricks, view.bags, rules)
    team = int(view.seat) & 1
    values = []
    for side in (team, 1 - team):
        score = teams[side]
        held = score.bags_after - view.bags[side]  # bags added, less those a penalty removed
        values.append(10 * score.points - (10 * rules.bag_penalty * held) // rules.bag_limit)
    return values[0] - values[1]


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


def price(view: View, played: Card | Bid, better: Card | Bid, worlds: int = WORLDS,
          salt: int = _REVIEW_SALT) -> Price:
    """``better`` against ``played`` for the seat to act in ``view``: both played out in
    the same ``worlds`` imagined deals (see the module; another ``salt`` draws other deals,
    for a judge independent of the review's own)."""
    seat = int(view.seat)
    team = seat & 1
    found = _worlds(view, worlds, salt)
    sums = [0, 0, 0, 0]  # value, team tricks, team bags, their tricks: better minus played
    for world in found:
        outcomes = []
        for action in (better, played):
            if isinstance(action, Bid):
                bids = _imagined_bids(view, world, action)
                leader = (int(view.dealer) + 1) & 3
                taken = play_out(world, leader, (), (0, 0, 0, 0), False, Contracts.of(bids))
            else:
                bids = _bids(view)
                leader = int(view.leader) if view.leader is not None else seat
                trick = tuple(card.id for _, card in view.trick)
                taken = play_out(world, leader, trick, view.tricks_won, view.spades_broken,
                                 Contracts.of(bids), first=action.id)
            outcomes.append((_net(view, bids, taken), _team(taken, team),
                             _bags(bids, taken, team), _team(taken, 1 - team)))
        (value_b, tricks_b, bags_b, theirs_b), (value_p, tricks_p, bags_p, theirs_p) = outcomes
        sums[0] += value_b - value_p
        sums[1] += tricks_b - tricks_p
        sums[2] += bags_p - bags_b
        sums[3] += theirs_p - theirs_b
    n = len(found)
    return Price(_mean(sums[0], n), _mean(10 * sums[1], n), _mean(10 * sums[2], n),
                 _mean(10 * sums[3], n))


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


def _fact(found: Price, played: Card | Bid, better: Card | Bid) -> tuple[str, int]:
    """The one fact worth a line: the team's extra tricks, its bags avoided, or the
    opponents' tricks taken fewer, whichever the better action improves most ("" and 0
    when it improves none of them: the points lie in who takes the tricks).  None when
    either bid is a Nil: a Nil's worth is its bonus, not the tricks around it, and the
    hint's sentence already says how often it is made."""
    if any(isinstance(action, Bid) and action.is_nil for action in (played, better)):
        return ("", 0)
    choices = [("tricks", found.tricks), ("bags", found.bags), ("set", found.theirs)]
    kind, amount = max(choices, key=lambda c: c[1])
    return (kind, amount) if amount > 0 else ("", 0)


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
        if cost.cost < MIN_COST:
            continue
        hint = explain(view, better, evaluation)
        fact, amount = _fact(cost, played, better)
        assert view.hand is not None
        found.append(ReviewItem(
            hand_index=hand_index,
            trick_number=0 if isinstance(played, Bid) else (len(view.plays) // 4) + 1,
            trick=view.trick,
            held=view.hand,
            played=played,
            better=better,
            cost=cost.cost,
            tip=hint.tip,
            reason=hint.reason,
            params=dict(hint.params),
            contrast=hint.contrast,
            fact=fact,
            fact_tenths=amount,
            action_index=index,
        ))
    found.sort(key=lambda item: (-item.cost, item.action_index))
    return Review(hand_index, seat, decisions, tuple(found[:MAX_ITEMS]))


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
                "fact": item.fact,
                "fact_tenths": item.fact_tenths,
                "kind": "bid" if isinstance(item.played, Bid) else "card",
            }
            for item in review.items
        ],
    }
