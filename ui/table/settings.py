"""The options and the statistics at the solo table: the page's look and language, the
options dialog and what each change does, the statistics dialog and its reset.

``Settings`` changes the page controller's ``options`` and ``stats`` (loaded at boot) and
stores them.
"""

from __future__ import annotations

from typing import Any

import js  # type: ignore[import-not-found]

from ..shared import i18n
from ..shared import options as opts
from ..shared.i18n import t
from . import dialogs, render
from . import stats as stats_mod
from .flow import GameFlow


class Settings:
    def __init__(self, app: Any) -> None:
        self.app = app  # the page's controller (ui.table.app.App)
        self.flow: GameFlow = app.flow  # the game on the table

    def apply_look(self) -> None:
        body = js.document.body
        classes = [c for c in str(body.className).split() if not c.startswith(("felt-", "back-"))]
        classes = [c for c in classes if c != "four-colour"]
        classes += [f"felt-{self.app.options['felt']}", f"back-{self.app.options['back']}"]
        if self.app.options["four_colour"]:
            classes.append("four-colour")
        body.className = " ".join(classes)
        js.document.documentElement.lang = i18n.language()
        js.document.title = t("app.title")
        render.translate_static()

    def save_options(self) -> None:
        self.app.store("options", self.app.options)

    def on_change(self, target: Any) -> None:
        """A field of the options dialog changed (``data-option``): the option is stored and
        the page follows it (the look, the language, the hint shown, the Expert's worker)."""
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
        self.app.options[name] = value
        self.save_options()
        if name == "language":
            i18n.set_language(value)  # apply_look says the message again in the language
        if name == "hints" and not value:  # the hint shown goes with the Hint button
            self.flow.hinted = None
            if self.app.rooms is not None:
                self.app.rooms.forget_hint()
            render.clear_message("hint")
        self.apply_look()
        self.flow.render()
        if name == "hints":  # worked out ahead while they are on, dropped when off
            self.app.moves.hint_ahead()
        if name == "language":
            dialogs.options_dialog(self.app.options)
        if name == "level" and value in self.app.bots_worker_levels():
            self.app.bots.start_worker()

    def do_options(self, arg: str) -> None:
        dialogs.options_dialog(self.app.options)
        self.app.dialog_kind = "options"

    def do_stats(self, arg: str) -> None:
        dialogs.stats_dialog(self.app.stats)
        self.app.dialog_kind = "stats"

    def do_stats_reset(self, arg: str) -> None:
        dialogs.stats_confirm()

    def do_stats_reset_yes(self, arg: str) -> None:
        self.app.stats = stats_mod.empty()
        self.app.store("stats", self.app.stats)
        dialogs.stats_dialog(self.app.stats, done=True)

    def do_stats_reset_no(self, arg: str) -> None:
        dialogs.stats_dialog(self.app.stats)

