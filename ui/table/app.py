"""The page's controller: the game in progress, the bots' turns, input, screens and storage.

It implements ``ui.shared.ports.Port`` for the screens it does not draw itself (the lessons):
``dispatch(name, arg)``, ``show_screen("table" | "lessons" | "menu")`` and
``start_game(deal, level, hints_on=True, target=None)`` (a game or practice game of deal N,
after asking "Abandon the game in progress?" when an unfinished game would be replaced).
The composition root (``ui/root.py``) builds it and hands it the lessons screen's loader.

Data flows one way: the controller builds plain models (``ui/shared/models.py``) from
``view_for(state, Seat.S)`` and its UI state, the renderers draw them, and clicks come back
as action names (``data-action`` / ``data-arg``) dispatched to ``do_<name>(arg)``.
No rule lives here: legality and refusal reasons come from ``spades_core``.
"""

from __future__ import annotations

import asyncio
import datetime
from collections.abc import Callable, Generator
from typing import Any

import js  # type: ignore[import-not-found]
from pyodide.ffi import create_proxy  # type: ignore[import-not-found]

from spades_core import BLIND_NIL, Bid, Card, GameState, Phase, Rules, Seat, parse_bid, parse_card
from spades_core.claim import check_claim
from spades_core.rules import DAILY_RULES, winning_play
from spades_core.views import view_for

from ..shared import i18n, models, ports, sound
from ..shared import options as opts
from ..shared.botrunner import COACH_NAME, BotRunner
from ..shared.dom import byid
from ..shared.i18n import t
from ..shared.storage import Storage, check_seen
from . import coach_cache, deals, dialogs, pacing, render, savegame
from . import stats as stats_mod
from . import viewer as hand_viewer
from .savegame import SavedGame
from .viewer_screen import viewer_dialog

S = Seat.S
LessonsLoader = Callable[[Any, ports.Port], Any]  # (section, port) -> the mounted screen
RoomsMaker = Callable[[Any], Any]  # (the table's controller) -> the rooms' controller


def _sleep_ms(ms: int) -> Any:
    return asyncio.sleep(ms / 1000.0)


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
        self.game: SavedGame | None = None
        self.gen = 0
        self.waiting = False
        self.running_gen = -1
        self.shown_trick: tuple[tuple[Seat, Card], ...] | None = None
        self.trick_winner: Seat | None = None
        self.last_trick: tuple[tuple[Seat, Card], ...] | None = None
        self.hinted: str | None = None
        self.blind_armed = False  # Blind Nil chosen once, waiting for its confirmation
        self.pending_new: dict[str, Any] | None = None  # a new game waiting for "Start new"
        self.practice_end: int | None = None  # a lesson's practice: back to lessons after it
        # the game in progress, set aside (and left as saved) while a lesson's practice hand
        # is played in its own slot: it comes back whole when the practice ends
        self.kept: SavedGame | None = None
        # the practice's situation and the lesson's tips: the line after the review
        self.practice_focus: tuple[str, tuple[str, ...]] | None = None
        self.screen = "table"
        self.dialog_kind = ""
        self.lessons_mounted = False
        self.lessons_view: Any = None
        self.coach = BotRunner(COACH_NAME, "coach")  # the review and the par: long jobs
        self.par_cache: dict[str, Any] = {}
        self.reviews = hand_viewer.Reviews()  # the coach's reviews, kept for the hand viewer
        self.viewer: tuple[int, int] | None = None  # (hand, frame) while the viewer shows
        self._proxies: list[Any] = []
        self._tasks: set[Any] = set()
        self.rooms: Any = None  # ui.rooms.rooms.Rooms: the rooms' controller, made at boot
        # ui.progress.progress.Progress, set by the root: the judged hands' history
        self.progress: Any = None

    # --- boot ------------------------------------------------------------------------

    def boot(self) -> None:
        browser_langs = [str(x) for x in (js.navigator.languages or [js.navigator.language])]
        self.storage.drop_old()
        notices: list[str] = []
        self.options = self._load(
            "options", lambda d: opts.validate(d, i18n.pick_language(browser_langs)),
            "notice.bad-options", notices, "notice.part-options",
        )
        i18n.set_language(self.options["language"])
        i18n.load()
        self.stats = self._load("stats", stats_mod.validate, "notice.bad-stats", notices,
                                "notice.part-stats")
        if self.progress is not None:
            self.progress.boot(notices)
        game = self._load("game", savegame.check, "notice.bad-game", notices)
        try:  # a cache: unreadable is empty, and no notice
            self.par_cache = self.storage.load("par", coach_cache.check)[0] or {}
        except Exception:
            self.par_cache = {}
        self.apply_look()
        self.listen()
        wanted, bad_deal = self.url_deal()
        if bad_deal:  # a bad link keeps the saved game, or starts a random one
            notices.append("notice.bad-deal-kept" if game is not None else "notice.bad-deal")
        early = None  # a later day's daily deal: it opens on its day
        if wanted is not None and deals.future_daily(wanted, self.today_number()):
            early, wanted = wanted, None
        restored = False
        asked: dict[str, Any] | None = None
        if wanted is not None and not (game is not None and game.state.deal == wanted
                                       and not game.recorded):
            # today's deal by link is the daily deal, exactly as from the menu
            link: dict[str, Any] = {"deal": wanted, "daily": wanted == self.today_number()}
            self.game = game
            if self.in_progress():  # a link does not throw away a game in progress: ask
                restored, asked = True, link
            else:
                self.new_game(start=False, **link)
        elif game is not None:
            self.game = game
            restored = True
        else:
            self.new_game(self.random_deal(), start=False)
        if self.storage.write_failed and not self.told_unsaved:
            self.told_unsaved = True
            notices.append("notice.no-save")
        for key in notices:
            render.notice(t(key), key)
        if early is not None:
            render.notice(t("notice.daily-early", date=i18n.day_text(early)), "notice.daily-early")
        render.enable_controls()
        try:
            self.render()
        except Exception as error:
            if not restored:
                raise
            # A saved game that passed its checks but cannot be shown: drop it, not the page.
            js.console.warn(f"saved game not shown: {error!r}")
            self.storage.remove("game")
            self.new_game(self.random_deal(), start=False)
            render.notice(t("notice.bad-game"), "notice.bad-game")
            self.render()
            asked = None
        if asked is not None:
            self.ask_new_game(from_link=True, **asked)
        elif game is None and wanted is None and self.first_visit():
            self.show_screen("welcome")  # once: the menu has it too
            self.store("welcome", {"seen": True})
        self.boot_rooms()

    def first_visit(self) -> bool:
        """No game was ever saved here, the welcome was never shown, and no room link was
        followed: the welcome comes before the table."""
        if js.URLSearchParams.new(js.location.search).has("room"):
            return False
        try:
            value, _ = self.storage.load("welcome", check_seen)
        except Exception:
            return False  # unreadable storage: no welcome rather than one at every visit
        return not value["seen"]

    def boot_rooms(self) -> None:
        """The rooms' controller; ``?room=CODE`` joins or resumes that room. A failure here
        leaves solo play as it is."""
        try:
            if self.make_rooms is None:
                raise LookupError("no rooms controller")
            self.rooms = self.make_rooms(self)
            self.rooms.from_link()
        except Exception as error:
            js.console.warn(f"rooms not available: {error!r}")
            self.rooms = None

    def in_room(self) -> bool:
        return self.rooms is not None and bool(self.rooms.active)

    def _load(
        self, name: str, check: Callable[[Any], tuple[Any, bool]], notice: str,
        notices: list[str], part_notice: str = "",
    ) -> Any:
        """The checked value of storage key ``name``; on damage (or any error while reading)
        the key is rewritten with what could be read and ``notice`` is queued, or
        ``part_notice`` when something was kept. Nothing stored can stop the boot."""
        fresh = check(None)[0]
        try:
            value, damaged = self.storage.load(name, check)
        except Exception:
            value, damaged = fresh, True
            self.storage.remove(name)
        if damaged:
            notices.append(part_notice if part_notice and value != fresh else notice)
        return value

    def after_ready(self) -> None:
        """Once interactive: let the bots play, warm the expert's worker if needed."""
        self.schedule(self.run())
        if self.game is not None and self.game.level in self.bots_worker_levels():
            self.bots.start_worker()

    @staticmethod
    def bots_worker_levels() -> frozenset[str]:
        from ..shared.botrunner import WORKER_LEVELS

        return WORKER_LEVELS

    def url_deal(self) -> tuple[int | None, bool]:
        """The ``?deal=`` of the address (then removed from it, the rest of the address kept:
        a ``?room=`` beside it is still read), and whether it was bad."""
        params = js.URLSearchParams.new(js.location.search)
        if not params.has("deal"):
            return None, False
        raw = params.get("deal")
        number = deals.parse_deal(str(raw) if isinstance(raw, str) else None)
        params.delete("deal")
        rest = str(params.toString())
        js.history.replaceState(None, "", str(js.location.pathname) + (f"?{rest}" if rest else "")
                                + str(js.location.hash))
        return number, number is None

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

    # --- look and language ----------------------------------------------------------------

    def apply_look(self) -> None:
        body = js.document.body
        classes = [c for c in str(body.className).split() if not c.startswith(("felt-", "back-"))]
        classes = [c for c in classes if c != "four-colour"]
        classes += [f"felt-{self.options['felt']}", f"back-{self.options['back']}"]
        if self.options["four_colour"]:
            classes.append("four-colour")
        body.className = " ".join(classes)
        js.document.documentElement.lang = i18n.language()
        js.document.title = t("app.title")
        render.translate_static()

    def save_options(self) -> None:
        self.store("options", self.options)

    def store(self, name: str, value: Any) -> None:
        """Write a storage key; the first refusal of this page load (storage full or
        blocked) is told once, and play goes on unsaved."""
        if not self.storage.write(name, value) and not self.told_unsaved:
            self.told_unsaved = True
            render.notice(t("notice.no-save"), "notice.no-save")

    # --- games ----------------------------------------------------------------------------

    def new_game(
        self, deal: int, level: str | None = None, hints_on: bool = True,
        target: int | None = None, daily: bool = False, start: bool = True,
        state: GameState | None = None, practice: bool = False,
    ) -> None:
        """A new game on the table; ``practice``: a lesson's practice hand from ``state``,
        played beside the game in progress (set aside, its saved copy untouched)."""
        if practice:
            if self.kept is None:
                self.kept = self.game
        else:
            self.end_practice()
        kwargs = opts.rules_kwargs(self.options)
        if target is not None:
            kwargs["target"] = int(target)
        rules = Rules(**kwargs)
        if daily and state is None and rules != DAILY_RULES:  # everyone's same game, said
            render.notice(t("notice.daily-rules"), "notice.daily-rules")  # when it differs
            rules = DAILY_RULES
        self.practice_end = len(state.past_hands) + 1 if practice and state else None
        if not practice:
            self.practice_focus = None
        state = state or GameState.new(rules, deal=int(deal))
        level = level if level in savegame.LEVELS else self.options["level"]
        self.switch_to(SavedGame(state=state, level=level, daily=daily, hints=hints_on,
                                 sheets=len(state.past_hands)))  # a practice's earlier hands
        if self.rooms is not None:
            self.rooms.leave()
        render.message("")
        dialogs.close_dialog()
        self.save()
        if level in self.bots_worker_levels():
            self.bots.start_worker()
        self.announce(t("new.deal", deal=deal))
        if start:
            self.show_screen("table")  # draws the table and starts the bots' loop

    def switch_to(self, game: SavedGame | None) -> None:
        """Put ``game`` on the table: a new generation (a bots' loop of the game before stops),
        nothing of the table before carried over."""
        self.gen += 1
        self.game = game
        self.waiting = False
        self.shown_trick = None
        self.last_trick = None
        self.hinted = None
        self.blind_armed = False
        self.pending_new = None

    @property
    def practising(self) -> bool:
        """Whether the table holds a lesson's practice hand (the game in progress kept)."""
        return self.kept is not None

    def end_practice(self) -> None:
        """Back from a practice hand: the game in progress on the table, exactly as it was
        (its bots' loop starts again when the table is shown)."""
        if self.kept is None:
            return
        kept, self.kept = self.kept, None
        self.practice_end = None
        self.practice_focus = None
        self.switch_to(kept)

    def in_progress(self) -> bool:
        """An unfinished game that has begun (a bid or a card): replacing it must be asked."""
        game = self.game
        if game is None:
            return False
        state = game.state
        return state.phase is not Phase.OVER and bool(state.past_hands or state.bid_history)

    def ask_new_game(self, from_link: bool = False, **kwargs: Any) -> None:
        """``new_game(**kwargs)`` at once when nothing is lost; otherwise first ask whether to
        abandon the game in progress (answered by do_new_yes / do_new_no). A link's game is
        named in the question: the player did not choose it here. A practice hand on the
        table is left first: the question is about the game in progress."""
        self.end_practice()
        if not self.in_progress():
            self.new_game(**kwargs)
            return
        self.pending_new = kwargs
        state = self.state
        coming = (models.deal_label(int(kwargs["deal"]), bool(kwargs.get("daily")))
                  if from_link else "")
        dialogs.confirm_new(state.scores, state.hand_index + 1, coming)
        self.dialog_kind = "confirm-new"

    def save(self) -> None:
        """Store the game in progress; a practice hand is never stored (its own slot is
        this page's memory), so the saved game stays the one set aside."""
        if self.game is not None and not self.practising:
            self.store("game", self.game.to_json())

    @property
    def state(self) -> GameState:
        assert self.game is not None
        return self.game.state

    def face_down(self) -> bool:
        """South's cards stay face down until South chooses Blind Nil or to look."""
        state = self.state
        return bool(
            state.rules.blind_nil
            and state.phase is Phase.BIDDING
            and state.bid_of(S) is None
            and self.game is not None
            and self.game.seen != state.hand_index
        )

    def blind_offered(self) -> bool:
        return self.face_down() and self.state.to_act == S and self.state.refusal(BLIND_NIL) is None

    # --- the run loop -------------------------------------------------------------------

    async def run(self) -> None:
        """Play the bots' turns until South must act, a score sheet or the end is shown."""
        if self.running_gen == self.gen or self.game is None:
            return
        gen = self.running_gen = self.gen
        try:
            # only while the table is on screen: showing it again starts the loop again
            while gen == self.gen and self.screen == "table" and not self.in_room():
                state = self.state
                game = self.game
                if len(state.past_hands) > game.sheets:
                    self.waiting = False
                    self.render()
                    if self.dialog_kind != "sheet-pending":
                        dialogs.score_sheet(models.sheet_model(
                            self.view(), pending=True, practice=self.practice_over(),
                            replay=True))
                        self.dialog_kind = "sheet-pending"
                        self.start_review(state)
                    return
                if state.phase is Phase.OVER:
                    self.waiting = False
                    self.finish()
                    return
                if state.to_act == S:
                    only = self.only_card(state)
                    if only is None:
                        self.waiting = True
                        self.render()
                        render.focus_hand_or_panel()
                        return
                    # the only card South may play goes by itself, at a bot's pace
                    self.waiting = False
                    self.render()
                    await _sleep_ms(pacing.pace(self.options["speed"])["bot"])
                    if gen != self.gen or self.screen != "table":
                        return
                    await self.apply(only, gen)
                    continue
                self.waiting = False
                self.render()
                speed = self.options["speed"]
                start = js.performance.now()
                seat = state.to_act
                if seat is None:  # bidding or playing always has a seat to act
                    return
                if self.game.level in self.bots_worker_levels():
                    render.turn_text(t("thinking", seat=i18n.seat_name(seat.name)), False)
                action = await self.bots.decide(state, self.game.level)
                spent = float(js.performance.now() - start)
                delay = pacing.bot_delay(speed, spent)
                await _sleep_ms(delay)
                if gen != self.gen:
                    return
                await self.apply(action, gen)
        finally:
            if self.running_gen == gen:
                self.running_gen = -1

    def only_card(self, state: GameState) -> Card | None:
        """South's one legal card when the option plays it by itself, else None."""
        if state.phase is not Phase.PLAYING or not opts.auto_play(self.options):
            return None
        legal = state.legal_plays()
        return legal[0] if len(legal) == 1 else None

    async def apply(self, action: Card | Bid, gen: int) -> None:
        assert self.game is not None
        before = self.state
        seat = before.to_act
        assert seat is not None
        after = before.apply(action)
        self.game.state = after
        if isinstance(action, Bid) and seat == S:
            self.game.seen = before.hand_index if not action.blind else self.game.seen
        self.hinted = None
        self.save()
        name = i18n.seat_name(seat.name)
        mine = ".you" if seat == S else ""
        if isinstance(action, Bid):
            self.announce(t("say.bid" + mine, seat=name, bid=i18n.bid_text(str(action))))
            self.render()
            return
        self.announce(t("say.play" + mine, seat=name, card=i18n.card_definite(str(action))))
        if self.options["sound"]:
            sound.play("play")
        if len(before.trick) < 3:
            self.render()
            return
        completed = (*before.trick, (seat, action))
        winner, _ = winning_play(completed)
        self.last_trick = completed
        self.trick_winner = winner
        who = (t("say.trick.you") if winner == S
               else t("say.trick", seat=i18n.seat_name(winner.name)))
        self.announce(who)
        speed = pacing.pace(self.options["speed"])
        if speed["trick"] > 0:
            self.shown_trick = completed
            self.render()
            await _sleep_ms(speed["trick"])
            if gen != self.gen:
                return
            render.gather(winner, speed["gather"])
            await _sleep_ms(speed["gather"])
            render.ungather()
        self.shown_trick = None
        if self.options["sound"]:
            sound.play("trick")
        render.flash_seat(winner)
        self.render()

    def finish(self) -> None:
        game = self.game
        assert game is not None
        state = game.state
        self.render()
        ns, ew = state.scores
        won = state.winner is not None and int(state.winner) == 0
        if not game.recorded and not self.practising:
            daily = str(state.deal) if game.daily else None
            self.stats = stats_mod.record_game(self.stats, game.level, won, ns, daily, ew)
            self.store("stats", self.stats)
            if self.progress is not None:
                self.progress.game_over(game.level, int(state.deal or 0), won)
            game.recorded = True
            self.save()
            if self.options["sound"]:
                sound.play("win" if won else "lose")
            self.announce(t("end.won") if won else t("end.lost"))
        if self.dialog_kind != "end":
            dialogs.end_dialog(state.scores, int(state.deal or 0), game.level, won,
                               self.daily_line(state.deal if game.daily else None,
                                               state.scores))
            self.dialog_kind = "end"
            self.show_game_figure(state)
            self.start_par(state, game.level)
            if game.daily and self.rooms is not None and state.rules == DAILY_RULES:
                self.rooms.offer_daily(state, game.level)  # (a game saved before: its rules)

    def daily_line(self, number: int | None, scores: tuple[int, int] | None = None) -> str | None:
        if number is None:
            return None
        return models.daily_line(number, self.stats["daily"].get(str(number)), scores)

    # --- rendering ----------------------------------------------------------------------

    def view(self) -> Any:
        """What South may see now (the cards hidden while they are face down)."""
        return view_for(self.state, S, hand_seen=not self.face_down())

    def ui_state(self) -> models.UiState:
        game = self.game
        assert game is not None
        return models.UiState(
            waiting=self.waiting, hinted=self.hinted, face_down=self.face_down(),
            blind_armed=self.blind_armed, shown_trick=self.shown_trick,
            trick_winner=self.trick_winner, sheets_seen=game.sheets,
            deal=int(game.state.deal or 0), daily=game.daily,
            hints_on=self.hints_on(),
            speed=str(self.options["speed"]),  # the deal's motion (render.table)
            claim_on=True,
        )

    def render(self) -> None:
        if self.in_room():
            self.rooms.render()
            return
        if self.game is None:
            return
        render.table(models.table_model(self.view(), self.ui_state()))

    def announce(self, text: str) -> None:
        render.announce(text)

    # --- input ------------------------------------------------------------------------

    def on_click(self, event: Any) -> None:
        found = ports.read_action(event.target)
        if found is not None:
            self.dispatch(found[1], found[2])

    def dispatch(self, name: str, arg: str = "") -> bool:
        """Run the action ``name`` (a ``data-action``) with its ``data-arg``; in a room, the
        table's actions and the rooms' own go to the rooms' controller; the Progress
        screen's own to its controller."""
        handler = ports.handler_name(name)
        if (self.progress is not None and not hasattr(self, handler)
                and hasattr(self.progress, handler)):
            return ports.dispatch(self.progress, name, arg)
        rooms = self.rooms
        if rooms is not None:
            handler = ports.handler_name(name)
            own = not hasattr(self, handler) and hasattr(rooms, handler)
            if own or (rooms.active and name.replace("-", "_") in rooms.table_actions):
                return ports.dispatch(rooms, name, arg)
        return ports.dispatch(self, name, arg)

    def on_key(self, event: Any) -> None:
        key = str(event.key)
        if self.viewer is not None and js.document.querySelector("dialog[open] #viewer"):
            hand = self.state.past_hands[self.viewer[0]]
            frame = hand_viewer.frame_for_key(key, self.viewer[1], hand_viewer.frame_count(hand))
            if key in hand_viewer.KEY_STEPS:
                event.preventDefault()
            if frame is not None:
                self.do_viewer(f"{self.viewer[0]}:{frame}")
            return
        if js.document.querySelector("dialog[open]") or self.screen != "table" or self.in_room():
            return
        tag = str(getattr(event.target, "tagName", "") or "").lower()
        if tag in ("input", "select", "textarea"):
            return
        if key in ("ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown"):
            if render.move_focus(-1 if key in ("ArrowLeft", "ArrowUp") else 1):
                event.preventDefault()
        elif (len(key) == 1 and key.isdigit() and not event.ctrlKey and not event.altKey
              and self.waiting and self.state.phase is Phase.PLAYING):
            index = (int(key) or 10) - 1
            legal = models.hand_order(self.state.legal_plays())
            if index < len(legal):
                event.preventDefault()
                self.play(str(legal[index]))

    def on_change(self, event: Any) -> None:
        target = event.target
        changed = ports.read_change(target)
        if changed is not None:
            self.dispatch(*changed)
            return
        # a field without data-option (the rooms' dialog) is not an option
        dataset = getattr(target, "dataset", None)
        name = str(getattr(dataset, "option", "") or "") if dataset else ""
        if name not in opts.CHOICES:
            return
        if str(target.type) == "checkbox":
            value: Any = bool(target.checked)
        else:
            raw = str(target.value)
            value = next((c for c in opts.CHOICES[name] if str(c) == raw), None)
            if value is None:
                return
        self.options[name] = value
        self.save_options()
        if name == "language":
            i18n.set_language(value)  # apply_look says the message again in the language
        if name == "hints" and not value:  # the hint shown goes with the Hint button
            self.hinted = None
            if self.rooms is not None:
                self.rooms.hinted = None
            render.clear_message("hint")
        self.apply_look()
        self.render()
        if name == "language":
            dialogs.options_dialog(self.options)
        if name == "level" and value in self.bots_worker_levels():
            self.bots.start_worker()

    def on_dialog_close(self, _event: Any) -> None:
        kind, self.dialog_kind = self.dialog_kind, ""
        self.viewer = None  # (closed from the viewer: as its score sheet would close)
        if self.rooms is not None and kind.startswith("room"):
            self.rooms.dialog_closed(kind)
            return
        if kind == "confirm-new":  # Escape: nothing changes, the player stays where they were
            self.pending_new = None
        if kind == "sheet-pending" and self.game is not None:
            self.game.sheets = len(self.state.past_hands)
            self.save()
            if self.practice_end is not None and self.game.sheets >= self.practice_end:
                self.end_practice()  # a lesson's practice hand is over: back to the lesson
                self.show_screen("lessons")
                return
            self.schedule(self.run())

    def play(self, card_text: str) -> None:
        if self.game is None:
            return
        card = parse_card(card_text)
        state = self.state
        if not self.waiting:
            refusal = state.refusal(card, seat=S)
            if refusal is not None and refusal.reason == "not-your-turn":
                self.refuse(refusal.reason, refusal.params)
            return
        refusal = state.refusal(card, seat=S)
        if refusal is not None:
            self.refuse(refusal.reason, refusal.params)
            return
        self.act(card)

    def act(self, action: Card | Bid) -> None:
        self.waiting = False
        render.message("")
        self.render()

        async def go() -> None:
            gen = self.gen
            await self.apply(action, gen)
            if gen == self.gen:
                await self.run()

        self.schedule(go())

    def refuse(self, reason: str, params: dict[str, Any]) -> None:
        # said again in the new language if the language changes while it shows
        self.announce(render.message(lambda: i18n.refusal_text(reason, params), refusal=True))
        if self.options["sound"]:
            sound.play("refuse")

    # --- actions (data-action="...") ----------------------------------------------------------

    def do_play(self, arg: str) -> None:
        self.play(arg)

    def do_bid(self, arg: str) -> None:
        if not self.waiting or self.state.phase is not Phase.BIDDING:
            return
        bid = parse_bid(arg)
        refusal = self.state.refusal(bid, seat=S)
        if refusal is not None:
            self.refuse(refusal.reason, refusal.params)
            return
        self.act(bid)

    def do_claim(self, arg: str) -> None:
        """Claim the rest of the tricks: the engine's check from South's view says why not,
        or South's cards are played in its order, the bots answering, without pauses."""
        if self.in_room() or self.game is None or not self.waiting:
            return
        claim = check_claim(self.view())
        if claim.refusal is not None:
            self.refuse(claim.refusal.reason, claim.refusal.params)
            return
        self.waiting = False
        self.hinted = None
        self.announce(render.message(lambda: t("say.claim")))
        self.render()
        self.schedule(self.play_claim(claim.order))

    async def play_claim(self, order: tuple[Card, ...]) -> None:
        """Play a claim out as ordinary actions (the record stays a record of plays); it
        holds the bots' loop (``running_gen``) until the hand is over, then hands it back."""
        gen = self.running_gen = self.gen
        cards = list(order)
        try:
            hand = self.state.hand_index
            while gen == self.gen and self.game is not None and self.state.hand_index == hand:
                state = self.state
                seat = state.to_act
                if state.phase is not Phase.PLAYING or seat is None:
                    break
                action = (cards.pop(0) if seat == S
                          else await self.bots.decide(state, self.game.level))
                if gen != self.gen:
                    return
                self.game.state = state.apply(action)
                if len(state.trick) == 3 and isinstance(action, Card):
                    self.last_trick = (*state.trick, (seat, action))
                self.save()
                self.render()
        finally:
            if self.running_gen == gen:
                self.running_gen = -1
        if gen == self.gen:
            await self.run()

    def do_blind(self, arg: str) -> None:
        """Blind Nil, first step: ask for a confirmation (it cannot be taken back)."""
        if self.waiting and self.blind_offered():
            self.blind_armed = True
            self.render()
            render.focus_panel()

    def do_blind_yes(self, arg: str) -> None:
        if self.waiting and self.blind_offered() and self.blind_armed:
            self.blind_armed = False
            self.act(BLIND_NIL)

    def do_blind_no(self, arg: str) -> None:
        self.blind_armed = False
        self.render()
        render.focus_panel("[data-action=blind]")

    def do_look(self, arg: str) -> None:
        if self.game is not None:
            self.blind_armed = False
            self.game.seen = self.state.hand_index
            self.hinted = None  # a hint given face down ("look first") is answered
            render.clear_message("hint")
            self.save()
            self.render()
            render.focus_hand_or_panel()

    def do_hint(self, arg: str) -> None:
        if not self.waiting or self.game is None:
            render.message(lambda: t("hint.none"), kind="hint")
            return
        state, hand_seen = self.state, not self.face_down()
        render.message(lambda: t("hint.thinking"), kind="hint")

        async def ask() -> None:
            advice = await self.bots.hint(state, hand_seen)
            if self.game is None or self.state is not state:
                return  # the position moved on while the coach thought
            self.show_hint(advice)

        self.schedule(ask())

    def hints_on(self) -> bool:
        return self.game is not None and self.game.hints and bool(self.options["hints"])

    def show_hint(self, advice: Any) -> None:
        if not self.hints_on():
            return  # hints were turned off while the coach thought
        # the card, the bid or Blind Nil it points at is lit; no action: "look" first
        self.hinted = "look" if advice.action is None else str(advice.action)
        self.render()
        # said again in the new language if the language changes while it shows
        self.announce(render.message(lambda: i18n.hint_message(advice), kind="hint"))

    # --- the coach: the review after each hand, the deal's par ---------------------------

    def practice_over(self) -> bool:
        """Whether the hand just finished is a lesson's practice hand."""
        return (self.practice_end is not None and self.game is not None
                and len(self.state.past_hands) >= self.practice_end)

    def start_review(self, state: GameState) -> None:
        """The review of the hand just finished, computed off the main thread while its
        score sheet is open ("computing…", then the items); after a lesson's practice hand,
        then the line on how the lesson's tip went."""
        hand_index = len(state.past_hands) - 1
        key = hand_viewer.hand_key(state.past_hands[hand_index])
        self.reviews.start(key)
        self.viewer = None  # the pending sheet took the dialog (a viewer open is gone)
        dialogs.review_panel(None)
        focus = self.practice_focus if self.practice_over() else None
        if focus is not None:
            dialogs.practice_panel(None)

        game = self.game
        level = game.level if game is not None else "normal"
        practice = self.practice_end is not None  # (the practice may be over when it comes)

        def progress(done: int, count: int) -> None:  # "Reviewing… 4 of 13"
            if self.dialog_kind == "sheet-pending" and self.state is state:
                dialogs.review_progress(done, count)

        async def work() -> None:
            try:
                data = await self.coach.review(state, hand_index, progress)
            except Exception as error:
                js.console.warn(f"review failed: {error!r}")
                data = {"items": [], "failed": True}
            if not data.get("failed"):
                self.judged(state, hand_index, data, level, practice)
            self.reviews.put(key, data)  # kept: the hand viewer shows its verdicts
            if self.viewer is not None and self.dialog_kind.startswith("sheet"):
                self.show_viewer()
            elif self.dialog_kind == "sheet-pending" and self.state is state:
                dialogs.review_panel(data)
                if focus is not None:
                    self.show_practice_report(state, focus, data)

        self.schedule(work())

    def judged(self, state: GameState, hand_index: int, data: dict[str, Any], level: str,
               practice: bool) -> None:
        """A hand's review came: into the progress history (a solo or practice hand, not a
        room's), its figure on the review (``data["figure"]``), the game's on the end
        dialog if it shows."""
        if self.progress is None or self.in_room():
            return
        try:
            data["figure"] = self.progress.hand_judged(
                state.past_hands[hand_index], data, level, int(state.deal or 0), practice)
        except Exception as error:  # the history never stops the review
            js.console.warn(f"progress not recorded: {error!r}")
            return
        if self.dialog_kind == "end" and self.state is state:
            self.show_game_figure(state)

    def show_game_figure(self, state: GameState) -> None:
        """The game's accuracy figure in the end dialog (from the progress history)."""
        if self.progress is None or self.game is None or self.practising:
            return
        figure = self.progress.game_figure(self.game.level, int(state.deal or 0))
        dialogs.game_figure(figure, len(state.past_hands))

    def show_practice_report(self, state: GameState, focus: tuple[str, tuple[str, ...]],
                             data: dict[str, Any]) -> None:
        """The line after a practice hand's review: the situation, the lesson's tip."""
        from spades_core.lessons.practice_review import practice_report, report_to_dict

        situation, tips = focus
        items = None if data.get("failed") else list(data.get("items", []))
        try:
            report = report_to_dict(practice_report(state, situation, tips, items))
        except Exception as error:  # an unknown situation: the review alone is shown
            js.console.warn(f"practice report failed: {error!r}")
            return
        item = report["item"]
        decision = items[int(str(item))] if items is not None and item is not None else None
        dialogs.practice_panel({**report, "decision": decision})

    def start_par(self, state: GameState, level: str) -> None:
        """The deal's par in the end-of-game dialog: from the cache (local storage, per
        deal, level and rules) or worked out hand by hand in the coach's worker, the panel
        saying how far it got.  Leaving the dialog stops it between two hands; the par game
        so far stays in memory (``self.coach.par_games``) for the next end dialog of the
        same deal, level and rules."""
        deal = state.deal
        if deal is None:
            return
        key = coach_cache.key(deal, level, state.rules.to_dict())
        cached = self.par_cache.get(key)
        if cached is not None:
            self.show_par(state, cached)  # the figure now; where the games parted follows
            return
        dialogs.par_panel(None, state.scores[0])

        def wanted() -> bool:
            return self.dialog_kind == "end" and self.state is state

        def progress(data: dict[str, Any]) -> None:
            dialogs.par_panel({**data, "progress": True}, state.scores[0])

        async def work() -> None:
            try:
                data = await self.coach.par_loop(key, state, level, wanted, progress)
            except Exception as error:
                js.console.warn(f"par failed: {error!r}")
                if wanted():
                    dialogs.par_panel({"failed": True}, state.scores[0])
                return
            if data is None:  # the player left: the par game so far is kept
                return
            self.par_cache = coach_cache.put(self.par_cache, key, {"par": data["par"]})
            self.store("par", self.par_cache)
            if wanted():
                dialogs.par_panel(data, state.scores[0])

        self.schedule(work())

    def show_par(self, state: GameState, cached: dict[str, Any]) -> None:
        """A cached par: the figure at once; where the game left it is worked out here
        (from the par game in memory, else played again hand by hand), so the line
        appears once the worker has it."""
        game = self.game
        assert game is not None
        level = game.level
        deal = state.deal
        assert deal is not None
        key = coach_cache.key(deal, level, state.rules.to_dict())
        dialogs.par_panel({"par": cached["par"], "level": level, "pending": True},
                          state.scores[0])

        def wanted() -> bool:
            return self.dialog_kind == "end" and self.state is state

        async def work() -> None:
            try:
                data = await self.coach.par_loop(key, state, level, wanted, lambda _: None)
            except Exception:
                return
            if data is not None and wanted():
                dialogs.par_panel(data, state.scores[0])

        self.schedule(work())

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

    def do_last(self, arg: str) -> None:
        # Until the first trick of a hand is complete, the previous hand's last trick: the
        # one seen being played (self.last_trick), or after a reload the finished hand's;
        # once the game is over, its final trick (models.shown_last_trick).
        trick, previous = models.shown_last_trick(self.view(), self.last_trick)
        winner = winning_play(trick)[0] if trick else None
        dialogs.last_trick_dialog(models.last_trick_model(trick, winner, previous))
        self.dialog_kind = "last"

    def do_sheet(self, arg: str) -> None:
        dialogs.score_sheet(models.sheet_model(self.view(), pending=False, replay=True))
        self.dialog_kind = "sheet"

    # --- the hand viewer: a finished hand trick by trick, in the score sheet's dialog ------

    def do_viewer(self, arg: str) -> None:
        """Open the viewer on ``arg``: ``"H"`` or ``"H:F"`` (hand index, frame)."""
        target = hand_viewer.parse_target(arg, self.state.past_hands) if self.game else None
        if target is not None:
            self.viewer = target
            self.show_viewer()

    def show_viewer(self) -> None:
        if self.viewer is None or self.game is None:
            return
        index, frame = self.viewer
        hand = self.state.past_hands[index]
        review, computing = self.reviews.get(hand_viewer.hand_key(hand))
        viewer_dialog(hand_viewer.viewer_model(hand, frame, review, computing))

    def do_viewer_go(self, arg: str) -> None:
        if self.viewer is not None and arg.isdigit():
            self.do_viewer(f"{self.viewer[0]}:{arg}")

    def do_viewer_prev(self, arg: str) -> None:
        if self.viewer is not None:
            self.do_viewer(f"{self.viewer[0]}:{max(0, self.viewer[1] - 1)}")

    def do_viewer_next(self, arg: str) -> None:
        if self.viewer is not None:
            self.do_viewer(f"{self.viewer[0]}:{self.viewer[1] + 1}")

    def do_viewer_back(self, arg: str) -> None:
        """Back to the score sheet it was opened from (a pending one: with the review)."""
        self.viewer = None
        pending = self.dialog_kind == "sheet-pending"
        practice = pending and self.practice_over()
        dialogs.score_sheet(models.sheet_model(self.view(), pending=pending, practice=practice,
                                               replay=True))
        if pending:
            state = self.state
            review, computing = self.reviews.get(hand_viewer.hand_key(state.past_hands[-1]))
            if review is not None or computing:
                dialogs.review_panel(dict(review) if review is not None else None)
            focus = self.practice_focus if practice else None
            if focus is not None and review is not None:
                self.show_practice_report(state, focus, dict(review))
            elif focus is not None and computing:
                dialogs.practice_panel(None)

    def do_sheet_next(self, arg: str) -> None:
        dialogs.close_dialog()

    def do_close(self, arg: str) -> None:
        dialogs.close_dialog()

    def do_dismiss(self, arg: str) -> None:
        render.dismiss_notice(arg)

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

    def do_new(self, arg: str) -> None:
        self.ask_new_game(deal=self.random_deal())

    def do_replay(self, arg: str) -> None:
        if self.game is not None:
            self.ask_new_game(deal=int(self.state.deal or 0), daily=self.game.daily)

    def do_daily(self, arg: str) -> None:
        """Today's deal: the table when it is the game in progress; once its result is in,
        a dialog that says so and offers it again; else a new game of it."""
        self.end_practice()
        today = self.today_number()
        game = self.game
        if (game is not None and game.daily and game.state.deal == today
                and game.state.phase is not Phase.OVER):
            dialogs.close_dialog()
            self.show_screen("table")
            return
        result = self.stats["daily"].get(str(today))
        if result is not None:
            dialogs.daily_done(i18n.day_text(today), bool(result["won"]),
                               (int(result["ns"]), int(result["ew"])))
            self.dialog_kind = "daily-done"
            return
        self.ask_new_game(deal=today, daily=True)

    def do_daily_again(self, arg: str) -> None:
        self.ask_new_game(deal=self.today_number(), daily=True)

    def do_new_yes(self, arg: str) -> None:
        kwargs, self.pending_new = self.pending_new, None
        self.dialog_kind = ""
        if kwargs is not None:
            self.new_game(**kwargs)

    def do_new_no(self, arg: str) -> None:
        """Keep playing: back to the table, the game in progress untouched."""
        self.pending_new = None
        dialogs.close_dialog()
        self.show_screen("table")
        render.focus_hand_or_panel()

    def do_share(self, arg: str) -> None:
        deal = int(self.state.deal or 0) if self.game else 0
        url = f"{js.location.origin}{js.location.pathname}?deal={deal}"

        async def copy() -> None:
            copied = False
            try:
                await js.navigator.clipboard.writeText(url)
                copied = True
            except Exception:
                copied = False
            dialogs.share_result(url, copied)

        dialogs.share_result(url, False)
        self.schedule(copy())

    def do_rules(self, arg: str) -> None:
        i18n.load("rules", "faq")
        dialogs.rules_dialog("rules")
        self.dialog_kind = "rules"

    def do_faq(self, arg: str) -> None:
        i18n.load("rules", "faq")
        dialogs.rules_dialog("faq")
        self.dialog_kind = "rules"

    def do_options(self, arg: str) -> None:
        dialogs.options_dialog(self.options)
        self.dialog_kind = "options"

    def do_stats(self, arg: str) -> None:
        dialogs.stats_dialog(self.stats)
        self.dialog_kind = "stats"

    def do_stats_reset(self, arg: str) -> None:
        dialogs.stats_confirm()

    def do_stats_reset_yes(self, arg: str) -> None:
        self.stats = stats_mod.empty()
        self.store("stats", self.stats)
        dialogs.stats_dialog(self.stats, done=True)

    def do_stats_reset_no(self, arg: str) -> None:
        dialogs.stats_dialog(self.stats)

    def do_lessons(self, arg: str) -> None:
        self.show_screen("lessons")

    def do_progress(self, arg: str) -> None:
        self.show_screen("progress")

    def do_welcome(self, arg: str) -> None:
        self.show_screen("welcome")

    def do_welcome_learn(self, arg: str) -> None:
        """The welcome's "Learn the rules": the first lesson (the rules' first), opened."""
        self.open_lesson(lambda lesson: True)

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
            game_over = None if self.game is None else self.state.phase is Phase.OVER
            if self.in_room():
                game_over = False  # the room's table to go back to
            render.menu(models.menu_model(game_over, self.today_number(), self.stats,
                                          in_room=self.in_room()))
        if name == "welcome":
            render.welcome()
        if name == "progress":
            if self.progress is None:
                name = "menu"
            else:
                self.progress.show()
        self.screen = name
        render.show_screen(name)
        if name == "table":
            self.render()
            self.schedule(self.run())  # the bots play on where they stopped


    def start_game(self, deal: int, level: str, hints_on: bool = True,
                   target: int | None = None) -> None:
        """Start deal ``deal`` against ``level`` bots on the table (a practice game for
        lessons); an unfinished game in progress is replaced only once the player agrees."""
        self.ask_new_game(deal=int(deal), level=level, hints_on=hints_on, target=target)

    async def engine_job(self, method: str, args: tuple[Any, ...],
                         steps: Callable[[], Generator[None, None, str]]) -> str:
        """``ui.shared.ports.Port.engine_job``: through the bots' runner, as the hint is (a job of
        a second or less; the coach's worker may be busy with a par for minutes)."""
        return await self.bots.short_job(method, args, steps)

    def start_practice(self, state: GameState, level: str, hints_on: bool = True,
                       situation: str = "", tips: tuple[str, ...] = ()) -> None:
        """A lesson's practice: the one hand starting at ``state``, then its review and how
        the lesson's tips (``tips``, for ``situation``) went, then back to the lessons. It is
        played in its own slot: the game in progress is set aside, not asked about, and
        comes back as it was."""
        self.new_game(deal=int(state.deal or 0), level=level, hints_on=hints_on, state=state,
                      practice=True)
        self.practice_focus = (situation, tuple(tips)) if situation and tips else None
