"""The learner's history of judged hands, in local storage, and what the charts draw (pure).

Stored under ``spades.progress.v1`` (docs/progress.md) as
``{"v": 1, "games": [entry, ...], "before": {level: totals}}``, the oldest game first.  An
entry is one solo game (``"kind": "game"``) or one practice hand (``"kind": "practice"``)
and holds only the summaries the charts need (no hand, no card):
``level``, ``deal``, ``open`` (hands may still come), ``done`` (the hands already counted:
bit ``i`` for hand ``i``, the first :data:`MAX_HANDS`), ``mark`` (a fingerprint of its first
hand: the same first hand again is the same game's, reviewed again), ``won`` (null until
the game is over), and the totals :data:`TOTALS`: hands, decisions weighed ``n``, sound
ones ``ok``, points lost ``lost`` (tenths), ``cls`` (by judge.CLASSES), ``by`` (``[n, ok,
lost]`` by judge.SKILLS), the team's hand points ``pts``,
South's Nil bids and those made ``nil``, the team's bags ``bags``.

Compaction: at most :data:`MAX_GAMES` entries; an older finished game is folded into
``before``, its level's totals (with ``games`` and ``won``), so that the results by level
keep counting it (an older practice hand or unfinished game is dropped).
An entry is at most about 600 characters: the whole value stays under
:data:`LIMIT` (128 KiB; ``tests/test_progress.py`` fills it to the bound).

Read like every stored value: :func:`check` keeps what it can read (each entry and each
level's totals on their own) and says when it dropped something.
"""

from __future__ import annotations

import json
import zlib
from typing import Any

from spades_core.game import HandResult
from spades_core.judge import CLASSES, SKILL_TIPS, SKILLS, Summary, summarise

VERSION = 1
LIMIT = 128 * 1024  # characters, the storage key's limit (ui.shared.storage.LIMITS)
MAX_GAMES = 200  # entries kept; older ones are folded into their level's totals
LEVELS = ("beginner", "normal", "expert")
KINDS = ("game", "practice")
MAX_COUNT = 10**9  # counts and tenths of a point: far beyond any real history
MAX_POINTS = 10**9  # the team's hand points added up, either sign
MAX_HANDS = 64  # hands of a game counted (the longest game seen has 50)
CHART_GAMES = 20  # the games the charts show (the last ones)
PERIOD = 10  # finished solo games in a period of the results by level over time
CHART_PERIODS = 6  # the periods that chart shows (the last ones)
MIN_SKILL = 5  # decisions of a skill before it may be called the weakest
EXPORT_FORMAT = "spades-progress"


def empty() -> dict[str, Any]:
    return {"v": VERSION, "games": [], "before": {}}


def _zero() -> dict[str, Any]:
    return {"hands": 0, "n": 0, "ok": 0, "lost": 0, "cls": [0] * len(CLASSES),
            "by": [[0, 0, 0] for _ in SKILLS], "pts": 0, "nil": [0, 0], "bags": 0}


TOTALS = tuple(_zero())


def _count(value: object) -> bool:
    return type(value) is int and 0 <= value <= MAX_COUNT


def _points(value: object) -> bool:
    return type(value) is int and -MAX_POINTS <= value <= MAX_POINTS


def _counts(value: object, size: int) -> bool:
    return isinstance(value, list) and len(value) == size and all(_count(v) for v in value)


def _totals(data: dict[str, Any]) -> dict[str, Any] | None:
    """The totals of an entry or a level, checked (None: unreadable)."""
    try:
        if not all(_count(data[key]) for key in ("hands", "n", "ok", "bags")):
            return None
        if not (_count(data["lost"]) and _points(data["pts"])):
            return None
        if not (_counts(data["cls"], len(CLASSES)) and _counts(data["nil"], 2)):
            return None
        by = data["by"]
        if not (isinstance(by, list) and len(by) == len(SKILLS)
                and all(_counts(row, 3) and row[1] <= row[0] for row in by)):
            return None
        if not (data["ok"] <= data["n"] and sum(data["cls"]) == data["n"]
                and data["nil"][1] <= data["nil"][0]):
            return None
    except (KeyError, TypeError):
        return None
    return {"hands": data["hands"], "n": data["n"], "ok": data["ok"], "lost": data["lost"],
            "cls": list(data["cls"]), "by": [list(row) for row in data["by"]],
            "pts": data["pts"], "nil": list(data["nil"]), "bags": data["bags"]}


def _entry(data: object) -> dict[str, Any] | None:
    if not isinstance(data, dict):
        return None
    totals = _totals(data)
    if totals is None:
        return None
    level, kind, deal = data.get("level"), data.get("kind"), data.get("deal")
    won, open_, done = data.get("won"), data.get("open"), data.get("done")
    if level not in LEVELS or kind not in KINDS or not _count(deal):
        return None
    if won is not None and type(won) is not bool:
        return None
    if type(open_) is not bool or not (type(done) is int and 0 <= done < 1 << MAX_HANDS):
        return None
    mark = data.get("mark")
    if not (type(mark) is int and 0 <= mark < 1 << 32):
        return None
    return {"level": level, "kind": kind, "deal": deal, "open": open_, "done": done, "mark": mark,
            "won": won, **totals}


def _level_totals(data: object) -> dict[str, Any] | None:
    if not isinstance(data, dict):
        return None
    totals = _totals(data)
    games, won = data.get("games"), data.get("won")
    if totals is None or not (_count(games) and _count(won)):
        return None
    if int(str(won)) > int(str(games)):
        return None
    return {"games": games, "won": won, **totals}


def check(data: object) -> tuple[dict[str, Any], bool]:
    """The stored history, checked: ``(history, clean)``; what cannot be read (an entry, a
    level's totals, or all of it) is dropped and the rest kept."""
    found = empty()
    if data is None:
        return found, True
    if not isinstance(data, dict) or data.get("v") != VERSION:
        return found, False
    clean = True
    games = data.get("games")
    if not isinstance(games, list):
        clean, games = False, []
    for item in games[-MAX_GAMES:]:
        entry = _entry(item)
        if entry is None:
            clean = False
        else:
            found["games"].append(entry)
    if len(games) > MAX_GAMES:
        clean = False
    before = data.get("before")
    if not isinstance(before, dict):
        clean, before = False, {}
    for level, row in before.items():
        kept = _level_totals(row) if level in LEVELS else None
        if kept is None:
            clean = False
        else:
            found["before"][level] = kept
    return found, clean


# --- recording ---------------------------------------------------------------------------


def hand_summary(review: dict[str, Any]) -> Summary:
    """The judgement of a reviewed hand (``review_to_dict``'s ``judged``)."""
    return summarise((str(skill), bool(best), int(cost), bool(clear))
                     for _index, skill, best, cost, se, clear in review.get("judged", []))


def _add(totals: dict[str, Any], summary: Summary, points: int, nil: tuple[int, int],
         bags: int) -> None:
    totals["hands"] += 1
    totals["n"] += summary.decisions
    totals["ok"] += summary.sound
    totals["lost"] += summary.lost
    totals["cls"] = [a + b for a, b in zip(totals["cls"], summary.classes, strict=True)]
    totals["by"] = [[a + b for a, b in zip(row, new, strict=True)]
                    for row, new in zip(totals["by"], summary.skills, strict=True)]
    totals["pts"] += points
    totals["nil"] = [totals["nil"][0] + nil[0], totals["nil"][1] + nil[1]]
    totals["bags"] += bags


def _copy(history: dict[str, Any]) -> dict[str, Any]:
    """A copy whose lists and rows may be changed (the entries are copied when changed)."""
    return {"v": VERSION, "games": list(history["games"]),
            "before": {level: dict(row) for level, row in history["before"].items()}}


def record_hand(history: dict[str, Any], level: str, deal: int, hand_index: int,
                summary: Summary, points: int, nil: tuple[int, int], bags: int,
                practice: bool = False, mark: int = 0) -> dict[str, Any]:
    """The history with a judged hand added (a new dict): to the last game of ``deal`` and
    ``level`` (a new entry at a game's first hand; a hand already counted is not counted
    again; the last hand's judgement may come after the game's end), or as a practice
    entry of its own.  ``points``: the team's hand points; ``nil``: South's Nil bid and
    made (0 or 1 each); ``bags``: the team's bags this hand; ``mark``: the first hand's
    fingerprint (:func:`hand_mark`), which tells a new game of the same deal from the same
    first hand judged again."""
    found = _copy(history)
    level = level if level in LEVELS else "normal"
    deal = max(0, min(int(deal), MAX_COUNT))
    games = found["games"]
    entry = None
    if not practice:
        at = next((i for i in range(len(games) - 1, -1, -1) if games[i]["kind"] == "game"
                   and games[i]["deal"] == deal and games[i]["level"] == level), None)
        if at is not None:
            entry = games[at] = json.loads(json.dumps(games[at]))
        if not 0 <= hand_index < MAX_HANDS:
            return history
        if entry is not None and hand_index == 0 and entry["mark"] != mark:
            entry["open"] = False  # the same deal again: a new game
            entry = None
        elif entry is not None and entry["done"] >> hand_index & 1:
            return history  # this hand judged again: counted once
    if entry is None:
        entry = {"level": level, "kind": "practice" if practice else "game", "deal": deal,
                 "open": not practice, "done": 0, "mark": mark if hand_index == 0 else 0,
                 "won": None, **_zero()}
        games.append(entry)
    if not practice:
        entry["done"] |= 1 << hand_index
    _add(entry, summary, points, nil, bags)
    return compact(found)


def end_game(history: dict[str, Any], level: str, deal: int, won: bool) -> dict[str, Any]:
    """The last game of ``deal`` and ``level`` closed with its result (a new dict); its
    last hand's judgement may still come (:func:`record_hand`)."""
    found = _copy(history)
    deal = max(0, min(int(deal), MAX_COUNT))
    games = found["games"]
    for at in range(len(games) - 1, -1, -1):
        entry = games[at]
        if entry["kind"] == "game" and entry["deal"] == deal and entry["level"] == level:
            if entry["open"]:
                games[at] = {**entry, "open": False, "won": bool(won)}
            break
    return found


def hand_mark(result: HandResult) -> int:
    """A fingerprint of a finished hand (its bids and cards in order), 32 bits."""
    data = bytes([*(bid.tricks + 32 * bid.is_nil + 64 * bid.blind
                    for bid in result.bid_history), *result.play_ids])
    return zlib.crc32(data)


def hand_facts(result: HandResult, seat: int = 2) -> tuple[int, tuple[int, int], int]:
    """What the results by level count of a finished hand, for ``seat``'s team: the
    team's hand points, ``seat``'s Nil (bid, made: 0 or 1 each), the team's bags."""
    team = result.teams[seat & 1]
    nil = next((r for r in team.nils if r.seat == seat), None)
    return (team.points, (0, 0) if nil is None else (1, 1 if nil.made else 0), team.bags)


def compact(history: dict[str, Any]) -> dict[str, Any]:
    """At most :data:`MAX_GAMES` entries: the oldest folded into their level's totals."""
    games = history["games"]
    while len(games) > MAX_GAMES:
        old = games.pop(0)
        if old["kind"] != "game" or old["won"] is None:
            continue  # a practice hand, an unfinished game: only the charts of the last games
        row = history["before"].setdefault(old["level"], {"games": 0, "won": 0, **_zero()})
        row["games"] += 1
        row["won"] += 1 if old["won"] else 0
        for key in ("hands", "n", "ok", "lost", "pts", "bags"):
            row[key] += old[key]
        row["cls"] = [a + b for a, b in zip(row["cls"], old["cls"], strict=True)]
        row["by"] = [[a + b for a, b in zip(r, o, strict=True)]
                     for r, o in zip(row["by"], old["by"], strict=True)]
        row["nil"] = [row["nil"][0] + old["nil"][0], row["nil"][1] + old["nil"][1]]
    return history


def game_summary(history: dict[str, Any], level: str, deal: int) -> dict[str, Any] | None:
    """The last game of ``deal`` and ``level`` (its totals), or None."""
    return next((g for g in reversed(history["games"]) if g["kind"] == "game"
                 and g["deal"] == deal and g["level"] == level), None)


def figure(totals: dict[str, Any]) -> dict[str, Any]:
    """A hand's or a game's accuracy figure: decisions, sound, accuracy (whole percent,
    None without a decision), points lost in tenths, and per hand."""
    n, hands = int(totals["n"]), max(1, int(totals.get("hands", 1)))
    return {"decisions": n, "sound": int(totals["ok"]),
            "accuracy": None if not n else 100 * int(totals["ok"]) // n,
            "lost": int(totals["lost"]), "per_hand": _per(int(totals["lost"]), hands),
            "hands": int(totals.get("hands", 1)), "classes": list(totals["cls"])}


def summary_totals(summary: Summary) -> dict[str, Any]:
    return {"hands": 1, "n": summary.decisions, "ok": summary.sound, "lost": summary.lost,
            "cls": list(summary.classes)}


def _per(tenths: int, count: int) -> int:
    """``tenths / count`` in tenths, rounded half up (``count`` > 0)."""
    return (2 * tenths + count) // (2 * count)


# --- what the charts draw -------------------------------------------------------------------


def lost_series(history: dict[str, Any]) -> list[dict[str, Any]]:
    """Points lost per hand (tenths) in each of the last :data:`CHART_GAMES` solo games
    with a judged hand, oldest first, numbered from 1 over the whole stored history."""
    games = [g for g in history["games"] if g["kind"] == "game" and g["hands"] > 0]
    first = len(games) - min(len(games), CHART_GAMES)
    return [{"game": first + i + 1, "level": g["level"], "hands": g["hands"],
             "per_hand": _per(g["lost"], g["hands"]),
             "accuracy": None if not g["n"] else 100 * g["ok"] // g["n"]}
            for i, g in enumerate(games[first:])]


def trend(values: list[int]) -> int | None:
    """The least-squares slope of ``values`` (equally spaced), in the values' unit per 10
    steps, rounded; None below 3 values.  Negative: falling."""
    n = len(values)
    if n < 3:
        return None
    sx, sy = n * (n - 1) // 2, sum(values)
    sxx = sum(i * i for i in range(n))
    sxy = sum(i * v for i, v in enumerate(values))
    den = n * sxx - sx * sx
    num = 10 * (n * sxy - sx * sy)
    return (2 * num + den) // (2 * den) if num >= 0 else -((-2 * num + den) // (2 * den))


def skill_rows(history: dict[str, Any]) -> list[dict[str, Any]]:
    """By skill over the last :data:`CHART_GAMES` solo games and the practice hands among
    them: decisions, sound, points lost (tenths), lost per decision (hundredths of a point),
    the tip of its lesson, and whether it is the weakest (the most lost per decision among
    skills with :data:`MIN_SKILL` decisions or more, if any lost anything)."""
    solo = [i for i, g in enumerate(history["games"]) if g["kind"] == "game" and g["hands"] > 0]
    chosen = history["games"][solo[-CHART_GAMES] if len(solo) >= CHART_GAMES else 0:]
    rows = []
    for index, skill in enumerate(SKILLS):
        n = sum(g["by"][index][0] for g in chosen)
        ok = sum(g["by"][index][1] for g in chosen)
        lost = sum(g["by"][index][2] for g in chosen)
        rows.append({"skill": skill, "decisions": n, "sound": ok, "lost": lost,
                     "per_decision": _per(10 * lost, n) if n else 0,
                     "tip": SKILL_TIPS[skill], "weakest": False})
    ranked = [row for row in rows if row["decisions"] >= MIN_SKILL and row["lost"] > 0]
    if ranked:
        max(ranked, key=lambda row: (row["per_decision"], -SKILLS.index(row["skill"])))[
            "weakest"] = True
    return rows


def level_rows(history: dict[str, Any]) -> list[dict[str, Any]]:
    """Results by bot level over every finished solo game (the folded ones included): games,
    won, win rate (whole percent), points per hand, Nil bids and made, bags per hand
    (tenths)."""
    rows = []
    for level in LEVELS:
        over = [g for g in history["games"] if g["kind"] == "game" and g["level"] == level
                and g["won"] is not None]
        before = history["before"].get(level, {"games": 0, "won": 0, **_zero()})
        games = len(over) + before["games"]
        if not games:
            continue
        won = sum(1 for g in over if g["won"]) + before["won"]
        hands = sum(g["hands"] for g in over) + before["hands"]
        pts = sum(g["pts"] for g in over) + before["pts"]
        nil = [sum(g["nil"][i] for g in over) + before["nil"][i] for i in (0, 1)]
        bags = sum(g["bags"] for g in over) + before["bags"]
        rows.append({"level": level, "games": games, "won": won,
                     "win_rate": 100 * won // games,
                     "points": _per(pts, hands) if hands else 0,
                     "nil_bid": nil[0], "nil_made": nil[1],
                     "bags": _per(10 * bags, hands) if hands else 0})
    return rows


def _results(level: str, over: list[dict[str, Any]]) -> dict[str, Any]:
    """One level's results over finished games ``over``: as :func:`level_rows` gives them."""
    games, won = len(over), sum(1 for g in over if g["won"])
    hands = sum(g["hands"] for g in over)
    pts, bags = sum(g["pts"] for g in over), sum(g["bags"] for g in over)
    return {"level": level, "games": games, "won": won, "win_rate": 100 * won // games,
            "points": _per(pts, hands) if hands else 0,
            "nil_bid": sum(g["nil"][0] for g in over),
            "nil_made": sum(g["nil"][1] for g in over),
            "bags": _per(10 * bags, hands) if hands else 0}


def level_periods(history: dict[str, Any]) -> list[dict[str, Any]]:
    """Results by bot level over time: the stored finished solo games, numbered from 1 in
    the order they were played, in periods of :data:`PERIOD` games (the last one may be
    short), the last :data:`CHART_PERIODS`; in each period, a row per level played in it
    (``first`` and ``last``: the period's games; then as :func:`level_rows`).  Games
    folded into the levels' totals have no place in time and are not counted here."""
    games = [g for g in history["games"] if g["kind"] == "game" and g["won"] is not None]
    count = (len(games) + PERIOD - 1) // PERIOD
    rows = []
    for period in range(max(0, count - CHART_PERIODS), count):
        chosen = games[period * PERIOD:(period + 1) * PERIOD]
        first, last = period * PERIOD + 1, period * PERIOD + len(chosen)
        for level in LEVELS:
            over = [g for g in chosen if g["level"] == level]
            if over:
                rows.append({"period": period + 1, "first": first, "last": last,
                             **_results(level, over)})
    return rows


def model(history: dict[str, Any]) -> dict[str, Any]:
    """Everything the Progress screen draws, as plain data."""
    series = lost_series(history)
    return {"series": series, "trend": trend([row["per_hand"] for row in series]),
            "skills": skill_rows(history), "levels": level_rows(history),
            "periods": level_periods(history),
            "empty": not history["games"] and not history["before"]}


# --- export and import ----------------------------------------------------------------------


FILE_LIMIT = 3 * LIMIT + 4096  # an exported file: the history and the deck (deck.LIMIT)


def export_text(history: dict[str, Any], deck: dict[str, Any] | None = None) -> str:
    """The whole progress as one versioned JSON file: the history and, if given, the deck
    of "Your mistakes" (``deck.to_data``)."""
    data: dict[str, Any] = {"format": EXPORT_FORMAT, "v": VERSION, "history": history}
    if deck is not None:
        data["deck"] = deck
    return json.dumps(data, separators=(",", ":"))


def import_text(text: str) -> tuple[dict[str, Any] | None, str]:
    """``(history, "")`` from an exported file, or ``(None, reason)`` where reason is a key
    of the refusal (``progress.import.*``): nothing of a bad file is taken."""
    from ..shared.storage import parse

    try:
        data = parse(text, FILE_LIMIT)
    except Exception:
        return None, "progress.import.not-json"
    if not isinstance(data, dict) or data.get("format") != EXPORT_FORMAT:
        return None, "progress.import.not-progress"
    if data.get("v") != VERSION:
        return None, "progress.import.version"
    found, clean = check(data.get("history"))
    if not clean or data.get("history") is None:
        return None, "progress.import.damaged"
    return found, ""
