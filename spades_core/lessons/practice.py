"""Practice hands: where a strategy lesson's practice starts, and whether its situation arose.

A practice step names a deal number, a hand of that deal (``hand``, from 1) and the
``situation`` the lesson teaches.  :func:`practice_state` is the game at the start of that
hand: the earlier hands of the deal are played by the normal bots (deterministic, a few
milliseconds a hand), so that the dealer, and with it South's place in the bidding, is the
hand's.  :func:`situation_arises` tells, from a hand played to its end (or as far as it
went), whether the taught situation arose for South.  ``tools/practice_deals.py`` searches
the deal numbers with these two functions; ``tests/test_lessons_practice.py`` replays every
practice with the bots.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..bots import bot_action, make_bot
from ..cards import Card, Suit
from ..errors import UsageError
from ..game import GameState, Phase
from ..rules import DEFAULT_RULES, Rules, winning_play
from ..seats import Seat
from .model import SITUATIONS

N, E, S, W = Seat.N, Seat.E, Seat.S, Seat.W
FAST_FORWARD_LEVEL = "normal"  # the bots that play the hands before the practice hand

Check = Callable[[GameState], bool]


def practice_state(deal: int, hand: int = 1, rules: Rules = DEFAULT_RULES) -> GameState:
    """The game of ``deal`` at the start of its hand number ``hand`` (from 1): South's
    cards dealt, nobody has bid.  The earlier hands are played by the normal bots."""
    if hand < 1:
        raise UsageError("hands are numbered from 1")
    state = GameState.new(rules, deal=deal)
    bot = make_bot(FAST_FORWARD_LEVEL)
    while state.hand_index < hand - 1:
        if state.phase is Phase.OVER:
            raise UsageError(f"deal {deal}: the game ends before hand {hand}")
        state = state.apply(bot_action(bot, state))
    return state


def hand_actions(state: GameState) -> tuple[tuple[Seat, object], ...]:
    """The bids (by seat, in order) of the hand in progress or the last finished one."""
    if state.bid_history or not state.past_hands:
        dealer, bids = state.dealer, state.bid_history
    else:
        last = state.past_hands[-1]
        dealer, bids = last.dealer, last.bid_history
    return tuple((Seat((int(dealer) + 1 + i) & 3), bid) for i, bid in enumerate(bids))


def _tricks(state: GameState) -> list[tuple[tuple[Seat, Card], ...]]:
    """The tricks of the hand (finished or in progress), each as (seat, card) in play order.
    ``state`` is a hand's final state or one during its play."""
    if state.past_hands and not state.bid_history:
        last = state.past_hands[-1]
        plays = last.plays
        leader = (int(last.dealer) + 1) & 3
    else:
        plays = state.plays
        leader = (int(state.dealer) + 1) & 3
    tricks: list[tuple[tuple[Seat, Card], ...]] = []
    for start in range(0, len(plays), 4):
        cards = plays[start:start + 4]
        trick = tuple((Seat((leader + i) & 3), card) for i, card in enumerate(cards))
        tricks.append(trick)
        if len(trick) == 4:
            leader = int(winning_play(trick)[0])
    return tricks


def _dealt(state: GameState, seat: Seat) -> list[Card]:
    if state.past_hands and not state.bid_history:
        return list(state.past_hands[-1].dealt(seat))
    return list(state.dealt(seat))


def _bid_of(state: GameState, seat: Seat) -> str | None:
    for who, bid in hand_actions(state):
        if who == seat:
            return str(bid)
    return None


def _bids_before_south(state: GameState) -> list[tuple[Seat, str]]:
    found: list[tuple[Seat, str]] = []
    for who, bid in hand_actions(state):
        if who == S:
            break
        found.append((who, str(bid)))
    return found


def _is_nil(bid: str | None) -> bool:
    return bid in ("nil", "blind-nil")


def _sure_tricks(state: GameState) -> bool:
    """South holds at least three aces or top spades (A♠, K♠, side aces)."""
    cards = _dealt(state, S)
    tops = [c for c in cards if c.rank == 14 or (c.suit is Suit.SPADES and c.rank == 13)]
    return len(tops) >= 3


def _long_spades(state: GameState) -> bool:
    return sum(1 for c in _dealt(state, S) if c.suit is Suit.SPADES) >= 5


def _bids_last(state: GameState) -> bool:
    """South bids fourth, after three bids adding up to at least 8 (or holding a Nil): the
    room the table leaves is what South's bid must read."""
    before = [bid for _seat, bid in _bids_before_south(state)]
    if len(before) != 3:
        return False
    return any(_is_nil(bid) for bid in before) or sum(int(bid) for bid in before) >= 8


def _south_nil(state: GameState) -> bool:
    return _is_nil(_bid_of(state, S))


def _partner_nil(state: GameState) -> bool:
    """North bids Nil before South bids."""
    return any(seat == N and _is_nil(bid) for seat, bid in _bids_before_south(state))


def _opponent_nil(state: GameState) -> bool:
    """East or West bids Nil before South bids."""
    return any(seat in (E, W) and _is_nil(bid) for seat, bid in _bids_before_south(state))


def _south_turns(state: GameState) -> list[tuple[tuple[tuple[Seat, Card], ...], int]]:
    """(trick, South's place in it) for every trick South played in."""
    found = []
    for trick in _tricks(state):
        for place, (seat, _card) in enumerate(trick):
            if seat == S:
                found.append((trick, place))
    return found


def _partner_winning_void(state: GameState) -> bool:
    """A trick where North is winning when South plays and South cannot follow suit but
    holds a spade (may trump partner's winner, should not)."""
    for trick, place in _south_turns(state):
        before = trick[:place]
        if len(before) < 2 or winning_play(before)[0] != N:
            continue
        if trick[0][1].suit is Suit.SPADES:
            continue
        if trick[place][1].suit != trick[0][1].suit and any(
                c.suit is Suit.SPADES for c in _held_before(state, trick)):
            return True
    return False


def _held_before(state: GameState, trick: tuple[tuple[Seat, Card], ...]) -> list[Card]:
    """South's cards when the trick began."""
    played: set[Card] = set()
    for earlier in _tricks(state):
        if earlier == trick:
            break
        played |= {card for seat, card in earlier if seat == S}
    return [c for c in _dealt(state, S) if c not in played]


def _contract_early(state: GameState) -> bool:
    """North-South reach their contract with at least two tricks still to play."""
    bids = [_bid_of(state, seat) for seat in (N, S)]
    if any(bid is None or _is_nil(bid) for bid in bids):
        return False
    contract = sum(int(str(bid)) for bid in bids)
    won = 0
    tricks = _tricks(state)
    for number, trick in enumerate(tricks, start=1):
        if len(trick) == 4 and winning_play(trick)[0] in (N, S):
            won += 1
            if won >= contract and number <= 11:
                return True
    return False


def _cash_aces(state: GameState) -> bool:
    """South holds two side aces."""
    return sum(1 for c in _dealt(state, S) if c.rank == 14 and c.suit is not Suit.SPADES) >= 2


def _trump_last(state: GameState) -> bool:
    """South plays fourth to a side-suit trick it cannot follow, holding a spade."""
    for trick, place in _south_turns(state):
        if place != 3 or trick[0][1].suit is Suit.SPADES:
            continue
        if trick[3][1].suit != trick[0][1].suit and any(
                c.suit is Suit.SPADES for c in _held_before(state, trick)):
            return True
    return False


def _void_shown(state: GameState) -> bool:
    """An opponent fails to follow suit in the first six tricks (a void to count)."""
    for trick in _tricks(state)[:6]:
        led = trick[0][1].suit
        if any(seat in (E, W) and card.suit != led for seat, card in trick[1:]):
            return True
    return False


def _third_hand(state: GameState) -> bool:
    """North leads a side suit, South plays third and holds a card of that suit that beats
    the trick so far (third hand high)."""
    for trick, place in _south_turns(state):
        if place != 2 or trick[0][0] != N or trick[0][1].suit is Suit.SPADES:
            continue
        led = trick[0][1].suit
        best = winning_play(trick[:2])[1]
        if best.suit != led:
            continue
        if any(c.suit == led and c.rank > best.rank for c in _held_before(state, trick)):
            return True
    return False


CHECKS: dict[str, Check] = {
    "sure-tricks": _sure_tricks,
    "long-spades": _long_spades,
    "bids-last": _bids_last,
    "south-nil": _south_nil,
    "partner-nil": _partner_nil,
    "opponent-nil": _opponent_nil,
    "partner-winning-void": _partner_winning_void,
    "contract-early": _contract_early,
    "cash-aces": _cash_aces,
    "trump-last": _trump_last,
    "void-shown": _void_shown,
    "third-hand": _third_hand,
}
"""The situations a practice hand can be chosen for (key → the check on the played hand)."""


def situation_arises(key: str, state: GameState) -> bool:
    """Whether situation ``key`` arose for South in the hand ``state`` played (``state`` is
    after the hand's last card, or during its play)."""
    return CHECKS[key](state)


def play_hand(start: GameState, level: str, south: str = "coach",
              stop: Callable[[GameState], bool] | None = None) -> GameState:
    """Play the hand that starts at ``start`` to its end: North, East and West by the
    ``level`` bots, South by the coach (the hint engine's Expert) or a bot level.  The
    state returned is the one after the hand's last card (or where ``stop`` said to stop)."""
    others = make_bot(level)
    learner = make_bot("expert" if south == "coach" else south)
    hand = start.hand_index
    state = start
    while state.hand_index == hand and state.phase is not Phase.OVER:
        if stop is not None and stop(state):
            break
        bot = learner if state.to_act == S else others
        state = state.apply(bot_action(bot, state))
    return state


def bids_only(state: GameState) -> bool:
    """A stop for :func:`play_hand`: the bidding is over."""
    return state.phase is Phase.PLAYING


def south_to_bid(state: GameState) -> bool:
    """A stop for :func:`play_hand`: South is to bid (the bids before South are known)."""
    return state.phase is Phase.BIDDING and state.to_act == S


BEFORE_SOUTH_BIDS: Sequence[str] = (
    "sure-tricks", "long-spades", "bids-last", "partner-nil", "opponent-nil", "cash-aces",
)
"""Situations decided by South's cards and the bids before South's (whatever South does)."""
AFTER_BIDDING: Sequence[str] = ("south-nil",)
"""Situations decided by the bidding (South bids as the coach says)."""


def stop_for(key: str) -> Callable[[GameState], bool] | None:
    """Where a replay may stop once situation ``key`` is decided (None: play the hand out)."""
    if key in BEFORE_SOUTH_BIDS:
        return south_to_bid
    if key in AFTER_BIDDING:
        return bids_only
    return None


assert tuple(CHECKS) == SITUATIONS, "model.SITUATIONS lists the checks, in order"
