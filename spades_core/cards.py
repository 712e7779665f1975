"""Cards, suits and ranks: one encoding everywhere.

A card is a small integer ``id``: ``suit * 13 + (rank - 2)`` with the suits in the
order clubs, diamonds, hearts, spades, so that inside a suit a higher id is a higher
card.  The two jokers of the variant are spades above the ace: the Little Joker is
id 52 and the Big Joker id 53.  A set of cards is an ``int`` bit mask (bit ``id``);
:class:`CardSet` wraps one for the public API.

Card text is rank + suit: ``QS``, ``TH``, ``2C`` (``10H`` is accepted on input),
and ``LJ`` / ``BJ`` for the jokers.  ``parse_card(str(card)) == card`` always.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from enum import IntEnum


class Suit(IntEnum):
    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def letter(self) -> str:
        return "CDHS"[self]

    @property
    def key(self) -> str:
        """The suit's name as a key (``"hearts"``) for translated text."""
        return self.name.lower()


class Rank(IntEnum):
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14
    LITTLE_JOKER = 15
    BIG_JOKER = 16


RANK_LETTERS = "23456789TJQKA"
LITTLE_JOKER_ID = 52
BIG_JOKER_ID = 53
CARD_COUNT = 54  # ids 0..53; the standard deck uses 0..51

SUIT_MASKS: tuple[int, int, int, int] = (
    0x1FFF,
    0x1FFF << 13,
    0x1FFF << 26,
    (0x1FFF << 39) | (1 << LITTLE_JOKER_ID) | (1 << BIG_JOKER_ID),
)
SPADES_MASK = SUIT_MASKS[Suit.SPADES]
STANDARD_DECK_MASK = (1 << 52) - 1
JOKER_DECK_MASK = (STANDARD_DECK_MASK | (1 << LITTLE_JOKER_ID) | (1 << BIG_JOKER_ID)) & ~(
    (1 << 13) | (1 << 26)  # the 2 of diamonds and the 2 of hearts leave the deck
)

# suit of each card id (jokers are spades)
SUIT_OF: tuple[int, ...] = tuple(min(i // 13, 3) for i in range(CARD_COUNT))
# the bit of each card id, ``1 << id``, made once (a shift of a large int allocates)
BITS: tuple[int, ...] = tuple(1 << i for i in range(CARD_COUNT))


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """One card.  Build cards with :func:`parse_card` or :data:`CARDS`; compare by id."""

    id: int

    def __post_init__(self) -> None:
        if not 0 <= self.id < CARD_COUNT:
            raise ValueError(f"no card has id {self.id}")

    @property
    def suit(self) -> Suit:
        return Suit(SUIT_OF[self.id])

    @property
    def rank(self) -> Rank:
        if self.id >= LITTLE_JOKER_ID:
            return Rank(self.id - LITTLE_JOKER_ID + Rank.LITTLE_JOKER)
        return Rank(self.id % 13 + 2)

    @property
    def bit(self) -> int:
        return BITS[self.id]

    @property
    def is_joker(self) -> bool:
        return self.id >= LITTLE_JOKER_ID

    def __str__(self) -> str:
        return CARD_TEXT[self.id]

    def __repr__(self) -> str:
        return f"Card({CARD_TEXT[self.id]!r})"


def _card_text(card_id: int) -> str:
    if card_id == LITTLE_JOKER_ID:
        return "LJ"
    if card_id == BIG_JOKER_ID:
        return "BJ"
    return RANK_LETTERS[card_id % 13] + "CDHS"[card_id // 13]


CARD_TEXT: tuple[str, ...] = tuple(_card_text(i) for i in range(CARD_COUNT))
CARDS: tuple[Card, ...] = tuple(Card(i) for i in range(CARD_COUNT))
_ID_OF_TEXT: dict[str, int] = {text: i for i, text in enumerate(CARD_TEXT)}


class CardParseError(ValueError):
    """The text is not a card."""


def parse_card(text: str) -> Card:
    """Read ``"QS"``, ``"10h"``, ``"BJ"``...; raise :class:`CardParseError` otherwise."""
    if not isinstance(text, str):
        raise CardParseError(f"a card is written as text, not {type(text).__name__}")
    key = text.strip().upper()
    if key.startswith("10"):
        key = "T" + key[2:]
    card_id = _ID_OF_TEXT.get(key)
    if card_id is None:
        raise CardParseError(f"{text!r} is not a card")
    return CARDS[card_id]


# --- card sets -------------------------------------------------------------------

def cards_of_mask(mask: int) -> tuple[Card, ...]:
    """The cards of a bit mask, a tuple in ascending id order (memoised by suit)."""
    return ONE_SUIT_CARDS.get(mask) or cards_of_suits(mask)


class _SuitTuples(dict[int, tuple[Card, ...]]):
    """The cards of masks within one suit, each tuple built when first asked for and then
    kept: at most 2**13 masks a suit, 2**15 in spades with the jokers."""

    def __missing__(self, mask: int) -> tuple[Card, ...]:
        cards = self[mask] = tuple(CARDS[i] for i in ids_of_mask(mask))
        return cards


# The tuples of one suit's masks met so far, by mask: a seat following suit plays from one.
ONE_SUIT_CARDS = _SuitTuples()
_SUIT_BITS = 0x1FFF
# The same tuples by the suit's own 13 bits (15 in spades: the jokers), a list per suit
# (indexing a list is the cheapest lookup there is); None until first asked for.
_BY_SUIT_BITS: tuple[list[tuple[Card, ...] | None], ...] = tuple(
    [None] * (1 << (15 if suit == 3 else 13)) for suit in range(4)
)


def cards_of_suits(mask: int) -> tuple[Card, ...]:
    """The cards of a mask, by joining each suit's memoised tuple (leads, discards)."""
    clubs, diamonds, hearts, spades = _BY_SUIT_BITS
    low = mask & 0x3FFFFFF  # clubs and diamonds, and then hearts and spades: two small
    high = mask >> 26  # integers (below 2**30), on which CPython works faster
    c = clubs[low & _SUIT_BITS]
    d = diamonds[low >> 13]
    h = hearts[high & _SUIT_BITS]
    s = spades[high >> 13]
    if c is None or d is None or h is None or s is None:
        return _remember_suits(mask)
    return c + d + h + s


def _remember_suits(mask: int) -> tuple[Card, ...]:
    cards: tuple[Card, ...] = ()
    for suit, table in enumerate(_BY_SUIT_BITS):
        bits = mask >> 13 * suit & len(table) - 1
        found = table[bits] = ONE_SUIT_CARDS[bits << 13 * suit]
        cards += found
    return cards


def ids_of_mask(mask: int) -> Iterator[int]:
    """The card ids of a bit mask, in ascending order."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def mask_of(cards: Iterable[Card]) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card.id
    return mask


@dataclass(frozen=True, slots=True)
class CardSet:
    """An immutable set of cards backed by a bit mask.

    Answers ``in``, ``len``, iteration (ascending ids) and indexing cheaply.
    """

    mask: int = 0

    @classmethod
    def of(cls, cards: Iterable[Card | str]) -> CardSet:
        mask = 0
        for card in cards:
            mask |= (parse_card(card) if isinstance(card, str) else card).bit
        return cls(mask)

    def __contains__(self, card: object) -> bool:
        return isinstance(card, Card) and bool(self.mask >> card.id & 1)

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __bool__(self) -> bool:
        return self.mask != 0

    def __iter__(self) -> Iterator[Card]:
        return iter(cards_of_mask(self.mask))

    def __getitem__(self, index: int) -> Card:
        return cards_of_mask(self.mask)[index]

    def suit(self, suit: Suit) -> CardSet:
        return CardSet(self.mask & SUIT_MASKS[suit])

    def __str__(self) -> str:
        return " ".join(CARD_TEXT[i] for i in ids_of_mask(self.mask))

    def __repr__(self) -> str:
        return f"CardSet({str(self)!r})"
