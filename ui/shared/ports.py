"""How the screens talk to the controller, and the one event convention (pure Python).

A renderer declares a callback by name: ``data-action="play" data-arg="QS"`` on an element.
A click on it (or inside it) is read by :func:`read_action` and given to the owner's
:func:`dispatch`, which calls ``owner.do_play("QS")`` (dashes become underscores); a
controller made of several, each of one concern, finds the one handler among them with
:func:`handler_of`. The table's controller (``ui/table/app.py``) and the lessons screen
(``ui/lessons/lessons_screen.py``) follow the same convention; the lessons screen reaches
the controller only through :class:`Port`, which the composition root (``ui/root.py``) hands
to it. A field that acts when it changes (a seat picker) says so with ``data-change``
(:func:`read_change`).
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterable
from typing import Any, Protocol


class Port(Protocol):
    """What a screen may ask of the controller."""

    def dispatch(self, name: str, arg: str = "") -> bool:
        """Run the controller's action ``name`` (``"menu"``, ``"new"``...) with ``arg``."""
        ...

    def show_screen(self, name: str) -> None:
        """Switch to ``"table"``, ``"lessons"`` or ``"menu"``."""
        ...

    def start_game(self, deal: int, level: str, hints_on: bool = True,
                   target: int | None = None) -> None:
        """A game (or practice game) of deal ``deal`` on the table, asking first when an
        unfinished game would be replaced."""
        ...

    def start_practice(self, state: Any, level: str, hints_on: bool = True,
                       situation: str = "", tips: tuple[str, ...] = ()) -> None:
        """A lesson's practice: the one hand starting at ``state`` (a ``GameState`` about to
        be bid) on the table, then back to the lessons after its score sheet, which shows
        the coach's review and how the lesson's ``tips`` went (``situation``: the practice
        step's)."""
        ...

    async def engine_job(self, method: str, args: tuple[Any, ...],
                         steps: Callable[[], Generator[None, None, str]]) -> str:
        """Engine work that must not freeze the page (a drill's Expert answer): the text
        the bots' worker's ``method(*args)`` returns (``ui/botworker.py``), or, while no
        worker is ready (or when it fails), the same text from ``steps()`` run on the main
        thread in slices of about 20 ms."""
        ...


def handler_name(name: str) -> str:
    return "do_" + name.replace("-", "_")


def handler_of(owners: Iterable[object], name: str) -> Callable[[str], object] | None:
    """``do_<name>`` of the first of ``owners`` that has it (its controller of that
    concern), bound, or None when none has it or ``name`` is no action's name."""
    if not name or not name.replace("-", "").isalnum():
        return None
    wanted = handler_name(name)
    return next((getattr(owner, wanted) for owner in owners if hasattr(owner, wanted)), None)


def dispatch(owner: object, name: str, arg: str = "") -> bool:
    """Call ``owner.do_<name>(arg)``; False when the owner has no such action."""
    handler = handler_of((owner,), name)
    if handler is None:
        return False
    handler(arg)
    return True


def read_change(target: Any) -> tuple[str, str] | None:
    """A field changed: ``<select data-change="room-move" data-arg="W">`` set to ``"E"``
    is the action ``room-move`` with the argument ``"W:E"`` (its ``data-arg``, a colon, its
    new value); None for a field without ``data-change``."""
    if target is None or not hasattr(target, "getAttribute"):
        return None
    name = target.getAttribute("data-change")
    if not isinstance(name, str) or not name:
        return None
    arg = target.getAttribute("data-arg")
    value = getattr(target, "value", "")
    return name, f"{arg if isinstance(arg, str) else ''}:{value if isinstance(value, str) else ''}"


def read_action(target: Any) -> tuple[Any, str, str] | None:
    """The element carrying ``data-action`` at or above a click's target, its action and
    its ``data-arg`` (``""`` when absent); None when the click is on no action."""
    if target is None or not hasattr(target, "closest"):
        return None
    node = target.closest("[data-action]")
    if node is None or type(node).__name__ in ("JsNull", "JsUndefined"):
        return None
    name = node.getAttribute("data-action")
    arg = node.getAttribute("data-arg")
    return node, str(name or ""), "" if arg is None or not isinstance(arg, str) else arg
