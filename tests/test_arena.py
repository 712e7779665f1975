"""The arena: its JSON, duplicate deals with the partnerships swapped, outside bots, jobs."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import ClassVar

import pytest

from spades_core import Bid, BotError, Card
from spades_core.arena import deal_numbers, run_arena, wilson
from spades_core.deal import deal_hand
from spades_core.rules import Rules
from spades_core.views import View

ROOT = Path(__file__).resolve().parent.parent
POLICY = "spades_core.bots.policy:PolicyBot"
KEYS = {
    "games", "a_wins", "b_wins", "a_win_rate", "ci95", "mean_hand_diff", "bags_per_hand",
    "nil_bids", "nil_made", "sets", "hands",
}


class FirstLegalBot:
    """A tiny outside bot: bids 3 and plays its first legal card."""

    def blind_nil(self, view: View) -> bool:
        return False

    def bid(self, view: View) -> Bid:
        return Bid(3)

    def play(self, view: View) -> Card:
        return view.legal_plays[0]


class RecordingBot(FirstLegalBot):
    """Remembers the seat and the cards of every first-hand bid it is asked for."""

    seen: ClassVar[list[tuple[int, int]]] = []

    def bid(self, view: View) -> Bid:
        if view.hand_index == 0 and view.hand is not None:
            RecordingBot.seen.append((int(view.seat), view.hand.mask))
        return Bid(3)


def test_json_has_the_keys_and_counts_add_up() -> None:
    result = run_arena(POLICY, "beginner", games=4, seed=5, rules=Rules(target=200))
    assert set(result) >= KEYS
    assert result["games"] == 4
    assert result["a_wins"] + result["b_wins"] + result["unfinished"] == 4
    low, high = result["ci95"]
    assert 0.0 <= low <= result["a_win_rate"] <= high <= 1.0
    assert set(result["sets"]) == {"a", "b"}
    json.dumps(result)


def test_each_deal_is_played_twice_with_the_partnerships_swapped() -> None:
    RecordingBot.seen.clear()
    run_arena("tests.test_arena:RecordingBot", "beginner", games=2, seed=9,
              rules=Rules(target=100))
    deal = deal_numbers(9, 1)[0]
    cards = deal_hand(deal, 0, Rules().deck_mask)
    first, second = RecordingBot.seen[:2], RecordingBot.seen[2:]
    # game 1: the recording bot sits North-South; game 2: East-West, on the same cards
    assert sorted(seat for seat, _ in first) == [0, 2]
    assert sorted(seat for seat, _ in second) == [1, 3]
    for seat, hand in RecordingBot.seen:
        assert hand == cards[seat]


def test_odd_game_counts_round_up_to_pairs() -> None:
    assert run_arena(POLICY, POLICY, games=3, seed=1, rules=Rules(target=100))["games"] == 4


def test_results_do_not_depend_on_jobs() -> None:
    rules = Rules(target=200)
    one = run_arena(POLICY, "beginner", games=6, seed=2, rules=rules, jobs=1)
    two = run_arena(POLICY, "beginner", games=6, seed=2, rules=rules, jobs=2)
    assert one == two


def test_command_line_with_an_outside_bot() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "spades_core", "arena", "--a", "tests.test_arena:FirstLegalBot",
         "--b", "beginner", "--games", "2", "--seed", "3", "--target", "200"],
        cwd=ROOT, capture_output=True, text=True, check=True, timeout=120,
    )
    result = json.loads(done.stdout)
    assert set(result) >= KEYS
    assert result["a"] == "tests.test_arena:FirstLegalBot"
    assert result["games"] == 2


def test_command_line_rejects_an_unknown_bot() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "spades_core", "arena", "--a", "no.such:Bot", "--b", "beginner",
         "--games", "2"],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 2
    assert "no.such:Bot" in done.stderr


def test_deal_numbers_are_fixed_by_the_seed() -> None:
    assert deal_numbers(1, 3) == deal_numbers(1, 3)
    assert deal_numbers(1, 3) != deal_numbers(2, 3)
    assert all(0 <= deal < 2**53 for deal in deal_numbers(7, 50))


@pytest.mark.parametrize(("wins", "games"), [(0, 10), (5, 10), (10, 10), (300, 400)])
def test_wilson_interval(wins: int, games: int) -> None:
    low, high = wilson(wins, games)
    assert 0.0 <= low <= wins / games <= high <= 1.0
    assert high - low < 0.6


class NilCoverBot(FirstLegalBot):
    """North and East bid Nil, South and West bid 3: every contract stands beside a Nil."""

    def bid(self, view: View) -> Bid:
        return Bid(0) if int(view.seat) in (0, 1) else Bid(3)


def test_cover_counts_the_contracts_beside_a_nil_apart(tmp_path: Path) -> None:
    rules = Rules(target=200)
    beside = run_arena("tests.test_arena:NilCoverBot", "beginner", games=2, seed=4, rules=rules)
    cover = beside["cover"]["a"]
    # in game 1 bot A (N-S) has North's Nil beside South's 3; in game 2 (E-W) East's Nil
    assert cover["beside_nil"]["contracts"] == beside["hands"]
    assert cover["without_nil"]["contracts"] == 0
    assert 0 <= cover["beside_nil"]["sets"] <= cover["beside_nil"]["contracts"]
    plain = run_arena("tests.test_arena:FirstLegalBot", "beginner", games=2, seed=4, rules=rules)
    assert plain["cover"]["a"]["beside_nil"]["contracts"] == 0
    assert plain["cover"]["a"]["without_nil"]["sets"] == plain["sets"]["a"]


def test_command_line_log_has_a_line_per_hand(tmp_path: Path) -> None:
    log = tmp_path / "hands.jsonl"
    done = subprocess.run(
        [sys.executable, "-m", "spades_core", "arena", "--a", POLICY, "--b", "beginner",
         "--games", "2", "--seed", "3", "--target", "200", "--log", str(log)],
        cwd=ROOT, capture_output=True, text=True, check=True, timeout=120,
    )
    result = json.loads(done.stdout)
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    assert len(lines) == result["hands"]
    assert {line["a_team"] for line in lines} == {0, 1}
    for line in lines:
        assert sum(line["tricks"]) == 13 and len(line["bids"]) == 4
    bad = subprocess.run(
        [sys.executable, "-m", "spades_core", "arena", "--a", POLICY, "--b", "beginner",
         "--games", "2", "--log", str(tmp_path / "no" / "such" / "dir.jsonl")],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )
    assert bad.returncode == 2 and "log" in bad.stderr and "Traceback" not in bad.stderr


class FollowsNoSuitBot(FirstLegalBot):
    """Plays the first card of its hand, whether or not it follows suit."""

    def play(self, view: View) -> Card:
        assert view.hand is not None
        return next(iter(view.hand))


class FailingBot(FirstLegalBot):
    def play(self, view: View) -> Card:
        raise RuntimeError("lost its cards")


@pytest.mark.parametrize(("bot", "said"), [
    ("FollowsNoSuitBot", "IllegalAction: must-follow-suit"),
    ("FailingBot", "RuntimeError: lost its cards"),
])
def test_a_bot_that_fails_is_named_with_its_seat_hand_and_deal(bot: str, said: str) -> None:
    name = f"tests.test_arena:{bot}"
    deal = deal_numbers(3, 1)[0]
    with pytest.raises(BotError) as failure:
        run_arena(name, "beginner", games=2, seed=3)
    message = str(failure.value)
    assert message.startswith(f"bot {name} as ")
    assert f"of deal {deal}:" in message and said in message
    done = subprocess.run(
        [sys.executable, "-m", "spades_core", "arena", "--a", name, "--b", "beginner",
         "--games", "2", "--seed", "3"],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and name in done.stderr and said in done.stderr
