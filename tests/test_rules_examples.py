"""The worked examples of RULES.md, one test each, through the engine's public API."""

from __future__ import annotations

from spades_core import (
    BLIND_NIL,
    NIL,
    Bid,
    GameState,
    Phase,
    Rules,
    Seat,
    Team,
    parse_card,
    score_team,
)
from spades_core.rules import game_winner
from spades_core.views import view_for

from .helpers import position

RULES = Rules()
NS = (0, 2)  # N, S


def ns(s_bid: Bid, n_bid: Bid, s_tricks: int, n_tricks: int, bags_before: int = 0):  # type: ignore[no-untyped-def]
    return score_team(NS, (n_bid, s_bid), (n_tricks, s_tricks), bags_before, RULES)


def test_example_1_contract_made_with_a_bag() -> None:
    score = ns(Bid(3), Bid(4), 4, 4)
    assert score.contract == 7 and score.points == 71 and score.bags == 1
    assert score.bags_after == 1


def test_example_2_contract_set() -> None:
    score = ns(Bid(3), Bid(3), 2, 3)
    assert score.contract == 6 and score.points == -60 and score.bags == 0


def test_example_3_nil_made() -> None:
    score = ns(NIL, Bid(5), 0, 5)
    assert score.contract == 5 and score.points == 150
    assert [(n.seat, n.made, n.points) for n in score.nils] == [(2, True, 100)]


def test_example_4_nil_failed_trick_still_counts() -> None:
    score = ns(NIL, Bid(5), 1, 5)
    assert score.points == -49 and score.bags == 1
    assert [(n.made, n.points) for n in score.nils] == [(False, -100)]


def test_example_5_nil_failed_and_contract_set() -> None:
    score = ns(NIL, Bid(5), 2, 2)
    assert score.points == -150 and score.bags == 0


def test_example_6_blind_nil_made() -> None:
    score = ns(BLIND_NIL, Bid(4), 0, 4)
    assert score.points == 240
    assert [(n.blind, n.made, n.points) for n in score.nils] == [(True, True, 200)]


def test_example_7_bag_penalty() -> None:
    score = ns(Bid(2), Bid(2), 3, 4, bags_before=8)
    assert score.contract_points == 43 and score.bag_penalty == -100
    assert score.points == -57 and score.bags_after == 1


def test_both_nil_contract_zero_every_trick_is_a_bag() -> None:
    score = ns(NIL, NIL, 0, 3)
    assert score.contract == 0 and score.made and score.bags == 3
    assert score.points == 3 + 100 - 100


def test_example_8_a_small_spade_trumps_an_ace() -> None:
    state = position(
        {"E": "KH 3C", "S": "2S 4D", "W": "AH 5C", "N": "3H 6C"}, leader="E", broken=False
    )
    for card in ("KH", "2S", "AH", "3H"):
        state = state.apply(parse_card(card))
    assert state.tricks_won == (0, 0, 1, 0)
    assert state.to_act is Seat.S and state.spades_broken


def test_example_9_leading_spades() -> None:
    mixed = position({"W": "AS 4H", "N": "2C", "E": "3C", "S": "4C"}, leader="W")
    refusal = mixed.refusal(parse_card("AS"))
    assert refusal is not None and refusal.reason == "spades-not-broken"
    assert parse_card("AS") not in mixed.legal_plays()
    only_spades = position({"W": "AS 4S", "N": "2C", "E": "3C", "S": "4C"}, leader="W")
    assert only_spades.refusal(parse_card("AS")) is None
    assert set(only_spades.legal_plays()) == {parse_card("AS"), parse_card("4S")}


def _last_trick(scores: tuple[int, int]):  # type: ignore[no-untyped-def]
    """A position before the last trick: all bid 3, 12 tricks shared 3 each, S leads AS:
    NS ends with 7 tricks (+61), EW with 6 (+60)."""
    state = position(
        {"S": "AS", "W": "2H", "N": "3H", "E": "4H"}, leader="S", broken=True,
        tricks=(3, 3, 3, 3), scores=scores,
    )
    for card in ("AS", "2H", "3H", "4H"):
        state = state.apply(parse_card(card))
    return state


def test_example_10_game_over_at_target() -> None:
    state = _last_trick((419, 450))
    assert state.scores == (480, 510)
    assert state.phase is Phase.OVER and state.winner is Team.EW and state.to_act is None
    assert game_winner((480, 510), RULES) == 1


def test_example_10_tie_plays_another_hand() -> None:
    state = _last_trick((459, 460))
    assert state.scores == (520, 520)
    assert state.phase is not Phase.OVER and state.winner is None
    assert game_winner((520, 520), RULES) is None


def test_example_11_floor_ends_the_game() -> None:
    assert game_winner((-40, -200), RULES) == 0
    assert game_winner((-210, -250), RULES) == 0  # at the floor, but higher wins
    assert game_winner((-200, -200), RULES) is None  # tie: another hand
    assert game_winner((-150, -199), RULES) is None
    assert game_winner((-150, -250), Rules(floor=None)) is None
    state = _last_trick((-100, -260))
    assert state.scores == (-39, -200)
    assert state.phase is Phase.OVER and state.winner is Team.NS


def test_following_suit_refusal_names_the_suit() -> None:
    state = position({"E": "KH", "S": "2S 4H", "W": "AH", "N": "3H"}, leader="E")
    state = state.apply(parse_card("KH"))
    refusal = state.refusal(parse_card("2S"))
    assert refusal is not None and refusal.reason == "must-follow-suit"
    assert refusal.params["suit"] == "hearts"
    assert state.legal_plays() == (parse_card("4H"),)


def test_jokers_are_the_highest_spades() -> None:
    rules = Rules(jokers=True)
    state = position(
        {"N": "AS 2C", "E": "LJ 3C", "S": "BJ 4C", "W": "KS 5C"}, leader="N", broken=True,
        rules=rules,
    )
    for card in ("AS", "LJ", "BJ", "KS"):
        state = state.apply(parse_card(card))
    assert state.tricks_won == (0, 0, 1, 0)
    unbroken = position({"N": "LJ 3H", "E": "2C", "S": "3C", "W": "4C"}, leader="N", rules=rules)
    refusal = unbroken.refusal(parse_card("LJ"))
    assert refusal is not None and refusal.reason == "spades-not-broken"
    following = position({"N": "AS", "E": "LJ 2C", "S": "3C", "W": "4C"}, leader="N",
                         broken=True, rules=rules).apply(parse_card("AS"))
    assert following.legal_plays() == (parse_card("LJ"),)  # a joker follows spades


def test_jokers_deck_leaves_out_the_red_twos() -> None:
    from spades_core import GameState

    state = GameState.new(Rules(jokers=True), deal=3)
    everything = sum(state.dealt(seat).mask for seat in Seat)
    assert parse_card("2H").bit & everything == 0 and parse_card("2D").bit & everything == 0
    assert parse_card("BJ").bit & everything and parse_card("LJ").bit & everything


def test_a_position_ends_only_when_a_trick_is_complete() -> None:
    # S plays the last card held, but the trick is not complete: W, with no card, is to act
    state = position({"S": "2H"}, leader="E", trick="9H").apply(parse_card("2H"))
    assert state.phase is Phase.PLAYING and state.to_act is Seat.W
    assert state.legal_plays() == () and state.legal_play_mask() == 0
    refusal = state.refusal(parse_card("4H"))
    assert refusal is not None and refusal.reason == "not-in-hand"
    done = position({"S": "2H", "W": "3H"}, leader="N", trick="9H 5H")
    done = done.apply(parse_card("2H")).apply(parse_card("3H"))
    assert done.phase is Phase.DEALING and done.past_hands[-1].tricks == (1, 0, 0, 0)


def test_blind_nil_is_offered_only_before_looking() -> None:
    """RULES.md: Blind Nil "is offered only while the player has not yet seen the hand". The
    state cannot know who has looked; the seat's view says it, and its legal bids follow."""
    state = GameState.new(RULES, deal=5)
    seat = state.to_act
    assert seat is not None
    unseen = view_for(state, seat, hand_seen=False).legal_bids
    seen = view_for(state, seat, hand_seen=True).legal_bids
    assert BLIND_NIL in unseen and NIL in unseen
    assert BLIND_NIL not in seen and NIL in seen and len(seen) == len(unseen) - 1
    off = GameState.new(Rules(blind_nil=False), deal=5)
    assert all(not bid.blind for bid in view_for(off, seat, hand_seen=False).legal_bids)
    # another seat, not to act, is offered nothing either way
    assert view_for(state, seat.left, hand_seen=False).legal_bids == ()
