"""Every command keeps its contract: exit 0 with its output, or exit 2 with one short line
on standard error (after argparse's usage line for an argument error); never a traceback,
never unbounded memory, whatever the input (issue 10, item 6)."""

from __future__ import annotations

import json
import os
import random
import resource
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from spades_core import cli, record
from spades_core.bids import NIL, Bid
from spades_core.cards import Card
from spades_core.errors import RecordError, quote, shorten
from spades_core.game import GameState, Phase
from spades_core.rules import BOUNDS, Rules
from ui.shared import options

ROOT = Path(__file__).resolve().parents[1]
MAX_LINE = 300
MEMORY = 1 << 30  # 1 GiB of address space for each command run here


def _limits(close_stdin: bool = False) -> Any:
    def before_exec() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))
        if close_stdin:
            os.close(0)

    return before_exec


def _run(*args: str, stdin: bytes | None = b"", close_stdin: bool = False,
         timeout: float = 60) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [sys.executable, "-m", "spades_core", *args], cwd=ROOT,
        input=None if close_stdin else stdin, capture_output=True, timeout=timeout,
        preexec_fn=_limits(close_stdin),
    )
    return subprocess.CompletedProcess(
        done.args, done.returncode, done.stdout.decode("utf-8", "replace"),
        done.stderr.decode("utf-8", "replace"),
    )


def _one_line_error(done: subprocess.CompletedProcess[str]) -> str:
    """The command failed as the contract says: exit 2, nothing on stdout, one line."""
    assert "Traceback" not in done.stderr, done.stderr[-2000:]
    assert done.returncode == 2, (done.returncode, done.stderr[:500])
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1, lines[:5]
    assert 0 < len(lines[0]) <= MAX_LINE, len(lines[0])
    return lines[0]


def _usage_error(done: subprocess.CompletedProcess[str], argument: str) -> str:
    """An argument error: exit 2, argparse's usage, then one short error line."""
    assert "Traceback" not in done.stderr, done.stderr[-2000:]
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("usage: python -m spades_core")
    last = done.stderr.splitlines()[-1]
    assert last.startswith("python -m spades_core") and f"{argument}" in last, last
    assert len(last) <= MAX_LINE
    return last


# --- replay: hostile inputs -------------------------------------------------------------


def test_replay_with_standard_input_closed() -> None:
    line = _one_line_error(_run("replay", "-", close_stdin=True))
    assert line == "cannot read standard input: it is closed"


def test_replay_of_an_endless_file_reads_a_bounded_amount() -> None:
    line = _one_line_error(_run("replay", "/dev/zero"))
    assert line == "record too large (limit 4 MiB)"


def test_replay_of_an_endless_standard_input() -> None:
    with open("/dev/zero", "rb") as zeros:
        done = subprocess.run(
            [sys.executable, "-m", "spades_core", "replay", "-"], cwd=ROOT, stdin=zeros,
            capture_output=True, text=True, timeout=60, preexec_fn=_limits(),
        )
    assert _one_line_error(done) == "record too large (limit 4 MiB)"


def _nil_record(nil_value: str) -> str:
    """A finished hand where South bid Nil, its rules' nil_value written as ``nil_value``."""
    rng = random.Random(2)
    state = GameState.new(Rules(), deal=3)
    while state.hand_index < 1:
        if state.phase is Phase.BIDDING:
            bid = NIL if not state.bid_history else rng.choice(state.legal_bids()[1:6])
            state = state.apply(bid)
        else:
            state = state.apply(rng.choice(state.legal_plays()))
    text = json.dumps(record.to_dict(state))
    assert '"nil_value": 100' in text
    return text.replace('"nil_value": 100', f'"nil_value": {nil_value}')


def test_replay_of_a_4300_digit_nil_value(tmp_path: Path) -> None:
    path = tmp_path / "nil.json"
    path.write_text(_nil_record("9" * 4300))
    line = _one_line_error(_run("replay", str(path)))
    assert line.startswith("rules: rules 'nil_value' must be an integer from 0 to 1000")


def test_replay_of_a_valid_nil_record_still_works() -> None:
    done = _run("replay", "-", stdin=_nil_record("50").encode())
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["hands"][0]["nil"][0]["points"] in (50, -50)


def _write_big(path: Path, head: str, unit: str, tail: str, size: int) -> None:
    with path.open("w") as out:
        out.write(head)
        block = unit * (1 << 16)
        for _ in range(size // len(block)):
            out.write(block)
        out.write(tail)


def test_replay_of_60_mb_of_empty_hands(tmp_path: Path) -> None:
    path = tmp_path / "hands.json"
    _write_big(path, '{"format":"spades-record/1","deal":1,"hands":[{}', ",{}", "]}", 60 << 20)
    assert _one_line_error(_run("replay", str(path))) == "record too large (limit 4 MiB)"


def test_replay_of_a_60_mb_bid(tmp_path: Path) -> None:
    path = tmp_path / "bid.json"
    _write_big(path, '{"format":"spades-record/1","deal":1,"hands":[{"bids":["', "x",
               '"]}]}', 60 << 20)
    assert _one_line_error(_run("replay", str(path))) == "record too large (limit 4 MiB)"


def test_replay_of_a_3_mb_bid_quotes_a_prefix() -> None:
    text = '{"format":"spades-record/1","deal":1,"hands":[{"bids":["' + "x" * (3 << 20) + '"]}]}'
    line = _one_line_error(_run("replay", "-", stdin=text.encode()))
    assert line == f"hand 1, bid 1: '{'x' * 39}… is not a bid"


def test_replay_of_deep_nesting() -> None:
    text = "[" * 100_000 + "]" * 100_000
    assert _one_line_error(_run("replay", "-", stdin=text.encode())) == (
        "not valid JSON: nested too deeply"
    )


def test_replay_of_too_many_hands() -> None:
    text = '{"format":"spades-record/1","deal":1,"hands":[' + ",".join(["{}"] * 2001) + "]}"
    line = _one_line_error(_run("replay", "-", stdin=text.encode()))
    assert line == '"hands": at most 2000 hands, not 2001'


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (b"\xff\xfe{}", "cannot read standard input: not UTF-8 text"),
        (b'{"format":"spades-record/1","deal":' + b"9" * 5000 + b"}", "not valid JSON: "),
        (b'{"format":"spades-record/1","deal":"' + b"7" * 100_000 + b'"}', "deal: "),
        (b'{"format":"spades-record/1","deal":1,"' + b"k" * 100_000 + b'":1}', "unknown key"),
        (b'{"format":"spades-record/1","rules":{"target":' + b"[" * 500 + b"]" * 500 + b"}}",
         "rules: rules 'target' must be"),
        (b'{"format":"spades-record/1","rules":{"target":-300},"deal":1}', "rules: "),
        (b'{"format":"spades-record/1","rules":{"floor":1e400},"deal":1}', "rules: "),
    ],
)
def test_replay_of_other_hostile_records(data: bytes, expected: str) -> None:
    assert _one_line_error(_run("replay", "-", stdin=data)).startswith(expected)


def test_replay_of_a_missing_file_or_a_directory(tmp_path: Path) -> None:
    assert _one_line_error(_run("replay", str(tmp_path / "none.json"))).startswith(
        "cannot read "
    )
    assert _one_line_error(_run("replay", str(tmp_path))).startswith("cannot read ")
    long_name = str(tmp_path / ("n" * 200)) + "/" + "m" * 3000
    assert _one_line_error(_run("replay", long_name)).startswith("cannot read ")


# --- the reading functions themselves ----------------------------------------------------


def test_loads_refuses_oversized_text_before_parsing_it() -> None:
    text = '{"format":"spades-record/1","deal":1,"hands":[' + "{}," * (20 << 20) + "{}]}"
    with pytest.raises(RecordError, match=r"^record too large \(limit 4 MiB\)$"):
        record.loads(text)


def test_a_record_at_the_limits_is_read() -> None:
    """The largest record a game can need (MAX_HANDS hands, with their cards, written with
    indent=2) fits in MAX_RECORD_SIZE."""
    state = GameState.new(Rules(target=10_000, floor=None), deal=9)
    first = record.to_dict(state)
    rng = random.Random(4)
    while state.hand_index < 1:
        legal: Sequence[Card | Bid] = (
            state.legal_bids()[1:6] if state.phase is Phase.BIDDING else state.legal_plays()
        )
        state = state.apply(rng.choice(legal))
    hand = record.to_dict(state)["hands"][0]
    hand["cards"] = {"N": ["AS"] * 13, "E": ["AS"] * 13, "S": ["AS"] * 13, "W": ["AS"] * 13}
    first["hands"] = [hand] * record.MAX_HANDS
    assert len(json.dumps(first, indent=2)) < record.MAX_RECORD_SIZE


def test_rules_bounds_hold_in_rules_and_in_records() -> None:
    for key, (low, high) in BOUNDS.items():
        for bad in (low - 1, high + 1, 10**4300):
            with pytest.raises(ValueError, match=f"'{key}' must be"):
                Rules(**dict[str, Any]({key: bad}))
            data = {"format": "spades-record/1", "deal": 1, "rules": {key: bad}}
            with pytest.raises(RecordError) as error:
                record.from_dict(data)
            assert len(str(error.value)) < 120
        assert Rules(**dict[str, Any]({key: low})) and Rules(**dict[str, Any]({key: high}))
    with pytest.raises(ValueError, match="'jokers' must be true or false"):
        Rules(jokers=1)  # type: ignore[arg-type]
    assert Rules(floor=None).floor is None


def test_every_rules_the_app_offers_are_valid() -> None:
    for target in options.CHOICES["target"]:
        for floor in options.CHOICES["floor"]:
            for blind_nil in options.CHOICES["blind_nil"]:
                chosen = {**options.defaults(), "target": target, "floor": floor,
                          "blind_nil": blind_nil}
                rules = Rules(**options.rules_kwargs(chosen))
                assert Rules.from_dict(rules.to_dict()) == rules


def test_quote_and_shorten_stay_short() -> None:
    assert quote("x" * 10**6) == "'" + "x" * 39 + "…"
    assert quote(10**5000) == "an integer of 16610 bits"
    assert len(quote([[[[1] * 1000] * 1000]] * 1000)) <= 41
    assert quote("QS") == "'QS'" and quote(None) == "None"
    assert shorten("a\n  b") == "a b"
    assert shorten("y" * 1000, 10) == "y" * 10 + "…"


def test_main_turns_an_unexpected_error_into_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "game.json"
    path.write_text(record.dumps(GameState.new(deal=5)))

    def broken(state: object) -> None:
        raise RuntimeError("boom\n" + "z" * 10_000)

    monkeypatch.setattr(record, "summary", broken)
    assert cli.main(["replay", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("RuntimeError: boom z")
    assert len(lines[0]) <= MAX_LINE


# --- the other commands ----------------------------------------------------------------


def test_arena_argument_errors() -> None:
    _usage_error(_run("arena", "--a", "beginner", "--b", "beginner", "--target", "-300"),
                 "--target")
    _usage_error(_run("arena", "--a", "beginner", "--b", "beginner", "--games", "0"), "--games")
    _usage_error(_run("arena", "--a", "beginner", "--b", "beginner", "--jobs", "x" * 5000),
                 "--jobs")
    _usage_error(_run("arena", "--a", "beginner"), "--b")


@pytest.mark.parametrize(
    ("bot", "expected"),
    [
        ("os:path", "cannot load bot 'os:path': TypeError: "),
        ("os:nothing", "cannot load bot 'os:nothing': "),
        ("no_such_module_here:Bot", "cannot load bot 'no_such_module_here:Bot': "),
        ("grandmaster", "unknown bot 'grandmaster'"),
        ("os:getcwd", "'os:getcwd' is not a bot"),
    ],
)
def test_arena_with_something_that_is_not_a_bot(bot: str, expected: str) -> None:
    line = _one_line_error(_run("arena", "--a", bot, "--b", "beginner", "--games", "2"))
    assert line.startswith(expected), line


def test_arena_at_a_small_target_prints_json() -> None:
    done = _run("arena", "--a", "beginner", "--b", "beginner", "--games", "2", "--target", "50")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["games"] == 2


def test_play_with_standard_input_closed() -> None:
    line = _one_line_error(_run("play", "--deal", "1", "--level", "beginner", close_stdin=True))
    assert line == "cannot read standard input: it is closed"


def test_play_argument_and_level_errors() -> None:
    _usage_error(_run("play", "--deal", "-5"), "--deal")
    _usage_error(_run("play", "--deal", str(2**53)), "--deal")
    _usage_error(_run("play", "--lang", "de"), "--lang")
    line = _one_line_error(_run("play", "--deal", "1", "--level", "os:path"))
    assert line.startswith("cannot load bot 'os:path'")


def test_play_at_the_end_of_input_leaves_the_game() -> None:
    done = _run("play", "--deal", "1", "--level", "beginner", stdin=b"")
    assert done.returncode == 0 and done.stderr == ""


@pytest.mark.parametrize("argument", [("--repeats", "0"), ("--hands", "0"),
                                      ("--repeats", "-1"), ("--hands", "9" * 5000)])
def test_bench_refuses_counts_below_one(argument: tuple[str, str]) -> None:
    _usage_error(_run("bench", *argument), argument[0])


def _no_constant(name: str) -> None:
    raise AssertionError(f"{name} in the JSON")


def test_bench_with_the_smallest_counts_prints_strict_json() -> None:
    done = _run("bench", "--hands", "1", "--repeats", "1", timeout=120)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout, parse_constant=_no_constant)
    assert result["random_hands_per_s"] > 0 and result["legal_plays_ns"] > 0
