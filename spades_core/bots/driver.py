"""Asking a bot for its action, and naming bots by level or by ``package.module:Class``."""

from __future__ import annotations

import importlib

from ..bids import BLIND_NIL, Bid
from ..cards import Card
from ..errors import UsageError
from ..game import GameState, Phase
from ..views import view_for
from .base import Bot

LEVELS = {
    "beginner": "spades_core.bots.beginner:BeginnerBot",
    "normal": "spades_core.bots.normal:NormalBot",
    "expert": "spades_core.bots.expert:ExpertBot",
}


def make_bot(name: str) -> Bot:
    """A bot by level (``beginner``, ``normal``, ``expert``) or ``package.module:Class``."""
    target = LEVELS.get(name, name)
    module_name, _, class_name = target.partition(":")
    if not class_name:
        raise UsageError(f"unknown bot {name!r}: use a level or package.module:Class")
    try:
        factory = getattr(importlib.import_module(module_name), class_name)
    except (ImportError, AttributeError) as error:
        raise UsageError(f"cannot load bot {name!r}: {error}") from None
    bot = factory()
    if not isinstance(bot, Bot):
        raise UsageError(f"{name!r} is not a bot: it needs blind_nil, bid and play")
    return bot


def bot_action(bot: Bot, state: GameState) -> Card | Bid:
    """The action of the seat to act, decided by ``bot`` from that seat's views only."""
    seat = state.to_act
    if seat is None:
        raise UsageError("nobody is to act")
    if state.phase is Phase.BIDDING:
        if state.rules.blind_nil and bot.blind_nil(view_for(state, seat, hand_seen=False)):
            return BLIND_NIL
        return bot.bid(view_for(state, seat))
    return bot.play(view_for(state, seat))
