"""Shared test helpers: building cards and positions from text, and a plain reference
implementation of the trick rules written without bit masks, to check the engine."""

from __future__ import annotations

import asyncio
import concurrent.futures
import http.client
import importlib.util
import json
import sys
from collections.abc import Coroutine, Generator
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any, TypeVar
from urllib.parse import urlsplit

from spades_core import Bid, Card, CardSet, GameState, Rules, Seat, parse_bid, parse_card
from spades_core.bots import bot_action, make_bot
from spades_core.rules import DEFAULT_RULES
from spades_core.views import View, view_for

ROOT = Path(__file__).resolve().parents[1]
TOOLS = ROOT / "tools"
LAB = ROOT / "lab"

T = TypeVar("T")


def run_async(coro: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run(coro)`` in a thread of its own: a browser test run earlier in this process
    (Playwright's sync API) may have left an event loop set on the main thread, where
    ``asyncio.run`` refuses to start another (seen only when the whole suite runs)."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()


def drain(steps: Generator[None, None, T]) -> tuple[T, int]:
    """Run a steps generator (the page's sliced work) to its end: its value, and how many
    times it yielded (paused)."""
    pauses = 0
    while True:
        try:
            next(steps)
        except StopIteration as done:
            return done.value, pauses
        pauses += 1


def load_tool(name: str, folder: Path = TOOLS) -> ModuleType:
    """Import ``<folder>/<name>.py``, ``tools/`` by default (neither tools/ nor lab/ is a
    package)."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, folder / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


@cache
def south_at(deal: int, actions: int) -> View:
    """South's view after ``actions`` actions of the Normal bots in ``deal``'s game."""
    bot = make_bot("normal")
    state = GameState.new(DEFAULT_RULES, deal=deal)
    for _ in range(actions):
        state = state.apply(bot_action(bot, state))
    assert state.to_act is Seat.S
    return view_for(state, Seat.S)


def http_get(url: str, path: str, headers: dict[str, str] | None = None,
             timeout: float = 30.0) -> tuple[int, bytes]:
    """A GET of ``path`` on the test server at ``url``: its status and body."""
    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=timeout)
    try:
        conn.request("GET", path, headers=headers or {})
        response = conn.getresponse()
        return response.status, response.read()
    finally:
        conn.close()


def http_get_json(url: str, path: str) -> tuple[int, Any]:
    """A GET whose body is JSON: its status and the body read."""
    status, body = http_get(url, path)
    return status, json.loads(body)


def load_lab(name: str) -> ModuleType:
    """Import ``lab/<name>.py``, one of the bots' research instruments."""
    return load_tool(name, LAB)

def cards(text: str) -> list[Card]:
    return [parse_card(word) for word in text.split()]


def mask(text: str) -> int:
    return CardSet.of(text.split()).mask


def position(
    hands: dict[str, str],
    *,
    leader: str,
    bids: str = "3 3 3 3",
    trick: str = "",
    broken: bool = False,
    rules: Rules | None = None,
    tricks: tuple[int, int, int, int] = (0, 0, 0, 0),
    scores: tuple[int, int] = (0, 0),
    bags: tuple[int, int] = (0, 0),
) -> GameState:
    """A position from text: ``hands={"S": "AS 2H"}``, bids by seat N E S W."""
    return GameState.position(
        rules or Rules(),
        [mask(hands.get(seat.name, "")) for seat in Seat],
        leader=Seat[leader],
        bids=[parse_bid(token) for token in bids.split()],
        trick=cards(trick),
        spades_broken=broken,
        tricks=tricks,
        scores=scores,
        bags=bags,
    )


def reference_winner(trick: list[Card]) -> int:
    """Index of the winning card, by the plain words of RULES.md."""
    spades = [card for card in trick if card.suit.name == "SPADES"]
    if spades:
        return trick.index(max(spades, key=lambda card: card.rank))
    led = trick[0].suit
    following = [card for card in trick if card.suit == led]
    return trick.index(max(following, key=lambda card: card.rank))


def reference_legal(hand: list[Card], trick: list[Card], broken: bool) -> set[Card]:
    """The cards that may be played, by the plain words of RULES.md."""
    if trick:
        same = [card for card in hand if card.suit == trick[0].suit]
        return set(same or hand)
    if broken:
        return set(hand)
    others = [card for card in hand if card.suit.name != "SPADES"]
    return set(others or hand)


def bids(text: str) -> list[Bid]:
    return [parse_bid(token) for token in text.split()]
