"""The page's start at the solo table: what is stored, the address, the painted table.

``Boot`` reads what is stored (the options, the statistics, the saved game, the pars' cache),
each checked, a damaged key rewritten and told in a notice; reads the address (``?deal=``, a
later day's daily deal; ``?room=``, handed to the rooms' controller); decides the first game
(the saved one, the linked deal, asking before a game in progress is replaced, or a random
deal) and the welcome of a first visit. It takes over the table ``ui/paint.js`` painted
before Python (``render.take_paint``) and, once the page is interactive, plays the move a
click on that painted table kept, if the game is still at the point painted.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import js  # type: ignore[import-not-found]

from ..shared import i18n
from ..shared import options as opts
from ..shared.i18n import t
from ..shared.storage import check_seen
from . import coach_cache, deals, render, savegame, welcome
from . import stats as stats_mod
from .flow import GameFlow


class Boot:
    def __init__(self, app: Any) -> None:
        self.app = app  # the page's controller (ui.table.app.App)
        self.flow: GameFlow = app.flow  # the game on the table
        # what the table painted before Python (ui/paint.js) kept: render.take_paint()
        self.painted: dict[str, str] | None = None

    def boot(self) -> None:
        app, flow = self.app, self.flow
        # first: the painted table gives way to the page's own nodes, drawn below in this task
        self.painted = render.take_paint()
        browser_langs = [str(x) for x in (js.navigator.languages or [js.navigator.language])]
        app.storage.drop_old()
        notices: list[str] = []
        app.options = self.load(
            "options", lambda d: opts.validate(d, i18n.pick_language(browser_langs)),
            "notice.bad-options", notices, "notice.part-options",
        )
        i18n.set_language(app.options["language"])
        i18n.load()
        app.stats = self.load("stats", stats_mod.validate, "notice.bad-stats", notices,
                              "notice.part-stats")
        if app.progress is not None:
            app.progress.boot(notices)
        game = self.load("game", savegame.check, "notice.bad-game", notices)
        try:  # a cache: unreadable is empty, and no notice
            app.coaching.par_cache = app.storage.load("par", coach_cache.check)[0] or {}
        except Exception:
            app.coaching.par_cache = {}
        app.settings.apply_look()
        app.listen()
        wanted, bad_deal = self.url_deal()
        if bad_deal:  # a bad link keeps the saved game, or starts a random one
            notices.append("notice.bad-deal-kept" if game is not None else "notice.bad-deal")
        early = None  # a later day's daily deal: it opens on its day
        if wanted is not None and deals.future_daily(wanted, app.today_number()):
            early, wanted = wanted, None
        restored = False
        asked: dict[str, Any] | None = None
        if wanted is not None and not (game is not None and game.state.deal == wanted
                                       and not game.recorded):
            # today's deal by link is the daily deal, exactly as from the menu
            link: dict[str, Any] = {"deal": wanted, "daily": wanted == app.today_number()}
            flow.game = game
            if flow.in_progress():  # a link does not throw away a game in progress: ask
                restored, asked = True, link
            else:
                flow.new_game(start=False, **link)
        elif game is not None:
            flow.game = game
            restored = True
        else:
            flow.new_game(app.random_deal(), start=False)
        if app.storage.write_failed and not app.told_unsaved:
            app.told_unsaved = True
            notices.append("notice.no-save")
        for key in notices:
            render.notice(t(key), key)
        if early is not None:
            render.notice(t("notice.daily-early", date=i18n.day_text(early)), "notice.daily-early")
        render.enable_controls()
        try:
            flow.render()
        except Exception as error:
            if not restored:
                raise
            # A saved game that passed its checks but cannot be shown: drop it, not the page.
            js.console.warn(f"saved game not shown: {error!r}")
            app.storage.remove("game")
            flow.new_game(app.random_deal(), start=False)
            render.notice(t("notice.bad-game"), "notice.bad-game")
            flow.render()
            asked = None
        if asked is not None:
            flow.ask_new_game(from_link=True, **asked)
        elif game is None and wanted is None and self.first_visit():
            app.show_screen("welcome")  # once: the menu has it too
            app.store("welcome", {"seen": True})
        self.boot_rooms()

    def first_visit(self) -> bool:
        """No game was ever saved here, the welcome was never shown, and no room link was
        followed: the welcome comes before the table."""
        if js.URLSearchParams.new(js.location.search).has("room"):
            return False
        try:
            value, _ = self.app.storage.load("welcome", check_seen)
        except Exception:
            return False  # unreadable storage: no welcome rather than one at every visit
        return not value["seen"]

    def boot_rooms(self) -> None:
        """The rooms' controller; ``?room=CODE`` joins or resumes that room. A failure here
        leaves solo play as it is."""
        app = self.app
        try:
            if app.make_rooms is None:
                raise LookupError("no rooms controller")
            app.rooms = app.make_rooms(app)
            app.rooms.from_link()
        except Exception as error:
            js.console.warn(f"rooms not available: {error!r}")
            app.rooms = None

    def load(
        self, name: str, check: Callable[[Any], tuple[Any, bool]], notice: str,
        notices: list[str], part_notice: str = "",
    ) -> Any:
        """The checked value of storage key ``name``; on damage (or any error while reading)
        the key is rewritten with what could be read and ``notice`` is queued, or
        ``part_notice`` when something was kept. Nothing stored can stop the boot."""
        storage = self.app.storage
        fresh = check(None)[0]
        try:
            value, damaged = storage.load(name, check)
        except Exception:
            value, damaged = fresh, True
            storage.remove(name)
        if damaged:
            notices.append(part_notice if part_notice and value != fresh else notice)
        return value

    def after_ready(self) -> None:
        """Once interactive: a choice clicked on the painted welcome is opened; let the bots
        play, warm the expert's worker if needed; a card or bid clicked on the painted table
        is then played if it still may be."""
        app = self.app
        app.schedule(self.start_play(self.painted))
        self.painted = None
        if app.progress is not None:  # the deck of "Your mistakes", off the page's start
            app.schedule(app.progress.settle())
        if self.flow.game is not None and self.flow.game.level in app.bots_worker_levels():
            app.bots.start_worker()

    async def start_play(self, painted: dict[str, str] | None) -> None:
        """The bots' loop, then the move kept on the painted table (ui/paint.js): played
        through its own handler (which judges it) if the game is still at the point painted
        and the table is on screen with nothing over it; otherwise the player is told. A
        choice kept on the painted welcome is opened first (the same click, made now) if the
        welcome is on screen with nothing over it."""
        app, flow = self.app, self.flow
        verdict, action = welcome.kept_choice(
            painted, app.screen == "welcome" and not js.document.querySelector("dialog[open]"))
        if verdict == "open":
            app.dispatch(action, "")
        elif verdict == "drop":
            render.message(lambda: t("app.paint-choice-dropped"), refusal=True)
        await flow.run()
        if flow.game is None:
            return
        verdict, action, arg = savegame.kept_move(painted, savegame.paint_key(flow.state))
        shown = (app.screen == "table" and not app.in_room() and not flow.practising
                 and not js.document.querySelector("dialog[open]"))
        if verdict == "play" and shown:
            app.dispatch(action, arg)
        elif verdict != "none":
            render.message(lambda: t("app.paint-dropped"), refusal=True)

    @staticmethod
    def url_deal() -> tuple[int | None, bool]:
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
