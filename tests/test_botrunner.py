"""The page's bot runner under CPython: the Expert decides even when its worker cannot
start, never answers, or breaks, and the main-thread (sliced) decision is the worker's."""

from __future__ import annotations

import asyncio
import json
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


class CoachingWorker(AnsweringWorker):
    """A worker that answers the hint's calls as ``ui/botworker.py`` does, one search step
    per part of the hint worked out ahead, and logs what it was asked."""

    def __init__(self) -> None:
        super().__init__()
        self.log: list[str] = []
        self.gate: asyncio.Event | None = None  # holds a decision until set

    async def decide(self, record_text: str, level: str) -> str:
        self.log.append("decide")
        if self.gate is not None:
            await self.gate.wait()
        self.log.append("decided")
        return await super().decide(record_text, level)

    async def hint_ahead(self, record_text: str, hand_seen: bool, level: str,
                         budget_ms: float) -> str:
        self.log.append("part")
        await asyncio.sleep(0)
        return botrunner.hint_ahead_part(record_text, hand_seen, level, 0.0)

    async def hint_card(self, record_text: str, hand_seen: bool) -> str:
        from ui import botworker

        self.log.append("hint_card")
        return botworker.hint_card(record_text, hand_seen)

    async def hint(self, record_text: str, hand_seen: bool, level: str = "") -> str:
        from ui import botworker

        self.log.append("hint")
        return botworker.hint(record_text, hand_seen, level)


async def ready_runner(worker: Any) -> BotRunner:
    runner = BotRunner()

    async def create(name: str) -> Any:
        return worker

    runner._create = create  # type: ignore[method-assign]
    runner.start_worker()
    assert runner._starting is not None
    await runner._starting
    return runner


def south_turns(count: int) -> list[GameState]:
    from spades_core import Seat

    states = [state for state in positions(80) if state.to_act == Seat.S]
    assert len(states) >= count  # a bid first, then cards
    assert [s.phase for s in states[:2]] == [Phase.BIDDING, Phase.PLAYING]
    return states[:count]


def test_the_hint_worked_out_in_parts_is_the_hint() -> None:
    """A part at a time (one search step each), the hint worked out ahead is the card and
    the JSON the Hint button's two jobs give (``hints.hint``); another record starts over."""
    from spades_core import Seat, hints
    from spades_core.views import view_for

    for state in south_turns(6):
        record = dumps(state)
        parts = 1
        while not (text := botrunner.hint_ahead_part(record, True, "normal", 0.0)):
            parts += 1
        found = json.loads(text)
        whole = hints.hint(view_for(state, Seat.S), "normal")
        assert found == {"card": str(whole.action), "hint": botrunner.hint_to_json(whole)}
        assert parts > 3
    first, second = (dumps(state) for state in south_turns(2))
    assert botrunner.hint_ahead_part(first, True, "", 0.0) == ""
    assert botrunner.hint_ahead_part(second, True, "", 0.0) == ""  # first's steps dropped
    assert botrunner._AHEAD[0][0] == (second, True, "")


def test_the_hint_asked_after_it_was_worked_out_ahead_needs_no_search() -> None:
    """Worked out ahead, the Hint button's card and sentence come from it: no job of the
    worker's, the same hint as ``hints.hint``; nothing ahead without a ready worker."""
    from spades_core import Seat, hints
    from spades_core.views import view_for

    worker = CoachingWorker()

    async def run() -> list[tuple[str, Any]]:
        assert not BotRunner().hint_ahead(south_turns(1)[0], True, "normal")  # no worker
        runner = await ready_runner(worker)
        found = []
        for state in south_turns(4):
            assert runner.hint_ahead(state, True, "normal")
            assert runner._ahead is not None and runner._ahead.task is not None
            await runner._ahead.task  # the player thinks: it is done meanwhile
            card = await runner.hint_card(state, True)
            found.append((card, await runner.hint(state, True, "normal")))
        assert runner.hints_ahead == 4
        return found

    found = run_async(run())
    assert "hint_card" not in worker.log and "hint" not in worker.log
    for state, (card, advice) in zip(south_turns(4), found, strict=True):
        whole = hints.hint(view_for(state, Seat.S), "normal")
        assert card == str(whole.action) and advice == whole


def test_a_hint_asked_while_worked_out_ahead_waits_for_it_and_a_bot_goes_first() -> None:
    """The Hint button pressed while the hint is still being worked out ahead waits for
    it (no second search); a bot's decision asked meanwhile goes first: no part is asked
    while it is in the worker; a new position drops the hint worked out ahead."""
    from spades_core import Seat, hints
    from spades_core.views import view_for

    worker = CoachingWorker()
    state, other = south_turns(2)

    async def run() -> Any:
        runner = await ready_runner(worker)
        runner.hint_ahead(state, True, "normal")
        for _ in range(6):
            await asyncio.sleep(0)
        worker.gate = asyncio.Event()
        deciding = asyncio.ensure_future(runner.decide(positions(3)[1], "expert"))
        for _ in range(20):  # the decision held in the worker: no part asked meanwhile
            await asyncio.sleep(0)
        worker.gate.set()
        assert await deciding == bot_action(make_bot("expert"), positions(3)[1])
        advice = await runner.hint(state, True, "normal")  # still running: waited for
        parts = worker.log.count("part")
        runner.hint_ahead(other, True, "normal")
        runner.drop_ahead()  # South played: no more parts for it
        for _ in range(20):
            await asyncio.sleep(0)
        return advice, parts

    advice, parts = run_async(run())
    assert advice == hints.hint(view_for(state, Seat.S), "normal")
    held = worker.log[worker.log.index("decide"):worker.log.index("decided")]
    assert "part" not in held
    assert parts > 1 and "part" in worker.log[worker.log.index("decided"):]
    assert "hint" not in worker.log and "hint_card" not in worker.log
    assert worker.log.count("part") <= parts + 1  # the dropped one: one part at most
