"""The bots' decisions for the page.

Beginner and Normal decide in a few milliseconds: on the main thread.  Expert may take a few
hundred milliseconds in Pyodide: it decides in a PyScript worker (``ui/botworker.py``, the same
interpreter and app.zip), started lazily after the page is interactive; main -> worker calls
are async, so the page never freezes.  The worker receives the game record and returns the
action's text, so the decision is the same as on the main thread (the bots are deterministic).
If the worker cannot start, the expert decides on the main thread.
"""

from __future__ import annotations

import asyncio
from typing import Any

from spades_core import Bid, Card, GameState, Phase, parse_bid, parse_card
from spades_core.bots import Bot, bot_action, make_bot

WORKER_LEVELS = frozenset({"expert"})
WORKER_NAME = "spades-bots"


class BotRunner:
    def __init__(self) -> None:
        self._bots: dict[str, Bot] = {}
        self._worker: Any = None
        self._starting: asyncio.Future[Any] | None = None
        self.worker_failed = False

    def decide_here(self, state: GameState, level: str) -> Card | Bid:
        bot = self._bots.get(level)
        if bot is None:
            bot = self._bots[level] = make_bot(level)
        return bot_action(bot, state)

    def start_worker(self) -> None:
        """Start the worker in the background (idempotent)."""
        if self._starting is None and not self.worker_failed:
            self._starting = asyncio.ensure_future(self._start())

    async def _start(self) -> Any:
        try:
            from pyscript import create_named_worker  # type: ignore[import-not-found]

            self._worker = await create_named_worker(
                src="./ui/botworker.py", name=WORKER_NAME, config="./pyscript.toml", type="py"
            )
            await self._worker.ping()
        except Exception:
            self.worker_failed = True
            self._worker = None
        return self._worker

    async def decide(self, state: GameState, level: str) -> Card | Bid:
        if level not in WORKER_LEVELS:
            return self.decide_here(state, level)
        self.start_worker()
        assert self._starting is not None or self.worker_failed
        worker = await self._starting if self._starting is not None else None
        if worker is None:
            return self.decide_here(state, level)
        from spades_core.record import dumps

        token = str(await worker.decide(dumps(state), level))
        return parse_bid(token) if state.phase is Phase.BIDDING else parse_card(token)
