"""The bots' decisions for the page.

Beginner and Normal decide in a few milliseconds: on the main thread.  Expert may take a few
hundred milliseconds in Pyodide: it decides in a PyScript worker (``ui/botworker.py``, the same
interpreter and app.zip), started lazily after the page is interactive; main -> worker calls
are async, so the page never freezes.  The worker receives the game record and returns the
action's text, so the decision is the same as on the main thread (the bots are deterministic).

The Expert never waits for a worker that may not come:

- until the worker has answered its first ``ping`` (a few seconds of Pyodide boot), and for
  good once it has failed, the Expert decides on the main thread, in slices
  (:func:`spades_core.bots.expert.action_steps`, about :data:`SLICE_MS` of work, then a
  pause that lets the page paint and take input).  Where the pauses fall changes nothing in
  the decision: it is the worker's, and ``bot_action``'s;
- the worker fails when it does not answer its ``ping`` within :data:`START_TIMEOUT_MS`
  (it never loaded), at once when PyScript reports that it could not start (the ``Worker``
  constructor threw, the CSP refused it: PyScript's red error banner for the worker's script
  is then removed), when a decision takes more than :data:`DECIDE_TIMEOUT_MS`, or on any
  error.  A failed worker is started
  once more at most, when asked again (a new game), never in a loop.

Tests may shorten the time-outs with ``window.spadesWorkerStartMs`` and
``window.spadesWorkerDecideMs`` set before the page's Python starts.  ``<body>`` shows the
worker's state for tests and bug reports: ``data-bot-worker`` (``starting``, ``ready``,
``failed``), ``data-bot-worker-ms`` (how long it took to answer), ``data-bot-slice-ms`` and
``data-bot-step-ms`` (the longest main-thread slice and search step so far),
``data-bot-decide-ms`` (the longest decision in the worker so far).  For each coach job (the
hint, the review, a hand of the par: ``METHOD``, ``par_step`` for the par's hands),
``data-TAG-METHOD-ms`` is the last one's time in ms (measured in the page, from the request
to the answer, the record's trip to the worker included), ``data-TAG-METHOD-by`` where it
ran (``worker`` or ``main``) and ``data-TAG-METHOD-count`` how many have finished
(tools/browser_bench.py reads them).

South's hint is worked out ahead (:meth:`BotRunner.hint_ahead`): when South must act, the
table asks for it at once, and the worker computes it in parts of about
:data:`AHEAD_PART_MS` (``hint_ahead`` in ui/botworker.py, :func:`hint_ahead_part`), one part
at a time and only while no other call is waiting on the worker: a bot's decision or
another job asked meanwhile waits for one part at most.  The result is kept for that
position (record, cards seen, level) only; the Hint button then shows it at once, or waits
for the part still running, and never starts a second search for it.  A new position drops
it.  ``data-TAG-hint_ahead-ms`` is the last one's time from its start (its parts and the
waits between them), ``data-TAG-hint_ahead-count`` how many have finished, and
``data-TAG-hint-ahead`` how many hints were answered from one.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Callable, Generator
from typing import Any

from spades_core import Bid, Card, GameState, Phase, Seat, parse_bid, parse_card
from spades_core.bots import Bot, bot_action, make_bot
from spades_core.bots.expert import action_steps
from spades_core.views import view_for

WORKER_LEVELS = frozenset({"expert"})
WORKER_NAME = "spades-bots"
# Pyodide's boot in a worker: 4.7 s measured (load 7 on 2 cores), over 20 s at load 17 (the
# page's own boot took 24-29 s there).  Nothing waits for it (the main thread decides
# meanwhile): a generous time-out only keeps a slow worker, a hung one is dropped.
START_TIMEOUT_MS = 30_000
DECIDE_TIMEOUT_MS = 5_000  # an Expert decision: under 1 s in the worker
SLICE_MS = 20.0  # main-thread work between two pauses (one step may run to about 30 ms)
MAX_STARTS = 2  # the first start and one retry
POLL_MS = 250  # how often a starting worker is checked for PyScript's error banner
AHEAD_PART_MS = 40.0  # the hint worked out ahead: the worker's work per part (a bot's
# decision asked meanwhile waits for one part at most, plus one step of the search)


def _now_ms() -> float:
    return time.perf_counter() * 1000.0


def _page_number(name: str, default: float) -> float:
    """A number the page set on ``window`` (tests), else ``default``."""
    try:
        import js  # type: ignore[import-not-found]

        value = getattr(js.window, name, None)
        return float(value) if isinstance(value, (int, float)) and value > 0 else default
    except Exception:
        return default


def _show(name: str, value: str) -> None:
    """``<body data-NAME=value>`` when there is a page."""
    try:
        import js

        js.document.body.setAttribute(f"data-{name}", value)
    except Exception:
        pass


def _take_error_banner(name: str) -> bool:
    """Whether PyScript reported that the worker ``name`` could not start (its red
    ``.py-error`` banner, e.g. "Worker refused" or a CSP without ``blob:``); the banner
    goes, since the page carries on without the worker."""
    try:
        import js

        found = False
        for element in js.document.querySelectorAll(".py-error"):
            if f'name="{name}"' in str(element.textContent):
                element.remove()
                found = True
        return found
    except Exception:
        return False


COACH_NAME = "spades-coach"  # a second worker for the review and the par: long jobs that
# must not hold up the bots' decisions
COACH_TIMEOUT_MS = 600_000  # a review, or one hand of a par (four Experts: seconds)
REVIEW_PART = 2  # decisions of a hand weighed per coach job (each about 0.5 s in the page)
MAX_PAR_GAMES = 8  # par games kept in memory, part played or over (the oldest dropped)


class BotRunner:
    def __init__(self, name: str = WORKER_NAME, tag: str = "bot") -> None:
        self.name = name
        self.tag = tag  # <body data-TAG-worker=...>
        self._bots: dict[str, Bot] = {}
        self._worker: Any = None
        self._starting: asyncio.Future[Any] | None = None
        self.starts = 0
        self.worker_failed = False
        self.start_ms: float | None = None  # how long the worker took to answer
        self.longest_slice_ms = 0.0  # main-thread work between two pauses
        self.longest_step_ms = 0.0  # one step of the search
        self.longest_decision_ms = 0.0  # one decision in the worker
        self.last_job_ms = 0.0  # the last hint, review or par (worker or main thread)
        self.last_where = "main"  # where the last coach job ran
        self.jobs_done: dict[str, int] = {}  # coach jobs finished, by method
        self.par_games: dict[str, str] = {}  # par games so far (records), by par key
        self._par_running: dict[str, asyncio.Future[tuple[str, dict[str, Any]]]] = {}
        self._par_owner: dict[str, object] = {}  # the loop working on each key
        self.par_progress_shown = 0
        self._ahead: Ahead | None = None  # South's hint worked out ahead, for one position
        self.hints_ahead = 0  # hints answered from the one worked out ahead
        self._calls = 0  # other calls the worker is answering (a decision, a job)
        self._idle = asyncio.Event()  # set while there are none
        self._idle.set()

    def bot(self, level: str) -> Bot:
        bot = self._bots.get(level)
        if bot is None:
            bot = self._bots[level] = make_bot(level)
        return bot

    def decide_here(self, state: GameState, level: str) -> Card | Bid:
        return bot_action(self.bot(level), state)

    async def decide_sliced(self, state: GameState, level: str) -> Card | Bid:
        """The decision on the main thread, pausing every :data:`SLICE_MS` of work."""
        return await self.run_sliced(action_steps(self.bot(level), state))  # type: ignore[no-any-return]

    async def run_sliced(self, steps: Any) -> Any:
        """Run a generator of steps to its end on the main thread, pausing every
        :data:`SLICE_MS` of work; its result."""
        await asyncio.sleep(0)  # let the page paint what came before ("West is thinking")
        begin = _now_ms()
        while True:
            step = _now_ms()
            try:
                next(steps)
            except StopIteration as done:
                self._note_slice(_now_ms() - begin, _now_ms() - step)
                return done.value
            now = _now_ms()
            spent = now - begin
            self._note_slice(spent, now - step)
            if spent >= SLICE_MS:
                await asyncio.sleep(0)
                begin = _now_ms()

    def _note_slice(self, spent: float, step: float) -> None:
        if spent > self.longest_slice_ms:
            self.longest_slice_ms = spent
            _show("bot-slice-ms", str(round(spent)))
        if step > self.longest_step_ms:
            self.longest_step_ms = step
            _show("bot-step-ms", str(round(step)))

    def start_worker(self) -> None:
        """Start the worker in the background (idempotent; after a failure, once more)."""
        if self._starting is not None and not self.worker_failed:
            return
        if self.starts >= MAX_STARTS:
            return
        self.starts += 1
        self.worker_failed = False
        self._worker = None
        self._starting = asyncio.ensure_future(self._start(f"{self.name}-{self.starts}"))

    async def _start(self, name: str) -> Any:
        _show(f"{self.tag}-worker", "starting")
        begin = _now_ms()
        timeout = _page_number("spadesWorkerStartMs", START_TIMEOUT_MS) / 1000.0
        creating = asyncio.ensure_future(self._create(name))
        try:
            while not creating.done():
                await asyncio.wait({creating}, timeout=POLL_MS / 1000.0)
                if creating.done():
                    break
                if _take_error_banner(name) or _now_ms() - begin > timeout * 1000.0:
                    creating.cancel()
                    raise TimeoutError(name)
            worker = creating.result()
        except Exception:  # Worker refused, never loaded or never answered; any error
            self._fail(name)
            return None
        self.start_ms = _now_ms() - begin
        self._worker = worker
        _show(f"{self.tag}-worker-ms", str(round(self.start_ms)))
        _show(f"{self.tag}-worker", "ready")
        return worker

    @staticmethod
    async def _create(name: str) -> Any:
        from pyscript import create_named_worker  # type: ignore[import-not-found]

        worker = await create_named_worker(
            src="./ui/botworker.py", name=name, config="./pyscript.toml", type="py"
        )
        if str(await worker.ping()) != "ready":
            raise RuntimeError("the bots' worker did not answer its ping")
        return worker

    def _fail(self, name: str | None = None) -> None:
        """Give up on the worker: the main thread decides from now on."""
        self.worker_failed = True
        self._worker = None
        _show(f"{self.tag}-worker", "failed")
        try:  # stop a worker that may still be booting or thinking
            import js

            for element in js.document.querySelectorAll(f"script[worker][name^='{self.name}']"):
                if name is None or element.getAttribute("name") == name:
                    xworker = getattr(element, "xworker", None)
                    if xworker is not None:
                        xworker.terminate()
                    element.remove()
        except Exception:
            pass

    async def decide(self, state: GameState, level: str) -> Card | Bid:
        if level not in WORKER_LEVELS:
            return self.decide_here(state, level)
        if self._starting is None:
            self.start_worker()
        worker = self._worker
        if worker is None or self.worker_failed:
            return await self.decide_sliced(state, level)
        from spades_core.record import dumps

        timeout = _page_number("spadesWorkerDecideMs", DECIDE_TIMEOUT_MS) / 1000.0
        begin = _now_ms()
        try:
            with self._calling():
                token = str(await asyncio.wait_for(self._ask(worker, dumps(state), level),
                                                   timeout))
            spent = _now_ms() - begin
            if spent > self.longest_decision_ms:
                self.longest_decision_ms = spent
                _show("bot-decide-ms", str(round(spent)))
            return parse_bid(token) if state.phase is Phase.BIDDING else parse_card(token)
        except Exception:  # the time-out, a worker that broke, a bad answer
            self._fail()
            return await self.decide_sliced(state, level)

    @staticmethod
    async def _ask(worker: Any, record_text: str, level: str) -> Any:
        return await worker.decide(record_text, level)

    # --- the coach's work: the hint, the review, the par ------------------------------

    async def _ready_worker(self, wait: bool) -> Any:
        """The worker, started if need be; ``wait``: wait for one still starting (a job
        nobody is waiting on at the table) rather than work on the main thread now."""
        if self._starting is None:
            self.start_worker()
        if wait and self._worker is None and not self.worker_failed and self._starting:
            with contextlib.suppress(Exception):
                await asyncio.shield(self._starting)
        return None if self.worker_failed else self._worker

    async def job(self, method: str, args: tuple[Any, ...], steps: Any, timeout_ms: float,
                  wait: bool = False) -> str:
        """``worker.<method>(*args)``'s text, or, without a worker (or when it fails or
        takes over ``timeout_ms``), the generator ``steps()`` run in slices on the main
        thread, whose result is the same text."""
        worker = await self._ready_worker(wait)
        if worker is not None:
            begin = _now_ms()
            try:
                with self._calling():
                    text = str(await asyncio.wait_for(getattr(worker, method)(*args),
                                                      timeout_ms / 1000.0))
                self._note_job(method, _now_ms() - begin, "worker")
                return text
            except Exception:
                self._fail()
        begin = _now_ms()
        text = str(await self.run_sliced(steps()))
        self._note_job(method, _now_ms() - begin, "main")
        return text

    async def short_job(self, method: str, args: tuple[Any, ...], steps: Any) -> str:
        """:meth:`job` for work of a second or less (a drill's answer), with the time-out
        of a decision: a slower worker is given up for the main thread."""
        timeout = _page_number("spadesWorkerDecideMs", DECIDE_TIMEOUT_MS)
        return await self.job(method, args, steps, timeout)

    def _note_job(self, method: str, spent: float, where: str) -> None:
        self.last_job_ms = spent
        self.last_where = where
        self.jobs_done[method] = self.jobs_done.get(method, 0) + 1
        _show(f"{self.tag}-{method}-ms", str(round(spent, 1)))
        _show(f"{self.tag}-{method}-by", where)
        _show(f"{self.tag}-{method}-count", str(self.jobs_done[method]))

    @contextlib.contextmanager
    def _calling(self) -> Generator[None, None, None]:
        """A call to the worker other than the hint worked out ahead: that one waits."""
        self._calls += 1
        self._idle.clear()
        try:
            yield
        finally:
            self._calls -= 1
            if self._calls == 0:
                self._idle.set()

    # --- South's hint worked out ahead ---------------------------------------------------

    def hint_ahead(self, state: GameState, hand_seen: bool, level: str | None = None) -> bool:
        """Start working out South's hint for ``state`` in the worker (the hint the Hint
        button would ask for: :meth:`hint_card` then :meth:`hint`), kept for this position
        only; a hint worked out ahead for another position is dropped.  Nothing when the
        worker is not ready (starting, failed: the Hint button asks as before).  Whether it
        is (or was already) under way."""
        from spades_core.record import dumps

        worker = self._worker
        if worker is None or self.worker_failed:
            self.drop_ahead()
            return False
        key = (dumps(state), bool(hand_seen), level or "")
        ahead = self._ahead
        if ahead is not None and ahead.key == key and not ahead.given_up():
            return True
        ahead = Ahead(key)
        self._ahead = ahead
        ahead.task = asyncio.ensure_future(self._work_ahead(worker, ahead))
        return True

    def drop_ahead(self) -> None:
        """The position changed: the hint worked out ahead is of no use any more (a part
        still running in the worker ends, no other is asked)."""
        self._ahead = None

    async def _work_ahead(self, worker: Any, ahead: Ahead) -> str | None:
        """The hint's JSON (:func:`hint_ahead_steps`), asked of the worker a part at a
        time while nothing else waits on it; None when dropped or when the worker failed."""
        begin = _now_ms()
        timeout = _page_number("spadesWorkerDecideMs", DECIDE_TIMEOUT_MS) / 1000.0
        while True:
            while self._ahead is ahead and not self._idle.is_set():
                await self._idle.wait()  # a bot's decision or another job goes first
            if self._ahead is not ahead or self.worker_failed:
                return None
            try:
                text = str(await asyncio.wait_for(
                    worker.hint_ahead(*ahead.key, AHEAD_PART_MS), timeout))
            except Exception:  # a worker that broke or hung: as for any other job
                if self._worker is worker:
                    self._fail()
                return None
            if text:
                self._note_job("hint_ahead", _now_ms() - begin, "worker")
                return text

    async def _from_ahead(self, record: str, hand_seen: bool,
                          level: str | None) -> dict[str, Any] | None:
        """The hint worked out ahead for this position (``level`` None: any level, for the
        card alone), waited for if still running; None if there is none."""
        ahead = self._ahead
        if ahead is None or ahead.task is None or ahead.key[:2] != (record, bool(hand_seen)):
            return None
        if level is not None and ahead.key[2] != level:
            return None
        with contextlib.suppress(Exception):
            text = await asyncio.shield(ahead.task)
            if text:
                found: dict[str, Any] = json.loads(text)
                return found
        return None

    async def hint(self, state: GameState, hand_seen: bool, level: str | None = None) -> Any:
        """South's hint, off the main thread (the same as ``hints.hint``); ``level``, the
        opponents' bot level, is whom a stated Nil figure is said to assume.  After
        :meth:`hint_card` for the same position, only the sentence is left to work out;
        worked out ahead for this position (:meth:`hint_ahead`), it is that one."""
        from spades_core.record import dumps

        record = dumps(state)
        begin = _now_ms()
        ahead = await self._from_ahead(record, hand_seen, level or "")
        if ahead is not None:
            self.hints_ahead += 1
            _show(f"{self.tag}-hint-ahead", str(self.hints_ahead))
            self._note_job("hint", _now_ms() - begin, "worker")
            return hint_from_json(str(ahead["hint"]), state.phase is Phase.BIDDING)
        timeout = _page_number("spadesWorkerDecideMs", DECIDE_TIMEOUT_MS)
        text = await self.job("hint", (record, hand_seen, level or ""),
                              lambda: hint_json_steps(record, hand_seen, level or ""), timeout)
        return hint_from_json(text, state.phase is Phase.BIDDING)

    async def hint_card(self, state: GameState, hand_seen: bool) -> str:
        """The hint's card or bid alone (its text), the first half of :meth:`hint`: the
        Expert's search, kept where it ran (the worker, or this page) for the sentence
        that :meth:`hint` then works out from it.  For a seat that has seen its cards."""
        from spades_core.record import dumps

        record = dumps(state)
        begin = _now_ms()
        ahead = await self._from_ahead(record, hand_seen, None)
        if ahead is not None:
            self._note_job("hint_card", _now_ms() - begin, "worker")
            return str(ahead["card"])
        timeout = _page_number("spadesWorkerDecideMs", DECIDE_TIMEOUT_MS)
        return await self.job("hint_card", (record, hand_seen),
                              lambda: hint_card_steps(record, hand_seen), timeout)

    async def review(self, state: GameState, hand_index: int,
                     progress: Callable[[int, int], None] | None = None,
                     level: str | None = None) -> dict[str, Any]:
        """The review of South's decisions in a finished hand (``review_to_dict``), worked
        out :data:`REVIEW_PART` decisions per coach job (:func:`review_part_steps`), so that
        ``progress(done, count)`` can say how far it got after each and another coach job
        waits for a few decisions at most; ``level``, the opponents' bot level, is whom a
        stated Nil figure is said to assume.  ``<body>``: ``data-TAG-review-ms`` is the whole
        hand's time (all its jobs), ``data-TAG-review-done`` / ``-of`` the progress."""
        from spades_core.record import dumps

        record_text = dumps(state)
        begin = _now_ms()
        parts: list[dict[str, Any]] = []
        start, count = 0, REVIEW_PART
        while start < count or not parts:
            stop = start + REVIEW_PART

            def steps(start: int = start, stop: int = stop) -> Generator[None, None, str]:
                return (yield from review_part_steps(state, hand_index, start, stop, level))

            text = await self.job("review_part",
                                  (record_text, hand_index, start, stop, level or ""), steps,
                                  COACH_TIMEOUT_MS, wait=True)
            data: dict[str, Any] = json.loads(text)
            count = int(data.pop("of"))
            parts.append(data)
            start = stop
            _show(f"{self.tag}-review-done", str(min(start, count)))
            _show(f"{self.tag}-review-of", str(count))
            if progress is not None and start < count:
                progress(start, count)
        self._note_job("review", _now_ms() - begin, self.last_where)
        return merge_reviews(parts)

    # --- the par, hand by hand -----------------------------------------------------

    async def par_hand(self, key: str, state: GameState, level: str) -> dict[str, Any]:
        """The next hand of the par game of ``key`` (its deal, level and rules; the par
        game so far is kept in :attr:`par_games`), as :func:`par_step_steps` says it, with
        where ``state`` (the player's game) left it once over.  One job in the coach's
        worker (or on the main thread): a review asked meanwhile runs after this hand, not
        after the whole par.  Callers asking for the same key at once share the hand."""
        from spades_core.record import dumps

        player_text = dumps(state)
        running = self._par_running.get(key)
        if running is None or running.done():
            running = asyncio.ensure_future(self._par_step(key, player_text, level))
            self._par_running[key] = running
        asked, data = await asyncio.shield(running)
        if data["over"] and asked != player_text:  # another game's parting: ours (no hand)
            return await self.par_hand(key, state, level)
        return data

    async def _par_step(self, key: str, player_text: str,
                        level: str) -> tuple[str, dict[str, Any]]:
        par_text = self.par_games.get(key, "")

        def steps() -> Generator[None, None, str]:
            return (yield from par_step_steps(par_text, player_text, level))

        text = await self.job("par_step", (par_text, player_text, level), steps,
                              COACH_TIMEOUT_MS, wait=True)
        data: dict[str, Any] = json.loads(text)
        self.par_games.pop(key, None)
        self.par_games[key] = str(data["record"])
        while len(self.par_games) > MAX_PAR_GAMES:
            self.par_games.pop(next(iter(self.par_games)))
        return player_text, data

    async def par_loop(self, key: str, state: GameState, level: str,
                       wanted: Callable[[], bool],
                       progress: Callable[[dict[str, Any]], None]) -> dict[str, Any] | None:
        """The par of ``key`` hand after hand: ``progress(data)`` after each hand but the
        last (``data``: hands, scores), the par's ``par_to_dict`` (where ``state`` left
        it) at the end.  Between two hands, when ``wanted()`` is false (the player left the
        end dialog) or a newer loop took the key over, it stops: None, the par game so far
        kept in memory for the next loop of the key.  ``<body>``: ``data-TAG-par-hands``
        (the par game's hands so far), ``data-TAG-par-progress`` (progress lines shown),
        ``data-TAG-par-total-ms`` (a finished loop's time, from its start, in the page)."""
        owner = object()
        self._par_owner[key] = owner
        begin = _now_ms()
        while True:
            if not wanted() or self._par_owner.get(key) is not owner:
                return None
            data = await self.par_hand(key, state, level)
            _show(f"{self.tag}-par-hands", str(data["hands"]))
            if data["over"]:
                if self._par_owner.get(key) is owner:
                    del self._par_owner[key]
                _show(f"{self.tag}-par-total-ms", str(round(_now_ms() - begin, 1)))
                found: dict[str, Any] = data["par"]
                return found
            if wanted() and self._par_owner.get(key) is owner:
                progress(data)
                self.par_progress_shown += 1
                _show(f"{self.tag}-par-progress", str(self.par_progress_shown))


class Ahead:
    """South's hint being worked out ahead for one position: ``key`` (record, cards seen,
    level) and the task that asks the worker for it, part by part."""

    def __init__(self, key: tuple[str, bool, str]) -> None:
        self.key = key
        self.task: asyncio.Future[str | None] | None = None

    def given_up(self) -> bool:
        """Whether its task ended without the hint (the worker failed)."""
        return self.task is not None and self.task.done() and (
            self.task.cancelled() or self.task.exception() is not None
            or self.task.result() is None)


def par_step_steps(par_text: str, player_text: str,
                   level: str) -> Generator[None, None, str]:
    """One hand of the par game of the player's deal, rules and ``level``, in steps: from
    the par game's record so far (``par_text``, empty to start), as JSON:
    ``{"record": the par game's record, "hands": hands played, "scores": {"NS", "EW"},
    "over": bool, "par": par_to_dict(par, player's game) once over, else null}``.  A par
    game already over plays nothing (the result again, where the player's game left it)."""
    from spades_core.par import par_hand_steps, par_of, par_start, par_to_dict
    from spades_core.record import dumps, loads

    player = loads(str(player_text))
    if player.deal is None:
        raise ValueError("a par needs a deal number")
    if par_text:
        state = loads(str(par_text))
        if state.deal != player.deal or state.rules != player.rules:
            raise ValueError("the par game is not of the player's deal and rules")
    else:
        state = par_start(player.deal, player.rules)
    state = yield from par_hand_steps(state, str(level))
    over = state.phase is Phase.OVER
    ns, ew = state.scores
    return json.dumps({
        "record": dumps(state), "hands": len(state.past_hands),
        "scores": {"NS": ns, "EW": ew}, "over": over,
        "par": par_to_dict(par_of(state, str(level)), player) if over else None,
    })


def review_part_steps(state: GameState, hand_index: int, start: int, stop: int,
                      level: str | None = None) -> Generator[None, None, str]:
    """South's weighed decisions ``start`` to ``stop - 1`` of a finished hand, reviewed, in
    steps: ``review_to_dict`` of that part with ``"of"``, how many decisions the hand has to
    weigh (:func:`merge_reviews` puts the parts together); ``level`` the opponents' bot
    level (whom a stated Nil figure assumes)."""
    from spades_core.review import review_steps, review_to_dict, weighed_indices

    count = len(weighed_indices(state, hand_index))
    found = yield from review_steps(state, hand_index, part=(start, stop), level=level or None)
    return json.dumps({**review_to_dict(found), "of": count})


def merge_reviews(parts: list[dict[str, Any]]) -> dict[str, Any]:
    """The review of a whole hand from the reviews of its parts (in order): the decisions
    added up, the items the costliest first (the earliest on a tie) and at most
    ``MAX_ITEMS`` of them, every decision's judgement in the hand's order: the same as
    reviewing the hand in one piece (each decision is weighed alone)."""
    from spades_core.review import MAX_ITEMS

    items = sorted((item for part in parts for item in part["items"]),
                   key=lambda item: (-int(item["cost"]), int(item["index"])))
    return {
        "hand": parts[0]["hand"],
        "seat": parts[0]["seat"],
        "decisions": sum(int(part["decisions"]) for part in parts),
        "items": items[:MAX_ITEMS],
        "judged": [entry for part in parts for entry in part["judged"]],
    }


# the last hint's search: ((record, hand_seen), its evaluation), for its sentence
_HINT_SEARCH: list[tuple[tuple[str, bool], Any]] = []


def hint_card_steps(record_text: str, hand_seen: bool) -> Generator[None, None, str]:
    """The hint's card or bid for South in the record (its text), in steps: the Expert's
    search kept whole (``evaluate_steps``, the search ``hints.hint`` makes), remembered
    for :func:`hint_json_steps` on the same record, which then makes no search of its own."""
    from spades_core.bots.expert import evaluate_steps
    from spades_core.record import loads

    view = view_for(loads(record_text), Seat.S, hand_seen=bool(hand_seen))
    evaluation = yield from evaluate_steps(view)
    _HINT_SEARCH[:] = [((record_text, bool(hand_seen)), evaluation)]
    return str(evaluation.best)


def hint_json_steps(record_text: str, hand_seen: bool,
                    level: str = "") -> Generator[None, None, str]:
    """South's hint in the record as JSON, in steps (``hints.hint_steps``); from the search
    :func:`hint_card_steps` kept when it was for this record (``hints.hint_from``: the same
    hint, without searching again)."""
    from spades_core.hints import hint_from, hint_steps
    from spades_core.record import loads

    view = view_for(loads(record_text), Seat.S, hand_seen=bool(hand_seen))
    if _HINT_SEARCH and _HINT_SEARCH[0][0] == (record_text, bool(hand_seen)):
        yield
        return hint_to_json(hint_from(view, _HINT_SEARCH[0][1], level or None))
    found = yield from hint_steps(view, level or None)
    return hint_to_json(found)


def hint_ahead_steps(record_text: str, hand_seen: bool,
                     level: str = "") -> Generator[None, None, str]:
    """South's hint worked out ahead, in steps, as JSON: ``{"card": hint_card_steps's
    text, "hint": hint_json_steps's JSON}``, from one search (the card's kept for the
    sentence, as when the Hint button asks for the two)."""
    card = yield from hint_card_steps(record_text, hand_seen)
    yield
    text = yield from hint_json_steps(record_text, hand_seen, level)
    return json.dumps({"card": card, "hint": text})


# the hint being worked out ahead in this interpreter (the worker): its key and its steps
_AHEAD: list[tuple[tuple[str, bool, str], Generator[None, None, str]]] = []


def hint_ahead_part(record_text: str, hand_seen: bool, level: str, budget_ms: float,
                    clock: Callable[[], float] = _now_ms) -> str:
    """Work on South's hint for the record (:func:`hint_ahead_steps`) for about
    ``budget_ms`` (at least one step): its JSON once done, "" while not.  The steps are
    kept between calls for that record only; another record's start over."""
    key = (str(record_text), bool(hand_seen), str(level))
    if not _AHEAD or _AHEAD[0][0] != key:
        _AHEAD[:] = [(key, hint_ahead_steps(*key))]
    steps = _AHEAD[0][1]
    begin = clock()
    while True:
        try:
            next(steps)
        except StopIteration as done:
            _AHEAD.clear()
            return str(done.value)
        except Exception:
            _AHEAD.clear()
            raise
        if clock() - begin >= budget_ms:
            return ""


def hint_to_json(found: Any) -> str:
    return json.dumps({
        "action": None if found.action is None else str(found.action),
        "tip": found.tip, "reason": found.reason, "params": dict(found.params),
        "contrast": found.contrast, "why": found.why, "said": found.said,
    })


def hint_from_json(text: str, bidding: bool) -> Any:
    from spades_core.hints import Hint

    data = json.loads(text)
    token = data["action"]
    action: Card | Bid | None = None
    if token is not None:
        action = parse_bid(token) if bidding else parse_card(token)
    return Hint(action, str(data["tip"]), str(data["reason"]),
                {str(k): str(v) for k, v in data["params"].items()}, str(data["contrast"]),
                str(data.get("why", "")), bool(data.get("said", True)))
