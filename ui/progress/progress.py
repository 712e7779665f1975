"""The Progress screen's controller: the history of judged hands and the deck of "Your
mistakes" in storage, what the table's controller tells it (a hand judged, a game over), the
Progress screen, the "Your mistakes" screen (its positions judged in the coach's worker),
export and import.

Built by the composition root (``ui/root.py``) over the table's controller, which it reaches
only as a port (``storage``, ``store``, ``dispatch``); the table calls it back through the
attribute ``App.progress`` (no import of this module).
"""

from __future__ import annotations

import asyncio
import datetime
import json
import time
from collections.abc import Generator
from typing import Any

from spades_core.game import GameState, HandResult
from spades_core.mistakes import (
    RETIRED,
    ROUND,
    answer,
    items_from_data,
    judge_steps,
    merge,
    position_to_dict,
)

from ..shared.i18n import t
from . import deck, history, mistakes_screen, progress_screen

EXPORT_NAME = "spades-progress.json"
EPOCH = datetime.date(1970, 1, 1).toordinal()


def today() -> int:
    """The page's day: days since 1970-01-01 of the local date (the schedule's unit)."""
    try:
        import js  # type: ignore[import-not-found]

        now = js.Date.new()
        date = datetime.date(int(now.getFullYear()), int(now.getMonth()) + 1,
                             int(now.getDate()))
    except Exception:
        date = datetime.date.today()
    return date.toordinal() - EPOCH


class Progress:
    def __init__(self, app: Any) -> None:
        self.app = app  # the table's controller: storage, store(), show_screen()
        self.history: dict[str, Any] = history.empty()
        self._proxies: list[Any] = []
        self.status = ("", "")
        # the deck (``self.deck``: spades_core.mistakes.Item, the oldest first), off the
        # page's start: glanced at once it is ready (settle), read when first needed
        self.stored = deck.StoredDeck(app.storage, app.notice)
        self.round: list[str] = []  # the keys of the positions of the round shown
        self.at = 0  # the position shown in the round
        self.right = 0  # right answers this round
        self.skill = ""  # the skill practised ("": the day's round)
        self.answered: dict[str, Any] | None = None  # the verdict on the position shown
        self.judging = False
        self.failed = False

    # --- storage -----------------------------------------------------------------------

    def boot(self, notices: list[str]) -> None:
        """The stored history, read like every stored value: what cannot be read is
        dropped (a notice; only the bad part is reset)."""
        fresh = history.empty()
        try:
            value, damaged = self.app.storage.load("progress", history.check)
        except Exception:
            value, damaged = fresh, True
            self.app.storage.remove("progress")
        self.history = value
        if damaged:
            notices.append("notice.part-progress" if value != fresh else "notice.bad-progress")
        # The deck of "Your mistakes" is not read here: see settle (docs/progress.md).

    async def settle(self) -> None:
        """Once the page is ready and has drawn: the deck glanced at (a damage seen then is
        read in full and told), unless a screen has needed it already."""
        await asyncio.sleep(0.1)  # after the first frames
        if self.stored.schedule is None and self.stored.items is None:
            begin = time.perf_counter()
            self.stored.look()
            _show("progress-deck-glance-ms", f"{(time.perf_counter() - begin) * 1000:.1f}")

    @property
    def deck(self) -> list[Any]:
        """The deck, read (every item checked, its position replayed) when first needed; a
        damage found then is told at once."""
        found = self.stored.items
        if found is None:
            begin = time.perf_counter()
            found = self.stored.read()
            # the deck's reading time (every item checked and replayed): docs/progress.md
            _show("progress-deck-ms", f"{(time.perf_counter() - begin) * 1000:.1f}")
            _show("progress-deck-items", str(len(found)))
        return found

    @deck.setter
    def deck(self, items: list[Any]) -> None:
        self.stored.items = items

    def _store(self) -> None:
        self.app.store("progress", self.history)

    def _store_deck(self) -> None:
        self.app.store("mistakes", deck.to_data(self.deck))

    # --- what the table tells -----------------------------------------------------------

    def hand_judged(self, result: HandResult, review: dict[str, Any], level: str, deal: int,
                    practice: bool) -> dict[str, Any]:
        """A hand's review came: counted in the history (once); its accuracy figure."""
        summary = history.hand_summary(review)
        points, nil, bags = history.hand_facts(result)
        self.history = history.record_hand(self.history, level, deal, result.hand_index,
                                           summary, points, nil, bags, practice,
                                           history.hand_mark(result))
        self._store()
        return history.figure(history.summary_totals(summary))

    def add_mistakes(self, state: GameState, hand_index: int, review: dict[str, Any]) -> int:
        """A hand's review came: its mistakes and blunders into the deck (once per
        position); how many are new."""
        first = state.past_hands[0] if state.past_hands else None
        mark = history.hand_mark(first) if first is not None else 0
        game_key = f"{int(state.deal or 0)}-{mark}"
        new = items_from_data(review, state, game_key, today())
        before = len(self.deck)
        self.deck = merge(self.deck, new)
        if new:
            self._store_deck()
        return len(self.deck) - before

    def due_count(self) -> int:
        """The positions due today (the menu's count): the unread deck's schedule is enough."""
        return self.stored.due_count(today())

    def game_over(self, level: str, deal: int, won: bool) -> None:
        self.history = history.end_game(self.history, level, deal, won)
        self._store()

    def game_figure(self, level: str, deal: int) -> dict[str, Any] | None:
        """The game's accuracy figure so far (None: no hand of it judged yet)."""
        found = history.game_summary(self.history, level, deal)
        return None if found is None else history.figure(found)

    # --- the screen ---------------------------------------------------------------------

    def show(self, name: str = "progress") -> None:
        from ..shared import i18n

        i18n.load("progress")
        if name == "mistakes":
            self.draw_mistakes()
            return
        self.status = ("", "")
        self.draw()

    def draw(self) -> None:
        model = history.model(self.history)
        model["due"] = self.due_count()
        model["deck"] = len(self.deck)
        model["practise"] = {skill: len(deck.queue(self.deck, today(), 1, skill)) > 0
                             for skill in {row["skill"] for row in model["skills"]}}
        progress_screen.draw(model, *self.status)
        self._listen_file()

    # --- "Your mistakes" ----------------------------------------------------------------

    def do_mistakes(self, arg: str) -> None:
        """The "Your mistakes" screen: a round of the positions due today, or (``arg``, a
        skill) that skill's positions."""
        self.skill = arg if arg in {item.skill for item in self.deck} else ""
        self.round = deck.queue(self.deck, today(), ROUND, self.skill)
        self.at, self.right = 0, 0
        self.answered, self.judging, self.failed = None, False, False
        self.app.show_screen("mistakes")
        mistakes_screen.to_top()

    def _item(self) -> Any:
        if self.at >= len(self.round):
            return None
        return next((item for item in self.deck if item.key == self.round[self.at]), None)

    def mistakes_model(self) -> dict[str, Any]:
        item = self._item()
        model: dict[str, Any] = {"skill": self.skill, "at": self.at, "count": len(self.round),
                                 "right": self.right, "answer": self.answered, "item": None}
        if item is None:
            model["state"] = "done" if self.round else "empty"
            model["more"] = len(deck.queue(self.deck, today(), 1000, self.skill))
            return model
        model["state"] = ("judging" if self.judging else "failed" if self.failed
                          else "ask" if self.answered is None
                          else "right" if self.answered["right"] else "wrong")
        board = deck.board_model(item)
        model["item"] = {**deck.item_to_dict(item), "kind": board["kind"], "board": board}
        return model

    def draw_mistakes(self) -> None:
        mistakes_screen.draw(self.mistakes_model())

    def do_mistake_answer(self, arg: str) -> None:
        item = self._item()
        if item is None or self.judging or self.answered is not None:
            return
        self.judging, self.failed = True, False
        self.draw_mistakes()
        self.app.schedule(self._judge(item, arg))

    async def _judge(self, item: Any, token: str) -> None:
        position = item.position

        def steps() -> Generator[None, None, str]:
            found = yield from judge_steps(position, token)
            return json.dumps(found)

        try:
            text = await self.app.coach_job(
                "judge", (json.dumps(position_to_dict(position)), token), steps)
            found = json.loads(text)
            right = bool(found["right"])
        except Exception as error:
            self._warn(f"answer not judged: {error!r}")
            self.judging, self.failed = False, True
            self.draw_mistakes()
            return
        day = today()
        moved = answer(item, right, day)
        self.deck = [moved if entry.key == item.key else entry for entry in self.deck]
        self._store_deck()
        self.right += 1 if right else 0
        self.judging = False
        self.answered = {"chosen": token, "right": right, "best": str(found["best"]),
                         "cost": int(found["cost"]),
                         "moved": {"box": moved.box, "days": max(0, moved.due - day),
                                   "retired": moved.box >= RETIRED}}
        if self.app.screen == "mistakes":
            self.draw_mistakes()

    def do_mistake_next(self, arg: str) -> None:
        self.at += 1
        self.answered, self.failed = None, False
        self.draw_mistakes()
        mistakes_screen.to_top()

    @staticmethod
    def _warn(text: str) -> None:
        try:
            import js

            js.console.warn(text)
        except Exception:
            pass

    def _listen_file(self) -> None:
        try:
            import js
            from pyodide.ffi import create_proxy  # type: ignore[import-not-found]

            node = js.document.getElementById("progress-file")
            if node is None:
                return
            proxy = create_proxy(self.on_file)
            self._proxies.append(proxy)
            node.addEventListener("change", proxy)
        except Exception:
            pass

    def do_progress_export(self, arg: str) -> None:
        import js
        from pyodide.ffi import to_js

        text = history.export_text(self.history, deck.to_data(self.deck))
        blob = js.Blob.new(to_js([text]), to_js({"type": "application/json"},
                                                  dict_converter=js.Object.fromEntries))
        url = js.URL.createObjectURL(blob)
        link = js.document.createElement("a")
        link.href = url
        link.download = EXPORT_NAME
        js.document.body.appendChild(link)
        link.click()
        link.remove()
        js.URL.revokeObjectURL(url)
        self.status = (t("progress.export.done"), "pg-ok")
        self.draw()

    def on_file(self, event: Any) -> None:
        files = getattr(event.target, "files", None)
        if files is None or not files.length:
            return
        self.app.schedule(self._read(files.item(0)))

    async def _read(self, file: Any) -> None:
        try:
            text = str(await file.text())
        except Exception:
            text = ""
        self.import_text(text)

    def import_text(self, text: str) -> bool:
        """Take an exported file's history, or refuse it with a message (nothing changes)."""
        found, items, reason = deck.import_file(text)
        if found is None:
            self.status = (t(reason), "pg-bad")
            self.draw()
            return False
        self.history = found
        self._store()
        if items is not None:  # a file without a deck (made before it) leaves the deck
            self.deck = items
            self._store_deck()
        self.status = (t("progress.import.done"), "pg-ok")
        self.draw()
        return True


def _show(name: str, value: str) -> None:
    """``<body data-NAME=value>`` when there is a page."""
    try:
        import js

        js.document.body.setAttribute(f"data-{name}", value)
    except Exception:
        pass
