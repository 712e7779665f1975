"""The page's controller: what the table's controllers share, the screens, where each click goes.

``App`` is the shell of the solo table. It holds what every controller shares (the options,
the statistics, storage, the screen shown, the rooms' controller), switches the screens,
listens to the page's events, and routes each action name (``data-action`` / ``data-arg``)
to the one controller of its concern:

- ``flow.GameFlow``: the game on the table, the bots' turns, the table drawn;
- ``moves.Moves``: South's moves (a card, a bid, Blind Nil, the claim, the hint);
- ``coaching.Coaching``: the coach's review after each hand, the deal's par, the hand viewer;
- ``menus.Menus``: what the menu and the table's bar open (a new game, today's deal, the
  rules, the last trick, the score sheet, sharing);
- ``settings.Settings``: the options and the statistics.

Its start is ``boot.Boot``'s: what is stored read and checked, the address (``?deal=``,
``?room=``), the first game, and the takeover of the table ``ui/paint.js`` painted.

It implements ``ui.shared.ports.Port`` for the screens it does not draw itself (the lessons):
``dispatch(name, arg)``, ``show_screen("table" | "lessons" | "menu")`` and
``start_game(deal, level, hints_on=True, target=None)`` (a game or practice game of deal N,
after asking "Abandon the game in progress?" when an unfinished game would be replaced).
The composition root (``ui/root.py``) builds it and hands it the lessons screen's loader and
the rooms' maker; while a room is open the table's actions go to the rooms' controller.

Data flows one way: the controllers build plain models (``ui/shared/models.py``) from
``view_for(state, Seat.S)`` and their UI state, the renderers draw them, and clicks come back
as action names dispatched to ``do_<name>(arg)``.
No rule lives here: legality and refusal reasons come from ``spades_core``.
"""

from __future__ import annotations

import asyncio
import datetime
from collections.abc import Callable, Generator
from typing import Any

import js  # type: ignore[import-not-found]
from pyodide.ffi import create_proxy  # type: ignore[import-not-found]

from spades_core import GameState, Phase

from ..shared import models, ports
from ..shared import options as opts
from ..shared.botrunner import COACH_TIMEOUT_MS, BotRunner
from ..shared.dom import byid
from ..shared.i18n import t
from ..shared.storage import Storage
from . import deals, dialogs, render
from . import stats as stats_mod
from .boot import Boot
from .coaching import Coaching, Record
from .flow import GameFlow
from .menus import Menus
from .moves import Moves
from .settings import Settings

LessonsLoader = Callable[[Any, ports.Port], Any]  # (section, port) -> the mounted screen
RoomsMaker = Callable[[Any], Any]  # (the table's controller) -> the rooms' controller


class App:
    def __init__(self, open_lessons: LessonsLoader | None = None,
                 make_rooms: RoomsMaker | None = None) -> None:
        self.open_lessons = open_lessons
        self.make_rooms = make_rooms  # given by the root: the table imports no other screen
        try:
            backend = js.localStorage
        except Exception:
            backend = None
        self.storage = Storage(backend)
        self.told_unsaved = False  # the notice that storage refuses writes is shown once
        self.bots = BotRunner()
        self.options: dict[str, Any] = opts.defaults()
        self.stats: dict[str, Any] = stats_mod.empty()
        self.screen = "table"
        self.dialog_kind = ""
        self.lessons_mounted = False
        self.lessons_view: Any = None
        self._proxies: list[Any] = []
        self._tasks: set[Any] = set()
        self.rooms: Any = None  # ui.rooms.rooms.Rooms: the rooms' controller, made at boot
        # ui.progress.progress.Progress, set by the root: the judged hands' history and the
        # Progress screen (its actions are dispatched to it)
        self.progress: Any = None
        # the table's controllers, one concern each; the first is the others' game
        self.flow = GameFlow(self)
        self.moves = Moves(self)
        self.coaching = Coaching(self)
        self.menus = Menus(self)
        self.settings = Settings(self)
        self.start = Boot(self)  # the page's start: what is stored, the address, the paint
        self.controllers: tuple[Any, ...] = (self, self.flow, self.moves, self.coaching,
                                             self.menus, self.settings)

    # --- the page's start (ui/table/boot.py) -------------------------------------------

    def boot(self) -> None:
        self.start.boot()

    def after_ready(self) -> None:
        self.start.after_ready()

    def notice(self, key: str) -> None:
        """The notice of catalogue ``key`` (not twice at once: one with that key is there)."""
        render.notice(t(key), key)

    def in_room(self) -> bool:
        return self.rooms is not None and bool(self.rooms.active)

    @staticmethod
    def bots_worker_levels() -> frozenset[str]:
        from ..shared.botrunner import WORKER_LEVELS

        return WORKER_LEVELS

    @staticmethod
    def random_deal() -> int:
        words = js.Uint32Array.new(2)
        js.crypto.getRandomValues(words)
        return deals.random_deal((int(words[0]), int(words[1])))

    @staticmethod
    def today_number() -> int:
        now = js.Date.new()  # the local date, as the person sees it
        today = datetime.date(int(now.getFullYear()), int(now.getMonth()) + 1, int(now.getDate()))
        return deals.daily_number(today)

    def listen(self) -> None:
        for target, kind, handler in (
            (js.document, "click", self.on_click),
            (js.document, "keydown", self.on_key),
            (js.document, "change", self.on_change),
            (byid("dialog"), "close", self.on_dialog_close),
        ):
            proxy = create_proxy(handler)
            self._proxies.append(proxy)
            target.addEventListener(kind, proxy)

    def schedule(self, coro: Any) -> None:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._task_done)

    def _task_done(self, task: Any) -> None:
        """Forget a finished task; a failure is reported on the console, never swallowed."""
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            import traceback

            error = task.exception()
            text = "".join(traceback.format_exception(error))
            js.console.error(f"spades: {text}")

    def store(self, name: str, value: Any) -> None:
        """Write a storage key; the first refusal of this page load (storage full or
        blocked) is told once, and play goes on unsaved."""
        if not self.storage.write(name, value) and not self.told_unsaved:
            self.told_unsaved = True
            render.notice(t("notice.no-save"), "notice.no-save")

    def render(self) -> None:
        """Draw the table (the room's, while a room is open)."""
        self.flow.render()

    # --- input ------------------------------------------------------------------------

    def on_click(self, event: Any) -> None:
        found = ports.read_action(event.target)
        if found is not None:
            self.dispatch(found[1], found[2])

    def dispatch(self, name: str, arg: str = "") -> bool:
        """Run the action ``name`` (a ``data-action``) with its ``data-arg``: straight on
        the handler of the table's controller of its concern (``do_play``: ``Moves``),
        found once; in a room, the table's actions and the rooms' own go to the rooms'
        controller."""
        owners = (*self.controllers, *(() if self.progress is None else (self.progress,)))
        handler = ports.handler_of(owners, name)
        rooms = self.rooms
        if rooms is not None:  # the rooms' controller runs it on its part that has it
            own = handler is None and rooms.owner_of(name) is not None
            if own or (rooms.active and name.replace("-", "_") in rooms.table_actions):
                return bool(rooms.dispatch(name, arg))
        if handler is None:
            return False
        handler(arg)
        return True

    def on_key(self, event: Any) -> None:
        key = str(event.key)
        if self.coaching.viewer_key(event, key):
            return
        if js.document.querySelector("dialog[open]") or self.screen != "table" or self.in_room():
            return
        tag = str(getattr(event.target, "tagName", "") or "").lower()
        if tag in ("input", "select", "textarea"):
            return
        self.moves.on_key(event, key)

    def on_change(self, event: Any) -> None:
        target = event.target
        changed = ports.read_change(target)
        if changed is not None:
            self.dispatch(*changed)
            return
        self.settings.on_change(target)

    def on_dialog_close(self, _event: Any) -> None:
        kind, self.dialog_kind = self.dialog_kind, ""
        self.coaching.viewer = None  # (closed from the viewer: as its score sheet would close)
        self.coaching.record = None
        if self.rooms is not None and kind.startswith("room"):
            self.rooms.dialog_closed(kind)
            return
        self.flow.dialog_closed(kind)

    # --- screens -------------------------------------------------------------------

    def show_screen(self, name: str) -> None:
        if name == "lessons":
            section = byid("screen-lessons")
            if not self.lessons_mounted:
                try:
                    if self.open_lessons is None:
                        raise LookupError("no lessons screen")
                    self.lessons_view = self.open_lessons(section, self)
                    self.lessons_mounted = True
                except Exception as error:
                    js.console.warn(f"lessons not shown: {error!r}")
                    render.notice(t("lessons.missing"), "lessons.missing")
                    name = "menu"
        if name == "menu":
            game_over = None if self.flow.game is None else self.flow.state.phase is Phase.OVER
            if self.in_room():
                game_over = False  # the room's table to go back to
            due = None if self.progress is None else self.progress.due_count()
            render.menu(models.menu_model(game_over, self.today_number(), self.stats,
                                          in_room=self.in_room(), mistakes_due=due))
        if name == "welcome":
            render.welcome()
        if name in ("progress", "mistakes"):
            if self.progress is None:
                name = "menu"
            else:
                self.progress.show(name)
        self.screen = name
        render.show_screen(name)
        if name == "table":
            self.flow.render()
            self.schedule(self.flow.run())  # the bots play on where they stopped

    # --- the Port: what the lessons screen asks ---------------------------------------

    def start_game(self, deal: int, level: str, hints_on: bool = True,
                   target: int | None = None) -> None:
        """Start deal ``deal`` against ``level`` bots on the table (a practice game for
        lessons); an unfinished game in progress is replaced only once the player agrees."""
        self.flow.ask_new_game(deal=int(deal), level=level, hints_on=hints_on, target=target)

    async def engine_job(self, method: str, args: tuple[Any, ...],
                         steps: Callable[[], Generator[None, None, str]]) -> str:
        """``ui.shared.ports.Port.engine_job``: through the bots' runner, as the hint is (a job of
        a second or less; the coach's worker may be busy with a par for minutes)."""
        return await self.bots.short_job(method, args, steps)

    async def coach_job(self, method: str, args: tuple[Any, ...],
                        steps: Callable[[], Generator[None, None, str]]) -> str:
        """Engine work of the coach's (judging an answer in "Your mistakes", as the review
        judges a decision): in the coach's worker, or in slices on the main thread."""
        return await self.coaching.coach.job(method, args, steps, COACH_TIMEOUT_MS, wait=True)

    def start_practice(self, state: GameState, level: str, hints_on: bool = True,
                       situation: str = "", tips: tuple[str, ...] = ()) -> None:
        """A lesson's practice: the one hand starting at ``state``, then its review and how
        the lesson's tips (``tips``, for ``situation``) went, then back to the lessons. It is
        played in its own slot: the game in progress is set aside, not asked about, and
        comes back as it was."""
        self.flow.new_game(deal=int(state.deal or 0), level=level, hints_on=hints_on,
                           state=state, practice=True)
        self.flow.practice_focus = (situation, tuple(tips)) if situation and tips else None

    def do_lesson_tip(self, arg: str) -> None:
        """Open the lesson that teaches the tip ``arg`` (from the review)."""
        dialogs.close_dialog()
        self.open_lesson(lambda lesson: any(getattr(step, "tip", None) == arg
                                            for step in lesson.steps))

    def open_lesson(self, wanted: Callable[[Any], bool]) -> None:
        """The lessons screen, on the first lesson that is ``wanted`` (the list when none)."""
        self.show_screen("lessons")
        screen = self.lessons_view
        library = getattr(screen, "library", None)
        if library is None or self.screen != "lessons":
            return
        lesson = next((lesson for lesson in library.lessons if wanted(lesson)), None)
        if lesson is not None:
            screen.open(lesson.id)
            screen.render()

    # --- the menu's screens ------------------------------------------------------------

    def do_menu(self, arg: str) -> None:
        self.show_screen("table" if self.screen == "menu" else "menu")

    def do_resume(self, arg: str) -> None:
        self.show_screen("table")

    def do_rooms(self, arg: str) -> None:
        """Play with friends: the rooms' dialog (nickname, a new room's options, a code)."""
        if self.rooms is None:
            render.notice(t("rooms.no-server"), "rooms-no-server")
            return
        self.rooms.open_dialog()

    def do_ranked(self, arg: str) -> None:
        """Today's ranked deal: the rooms' dialog (``ui/rooms/daily_board.py``); without the
        rooms' controller it says the deal needs the server, and nothing else changes."""
        if self.rooms is None:
            render.notice(t("ranked.no-server"), "ranked-no-server")
            return
        self.rooms.daily.open_ranked()

    def show_record(self, state: GameState, names: dict[str, str], teams: tuple[str, str],
                    title: str, back: tuple[str, str]) -> None:
        """A finished game that is not the table's (a published board's game, which the
        rooms' daily board fetched): its score sheet, each hand in the hand viewer, and a
        button back (``back``: an action and its argument)."""
        self.coaching.open_record(Record(state, names, teams, title, back))

    def do_lessons(self, arg: str) -> None:
        self.show_screen("lessons")

    def do_progress(self, arg: str) -> None:
        self.show_screen("progress")

    def do_welcome(self, arg: str) -> None:
        self.show_screen("welcome")

    def do_welcome_learn(self, arg: str) -> None:
        """The welcome's "Learn the rules": the first lesson (the rules' first), opened."""
        self.open_lesson(lambda lesson: True)

    def do_close(self, arg: str) -> None:
        dialogs.close_dialog()

    def do_dismiss(self, arg: str) -> None:
        render.dismiss_notice(arg)

