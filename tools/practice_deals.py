"""Find, for each strategy lesson, a practice deal where the taught situation arises for South.

    python3 tools/practice_deals.py            # search and print the deal found for each lesson
    python3 tools/practice_deals.py --write    # ... and write it into the lesson files
    python3 tools/practice_deals.py --check    # replay the files' deals (exit 1 if one fails)
    python3 tools/practice_deals.py --mend     # keep the deals that still work, search and
                                               # write new ones for the others (after a bot change)

The practice step of a strategy lesson names a ``situation`` (``spades_core.lessons.SITUATIONS``)
and a ``hand`` of the deal (from 1; its dealer sets South's place in the bidding). For deal
numbers from ``--start`` on, the hands before it are played by the normal bots
(``practice_state``), then the practice hand is played with the step's bots for North, East
and West and the coach (the Expert) for South, as far as the situation needs
(``stop_for``); the first deal where ``situation_arises`` is kept. Deals already chosen for
another lesson are skipped, so each lesson has its own hand.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from spades_core.lessons import PracticeStep, load_library_dir  # noqa: E402
from spades_core.lessons.practice import (  # noqa: E402
    hand_actions,
    play_hand,
    practice_state,
    situation_arises,
    stop_for,
)


def replay(step: PracticeStep, deal: int) -> tuple[bool, str]:
    """Whether the step's situation arises on ``deal``, and a line saying what happened."""
    start = practice_state(deal, step.hand)
    end = play_hand(start, step.level, stop=stop_for(step.situation))
    bids = " ".join(f"{seat.name}:{bid}" for seat, bid in hand_actions(end))
    return situation_arises(step.situation, end), f"dealer {start.dealer.name}, bids {bids}"


def search(step: PracticeStep, start: int, limit: int, taken: set[int]) -> tuple[int, str, int]:
    for deal in range(start, start + limit):
        if deal in taken:
            continue
        found, line = replay(step, deal)
        if found:
            return deal, line, deal - start + 1
    raise SystemExit(f"no deal in {start}..{start + limit - 1} for {step.situation}")


def write_deal(path: Path, deal: int) -> None:
    text = path.read_text(encoding="utf-8")
    data = json.loads(text)
    old = data["steps"][-1]["deal"]
    head, sep, tail = text.rpartition(f'"deal": {old}')
    if not sep:
        raise SystemExit(f"{path.name}: no \"deal\": {old} to replace")
    path.write_text(head + f'"deal": {deal}' + tail, encoding="utf-8")
    assert json.loads(path.read_text(encoding="utf-8"))["steps"][-1]["deal"] == deal


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--start", type=int, default=1, help="first deal number tried")
    parser.add_argument("--limit", type=int, default=400, help="deal numbers tried per lesson")
    parser.add_argument("--write", action="store_true", help="write the deals into lessons/")
    parser.add_argument("--check", action="store_true", help="replay the deals of the files")
    parser.add_argument("--mend", action="store_true",
                        help="write new deals only where the files' deals no longer work")
    args = parser.parse_args()
    library = load_library_dir(ROOT / "lessons")
    taken: set[int] = set()
    failed = 0
    broken: set[str] = set()
    if args.mend:
        for lesson in library.lessons:
            step = lesson.steps[-1]
            if lesson.group == "strategy" and isinstance(step, PracticeStep):
                if replay(step, step.deal)[0]:
                    taken.add(step.deal)
                else:
                    broken.add(lesson.id)
    for lesson in library.lessons:
        step = lesson.steps[-1]
        if lesson.group != "strategy" or not isinstance(step, PracticeStep):
            continue
        began = time.perf_counter()
        if args.check:
            found, line = replay(step, step.deal)
            failed += not found
            verdict = "arises" if found else "DOES NOT ARISE"
            print(f"{lesson.id:36} {step.situation:22} hand {step.hand} deal {step.deal:>5}: "
                  f"{verdict}; {line}")
            continue
        if args.mend and lesson.id not in broken:
            print(f"{lesson.id:36} {step.situation:22} hand {step.hand} deal {step.deal:>5}: kept")
            continue
        deal, line, tried = search(step, args.start, args.limit, taken)
        taken.add(deal)
        seconds = time.perf_counter() - began
        print(f"{lesson.id:36} {step.situation:22} hand {step.hand} deal {deal:>5} "
              f"({tried} tried, {seconds:.1f} s); {line}")
        if args.write or args.mend:
            write_deal(ROOT / "lessons" / lesson.file.rsplit("/", 1)[-1], deal)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
