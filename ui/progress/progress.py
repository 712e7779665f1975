"""The Progress screen's controller: the history of judged hands in storage, what the
table's controller tells it (a hand judged, a game over), the screen, export and import.

Built by the composition root (``ui/root.py``) over the table's controller, which it reaches
only as a port (``storage``, ``store``, ``dispatch``); the table calls it back through the
attribute ``App.progress`` (no import of this module).
"""

from __future__ import annotations

from typing import Any

from spades_core.game import HandResult

from ..shared.i18n import t
from . import history, progress_screen

EXPORT_NAME = "spades-progress.json"


class Progress:
    def __init__(self, app: Any) -> None:
        self.app = app  # the table's controller: storage, store(), show_screen()
        self.history: dict[str, Any] = history.empty()
        self._proxies: list[Any] = []
        self.status = ("", "")

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

    def _store(self) -> None:
        self.app.store("progress", self.history)

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

    def game_over(self, level: str, deal: int, won: bool) -> None:
        self.history = history.end_game(self.history, level, deal, won)
        self._store()

    def game_figure(self, level: str, deal: int) -> dict[str, Any] | None:
        """The game's accuracy figure so far (None: no hand of it judged yet)."""
        found = history.game_summary(self.history, level, deal)
        return None if found is None else history.figure(found)

    # --- the screen ---------------------------------------------------------------------

    def show(self) -> None:
        from ..shared import i18n

        i18n.load("progress")
        self.status = ("", "")
        self.draw()

    def draw(self) -> None:
        progress_screen.draw(history.model(self.history), *self.status)
        self._listen_file()

    def _listen_file(self) -> None:
        try:
            import js  # type: ignore[import-not-found]
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

        text = history.export_text(self.history)
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
        found, reason = history.import_text(text)
        if found is None:
            self.status = (t(reason), "pg-bad")
            self.draw()
            return False
        self.history = found
        self._store()
        self.status = (t("progress.import.done"), "pg-ok")
        self.draw()
        return True
