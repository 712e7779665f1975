"""The deal's par: the game the Expert plays from South's seat.

For a deal number, a level and the rules, :func:`par_game` plays a whole game with the
Expert bot in South's seat and the level's bot in the three others (the page's bots: one
:func:`~spades_core.bots.make_bot` of the level for North, East and West), from the
deal's hands (:mod:`.deal`), to the end of the game.  Every bot is deterministic, so the
par is a pure function of (deal, level, rules): the same figure in CPython and in the
page, and a cache keyed by those three never goes stale.

:func:`parting` compares a player's game of the same deal with the par game: the bots
answer the same actions in the same way, so the two games are the same until a first
action of South's differs; that decision is returned (None while the player's game is a
prefix of the par game).
"""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass
from typing import Any

from .bids import Bid
from .bots import make_bot
from .bots.expert import ExpertBot, action_steps, run_steps
from .cards import Card
from .errors import UsageError
from .game import GameState, Phase
from .rules import Rules, trick_winner
from .seats import Seat, dealer_of_hand

__all__ = ["MAX_PAR_HANDS", "Par", "Parting", "par_game", "par_hand", "par_hand_steps",
           "par_of", "par_start", "par_steps", "par_to_dict", "parting"]

MAX_PAR_HANDS = 200  # a game longer than this (ties going on) is not a par


@dataclass(frozen=True, slots=True)
class Par:
    deal: int
    level: str
    rules: Rules
    game: GameState  # the par game, over

    @property
    def scores(self) -> tuple[int, int]:
        return self.game.scores

    @property
    def hands(self) -> int:
        return len(self.game.past_hands)


@dataclass(frozen=True, slots=True)
class Parting:
    """The first decision where a player's game left the par game."""

    hand_index: int  # 0 for the first hand
    action_index: int  # in the hand: bids 0-3, then plays 4-55
    trick_number: int  # 1-13 for a card, 0 for a bid
    seat: Seat
    played: Card | Bid  # the player's action
    par: Card | Bid  # the par game's action there


def par_game(deal: int, level: str, rules: Rules | None = None) -> Par:
    """The par of ``deal`` against ``level`` bots under ``rules`` (see the module)."""
    return run_steps(par_steps(deal, level, rules))


def par_start(deal: int, rules: Rules | None = None) -> GameState:
    """The par game before its first hand."""
    return GameState.new(rules or Rules(), deal=deal)


def par_hand_steps(state: GameState, level: str) -> Generator[None, None, GameState]:
    """One hand of the par game from ``state`` (a par game, started by :func:`par_start`
    and between two hands, or within one): the Expert in South's seat, ``level``'s bot in
    the others, to the end of the hand in play (the game over, or the next hand not yet
    bid).  Yields after each action (and inside the Expert's searches).  The bots are
    deterministic, so the par played hand by hand is :func:`par_game`'s."""
    if state.phase is Phase.OVER:
        return state
    deal = state.deal
    if len(state.past_hands) >= MAX_PAR_HANDS:
        raise UsageError(f"deal {deal}: the par game lasts over {MAX_PAR_HANDS} hands")
    others = make_bot(level)
    expert = ExpertBot()
    hand = len(state.past_hands)
    while _in_hand(state, hand):
        bot = expert if state.to_act == Seat.S else others
        state = state.apply((yield from action_steps(bot, state)))
        yield
    return state


def _in_hand(state: GameState, hand: int) -> bool:
    """Whether the par game is still in its hand number ``hand`` (0 for the first)."""
    return state.phase is not Phase.OVER and len(state.past_hands) == hand


def par_hand(state: GameState, level: str) -> GameState:
    """:func:`par_hand_steps` in one call."""
    return run_steps(par_hand_steps(state, level))


def par_of(state: GameState, level: str) -> Par:
    """The par of a par game played to its end."""
    if state.phase is not Phase.OVER or state.deal is None:
        raise UsageError("the par game is not over")
    return Par(state.deal, level, state.rules, state)


def par_steps(deal: int, level: str, rules: Rules | None = None) -> Generator[None, None, Par]:
    """:func:`par_game` in steps: yields after each action (and inside the Expert's
    searches); the same par.  The hands of :func:`par_hand_steps`, one after another."""
    state = par_start(deal, rules)
    while state.phase is not Phase.OVER:
        state = yield from par_hand_steps(state, level)
    return par_of(state, level)


def _actions(state: GameState) -> list[tuple[Card | Bid, ...]]:
    """Each hand's actions, the hand in progress included (bids, then plays)."""
    found: list[tuple[Card | Bid, ...]] = [
        (*past.bid_history, *past.plays) for past in state.past_hands
    ]
    if state.phase in (Phase.BIDDING, Phase.PLAYING):
        found.append((*state.bid_history, *state.plays))
    return found


def parting(par: Par, player: GameState) -> Parting | None:
    """The first action of ``player``'s game that differs from the par game's (None while
    it has not left it).  The player's game must be of the par's deal and rules."""
    if player.deal != par.deal or player.rules != par.rules:
        raise UsageError("the player's game is not of the par's deal and rules")
    mine = _actions(player)
    theirs = _actions(par.game)
    for hand, (ours, its) in enumerate(zip(mine, theirs, strict=False)):
        for index, (played, expected) in enumerate(zip(ours, its, strict=False)):
            if played != expected:
                past = par.game.past_hands[hand]
                seat = _seat_of(past.hand_index, index, its)
                return Parting(hand, index, 0 if index < 4 else (index - 4) // 4 + 1, seat,
                               played, expected)
    return None


def _seat_of(hand_index: int, index: int, actions: tuple[Card | Bid, ...]) -> Seat:
    """The seat of the hand's ``index``-th action (bids from the dealer's left, then the
    plays, each trick led by the previous one's winner)."""
    dealer = int(dealer_of_hand(hand_index))
    if index < 4:
        return Seat((dealer + 1 + index) & 3)
    leader = (dealer + 1) & 3
    plays = actions[4:]
    position = index - 4
    start = 0
    while start + 4 <= position:
        trick = [card.id for card in plays[start:start + 4] if isinstance(card, Card)]
        leader = (leader + trick_winner(trick)) & 3
        start += 4
    return Seat((leader + position - start) & 3)


def par_to_dict(par: Par, player: GameState | None = None) -> dict[str, Any]:
    """What ``python -m spades_core par`` prints (and the page caches)."""
    ns, ew = par.scores
    winner = par.game.winner
    data: dict[str, Any] = {
        "deal": par.deal,
        "level": par.level,
        "rules": par.rules.to_dict(),
        "par": ns,
        "scores": {"NS": ns, "EW": ew},
        "winner": winner.name if winner is not None else None,
        "hands": par.hands,
    }
    if player is not None:
        found = parting(par, player)
        data["parted"] = None if found is None else {
            "hand": found.hand_index + 1,
            "action": found.action_index + 1,
            "trick": found.trick_number,
            "seat": found.seat.name,
            "played": str(found.played),
            "par": str(found.par),
        }
    return data
