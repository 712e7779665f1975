"""``python3 -m spades_server loadtest`` in a small run: its own server on loopback, whole
games, the static downloads, one JSON object, and no error nor lost action."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from spades_server.loadtest import percentile

ROOT = Path(__file__).resolve().parents[1]


def test_percentile() -> None:
    values = [float(v) for v in range(1, 101)]
    assert percentile(values, 50) in (50.0, 51.0)
    assert percentile(values, 99) == 99.0
    assert percentile([], 50) is None


def test_a_small_load_run_prints_its_figures() -> None:
    command = [sys.executable, "-m", "spades_server", "loadtest", "--rooms", "4",
               "--target", "50", "--think", "0.1", "--deadline", "120", "--gets", "40",
               "--get-concurrency", "10", "--wasm", "2"]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stdout + done.stderr
    result = json.loads(done.stdout)
    games = result["games"]
    assert games["rooms"] == 4 and games["clients"] == 16 and games["games_over"] == 4
    assert games["errors"] == 0 and games["lost"] == 0 and games["actions"] >= 4 * 56
    assert games["p50_ms"] <= games["p95_ms"] <= games["p99_ms"] <= games["max_ms"]
    assert games["actions_per_s"] > 0 and games["server_cpu_ms_per_action"] > 0
    for key, count in (("get_index", 40), ("wasm", 2)):
        assert result[key]["ok"] == count and result[key]["errors"] == 0
    assert result["wasm"]["bytes"][0] > 1_000_000


def test_a_small_load_run_over_redis_and_two_processes() -> None:
    """``--redis``: a redis-server of its own and two server processes, each room's seats on
    both; the figures say the processes' CPU and Redis's commands and memory; all stopped.
    With ``--client-processes 2`` the rooms' clients run in two processes of their own (their
    figures gathered: every room finished, their CPU), the rooms arriving over ``--ramp``."""
    command = [sys.executable, "-m", "spades_server", "loadtest", "--redis", "--rooms", "3",
               "--hands", "1", "--think", "0.05", "--deadline", "120", "--gets", "0",
               "--wasm", "0", "--client-processes", "2", "--ramp", "0.5"]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stdout + done.stderr
    games = json.loads(done.stdout)["games"]
    assert games["processes"] == 2 and games["redis"]["commands_per_action"] > 1
    assert games["games_over"] == 3 and games["errors"] == 0 and games["lost"] == 0
    assert games["actions"] >= 3 * 52 and len(games["server_cpu_s_per_process"]) == 2
    assert all(cpu > 0 for cpu in games["server_cpu_s_per_process"])
    assert games["redis"]["used_memory"] > 0 and games["redis"]["keys"] >= 3
    assert games["client_processes"] == 2 and games["clients_cpu_s"] > 0
    assert games["actions_after"] <= games["actions"] and games["p95_ms_by_minute"]
    assert games["clients_loop_lag_ms"]["max"] is not None
    assert len(games["waited_for_cpu"]["servers"]) == 2
    assert games["waited_for_cpu"]["clients"]["runs"] > 0
