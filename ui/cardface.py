"""The face and the back of a card as markup (pure Python, no browser import).

``face_markup("QS")`` and ``back_markup()`` return SVG/HTML markup strings that
``ui/cardview.py`` puts inside its card element: the only place a card's picture is made.
This version draws today's face, a corner index and one pip (drawn by CSS from ``data-r``);
the markup holds nothing but the card's own index and suit symbol, checked against the
card texts of ``spades_core.cards``, so no outside text ever reaches ``innerHTML``.
"""

from __future__ import annotations

from html import escape

from spades_core.cards import CARD_TEXT

from . import i18n

_CARDS = frozenset(CARD_TEXT)
_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
_JOKER_STAR = "★"


def suit_letter(card_text: str) -> str:
    """``"QS"`` -> ``"S"``; the jokers count as spades."""
    return card_text[1] if card_text in _CARDS and card_text not in ("BJ", "LJ") else "S"


def face_markup(card_text: str) -> str:
    """The face of ``card_text`` (``"QS"``, ``"TH"``, ``"BJ"``): index and pip."""
    if card_text not in _CARDS:
        return ""
    if card_text in ("BJ", "LJ"):
        index, pip = i18n.card_short(card_text), _JOKER_STAR
    else:
        index = i18n.rank_text("23456789TJQKA".index(card_text[0]) + 2)
        pip = _SYMBOLS[card_text[1]]
    return (f'<span class="rank" aria-hidden="true" data-r="{escape(index)}"></span>'
            f'<span class="pip" aria-hidden="true" data-r="{escape(pip)}"></span>')


def back_markup() -> str:
    """The back of a card (its pattern is the CSS of ``.card.back``, after the options)."""
    return ""
