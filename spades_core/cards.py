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

from .errors import CardParseError as CardParseError  # re-exported: cards.CardParseError
from .errors import UsageError


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
            raise UsageError(f"no card has id {self.id}")

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

# A card's bit among its own suit's: ``1 << (id - 13 * suit)``; the jokers are bits 13
# and 14 of spades.  Four such small integers (below 2**15, where CPython's arithmetic
# is fastest) hold a hand by suit: see :func:`split_suits`.
BIT_IN_SUIT: tuple[int, ...] = tuple(1 << (i - 13 * SUIT_OF[i]) for i in range(CARD_COUNT))
_SUIT_BITS = 0x1FFF


def split_suits(mask: int) -> tuple[int, int, int, int]:
    """A mask's cards as each suit's own bits: clubs, diamonds, hearts, spades."""
    return (mask & _SUIT_BITS, mask >> 13 & _SUIT_BITS, mask >> 26 & _SUIT_BITS, mask >> 39)


def join_suits(clubs: int, diamonds: int, hearts: int, spades: int) -> int:
    """The mask of four suits' own bits (the inverse of :func:`split_suits`)."""
    return clubs | diamonds << 13 | hearts << 26 | spades << 39


def _suit_table(suit: Suit) -> list[tuple[Card, ...] | None]:
    table: list[tuple[Card, ...] | None] = [None] * (1 << (15 if suit == Suit.SPADES else 13))
    table[0] = ()
    return table


# The cards of each suit's bits, a tuple by bits in a list per suit (indexing a list is
# the cheapest lookup there is), each built when first asked for (None until then): at
# most 2**13 tuples a suit, 2**15 in spades with the jokers.
SUIT_CARDS: tuple[list[tuple[Card, ...] | None], ...] = tuple(_suit_table(s) for s in Suit)


def suit_cards(suit: int, bits: int) -> tuple[Card, ...]:
    """The cards of ``suit`` whose bits among the suit's are ``bits``, in id order."""
    cards = SUIT_CARDS[suit][bits]
    if cards is None:
        base = 13 * suit
        cards = SUIT_CARDS[suit][bits] = tuple(CARDS[base + i] for i in ids_of_mask(bits))
    return cards


def cards_of_suits(clubs: int, diamonds: int, hearts: int, spades: int) -> tuple[Card, ...]:
    """The cards of four suits' own bits, in id order (a lead, a discard)."""
    c, d, h, s = SUIT_CARDS
    try:
        return c[clubs] + d[diamonds] + h[hearts] + s[spades]  # type: ignore[operator]
    except TypeError:  # None + a tuple: one of the four is not built yet
        return (
            suit_cards(0, clubs) + suit_cards(1, diamonds) + suit_cards(2, hearts)
            + suit_cards(3, spades)
        )


def cards_of_mask(mask: int) -> tuple[Card, ...]:
    """The cards of a bit mask, a tuple in ascending id order (memoised by suit)."""
    return cards_of_suits(*split_suits(mask))


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
