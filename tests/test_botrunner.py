"""The page's bot runner under CPython: the Expert decides even when its worker cannot
start, never answers, or breaks, and the main-thread (sliced) decision is the worker's."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from spades_core import GameState, Phase, Rules
from spades_core.bots import bot_action, make_bot
from spades_core.record import dumps, loads
from tests.helpers import run_async
from ui.shared import botrunner
from ui.shared.botrunner import BotRunner


def positions(count: int) -> list[GameState]:
    bot = make_bot("normal")
    state = GameState.new(Rules(target=200), deal=4242)
    found: list[GameState] = []
    while len(found) < count and state.phase is not Phase.OVER:
        found.append(state)
        state = state.apply(bot_action(bot, state))
    return found


class AnsweringWorker:
    """A worker that decides as ``ui/botworker.py`` does."""

    def __init__(self) -> None:
        self.asked = 0

    async def ping(self) -> str:
        return "ready"

    async def decide(self, record_text: str, level: str) -> str:
        from ui import botworker

        self.asked += 1
        return botworker.decide(record_text, level)


class SilentWorker(AnsweringWorker):
    async def decide(self, record_text: str, level: str) -> str:
        self.asked += 1
        await asyncio.sleep(3600)
        return ""


def with_worker(monkeypatch: pytest.MonkeyPatch, make: Any) -> None:
    async def create(name: str) -> Any:
        return await make()

    monkeypatch.setattr(BotRunner, "_create", staticmethod(create))


def test_no_pyscript_means_main_thread_and_the_same_decisions() -> None:
    runner = BotRunner()

    async def run() -> list[Any]:
        found = []
        for state in positions(20):
            found.append(await runner.decide(state, "expert"))
            await asyncio.sleep(0)
        return found

    decisions = run_async(run())
    expert = make_bot("expert")
    assert decisions == [bot_action(expert, state) for state in positions(20)]
    assert runner.worker_failed  # no pyscript under CPython
    assert runner.longest_slice_ms > 0


def test_sliced_decision_is_the_workers() -> None:
    worker = AnsweringWorker()
    runner = BotRunner()
    for state in positions(12):
        sliced = run_async(runner.decide_sliced(state, "expert"))
        token = run_async(worker.decide(dumps(state), "expert"))
        assert str(sliced) == token
        assert loads(dumps(state)).to_act == state.to_act


def test_a_ready_worker_decides(monkeypatch: pytest.MonkeyPatch) -> None:
    worker = AnsweringWorker()

    async def make() -> Any:
        return worker

    with_worker(monkeypatch, make)

    async def run() -> list[Any]:
        runner = BotRunner()
        runner.start_worker()
        assert runner._starting is not None
        await runner._starting
        return [await runner.decide(state, "expert") for state in positions(6)]

    decisions = run_async(run())
    expert = make_bot("expert")
    assert decisions == [bot_action(expert, state) for state in positions(6)]
    assert worker.asked == 6


def test_a_worker_that_never_starts_times_out_and_is_retried_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    made = []

    async def make() -> Any:
        made.append(1)
        await asyncio.sleep(3600)

    with_worker(monkeypatch, make)
    monkeypatch.setattr(botrunner, "START_TIMEOUT_MS", 50)

    async def run() -> BotRunner:
        runner = BotRunner()
        state = positions(1)[0]
        # no waiting for the worker: the first decision is made on the main thread
        assert await runner.decide(state, "expert") == bot_action(make_bot("expert"), state)
        assert runner._starting is not None
        await runner._starting
        assert runner.worker_failed
        runner.start_worker()  # a new game: one more try
        await runner._starting
        runner.start_worker()  # and no more
        await runner._starting
        return runner

    runner = run_async(run())
    assert runner.worker_failed and runner.starts == 2 and len(made) == 2


def test_a_worker_that_never_answers_a_decision_is_dropped(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    worker = SilentWorker()

    async def make() -> Any:
        return worker

    with_worker(monkeypatch, make)
    monkeypatch.setattr(botrunner, "DECIDE_TIMEOUT_MS", 50)

    async def run() -> tuple[BotRunner, list[Any]]:
        runner = BotRunner()
        runner.start_worker()
        assert runner._starting is not None
        await runner._starting
        return runner, [await runner.decide(state, "expert") for state in positions(4)]

    runner, decisions = run_async(run())
    expert = make_bot("expert")
    assert decisions == [bot_action(expert, state) for state in positions(4)]
    assert runner.worker_failed and worker.asked == 1  # asked once, then never again


def test_a_broken_answer_is_decided_again_here(monkeypatch: pytest.MonkeyPatch) -> None:
    class Broken(AnsweringWorker):
        async def decide(self, record_text: str, level: str) -> str:
            return "not a card"

    async def make() -> Any:
        return Broken()

    with_worker(monkeypatch, make)

    async def run() -> Any:
        runner = BotRunner()
        runner.start_worker()
        assert runner._starting is not None
        await runner._starting
        return await runner.decide(positions(8)[-1], "expert")

    assert run_async(run()) == bot_action(make_bot("expert"), positions(8)[-1])


def test_the_card_first_then_its_sentence_is_the_hint_from_one_search(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The page shows the hint's card first (``hint_card_steps``), then its sentence
    (``hint_json_steps``): the same card and the same hint as ``hints.hint``, and the
    sentence's job makes no search of its own (the card's is kept for it)."""
    from spades_core import Seat, hints
    from spades_core.bots.expert import run_steps
    from spades_core.views import view_for

    states = [state for state in positions(60) if state.to_act == Seat.S]
    assert len(states) >= 8 and {s.phase for s in states} == {Phase.BIDDING, Phase.PLAYING}
    real = hints.hint_steps
    searched: list[int] = []
    monkeypatch.setattr(hints, "hint_steps", lambda *a, **k: searched.append(1) or real(*a, **k))
    for state in states:
        view = view_for(state, Seat.S)
        whole = botrunner.hint_to_json(hints.hint(view, "normal"))
        record = dumps(state)
        assert run_steps(botrunner.hint_card_steps(record, True)) == str(hints.hint(view).action)
        assert run_steps(botrunner.hint_json_steps(record, True, "normal")) == whole
        assert not searched
    # a position whose card was not asked first: its own search, the same hint
    run_steps(botrunner.hint_card_steps(dumps(states[0]), True))
    other = states[-1]
    assert run_steps(botrunner.hint_json_steps(dumps(other), True, "")) == (
        botrunner.hint_to_json(hints.hint(view_for(other, Seat.S))))
    assert searched == [1]
