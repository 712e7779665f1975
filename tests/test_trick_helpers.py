"""The rules module's trick helpers (``trick_winner_seat``, ``winning_play``, ``BEATEN_BY``,
``last_trick``) against the plain statement of the trick rule in tests/helpers.py."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from spades_core import CARDS, Card, GameState, Phase, Rules, Seat
from spades_core.bots.strategy import beating_mask, beats
from spades_core.rules import BEATEN_BY, last_trick, trick_winner_seat, winning_play
from spades_core.views import view_for

from .helpers import reference_winner

DECK = tuple(range(54))  # with the jokers: every card id


@settings(max_examples=400, deadline=None)
@given(
    cards=st.permutations(DECK).map(lambda ids: ids[:4]),
    leader=st.integers(0, 3),
    size=st.integers(1, 4),
)
def test_winner_seat_and_play_agree_with_the_plain_rule(
    cards: list[int], leader: int, size: int
) -> None:
    ids = list(cards[:size])
    expected = reference_winner([CARDS[i] for i in ids])
    assert trick_winner_seat(leader, ids) == (leader + expected) & 3
    assert trick_winner_seat(leader, tuple(ids)) == (leader + expected) & 3
    seated = tuple((Seat((leader + k) & 3), CARDS[i]) for k, i in enumerate(ids))
    assert winning_play(seated) == seated[expected]


def test_beaten_by_agrees_with_the_plain_rule_on_every_card() -> None:
    """For a trick's best card so far (led, or a spade on another suit), a card beats it
    exactly when the plain rule makes that card the trick's winner."""
    for best in DECK:
        for other in DECK:
            if other == best:
                continue
            led_here = reference_winner([CARDS[best], CARDS[other]]) == 1
            assert bool(BEATEN_BY[best] >> other & 1) == led_here, (best, other)
            assert beats(other, best) == led_here
            assert beating_mask(1 << other, best) == (1 << other if led_here else 0)
    for lead in range(39):  # a spade trumping a side suit stays beaten by higher spades only
        for best in range(39, 54):
            for other in DECK:
                if other in (lead, best):
                    continue
                trick = [CARDS[lead], CARDS[best], CARDS[other]]
                assert bool(BEATEN_BY[best] >> other & 1) == (reference_winner(trick) == 2)


def test_beaten_by_follows_a_trick_as_it_is_played() -> None:
    rng = random.Random(11)
    for _ in range(3000):
        ids = rng.sample(DECK, 4)
        best = ids[0]
        for card in ids[1:]:
            if BEATEN_BY[best] >> card & 1:
                best = card
        assert best == ids[reference_winner([CARDS[i] for i in ids])]


def test_last_trick_of_plays() -> None:
    seated = tuple((Seat(k & 3), CARDS[k]) for k in range(11))
    assert last_trick(()) == ()
    assert last_trick(seated[:3]) == ()
    assert last_trick(seated[:4]) == seated[:4]
    assert last_trick(seated[:7]) == seated[:4]
    assert last_trick(seated[:8]) == seated[4:8]
    assert last_trick(list(seated)) == seated[4:8]


def test_state_and_view_last_trick_over_a_game() -> None:
    rng = random.Random(5)
    for jokers in (False, True):
        state = GameState.new(Rules(jokers=jokers), deal=77)
        assert state.last_trick == ()
        for _ in range(4):
            state = state.apply(state.legal_bids()[3])
        previous: tuple[tuple[Seat, Card], ...] = ()
        while state.phase is Phase.PLAYING:
            before = state
            seat = state.to_act
            assert seat is not None
            card = rng.choice(state.legal_plays())
            state = state.apply(card)
            if state.phase is not Phase.PLAYING:
                # The finished hand keeps its plays with their seats, so its last trick
                # (shown until the next hand's first trick is complete) is the same.
                done = state.past_hands[-1]
                final = (*before.trick, (seat, card))
                assert len(final) == 4 and done.last_trick == final
                assert done.seated_plays() == (*before.seated_plays(), (seat, card))
                break
            completed = (*before.trick, (seat, card))
            if len(completed) == 4:
                previous = completed
                winner, _ = winning_play(completed)
                assert state.leader == winner == state.to_act
            assert state.last_trick == previous
            assert view_for(state, Seat.S).last_trick == previous
        assert state.last_trick == ()  # a new hand (or the end): no trick played in it
