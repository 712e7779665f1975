"""The one hand evaluator (spades_core.bots.handeval); lab/handeval_mse.py measures it
(tests/lab/test_handeval_mse.py)."""

from __future__ import annotations

from spades_core.bots.handeval import estimate_tricks, expected_bid, nil_risk, split_tricks
from spades_core.bots.strategy import bid_tricks, is_nil_hand
from tests.helpers import mask


def test_the_parts_add_up_to_the_estimate() -> None:
    for text in ("AH KH 4H 2S 3S 4S 5S 9C 6C 3C 8D 5D 2D",
                 "AS KS 2S 3S 4S 5S 6S 2H 3H 4H 2D 3D 4D",
                 "2C 3C 5C 8C 2D 4D 7D 3H 5H 9H JH 2S 6S"):
        for jokers in (False, True):
            side, spades = split_tricks(mask(text), jokers)
            assert abs(side + spades - estimate_tricks(mask(text), jokers)) < 1e-9


def test_stronger_cards_count_more() -> None:
    weak = mask("2S 3S 4S 5S 9C 6C 3C 8D 5D 2D 7H 4H 2H")
    strong = mask("AS 3S 4S 5S 9C 6C 3C 8D 5D 2D AH 4H 2H")
    assert estimate_tricks(strong) > estimate_tricks(weak) + 1.5
    assert nil_risk(strong) > nil_risk(weak)


def test_with_the_jokers_the_ace_of_spades_is_the_third_spade() -> None:
    # In the jokers deck the A♠ ranks under both jokers: alone, it is worth less.
    lone_ace = mask("AS 9C 6C 3C 8D 5D 4D 7H 4H 2H 5C 6D 8H")
    assert estimate_tricks(lone_ace, jokers=True) < estimate_tricks(lone_ace)
    big_joker = lone_ace & ~mask("AS") | 1 << 53
    assert estimate_tricks(big_joker, jokers=True) > estimate_tricks(lone_ace, jokers=True)


def test_the_normal_bid_and_nil_come_from_the_evaluator() -> None:
    hand = mask("AH KH 4H 2S 3S 4S 5S 9C 6C 3C 8D 5D 2D")
    assert bid_tricks(hand) == max(1, int(estimate_tricks(hand) + 0.5)) == expected_bid(hand)
    nil = mask("2C 3C 5C 8C 2D 4D 7D 3H 5H 9H JH 2S 6S")
    assert is_nil_hand(nil) and expected_bid(nil) == 0
