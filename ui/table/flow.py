"""The game's flow on the solo table: which game is on the table, the bots' turns, the table drawn.

``GameFlow`` holds the game (a ``SavedGame``: the state, the level, the daily flag) and what the
table shows of it between two actions (whose turn South waits on, the trick being gathered, the
hint lit, Blind Nil armed). A new game is a new generation: a bots' loop of the game before
stops. A lesson's practice hand is a second slot beside the game in progress (``kept``), never
stored. It asks the page's controller (``app``) for the options, storage, the screen shown and
the rooms, and hands the end of a hand to the coach (``Coaching``).
"""

from __future__ import annotations

import asyncio
from typing import Any

import js  # type: ignore[import-not-found]

from spades_core import BLIND_NIL, Bid, Card, GameState, Phase, Rules, Seat
from spades_core.rules import DAILY_RULES, winning_play
from spades_core.views import view_for

from ..shared import i18n, models, sound
from ..shared import options as opts
from ..shared.i18n import t
from . import dialogs, pacing, render, savegame
from . import stats as stats_mod
from .savegame import SavedGame

S = Seat.S


def _sleep_ms(ms: int) -> Any:
    return asyncio.sleep(ms / 1000.0)


class GameFlow:
    def __init__(self, app: Any) -> None:
        self.app = app  # the page's controller (ui.table.app.App)
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
        # a bot's decision started during a trick's pacing: (its state, generation, task)
        self.early: tuple[GameState, int, asyncio.Future[Card | Bid]] | None = None

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
        kwargs = opts.rules_kwargs(self.app.options)
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
        level = level if level in savegame.LEVELS else self.app.options["level"]
        self.switch_to(SavedGame(state=state, level=level, daily=daily, hints=hints_on,
                                 sheets=len(state.past_hands)))  # a practice's earlier hands
        if self.app.rooms is not None:
            self.app.rooms.leave()
        render.message("")
        dialogs.close_dialog()
        self.save()
        if level in self.app.bots_worker_levels():
            self.app.bots.start_worker()
        self.announce(t("new.deal", deal=deal))
        if start:
            self.app.show_screen("table")  # draws the table and starts the bots' loop

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
        self.early = None
        self.app.bots.drop_ahead()

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
        self.app.dialog_kind = "confirm-new"

    def do_new_yes(self, arg: str) -> None:
        kwargs, self.pending_new = self.pending_new, None
        self.app.dialog_kind = ""
        if kwargs is not None:
            self.new_game(**kwargs)

    def do_new_no(self, arg: str) -> None:
        """Keep playing: back to the table, the game in progress untouched."""
        self.pending_new = None
        dialogs.close_dialog()
        self.app.show_screen("table")
        render.focus_hand_or_panel()

    def save(self) -> None:
        """Store the game in progress; a practice hand is never stored (its own slot is
        this page's memory), so the saved game stays the one set aside."""
        if self.game is not None and not self.practising:
            self.app.store("game", self.game.to_json())

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

    def dialog_closed(self, kind: str) -> None:
        """The dialog of ``kind`` closed: a pending score sheet seen lets the bots play on
        (or, after a lesson's practice hand, goes back to the lesson)."""
        if kind == "confirm-new":  # Escape: nothing changes, the player stays where they were
            self.pending_new = None
        if kind == "sheet-pending" and self.game is not None:
            self.game.sheets = len(self.state.past_hands)
            self.save()
            if self.practice_end is not None and self.game.sheets >= self.practice_end:
                self.end_practice()  # a lesson's practice hand is over: back to the lesson
                self.app.show_screen("lessons")
                return
            self.app.schedule(self.run())

    # --- the run loop -------------------------------------------------------------------

    async def run(self) -> None:
        """Play the bots' turns until South must act, a score sheet or the end is shown."""
        if self.running_gen == self.gen or self.game is None:
            return
        gen = self.running_gen = self.gen
        try:
            # only while the table is on screen: showing it again starts the loop again
            while gen == self.gen and self.app.screen == "table" and not self.app.in_room():
                state = self.state
                game = self.game
                if len(state.past_hands) > game.sheets:
                    self.waiting = False
                    self.render()
                    if self.app.dialog_kind != "sheet-pending":
                        dialogs.score_sheet(models.sheet_model(
                            self.view(), pending=True, practice=self.practice_over(),
                            replay=True))
                        self.app.dialog_kind = "sheet-pending"
                        self.app.coaching.start_review(state)
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
                        self.app.moves.hint_ahead()  # the hint ready before it is asked
                        return
                    # the only card South may play goes by itself, at a bot's pace
                    self.waiting = False
                    self.render()
                    await _sleep_ms(pacing.pace(self.app.options["speed"])["bot"])
                    if gen != self.gen or self.app.screen != "table":
                        return
                    await self.apply(only, gen)
                    continue
                self.waiting = False
                self.render()
                speed = self.app.options["speed"]
                start = js.performance.now()
                seat = state.to_act
                if seat is None:  # bidding or playing always has a seat to act
                    return
                if self.game.level in self.app.bots_worker_levels():
                    render.turn_text(t("thinking", seat=i18n.seat_name(seat.name)), False)
                action = await self.decide(state, gen)
                spent = float(js.performance.now() - start)
                delay = pacing.bot_delay(speed, spent)
                await _sleep_ms(delay)
                if gen != self.gen:
                    return
                await self.apply(action, gen)
        finally:
            if self.running_gen == gen:
                self.running_gen = -1

    async def decide(self, state: GameState, gen: int) -> Card | Bid:
        """The bot's action in ``state``: the decision started during the trick's pacing
        (:meth:`decide_early`) when it is for this state, else one asked now."""
        early, self.early = self.early, None
        if early is not None and early[0] is state and early[1] == gen:
            return await early[2]
        assert self.game is not None
        action: Card | Bid = await self.app.bots.decide(state, self.game.level)
        return action

    def decide_early(self, before: GameState, after: GameState, gen: int) -> None:
        """A trick just completed and a bot leads the next: its decision starts now, while
        the trick stays on the table and is gathered (the pacing the player sees is the
        same; the bot's card still comes a bot's pause after the gathering at the
        earliest: :meth:`run`).  A decision depends on the state alone: the same card."""
        self.early = None
        if (self.game is None or after.phase is not Phase.PLAYING or after.to_act in (None, S)
                or len(after.past_hands) != len(before.past_hands)):
            return
        self.early = (after, gen, asyncio.ensure_future(
            self.app.bots.decide(after, self.game.level)))

    def only_card(self, state: GameState) -> Card | None:
        """South's one legal card when the option plays it by itself, else None."""
        if state.phase is not Phase.PLAYING or not opts.auto_play(self.app.options):
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
        self.app.bots.drop_ahead()  # a hint worked out ahead was for the position before
        self.save()
        name = i18n.seat_name(seat.name)
        mine = ".you" if seat == S else ""
        if isinstance(action, Bid):
            self.announce(t("say.bid" + mine, seat=name, bid=i18n.bid_text(str(action))))
            self.render()
            return
        self.announce(t("say.play" + mine, seat=name, card=i18n.card_definite(str(action))))
        if self.app.options["sound"]:
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
        speed = pacing.pace(self.app.options["speed"])
        self.decide_early(before, after, gen)
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
        if self.app.options["sound"]:
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
            self.app.stats = stats_mod.record_game(self.app.stats, game.level, won, ns, daily, ew)
            self.app.store("stats", self.app.stats)
            if self.app.progress is not None:
                self.app.progress.game_over(game.level, int(state.deal or 0), won)
            game.recorded = True
            self.save()
            if self.app.options["sound"]:
                sound.play("win" if won else "lose")
            self.announce(t("end.won") if won else t("end.lost"))
        if self.app.dialog_kind != "end":
            dialogs.end_dialog(state.scores, int(state.deal or 0), game.level, won,
                               self.daily_line(state.deal if game.daily else None,
                                               state.scores))
            self.app.dialog_kind = "end"
            self.app.coaching.show_game_figure(state)
            self.app.coaching.start_par(state, game.level)
            if game.daily and self.app.rooms is not None and state.rules == DAILY_RULES:
                self.app.rooms.offer_daily(state, game.level)  # (a game saved before: its rules)

    def daily_line(self, number: int | None, scores: tuple[int, int] | None = None) -> str | None:
        if number is None:
            return None
        return models.daily_line(number, self.app.stats["daily"].get(str(number)), scores)

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
            speed=str(self.app.options["speed"]),  # the deal's motion (render.table)
            claim_on=True,
        )

    def render(self) -> None:
        if self.app.in_room():
            render.hold_paint()
            self.app.rooms.render()
            return
        if self.game is None:
            return
        render.table(models.table_model(self.view(), self.ui_state()))
        # the saved game's table is copied for the next visit's first paint (ui/paint.js)
        if self.practising:
            render.hold_paint()
        else:
            render.store_paint(savegame.paint_key(self.state))

    def announce(self, text: str) -> None:
        render.announce(text)

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
                          else await self.app.bots.decide(state, self.game.level))
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

    def hints_on(self) -> bool:
        return self.game is not None and self.game.hints and bool(self.app.options["hints"])

    def practice_over(self) -> bool:
        """Whether the hand just finished is a lesson's practice hand."""
        return (self.practice_end is not None and self.game is not None
                and len(self.state.past_hands) >= self.practice_end)

