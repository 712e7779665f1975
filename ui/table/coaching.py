"""The coach at the solo table: the review after each hand, the deal's par, the hand viewer.

``Coaching`` runs the coach's long jobs in its own worker (``BotRunner`` "coach"): the review
of the hand just finished while its score sheet is open (after a lesson's practice hand, with
the line on how the lesson's tip went), the deal's par in the end dialog (cached in storage),
and keeps the reviews for the hand viewer, which it drives (a finished hand trick by trick).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import js  # type: ignore[import-not-found]

from spades_core import GameState, HandResult, Seat
from spades_core.views import view_for

from ..shared import models
from ..shared.botrunner import COACH_NAME, BotRunner
from ..shared.i18n import t
from . import coach_cache, dialogs
from . import viewer as hand_viewer
from .flow import GameFlow
from .viewer_screen import viewer_dialog


@dataclass(frozen=True)
class Record:
    """A finished game that is not the table's (a board's game, from its record), shown in
    the score sheet and the hand viewer: its seats' and teams' names, the sheet's title and
    its way back (``(action, arg)``: the board it was opened from)."""

    state: GameState
    names: dict[str, str]
    teams: tuple[str, str]
    title: str
    back: tuple[str, str]


class Coaching:
    def __init__(self, app: Any) -> None:
        self.app = app  # the page's controller (ui.table.app.App)
        self.flow: GameFlow = app.flow  # the game on the table
        self.coach = BotRunner(COACH_NAME, "coach")  # the review and the par: long jobs
        self.par_cache: dict[str, Any] = {}
        self.reviews = hand_viewer.Reviews()  # the coach's reviews, kept for the hand viewer
        self.viewer: tuple[int, int] | None = None  # (hand, frame) while the viewer shows
        self.record: Record | None = None  # the game the sheet and viewer show, not the table's

    def start_review(self, state: GameState) -> None:
        """The review of the hand just finished, computed off the main thread while its
        score sheet is open ("computing…", then the items); after a lesson's practice hand,
        then the line on how the lesson's tip went."""
        hand_index = len(state.past_hands) - 1
        key = hand_viewer.hand_key(state.past_hands[hand_index])
        self.reviews.start(key)
        self.viewer = None  # the pending sheet took the dialog (a viewer open is gone)
        self.record = None
        dialogs.review_panel(None)
        focus = self.flow.practice_focus if self.flow.practice_over() else None
        if focus is not None:
            dialogs.practice_panel(None)

        game = self.flow.game
        level = game.level if game is not None else "normal"
        practice = self.flow.practice_end is not None  # (the practice may be over when it comes)

        def progress(done: int, count: int) -> None:  # "Reviewing… 4 of 13"
            if self.app.dialog_kind == "sheet-pending" and self.flow.state is state:
                dialogs.review_progress(done, count)

        async def work() -> None:
            try:
                data = await self.coach.review(  # the bots at the table: whom Nil odds assume
                    state, hand_index, progress, game.level if game is not None else None)
            except Exception as error:
                js.console.warn(f"review failed: {error!r}")
                data = {"items": [], "failed": True}
            if not data.get("failed"):
                self.judged(state, hand_index, data, level, practice)
            self.reviews.put(key, data)  # kept: the hand viewer shows its verdicts
            if self.viewer is not None and self.app.dialog_kind.startswith("sheet"):
                self.show_viewer()
            elif self.app.dialog_kind == "sheet-pending" and self.flow.state is state:
                dialogs.review_panel(data)
                if focus is not None:
                    self.show_practice_report(state, focus, data)

        self.app.schedule(work())

    def judged(self, state: GameState, hand_index: int, data: dict[str, Any], level: str,
               practice: bool) -> None:
        """A hand's review came: into the progress history (a solo or practice hand, not a
        room's), its figure on the review (``data["figure"]``), the game's on the end
        dialog if it shows."""
        progress = self.app.progress
        if progress is None or self.app.in_room():
            return
        try:
            data["figure"] = progress.hand_judged(
                state.past_hands[hand_index], data, level, int(state.deal or 0), practice)
        except Exception as error:  # the history never stops the review
            js.console.warn(f"progress not recorded: {error!r}")
            return
        try:  # its mistakes and blunders into "Your mistakes"
            progress.add_mistakes(state, hand_index, data)
        except Exception as error:
            js.console.warn(f"mistakes not kept: {error!r}")
        if self.app.dialog_kind == "end" and self.flow.state is state:
            self.show_game_figure(state)

    def show_game_figure(self, state: GameState) -> None:
        """The game's accuracy figure in the end dialog (from the progress history)."""
        game = self.flow.game
        if self.app.progress is None or game is None or self.flow.practising:
            return
        figure = self.app.progress.game_figure(game.level, int(state.deal or 0))
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
            return self.app.dialog_kind == "end" and self.flow.state is state

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
            self.app.store("par", self.par_cache)
            if wanted():
                dialogs.par_panel(data, state.scores[0])

        self.app.schedule(work())

    def show_par(self, state: GameState, cached: dict[str, Any]) -> None:
        """A cached par: the figure at once; where the game left it is worked out here
        (from the par game in memory, else played again hand by hand), so the line
        appears once the worker has it."""
        game = self.flow.game
        assert game is not None
        level = game.level
        deal = state.deal
        assert deal is not None
        key = coach_cache.key(deal, level, state.rules.to_dict())
        dialogs.par_panel({"par": cached["par"], "level": level, "pending": True},
                          state.scores[0])

        def wanted() -> bool:
            return self.app.dialog_kind == "end" and self.flow.state is state

        async def work() -> None:
            try:
                data = await self.coach.par_loop(key, state, level, wanted, lambda _: None)
            except Exception:
                return
            if data is not None and wanted():
                dialogs.par_panel(data, state.scores[0])

        self.app.schedule(work())

    # --- the hand viewer: a finished hand trick by trick, in the score sheet's dialog ------

    def hands(self) -> Sequence[HandResult]:
        """The finished hands the viewer steps through: the shown record's, or the table's."""
        if self.record is not None:
            return self.record.state.past_hands
        return self.flow.state.past_hands if self.flow.game is not None else ()

    def open_record(self, record: Record) -> None:
        """A game that is not the table's (a board's): its score sheet, each hand opening
        in the hand viewer, and the way back to where it came from."""
        self.record, self.viewer = record, None
        self.show_record_sheet()
        self.app.dialog_kind = "record"

    def show_record_sheet(self) -> None:
        record = self.record
        if record is None:
            return
        dialogs.score_sheet(models.sheet_model(
            view_for(record.state, Seat.S), pending=False, names=record.names,
            teams=record.teams, replay=True, title=record.title,
            back=(t("record.back"), *record.back)))

    def do_viewer(self, arg: str) -> None:
        """Open the viewer on ``arg``: ``"H"`` or ``"H:F"`` (hand index, frame)."""
        target = hand_viewer.parse_target(arg, self.hands())
        if target is not None:
            self.viewer = target
            self.show_viewer()

    def show_viewer(self) -> None:
        hands = self.hands()
        if self.viewer is None or not hands:
            return
        index, frame = self.viewer
        hand = hands[index]
        if self.record is not None:  # a board's game: named as at its table, not reviewed
            viewer_dialog(hand_viewer.viewer_model(hand, frame, names=self.record.names,
                                                   reviewed=False))
            return
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
        if self.record is not None:
            self.show_record_sheet()
            return
        pending = self.app.dialog_kind == "sheet-pending"
        practice = pending and self.flow.practice_over()
        dialogs.score_sheet(models.sheet_model(self.flow.view(), pending=pending, practice=practice,
                                               replay=True))
        if pending:
            state = self.flow.state
            review, computing = self.reviews.get(hand_viewer.hand_key(state.past_hands[-1]))
            if review is not None or computing:
                dialogs.review_panel(dict(review) if review is not None else None)
            focus = self.flow.practice_focus if practice else None
            if focus is not None and review is not None:
                self.show_practice_report(state, focus, dict(review))
            elif focus is not None and computing:
                dialogs.practice_panel(None)

    def viewer_key(self, event: Any, key: str) -> bool:
        """A key while the hand viewer shows: it steps through the hand (True: it was the
        viewer's)."""
        if self.viewer is None or not js.document.querySelector("dialog[open] #viewer"):
            return False
        hand = self.hands()[self.viewer[0]]
        frame = hand_viewer.frame_for_key(key, self.viewer[1], hand_viewer.frame_count(hand))
        if key in hand_viewer.KEY_STEPS:
            event.preventDefault()
        if frame is not None:
            self.do_viewer(f"{self.viewer[0]}:{frame}")
        return True
