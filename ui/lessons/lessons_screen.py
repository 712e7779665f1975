"""The lessons screen: the list (tabs Rules, Strategy and Drills) with progress, the lesson
player, and the drills (drawn by ``ui/drills/drills_screen.py`` from ``ui/drills/drills_run.py``'s
state).

``mount(section)`` draws into ``<section id="screen-lessons">`` (the main menu calls it; calling
it again redraws). Everything is built with ``createElement`` and ``textContent``: lesson and
stored text is never parsed as HTML; cards are drawn by the page's one card widget
(``ui/shared/cardview.py``). One delegated click listener reads ``data-action`` / ``data-arg`` and
dispatches them to ``do_<action>(arg)``, the page's one convention (``ui/shared/ports.py``); the
controller is reached only through the ``Port`` given to :func:`mount`. The logic (steps,
judging, what is lit) is in ``ui/lessons/lessons_player.py`` and the stored progress in
``ui/lessons/lessons_progress.py``; both are pure.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import js  # type: ignore[import-not-found]
from pyodide.ffi import create_once_callable, create_proxy  # type: ignore[import-not-found]

try:  # newer Pyodide hands JavaScript's null to Python as ``jsnull``, not None
    from pyodide.ffi import jsnull
except ImportError:  # pragma: no cover - older Pyodide
    jsnull = None

from spades_core.cards import parse_card
from spades_core.lessons import (
    LOOK,
    AnswerStep,
    BiddingPosition,
    BidStep,
    Lesson,
    Library,
    PlayStep,
    Position,
    PracticeStep,
    WatchStep,
    load_library_dir,
)
from spades_core.lessons.drills import ITEMS
from spades_core.seats import Seat

from ..drills import drills_progress, drills_screen
from ..drills.drills_run import (
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
from ..shared import i18n, ports
from ..shared.cardview import card_element
from ..shared.dom import el
from ..shared.models import RED_SUITS, CardModel, card_name, hand_order, suit_key
from ..shared.ports import Port
from . import lessons_progress
from .lessons_player import Player, choice_label

ROOT = Path(__file__).resolve().parents[2]
LESSONS_DIR = ROOT / "lessons"
CSS_HREF = "./ui/lessons.css"
WATCH_DELAY_MS = 550
GROUPS = ("rules", "strategy")
TABS = (*GROUPS, "drills")  # the list's tabs: the lessons by group, then the drills


# --- text: the lessons.* keys of locales/<lang>/lessons.json, through ui.shared.i18n ------------


class _Text:
    def __init__(self) -> None:
        i18n.load("lessons")

    def language(self) -> str:
        return i18n.language()

    def t(self, key: str, **params: object) -> str:
        return i18n.t(f"lessons.{key}", **params)


# --- DOM helpers ---------------------------------------------------------------------------


def h(tag: str, cls: str | None = None, text: str | None = None, **attrs: object) -> Any:
    """``dom.el`` with the class before the text, as this screen writes it."""
    return el(tag, text, cls, **attrs)


def button(text: str, action: str, arg: str = "", cls: str = "lx-btn", key: str | None = None,
           **attrs: object) -> Any:
    element = h("button", cls, text, type="button", data_action=action, data_arg=arg or None,
                data_key=key or f"{action}:{arg}", **attrs)
    return element


def nil(value: Any) -> bool:
    """True for JavaScript's null or undefined as Pyodide hands them over."""
    return value is None or value is jsnull or type(value).__name__ in ("JsNull", "JsUndefined")


def _seat_area(seat: Seat) -> str:
    return {Seat.N: "north", Seat.E: "east", Seat.S: "south", Seat.W: "west"}[seat]


class LessonsScreen:
    def __init__(self, section: Any, port: Port | None = None) -> None:
        self.section = section
        self.port = port
        self.text = _Text()
        self.library: Library | None = None
        self.load_error = False
        self.notices: list[str] = []
        self.player: Player | None = None
        self.last_lesson: str | None = None
        self._anim = 0  # generation of the watch animation (a new step cancels the old one)
        self._announce_next: str | None = None
        self._focus_after: str | None = None
        self.progress = self._load_progress()
        self.tab: str | None = None  # the list's tab (None: the next lesson's group)
        # the drills: the one under way, what is picked on its item, the best scores, the
        # answers computed so far (by drill and item) and those being computed
        self.drill: DrillRun | None = None
        self.pick = Pick()
        self.best = self._load_best()
        self.new_best = False
        self.solved: dict[tuple[str, int], Solved] = {}
        self.solving: dict[tuple[str, int], Any] = {}
        self.main_ms = 0.0  # the longest main-thread piece of a drill screen (measured)
        self._load_library()
        self._ensure_css()
        self._build_shell()
        self._click = create_proxy(self._on_click)
        self.section.addEventListener("click", self._click)
        self._submit = create_proxy(self._on_submit)
        self.section.addEventListener("submit", self._submit)
        self._key = create_proxy(self._on_key)
        self.section.addEventListener("keydown", self._key)

    # --- set-up ---------------------------------------------------------------------------

    def t(self, key: str, **params: object) -> str:
        return self.text.t(key, **params)

    @property
    def lang(self) -> str:
        return self.text.language()

    def _load_library(self) -> None:
        try:
            self.library = load_library_dir(LESSONS_DIR, check_claims=False)
        except Exception as error:  # a broken lesson file must not take the page down
            js.console.warn(f"lessons: {error}")
            self.library = None
            self.load_error = True

    @staticmethod
    def _stored_text(key: str) -> str | None:
        """The text stored under ``key``, or None (nothing stored, or storage not readable)."""
        try:
            stored = js.localStorage.getItem(key)
        except Exception:
            return None
        return stored if isinstance(stored, str) else None

    def _write(self, key: str, text: str) -> None:
        """Store ``text`` under ``key``; a refusal (quota, private mode) is said once."""
        try:
            js.localStorage.setItem(key, text)
        except Exception:
            if "notice.storage" not in self.notices:
                self.notices.append("notice.storage")

    def _load_progress(self) -> lessons_progress.Progress:
        progress, damaged = lessons_progress.parse(self._stored_text(lessons_progress.KEY))
        if damaged:
            kept = progress != lessons_progress.Progress()
            self.notices.append("notice.part-reset" if kept else "notice.reset")
            self._store(progress)
        return progress

    def _load_best(self) -> drills_progress.Best:
        best, damaged = drills_progress.parse(self._stored_text(drills_progress.KEY))
        if damaged:
            kept = best != drills_progress.Best()
            self.notices.append("drill.part-reset" if kept else "drill.reset")
            self._store_best(best)
        return best

    def _store_best(self, best: drills_progress.Best | None = None) -> None:
        self._write(drills_progress.KEY, (best or self.best).to_json())

    def _store(self, progress: lessons_progress.Progress | None = None) -> None:
        self._write(lessons_progress.KEY, (progress or self.progress).to_json())

    def _ensure_css(self) -> None:
        if nil(js.document.querySelector(f'link[href="{CSS_HREF}"]')):
            link = h("link", rel="stylesheet", href=CSS_HREF)
            js.document.head.appendChild(link)

    def _build_shell(self) -> None:
        self.section.replaceChildren()
        self.root = h("div", "lx-root")
        self.live = h("p", "lx-sr-only", role="status", aria_live="polite")
        self.view = h("div", "lx-view")
        self.root.append(self.live, self.view)
        self.section.append(self.root)

    # --- events -----------------------------------------------------------------------------

    def _on_click(self, event: Any) -> None:
        origin = event.target
        found = None if nil(origin) else ports.read_action(origin)
        if found is None or not self.section.contains(found[0]):
            return
        event.stopPropagation()  # the screen's own buttons: nothing for the page's handlers
        target, name, arg = found
        if str(target.getAttribute("type") or "") == "submit":
            event.preventDefault()  # a form's button (Enter in its field): no submission
        if target.disabled:
            return
        if ports.dispatch(self, name, arg):
            self.render()

    def _on_submit(self, event: Any) -> None:
        """A form of the screen (the drills' number field): never sent anywhere; Enter in
        the field clicks its submit button, which carries the action."""
        event.preventDefault()

    def _on_key(self, event: Any) -> None:
        """The tabs' keys: the arrows, Home and End move to another tab (and select it)."""
        target = event.target
        if nil(target) or not hasattr(target, "getAttribute") \
                or target.getAttribute("role") != "tab":
            return
        here = TABS.index(self.current_tab())
        there = {"ArrowRight": (here + 1) % len(TABS), "ArrowLeft": (here - 1) % len(TABS),
                 "Home": 0, "End": len(TABS) - 1}.get(str(event.key))
        if there is None:
            return
        event.preventDefault()
        self.do_tab(TABS[there])
        self.render()

    def do_tab(self, name: str) -> None:
        if name in TABS:
            self.tab = name
            self._focus_after = f"tab:{name}"

    def current_tab(self) -> str:
        if self.tab is None:
            upcoming = self._next_lesson()
            return upcoming.group if upcoming is not None and upcoming.group in GROUPS \
                else GROUPS[0]
        return self.tab

    def do_open(self, lesson_id: str) -> None:
        self.open(lesson_id)

    def do_list(self, _arg: str) -> None:
        self.close_lesson()

    def do_menu(self, _arg: str) -> None:
        if self.port is None:
            js.console.warn("lessons: no menu")
            return
        self.port.show_screen("menu")

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
            if stars is not None and self.progress.record_stars(player.lesson.id, stars):
                self._store()
            lesson, total = player.lesson, player.total
            if self.progress.complete(lesson.id, total):
                self._announce_next = self.t("lesson.finished")
            else:  # a step skipped: not "complete", as the list will say
                done = self.t("progress", done=self.progress.count(lesson.id, total),
                              total=total)
                self._announce_next = self.t("lesson.left", progress=done)
            self.close_lesson()
            if self._next_lesson() is not None:
                self._focus_after = "next-lesson"  # Enter goes on to the next lesson
            return
        self._entered_step()

    def do_hint(self, _arg: str) -> None:
        if self.player is not None:
            self.player.show_hint()
            self._announce_next = self.t("hint.shown")

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
        field = self.view.querySelector(".lx-entry-input")
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
        if self.port is None:
            js.console.warn("lessons: no table to practise on")
            self._announce_next = self.t("practice.unavailable")
            player.state.fallback = "practice.unavailable"
            return
        from spades_core.lessons.practice import practice_state
        from spades_core.lessons.practice_review import lesson_tips

        self.port.start_practice(practice_state(step.deal, step.hand), step.level,
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
        self._announce_next = self._message(state)
        if state.solved:
            self._focus_after = "next:"
        self._save_progress()

    # --- moving between lessons and steps -------------------------------------------------

    def open(self, lesson_id: str) -> None:
        if self.library is None:
            return
        lesson = self.library.lesson(lesson_id)
        total = len(lesson.steps)
        start = self.progress.resume_at(lesson_id, total)
        if self.progress.complete(lesson_id, total):
            start = 0
        self.player = Player(lesson, self.library.shared, start,
                             on_done=lambda index: self._step_done(lesson_id, index))
        self.last_lesson = lesson_id
        self._focus_after = "heading"
        self._entered_step()

    def close_lesson(self) -> None:
        self._anim += 1
        if self.player is not None:
            self.last_lesson = self.player.lesson.id
            self._focus_after = f"open:{self.last_lesson}"
            if self.player.lesson.group in GROUPS:
                self.tab = self.player.lesson.group
        self.player = None

    # --- the drills --------------------------------------------------------------------------

    def do_drill(self, name: str) -> None:
        self.player = None
        self.drill = DrillRun(name)
        self.new_best = False
        self._enter_item()

    def do_drill_again(self, _arg: str) -> None:
        if self.drill is not None:
            self.do_drill(self.drill.drill)

    def do_drill_back(self, _arg: str) -> None:
        if self.drill is not None:
            self._focus_after = f"drill:{self.drill.drill}"
        self.drill = None
        self.tab = "drills"

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
        field = self.view.querySelector(".lx-drill-entry .lx-entry-input")
        text = "" if nil(field) else str(field.value)
        given = parse_answer("spades", text)
        if given is None:
            self.pick.note = "counting.bad"
            self._announce_next = say("counting.bad")
            self._focus_after = "drill-entry"
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
            self._announce_next = say("counting.pick")
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
        self._announce_next = say("done") + " " + say(
            "score", score=run.score)
        self._focus_after = "drill-again"

    def _give(self, given: Any) -> None:
        """Judge the answer now, or once the Expert's answer has come."""
        run = self.drill
        assert run is not None
        self.pick.note = ""
        if not run.ready and run.drill in ENGINE_DRILLS:
            self.pick.waiting = given
            self.pick.failed = False
            self._solve(run.drill, run.index)  # again, if an earlier try failed
            self._announce_next = say("thinking")
            return
        self._timed("answer", lambda: run.answer(given))
        self.pick.waiting = None
        self._announce_next = " ".join(feedback(run))
        self._focus_after = "drill-next"

    def _enter_item(self) -> None:
        run = self.drill
        if run is None:
            return
        self.pick = Pick()
        key = (run.drill, run.index)
        self._timed("question", lambda: run.view)
        if run.drill in ENGINE_DRILLS:
            found = self.solved.get(key)
            if found is not None:
                run.provide(found)
                self._solve(run.drill, run.index + 1)  # the next item, while this one is read
            else:
                self._solve(*key)
        self._focus_after = "heading"
        self._announce_next = say(
            "item", number=run.index + 1, total=ITEMS)

    def _timed(self, what: str, work: Any) -> Any:
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
            if self.port is not None:
                text = await self.port.engine_job("drill", (name, index),
                                                  lambda: solve_steps(name, index))
            else:  # no controller (a bare screen): in one piece
                from spades_core.bots.expert import run_steps

                text = run_steps(solve_steps(name, index))
            run = self.drill
            view = run.view if run is not None and (run.drill, run.index) == key else None
            found = self._timed("read", lambda: read_solved(name, index, text, view))
        except Exception as error:  # never a broken screen: say so on the item
            js.console.warn(f"drills: {name} {index}: {error!r}")
            self.solving.pop(key, None)
            run = self.drill
            if run is not None and (run.drill, run.index) == key:
                self.pick.failed = True
                self.pick.waiting = None
                self.render()
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
            self.render()
        if run.index in (index, index + 1):
            self._solve(name, index + 1)  # the next item, while this one is read

    def _step_done(self, lesson_id: str, index: int) -> None:
        if self.progress.mark(lesson_id, index):
            self._store()

    def _save_progress(self) -> None:
        if self.player is not None:
            self.progress.at[self.player.lesson.id] = self.player.index
        self._store()

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
        words = self.t("announce.step", number=number, total=player.total)
        body = self._step_text(step)
        self._announce_next = f"{words} {body}".strip()
        self._anim += 1
        if isinstance(step, WatchStep) and player.state.watched < len(step.plays):
            self._schedule_watch(self._anim)

    def _schedule_watch(self, generation: int) -> None:
        def tick() -> None:
            player = self.player
            if generation != self._anim or player is None:
                return
            if player.watch_more():
                self.render()
                step = player.step
                if isinstance(step, WatchStep) and player.state.watched < len(step.plays):
                    self._schedule_watch(generation)

        js.setTimeout(create_once_callable(tick), WATCH_DELAY_MS)

    # --- drawing ---------------------------------------------------------------------------

    def render(self) -> None:
        active = js.document.activeElement
        focus_key = None
        if not nil(active) and self.section.contains(active):
            key = active.getAttribute("data-key")
            focus_key = None if nil(key) else str(key)
        self.view.replaceChildren()
        if self.drill is not None:
            drill = self.drill
            self._timed("draw", lambda: self.view.append(drills_screen.drill_screen(
                drill, self.pick, self.best.scores.get(drill.drill), self.new_best)))
        elif self.player is None:
            self._render_list()
        else:
            self._render_player(self.player)
        wanted = self._focus_after or focus_key
        self._focus_after = None
        if wanted:
            found = self.view.querySelector(f'[data-key="{wanted}"]')
            if not nil(found):
                found.focus()
        if self._announce_next:
            self.live.textContent = ""
            self.live.textContent = self._announce_next
            self._announce_next = None
        self.section.setAttribute("data-lessons-view", "drill" if self.drill is not None
                                  else "list" if self.player is None else "player")

    def _render_list(self) -> None:
        view = self.view
        head = h("header", "lx-head")
        head.append(button("← " + self.t("menu"), "menu", cls="lx-btn lx-back",
                           aria_label=self.t("menu.label")),
                    h("h2", "lx-title", self.t("title"), tabindex="-1", data_key="heading"))
        view.append(head)
        for key in self.notices:
            view.append(h("p", "lx-notice", self.t(key), role="alert"))
        self.notices = [key for key in self.notices if key == "notice.storage"]
        if self.library is None:
            view.append(h("p", "lx-notice", self.t("notice.load"), role="alert"))
            return
        view.append(h("p", "lx-intro", self.t("intro")))
        lang = self.lang
        upcoming = self._next_lesson()
        if upcoming is not None:
            title = upcoming.title.get(lang)
            go = h("button", "lx-btn lx-primary lx-continue", type="button", data_action="open",
                   data_arg=upcoming.id, data_key="next-lesson",
                   aria_label=self.t("lesson.next.label", title=title))
            go.append(h("span", "lx-continue-label", self.t("lesson.next")),
                      h("span", "lx-continue-title", title))
            view.append(go)
        current = self.current_tab()
        tabs = h("div", "lx-tabs", role="tablist", aria_label=self.t("tabs.label"))
        for name in TABS:
            chosen = name == current
            tabs.append(h("button", "lx-tab" + (" lx-tab-current" if chosen else ""),
                          self.t(f"group.{name}"), type="button", role="tab",
                          id=f"lx-tab-{name}", aria_selected="true" if chosen else "false",
                          aria_controls=f"lx-tabpanel-{name}", tabindex="0" if chosen else "-1",
                          data_action="tab", data_arg=name, data_key=f"tab:{name}",
                          data_tab=name))
        view.append(tabs)
        block = h("section", f"lx-group lx-tabpanel lx-tabpanel-{current}", role="tabpanel",
                  id=f"lx-tabpanel-{current}", aria_labelledby=f"lx-tab-{current}")
        if current == "drills":
            block.append(drills_screen.drills_list(dict(self.best.scores)))
        else:
            items = h("ol", "lx-lessons")
            for lesson in self.library.group(current):
                items.append(self._lesson_item(lesson, lang))
            block.append(items)
        view.append(block)

    def _next_lesson(self) -> Lesson | None:
        """The lesson to take next: the first unfinished one after the lesson last opened
        (in the list's order, coming round to the start), or None when all are done."""
        if self.library is None:
            return None
        lessons = self.library.lessons
        ids = [lesson.id for lesson in lessons]
        start = ids.index(self.last_lesson) + 1 if self.last_lesson in ids else 0
        for lesson in lessons[start:] + lessons[:start]:
            if not self.progress.complete(lesson.id, len(lesson.steps)):
                return lesson
        return None

    def _lesson_item(self, lesson: Lesson, lang: str) -> Any:
        total = len(lesson.steps)
        done = self.progress.count(lesson.id, total)
        complete = done == total
        title = lesson.title.get(lang)
        item = h("li", "lx-lesson-li")
        card = button("", "open", lesson.id,
                      cls="lx-lesson" + (" lx-complete" if complete else ""),
                      data_lesson=lesson.id,
                      aria_label=self.t("progress.label", title=title, done=done, total=total))
        card.append(h("span", "lx-lesson-title", title),
                    h("span", "lx-lesson-summary", lesson.summary.get(lang)))
        meter = h("span", "lx-lesson-progress")
        bar = h("progress", "lx-bar", max=str(total), value=str(done), aria_hidden="true")
        meter.append(bar, h("span", "lx-count", self.t("progress", done=done, total=total)))
        if complete:
            meter.append(h("span", "lx-done-mark", "✓ " + self.t("complete")))
        stars = self.progress.stars.get(lesson.id)
        if stars:
            meter.append(h("span", "lx-stars", "★" * stars,
                           data_stars=str(stars), role="img",
                           aria_label=self.t("stars.label", count=stars)))
        card.append(meter)
        item.append(card)
        return item

    # --- the player ---------------------------------------------------------------------------

    def _step_text(self, step: Any) -> str:
        lang = self.lang
        if isinstance(step, PlayStep | BidStep | AnswerStep):
            return step.prompt.get(lang)
        text = getattr(step, "text", None)
        return text.get(lang) if text is not None else ""

    def _message(self, state: Any) -> str:
        text = self._verdict_text(state)
        if text and not state.solved and state.misses and not state.hint:
            text = self.t("try.again") + " " + text  # one miss: the verdict, then why
        return text

    def _verdict_text(self, state: Any) -> str:
        if state.message is not None:
            return str(state.message.get(self.lang))
        if state.fallback:
            return self.t(state.fallback)
        if state.refusal:  # an illegal card: the engine's reason, worded as on the table
            return i18n.refusal_text(state.refusal, state.refusal_params)
        return ""

    def _render_player(self, player: Player) -> None:
        lesson = player.lesson
        lang = self.lang
        view = self.view
        step = player.step
        head = h("header", "lx-head")
        head.append(button("← " + self.t("back"), "list", cls="lx-btn lx-back",
                           aria_label=self.t("back.label")),
                    h("h2", "lx-title", lesson.title.get(lang), tabindex="-1",
                      data_key="heading"))
        view.append(head)
        view.append(self._step_nav(player))

        body = h("div", "lx-body")
        scene = player.scene()
        if isinstance(scene, Position):
            body.append(self._board(player, scene))
        elif isinstance(scene, BiddingPosition):
            body.append(self._bidding_board(player, scene))

        panel = h("div", "lx-panel", data_step=str(player.index + 1), data_kind=step.kind)
        panel.append(h("p", "lx-step-of", self.t("step.of", number=player.index + 1,
                                                 total=player.total)
                       + " · " + self.t(f"kind.{step.kind}")))
        panel.append(h("p", "lx-text", self._step_text(step)))
        state = player.state
        if isinstance(step, AnswerStep) and step.entry:
            panel.append(self._entry(player, step))
        elif isinstance(step, BidStep | AnswerStep) and not (
                isinstance(step, AnswerStep) and step.ask == "cards"):
            panel.append(self._choices(player, step))
        if isinstance(step, AnswerStep) and step.ask == "cards" and not state.solved:
            panel.append(button(self.t("check"), "check", cls="lx-btn lx-primary",
                                aria_label=self.t("check.label")))
        if isinstance(step, PracticeStep):
            panel.append(h("p", "lx-practice-info",
                           self.t("practice.info", level=self.t(f"level.{step.level}"),
                                  hand=str(step.hand), deal=str(step.deal))))
            panel.append(button(self.t("practice.start"), "practice",
                                cls="lx-btn lx-primary lx-practice"))
        message = self._message(state)
        if message:
            tone = "good" if state.solved else "bad"
            if isinstance(step, PracticeStep):
                tone = "bad"
            panel.append(h("p", f"lx-feedback lx-{tone}", message, data_tone=tone))
        coach = self._coach(player)
        if coach:
            panel.append(h("p", "lx-coach", coach))
        panel.append(self._controls(player))
        body.append(panel)
        view.append(body)

    def _coach(self, player: Player) -> str:
        """Why the hint engine suggests the expected action (strategy steps it agrees with)."""
        step = player.step
        if not getattr(step, "hint_agrees", False) or not player.state.hint:
            return ""
        try:
            from spades_core.hints import hint
            from spades_core.lessons import step_view

            from ..shared import i18n

            i18n.load("hints")
            view = step_view(step)
            if view is None:
                return ""
            suggestion = hint(view)
            if not suggestion.reason:
                return ""
            reason = i18n.hint_sentence(suggestion.reason, dict(suggestion.params),
                                        suggestion.contrast)
            if suggestion.tip and i18n.has(f"tip.{suggestion.tip}.name"):
                return self.t("coach", tip=i18n.t(f"tip.{suggestion.tip}.name"), reason=reason)
            return reason
        except Exception as error:  # the coach's words are a bonus: never break the step
            js.console.warn(f"lessons: no hint text ({error})")
            return ""

    def _step_nav(self, player: Player) -> Any:
        nav = h("nav", "lx-steps", aria_label=self.t("steps.label"))
        items = h("ol", "lx-step-list")
        lesson_id = player.lesson.id
        for index, step in enumerate(player.lesson.steps):
            done = self.progress.is_done(lesson_id, index)
            cls = "lx-step"
            if done:
                cls += " lx-step-done"
            if index == player.index:
                cls += " lx-step-current"
            label = self.t("step.goto", number=index + 1, total=player.total,
                           kind=self.t(f"kind.{step.kind}"),
                           done=self.t("step.done") if done else "")
            item = h("li")
            item.append(button(str(index + 1), "goto", str(index), cls=cls, aria_label=label,
                               aria_current="step" if index == player.index else None))
            items.append(item)
        nav.append(items)
        return nav

    def _controls(self, player: Player) -> Any:
        bar = h("div", "lx-controls")
        bar.append(button("← " + self.t("previous"), "prev", cls="lx-btn",
                          disabled=player.index == 0))
        step = player.step
        acting = player.acting()
        if acting is not None and not player.state.solved:
            bar.append(button(self.t("hint"), "hint", cls="lx-btn lx-hint",
                              aria_label=self.t("hint")))
        if isinstance(step, WatchStep):
            bar.append(button("↺ " + self.t("replay"), "replay", cls="lx-btn",
                              aria_label=self.t("replay")))
        last = player.index + 1 >= player.total
        label = self.t("finish") if last else self.t("next")
        cls = "lx-btn lx-next"
        if acting is None or player.state.solved:
            cls += " lx-primary"
        bar.append(button(label + " →", "next", cls=cls, aria_label=label))
        return bar

    # --- cards ---------------------------------------------------------------------------------

    def _card_face(self, card: Any, tag: str = "span", extra: str = "",
                   pressed: bool | None = None) -> Any:
        """A card through the page's one widget: a picture, or a button (``do_card``)."""
        suit = suit_key(card)
        token = str(card)
        classes = [f"lx-card lx-{suit}" + (" lx-red" if suit in RED_SUITS else "") + extra]
        if tag == "button":
            classes.append("lx-card-btn")
        model = CardModel(text=token, label=card_name(card),
                          action="card" if tag == "button" else "",
                          arg=token if tag == "button" else "",
                          classes=tuple(" ".join(classes).split()), pressed=pressed,
                          key=f"card:{token}" if tag == "button" else "")
        return card_element(model)

    def _backs(self, count: int) -> Any:
        group = h("span", "lx-backs", role="img",
                  aria_label=self.t("seat.backs", count=count))
        for _ in range(min(count, 4)):
            group.append(card_element(CardModel(classes=("lx-cardback",))))
        if count > 4:  # many cards: a short fan and their number
            group.append(h("span", "lx-backs-count", f"×{count}", aria_hidden="true"))
        return group

    def _classes(self, player: Player, token: str) -> str:
        extra = ""
        if token in player.marked():
            extra += " lx-marked"
        if token in player.lit():
            extra += " lx-lit"
        state = player.state
        if state.wrong == token or token in state.wrong_cards:
            extra += " lx-wrong"
        if state.solved and state.chosen == token:
            extra += " lx-right"
        return extra

    def _seat_box(self, player: Player, seat: Seat, bid: str | None, tricks: int | None,
                  dealer: bool) -> Any:
        hl = player.step.highlights
        cls = f"lx-seat lx-seat-{_seat_area(seat)}"
        if seat in hl.seats:
            cls += " lx-seat-marked"
        box = h("div", cls, data_seat=seat.name)
        name = i18n.seat_name(seat.name)
        label = h("div", "lx-seat-label")
        label.append(h("span", "lx-seat-name", name))
        if dealer:
            label.append(h("span", "lx-badge lx-dealer", self.t("seat.dealer")))
        if bid is not None:
            bid_cls = "lx-badge lx-bid" + (" lx-marked" if seat in hl.bids else "")
            label.append(h("span", bid_cls, self.t("seat.bid", bid=self._bid_text(bid))))
        if tricks is not None:
            label.append(h("span", "lx-badge lx-tricks", self.t("seat.tricks", count=tricks)))
        box.append(label)
        return box

    def _bid_text(self, token: str) -> str:
        return i18n.bid_text(token)

    def _board(self, player: Player, scene: Position) -> Any:
        board = h("div", "lx-board", role="group", aria_label=self.t("table.label"))
        run = scene.run()
        bids_shown = any(bid is not None for bid in scene.bids)
        show_tricks = bids_shown or any(run.tricks)
        step = player.step
        for seat in (Seat.N, Seat.W, Seat.E):
            bid = scene.bids[seat]
            box = self._seat_box(player, seat, str(bid) if bid is not None else None,
                                 run.tricks[seat] if show_tricks else None, False)
            held = scene.held(seat)
            cards = h("div", "lx-seat-cards")
            if seat in scene.show:
                for card in hand_order(held):
                    cards.append(self._card_face(card, extra=self._classes(player, str(card))
                                                 + " lx-small"))
                backs = scene.hidden[seat]
            else:
                backs = len(held) + scene.hidden[seat]
            if backs:
                cards.append(self._backs(backs))
            box.append(cards)
            board.append(box)
        board.append(self._trick(player, scene))
        south_bid = scene.bids[Seat.S]
        south = self._seat_box(player, Seat.S,
                               str(south_bid) if south_bid is not None else None,
                               run.tricks[Seat.S] if show_tricks else None, False)
        hand = h("div", "lx-hand", role="group", aria_label=self.t("hand.label"))
        state = player.state
        clickable = (isinstance(step, PlayStep) and not state.solved) or (
            isinstance(step, AnswerStep) and step.ask == "cards" and not state.solved)
        choosable = set(step.choices) if isinstance(step, AnswerStep) else None
        for card in hand_order(scene.held(Seat.S)):
            token = str(card)
            extra = self._classes(player, token)
            if clickable and (choosable is None or token in choosable):
                pressed: bool | None = None
                if isinstance(step, AnswerStep):
                    pressed = token in state.selected
                    if pressed:
                        extra += " lx-selected"
                hand.append(self._card_face(card, "button", extra, pressed))
            else:
                hand.append(self._card_face(card, extra=extra))
        if scene.hidden[Seat.S]:
            hand.append(self._backs(scene.hidden[Seat.S]))
        south.append(hand)
        board.append(south)
        if scene.scores != (0, 0) or scene.bags != (0, 0):
            board.append(self._scores(scene.scores, scene.bags))
        return board

    def _trick(self, player: Player, scene: Position) -> Any:
        centre = h("div", "lx-trick", role="group", aria_label=self.t("trick.label"))
        seated = scene.table_trick()
        if not seated:
            centre.append(h("span", "lx-trick-empty", self.t("trick.empty")))
        for seat, card in seated:
            slot = h("div", f"lx-slot lx-slot-{_seat_area(seat)}")
            face = self._card_face(card, extra=self._classes(player, str(card)))
            face.setAttribute("aria-label", self.t(
                "seat.card.played",
                seat=i18n.seat_name(seat.name),
                card=card_name(card)))
            slot.append(face)
            centre.append(slot)
        return centre

    def _scores(self, scores: tuple[int, int], bags: tuple[int, int]) -> Any:
        line = h("p", "lx-scores")
        for index, team in enumerate(("NS", "EW")):
            line.append(h("span", "lx-score", self.t("score", team=self.t(f"team.{team}"),
                                                     score=i18n.number(scores[index]),
                                                     bags=bags[index])))
        return line

    def _bidding_board(self, player: Player, scene: BiddingPosition) -> Any:
        board = h("div", "lx-board lx-bidding", role="group", aria_label=self.t("table.label"))
        for seat in (Seat.N, Seat.W, Seat.E):
            bid = scene.bids[seat]
            box = self._seat_box(player, seat, str(bid) if bid is not None else None, None,
                                 scene.dealer is seat)
            cards = h("div", "lx-seat-cards")
            cards.append(self._backs(13))
            box.append(cards)
            board.append(box)
        board.append(h("div", "lx-trick"))
        south = self._seat_box(player, Seat.S, None, None, scene.dealer is Seat.S)
        if scene.hand is None:
            hand = h("div", "lx-hand", role="group", aria_label=self.t("hand.hidden"))
            hand.append(self._backs(13))
        else:
            hand = h("div", "lx-hand", role="group", aria_label=self.t("hand.label"))
            for card in hand_order(scene.hand):
                hand.append(self._card_face(card, extra=self._classes(player, str(card))))
        south.append(hand)
        board.append(south)
        if scene.scores != (0, 0) or scene.bags != (0, 0):
            board.append(self._scores(scene.scores, scene.bags))
        return board

    def _entry(self, player: Player, step: AnswerStep) -> Any:
        """A number field and its Check button (a score, a count: typed, not chosen)."""
        state = player.state
        box = h("div", "lx-entry")
        field = h("input", "lx-entry-input", type="text", inputmode="numeric",
                  autocomplete="off", aria_label=self.t("entry.label"), data_key="entry")
        if state.solved:
            field.value = state.chosen or ""
            field.disabled = True
        elif state.hint:
            field.placeholder = step.expect[0]
        box.append(field)
        if not state.solved:
            box.append(button(self.t("check"), "enter", cls="lx-btn lx-primary lx-entry-check",
                              aria_label=self.t("check.label")))
        return box

    def _choices(self, player: Player, step: BidStep | AnswerStep) -> Any:
        lang = self.lang
        if isinstance(step, BidStep):
            scene = step.scene
            if scene.hand is None:
                tokens = (["blind-nil"] if scene.rules.blind_nil else []) + [LOOK]
            else:
                tokens = [str(bid) for bid in scene.legal_bids()]
            cls = "lx-choices lx-bids"
        else:
            tokens = list(step.choices)
            cls = "lx-choices" + (" lx-numbers" if step.ask == "number" else "")
        group = h("div", cls, role="group", aria_label=self.t("choices.label"))
        solved = player.state.solved
        for token in tokens:
            label = choice_label(step, token, lang, self.t)
            extra = self._classes(player, token)
            attrs: dict[str, Any] = {"disabled": solved}
            if isinstance(step, AnswerStep) and step.ask == "card":
                card = parse_card(token)
                suit = suit_key(card)
                extra += " lx-card-choice" + (" lx-red" if suit in RED_SUITS else "")
                attrs["aria_label"] = card_name(card)
            group.append(button(label, "choice", token, cls="lx-btn lx-choice" + extra,
                                **attrs))
        return group


_screen: LessonsScreen | None = None


def mount(section: Any, port: Port | None = None) -> LessonsScreen:
    """Draw the lessons screen into ``section`` (again: redraw, keeping the open lesson);
    ``port`` is the controller, for the menu and the practice games."""
    global _screen
    if _screen is None or _screen.section != section:
        _screen = LessonsScreen(section, port)
    _screen.render()
    return _screen
