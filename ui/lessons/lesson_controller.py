"""A lesson under way: the lesson player's steps moved through, the answers given, the watch
steps' plays shown one by one, the progress stored, a practice hand handed to the table.

``LessonController`` holds the ``Player`` (``lessons_player``, pure) of the lesson open and
acts on the player's actions (``prev``, ``next``, ``goto``, ``card``, ``choice``, ``check``,
``enter``, ``hint``, ``replay``, ``practice``, ``list``); the lessons screen routes them here,
draws the step (``lesson_view``) and holds the list, the words and the progress.
"""

from __future__ import annotations

from typing import Any

import js  # type: ignore[import-not-found]
from pyodide.ffi import create_once_callable  # type: ignore[import-not-found]

from spades_core.lessons import WatchStep

from ..shared.dom import nil
from .lessons_player import Player

WATCH_DELAY_MS = 550
GROUPS = ("rules", "strategy")


class LessonController:
    def __init__(self, screen: Any) -> None:
        self.screen = screen  # the lessons screen (ui.lessons.lessons_screen.LessonsScreen)
        self.player: Player | None = None
        self._anim = 0  # generation of the watch animation (a new step cancels the old one)

    def do_list(self, _arg: str) -> None:
        self.close_lesson()

    def do_goto(self, arg: str) -> None:
        if self.player is not None:
            self._leave_step()
            self.player.go(int(arg))
            self._entered_step()

    def do_prev(self, _arg: str) -> None:
        if self.player is not None:
            self._leave_step()
            self.player.previous()
            self._entered_step()

    def do_next(self, _arg: str) -> None:
        player = self.player
        if player is None:
            return
        self._leave_step()
        if not player.next():
            stars = player.lesson_stars()
            if stars is not None and self.screen.progress.record_stars(player.lesson.id, stars):
                self.screen.store()
            lesson, total = player.lesson, player.total
            if self.screen.progress.complete(lesson.id, total):
                self.screen.announce_next = self.screen.t("lesson.finished")
            else:  # a step skipped: not "complete", as the list will say
                done = self.screen.t("progress",
                                     done=self.screen.progress.count(lesson.id, total),
                                     total=total)
                self.screen.announce_next = self.screen.t("lesson.left", progress=done)
            self.close_lesson()
            if self.screen.next_lesson() is not None:
                self.screen.focus_after = "next-lesson"  # Enter goes on to the next lesson
            return
        self._entered_step()

    def do_hint(self, _arg: str) -> None:
        if self.player is not None:
            self.player.show_hint()
            self.screen.announce_next = self.screen.t("hint.shown")

    def do_card(self, arg: str) -> None:
        self._choose(arg)

    def do_choice(self, arg: str) -> None:
        self._choose(arg)

    def do_check(self, _arg: str) -> None:
        if self.player is not None:
            verdict = self.player.submit_cards()
            if verdict is not None:
                self._after_verdict()

    def do_enter(self, _arg: str) -> None:
        if self.player is None:
            return
        field = self.screen.view.querySelector(".lx-entry-input")
        text = "" if nil(field) else str(field.value)
        if self.player.submit_entry(text) is not None:
            self._after_verdict()

    def do_replay(self, _arg: str) -> None:
        if self.player is not None:
            self.player.replay_watch()
            self._entered_step()

    def do_practice(self, _arg: str) -> None:
        player = self.player
        if player is None:
            return
        step = player.practice()
        self._save_progress()
        if step is None:
            return
        if self.screen.port is None:
            js.console.warn("lessons: no table to practise on")
            self.screen.announce_next = self.screen.t("practice.unavailable")
            player.state.fallback = "practice.unavailable"
            return
        from spades_core.lessons.practice import practice_state
        from spades_core.lessons.practice_review import lesson_tips

        self.screen.port.start_practice(practice_state(step.deal, step.hand), step.level,
                                        hints_on=step.hints, situation=step.situation,
                                        tips=lesson_tips(player.lesson))

    def _choose(self, token: str) -> None:
        player = self.player
        if player is None:
            return
        verdict = player.choose(token)
        if verdict is not None:
            self._after_verdict()

    def _after_verdict(self) -> None:
        player = self.player
        assert player is not None
        state = player.state
        self.screen.announce_next = self.screen.draw.message(state)
        if state.solved:
            self.screen.focus_after = "next:"
        self._save_progress()

    def open(self, lesson_id: str) -> None:
        if self.screen.library is None:
            return
        lesson = self.screen.library.lesson(lesson_id)
        total = len(lesson.steps)
        start = self.screen.progress.resume_at(lesson_id, total)
        if self.screen.progress.complete(lesson_id, total):
            start = 0
        self.player = Player(lesson, self.screen.library.shared, start,
                             on_done=lambda index: self._step_done(lesson_id, index))
        self.screen.last_lesson = lesson_id
        self.screen.focus_after = "heading"
        self._entered_step()

    def close_lesson(self) -> None:
        self._anim += 1
        if self.player is not None:
            self.screen.last_lesson = self.player.lesson.id
            self.screen.focus_after = f"open:{self.screen.last_lesson}"
            if self.player.lesson.group in GROUPS:
                self.screen.tab = self.player.lesson.group
        self.player = None

    def _step_done(self, lesson_id: str, index: int) -> None:
        if self.screen.progress.mark(lesson_id, index):
            self.screen.store()

    def _save_progress(self) -> None:
        if self.player is not None:
            self.screen.progress.at[self.player.lesson.id] = self.player.index
        self.screen.store()

    def _leave_step(self) -> None:
        player = self.player
        if player is not None and isinstance(player.step, WatchStep):
            player.watch_all()  # moving on counts the scripted plays as seen

    def _entered_step(self) -> None:
        player = self.player
        if player is None:
            return
        self._save_progress()
        step = player.step
        number = player.index + 1
        words = self.screen.t("announce.step", number=number, total=player.total)
        body = self.screen.draw.step_text(step)
        self.screen.announce_next = f"{words} {body}".strip()
        self._anim += 1
        if isinstance(step, WatchStep) and player.state.watched < len(step.plays):
            self._schedule_watch(self._anim)

    def _schedule_watch(self, generation: int) -> None:
        def tick() -> None:
            player = self.player
            if generation != self._anim or player is None:
                return
            if player.watch_more():
                self.screen.render()
                step = player.step
                if isinstance(step, WatchStep) and player.state.watched < len(step.plays):
                    self._schedule_watch(generation)

        js.setTimeout(create_once_callable(tick), WATCH_DELAY_MS)

