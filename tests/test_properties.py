"""Property tests over many random games in every variant, checked against plain
re-statements of the rules (tests/helpers.py) rather than the engine's own functions."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from spades_core import CARDS, GameState, Phase, Rules, Seat, Suit, Team
from spades_core.rules import game_winner

from .helpers import reference_legal, reference_winner

VARIANTS = st.builds(
    Rules,
    target=st.sampled_from([200, 300, 500, 1000]),
    floor=st.sampled_from([-200, None]),
    blind_nil=st.booleans(),
    jokers=st.booleans(),
    nil_value=st.sampled_from([50, 100]),
    blind_nil_value=st.sampled_from([100, 200]),
    bag_limit=st.sampled_from([5, 10]),
    bag_penalty=st.sampled_from([50, 100]),
)
MAX_HANDS = 25


def _random_bid(state: GameState, rng: random.Random):  # type: ignore[no-untyped-def]
    # mostly realistic number bids, sometimes Nil, so that games end
    bids = state.legal_bids()
    return rng.choice(bids[1:5]) if rng.random() < 0.8 else rng.choice(bids)


def check_game(rules: Rules, deal: int, seed: int, deep: bool) -> GameState:
    """Play a random game to its end (or MAX_HANDS), checking every rule on the way."""
    rng = random.Random(seed)
    state = GameState.new(rules, deal=deal)
    assert state == GameState.new(rules, deal=deal)  # the same deal gives the same hands
    hands_seen = 0
    while state.phase is not Phase.OVER and hands_seen < MAX_HANDS:
        dealt = [state.dealt(seat).mask for seat in Seat]
        assert sum(mask.bit_count() for mask in dealt) == 52
        assert dealt[0] | dealt[1] | dealt[2] | dealt[3] == rules.deck_mask
        for _ in range(4):
            state = state.apply(_random_bid(state, rng))
        scores_before, bags_before = state.scores, state.bags
        played: list[int] = []
        for _trick in range(13):
            trick = []
            for _ in range(4):
                seat = state.to_act
                assert seat is not None
                hand = list(state.hand_of(seat))
                legal = state.legal_plays()
                assert legal, "a legal play always exists"
                if deep:
                    assert state.legal_play_mask() == sum(card.bit for card in legal)
                    assert state.spades_broken == any(CARDS[i].suit == Suit.SPADES for i in played)
                    assert set(legal) == reference_legal(
                        hand, [card for _, card in state.trick], state.spades_broken
                    )
                    for card in CARDS:
                        refusal = state.refusal(card)
                        assert (refusal is None) == (card in legal)
                        if refusal is not None:
                            assert refusal.reason in {
                                "not-in-hand", "must-follow-suit", "spades-not-broken",
                            }
                            assert (refusal.reason == "not-in-hand") == (card not in hand)
                card = rng.choice(legal)
                trick.append((seat, card))
                played.append(card.id)
                before = state.tricks_won
                state = state.apply(card)
            winner_seat, _ = trick[reference_winner([card for _, card in trick])]
            if len(played) < 52:
                assert state.to_act is winner_seat
                gained = [after - b for after, b in zip(state.tricks_won, before, strict=True)]
                assert gained[winner_seat] == 1 and sum(gained) == 1
        assert sorted(played) == sorted(card.id for card in CARDS if rules.deck_mask >> card.id & 1)
        result = state.past_hands[-1]
        assert sum(result.tricks) == 13
        for team in Team:
            score = result.teams[team]
            assert score.points == score.contract_points + score.nil_points + score.bag_penalty
            assert result.scores[team] == scores_before[team] + score.points
            assert score.bags_after == bags_before[team] + score.bags + (
                score.bag_penalty // rules.bag_penalty * rules.bag_limit
            )
            assert 0 <= score.bags_after < rules.bag_limit
        assert state.scores == result.scores
        hands_seen += 1
    if state.phase is Phase.OVER:
        winner = game_winner(state.scores, rules)
        assert winner is not None and state.winner is Team(winner)
        assert state.scores[winner] > state.scores[1 - winner]
    return state


@settings(max_examples=150, deadline=None)
@given(rules=VARIANTS, deal=st.integers(0, 2**53 - 1), seed=st.integers(0, 2**32))
def test_random_games_follow_every_rule(rules: Rules, deal: int, seed: int) -> None:
    check_game(rules, deal, seed, deep=True)


@settings(max_examples=1500, deadline=None)
@given(rules=VARIANTS, deal=st.integers(0, 2**53 - 1), seed=st.integers(0, 2**32))
def test_thousands_of_games_keep_their_invariants(rules: Rules, deal: int, seed: int) -> None:
    check_game(rules, deal, seed, deep=False)


@settings(max_examples=60, deadline=None)
@given(rules=VARIANTS, deal=st.integers(0, 2**53 - 1), seed=st.integers(0, 2**32))
def test_a_position_plays_on_like_the_game_it_is_taken_from(
    rules: Rules, deal: int, seed: int
) -> None:
    rng = random.Random(seed)
    state = GameState.new(rules, deal=deal)
    for _ in range(4):
        state = state.apply(_random_bid(state, rng))
    for _ in range(rng.randrange(52)):
        state = state.apply(rng.choice(state.legal_plays()))
    leader = state.leader
    bids = [bid for bid in (state.bid_of(seat) for seat in Seat) if bid is not None]
    assert leader is not None and len(bids) == 4
    position = GameState.position(
        rules,
        [state.held_mask(seat) for seat in Seat],
        leader=leader,
        bids=bids,
        trick=[card for _, card in state.trick],
        tricks=state.tricks_won,
        spades_broken=state.spades_broken,
        scores=state.scores,
        bags=state.bags,
    )
    while position.phase is Phase.PLAYING:
        assert position.to_act is state.to_act
        assert position.legal_play_mask() == state.legal_play_mask()
        assert position.legal_plays() == state.legal_plays()
        card = rng.choice(state.legal_plays())
        state, position = state.apply(card), position.apply(card)
    assert position.past_hands[-1].tricks == state.past_hands[-1].tricks
    assert position.past_hands[-1].teams == state.past_hands[-1].teams
