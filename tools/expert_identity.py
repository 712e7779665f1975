"""The Expert's decisions, evaluations and hints on a fixed set of positions, one JSON line
each: ``PYTHONPATH=. python3 tools/expert_identity.py OUT.jsonl [--deals 12]``.

For work that makes the search cheaper without changing it: run it before and after (on a
``git archive`` copy of the old commit, ``PYTHONPATH`` set to it) and compare the two files
(``cmp``); they must be byte-identical.  The positions are ``sample_views(deals=1..DEALS,
hands=3, every=3)`` (551 for 12 deals); each line holds the bot's decision, every candidate of
``evaluate`` (its action, total, deal count and a hash of its per-deal values) and the whole
hint (``hints.hint``'s repr).  About 100 s of CPU for 12 deals.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("out", help="the JSON lines file to write")
    parser.add_argument("--deals", type=int, default=12, help="deals 1..DEALS (default 12)")
    args = parser.parse_args()
    from spades_core.bots.expert import ExpertBot, evaluate
    from spades_core.bots.timing import sample_views
    from spades_core.game import Phase
    from spades_core.hints import hint

    views = sample_views(deals=tuple(range(1, args.deals + 1)), hands=3, every=3)
    bot = ExpertBot()
    start = time.process_time()
    with open(args.out, "w", encoding="utf-8") as out:
        for index, view in enumerate(views):
            decision = bot.bid(view) if view.phase is Phase.BIDDING else bot.play(view)
            found = evaluate(view)
            candidates = [(str(c.action), c.total, c.worlds,
                           hashlib.sha1(repr(c.values).encode()).hexdigest()[:12])
                          for c in found.candidates]
            out.write(json.dumps({"i": index, "decision": str(decision), "eval": candidates,
                                  "hint": repr(hint(view))}) + "\n")
    print(f"{len(views)} positions, {time.process_time() - start:.1f} s CPU", file=sys.stderr)


if __name__ == "__main__":
    main()
