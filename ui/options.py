"""The player's options: their choices, defaults and validation (pure Python)."""

from __future__ import annotations

from typing import Any

from spades_core.rules import DEFAULT_RULES

CHOICES: dict[str, tuple[Any, ...]] = {
    "level": ("beginner", "normal", "expert"),
    "target": (500, 300, 200, 1000),
    "floor": (True, False),
    "blind_nil": (True, False),
    "language": ("en", "fr"),
    "felt": ("green", "blue", "red", "grey"),
    "back": ("classic", "navy", "gold"),
    "four_colour": (False, True),
    "sound": (True, False),
    "speed": ("normal", "slow", "fast", "instant"),
    # South's only legal card played by itself: at the fast speeds, always or never
    "auto_play": ("by-speed", "always", "never"),
    "hints": (True, False),
}
# Options that change the game itself: they apply from the next game.
GAME_OPTIONS = ("level", "target", "floor", "blind_nil")


def defaults(language: str = "en") -> dict[str, Any]:
    found = {name: values[0] for name, values in CHOICES.items()}
    found["language"] = language if language in CHOICES["language"] else "en"
    return found


def validate(data: object, language: str = "en") -> tuple[dict[str, Any], bool]:
    """Options from stored data: ``(options, clean)``; unknown values fall back to defaults
    and make ``clean`` false."""
    found = defaults(language)
    if not isinstance(data, dict):
        return found, False
    clean = True
    for name, values in CHOICES.items():
        if name not in data:
            continue
        value = data[name]
        if any(value == choice and type(value) is type(choice) for choice in values):
            found[name] = value
        else:
            clean = False
    return found, clean


def auto_play(options: dict[str, Any]) -> bool:
    """Whether South's only legal card is played without waiting for a click."""
    choice = options.get("auto_play", "by-speed")
    if choice == "by-speed":
        return options.get("speed") in ("fast", "instant")
    return bool(choice == "always")


def rules_kwargs(options: dict[str, Any]) -> dict[str, Any]:
    """The engine's :class:`~spades_core.rules.Rules` arguments chosen by the options."""
    return {
        "target": int(options["target"]),
        "floor": DEFAULT_RULES.floor if options["floor"] else None,
        "blind_nil": bool(options["blind_nil"]),
    }
