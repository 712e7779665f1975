"""The time to judge a hand in CPython: every South decision of a hand weighed by the
review (``review_hand``), on the first 4 hands of deal 20261201 (South the Beginner, the
others Normal).  Usage: ``python3 tools/judge_time.py`` (docs/progress.md gives the figures).
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from spades_core import GameState, Seat
from spades_core.bots import bot_action, make_bot
from spades_core.review import review_hand

normal, beginner = make_bot("normal"), make_bot("beginner")
state = GameState.new(deal=20261201)
while len(state.past_hands) < 4:
    bot = beginner if state.to_act == Seat.S else normal
    state = state.apply(bot_action(bot, state))
times = []
for hand in range(4):
    begin = time.perf_counter()
    review = review_hand(state, hand)
    spent = time.perf_counter() - begin
    times.append(spent)
    each = spent / max(1, review.decisions) * 1000
    print(f"hand {hand + 1}: {review.decisions} decisions weighed, {spent:.2f} s, "
          f"{each:.0f} ms a decision")
print(f"median {statistics.median(times):.2f} s")
