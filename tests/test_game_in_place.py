"""``Game``, the in-place face of the engine, against ``GameState``, the immutable one:
the same moves must give the same game at every step, in every variant."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spades_core import CARDS, NIL, Bid, Card, Game, GameState, IllegalAction, Phase, Rules

from .test_properties import VARIANTS, _random_bid


@settings(max_examples=80, deadline=None)
@given(rules=VARIANTS, deal=st.integers(0, 2**53 - 1), seed=st.integers(0, 2**32))
def test_a_game_played_in_place_follows_the_states(rules: Rules, deal: int, seed: int) -> None:
    rng = random.Random(seed)
    state = GameState.new(rules, deal=deal)
    game = Game.new(rules, deal=deal)
    actions = 0
    while state.phase is not Phase.OVER and actions < 600:
        assert game.state() == state and state.game() == game
        assert game.legal_plays() == state.legal_plays()
        assert game.legal_bids() == state.legal_bids()
        assert (game.to_act, game.scores, game.bags) == (state.to_act, state.scores, state.bags)
        if state.phase is Phase.BIDDING:
            action: Card | Bid = _random_bid(state, rng)
        else:
            action = rng.choice(state.legal_plays())
            illegal = next((card for card in CARDS if state.refusal(card) is not None), None)
            if illegal is not None:  # a refused card changes nothing
                before = game.copy()
                with pytest.raises(IllegalAction) as refused:
                    game.act(illegal)
                assert refused.value.refusal == state.refusal(illegal)
                assert game == before
        assert game.act(action) is None
        state = state.apply(action)
        actions += 1
    assert game.state() == state
    assert game.past_hands == state.past_hands and game.winner == state.winner


def test_a_game_in_place_is_its_own_object() -> None:
    game = Game.new(deal=20261130)
    start = game.state()
    twin = game.copy()
    game.act(NIL)
    assert game.bid_history == (NIL,) and twin.bid_history == () and start.bid_history == ()
    assert twin.state() == start and twin != game
    with pytest.raises(TypeError):
        hash(game)  # it changes, so it is no dictionary key
    snapshot = game.state()
    game.act(Bid(3))
    assert snapshot.bid_history == (NIL,)  # a state taken from a game does not follow it


def test_a_game_refuses_a_bid_out_of_turn_and_stays_as_it_was() -> None:
    game = Game.new(deal=7)
    before = game.copy()
    with pytest.raises(IllegalAction) as refused:
        game.act(Bid(2), seat=game.dealer)  # the dealer bids last
    assert refused.value.refusal.reason == "not-your-turn"
    assert game == before
