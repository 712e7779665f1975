"""The expert: imagined deals, play-outs, and the real scoring of the match.

For each decision the expert deals the cards it has not seen in many ways that agree
with what its seat knows (:mod:`.sampling`: the cards each seat holds, the voids shown,
the bids as evidence), plays the rest of the hand out in each imagined deal with a fast
rule-of-thumb player (:mod:`.rollout`), scores the end of the hand with the engine's
scoring (:func:`spades_core.scoring.score_hand`: bags, Nil, Blind Nil, the bag penalty)
and values the result by the chance of winning the match (:func:`match_value`: the
scores against the target and the floor, a game-ending set counts in full).

- A card: every distinct legal card (cards with no unseen card between them are the
  same card) is tried in every imagined deal; the best total wins.  Each try is valued
  half on the play-out player's game and half on ``random_playouts`` play-outs where
  every seat plays a random legal card (:class:`~.rollout.RandomPolicy`, the same random
  numbers for every card of a deal): the rule-of-thumb player trusts every seat to play
  well, the random one trusts nobody, so a card that wins now counts for more than one
  that needs the others' help (measured against PIMC: fewer contracts set, more points;
  ``lab/journal.md``, stop 36).  In the last ``exact_tricks`` tricks each deal is not
  played out but solved: best play on both sides (:mod:`.endgame`).
- A bid: in each deal the hand is played out with each bid near its estimate (and with
  Nil if the hand could be one), every seat playing to its contract; beside a partner's
  Nil the outcomes are valued a trick short (covering the Nil spends the team's high cards),
  elsewhere two tenths of them a trick up (bolder bids score more, measured).
- Blind Nil: only when the match is nearly lost (the opponents close to the target, the
  team far behind), by comparing Blind Nil with a plain bid over imagined deals of all four
  hands, the bot's own included (many of them: the decision is close, and rare).  A Blind
  Nil the play-outs make counts in part as broken (``blind_doubt``): their opponents hunt
  a Nil less well than real ones (stop 24: 20% made in the play-outs where the expert bid
  it in the arena, 13% at the table; at stop 38's desperate starts, 21% in the play-outs
  before the doubt and 23% at the table; see ``lab/journal.md``).

Deterministic: a fixed amount of work set by :class:`ExpertBudget` (never the clock), and
every random draw from a :class:`~spades_core.deal.SplitMix64` seeded by
:func:`~spades_core.bots.base.view_seed` (the random play-outs' numbers from the cards of
the imagined deal they play, itself drawn so).  Values are integers (the chance of winning in
millionths), so that sums and comparisons are exact on every platform.

In steps: :meth:`ExpertBot.play_steps`, :meth:`~ExpertBot.bid_steps` and
:meth:`~ExpertBot.blind_nil_steps` are the search itself, as generators that yield after
each imagined deal and return the decision (``play``, ``bid`` and ``blind_nil`` run them
to the end); :func:`action_steps` is :func:`~spades_core.bots.driver.bot_action` in
steps.  A caller that cannot block (the page's main thread) runs them a slice at a time;
where the pauses fall changes nothing in the decision.
"""

from __future__ import annotations

import math
from collections.abc import Generator
from dataclasses import dataclass, field
from typing import TypeVar

from ..bids import BLIND_NIL, NIL, Bid
from ..cards import CARDS, SUIT_OF, Card
from ..deal import SplitMix64
from ..errors import UsageError
from ..game import GameState, Phase
from ..rules import Rules, game_winner
from ..scoring import score_hand
from ..views import View, view_for
from .base import Bot, view_seed
from .driver import bot_action
from .endgame import Solver, distinct_cards
from .handeval import estimate_tricks, expected_bid, nil_risk
from .policy import PolicyBot
from .rollout import Contracts, RandomPolicy, play_out
from .sampling import World, deal_worlds_steps, knowledge

_PLAY_SALT = 0x91A7
_BID_SALT = 0xB1D5
_BLIND_SALT = 0xB11D
_BLIND_MARGIN = 10_000  # Blind Nil must add 1% to the chance of winning, on average

Bids = tuple[Bid, Bid, Bid, Bid]
T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class ExpertBudget:
    """The fixed amount of work per decision (the expert's strength and speed)."""

    play_cards: int = 28000  # card plays simulated for one card decision, about
    min_worlds: int = 16
    max_worlds: int = 220
    policy_prior: int = 1000  # millionths of a win per deal for the play-out player's card
    random_playouts: int = 2  # random play-outs of each card in each deal (a second opinion)
    policy_weight: int = 5  # tenths of a card's value from the policy's play-out, the rest random
    exact_tricks: int = 4  # this many tricks left or fewer: exact play (:mod:`.endgame`)
    exact_worlds: int = 40  # imagined deals for a card then
    bid_worlds: int = 72
    bid_spread: int = 2  # numbers played out: the estimate and this many either side
    doubt: int = 0  # tenths of a bid's outcomes valued a trick short (see _doubtful)
    cover_doubt: int = 10  # the same beside a partner's Nil
    bold: int = 2  # tenths of a bid's outcomes valued a trick up, where nothing is doubted
    blind_worlds: int = 160  # rarely asked (only when far behind), so many deals
    blind_behind: int = 100  # Blind Nil is weighed only this far behind, the opponents
    blind_close: int = 100  # within this of the target
    blind_doubt: int = 3  # tenths of the play-outs' made Blind Nils valued as broken


# --- the value of an outcome --------------------------------------------------------


def match_value(rules: Rules, team: int, scores: tuple[int, int], bags: tuple[int, int]) -> int:
    """The chance (in millionths) that ``team`` wins the match from ``scores``/``bags``
    at the end of a hand, plus a small tie-break on the score difference.

    A decided game is worth 1 000 000 or 0.  Otherwise the lead (less the bags' future
    cost) is compared with the spread of the hands still to play: about 90 points per
    hand, and about one hand per 60 points the leading team still needs to reach the
    target.
    """
    mine, theirs = scores[team], scores[1 - team]
    winner = game_winner(scores, rules)
    tie_break = 2 * (mine - theirs)
    if winner is not None:
        return (1_000_000 if winner == team else 0) + tie_break
    hands_left = max(0.5, (rules.target - max(mine, theirs)) / 60.0)
    bag_cost = rules.bag_penalty / rules.bag_limit * min(1.0, hands_left / 4.0)
    lead = (mine - theirs) - bag_cost * (bags[team] - bags[1 - team])
    if rules.floor is not None:
        # a team near the floor may lose at once: shade its chances
        for side, sign in ((team, -1.0), (1 - team, 1.0)):
            room = scores[side] - rules.floor
            if room < 120:
                lead += sign * (120 - room) * 0.5
    z = lead / (90.0 * math.sqrt(hands_left))
    return int(normal_cdf(z) * 1_000_000) + tie_break


def normal_cdf(z: float) -> float:
    """About the standard normal distribution function (within 0.02), from ``+ - * /`` and
    ``sqrt`` only: IEEE 754 rounds those exactly, so every platform gets the same bits
    (``math.erf`` and ``math.exp`` may differ in the last bit between C libraries)."""
    y = 0.798 * z + 0.2 * z * z * z
    return 0.5 * (1.0 + y / math.sqrt(1.0 + y * y))


class _Scorer:
    """Values of hand outcomes for one decision, memoised by bids and tricks."""

    __slots__ = ("rules", "team", "scores", "bags", "memos")

    def __init__(self, view: View) -> None:
        self.rules = view.rules
        self.team = int(view.seat) & 1
        self.scores = view.scores
        self.bags = view.bags
        self.memos: dict[Bids, dict[tuple[int, int, int, int], int]] = {}

    def table(self, bids: Bids) -> dict[tuple[int, int, int, int], int]:
        """The memo of outcomes under ``bids`` (fill it through :meth:`value`)."""
        found = self.memos.get(bids)
        if found is None:
            found = self.memos[bids] = {}
        return found

    def value(self, bids: Bids, tricks: tuple[int, int, int, int],
              memo: dict[tuple[int, int, int, int], int] | None = None) -> int:
        if memo is None:
            memo = self.table(bids)
        found = memo.get(tricks)
        if found is None:
            teams = score_hand(bids, tricks, self.bags, self.rules)
            scores = (self.scores[0] + teams[0].points, self.scores[1] + teams[1].points)
            bags = (teams[0].bags_after, teams[1].bags_after)
            found = memo[tricks] = match_value(self.rules, self.team, scores, bags)
        return found


# --- the bot --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class BlindNilWeighing:
    """Blind Nil weighed against a number: the sums, over ``worlds`` imagined deals, of
    the chance of winning (millionths) after each."""

    blind: int
    plain: int
    worlds: int

    @property
    def bids(self) -> bool:
        """Whether Blind Nil is bid: it must add ``_BLIND_MARGIN`` a deal, on average."""
        return self.blind > self.plain + _BLIND_MARGIN * self.worlds

    @property
    def margin(self) -> int:
        """What Blind Nil adds to the chance of winning, on average (millionths)."""
        return (self.blind - self.plain) // max(1, self.worlds)


def _bids_with(bids: list[Bid], seat: int, bid: Bid) -> Bids:
    found = list(bids)
    found[seat] = bid
    return (found[0], found[1], found[2], found[3])


class ExpertBot:
    """Determinized search with play-outs, scored by the match (see the module)."""

    def __init__(self, budget: ExpertBudget | None = None) -> None:
        self.budget = budget or ExpertBudget()

    # --- card play ---------------------------------------------------------------

    def play(self, view: View) -> Card:
        return run_steps(self.play_steps(view))

    def play_steps(self, view: View) -> Generator[None, None, Card]:
        """:meth:`play` in steps: yields after the imagined deals are drawn and after
        each of them is played out."""
        found = yield from _play_search(view, self.budget)
        action = found.best
        assert isinstance(action, Card)
        return action

    # --- bidding -------------------------------------------------------------------

    def bid(self, view: View) -> Bid:
        return run_steps(self.bid_steps(view))

    def bid_steps(self, view: View) -> Generator[None, None, Bid]:
        """:meth:`bid` in steps: yields after the imagined deals are drawn and after
        each of them is played out."""
        if view.hand is None:
            raise UsageError("the expert bids after looking at its cards")
        found = yield from _bid_search(view, self.budget)
        action = found.best
        assert isinstance(action, Bid)
        return action

    # --- Blind Nil -------------------------------------------------------------------

    def blind_nil(self, view: View) -> bool:
        return run_steps(self.blind_nil_steps(view))

    def blind_nil_steps(self, view: View) -> Generator[None, None, bool]:
        """:meth:`blind_nil` in steps: yields after the imagined deals are drawn and
        after each of them is played out."""
        weighed = yield from self.weigh_blind_nil_steps(view)
        return weighed is not None and weighed.bids

    def weigh_blind_nil_steps(
        self, view: View
    ) -> Generator[None, None, BlindNilWeighing | None]:
        """Blind Nil weighed against a number over imagined deals (the steps of
        :meth:`blind_nil_steps`), or None where it is not weighed: not offered, the match
        not nearly lost, or the partner's Nil already bid."""
        if not view.rules.blind_nil:
            return None
        seat = int(view.seat)
        partner_bid = view.bids[(seat + 2) & 3]
        if not self._desperate(view) or (partner_bid is not None and partner_bid.is_nil):
            return None
        know = knowledge(view)
        rng = SplitMix64(view_seed(view, _BLIND_SALT))
        worlds = yield from deal_worlds_steps(know, rng, self.budget.blind_worlds)
        yield
        scorer = _Scorer(view)
        leader = (int(view.dealer) + 1) & 3
        blind_total = 0
        plain_total = 0
        for world in worlds:
            bids = _imagined_bids(view, world)
            blind = _bids_with(bids, seat, BLIND_NIL)
            taken = play_out(world, leader, (), (0, 0, 0, 0), False, Contracts.of(blind))
            blind_total += _broken(scorer, blind, taken, seat, self.budget.blind_doubt)
            plain = _bids_with(bids, seat, Bid(max(1, expected_bid(world[seat], False))))
            taken = play_out(world, leader, (), (0, 0, 0, 0), False, Contracts.of(plain))
            plain_total += scorer.value(plain, taken)
            yield
        return BlindNilWeighing(blind_total, plain_total, len(worlds))

    def _desperate(self, view: View) -> bool:
        """Whether the match is nearly lost, so that a Blind Nil is worth weighing: the
        opponents within ``blind_close`` of the target (they may well win with this hand)
        and the team at least ``blind_behind`` behind them."""
        team = int(view.seat) & 1
        behind = view.scores[1 - team] - view.scores[team]
        to_go = view.rules.target - view.scores[1 - team]
        return behind >= self.budget.blind_behind and to_go <= self.budget.blind_close


# --- decisions in steps --------------------------------------------------------------


def run_steps(steps: Generator[None, None, T]) -> T:
    """Run a decision in steps to its end: its result."""
    while True:
        try:
            next(steps)
        except StopIteration as done:
            return done.value  # type: ignore[no-any-return]


def action_steps(bot: Bot, state: GameState) -> Generator[None, None, Card | Bid]:
    """:func:`~spades_core.bots.driver.bot_action` in steps: the expert's search yields
    after each imagined deal; any other bot decides in one step.  Run to its end, it
    returns the same action as ``bot_action(bot, state)``."""
    if not isinstance(bot, ExpertBot):
        return bot_action(bot, state)
    seat = state.to_act
    if seat is None:
        raise UsageError("nobody is to act")
    if state.phase is Phase.BIDDING:
        if state.rules.blind_nil:
            blind = yield from bot.blind_nil_steps(view_for(state, seat, hand_seen=False))
            if blind:
                return BLIND_NIL
        return (yield from bot.bid_steps(view_for(state, seat)))
    return (yield from bot.play_steps(view_for(state, seat)))


# --- the evaluation behind a decision (for the coach) -----------------------------------
#
# The same search as :meth:`ExpertBot.play` and :meth:`ExpertBot.bid` (the same worlds,
# the same play-outs), kept whole: every candidate with its total and the number of
# deals it was tried in.  ``tests/test_hint_truth.py`` checks that the best candidate is
# the bot's own decision, so the two stay one search.


@dataclass(frozen=True, slots=True)
class Candidate:
    """One legal action and its value summed over the imagined deals it was tried in."""

    action: Card | Bid
    total: int  # sum of match values (millionths of a win)
    worlds: int  # deals it was tried in (successive halving drops the weaker half)
    #: its value in each of those deals, in the order of the search's deals (the first
    #: ``worlds`` of them): two candidates compare deal by deal on the deals both were tried in
    values: tuple[int, ...] = field(default=(), compare=False, repr=False)

    @property
    def mean(self) -> float:
        return self.total / self.worlds if self.worlds else 0.0


@dataclass(frozen=True, slots=True)
class Evaluation:
    """The candidates of one decision, the best first; for a bid, how often a Nil was
    made in the play-outs (``nil_made`` of ``nil_worlds``; 0 of 0 when not tried)."""

    candidates: tuple[Candidate, ...]
    nil_made: int = 0
    nil_worlds: int = 0

    @property
    def best(self) -> Card | Bid:
        return self.candidates[0].action

    def of(self, action: Card | Bid) -> Candidate | None:
        for candidate in self.candidates:
            if candidate.action == action:
                return candidate
        return None

    def paired(self, one: Card | Bid, other: Card | Bid) -> tuple[int, int, int] | None:
        """``one`` against ``other`` deal by deal, on the deals both were tried in: the sum
        of the differences (millionths of a win), the sum of their squares, and their
        number; None when either was not evaluated deal by deal."""
        first, second = self.of(one), self.of(other)
        if first is None or second is None:
            return None
        count = min(len(first.values), len(second.values))
        if count == 0:
            return None
        total = squares = 0
        for a, b in zip(first.values[:count], second.values[:count], strict=True):
            total += a - b
            squares += (a - b) * (a - b)
        return total, squares, count


def evaluate(view: View, budget: ExpertBudget | None = None) -> Evaluation:
    """The expert's evaluation of every distinct legal card (playing) or bid (bidding)
    of ``view``, whose seat has looked at its cards; the best first, as the bot chooses."""
    return run_steps(evaluate_steps(view, budget))


def evaluate_steps(view: View,
                   budget: ExpertBudget | None = None) -> Generator[None, None, Evaluation]:
    """:func:`evaluate` in steps, for a caller that cannot block: it yields after the
    imagined deals are drawn and after each of them is played out. The same evaluation."""
    budget = budget or ExpertBudget()
    if view.hand is None:
        raise UsageError("the expert evaluates after looking at its cards")
    if view.legal_bids:
        return (yield from _bid_search(view, budget))
    return (yield from _play_search(view, budget))


def _play_search(view: View, budget: ExpertBudget) -> Generator[None, None, Evaluation]:
    """The search behind a card: every distinct legal card tried in the imagined deals
    (successive halving: every card on the first half of the deals, the better half of
    them on the rest); yields after the deals are drawn and after each deal (each card
    of each deal, when the deals are solved).  A card's value in a deal is its play-out
    with the policy, weighed ``policy_weight`` tenths, and the mean of ``random_playouts``
    play-outs with random cards (:class:`~.rollout.RandomPolicy`, reseeded from the deal
    alone: every card meets the same random numbers), the rest.  In the last
    ``exact_tricks`` tricks, the ``exact_worlds`` deals are solved
    (:class:`~.endgame.Solver`) instead of played out.
    The card the play-out player itself would choose (:class:`PolicyBot`: win cheaply,
    second hand low...) gets ``policy_prior`` per deal: a closer call than that is
    sampling noise and goes to it; then equal values go to the lowest card."""
    legal_cards = view.legal_plays
    if len(legal_cards) == 1 or view.hand is None:
        return Evaluation((Candidate(legal_cards[0], 0, 0),))
    legal = 0
    for card in legal_cards:
        legal |= card.bit
    trick = tuple(card.id for _, card in view.trick)
    in_trick = 0
    for card_id in trick:
        in_trick |= 1 << card_id
    know = knowledge(view)
    options = distinct_cards(legal, know.unseen | in_trick)
    if len(options) == 1:
        return Evaluation((Candidate(CARDS[options[0]], 0, 0),))
    preferred = _option_of(options, PolicyBot().play(view).id)
    cards_left = know.unseen.bit_count() + view.hand.mask.bit_count()
    kept = max(2, (len(options) + 1) // 2)
    exact = (cards_left + len(trick) + 3) // 4 <= budget.exact_tricks
    if exact:
        count = budget.exact_worlds
    else:
        rollouts = budget.play_cards // max(1, cards_left)
        count = 2 * rollouts // (len(options) + kept)
        count = max(budget.min_worlds, min(budget.max_worlds, count))
    rng = SplitMix64(view_seed(view, _PLAY_SALT))
    worlds = yield from deal_worlds_steps(know, rng, count)
    yield
    bids = tuple(bid if bid is not None else NIL for bid in view.bids)
    by_seat: Bids = (bids[0], bids[1], bids[2], bids[3])
    contracts = Contracts.of(by_seat)
    scorer = _Scorer(view)
    leader = int(view.leader) if view.leader is not None else int(view.seat)
    tricks = view.tricks_won
    broken = view.spades_broken
    memo = scorer.table(by_seat)
    totals = [0] * len(options)
    tried = [0] * len(options)
    per_deal: list[list[int]] = [[] for _ in options]  # each card's value in each deal

    def rank(i: int) -> tuple[int, bool, int]:
        bonus = budget.policy_prior * tried[i] if i == preferred else 0
        return (-(totals[i] + bonus), i != preferred, i)

    def outcome(taken: tuple[int, int, int, int]) -> int:
        return scorer.value(by_seat, taken, memo)

    randoms = budget.random_playouts
    weight = budget.policy_weight if randoms else 10
    share = max(1, randoms)  # the policy's play-out counts as this many random ones
    player = RandomPolicy()
    alive = list(range(len(options)))
    for number, world in enumerate(worlds):
        if number == count // 2 and len(alive) > kept:
            alive = sorted(sorted(alive, key=rank)[:kept])
        solver = Solver(scorer.team, outcome) if exact else None
        seed = _world_seed(world)
        for index in alive:
            if solver is not None:  # a solve may take a while: a pause after each
                solved = solver.solve(world, leader, trick, tricks, broken,
                                      first=options[index])
                totals[index] += solved
                per_deal[index].append(solved)
                yield
            else:
                taken = play_out(world, leader, trick, tricks, broken, contracts,
                                 first=options[index])
                value = outcome(taken) * weight * share
                for stream in range(randoms):  # the same numbers for every card
                    player.reseed(seed + stream * _STREAM)
                    taken = play_out(world, leader, trick, tricks, broken, contracts,
                                     first=options[index], policy=player)
                    value += outcome(taken) * (10 - weight)
                totals[index] += value // (10 * share)
                per_deal[index].append(value // (10 * share))
            tried[index] += 1
        yield
    full = max(tried)
    order = sorted(range(len(options)), key=lambda i: (tried[i] < full, *rank(i)))
    return Evaluation(tuple(Candidate(CARDS[options[i]], totals[i], tried[i], tuple(per_deal[i]))
                            for i in order))


_GOLDEN = 0x9E3779B97F4A7C15
_STREAM = 0x632BE59BD9B4E019


def _world_seed(world: World) -> int:
    """A seed for the random play-outs of an imagined deal, from its cards alone."""
    mixed = world[0] ^ (world[1] << 5) ^ (world[2] << 11) ^ (world[3] << 17)
    return (mixed * _GOLDEN) & 0xFFFF_FFFF_FFFF_FFFF


def _option_of(options: list[int], card: int) -> int:
    """The index of the option that stands for ``card`` (the last run starting at or
    below it, in the same suit); -1 if none."""
    found = -1
    for index, option in enumerate(options):
        if option <= card and SUIT_OF[option] == SUIT_OF[card]:
            found = index
    return found


def _bid_search(view: View, budget: ExpertBudget) -> Generator[None, None, Evaluation]:
    """The search behind a bid; yields after the imagined deals are drawn and after each.

    In every deal, each number from ``bid_spread`` below the hand's estimate to as far
    above it is played out with that bid (every seat playing to its contract: the team
    ducks once it is made), and so is Nil when the hand could be one.  The numbers further
    out are scored on the play-out of the nearest number tried.  Beside a partner's Nil,
    each outcome is valued with doubt (:func:`_doubtful`): covering the Nil spends the
    team's high cards, so the team takes about a trick less than the play-outs say.
    Elsewhere it is valued with a little boldness, the team a trick up now and then
    (measured: it scores more than no boldness, and doubt scores less).
    """
    assert view.hand is not None
    hand = view.hand.mask
    seat = int(view.seat)
    know = knowledge(view)
    rng = SplitMix64(view_seed(view, _BID_SALT))
    worlds = yield from deal_worlds_steps(know, rng, budget.bid_worlds)
    yield
    centre, low, high = _numbers_tried(hand, budget)
    numbers = range(1, 14)
    try_nil = nil_risk(hand) <= 3.0
    partner_bid = view.bids[(seat + 2) & 3]
    partner_nil = partner_bid is not None and partner_bid.is_nil
    doubt = budget.cover_doubt if partner_nil else budget.doubt
    totals = [0] * 14  # by number bid (0 unused)
    per_deal: list[list[int]] = [[] for _ in range(14)]  # each bid's value in each deal
    nil_values: list[int] = []
    nil_total = nil_made = 0
    scorer = _Scorer(view)
    leader = (int(view.dealer) + 1) & 3
    for world in worlds:
        bids = _imagined_bids(view, world)
        outcomes: dict[int, tuple[int, int, int, int]] = {}
        for number in range(low, high + 1):
            mine = _bids_with(bids, seat, Bid(number))
            outcomes[number] = play_out(world, leader, (), (0, 0, 0, 0), False,
                                        Contracts.of(mine))
        for number in numbers:
            mine = _bids_with(bids, seat, Bid(number))
            taken = outcomes[min(high, max(low, number))]
            value = _doubtful(scorer, mine, taken, seat, doubt, budget.bold)
            totals[number] += value
            per_deal[number].append(value)
        if try_nil:
            mine = _bids_with(bids, seat, NIL)
            taken = play_out(world, leader, (), (0, 0, 0, 0), False, Contracts.of(mine))
            value = _doubtful(scorer, mine, taken, seat, doubt, budget.bold)
            nil_total += value
            nil_values.append(value)
            nil_made += taken[seat] == 0
        yield
    ranked = sorted(numbers, key=lambda n: (-totals[n], abs(n - centre), n))
    found = [Candidate(Bid(n), totals[n], len(worlds), tuple(per_deal[n])) for n in ranked]
    if try_nil:
        nil = Candidate(NIL, nil_total, len(worlds), tuple(nil_values))
        nil_first = nil_total > totals[ranked[0]] and not partner_nil
        found.insert(0 if nil_first else len(found), nil)
        if not nil_first:  # keep the order by value, the bot's choice first
            found = [found[0], *sorted(found[1:], key=lambda c: (-c.total, str(c.action)))]
    return Evaluation(tuple(found), nil_made, len(worlds) if try_nil else 0)


def _numbers_tried(hand: int, budget: ExpertBudget) -> tuple[int, int, int]:
    """The bid search's estimate of ``hand`` and the lowest and highest numbers it plays
    out (the others are valued on the nearest of these)."""
    centre = max(1, min(13, int(estimate_tricks(hand) + 0.5)))
    return centre, max(1, centre - budget.bid_spread), min(13, centre + budget.bid_spread)


Forecast = list[tuple[Bids, tuple[int, int, int, int]]]


def bid_forecast(view: View, bid: Bid, budget: ExpertBudget | None = None) -> Forecast:
    """What the bid search foresees for ``bid`` (a number or Nil) at ``view``: for each of
    its imagined deals, the bids (the others' made or guessed) and the tricks by seat of
    the play-out it values ``bid`` on.  For measuring the search as a forecaster of the
    table (``lab/playout_calibration.py``); the search itself does not call it."""
    budget = budget or ExpertBudget()
    if view.hand is None or not view.legal_bids:
        raise UsageError("a forecast is for a seat that has looked at its cards and bids")
    seat = int(view.seat)
    _, low, high = _numbers_tried(view.hand.mask, budget)
    played = bid if bid.is_nil else Bid(min(high, max(low, bid.tricks)))
    rng = SplitMix64(view_seed(view, _BID_SALT))
    worlds = run_steps(deal_worlds_steps(knowledge(view), rng, budget.bid_worlds))
    leader = (int(view.dealer) + 1) & 3
    found = []
    for world in worlds:
        bids = _imagined_bids(view, world)
        taken = play_out(world, leader, (), (0, 0, 0, 0), False,
                         Contracts.of(_bids_with(bids, seat, played)))
        found.append((_bids_with(bids, seat, bid), taken))
    return found


def _imagined_bids(view: View, world: World) -> list[Bid]:
    """The bids of an imagined deal: those made, and a plain guess for the others."""
    found: list[Bid] = []
    for player in range(4):
        bid = view.bids[player]
        if bid is None:
            bid = Bid(expected_bid(world[player]))
        found.append(bid)
    return found


def _broken(scorer: _Scorer, bids: Bids, taken: tuple[int, int, int, int], seat: int,
            doubt: int) -> int:
    """The value of a play-out's outcome for ``seat``'s team, where ``seat`` bid Blind
    Nil: a made one is mixed (``doubt`` tenths) with the same outcome where ``seat`` took
    one trick, from its partner if the partner took any, else from the opponent who took
    the most (the play-outs' opponents hunt a Nil less well than real ones)."""
    value = scorer.value(bids, taken)
    if not doubt or taken[seat]:
        return value
    partner = (seat + 2) & 3
    opponents = ((seat + 1) & 3, (seat + 3) & 3)
    giver = partner if taken[partner] else max(opponents, key=lambda p: taken[p])
    return _mixed(scorer, bids, taken, value, giver, seat, doubt)


def _doubtful(scorer: _Scorer, bids: Bids, taken: tuple[int, int, int, int], seat: int,
              doubt: int, bold: int = 0) -> int:
    """The value of a play-out's outcome for ``seat``'s team, mixed (``doubt`` tenths)
    with the same outcome less one trick for the team, given to an opponent: the trick
    comes from the partner who bid a number and took the most (``seat`` on a tie).
    Without doubt, mixed instead (``bold`` tenths) with the outcome where the team took
    one trick more, from the opponent not bidding Nil who took the most (the left one on
    a tie), given to ``seat`` (to its partner if ``seat`` bid Nil).  Measured against
    PIMC, hand by hand (``lab/journal.md``, stop 31): doubt loses points, 2 tenths of
    boldness gains some (the bolder bids are set a little more often and take fewer bags)."""
    value = scorer.value(bids, taken)
    if not doubt:
        if not bold:
            return value
        opponents = [p for p in ((seat + 1) & 3, (seat + 3) & 3)
                     if taken[p] and not bids[p].is_nil]
        if not opponents:
            return value
        giver = max(opponents, key=lambda p: taken[p])
        receiver = seat if not bids[seat].is_nil else (seat + 2) & 3
        return _mixed(scorer, bids, taken, value, giver, receiver, bold)
    partner = (seat + 2) & 3
    givers = [p for p in (seat, partner) if taken[p] and not bids[p].is_nil]
    if not givers:
        givers = [p for p in (seat, partner) if taken[p]]
        if not givers:
            return value
    giver = max(givers, key=lambda p: (taken[p], p == seat))
    left = (seat + 1) & 3
    receiver = left if not bids[left].is_nil else (seat + 3) & 3
    return _mixed(scorer, bids, taken, value, giver, receiver, doubt)


def _mixed(scorer: _Scorer, bids: Bids, taken: tuple[int, int, int, int], value: int,
           giver: int, receiver: int, doubt: int) -> int:
    """``value`` (that of ``taken``) mixed, ``doubt`` tenths, with the value of the same
    outcome where ``giver`` took one trick fewer and ``receiver`` one more."""
    shifted = list(taken)
    shifted[giver] -= 1
    shifted[receiver] += 1
    worse = scorer.value(bids, (shifted[0], shifted[1], shifted[2], shifted[3]))
    return ((10 - doubt) * value + doubt * worse) // 10
