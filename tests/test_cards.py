from __future__ import annotations

import random

import pytest

from spades_core import CARDS, Card, CardSet, Rank, Suit, parse_card
from spades_core.cards import (
    BIT_IN_SUIT,
    BITS,
    JOKER_DECK_MASK,
    STANDARD_DECK_MASK,
    SUIT_MASKS,
    CardParseError,
    cards_of_mask,
    cards_of_suits,
    join_suits,
    split_suits,
    suit_cards,
)


def test_every_card_text_round_trips() -> None:
    for card in CARDS:
        assert parse_card(str(card)) == card
    assert len({str(card) for card in CARDS}) == 54


def test_card_text_examples() -> None:
    assert str(parse_card("QS")) == "QS"
    assert parse_card("10h") == parse_card("TH")
    assert parse_card(" 2c ") == parse_card("2C")
    assert parse_card("QS").suit is Suit.SPADES and parse_card("QS").rank is Rank.QUEEN
    assert parse_card("BJ").suit is Suit.SPADES and parse_card("BJ").rank is Rank.BIG_JOKER
    assert parse_card("LJ") < parse_card("BJ") and parse_card("AS") < parse_card("LJ")


@pytest.mark.parametrize("text", ["", "1S", "QX", "QSS", "11H", "J", "XJ", "10"])
def test_bad_card_text_is_refused(text: str) -> None:
    with pytest.raises(CardParseError):
        parse_card(text)


def test_non_text_is_refused() -> None:
    with pytest.raises(CardParseError):
        parse_card(12)  # type: ignore[arg-type]


def test_cards_are_immutable_values() -> None:
    card = parse_card("AH")
    with pytest.raises(AttributeError):
        card.id = 3  # type: ignore[misc]
    assert card == Card(card.id) and hash(card) == hash(Card(card.id))
    with pytest.raises(ValueError):
        Card(54)


def test_card_set() -> None:
    hand = CardSet.of(["AS", "2H", "KH", "3C"])
    assert len(hand) == 4
    assert parse_card("KH") in hand and parse_card("QH") not in hand
    assert [str(card) for card in hand] == ["3C", "2H", "KH", "AS"]
    assert hand[0] == parse_card("3C") and hand[-1] == parse_card("AS")
    assert str(hand.suit(Suit.HEARTS)) == "2H KH"
    assert not CardSet() and list(CardSet()) == []


def test_cards_of_mask_any_mask() -> None:
    rng = random.Random(7)
    masks = [0, STANDARD_DECK_MASK, JOKER_DECK_MASK, *SUIT_MASKS]
    masks += [rng.getrandbits(54) & rng.getrandbits(54) for _ in range(500)]
    masks += [rng.getrandbits(54) & suit for suit in SUIT_MASKS for _ in range(50)]
    for mask in masks:
        assert cards_of_mask(mask) == tuple(card for card in CARDS if mask >> card.id & 1)
    spades = parse_card("QS").bit | parse_card("BJ").bit  # one suit: the tuple is kept
    assert cards_of_mask(spades) is cards_of_mask(spades)
    assert [card.bit for card in CARDS] == list(BITS) == [1 << i for i in range(54)]


def test_a_mask_by_suit_round_trips() -> None:
    rng = random.Random(11)
    masks = [0, STANDARD_DECK_MASK, JOKER_DECK_MASK, *SUIT_MASKS]
    masks += [rng.getrandbits(54) & JOKER_DECK_MASK for _ in range(100)]
    masks += [rng.getrandbits(54) for _ in range(300)]
    for mask in masks:
        clubs, diamonds, hearts, spades = split_suits(mask)
        assert max(clubs, diamonds, hearts) < 1 << 13 and spades < 1 << 15
        assert join_suits(clubs, diamonds, hearts, spades) == mask
        assert cards_of_suits(clubs, diamonds, hearts, spades) == cards_of_mask(mask)
        for suit, bits in enumerate((clubs, diamonds, hearts, spades)):
            assert suit_cards(suit, bits) == cards_of_mask(mask & SUIT_MASKS[suit])


def test_bit_in_suit() -> None:
    for card in CARDS:
        by_suit = [0, 0, 0, 0]
        by_suit[card.suit] = BIT_IN_SUIT[card.id]
        assert join_suits(*by_suit) == card.bit
    assert BIT_IN_SUIT[parse_card("AS").id] == 1 << 12
    assert BIT_IN_SUIT[parse_card("LJ").id] == 1 << 13  # the jokers above the ace
    assert BIT_IN_SUIT[parse_card("BJ").id] == 1 << 14
