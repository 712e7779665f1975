"""Where an arena's games are won and lost: its hands and its games by the state of the match.

    python3 lab/arena_states.py LOG [LOG ...]

LOG is the arena's ``--log`` (``python -m spades_core arena ... --log LOG``; several logs are
pooled). Before each hand, each side (``a``: the arena's ``--a``; ``b``: its ``--b``) is ahead
by 50 points or more, behind by 50 or more, or close; and the match is early, or late once a
team has 350 points. Per side and state: the hands played from it, the side's points a hand
minus the other side's, its contracts set, its Nil and Blind Nil bids. Then the games by the
first late hand a side starts behind by 50 or more (or ahead), by the margin then (50–149,
150–299, 300 or more): how many such games the side went on to win, so that the two bots'
comebacks and held leads compare from like positions. Last, ``first_hands``: each deal's first
hand, played both ways from 0–0 on the same cards, where both sides bid numbers only, by A's
contract less B's (``lab/hand_duel.py``'s ``by_contract``).

A contract set is read from the engine's scoring (:func:`spades_core.scoring.score_hand`).
Prints one JSON object. A malformed log is refused with one line on standard error (exit 2).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from arena_replay import Game, Key, a_won, read_log
from hand_duel import by_contract

from spades_core.bids import parse_bid
from spades_core.errors import UsageError
from spades_core.rules import Rules
from spades_core.scoring import score_hand

LEAD = 50  # ahead or behind by this much or more; closer is "close"
LATE = 350  # a team at this score or more: the match is late
MARGINS = ((50, "50-149"), (150, "150-299"), (300, "300+"))
_RULES = Rules()


def _state(mine: int, theirs: int) -> str:
    lead = mine - theirs
    place = "ahead" if lead >= LEAD else "behind" if lead <= -LEAD else "close"
    return f"{place}/{'late' if max(mine, theirs) >= LATE else 'early'}"


def _margin(lead: int) -> str:
    return [name for low, name in MARGINS if abs(lead) >= low][-1]


def tally(games: dict[Key, Game]) -> dict[str, Any]:
    """The figures of the module's description, for sides ``a`` and ``b``."""
    hands: dict[str, dict[str, dict[str, int]]] = {"a": {}, "b": {}}
    turns: dict[str, dict[str, dict[str, dict[str, int]]]] = {
        side: {"from_behind": {}, "from_ahead": {}} for side in ("a", "b")}
    for key, game in games.items():
        a_team = key[1]
        won = a_won(key, game)
        for side, team in (("a", a_team), ("b", 1 - a_team)):
            side_won = won if side == "a" else not won
            seen: set[str] = set()
            before = (0, 0)
            for hand in game:
                mine, theirs = before[team], before[1 - team]
                state = _state(mine, theirs)
                b = [parse_bid(bid) for bid in hand["bids"]]
                t = [int(taken) for taken in hand["tricks"]]
                score = score_hand((b[0], b[1], b[2], b[3]), (t[0], t[1], t[2], t[3]), (0, 0),
                                   _RULES)[team]
                row = hands[side].setdefault(state, {"hands": 0, "points": 0, "sets": 0,
                                                     "nil_bids": 0, "blind_nil_bids": 0})
                row["hands"] += 1
                row["points"] += hand["points"][team] - hand["points"][1 - team]
                row["sets"] += not score.made
                row["nil_bids"] += sum(not nil.blind for nil in score.nils)
                row["blind_nil_bids"] += sum(nil.blind for nil in score.nils)
                if state.endswith("/late") and not state.startswith("close"):
                    kind = "from_behind" if state.startswith("behind") else "from_ahead"
                    if kind not in seen:
                        seen.add(kind)
                        cell = turns[side][kind].setdefault(_margin(mine - theirs),
                                                            {"games": 0, "won": 0})
                        cell["games"] += 1
                        cell["won"] += side_won
                before = (hand["scores"][0], hand["scores"][1])
    result: dict[str, Any] = {"games": len(games),
                              "a_wins": sum(a_won(key, game) for key, game in games.items())}
    # each deal's first hand, played both ways from 0-0 on the same cards
    firsts = [[games[(deal, 0)][0], games[(deal, 1)][0]] for deal, team in sorted(games)
              if team == 0 and (deal, 1) in games]
    result["first_hands"] = by_contract(firsts)
    for side in ("a", "b"):
        states = {}
        for state, row in sorted(hands[side].items()):
            count = row["hands"]
            states[state] = {
                "hands": count, "points_a_hand": round(row["points"] / count, 1),
                "set_rate": round(row["sets"] / count, 3), "nil_bids": row["nil_bids"],
                "blind_nil_bids": row["blind_nil_bids"],
            }
        result[side] = {
            "hands": states,
            **{kind: {name: cells[name] for _, name in MARGINS if name in cells}
               for kind, cells in turns[side].items()},
        }
    return result


def read_logs(paths: Iterable[Path]) -> dict[Key, Game]:
    """The games of several arena logs; a game found in two logs is refused."""
    games: dict[Key, Game] = {}
    for path in paths:
        with path.open(encoding="utf-8") as source:
            try:
                found = read_log(source)
            except UsageError as error:
                raise UsageError(f"{path}: {error}") from None
        for key, game in found.items():
            if key in games:
                raise UsageError(f"{path}: deal {key[0]} with A as team {key[1]} "
                                 "is in another log too")
            if [hand["hand"] for hand in game] != list(range(len(game))):
                raise UsageError(f"{path}: deal {key[0]}'s hands are not 0, 1, 2...")
            games[key] = game
    return games


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("logs", type=Path, nargs="+", metavar="LOG")
    args = parser.parse_args(argv)
    try:
        games = read_logs(args.logs)
        if not games:
            raise UsageError("the logs hold no game")
    except (OSError, UnicodeDecodeError, UsageError) as error:
        print(f"arena_states: {error}", file=sys.stderr)
        return 2
    print(json.dumps(tally(games)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
