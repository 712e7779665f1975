"""The first visit's welcome, pure: its four ways in (drawn by ``render.welcome``) and the
words ui/paint.js needs to paint it before Python is ready.

On a first visit nothing is stored to paint from, so ``tools/build_web.py`` writes the few
sentences the early welcome shows, in each language, from the catalogues (``locales/``) into
``site/ui/paint-words.js`` (:func:`paint_script`); ui/paint.js builds the same markup as
``render.welcome`` from them (docs/performance.md, "The welcome at once"). A choice clicked
on the painted welcome is kept and opened once Python has drawn its own (:func:`kept_choice`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

# (catalogue key's stem, action, primary): "welcome.<stem>" and "welcome.<stem>.help"
CHOICES: tuple[tuple[str, str, bool], ...] = (
    ("learn", "welcome-learn", True),
    ("daily", "daily", False),
    ("random", "new", False),
    ("friends", "rooms", False),
)
ACTIONS = frozenset(action for _, action, _ in CHOICES)
# The key ui/paint.js gives a painted welcome (a painted table's key is its game's point).
PAINT_KEY = "welcome"
# The catalogue (locales/<lang>/<CATALOGUE>.json) and keys of the words painted before Python.
CATALOGUE = "table"
WORDS: tuple[str, ...] = (
    "app.title", "app.progress", "app.getting-ready", "app.getting-ready-choice",
    "welcome.title", "welcome.intro",
    *(key for stem, _, _ in CHOICES for key in (f"welcome.{stem}", f"welcome.{stem}.help")),
)


def paint_words(languages: tuple[str, ...],
                catalogue: Callable[[str], Mapping[str, str]]) -> dict[str, Any]:
    """What ui/paint.js reads as ``spadesPaintWords``: the choices and, for each language,
    the words (``catalogue(lang)``: its entries; a word missing there is said in the first
    language's, as ``i18n.t`` does; missing from the first too, an error)."""
    first = catalogue(languages[0])
    missing = [key for key in WORDS if key not in first]
    if missing:
        raise KeyError(f"locales/{languages[0]}/{CATALOGUE}.json lacks {missing}")
    words = {}
    for lang in languages:
        entries = catalogue(lang)
        words[lang] = {key: str(entries.get(key, first[key])) for key in WORDS}
    return {"choices": [[stem, action, primary] for stem, action, primary in CHOICES],
            "words": words}


def paint_script(languages: tuple[str, ...],
                 catalogue: Callable[[str], Mapping[str, str]]) -> str:
    """The text of site/ui/paint-words.js (a classic script: the page's CSP allows no inline
    script and no fetch can hold the first paint)."""
    data = json.dumps(paint_words(languages, catalogue), ensure_ascii=False, indent=1,
                      sort_keys=True)
    return ("// Written by tools/build_web.py from locales/ (ui/table/welcome.py): the words\n"
            "// ui/paint.js paints the first visit's welcome with before Python is ready.\n"
            f"globalThis.spadesPaintWords = {data};\n")


def kept_choice(painted: object, welcome_shown: bool) -> tuple[str, str]:
    """What to do with what the painted welcome kept (``spadesPaint.revert()``'s answer, read
    as a dict): ``("open", action)`` to dispatch the choice clicked there, now that Python
    shows its own welcome (``welcome_shown``: nothing over it); ``("drop", action)`` when a
    choice was kept but the page shows something else (the player is told); ``("none", "")``
    when no welcome was painted or nothing was kept."""
    if not isinstance(painted, dict) or painted.get("key") != PAINT_KEY:
        return "none", ""
    action = painted.get("action")
    if not isinstance(action, str) or action not in ACTIONS:
        return "none", ""
    return ("open" if welcome_shown else "drop"), action
