"""The lessons screen: the list (tabs Rules, Strategy and Drills) with progress, and the screen's
shell, which routes each action to the controller of its concern: a lesson under way
(``lesson_controller.LessonController``, drawn by ``lesson_view.LessonView``) or a drill under
way (``ui/drills/drill_controller.DrillController``, drawn by ``ui/drills/drills_screen.py``).

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

from pathlib import Path
from typing import Any

import js  # type: ignore[import-not-found]
from pyodide.ffi import create_proxy  # type: ignore[import-not-found]

from spades_core.lessons import Lesson, Library, load_library_dir

from ..drills import drills_screen
from ..drills.drill_controller import DrillController
from ..shared import ports
from ..shared.dom import nil
from ..shared.ports import Port
from . import lessons_progress
from .lesson_controller import GROUPS, LessonController
from .lesson_view import LessonView, _Text, button, h

ROOT = Path(__file__).resolve().parents[2]
LESSONS_DIR = ROOT / "lessons"
CSS_HREF = "./ui/lessons.css"
TABS = (*GROUPS, "drills")  # the list's tabs: the lessons by group, then the drills


class LessonsScreen:
    def __init__(self, section: Any, port: Port | None = None) -> None:
        self.section = section
        self.port = port
        self.text = _Text()
        self.draw = LessonView(self.text)
        self.library: Library | None = None
        self.load_error = False
        self.notices: list[str] = []
        self.lesson = LessonController(self)  # the lesson open, if any
        self.last_lesson: str | None = None
        self.announce_next: str | None = None
        self.focus_after: str | None = None
        self.progress = self._load_progress()
        self.tab: str | None = None  # the list's tab (None: the next lesson's group)
        self.drills = DrillController(self)  # the drill under way, the best scores
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
    def stored_text(key: str) -> str | None:
        """The text stored under ``key``, or None (nothing stored, or storage not readable)."""
        try:
            stored = js.localStorage.getItem(key)
        except Exception:
            return None
        return stored if isinstance(stored, str) else None

    def write(self, key: str, text: str) -> None:
        """Store ``text`` under ``key``; a refusal (quota, private mode) is said once."""
        try:
            js.localStorage.setItem(key, text)
        except Exception:
            if "notice.storage" not in self.notices:
                self.notices.append("notice.storage")

    def _load_progress(self) -> lessons_progress.Progress:
        progress, damaged = lessons_progress.parse(self.stored_text(lessons_progress.KEY))
        if damaged:
            kept = progress != lessons_progress.Progress()
            self.notices.append("notice.part-reset" if kept else "notice.reset")
            self.store(progress)
        return progress

    def store(self, progress: lessons_progress.Progress | None = None) -> None:
        self.write(lessons_progress.KEY, (progress or self.progress).to_json())

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
        owner = next((c for c in (self, self.lesson, self.drills)
                      if hasattr(c, ports.handler_name(name))), self)
        if ports.dispatch(owner, name, arg):
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

    # --- the lessons list ------------------------------------------------------------------

    def do_tab(self, name: str) -> None:
        if name in TABS:
            self.tab = name
            self.focus_after = f"tab:{name}"

    def current_tab(self) -> str:
        if self.tab is None:
            upcoming = self.next_lesson()
            return upcoming.group if upcoming is not None and upcoming.group in GROUPS \
                else GROUPS[0]
        return self.tab

    def do_open(self, lesson_id: str) -> None:
        self.open(lesson_id)

    def do_menu(self, _arg: str) -> None:
        if self.port is None:
            js.console.warn("lessons: no menu")
            return
        self.port.show_screen("menu")

    def open(self, lesson_id: str) -> None:
        """Open the lesson ``lesson_id`` (at the step where the reader left it)."""
        self.lesson.open(lesson_id)

    # --- drawing ---------------------------------------------------------------------------

    def render(self) -> None:
        active = js.document.activeElement
        focus_key = None
        if not nil(active) and self.section.contains(active):
            key = active.getAttribute("data-key")
            focus_key = None if nil(key) else str(key)
        self.view.replaceChildren()
        if self.drills.drill is not None:
            drill = self.drills.drill
            drills = self.drills
            drills.timed("draw", lambda: self.view.append(drills_screen.drill_screen(
                drill, drills.pick, drills.best.scores.get(drill.drill), drills.new_best)))
        elif self.lesson.player is None:
            self._render_list()
        else:
            self.draw.render_player(self.view, self.lesson.player, self.progress)
        wanted = self.focus_after or focus_key
        self.focus_after = None
        if wanted:
            found = self.view.querySelector(f'[data-key="{wanted}"]')
            if not nil(found):
                found.focus()
        if self.announce_next:
            self.live.textContent = ""
            self.live.textContent = self.announce_next
            self.announce_next = None
        self.section.setAttribute("data-lessons-view", "drill" if self.drills.drill is not None
                                  else "list" if self.lesson.player is None else "player")

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
        upcoming = self.next_lesson()
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
            block.append(drills_screen.drills_list(dict(self.drills.best.scores)))
        else:
            items = h("ol", "lx-lessons")
            for lesson in self.library.group(current):
                items.append(self._lesson_item(lesson, lang))
            block.append(items)
        view.append(block)

    def next_lesson(self) -> Lesson | None:
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


_screen: LessonsScreen | None = None


def mount(section: Any, port: Port | None = None) -> LessonsScreen:
    """Draw the lessons screen into ``section`` (again: redraw, keeping the open lesson);
    ``port`` is the controller, for the menu and the practice games."""
    global _screen
    if _screen is None or _screen.section != section:
        _screen = LessonsScreen(section, port)
    _screen.render()
    return _screen
