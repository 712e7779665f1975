"""The arena: two bots play whole games against each other, duplicate style.

``python -m spades_core arena --a expert --b normal --games 400 --seed 1 [--jobs 2]``

Deal numbers: ``SplitMix64(seed)`` (see :mod:`spades_core.deal`) draws one 64-bit number per
pair of games; its top 53 bits (``next() >> 11``) are the deal number.  Each deal is played
twice: first with bot A as North–South and bot B as East–West, then with the partnerships
swapped on the same deal number (the same cards for every hand of the game, as long as the
games last), so the luck of the cards cancels out.  ``--games N`` is the number of games
(an odd N is rounded up to make whole pairs).

The result is one JSON object: ``games``, ``a_wins``, ``b_wins``, ``a_win_rate`` and
``ci95`` (the Wilson 95% interval of ``a_win_rate``), ``hands``, ``mean_hand_diff`` (A's
points per hand minus B's), and per bot (``{"a": …, "b": …}``): ``bags_per_hand``,
``nil_bids``, ``nil_made``, ``blind_nil_bids``, ``blind_nil_made``, ``sets`` (contracts
missed) and ``set_rate`` (per hand), and ``cover``: how often a number bid beside a partner's
Nil or Blind Nil was set (``beside_nil``: contracts, sets, rate) against the team's contracts
with no Nil (``without_nil``).  ``--log FILE`` also writes one JSON line per hand played
(the deal, which game of the pair, the bids and tricks by seat, both teams' points).  A game
still running after ``max_hands`` hands counts for nobody (``unfinished``).  The results do
not depend on ``--jobs``.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, TextIO

from .bids import Bid
from .bots import Bot, bot_action, make_bot
from .cards import Card
from .deal import SplitMix64
from .errors import BotError, UsageError, quote, shorten
from .game import GameState, Phase
from .rules import Rules
from .seats import SEATS

MAX_HANDS = 200


def load_bot(name: str) -> Bot:
    """``make_bot(name)``, with any failure (a module that does not import, a factory that
    fails, something that is not a bot) raised as a UsageError with a one-line message."""
    try:
        return make_bot(name)
    except ValueError as error:
        raise UsageError(shorten(str(error), 200)) from None
    except Exception as error:  # the code of a bot outside the project may raise anything
        reason = shorten(f"{type(error).__name__}: {error}", 160)
        raise UsageError(f"cannot load bot {quote(name)}: {reason}") from None


def deal_numbers(seed: int, pairs: int) -> list[int]:
    """The deal number of each pair of games: the top 53 bits of SplitMix64(seed)'s outputs."""
    generator = SplitMix64(seed)
    return [generator.next() >> 11 for _ in range(pairs)]


@dataclass
class Tally:
    """What one side (bot A or bot B) did over the games."""

    wins: int = 0
    points: int = 0
    bags: int = 0
    nil_bids: int = 0
    nil_made: int = 0
    blind_nil_bids: int = 0
    blind_nil_made: int = 0
    sets: int = 0
    nil_contracts: int = 0  # number contracts beside a partner's Nil or Blind Nil
    nil_contract_sets: int = 0
    plain_contracts: int = 0  # contracts of teams with no Nil
    plain_contract_sets: int = 0

    def add(self, other: Tally) -> None:
        for name in self.__dataclass_fields__:
            setattr(self, name, getattr(self, name) + getattr(other, name))


@dataclass
class GameResult:
    a: Tally = field(default_factory=Tally)
    b: Tally = field(default_factory=Tally)
    hands: int = 0
    finished: bool = True
    log: list[dict[str, Any]] = field(default_factory=list)


def play_game(a: Bot, b: Bot, deal: int, a_team: int, rules: Rules,
              max_hands: int = MAX_HANDS) -> GameResult:
    """One game on ``deal`` with bot A playing for team ``a_team`` (0 = NS, 1 = EW)."""
    state = GameState.new(rules, deal=deal)
    while state.phase is not Phase.OVER and state.hand_index < max_hands:
        seat = state.to_act
        assert seat is not None
        bot = a if seat % 2 == a_team else b
        state = _step(bot, state, seat)
    result = GameResult(hands=len(state.past_hands), finished=state.phase is Phase.OVER)
    for hand in state.past_hands:
        for team, score in enumerate(hand.teams):
            tally = result.a if team == a_team else result.b
            tally.points += score.points
            tally.bags += score.bags
            if score.contract > 0 and not score.made:
                tally.sets += 1
            if score.contract > 0:
                if score.nils:
                    tally.nil_contracts += 1
                    tally.nil_contract_sets += not score.made
                else:
                    tally.plain_contracts += 1
                    tally.plain_contract_sets += not score.made
            for nil in score.nils:
                if nil.blind:
                    tally.blind_nil_bids += 1
                    tally.blind_nil_made += nil.made
                else:
                    tally.nil_bids += 1
                    tally.nil_made += nil.made
        result.log.append({
            "deal": deal, "a_team": a_team, "hand": hand.hand_index,
            "bids": [str(bid) for bid in hand.bids_by_seat], "tricks": list(hand.tricks),
            "points": [hand.teams[0].points, hand.teams[1].points],
            "scores": list(hand.scores),
        })
    winner = state.winner
    if winner is not None:
        (result.a if winner == a_team else result.b).wins += 1
    return result


def _step(bot: Bot, state: GameState, seat: int) -> GameState:
    """The state after ``bot``'s action for ``seat``; a bot that raises, or answers what the
    rules refuse, stops the arena with a :class:`BotError` that says which bot, where."""
    action: Card | Bid | None = None
    try:
        action = bot_action(bot, state)
        return state.apply(action, SEATS[seat])
    except Exception as error:
        kind = type(bot)
        answer = "" if action is None else f" answered {quote(str(action))}:"
        where = f"as {SEATS[seat].name} in hand {state.hand_index + 1} of deal {state.deal}"
        reason = shorten(f"{type(error).__name__}: {error}", 160)
        raise BotError(f"bot {kind.__module__}:{kind.__qualname__} {where}:{answer} {reason}"
                       ) from error


def _cover(tally: Tally) -> dict[str, dict[str, float]]:
    """Sets of a number contract beside a partner's Nil against sets with no Nil."""
    def rate(sets: int, contracts: int) -> dict[str, float]:
        share = round(sets / contracts, 4) if contracts else 0.0
        return {"contracts": contracts, "sets": sets, "rate": share}

    return {
        "beside_nil": rate(tally.nil_contract_sets, tally.nil_contracts),
        "without_nil": rate(tally.plain_contract_sets, tally.plain_contracts),
    }


def wilson(successes: int, trials: int, z: float = 1.959964) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% for the default ``z``)."""
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return (low, high)


# --- running the pairs, in this process or in worker processes ------------------------

_WORKER: dict[str, Any] = {}


def _init_worker(a_name: str, b_name: str, rules: Rules, max_hands: int) -> None:
    _WORKER.update(a=make_bot(a_name), b=make_bot(b_name), rules=rules, max_hands=max_hands)


def _play_pair(deal: int) -> tuple[GameResult, GameResult]:
    a, b, rules, cap = _WORKER["a"], _WORKER["b"], _WORKER["rules"], _WORKER["max_hands"]
    return play_game(a, b, deal, 0, rules, cap), play_game(a, b, deal, 1, rules, cap)


def _pairs(a_name: str, b_name: str, deals: list[int], rules: Rules, jobs: int,
           max_hands: int) -> Iterator[tuple[GameResult, GameResult]]:
    if jobs <= 1 or len(deals) < 2:
        _init_worker(a_name, b_name, rules, max_hands)
        for deal in deals:
            yield _play_pair(deal)
        return
    import multiprocessing

    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else None)
    with context.Pool(jobs, _init_worker, (a_name, b_name, rules, max_hands)) as pool:
        yield from pool.imap(_play_pair, deals, chunksize=1)  # in order, whatever the jobs


def run_arena(a_name: str, b_name: str, games: int, seed: int, rules: Rules | None = None,
              jobs: int = 1, max_hands: int = MAX_HANDS,
              log: TextIO | None = None) -> dict[str, Any]:
    """Play ``games`` games (rounded up to pairs) and summarise them (see the module);
    with ``log``, write one JSON line per hand to it as the games finish."""
    rules = rules or Rules()
    if games < 0 or jobs < 0 or max_hands < 1:
        raise UsageError("games and jobs must not be negative, max_hands must be positive")
    load_bot(a_name), load_bot(b_name)  # fail early, in this process, on a bad name
    deals = deal_numbers(seed, (games + 1) // 2)
    a, b = Tally(), Tally()
    hands = unfinished = 0
    for pair in _pairs(a_name, b_name, deals, rules, jobs, max_hands):
        for result in pair:
            a.add(result.a)
            b.add(result.b)
            hands += result.hands
            unfinished += not result.finished
            if log is not None:
                for line in result.log:
                    log.write(json.dumps(line) + "\n")
                log.flush()
    played = 2 * len(deals)
    low, high = wilson(a.wins, played)

    def per_hand(value: int) -> float:
        return round(value / hands, 4) if hands else 0.0

    return {
        "a": a_name,
        "b": b_name,
        "seed": seed,
        "games": played,
        "a_wins": a.wins,
        "b_wins": b.wins,
        "unfinished": unfinished,
        "a_win_rate": round(a.wins / played, 4) if played else 0.0,
        "ci95": [round(low, 4), round(high, 4)],
        "hands": hands,
        "mean_hand_diff": per_hand(a.points - b.points),
        "bags_per_hand": {"a": per_hand(a.bags), "b": per_hand(b.bags)},
        "nil_bids": {"a": a.nil_bids, "b": b.nil_bids},
        "nil_made": {"a": a.nil_made, "b": b.nil_made},
        "blind_nil_bids": {"a": a.blind_nil_bids, "b": b.blind_nil_bids},
        "blind_nil_made": {"a": a.blind_nil_made, "b": b.blind_nil_made},
        "sets": {"a": a.sets, "b": b.sets},
        "set_rate": {"a": per_hand(a.sets), "b": per_hand(b.sets)},
        "cover": {side: _cover(tally) for side, tally in (("a", a), ("b", b))},
        "rules": rules.to_dict(),
    }
