"""The PIMC sparring bot (tests/sparring/pimc.py): legal, deterministic, blind to hidden
cards, loadable by the arena, and dealing only worlds that agree with the view."""

from __future__ import annotations

import dataclasses
import random

from spades_core import BLIND_NIL, Bid, Card, GameState, Phase, Rules, Seat
from spades_core.arena import run_arena
from spades_core.bots import bot_action, make_bot
from spades_core.bots.base import Bot
from spades_core.cards import SUIT_MASKS
from spades_core.views import View, view_for
from tests.sparring.pimc import Dealer, Pimc4x4, Pimc10x10, PimcBot, match_equity

SHORT = Rules(target=200)
VERY_SHORT = Rules(target=100)


def _views_of_game(deal: int, hands: int, bot: Bot | None = None) -> list[View]:
    """The views of the seats to act (with a choice to make) in the first ``hands``
    hands of a game played by ``bot`` (the beginner by default) at all four seats."""
    bot = bot or make_bot("beginner")
    state = GameState.new(Rules(), deal=deal)
    found: list[View] = []
    while state.phase is not Phase.OVER and state.hand_index < hands:
        seat = state.to_act
        assert seat is not None
        if state.phase is Phase.BIDDING or len(state.legal_plays()) > 1:
            found.append(view_for(state, seat))
        state = state.apply(bot_action(bot, state))
    return found


def test_plays_legal_cards_and_bids_in_whole_games_with_other_bots() -> None:
    pimc = Pimc4x4()
    others = {"beginner": make_bot("beginner"), "normal": make_bot("normal")}
    for deal, partner in ((11, "beginner"), (12, "normal")):
        other = others[partner]
        state = GameState.new(SHORT, deal=deal)
        bids = plays = 0
        while state.phase is not Phase.OVER and state.hand_index < 40:
            seat = state.to_act
            assert seat is not None
            if seat in (Seat.N, Seat.S):
                view = view_for(state, seat)
                assert not pimc.blind_nil(view_for(state, seat, hand_seen=False))
                if state.phase is Phase.BIDDING:
                    action: Card | Bid = pimc.bid(view)
                    assert action in view.legal_bids and not action.blind
                    bids += 1
                else:
                    action = pimc.play(view)
                    assert action in view.legal_plays
                    plays += 1
            else:
                action = bot_action(other, state)
            state = state.apply(action, seat)  # raises IllegalAction on an illegal one
        assert state.phase is Phase.OVER
        assert bids >= 4 and plays >= 52


def test_same_view_same_decision_twice_and_with_a_fresh_instance() -> None:
    views = _views_of_game(5, 1)[::4]
    first = Pimc10x10()
    for view in views:
        decide = first.bid if view.phase is Phase.BIDDING else first.play
        again = Pimc10x10()
        other = again.bid if view.phase is Phase.BIDDING else again.play
        assert decide(view) == decide(view) == other(view)


def test_default_budget_is_deterministic_on_a_play() -> None:
    view = next(v for v in _views_of_game(3, 1) if v.phase is Phase.PLAYING and len(v.plays) > 24)
    assert PimcBot().worlds == 30 and PimcBot().playouts == 30
    assert PimcBot().play(view) == PimcBot().play(view)


def test_never_blind_nil_even_far_behind() -> None:
    bot = Pimc4x4()
    state = GameState.new(Rules(), deal=9)
    assert state.to_act is not None
    hidden = view_for(state, state.to_act, hand_seen=False)
    for scores in ((-150, 400), (0, 0), (300, -150)):
        assert bot.blind_nil(dataclasses.replace(hidden, scores=scores)) is False
    bidder = make_bot("beginner")
    for deal in range(21, 27):
        state = GameState.new(Rules(), deal=deal)
        while state.phase is Phase.BIDDING:
            seat = state.to_act
            assert seat is not None
            assert bot.bid(view_for(state, seat)) != BLIND_NIL
            state = state.apply(bot_action(bidder, state))


def _swap_hidden(state: GameState, plays: int) -> tuple[GameState, GameState]:
    """Two states after the same bids and at least ``plays`` plays (until North or South
    is to act), whose deals differ only
    in cards East and West still hold: one unplayed card of a suit moves from East to
    West and one of the same suit from West to East (so every play stays legal and
    every void shown stays true)."""
    actions: list[Card | Bid] = []
    bot = make_bot("beginner")
    current = state
    while len(current.play_ids) < plays or current.to_act not in (Seat.N, Seat.S):
        action = bot_action(bot, current)
        actions.append(action)
        current = current.apply(action)
    east, west = current.held_mask(Seat.E), current.held_mask(Seat.W)
    for suit in range(4):
        e, w = east & SUIT_MASKS[suit], west & SUIT_MASKS[suit]
        if e and w:
            e_bit, w_bit = e & -e, w & -w
            break
    else:
        raise AssertionError("no suit held by both East and West")
    dealt = list(state.dealt_masks)
    dealt[Seat.E] ^= e_bit | w_bit
    dealt[Seat.W] ^= e_bit | w_bit
    other = GameState.new(Rules(), cards=dealt)
    for action in actions:
        other = other.apply(action)
    return current, other


def test_decision_ignores_hidden_cards() -> None:
    checked = 0
    for deal, plays in ((31, 6), (32, 13), (33, 22), (34, 29)):
        start = GameState.new(Rules(), deal=deal)
        one, two = _swap_hidden(start, plays)
        seat = one.to_act
        assert seat is not None and seat == two.to_act
        assert one.held_mask(Seat.E) != two.held_mask(Seat.E)  # the hidden cards differ
        view_one, view_two = view_for(one, seat), view_for(two, seat)
        assert view_one == view_two  # and the seat to act cannot tell
        if len(view_one.legal_plays) < 2:
            continue
        checked += 1
        assert Pimc10x10().play(view_one) == Pimc10x10().play(view_two)
    assert checked >= 2
    # the same at the bidding: only the seat's own hand is seen
    one, two = _swap_hidden(GameState.new(Rules(), deal=35), 0)
    seat = one.to_act
    assert seat is not None
    assert Pimc10x10().bid(view_for(one, seat)) == Pimc10x10().bid(view_for(two, seat))


def test_deals_agree_with_the_view() -> None:
    """Counts, the seat's own cards and the voids shown are respected in every deal."""
    checked = 0
    for view in _views_of_game(41, 2):
        if view.phase is not Phase.PLAYING or not any(view.voids):
            continue
        checked += 1
        dealer = Dealer(view)
        rng = random.Random(7)
        seat = int(view.seat)
        for _ in range(20):
            world = dealer.deal(rng)
            assert world[seat] == 0
            union = 0
            for player in range(4):
                assert not world[player] & union
                union |= world[player]
                for suit in range(4):
                    if view.voids[player] >> suit & 1:
                        assert not world[player] & SUIT_MASKS[suit]
            assert union == view.unseen_mask()
            size = view.hand.mask.bit_count() if view.hand else 0
            played = [0, 0, 0, 0]
            for who, _ in view.plays:
                played[who] += 1
            for player in range(4):
                if player != seat:
                    assert world[player].bit_count() == size + played[seat] - played[player]
    assert checked >= 5


def test_deals_are_uniform_when_nothing_is_known() -> None:
    """Each unseen card lands with each other seat about a third of the time."""
    view = _views_of_game(42, 1)[0]
    dealer = Dealer(view)
    rng = random.Random(3)
    seat = int(view.seat)
    hits = [0, 0, 0, 0]
    card = (view.unseen_mask() & -view.unseen_mask()).bit_length() - 1
    for _ in range(3000):
        world = dealer.deal(rng)
        for player in range(4):
            hits[player] += world[player] >> card & 1
    assert hits[seat] == 0
    for player in range(4):
        if player != seat:
            assert 850 < hits[player] < 1150


def test_match_equity() -> None:
    rules = Rules()
    assert match_equity(rules, 0, (510, 300), (0, 0)) > 0.99
    assert match_equity(rules, 1, (510, 300), (0, 0)) < 0.01
    even = match_equity(rules, 0, (100, 100), (0, 0))
    assert 0.45 < even < 0.55
    assert match_equity(rules, 0, (150, 100), (0, 0)) > even
    assert match_equity(rules, 0, (100, 100), (8, 0)) < even  # bags cost
    assert match_equity(rules, 0, (450, 400), (0, 0)) > match_equity(rules, 0, (100, 50), (0, 0))


def test_loadable_by_the_arena() -> None:
    for name in ("tests.sparring.pimc:PimcBot", "tests.sparring.pimc:Pimc10x10",
                 "tests.sparring.pimc:Pimc4x4"):
        assert isinstance(make_bot(name), PimcBot)
    result = run_arena("tests.sparring.pimc:Pimc4x4", "beginner", 2, seed=3, rules=VERY_SHORT)
    assert result["games"] == 2 and result["a_wins"] + result["b_wins"] == 2
