"""Translations: flat catalogues ``locales/<lang>/<name>.json`` (key -> text, ``{param}``).

Pure Python (no browser import): ``t(key, **params)``, ``language()``, ``set_language(lang)``,
``pick_language(preferences)``, and the page's one namer: cards, suits, seats, bids and the
engine's refusal reasons in the language (the table, the dialogs and the lessons all name
things here; no other module builds such a name).
Catalogues load on first use; ``rules`` and ``faq`` only when the dialog that needs them opens.
"""

from __future__ import annotations

import json
import re
import string
from typing import Any

import locales
from locales import names

LANGUAGES = ("en", "fr")
DEFAULT_LANGUAGE = "en"
LOCALES = locales.ROOT  # shared with the terminal (spades_core/terminal.py)
BOOT_CATALOGUES = ("table", "hints")

_language = DEFAULT_LANGUAGE
_loaded: dict[str, dict[str, dict[str, str]]] = {}  # lang -> catalogue name -> entries
_merged: dict[str, dict[str, str]] = {}  # lang -> all loaded entries


class _Missing(dict[str, str]):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


_FORMATTER = string.Formatter()


def catalogue(lang: str, name: str) -> dict[str, str]:
    """The entries of one catalogue file (empty when it does not exist)."""
    per_lang = _loaded.setdefault(lang, {})
    if name not in per_lang:
        path = LOCALES / lang / f"{name}.json"
        try:
            data: Any = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            data = {}
        entries = {str(k): str(v) for k, v in data.items()} if isinstance(data, dict) else {}
        per_lang[name] = entries
        _merged.setdefault(lang, {}).update(entries)
    return per_lang[name]


def load(*names: str) -> None:
    """Load catalogues (both languages, so that a fallback to English exists)."""
    for lang in {_language, DEFAULT_LANGUAGE}:
        for name in names or BOOT_CATALOGUES:
            catalogue(lang, name)


def language() -> str:
    return _language


def set_language(lang: str) -> str:
    global _language
    _language = lang if lang in LANGUAGES else DEFAULT_LANGUAGE
    loaded = {name for per in _loaded.values() for name in per}
    load(*(sorted(loaded) or BOOT_CATALOGUES))
    return _language


def pick_language(preferences: list[str]) -> str:
    """The first supported language among the browser's preferences (``fr-CA`` -> ``fr``)."""
    for pref in preferences:
        base = str(pref).split("-")[0].lower()
        if base in LANGUAGES:
            return base
    return DEFAULT_LANGUAGE


def has(key: str) -> bool:
    return key in _merged.get(_language, {}) or key in _merged.get(DEFAULT_LANGUAGE, {})


def t(key: str, **params: object) -> str:
    """The text of ``key`` in the current language, ``{param}`` filled in (plain text)."""
    text = _merged.get(_language, {}).get(key)
    if text is None:
        text = _merged.get(DEFAULT_LANGUAGE, {}).get(key, key)
    if not params:
        return text
    return _FORMATTER.vformat(text, (), _Missing({k: str(v) for k, v in params.items()}))


# --- names of things: the one namer (locales/names.py) in the page's language --------------

SUIT_KEYS = names.SUIT_KEYS
SUIT_SYMBOLS = names.SUIT_SYMBOLS


def rank_text(rank: int) -> str:
    """Short rank as printed on a card, in the language (``D`` for Dame in French)."""
    return names.rank_text(rank, t)


def card_short(card_text: str) -> str:
    """``"QS"`` -> ``"Q♠"`` (``"D♠"`` in French); jokers by name."""
    return names.card_short(card_text, t)


def card_name(card_text: str) -> str:
    """``"QS"`` -> ``"Queen of spades"`` / ``"Dame de pique"``."""
    return names.card_name(card_text, t)


def suit_name(suit_key: str) -> str:
    return names.suit_name(suit_key, t)


def seat_name(seat_letter: str, person: bool = True) -> str:
    """A seat (``"N"``); South is "You" (``person``) or "South" (a place at the table, as
    the lessons ask "who won the trick?")."""
    return names.seat_name(seat_letter, t, person)


def bid_text(token: str | None) -> str:
    """A bid token (``"3"``, ``"nil"``, ``"blind-nil"``) in the language; None -> a dash."""
    return names.bid_text(token, t)


def refusal_text(reason: str, params: dict[str, object] | None = None) -> str:
    """The engine's refusal ``reason`` (``"must-follow-suit"``, params ``suit``...) as a
    sentence: one wording per reason and language, wherever a card or bid is refused."""
    return names.refusal_text(reason, params or {}, t, has)


def hint_params(params: dict[str, str]) -> dict[str, str]:
    """Render a hint's parameters: cards as ``A♥``, suits and seats in the language."""
    return names.params(params, t)


# --- the coach's sentences: cards with their article, plural forms ------------------------

CARD_PARAMS = ("card", "winner", "alt")
SUIT_PARAMS = ("suit", "led")
SEAT_PARAMS = ("seat", "alt_seat")
_PLURAL_MARK = re.compile(r"\{([a-z_]+)\|([^{}|]*)\|([^{}|]*)\}")


def plural_is_one(count: int, lang: str | None = None) -> bool:
    """Does ``count`` take the singular in the language?  English: 1 only; French: 0 and
    1 ("0 pli", "1 pli", "2 plis")."""
    if (lang or _language) == "fr":
        return count in (0, 1)
    return count == 1


def plural(text: str, params: dict[str, str], lang: str | None = None) -> str:
    """Resolve the plural marks of ``text``: ``{count|trick|tricks}`` becomes the singular
    or the plural form by the number in ``params["count"]`` (left as is otherwise)."""

    def pick(match: re.Match[str]) -> str:
        value = params.get(match.group(1), "")
        try:
            count = int(value)
        except ValueError:
            return match.group(0)
        return match.group(2) if plural_is_one(count, lang) else match.group(3)

    return _PLURAL_MARK.sub(pick, text)


def card_definite(card_text: str) -> str:
    """A card with the definite article, as in a sentence: ``"the ace of clubs"``,
    ``"the 10♦"``; ``"l'as de trèfle"``, ``"la dame de pique"``, ``"le 10♦"``."""
    if card_text in ("BJ", "LJ"):
        return t(f"card.def.{card_text}")
    rank = "23456789TJQKA".index(card_text[0]) + 2
    if rank >= 11:
        suit = SUIT_KEYS["CDHS".index(card_text[1])]
        return t(f"card.def.{rank}", suit=t(f"suit.of.{suit}"))
    return t("card.def", card=card_short(card_text))


def coach_params(params: dict[str, str]) -> dict[str, str]:
    """A coach hint's parameters rendered: each card ``X`` as ``X`` (``A♥``) and ``X_def``
    (with its article), suits and seats in the language, numbers as they are."""
    out: dict[str, str] = {}
    for key, value in params.items():
        if key in CARD_PARAMS and value:
            out[key] = card_short(value)
            out[key + "_def"] = card_definite(value)
        elif key in SUIT_PARAMS and value in SUIT_KEYS:
            out[key] = suit_name(value)
        elif key in SEAT_PARAMS and value in ("N", "E", "S", "W"):
            out[key] = seat_name(value)
        elif key == "bid":
            out[key] = bid_text(value)
        else:
            out[key] = value
    return out


def hint_text(key: str, params: dict[str, str]) -> str:
    """The sentence of a coach template (``coach.*``) with its parameters filled in."""
    text = _merged.get(_language, {}).get(key)
    if text is None:
        text = _merged.get(DEFAULT_LANGUAGE, {}).get(key, key)
    text = plural(text, params)
    return _FORMATTER.vformat(text, (), _Missing(coach_params(params)))


def hint_sentence(reason: str, params: dict[str, str], contrast: str = "") -> str:
    """A whole hint: its reason and, if any, its "not the X" clause."""
    text = hint_text(reason, params)
    if contrast:
        text += " " + hint_text(contrast, params)
    return text
