"""What the menu and the table's bar open at the solo table: a new game, the same deal again,
today's deal (or the dialog saying it is played), sharing the deal, the rules and the FAQ, the
last trick and the score sheet.

``Menus`` asks the game's flow for a new game (``GameFlow.ask_new_game``: the question first
when a game in progress would be lost) and draws its dialogs through ``dialogs``.
"""

from __future__ import annotations

from typing import Any

import js  # type: ignore[import-not-found]

from spades_core import Phase
from spades_core.rules import winning_play

from ..shared import i18n, models
from . import dialogs
from .flow import GameFlow


class Menus:
    def __init__(self, app: Any) -> None:
        self.app = app  # the page's controller (ui.table.app.App)
        self.flow: GameFlow = app.flow  # the game on the table

    def do_new(self, arg: str) -> None:
        self.flow.ask_new_game(deal=self.app.random_deal())

    def do_replay(self, arg: str) -> None:
        if self.flow.game is not None:
            self.flow.ask_new_game(deal=int(self.flow.state.deal or 0), daily=self.flow.game.daily)

    def do_daily(self, arg: str) -> None:
        """Today's deal: the table when it is the game in progress; once its result is in,
        a dialog that says so and offers it again; else a new game of it."""
        self.flow.end_practice()
        today = self.app.today_number()
        game = self.flow.game
        if (game is not None and game.daily and game.state.deal == today
                and game.state.phase is not Phase.OVER):
            dialogs.close_dialog()
            self.app.show_screen("table")
            return
        result = self.app.stats["daily"].get(str(today))
        if result is not None:
            dialogs.daily_done(i18n.day_text(today), bool(result["won"]),
                               (int(result["ns"]), int(result["ew"])))
            self.app.dialog_kind = "daily-done"
            return
        self.flow.ask_new_game(deal=today, daily=True)

    def do_daily_again(self, arg: str) -> None:
        self.flow.ask_new_game(deal=self.app.today_number(), daily=True)

    def do_share(self, arg: str) -> None:
        deal = int(self.flow.state.deal or 0) if self.flow.game else 0
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
        self.app.schedule(copy())

    def do_rules(self, arg: str) -> None:
        i18n.load("rules", "faq")
        dialogs.rules_dialog("rules")
        self.app.dialog_kind = "rules"

    def do_faq(self, arg: str) -> None:
        i18n.load("rules", "faq")
        dialogs.rules_dialog("faq")
        self.app.dialog_kind = "rules"

    def do_last(self, arg: str) -> None:
        # Until the first trick of a hand is complete, the previous hand's last trick: the
        # one seen being played (self.flow.last_trick), or after a reload the finished hand's;
        # once the game is over, its final trick (models.shown_last_trick).
        trick, previous = models.shown_last_trick(self.flow.view(), self.flow.last_trick)
        winner = winning_play(trick)[0] if trick else None
        dialogs.last_trick_dialog(models.last_trick_model(trick, winner, previous))
        self.app.dialog_kind = "last"

    def do_sheet(self, arg: str) -> None:
        dialogs.score_sheet(models.sheet_model(self.flow.view(), pending=False, replay=True))
        self.app.dialog_kind = "sheet"

    def do_sheet_next(self, arg: str) -> None:
        dialogs.close_dialog()

