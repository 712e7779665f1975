"""Deals: golden hands pinned, and the documented algorithm re-implemented plainly."""

from __future__ import annotations

import datetime
import math
import os
import subprocess
import sys

import pytest

from spades_core import CardSet, daily_deal_number, deal_hand
from spades_core.cards import CARD_TEXT, JOKER_DECK_MASK, STANDARD_DECK_MASK
from spades_core.deal import SplitMix64, check_deal_number, daily_deal_date

GOLDEN = [
    (0, 0, STANDARD_DECK_MASK, [
        "3C 7C 3D 8D JD 2H 6H 7H 8H TH 5S 8S AS",
        "9C 4D 7D QD KD 4H 5H 9H JH QH 2S 9S TS",
        "2C 5C 6C TC JC 6D TD KH AH 4S 6S 7S QS",
        "4C 8C QC KC AC 2D 5D 9D AD 3H 3S JS KS",
    ]),
    (20261129, 0, STANDARD_DECK_MASK, [
        "8C 2D 4D 7D AD 3H 7H 8H QH 3S 9S QS AS",
        "4C 5C 9C QC 3D 6D 8D QD 6H 9H TH AH 7S",
        "2C 3C 6C AC 9D TD JD 2H 4H JH KH 8S JS",
        "7C TC JC KC 5D KD 5H 2S 4S 5S 6S TS KS",
    ]),
    (20261129, 1, STANDARD_DECK_MASK, [
        "2C 3C 5C 6C 9C KC 2D 7D QD 6H TH AH 8S",
        "4C JC 6D JD 3H 5H 8H KH 3S 6S 7S TS JS",
        "7C 8C QC AC 5D 9D TD 7H 9H JH 4S 9S KS",
        "TC 3D 4D 8D KD AD 2H 4H QH 2S 5S QS AS",
    ]),
    (2**53 - 1, 0, STANDARD_DECK_MASK, [
        "3C 7C 8C JC KC AC 2D 3D 7D JD 8H 7S JS",
        "9C TC 6D 8D TD AD 3H 6H TH JH QH 6S AS",
        "4C 5C 6C QC 5D 4H 5H 7H 9H 3S 5S 9S TS",
        "2C 4D 9D QD KD 2H KH AH 2S 4S 8S QS KS",
    ]),
    (42, 0, JOKER_DECK_MASK, [
        "3C 6C 7C 9C KC AC TD JD 9H 5S 6S QS KS",
        "8C JC 3D 7D 8D QD 4H 5H 8H TH JH QH 3S",
        "2C 4C 5C 5D 9D AD 7H KH 2S 4S AS LJ BJ",
        "TC QC 4D 6D KD 3H 6H AH 7S 8S 9S TS JS",
    ]),
]


@pytest.mark.parametrize(("deal", "hand", "deck", "expected"), GOLDEN)
def test_golden_deals(deal: int, hand: int, deck: int, expected: list[str]) -> None:
    assert [str(CardSet(mask)) for mask in deal_hand(deal, hand, deck)] == expected


def _plain_deal(deal: int, hand: int, deck_mask: int) -> list[list[str]]:
    """The algorithm of deal.py's documentation, written the simplest way."""
    state = (deal * 1024 + hand) % 2**64

    def output() -> int:
        nonlocal state
        state = (state + 0x9E3779B97F4A7C15) % 2**64
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) % 2**64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) % 2**64
        return z ^ (z >> 31)

    deck = [i for i in range(54) if deck_mask >> i & 1]
    orderings = math.factorial(len(deck))
    limit = 2**256 - 2**256 % orderings
    while True:
        value = (output() << 192) + (output() << 128) + (output() << 64) + output()
        if value < limit:
            break
    x = value % orderings
    for i in range(len(deck) - 1, 0, -1):
        j = x % (i + 1)
        x //= i + 1
        deck[i], deck[j] = deck[j], deck[i]
    dealer = (1 + hand) % 4
    hands: list[list[str]] = [[], [], [], []]
    for position, card in enumerate(deck):
        hands[(dealer + 1 + position) % 4].append(CARD_TEXT[card])
    return [sorted(h, key=CARD_TEXT.index) for h in hands]


@pytest.mark.parametrize("deal", [0, 1, 7, 999, 20261129, 2**40 + 3, 2**53 - 1])
@pytest.mark.parametrize("hand", [0, 1, 5])
@pytest.mark.parametrize("deck", [STANDARD_DECK_MASK, JOKER_DECK_MASK])
def test_deal_follows_its_documentation(deal: int, hand: int, deck: int) -> None:
    engine = [str(CardSet(mask)).split() for mask in deal_hand(deal, hand, deck)]
    assert engine == _plain_deal(deal, hand, deck)


def test_splitmix64_reference_values() -> None:
    generator = SplitMix64(0)  # published first outputs for seed 0
    assert [generator.next() for _ in range(3)] == [
        0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F,
    ]


def test_every_deal_is_a_partition_of_the_deck() -> None:
    for deal in range(200):
        hands = deal_hand(deal, deal % 7, STANDARD_DECK_MASK)
        assert all(h.bit_count() == 13 for h in hands)
        assert hands[0] | hands[1] | hands[2] | hands[3] == STANDARD_DECK_MASK


def test_daily_deal_number() -> None:
    assert daily_deal_number(datetime.date(2026, 11, 29)) == 20261129


def test_daily_deal_date_is_the_inverse_and_names_only_real_days() -> None:
    for day in (datetime.date(2026, 11, 29), datetime.date(2028, 2, 29), datetime.date(1000, 1, 1),
                datetime.date(9999, 12, 31)):
        assert daily_deal_date(daily_deal_number(day)) == day
    for number in (0, 42, 20261301, 20261232, 20270229, 20260631, 99999999, 2**53 - 1):
        assert daily_deal_date(number) is None
    assert daily_deal_number(datetime.date(2027, 1, 5)) == 20270105


@pytest.mark.parametrize("bad", [-1, 2**53, 1.5, "7", True, None])
def test_bad_deal_numbers(bad: object) -> None:
    with pytest.raises(ValueError):
        check_deal_number(bad)


def test_same_deal_in_other_processes_with_other_hash_seeds() -> None:
    code = (
        "from spades_core import deal_hand;"
        "print(deal_hand(20261129, 3, (1 << 52) - 1))"
    )
    outputs = set()
    for seed in ("0", "1", "12345"):
        env = dict(os.environ, PYTHONHASHSEED=seed)
        outputs.add(subprocess.run(
            [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True,
        ).stdout)
    assert len(outputs) == 1 and outputs.pop().strip() == str(deal_hand(20261129, 3, (1 << 52) - 1))
