"""``python -m spades_core bench``: the engine's speed, printed as one JSON object.

The engine has two paths, and the benchmark measures both:

- the bots' path, :func:`.bots.rollout.play_out`: a hand played on bit masks by the rules'
  tables (:data:`.rules.PLAY_FROM`, :data:`.rules.BEATEN_BY`), with a player asked for a
  card only when there is a choice.  The expert's search plays every imagined deal out on
  it; it is the engine's fast path.
- the table's path, :class:`.GameState`: each ``state.apply(action)`` checks the action,
  makes a new immutable state and works out the next legal actions (the table, the
  views, the records and the arena use it; the bots read views of it, once a decision).

Both are driven from Python by the same loop: one seeded ``random.Random(seed)`` and, for
every choice, ``choice(<the legal actions>)``; a fixed number of actions per hand; nothing
kept from one hand to the next but what each engine keeps itself (ours: the tuples of
Cards of each suit's cards, built when first asked for).  Each figure is the best of
``repeats`` runs of ``hands`` hands, the runs taking turns, timed in this process's CPU
time (``time.process_time``: on a shared machine, time spent waiting for a core counts
against no side).  Still, compare the ratios, taken within one run, rather than the rates
across runs.

``random_hands_per_s`` (the bots' path): per hand, the deal from the deal number
(:func:`.deal.deal_hand`: SplitMix64 and a Fisher–Yates shuffle), 4 × ``choice(ALL_BIDS)``,
then :func:`~.bots.rollout.play_out` of the 52 cards with a random player,
the k-th card of the legal mask in id order for ``k = randrange(<the count>)``, the draw
``choice`` makes (a seat with one legal card plays it unasked), then
:func:`.scoring.score_hand` and :func:`.rules.game_winner`; when a game ends a new one
starts with the next deal number.
``immutable_hands_per_s`` (the table's path): the very same hands through
``GameState.new(Rules(), deal=seed)``, 4 × ``state.apply(choice(state.legal_bids()))`` and
52 × ``state.apply(choice(state.legal_plays()))`` (a single legal card applied unasked,
so that both paths draw the same numbers and play the same cards: the tests check that
they give the same tricks and scores); the 52nd play scores the hand and deals the next.

``openspiel_hands_per_s`` (when ``pyspiel`` is installed): OpenSpiel's ``spades`` game,
whose state is one hand.  Per hand ``game.new_initial_state()``, then 52 chance actions
(the deal, card by card) and 56 player actions (4 bids, 52 plays), each as
``state.apply_action(choice(state.legal_actions()))``: the plain, documented way to drive
it from Python (no ``is_chance_node()`` calls between actions: this side is told the
counts, as ours is).  Its deal thus costs 52 round trips from Python, where ours deals in
one call: that is what each engine offers.  ``ratio_vs_openspiel`` is the bots' path over
OpenSpiel's, ``immutable_ratio_vs_openspiel`` the table's path over OpenSpiel's, in the
same run.

``search_plays_per_s``: the speed the expert's search gets, in cards played per second:
:func:`~.bots.rollout.play_out` with the expert's own play-out player
(:func:`~.bots.rollout.policy_card`) over the first hands of ``hands // 4`` deals (bids by
:func:`~.bots.handeval.expected_bid`), 52 plays each.

``hint_ms`` (with ``--hints``): the coach's hint on the positions of the bots' decision times
(:func:`hint_timings`), CPU time.

``legal_plays_ns``: the mean cost of ``GameState.legal_plays()`` over 5000 positions of
such hands, each asked once.  A state works out its legal plays (the tuple of Cards) when
it is made, with the action that makes it, so this is only the cost of the call: the work
itself is counted in ``immutable_hands_per_s``.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from typing import Any

from .bids import ALL_BIDS, Bid
from .deal import deal_hand
from .errors import UsageError
from .game import OVER, GameState, Phase, bids_by_seat
from .rules import Rules, game_winner
from .scoring import score_hand
from .seats import dealer_of_hand

HandSummary = tuple[tuple[int, int, int, int], tuple[int, int]]
"""One hand played: the tricks taken by seat, and the game's scores after it."""


def play_hands(count: int, seed: int) -> list[HandSummary]:
    """``count`` random hands on the bots' path (:func:`.bots.rollout.play_out`)."""
    from .bots.rollout import Contracts, play_out  # the bots' package imports the engine

    rng = random.Random(seed)
    choice = rng.choice
    below = rng.randrange  # randrange(n) draws as choice() does from n items

    def random_player(  # the play-out player's arguments (rollout.Policy), named: no packing
        seat: int, hand: int, legal: int, trick_len: int, led: int, win_card: int,
        win_seat: int, others: int, nil_alive: Sequence[bool], nils: bool, need: int,
        opp_need: int, tricks_left: int, eager: bool,
    ) -> int:
        for _ in range(below(legal.bit_count())):  # the k-th card of legal, in id order
            legal &= legal - 1
        return (legal & -legal).bit_length() - 1

    rules = Rules()
    deck = rules.deck_mask
    bids = ALL_BIDS if rules.blind_nil else ALL_BIDS[:-1]
    deal, index, scores, bags = seed, 0, (0, 0), (0, 0)
    played: list[HandSummary] = []
    for _ in range(count):
        hands = deal_hand(deal, index, deck)
        dealer = dealer_of_hand(index)
        history: list[Bid] = [choice(bids), choice(bids), choice(bids), choice(bids)]
        by_seat = bids_by_seat(history, dealer)
        tricks = play_out(
            hands, (dealer + 1) & 3, (), (0, 0, 0, 0), False, Contracts.of(by_seat),
            policy=random_player,
        )
        teams = score_hand(by_seat, tricks, bags, rules)
        scores = (scores[0] + teams[0].points, scores[1] + teams[1].points)
        bags = (teams[0].bags_after, teams[1].bags_after)
        played.append((tricks, scores))
        if game_winner(scores, rules) is None:
            index += 1
        else:  # a new game, with the next deal number
            deal, index, scores, bags = deal + 1, 0, (0, 0), (0, 0)
    return played


def play_states(count: int, seed: int) -> list[HandSummary]:
    """The same hands through :class:`GameState`, each action making a new state."""
    rng = random.Random(seed)
    choice = rng.choice
    rules = Rules()
    deal = seed
    state = GameState.new(rules, deal=deal)
    played: list[HandSummary] = []
    for _ in range(count):
        if state.phase is OVER:
            deal += 1
            state = GameState.new(rules, deal=deal)
        for _ in range(4):
            state = state.apply(choice(state.legal_bids()))
        for _ in range(52):
            legal = state.legal_plays()
            state = state.apply(legal[0] if len(legal) == 1 else choice(legal))
        hand = state.past_hands[-1]
        played.append((hand.tricks, hand.scores))
    return played


def search_plays(count: int, seed: int) -> Callable[[], int]:
    """A run of the expert's play-outs over the first hands of ``count`` deals from
    ``seed``, dealt beforehand; the run returns the cards it played."""
    from .bots.handeval import expected_bid
    from .bots.rollout import Contracts, play_out

    deck = Rules().deck_mask
    dealt = [deal_hand(deal, 0, deck) for deal in range(seed, seed + count)]
    leader = (dealer_of_hand(0) + 1) & 3
    contracts = [
        Contracts.of((Bid(expected_bid(n)), Bid(expected_bid(e)), Bid(expected_bid(s)),
                      Bid(expected_bid(w))))
        for n, e, s, w in dealt
    ]

    def run() -> int:
        plays = 0
        for hands, contract in zip(dealt, contracts, strict=True):
            taken = play_out(hands, leader, (), (0, 0, 0, 0), False, contract)
            plays += 4 * sum(taken)
        return plays

    return run


def _positions(count: int, seed: int) -> list[GameState]:
    """Positions in the play of random hands (bids and cards chosen at random)."""
    rng = random.Random(seed)
    positions: list[GameState] = []
    state = GameState.new(deal=seed)
    while len(positions) < count:
        if state.phase is Phase.OVER:
            state = GameState.new(deal=rng.randrange(2**53))
        elif state.phase is Phase.BIDDING:
            state = state.apply(rng.choice(state.legal_bids()))
        else:
            positions.append(state)
            state = state.apply(rng.choice(state.legal_plays()))
    return positions


def openspiel_hands(count: int, seed: int) -> Callable[[], None] | None:
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        return None
    game = pyspiel.load_game("spades")

    def run() -> None:
        rng = random.Random(seed)
        choice = rng.choice
        for _ in range(count):
            state = game.new_initial_state()
            for _ in range(52 + 56):  # the deal's chance actions, then 4 bids and 52 plays
                state.apply_action(choice(state.legal_actions()))

    return run


def _best_times(runs: dict[str, Callable[[], object]], repeats: int) -> dict[str, float]:
    """The best time of each run over ``repeats`` rounds, the runs taking turns within a
    round: a shared machine's changing load then weighs on each alike."""
    best = dict.fromkeys(runs, float("inf"))
    for _ in range(repeats):
        for name, run in runs.items():
            start = time.process_time()
            run()
            best[name] = min(best[name], time.process_time() - start)
    return best


def _rate(count: int, seconds: float) -> float:
    """``count`` per second, never infinite: a run too quick for the clock counts as 1 ns."""
    return round(count / max(seconds, 1e-9), 1)


def run_bench(hands: int = 2000, repeats: int = 5, seed: int = 1,
              hints: bool = False) -> dict[str, Any]:
    """The figures of the module's documentation; ``hands`` and ``repeats`` at least 1;
    ``hints``: the coach's hint times too."""
    if hands < 1 or repeats < 1:
        raise UsageError("hands and repeats must be at least 1")
    search = search_plays(max(1, hands // 4), seed)
    search_count = search()  # the cards one run plays (the same every run)
    runs: dict[str, Callable[[], object]] = {
        "ours": lambda: play_hands(hands, seed),
        "states": lambda: play_states(hands, seed),
        "search": search,
    }
    openspiel = openspiel_hands(hands, seed)
    if openspiel is not None:
        runs["openspiel"] = openspiel
    seconds = _best_times(runs, repeats)
    result: dict[str, Any] = {
        "random_hands_per_s": _rate(hands, seconds["ours"]),
        "immutable_hands_per_s": _rate(hands, seconds["states"]),
        "search_plays_per_s": _rate(search_count, seconds["search"]),
    }
    best = float("inf")
    for repeat in range(repeats):
        positions = _positions(5000, seed + repeat)
        start = time.process_time()
        for state in positions:
            state.legal_plays()
        best = min(best, (time.process_time() - start) / len(positions))
    result["legal_plays_ns"] = round(best * 1e9, 1)
    if openspiel is not None:
        theirs = seconds["openspiel"]
        result["openspiel_hands_per_s"] = _rate(hands, theirs)
        result["ratio_vs_openspiel"] = round(theirs / max(seconds["ours"], 1e-9), 3)
        result["immutable_ratio_vs_openspiel"] = round(theirs / max(seconds["states"], 1e-9), 3)
    from .bots.timing import bot_timings  # the bots' decision times (median, p95 in ms)

    result.update(bot_timings())
    if hints:
        result["hint_ms"] = hint_timings()
    return result


def hint_timings() -> dict[str, float]:
    """The coach's hint (:func:`.hints.hint`: the Expert's search, the sentence, and the
    prices of the cards its clauses name) on the bots' sample of positions: CPU times in
    ms, median, 95th percentile and maximum."""
    from .bots.timing import _quantile, sample_views
    from .hints import hint

    times: list[float] = []
    for view in sample_views():
        start = time.process_time()
        hint(view)
        times.append((time.process_time() - start) * 1000.0)
    times.sort()
    return {"cpu_median": round(_quantile(times, 0.5), 2),
            "cpu_p95": round(_quantile(times, 0.95), 2), "cpu_max": round(times[-1], 2),
            "positions": len(times)}
