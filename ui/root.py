"""The composition root (browser only): builds the controller and hands it the screens.

The table's controller (``ui/table/app.py``) draws through ``ui/table/render.py`` and
``ui/table/dialogs.py``;
the lessons screen is given to it as a loader, imported only when the lessons open (the
first screen stays fast), and it receives the controller as a ``ui.shared.ports.Port``.
Nothing imports this module but ``ui/main.py``.
"""

from __future__ import annotations

import importlib
from typing import Any

from .shared.ports import Port
from .table.app import App


def open_lessons(section: Any, port: Port) -> Any:
    """Import the lessons screen on first use and draw it into ``section``."""
    module = importlib.import_module("ui.lessons.lessons_screen")
    return module.mount(section, port)


def make_rooms(app: App) -> Any:
    """The rooms' controller over the table's (``?room=`` links, the rooms' dialogs)."""
    from .rooms.rooms import Rooms

    return Rooms(app)


def build() -> App:
    from .progress.progress import Progress

    app = App(open_lessons=open_lessons, make_rooms=make_rooms)
    app.progress = Progress(app)  # the Progress screen's controller over the table's
    return app
