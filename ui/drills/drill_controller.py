"""A drill under way: its items entered, the answers picked and judged, the Expert's answers
worked out off the main thread (the next item's while this one is read), the best scores.

``DrillController`` holds the ``DrillRun`` (``drills_run``, pure) of the drill open and acts on
the Drills tab's actions (``drill``, ``drill-answer``, ``drill-next``...); the lessons screen
routes them here and draws the drill (``drills_screen``). The Expert's answer comes through
the lessons screen's ``ui.shared.ports.Port`` (the bots' worker), or in slices without one.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

import js  # type: ignore[import-not-found]

from spades_core.lessons.drills import ITEMS

from ..shared.dom import nil
from . import drills_progress
from .drills_run import (
    ENGINE_DRILLS,
    DrillRun,
    Pick,
    Solved,
    feedback,
    parse_answer,
    read_solved,
    say,
    solve_steps,
)


class DrillController:
    def __init__(self, screen: Any) -> None:
        self.screen = screen  # the lessons screen (ui.lessons.lessons_screen.LessonsScreen)
        # the drill under way, what is picked on its item, the best scores, the answers
        # computed so far (by drill and item) and those being computed
        self.drill: DrillRun | None = None
        self.pick = Pick()
        self.best = self._load_best()
        self.new_best = False
        self.solved: dict[tuple[str, int], Solved] = {}
        self.solving: dict[tuple[str, int], Any] = {}
        self.main_ms = 0.0  # the longest main-thread piece of a drill screen (measured)

    def _load_best(self) -> drills_progress.Best:
        best, damaged = drills_progress.parse(self.screen.stored_text(drills_progress.KEY))
        if damaged:
            kept = best != drills_progress.Best()
            self.screen.notices.append("drill.part-reset" if kept else "drill.reset")
            self._store_best(best)
        return best

    def _store_best(self, best: drills_progress.Best | None = None) -> None:
        self.screen.write(drills_progress.KEY, (best or self.best).to_json())

    def do_drill(self, name: str) -> None:
        self.screen.lesson.player = None
        self.drill = DrillRun(name)
        self.new_best = False
        self._enter_item()

    def do_drill_again(self, _arg: str) -> None:
        if self.drill is not None:
            self.do_drill(self.drill.drill)

    def do_drill_back(self, _arg: str) -> None:
        if self.drill is not None:
            self.screen.focus_after = f"drill:{self.drill.drill}"
        self.drill = None
        self.screen.tab = "drills"

    def do_drill_answer(self, token: str) -> None:
        run = self.drill
        if run is None or run.finished or run.answered or self.pick.waiting is not None:
            return
        given = parse_answer(run.question_kind, token)
        if given is None:
            return
        self._give(given)

    def do_drill_enter(self, _arg: str) -> None:
        run = self.drill
        if run is None or run.finished or run.answered:
            return
        field = self.screen.view.querySelector(".lx-drill-entry .lx-entry-input")
        text = "" if nil(field) else str(field.value)
        given = parse_answer("spades", text)
        if given is None:
            self.pick.note = "counting.bad"
            self.screen.announce_next = say("counting.bad")
            self.screen.focus_after = "drill-entry"
            return
        self._give(given)

    def do_drill_seat(self, seat: str) -> None:
        if self.drill is not None and not self.drill.answered:
            self.pick.seat = "" if self.pick.seat == seat else seat

    def do_drill_suit(self, suit: str) -> None:
        if self.drill is not None and not self.drill.answered:
            self.pick.suit = "" if self.pick.suit == suit else suit

    def do_drill_check(self, _arg: str) -> None:
        run = self.drill
        if run is None or run.finished or run.answered:
            return
        given = parse_answer("void", f"{self.pick.seat}:{self.pick.suit}")
        if given is None:
            self.pick.note = "counting.pick"
            self.screen.announce_next = say("counting.pick")
            return
        self._give(given)

    def do_drill_next(self, _arg: str) -> None:
        run = self.drill
        if run is None or not run.answered:
            return
        if run.next():
            self._enter_item()
            return
        self.new_best = self.best.record(run.drill, run.score)
        if self.new_best:
            self._store_best()
        self.screen.announce_next = say("done") + " " + say(
            "score", score=run.score)
        self.screen.focus_after = "drill-again"

    def _give(self, given: Any) -> None:
        """Judge the answer now, or once the Expert's answer has come."""
        run = self.drill
        assert run is not None
        self.pick.note = ""
        if not run.ready and run.drill in ENGINE_DRILLS:
            self.pick.waiting = given
            self.pick.failed = False
            self._solve(run.drill, run.index)  # again, if an earlier try failed
            self.screen.announce_next = say("thinking")
            return
        self.timed("answer", lambda: run.answer(given))
        self.pick.waiting = None
        self.screen.announce_next = " ".join(feedback(run))
        self.screen.focus_after = "drill-next"

    def _enter_item(self) -> None:
        run = self.drill
        if run is None:
            return
        self.pick = Pick()
        key = (run.drill, run.index)
        self.timed("question", lambda: run.view)
        if run.drill in ENGINE_DRILLS:
            found = self.solved.get(key)
            if found is not None:
                run.provide(found)
                self._solve(run.drill, run.index + 1)  # the next item, while this one is read
            else:
                self._solve(*key)
        self.screen.focus_after = "heading"
        self.screen.announce_next = say(
            "item", number=run.index + 1, total=ITEMS)

    def timed(self, what: str, work: Any) -> Any:
        """Run ``work()`` on the main thread; the longest such time and what it was are
        shown as ``<body data-drill-main-ms data-drill-main-what>`` (tests, bug reports)."""
        begin = time.perf_counter()
        result = work()
        spent = (time.perf_counter() - begin) * 1000.0
        if spent > self.main_ms:
            self.main_ms = spent
            js.document.body.setAttribute("data-drill-main-ms", str(round(spent, 1)))
            js.document.body.setAttribute("data-drill-main-what", what)
        return result

    def _solve(self, name: str, index: int) -> None:
        """Have item ``index`` of drill ``name`` answered off the main thread (the bots'
        worker through the Port, or in slices); the next item follows."""
        key = (name, index)
        if key in self.solved or key in self.solving or index >= ITEMS:
            return
        self.solving[key] = asyncio.ensure_future(self._solving(name, index))

    async def _solving(self, name: str, index: int) -> None:
        key = (name, index)
        try:
            if self.screen.port is not None:
                text = await self.screen.port.engine_job("drill", (name, index),
                                                  lambda: solve_steps(name, index))
            else:  # no controller (a bare screen): in one piece
                from spades_core.bots.expert import run_steps

                text = run_steps(solve_steps(name, index))
            run = self.drill
            view = run.view if run is not None and (run.drill, run.index) == key else None
            found = self.timed("read", lambda: read_solved(name, index, text, view))
        except Exception as error:  # never a broken screen: say so on the item
            js.console.warn(f"drills: {name} {index}: {error!r}")
            self.solving.pop(key, None)
            run = self.drill
            if run is not None and (run.drill, run.index) == key:
                self.pick.failed = True
                self.pick.waiting = None
                self.screen.render()
            return
        self.solving.pop(key, None)
        self.solved[key] = found
        run = self.drill
        if run is None or run.drill != name:
            return
        if run.index == index and run.provide(found):
            waiting = self.pick.waiting
            if waiting is not None and not run.answered:
                self._give(waiting)
            self.screen.render()
        if run.index in (index, index + 1):
            self._solve(name, index + 1)  # the next item, while this one is read

