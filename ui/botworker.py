"""The bots' worker (PyScript, same Pyodide and app.zip as the page): decides for a record."""

from __future__ import annotations

from spades_core.bots import Bot, bot_action, make_bot
from spades_core.record import loads

_bots: dict[str, Bot] = {}


def ping() -> str:
    return "ready"


def decide(record_text: str, level: str) -> str:
    """The action (bid or card text) of the seat to act in the game record."""
    state = loads(str(record_text))
    bot = _bots.get(str(level))
    if bot is None:
        bot = _bots[str(level)] = make_bot(str(level))
    return str(bot_action(bot, state))


__export__ = ["decide", "ping"]
