"""Translations: flat catalogues ``locales/<lang>/<name>.json`` (key -> text, ``{param}``).

Pure Python (no browser import): ``t(key, **params)``, ``language()``, ``set_language(lang)``,
``pick_language(preferences)``, and the page's one namer: cards, suits, seats, bids and the
engine's refusal reasons in the language (the table, the dialogs and the lessons all name
things here; no other module builds such a name).
Catalogues load on first use; ``rules`` and ``faq`` only when the dialog that needs them opens.
"""

from __future__ import annotations

import json
import string
from collections.abc import Callable, Mapping
from typing import Any

import locales
from locales import names
from spades_core import Bid, Card

LANGUAGES = ("en", "fr")
DEFAULT_LANGUAGE = "en"
LOCALES = locales.ROOT  # shared with the terminal (spades_core/terminal.py)
BOOT_CATALOGUES = ("table", "hints", "coach")

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


MINUS = "\u2212"  # the minus sign (not the hyphen "-") of a negative number on the page


def number(value: int) -> str:
    """A whole number as the page shows it: a negative one with the minus sign,
    ``-60`` -> ``"−60"`` (every score, total, par and points figure goes through here)."""
    return f"{MINUS}{-value}" if value < 0 else str(value)


def signed(value: int) -> str:
    """A change of score with its sign: ``"+60"``, ``"−60"``, ``"0"``."""
    return f"+{value}" if value > 0 else number(value)


def percent(value: int) -> str:
    """A percentage as the language writes it: ``"40%"``, ``"40\u202f%"`` in French."""
    return t("number.percent", value=number(value))


whole_points = names.whole_points  # "about 134 points": tenths rounded to whole points


def day_text(number: int) -> str:
    """A daily deal's day (``20261205``) as the language writes a date: ``2026-12-05`` in
    English, ``05/12/2026`` in French."""
    text = f"{number:08d}"
    return t("date.day", year=text[:4], month=text[4:6], day=text[6:8])


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


# --- the coach's sentences: cards with their article, plural forms (locales.names) ---------


def plural_is_one(count: int, lang: str | None = None) -> bool:
    """Does ``count`` take the singular in the language (French: 0 and 1)?"""
    return names.plural_is_one(count, lang or _language)


def plural(text: str, params: dict[str, str], lang: str | None = None) -> str:
    """Resolve the plural marks ``{count|trick|tricks}`` of ``text`` by ``params``."""
    return names.plural(text, params, lang or _language)


def tenths(value: int) -> str:
    """An amount in tenths as a decimal number in the page's language (``"2.6"``, ``"2,6"``)."""
    return str(names.tenths(value, _language))


def review_parts(parts: dict[str, int]) -> list[tuple[str, str]]:
    """A review item's cost split as the review lists it (``locales/names.py``)."""
    return names.review_parts(parts)


def tenths_count(value: int) -> str:
    """The count that picks the plural form of an amount in tenths (``locales/names.py``)."""
    return str(names.tenths_count(value, _language))


def card_definite(card_text: str) -> str:
    """``"AC"`` -> ``"the ace of clubs"`` / ``"l'as de trèfle"``; ``"TD"`` -> ``"le 10♦"``."""
    return names.card_definite(card_text, t)


SeatNamer = Callable[[str], str]
"""A seat letter (``"E"``) as the reader knows that seat: at a room's table, a nickname."""


def coach_params(params: dict[str, str], seats: SeatNamer | None = None) -> dict[str, str]:
    """A coach hint's parameters in words (``X`` and ``X_def`` for each card); the seats
    by ``seats`` when given (else as in solo play, where the reader is South: "You")."""
    return names.coach_params(params, t, seats=seats)


def hint_text(key: str, params: dict[str, str], seats: SeatNamer | None = None) -> str:
    """The sentence of a coach template (``coach.*``) with its parameters filled in."""
    text = _merged.get(_language, {}).get(key)
    if text is None:
        text = _merged.get(DEFAULT_LANGUAGE, {}).get(key, key)
    text = plural(text, params)
    return _FORMATTER.vformat(text, (), _Missing(coach_params(params, seats)))


def review_sentence(item: Mapping[str, Any]) -> str:
    """A review item's words (``spades_core.review.review_to_dict``): its main sentence, the
    supporting clause and the "not the X" clause, joined; the review panel and the hand
    viewer say the same."""
    params = {str(k): str(v) for k, v in dict(item.get("params") or {}).items()}
    keys = (item.get("reason"), item.get("support"), item.get("contrast"))
    return " ".join(hint_text(str(key), params) for key in keys if key)


def hint_sentence(reason: str, params: dict[str, str], contrast: str = "",
                  seats: SeatNamer | None = None, why: str = "", said: bool = True) -> str:
    """A whole hint: its measured main sentence (``why``, if any), its reason where it is
    ``said`` and, if any, its "not the X" clause; or, where the catalogue has one for the
    pair (key ``reason+contrast``), one sentence that says both (so that the neutral reason
    and a clause that both quote the simulations read as one): :func:`names.hint_keys`."""
    def has(key: str) -> bool:
        return key in _merged.get(_language, {}) or key in _merged.get(DEFAULT_LANGUAGE, {})

    keys = names.hint_keys(reason, contrast, why, said, has)
    return " ".join(hint_text(key, params, seats) for key in keys)


def hint_message(advice: Any, seats: SeatNamer | None = None) -> str:
    """What the table says for a hint (``spades_core.hints.Hint``): the action, then the
    sentence (the page's Hint button; tests compare it with CPython's hint). ``seats``
    names the seats where the reader is not South (a room)."""
    reason = hint_sentence(advice.reason, advice.params, advice.contrast, seats,
                           advice.why, advice.said)
    if advice.action is None:
        heads = [t("hint.look")]
    elif isinstance(advice.action, Bid):
        heads = [t("hint.bid", bid=bid_text(str(advice.action)))]
    else:
        card = card_definite(str(advice.action))
        heads = [t("hint.card", card=card), t("hint.card.lead", card=card)]
    # The action is said once: "Hint: bid 3. Bid 3: you hold…" is "Hint: bid 3. You hold…",
    # and a sentence that names the card or the bid itself follows "Hint —" alone.
    for head in heads:
        said = _without_action(head, reason)
        if said is not None:
            return f"{head} {said}"
    named = reason.casefold()
    if any(_action(head).casefold() in named for head in heads) or (
            isinstance(advice.action, Card) and card_definite(str(advice.action)) in reason):
        return t("hint.said", reason=reason)
    return f"{heads[0]} {reason}"


def _action(head: str) -> str:
    """The action a hint's head gives: "Hint: bid 3." -> "bid 3"."""
    return head.partition(":")[2].strip().rstrip(".").strip()


def _without_action(head: str, reason: str) -> str | None:
    """``reason`` without its first clause when that clause is the action ``head`` gives
    ("Hint: bid 3." and "Bid 3: you hold…" give "You hold…"); None when it is not."""
    first, colon, rest = reason.partition(":")
    rest = rest.strip()
    if not colon or not rest or first.strip().casefold() != _action(head).casefold():
        return None
    return rest[0].upper() + rest[1:]
