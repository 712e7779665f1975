"""The one namer: cards, suits, seats, bids and refusal reasons in words (pure Python).

Each function takes the translate function of its caller, ``t(key, **params) -> text``, over
the catalogues of this folder (the names' keys are in ``table.json``: ``rank.*``,
``rank.short.*``, ``suit.*``, ``suit.of.*``, ``card.name``, ``seat.*``, ``bid.name.*``,
``refusal.*``). The page calls it through ``ui.shared.i18n``; the terminal through its ``Texts``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

Translate = Callable[..., str]

SUIT_KEYS = ("clubs", "diamonds", "hearts", "spades")
SUIT_SYMBOLS = ("♣", "♦", "♥", "♠")
RANKS = "23456789TJQKA"
SEATS = ("N", "E", "S", "W")


def rank_text(rank: int, t: Translate) -> str:
    """Short rank as printed on a card, in the language (``D`` for Dame in French)."""
    if rank <= 10:
        return str(rank)
    return t(f"rank.short.{rank}")


def _joker(card_text: str, t: Translate) -> str:
    return t("card.big-joker" if card_text == "BJ" else "card.little-joker")


def card_short(card_text: str, t: Translate) -> str:
    """``"QS"`` -> ``"Q♠"`` (``"D♠"`` in French); jokers by name."""
    if card_text in ("BJ", "LJ"):
        return _joker(card_text, t)
    return rank_text(RANKS.index(card_text[0]) + 2, t) + SUIT_SYMBOLS["CDHS".index(card_text[1])]


def card_name(card_text: str, t: Translate) -> str:
    """``"QS"`` -> ``"Queen of spades"`` / ``"Dame de pique"``."""
    if card_text in ("BJ", "LJ"):
        return _joker(card_text, t)
    rank = RANKS.index(card_text[0]) + 2
    suit = SUIT_KEYS["CDHS".index(card_text[1])]
    return t("card.name", rank=t(f"rank.{rank}"), suit=t(f"suit.of.{suit}"))


def suit_name(suit_key: str, t: Translate) -> str:
    """A suit key (``"hearts"``) as a plural noun in the language."""
    return t(f"suit.{suit_key}")


def seat_name(seat_letter: str, t: Translate, person: bool = True) -> str:
    """A seat (``"N"``); South is "You" (``person``) or "South" (a place at the table)."""
    if seat_letter == "S" and not person:
        return t("seat.S.role")
    return t(f"seat.{seat_letter}")


def bid_text(token: str | None, t: Translate) -> str:
    """A bid token (``"3"``, ``"nil"``, ``"blind-nil"``) in the language; None -> a dash."""
    if token is None:
        return "–"
    if token in ("nil", "blind-nil"):
        return t(f"bid.name.{token}")
    return token


def params(values: Mapping[str, object], t: Translate, person: bool = True) -> dict[str, str]:
    """An engine key's parameters in words: cards as ``A♥``, suits and seats named."""
    out: dict[str, str] = {}
    for key, raw in values.items():
        value = str(raw)
        if key in ("card", "winner") and len(value) == 2:
            out[key] = card_short(value, t)
        elif key == "suit" and value in SUIT_KEYS:
            out[key] = suit_name(value, t)
        elif key == "seat" and value in SEATS:
            out[key] = seat_name(value, t, person)
        else:
            out[key] = value
    return out


def refusal_text(reason: str, values: Mapping[str, object], t: Translate,
                 has: Callable[[str], bool], person: bool = True) -> str:
    """The engine's refusal ``reason`` as a sentence: one wording per reason and language."""
    key = f"refusal.{reason}"
    if not has(key):
        return t("refusal.unknown")
    return t(key, **params(values, t, person))


# --- the coach's sentences: cards with their article, plural forms ------------------------
# (the keys ``card.def*`` are in ``hints.json``; ``t`` must see that catalogue)

CARD_PARAMS = ("card", "winner", "alt")
SUIT_PARAMS = ("suit", "led")
SEAT_PARAMS = ("seat", "alt_seat", "nil_seat")
RULE_PARAM = "rule"  # a tip key (a lesson's rule of thumb), said by its name
AGAINST_PARAM = "against"  # whom a stated Nil figure assumes: a bot level, or "any"
BID_PARAMS = ("bid", "alt_bid")
_PLURAL_MARK = re.compile(r"\{([a-z_]+)\|([^{}|]*)\|([^{}|]*)\}")


def plural_is_one(count: int, lang: str) -> bool:
    """Does ``count`` take the singular?  English: 1 only; French: 0 and 1 ("0 pli",
    "1 pli", "2 plis")."""
    return count in (0, 1) if lang == "fr" else count == 1


def tenths(value: int, lang: str) -> str:
    """An amount in tenths as a decimal number: ``26`` -> ``"2.6"`` (``"2,6"`` in French),
    ``30`` -> ``"3"``."""
    sign = "-" if value < 0 else ""
    whole, tenth = divmod(abs(value), 10)
    if not tenth:
        return f"{sign}{whole}"
    return f"{sign}{whole}{',' if lang == 'fr' else '.'}{tenth}"


def whole_points(value: int) -> int:
    """An amount in tenths of a point rounded to whole points (half away from zero): a
    learner reads "about 134 points", not "134.2"."""
    whole = (abs(value) + 5) // 10
    return -whole if value < 0 else whole


def review_parts(parts: Mapping[str, int]) -> list[tuple[str, str]]:
    """A review item's cost split (``spades_core.review.Parts``, in tenths by part) as the
    review line lists it: the parts worth at least half a point, largest first, each with
    its signed whole points (``"+9"``, ``"\u22125"``)."""
    found = [(name, whole_points(value)) for name, value in parts.items()]
    found = [item for item in found if item[1]]
    found.sort(key=lambda item: -item[1])  # stable: the parts' own order on a tie
    return [(name, f"+{points}" if points > 0 else f"\u2212{-points}") for name, points in found]


def hint_keys(reason: str, contrast: str = "", why: str = "", said: bool = True,
              has: Callable[[str], bool] = lambda key: False) -> list[str]:
    """The catalogue keys a hint's words are made of, in order (``spades_core.hints.Hint``):
    its measured main sentence (``why``), its own sentence where it is ``said``, and its "not
    the X" clause; the own sentence and the clause as one where the catalogue has a sentence
    for the pair (``reason+contrast``, as ``has`` says). The page and the terminal join
    the same keys."""
    shown = reason if said else ""
    if shown and contrast and has(f"{shown}+{contrast}"):
        return [key for key in (why, f"{shown}+{contrast}") if key]
    return [key for key in (why, shown, contrast) if key]


def tenths_count(value: int, lang: str) -> str:
    """The count that picks the plural form for an amount in tenths (for a plural mark):
    English takes the singular for exactly 1, French below 2 ("1,5 pli", "2 plis")."""
    one = abs(value) < 20 if lang == "fr" else abs(value) == 10
    return "1" if one else "2"


def plural(text: str, values: Mapping[str, str], lang: str) -> str:
    """Resolve the plural marks of ``text``: ``{count|trick|tricks}`` becomes the singular
    or the plural form by the number in ``values["count"]`` (left as is otherwise)."""

    def pick(match: re.Match[str]) -> str:
        try:
            count = int(values.get(match.group(1), ""))
        except ValueError:
            return match.group(0)
        return match.group(2) if plural_is_one(count, lang) else match.group(3)

    return _PLURAL_MARK.sub(pick, text)


def card_definite(card_text: str, t: Translate) -> str:
    """A card with the definite article, as in a sentence: ``"the ace of clubs"``,
    ``"the 10♦"``; ``"l'as de trèfle"``, ``"la dame de pique"``, ``"le 10♦"``."""
    if card_text in ("BJ", "LJ"):
        return t(f"card.def.{card_text}")
    rank = RANKS.index(card_text[0]) + 2
    if rank >= 11:
        suit = SUIT_KEYS["CDHS".index(card_text[1])]
        return t(f"card.def.{rank}", suit=t(f"suit.of.{suit}"))
    return t("card.def", card=card_short(card_text, t))


def coach_params(values: Mapping[str, str], t: Translate, person: bool = True,
                 seats: Callable[[str], str] | None = None) -> dict[str, str]:
    """A coach hint's parameters in words: each card ``X`` as ``X`` (``A♥``) and ``X_def``
    (with its article), suits and seats named (by ``seats`` when given, as a room names
    them; else as :func:`seat_name` does), bids in words, numbers as they are."""
    out: dict[str, str] = {}
    for key, value in values.items():
        if key in CARD_PARAMS and value:
            out[key] = card_short(value, t)
            out[key + "_def"] = card_definite(value, t)
        elif key in SUIT_PARAMS and value in SUIT_KEYS:
            out[key] = suit_name(value, t)
        elif key in SEAT_PARAMS and value in SEATS:
            out[key] = seats(value) if seats is not None else seat_name(value, t, person)
        elif key in BID_PARAMS:
            out[key] = bid_text(value, t)
        elif key == RULE_PARAM:
            out[key] = t(f"tip.{value}.name")  # a lesson's rule, by its tip's name
        elif key == AGAINST_PARAM:
            out[key] = t(f"coach.against.{value}")  # the opponents a Nil figure assumes
        else:
            out[key] = value
    return out
