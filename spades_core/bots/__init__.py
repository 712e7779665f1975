"""Bots behind one small protocol (see :mod:`.base`)."""

from __future__ import annotations

from .base import Bot, view_seed
from .driver import LEVELS, bot_action, make_bot

__all__ = ["LEVELS", "Bot", "bot_action", "make_bot", "view_seed"]
