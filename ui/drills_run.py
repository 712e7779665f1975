"""One drill under way (pure, no browser import): its ten items, one at a time.

The Drills tab of the lessons screen is to draw from this: the current item, whether it was
answered and how, the score so far, and the end.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from spades_core.errors import UsageError
from spades_core.lessons.drills import DRILLS, ITEMS, Answer, Item, item, judge, score


@dataclass
class DrillRun:
    drill: str
    index: int = 0
    right: list[bool] = field(default_factory=list)
    answered: bool = False
    _item: Item | None = None

    def __post_init__(self) -> None:
        if self.drill not in DRILLS:
            raise UsageError(f"no drill {self.drill!r}")

    @property
    def current(self) -> Item:
        if self._item is None:
            self._item = item(self.drill, self.index)
        return self._item

    def answer(self, given: Answer) -> bool:
        """Judge ``given`` once per item; a second answer to the same item is refused."""
        if self.answered or self.finished:
            raise UsageError("this item is already answered")
        verdict = judge(self.index, self.current, given)
        self.right.append(verdict)
        self.answered = True
        return verdict

    def next(self) -> bool:
        """Go on to the next item; False at the end (after the tenth)."""
        if not self.answered:
            raise UsageError("answer the item first")
        self.index += 1
        self.answered = False
        self._item = None
        return not self.finished

    @property
    def finished(self) -> bool:
        return self.index >= ITEMS

    @property
    def score(self) -> int:
        return score(self.right)
