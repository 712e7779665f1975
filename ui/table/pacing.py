"""How long things stay on screen, per speed option (pure Python, milliseconds)."""

from __future__ import annotations

SPEEDS = ("slow", "normal", "fast", "instant")

# bot: pause before each bot action; trick: a finished trick stays in the centre;
# gather: the trick slides to its winner.
_PACE = {
    "slow": {"bot": 1100, "trick": 1500, "gather": 450},
    "normal": {"bot": 650, "trick": 950, "gather": 350},
    "fast": {"bot": 280, "trick": 500, "gather": 220},
    "instant": {"bot": 0, "trick": 0, "gather": 0},
}


def pace(speed: str) -> dict[str, int]:
    return dict(_PACE.get(speed, _PACE["normal"]))


def bot_delay(speed: str, spent_ms: float) -> int:
    """The pause still due before showing a bot's action that took ``spent_ms`` to decide."""
    return max(0, int(pace(speed)["bot"] - spent_ms))
