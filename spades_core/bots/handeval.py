"""Quick estimates of a 13-card hand: the tricks it should take and the risk of a Nil.

They follow STRATEGY.md's counting (``count-sure-tricks``, ``count-spades``, ``nil-hand``)
and are the project's one hand evaluator: the Normal bot bids with them (and so the
Normal hints say their counts), and the expert uses them as a prior: the bids it expects
from a hand it imagines for another seat, how well an imagined hand fits a bid already
made, and where to centre its own bids.

``python3 lab/handeval_mse.py`` measures the estimate against played-out deals (mean
squared error per seat, bias, and the bias of hands with six spades or more).
"""

from __future__ import annotations

from ..cards import SPADES_MASK, SUIT_MASKS

_ACE, _KING, _QUEEN, _JACK, _TEN, _NINE = 12, 11, 10, 9, 8, 7
_LITTLE_JOKER, _BIG_JOKER = 52, 53
_SIDE_SUITS = (0, 1, 2)


def estimate_tricks(hand: int, jokers: bool = False) -> float:
    """About how many tricks ``hand`` takes when its team plays for tricks (``jokers``: the
    deck of the jokers variant, where the two jokers rank above the A♠)."""
    side, honours, length, ruffs = _parts(hand, jokers)
    return side + honours + length + ruffs


def split_tricks(hand: int, jokers: bool = False) -> tuple[float, float]:
    """:func:`estimate_tricks` in two parts: the side suits' tricks, and the spades'
    (high spades, length beyond the third and ruffs in short side suits)."""
    side, honours, length, ruffs = _parts(hand, jokers)
    return side, honours + length + ruffs


def _parts(hand: int, jokers: bool) -> tuple[float, float, float, float]:
    """Side-suit tricks, high spades, spade length and ruffs."""
    total = 0.0
    short = 0.0  # side-suit shortness that spare spades can use to trump
    for suit in _SIDE_SUITS:
        bits = hand & SUIT_MASKS[suit]
        length = bits.bit_count()
        base = suit * 13
        ace = bits >> (base + _ACE) & 1
        king = bits >> (base + _KING) & 1
        queen = bits >> (base + _QUEEN) & 1
        if ace:
            total += 1.0 if length <= 5 else 0.8
        if king and length >= 2:
            value = 0.9 if ace else 0.55
            total += value if length <= 5 else value * 0.5
        elif king:
            total += 0.15
        if queen and length >= 3 and (ace or king) and length <= 5:
            total += 0.3
        if length == 0:
            short += 1.0
        elif length == 1:
            short += 0.6
        elif length == 2:
            short += 0.2
    spades = hand & SPADES_MASK
    count = spades.bit_count()
    honours = 0.0
    if jokers:  # the jokers and the A♠ are the top three spades, of fifteen
        if spades >> _BIG_JOKER & 1:
            honours += 1.0
        if spades >> _LITTLE_JOKER & 1:
            honours += 0.95 if count >= 2 else 0.5
        if spades >> (39 + _ACE) & 1:
            honours += 0.75 if count >= 3 else 0.25
        if spades >> (39 + _KING) & 1 and count >= 3:
            honours += 0.5
        length_tricks = max(0, count - 3) * 0.9
    else:  # (the jokers count here too, for a caller that does not say which deck)
        if spades >> _BIG_JOKER & 1:
            honours += 1.0
        if spades >> _LITTLE_JOKER & 1:
            honours += 1.0
        if spades >> (39 + _ACE) & 1:
            honours += 1.0
        if spades >> (39 + _KING) & 1:
            honours += 0.95 if count >= 2 else 0.5
        if spades >> (39 + _QUEEN) & 1:
            honours += 0.75 if count >= 3 else 0.25
        if spades >> (39 + _JACK) & 1 and count >= 4:
            honours += 0.3
        length_tricks = max(0, count - 3) * 0.9
    spare = max(0.0, count - 1.5 - length_tricks)
    return total, honours, length_tricks, min(short, spare * 0.6) * 0.9


def nil_risk(hand: int) -> float:
    """How dangerous ``hand`` is for a Nil bid: about 0 for a perfect Nil hand, 1 per
    card that is likely to take a trick."""
    risk = 0.0
    spades = hand & SPADES_MASK
    count = spades.bit_count()
    for card, weight in (
        (_BIG_JOKER, 1.5), (_LITTLE_JOKER, 1.5), (39 + _ACE, 1.5), (39 + _KING, 1.3),
        (39 + _QUEEN, 1.1), (39 + _JACK, 0.8), (39 + _TEN, 0.5), (39 + _NINE, 0.3),
    ):
        if spades >> card & 1:
            risk += weight
    if count > 3:
        risk += 0.7 * (count - 3)
    for suit in _SIDE_SUITS:
        bits = hand & SUIT_MASKS[suit]
        length = bits.bit_count()
        if not bits:
            continue
        base = suit * 13
        low_cards = (bits & ((1 << (base + 6)) - 1)).bit_count()  # 2..7
        top = bits.bit_length() - 1 - base
        if top >= _ACE:
            risk += 1.0 if length <= 3 else 0.8
        elif top >= _KING:
            risk += 0.7 if length <= 2 else 0.35
        elif top >= _QUEEN:
            risk += 0.35 if length <= 2 else 0.15
        if low_cards == 0 and top >= _JACK:
            risk += 0.3
    return risk


def expected_bid(hand: int, nil_ok: bool = True) -> int:
    """A plain bid for ``hand``: its trick estimate rounded (at least 1), or Nil (0)
    with a Nil hand."""
    if nil_ok and nil_risk(hand) < 1.0 and estimate_tricks(hand) < 1.5:
        return 0
    return max(1, min(13, int(estimate_tricks(hand) + 0.5)))
