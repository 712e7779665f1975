"""Translations: flat catalogues ``ui/locales/<lang>/<name>.json`` (key -> text, ``{param}``).

Pure Python (no browser import): ``t(key, **params)``, ``language()``, ``set_language(lang)``,
``pick_language(preferences)``, and the page's one namer: cards, suits, seats, bids and the
engine's refusal reasons in the language (the table, the dialogs and the lessons all name
things here; no other module builds such a name).
Catalogues load on first use; ``rules`` and ``faq`` only when the dialog that needs them opens.
"""

from __future__ import annotations

import json
import string
from pathlib import Path
from typing import Any

LANGUAGES = ("en", "fr")
DEFAULT_LANGUAGE = "en"
LOCALES = Path(__file__).resolve().parent / "locales"
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


# --- names of things ---------------------------------------------------------------

SUIT_KEYS = ("clubs", "diamonds", "hearts", "spades")
SUIT_SYMBOLS = ("♣", "♦", "♥", "♠")
RANK_TEXT = {10: "10", 11: "J", 12: "Q", 13: "K", 14: "A"}


def rank_text(rank: int) -> str:
    """Short rank as printed on a card, in the language (``D`` for Dame in French)."""
    if rank <= 10:
        return str(rank)
    return t(f"rank.short.{rank}")


def card_short(card_text: str) -> str:
    """``"QS"`` -> ``"Q♠"`` (``"D♠"`` in French); jokers by name."""
    if card_text in ("BJ", "LJ"):
        return t("card.big-joker" if card_text == "BJ" else "card.little-joker")
    rank = "23456789TJQKA".index(card_text[0]) + 2
    suit = "CDHS".index(card_text[1])
    return rank_text(rank) + SUIT_SYMBOLS[suit]


def card_name(card_text: str) -> str:
    """``"QS"`` -> ``"Queen of spades"`` / ``"Dame de pique"``."""
    if card_text in ("BJ", "LJ"):
        return t("card.big-joker" if card_text == "BJ" else "card.little-joker")
    rank = "23456789TJQKA".index(card_text[0]) + 2
    suit = SUIT_KEYS["CDHS".index(card_text[1])]
    return t("card.name", rank=t(f"rank.{rank}"), suit=t(f"suit.of.{suit}"))


def suit_name(suit_key: str) -> str:
    """A suit key (``"hearts"``) as a plural noun in the language."""
    return t(f"suit.{suit_key}")


def seat_name(seat_letter: str, person: bool = True) -> str:
    """A seat (``"N"``) in the language; South is "You" (``person``) or "South" (a place
    at the table, as the lessons ask "who won the trick?")."""
    if seat_letter == "S" and not person:
        return t("seat.S.role")
    return t(f"seat.{seat_letter}")


def bid_text(token: str | None) -> str:
    """A bid token (``"3"``, ``"nil"``, ``"blind-nil"``) in the language; None -> a dash."""
    if token is None:
        return "–"
    if token in ("nil", "blind-nil"):
        return t(f"bid.name.{token}")
    return token


def refusal_text(reason: str, params: dict[str, object] | None = None) -> str:
    """The engine's refusal ``reason`` (``"must-follow-suit"``, params ``suit``...) as a
    sentence: one wording per reason and language, wherever a card or bid is refused."""
    key = f"refusal.{reason}"
    if not has(key):
        return t("refusal.unknown")
    return t(key, **hint_params({k: str(v) for k, v in (params or {}).items()}))


def hint_params(params: dict[str, str]) -> dict[str, str]:
    """Render a hint's parameters: cards as ``A♥``, suits and seats in the language."""
    out: dict[str, str] = {}
    for key, value in params.items():
        if key in ("card", "winner") and len(value) == 2:
            out[key] = card_short(value)
        elif key == "suit" and value in SUIT_KEYS:
            out[key] = suit_name(value)
        elif key == "seat" and value in ("N", "E", "S", "W"):
            out[key] = seat_name(value)
        else:
            out[key] = value
    return out
