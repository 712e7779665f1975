"""Drills: ten-item exercises on bidding, Nil and counting, answered by the engine.

Pure and deterministic: every item is built from a fixed deal number (``DEALS``), the
bots' decisions are seeded from the views, and the sampled play-outs from a seed derived
from the deal number, so CPython and the page build the same items with the same answers.
No player-facing text here: the screen words the items from the catalogues.

* ``bidding`` — South's view at its turn to bid (the seats before South bid with the
  normal bots); the answer is the Expert's bid, with the hint that explains it (the same
  search: why that number, measured against the next one). Scoring: a Nil bid is right only when the
  Expert bids Nil; a number is right within one trick of the Expert's number.
  :func:`trick_counts` gives how many tricks South's hand took over sampled deals.
* ``nil`` — would the Expert bid Nil with South's hand? Its evaluation's Nil success
  count (``nil_made`` of ``nil_worlds``) is shown after.
* ``counting`` — South's view after some tricks: how many spades are still out (neither
  in South's hand nor played), and which other seat has shown a void in which suit.
"""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass

from ..bids import NIL, Bid
from ..bots import bot_action, make_bot
from ..bots.expert import ExpertBudget, evaluate_steps, run_steps
from ..bots.handeval import expected_bid
from ..bots.rollout import Contracts, play_out
from ..bots.sampling import deal_worlds_steps, knowledge
from ..cards import SPADES_MASK, Card
from ..deal import SplitMix64
from ..errors import UsageError
from ..game import GameState, Phase
from ..hints import Hint, hint_from, nil_shape, rank_of
from ..rules import DEFAULT_RULES
from ..seats import Seat
from ..views import View, view_for

DRILLS = ("bidding", "nil", "counting")
ITEMS = 10
SAMPLES = 200  # sampled deals behind the bidding drill's bar chart
_FILL = "normal"  # the bots that bid and play before South's question
_SALT = 0xD211

DEALS: dict[str, tuple[int, ...]] = {
    "bidding": tuple(range(14_001, 14_001 + ITEMS)),
    "nil": (14_101, 14_104, 14_107, 14_110, 14_113, 14_116, 14_119, 14_122, 14_125, 14_128),
    "counting": tuple(range(14_201, 14_201 + ITEMS)),
}


@dataclass(frozen=True, slots=True)
class BidItem:
    deal: int
    view: View  # South to bid
    expert: Bid
    advice: Hint | None = None  # the hint for the view: the Expert's bid and why, measured


@dataclass(frozen=True, slots=True)
class NilItem:
    deal: int
    view: View  # South to bid
    nil: bool  # the Expert bids Nil here
    made: int  # Nil made in ``worlds`` of the Expert's play-outs (0 of 0: not tried)
    worlds: int


@dataclass(frozen=True, slots=True)
class CountItem:
    deal: int
    view: View  # South, some tricks into the hand
    spades_out: int
    voids: frozenset[tuple[Seat, int]]  # (seat, suit) shown void, South excluded


Item = BidItem | NilItem | CountItem


def _bidding_view(deal: int) -> View:
    """South's view at its turn to bid in the first hand of ``deal``."""
    state = GameState.new(DEFAULT_RULES, deal=deal)
    bot = make_bot(_FILL)
    while state.to_act is not Seat.S:
        state = state.apply(bot_action(bot, state))
    return view_for(state, Seat.S)


def _counting_view(deal: int) -> View:
    """South's view at its turn to play, after 4 to 8 tricks (from the deal number)."""
    state = GameState.new(DEFAULT_RULES, deal=deal)
    bot = make_bot(_FILL)
    tricks = 4 + deal % 5
    while not (state.phase is Phase.PLAYING and state.to_act is Seat.S
               and len(view_for(state, Seat.S).plays) >= 4 * tricks):
        if state.phase is not Phase.PLAYING and state.phase is not Phase.BIDDING:
            raise UsageError(f"deal {deal}: the hand ends before the question")
        state = state.apply(bot_action(bot, state))
    return view_for(state, Seat.S)


def spades_out(view: View) -> int:
    """Spades neither in ``view``'s hand nor played."""
    assert view.hand is not None
    return (view.rules.deck_mask & SPADES_MASK & ~view.hand.mask & ~view.played_mask).bit_count()


def shown_voids(view: View) -> frozenset[tuple[Seat, int]]:
    """(seat, suit) pairs the other seats have shown void in, this hand."""
    return frozenset((Seat(seat), suit) for seat in range(4) if seat != int(view.seat)
                     for suit in range(4) if view.voids[seat] >> suit & 1)


def question(drill: str, index: int) -> View:
    """South's view in item ``index`` (0 to 9) of ``drill``: the hand and the table to
    draw, cheap to build (the normal bots bid and play up to South's turn)."""
    if drill not in DEALS or not 0 <= index < ITEMS:
        raise UsageError(f"no drill item {drill!r} {index!r}")
    deal = DEALS[drill][index]
    return _counting_view(deal) if drill == "counting" else _bidding_view(deal)


def item(drill: str, index: int, budget: ExpertBudget | None = None) -> Item:
    """Item ``index`` (0 to 9) of ``drill``, with its answer."""
    return run_steps(item_steps(drill, index, budget))


def item_steps(drill: str, index: int,
               budget: ExpertBudget | None = None) -> Generator[None, None, Item]:
    """:func:`item` in steps, for a caller that cannot block (the page's main thread
    without its worker): the Expert's bid and its evaluation yield after each imagined
    deal. The same item."""
    view = question(drill, index)
    deal = DEALS[drill][index]
    if drill == "counting":
        return CountItem(deal, view, spades_out(view), shown_voids(view))
    yield
    if drill == "bidding":  # the Expert's search kept whole: its bid, and the hint's why
        evaluation = yield from evaluate_steps(view, budget)
        expert = evaluation.best
        assert isinstance(expert, Bid)
        yield
        return BidItem(deal, view, expert, hint_from(view, evaluation))
    found = yield from evaluate_steps(view, budget)
    return NilItem(deal, view, found.best == NIL, found.nil_made, found.nil_worlds)


def bid_right(given: Bid, expert: Bid) -> bool:
    """The bidding drill's scoring: Nil only for Nil; a number within one trick."""
    if given.is_nil or expert.is_nil:
        return given.is_nil == expert.is_nil
    return abs(given.tricks - expert.tricks) <= 1


def trick_counts(view: View, bid: Bid, samples: int = SAMPLES) -> tuple[int, ...]:
    """How many tricks South's hand took in each of ``samples`` deals consistent with
    ``view`` (the others' bids as made, or estimated from their sampled hands), South
    playing to ``bid``: a count for 0 to 13 tricks."""
    return run_steps(trick_counts_steps(view, bid, samples))


def trick_counts_steps(view: View, bid: Bid,
                       samples: int = SAMPLES) -> Generator[None, None, tuple[int, ...]]:
    """:func:`trick_counts` in steps: yields while the deals are drawn, and after each
    play-out. The same counts."""
    seat = int(view.seat)
    rng = SplitMix64(_SALT ^ (view.hand.mask if view.hand is not None else 0))
    worlds = yield from deal_worlds_steps(knowledge(view), rng, samples)
    yield
    counts = [0] * 14
    leader = (int(view.dealer) + 1) & 3
    for world in worlds:
        bids = [view.bids[s] if view.bids[s] is not None else Bid(max(1, expected_bid(
            world[s], nil_ok=False))) for s in range(4)]
        bids[seat] = bid
        chosen = [b if b is not None else NIL for b in bids]
        taken = play_out(world, leader, (), (0, 0, 0, 0), False, Contracts.of(chosen))
        counts[taken[seat]] += 1
        yield
    return tuple(counts)


def score(right: list[bool] | tuple[bool, ...]) -> int:
    """A drill's score out of 10: the items answered right."""
    return sum(1 for flag in right[:ITEMS] if flag)


def counting_question(index: int, found: CountItem) -> str:
    """``"spades"`` (a number) or ``"void"`` (a seat and a suit): odd items ask about a void
    when one has been shown, the others how many spades are still out."""
    return "void" if index % 2 and found.voids else "spades"


Answer = Bid | bool | int | tuple[Seat, int]


def judge(index: int, found: Item, answer: Answer) -> bool:
    """Whether ``answer`` to item ``index`` is right (the rule of each drill, see above)."""
    if isinstance(found, BidItem):
        return isinstance(answer, Bid) and bid_right(answer, found.expert)
    if isinstance(found, NilItem):
        return isinstance(answer, bool) and answer == found.nil
    if counting_question(index, found) == "void":
        return isinstance(answer, tuple) and answer in found.voids
    return isinstance(answer, int) and not isinstance(answer, bool) \
        and answer == found.spades_out


@dataclass(frozen=True, slots=True)
class NilWhy:
    """One fact of South's hand that argues for the Nil drill's answer (a key
    ``lessons.drill.nil.why.<key>`` and its card, suit and count)."""

    key: str
    card: Card | None = None
    suit: int = -1
    count: int = 0


def nil_why(found: NilItem) -> tuple[NilWhy, ...]:
    """Why this hand is a Nil or not, from its facts (:func:`spades_core.hints.nil_shape`):
    for a Nil, the facts that make it one (no side ace or king, or each in a long suit; a
    void or a singleton to throw a dangerous card on; few and low spades); otherwise, the
    facts against it (a spade of the 10 or higher, four spades or more, an ace or king in a
    short suit, no void or singleton to throw it on).  Each is true of the hand."""
    assert found.view.hand is not None
    shape = nil_shape(found.view.hand.mask)
    short = shape.short
    out: list[NilWhy] = []
    if found.nil:
        if not shape.high:
            out.append(NilWhy("clean"))
        for card in shape.high:
            if shape.lengths[card.suit] >= 4:
                out.append(NilWhy("high-long", card, card.suit, shape.lengths[card.suit]))
        if short is not None:
            out.append(NilWhy("void" if shape.lengths[short] == 0 else "singleton",
                              suit=short))
        if shape.spades == 0:
            out.append(NilWhy("no-spades"))
        elif shape.low_spades:
            out.append(NilWhy("low-spades", shape.top_spade, 3, shape.spades))
        return tuple(out)
    if shape.top_spade is not None and rank_of(shape.top_spade) >= 8:
        out.append(NilWhy("high-spade", shape.top_spade, 3))
    if shape.spades >= 4:
        out.append(NilWhy("many-spades", count=shape.spades))
    for card in shape.high:
        if shape.lengths[card.suit] < 4:
            out.append(NilWhy("high-short", card, card.suit, shape.lengths[card.suit]))
    if shape.high and short is None:
        out.append(NilWhy("no-short"))
    return tuple(out)
