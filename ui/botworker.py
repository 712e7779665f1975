"""The bots' worker (PyScript, same Pyodide and app.zip as the page): decides for a record,
and does the coach's work off the main thread: the hint, the review after a hand, the par
(a hand at a time), and the drills' answers."""

from __future__ import annotations

import json

from spades_core.bots import Bot, bot_action, make_bot
from spades_core.game import GameState
from spades_core.record import loads

_bots: dict[str, Bot] = {}
_last_record: list[tuple[str, GameState]] = []  # the last record read: a hand's review parts


def ping() -> str:
    return "ready"


def decide(record_text: str, level: str) -> str:
    """The action (bid or card text) of the seat to act in the game record."""
    state = loads(str(record_text))
    bot = _bots.get(str(level))
    if bot is None:
        bot = _bots[str(level)] = make_bot(str(level))
    return str(bot_action(bot, state))


def hint(record_text: str, hand_seen: bool, level: str = "") -> str:
    """South's hint in the game record, as JSON (``ui.shared.botrunner.hint_from_json`` reads
    it); ``level`` the opponents' bot level ("" for none: whom a Nil figure assumes).  After
    :func:`hint_card` on the same record, from the search that one made."""
    from spades_core.bots.expert import run_steps
    from ui.shared.botrunner import hint_json_steps

    return str(run_steps(hint_json_steps(str(record_text), bool(hand_seen), str(level))))


def hint_card(record_text: str, hand_seen: bool) -> str:
    """The hint's card or bid for South in the game record (its text), its search kept
    for :func:`hint` on the same record (``ui.shared.botrunner.hint_card_steps``)."""
    from spades_core.bots.expert import run_steps
    from ui.shared.botrunner import hint_card_steps

    return str(run_steps(hint_card_steps(str(record_text), bool(hand_seen))))


def hint_ahead(record_text: str, hand_seen: bool, level: str, budget_ms: float) -> str:
    """A part of South's hint worked out ahead (``ui.shared.botrunner.hint_ahead_part``):
    about ``budget_ms`` of work, the hint's JSON once done, "" while not."""
    from ui.shared.botrunner import hint_ahead_part

    return hint_ahead_part(str(record_text), bool(hand_seen), str(level), float(budget_ms))


def review(record_text: str, hand_index: int) -> str:
    """The review of South's decisions in a finished hand of the record, as JSON."""
    from spades_core.review import review_hand, review_to_dict

    return json.dumps(review_to_dict(review_hand(loads(str(record_text)), int(hand_index))))


def review_part(record_text: str, hand_index: int, start: int, stop: int,
                level: str = "") -> str:
    """South's weighed decisions ``start`` to ``stop - 1`` of a finished hand of the record,
    reviewed (``ui.shared.botrunner.review_part_steps``), as JSON; ``level`` the opponents'
    bot level ("" for none)."""
    from spades_core.bots.expert import run_steps
    from ui.shared.botrunner import review_part_steps

    text = str(record_text)
    if not _last_record or _last_record[0][0] != text:  # the parts of a hand: one record
        _last_record[:] = [(text, loads(text))]
    state = _last_record[0][1]
    return str(run_steps(review_part_steps(state, int(hand_index), int(start), int(stop),
                                           str(level) or None)))


def judge(position_json: str, token: str) -> str:
    """South's answer ``token`` in a stored position of "Your mistakes", priced as the
    review prices a decision (``spades_core.mistakes.judge_steps``), as JSON."""
    from spades_core.bots.expert import run_steps
    from spades_core.mistakes import judge_steps, position_from_dict

    position = position_from_dict(json.loads(str(position_json)))
    return json.dumps(run_steps(judge_steps(position, str(token))))


def par_step(par_text: str, player_text: str, level: str) -> str:
    """One hand of the par game (``ui.shared.botrunner.par_step_steps``): the par game's record
    so far (empty to start) and the player's record in, the JSON of the hand's end out."""
    from spades_core.bots.expert import run_steps
    from ui.shared.botrunner import par_step_steps

    return str(run_steps(par_step_steps(str(par_text), str(player_text), str(level))))


def drill(name: str, index: int) -> str:
    """Item ``index`` of the drill ``name`` with its answer (the Expert's bid or Nil
    verdict, the 200-deal trick counts), as ``ui.drills.drills_run.solved_json`` writes it."""
    from ui.drills.drills_run import solve_json

    return solve_json(str(name), int(index))


__export__ = [
    "decide", "drill", "hint", "hint_ahead", "hint_card", "judge", "par_step", "ping", "review",
    "review_part",
]
