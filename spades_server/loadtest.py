"""``python3 -m spades_server loadtest``: the load benchmark, on loopback only, bounded.

It starts its own server process (``python3 -m spades_server`` on 127.0.0.1, a free port, a
fresh SQLite file) — with ``--redis``, a ``redis-server`` of its own on a free loopback port
(no persistence) and ``--processes`` server processes (2) on it, a room's seats spread over
them (North and South on one, East and West on the other: every action crosses processes) —
then:

1. ``--rooms`` private rooms (default 200) of four simulated clients each (one WebSocket
   per seat, no bots), all at once: each client bids and plays its seat's legal actions from
   its own views, after a think time (``--think`` seconds, seeded), until the game is over
   (``--target`` points, or ``--hands`` hands). For every action it measures the time from
   sending it to the moment every seat of the room has received the state that follows
   (its version);
2. ``--gets`` GETs of ``/`` (default 2000), ``--get-concurrency`` at once (default 200);
3. ``--wasm`` parallel downloads of the Pyodide wasm (default 200), gzip accepted.

It prints one JSON object: actions, actions/s, p50/p95/p99/max of that time in ms, errors
(refusals, closed sockets, bad statuses), lost actions (sent, never followed by an update
to every seat), and the static figures. It stops by itself (``--deadline`` seconds for the
games) and stops its server by its pid. Exit status 0 when there was no error and no lost
action, 1 otherwise.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .config import ROOT, SITE

WASM = "/vendor/pyodide/pyodide.asm.wasm"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def percentile(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return round(ordered[index], 2)


@dataclass
class Totals:
    latencies: list[float] = field(default_factory=list)  # ms
    actions: int = 0
    errors: list[str] = field(default_factory=list)
    lost: int = 0
    games_over: int = 0

    def error(self, text: str) -> None:
        if len(self.errors) < 20:
            self.errors.append(text[:200])
        else:
            self.errors.append("")


@dataclass
class RoomRun:
    """One room: what each seat has seen, and the actions waiting for every seat's update."""

    totals: Totals
    seen: dict[str, int] = field(default_factory=dict)  # seat -> highest version received
    pending: dict[int, float] = field(default_factory=dict)  # version acted on -> sent at

    def received(self, seat: str, version: int) -> None:
        if version <= self.seen.get(seat, -1):
            return
        self.seen[seat] = version
        if len(self.seen) < 4:
            return
        lowest = min(self.seen.values())
        now = time.perf_counter()
        for acted in [v for v in self.pending if v < lowest]:
            self.totals.latencies.append((now - self.pending.pop(acted)) * 1000)


async def _client(
    url: str, run: RoomRun, join: dict[str, Any], think: float, rng: random.Random,
    ready: asyncio.Event | None, code_box: list[str], deadline: float, hands: int = 0,
) -> None:
    import websockets

    totals = run.totals
    # no keepalive pings of the client's own, as a page sends none (with websockets' default
    # a client whose loop is busy closes itself with 1011 when a pong is 20 s late)
    async with websockets.connect(url, max_size=2**22, open_timeout=60,
                                  ping_interval=None) as ws:
        welcome = json.loads(await ws.recv())
        assert welcome["type"] == "welcome"
        if join["type"] == "join":
            assert ready is not None
            await ready.wait()
            join = {**join, "code": code_box[0]}
        await ws.send(json.dumps(join))
        seat = ""
        acted = -1
        while time.monotonic() < deadline:
            try:
                text = await asyncio.wait_for(ws.recv(), max(0.1, deadline - time.monotonic()))
            except TimeoutError:
                break
            message = json.loads(text)
            kind = message["type"]
            if kind == "joined":
                seat = message["seat"]
                if join["type"] == "create":
                    code_box.append(message["code"])
                    if ready is not None:
                        ready.set()
                continue
            if kind == "refused":
                totals.error(f"refused {message['reason']} {message.get('request')}")
                continue
            if kind != "state" or not seat:
                continue
            version = int(message["version"])
            view = message["view"]
            run.received(seat, version)
            if view is None:
                continue
            if view["phase"] == "over" or (hands and view["hand_index"] >= hands):
                if seat == "N":
                    totals.games_over += 1
                return
            if view["to_act"] != seat or version == acted:
                continue
            acted = version
            if view["phase"] == "bidding":
                bids = [b for b in view["legal_bids"] if b not in ("nil", "blind-nil")]
                action = {"type": "bid", "bid": bids[min(2, len(bids) - 1)]}
            else:
                plays = view["legal_plays"]
                action = {"type": "play", "card": plays[rng.randrange(len(plays))]}
            if think > 0:
                await asyncio.sleep(think * (0.5 + rng.random()))
            run.pending[version] = time.perf_counter()
            totals.actions += 1
            await ws.send(json.dumps(action))


async def _room(urls: list[str], index: int, args: argparse.Namespace, totals: Totals,
                gate: asyncio.Semaphore, deadline: float) -> None:
    run = RoomRun(totals)
    ready = asyncio.Event()
    code_box: list[str] = []
    options = {"target": args.target, "blind_nil": False, "bot_level": "beginner"}
    seats = ["N", "E", "S", "W"]
    tasks = []
    async with gate:  # the connections open a few rooms at a time (the listen backlog)
        for number, seat in enumerate(seats):
            rng = random.Random(args.seed * 100_003 + index * 4 + number)
            join: dict[str, Any] = (
                {"type": "create", "nickname": f"p{index}", "options": options, "seat": seat}
                if number == 0 else {"type": "join", "nickname": f"p{index}{seat}", "seat": seat}
            )
            url = urls[(index + number) % len(urls)]  # the seats spread over the processes
            tasks.append(asyncio.create_task(
                _client(url, run, join, args.think, rng, ready, code_box, deadline, args.hands)
            ))
            if number == 0:
                await asyncio.wait_for(ready.wait(), 60)
    results = await asyncio.gather(*tasks, return_exceptions=True)
    for result in results:
        if isinstance(result, BaseException):
            totals.error(f"client: {type(result).__name__}: {result}")
    totals.lost += len(run.pending)


async def _get(host: str, port: int, path: str, gzip_ok: bool, timeout: float) -> tuple[int, int]:
    reader, writer = await asyncio.wait_for(asyncio.open_connection(host, port), timeout)
    try:
        accept = "Accept-Encoding: gzip\r\n" if gzip_ok else ""
        writer.write(f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\n{accept}"
                     "Connection: close\r\n\r\n".encode())
        await writer.drain()
        data = await asyncio.wait_for(reader.read(-1), timeout)
    finally:
        writer.close()
        with contextlib.suppress(Exception):
            await writer.wait_closed()
    head, _, body = data.partition(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1]) if head.startswith(b"HTTP/") else 0
    return status, len(body)


async def _static(host: str, port: int, path: str, count: int, concurrency: int,
                  gzip_ok: bool, timeout: float) -> dict[str, Any]:
    gate = asyncio.Semaphore(concurrency)
    times: list[float] = []
    errors: list[str] = []
    sizes: set[int] = set()

    async def one() -> None:
        async with gate:
            start = time.perf_counter()
            try:
                status, size = await _get(host, port, path, gzip_ok, timeout)
            except (OSError, TimeoutError, IndexError, ValueError) as error:
                errors.append(f"{type(error).__name__}: {error}"[:120])
                return
            if status != 200:
                errors.append(f"status {status}")
                return
            sizes.add(size)
            times.append((time.perf_counter() - start) * 1000)

    start = time.perf_counter()
    await asyncio.gather(*(one() for _ in range(count)))
    seconds = time.perf_counter() - start
    return {
        "path": path, "requests": count, "concurrency": concurrency, "ok": len(times),
        "errors": len(errors), "error_samples": errors[:5], "seconds": round(seconds, 2),
        "per_second": round(len(times) / seconds, 1) if seconds else None,
        "p50_ms": percentile(times, 50), "p95_ms": percentile(times, 95),
        "max_ms": round(max(times), 1) if times else None, "bytes": sorted(sizes)[:3],
    }


def cpu_seconds(pid: int) -> float | None:
    """User + system CPU seconds of a process so far (Linux /proc), or None."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def _redis_info(url: str | None) -> dict[str, Any]:
    """Redis's commands so far and memory now (``INFO``), or {} without Redis."""
    if url is None:
        return {}
    import redis.asyncio as aioredis

    client = aioredis.from_url(url)
    try:
        info = await client.info()
        stats = await client.info("commandstats")
        keys = await client.dbsize()
    finally:
        await client.aclose()
    calls = {name.removeprefix("cmdstat_"): int(value["calls"])
             for name, value in stats.items() if isinstance(value, dict)}
    return {"commands": int(info["total_commands_processed"]),
            "used_memory": int(info["used_memory"]), "keys": int(keys), "calls": calls}


async def _run(args: argparse.Namespace, host: str, ports: list[int], pids: list[int],
               redis_url: str | None, redis_pid: int | None) -> dict[str, Any]:
    urls = [f"ws://{host}:{port}/ws" for port in ports]
    port = ports[0]
    cpu_before = [cpu_seconds(pid) for pid in pids]
    redis_cpu_before = cpu_seconds(redis_pid) if redis_pid else None
    redis_before = await _redis_info(redis_url)
    totals = Totals()
    gate = asyncio.Semaphore(args.open_concurrency)
    own_before = time.process_time()  # the simulated clients' CPU (this process)
    start = time.perf_counter()
    deadline = time.monotonic() + args.deadline
    await asyncio.gather(*(
        _room(urls, index, args, totals, gate, deadline) for index in range(args.rooms)
    ))
    seconds = time.perf_counter() - start
    clients_cpu = time.process_time() - own_before
    lat = totals.latencies
    games: dict[str, Any] = {
        "rooms": args.rooms, "clients": 4 * args.rooms, "target": args.target,
        "hands": args.hands, "processes": len(ports), "redis": redis_url is not None,
        "think_s": args.think, "ws_deflate": args.ws_deflate,
        "games_over": totals.games_over, "actions": totals.actions,
        "seconds": round(seconds, 2),
        "actions_per_s": round(totals.actions / seconds, 1) if seconds else None,
        "p50_ms": percentile(lat, 50), "p95_ms": percentile(lat, 95),
        "p99_ms": percentile(lat, 99), "max_ms": round(max(lat), 1) if lat else None,
        "errors": len(totals.errors), "error_samples": [e for e in totals.errors if e][:5],
        "lost": totals.lost + (totals.actions - totals.lost - len(lat)),
        "clients_cpu_s": round(clients_cpu, 2),
        "clients_cpu_ms_per_action": (round(clients_cpu * 1000 / totals.actions, 2)
                                      if totals.actions else None),
    }
    used = [(after - before) if before is not None and after is not None else None
            for before, after in zip(cpu_before, [cpu_seconds(pid) for pid in pids],
                                     strict=True)]
    if all(value is not None for value in used):
        total = sum(value for value in used if value is not None)
        games["server_cpu_s"] = round(total, 2)
        games["server_cpu_s_per_process"] = [round(v or 0.0, 2) for v in used]
        if totals.actions:
            games["server_cpu_ms_per_action"] = round(total * 1000 / totals.actions, 2)
    if redis_url is not None:
        redis_after = await _redis_info(redis_url)
        redis_cpu = cpu_seconds(redis_pid) if redis_pid else None
        commands = redis_after["commands"] - redis_before["commands"]
        games["redis"] = {
            "commands": commands,
            "commands_per_action": round(commands / totals.actions, 1) if totals.actions else None,
            "used_memory": redis_after["used_memory"], "keys": redis_after["keys"],
            "calls_per_action": {  # by command (a script's own calls counted apart too)
                name: round((count - redis_before["calls"].get(name, 0)) / totals.actions, 2)
                for name, count in sorted(redis_after["calls"].items())
                if totals.actions and count > redis_before["calls"].get(name, 0)},
            "memory_per_room": round(
                (redis_after["used_memory"] - redis_before["used_memory"]) / args.rooms),
        }
        if redis_cpu is not None and redis_cpu_before is not None:
            games["redis"]["cpu_s"] = round(redis_cpu - redis_cpu_before, 2)
            if totals.actions:
                games["redis"]["cpu_ms_per_action"] = round(
                    (redis_cpu - redis_cpu_before) * 1000 / totals.actions, 3)
    result: dict[str, Any] = {"games": games}
    if args.gets:
        result["get_index"] = await _static(host, port, "/", args.gets, args.get_concurrency,
                                            True, args.http_timeout)
    if args.wasm:
        result["wasm"] = await _static(host, port, WASM, args.wasm, args.wasm, True,
                                       args.http_timeout)
    return result


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python3 -m spades_server loadtest",
                                     description="The server's load benchmark (loopback).")
    parser.add_argument("--rooms", type=int, default=200)
    parser.add_argument("--target", type=int, default=100, help="points a game is played to")
    parser.add_argument("--think", type=float, default=0.5,
                        help="mean seconds a client waits before it acts (0.5x to 1.5x)")
    parser.add_argument("--deadline", type=float, default=600.0, help="seconds for the games")
    parser.add_argument("--gets", type=int, default=2000)
    parser.add_argument("--get-concurrency", type=int, default=200)
    parser.add_argument("--wasm", type=int, default=200)
    parser.add_argument("--http-timeout", type=float, default=120.0)
    parser.add_argument("--open-concurrency", type=int, default=20,
                        help="rooms whose sockets open at once")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--hands", type=int, default=0,
                        help="stop each room after this many hands (0: play the game out)")
    parser.add_argument("--redis", action="store_true",
                        help="rooms in a redis-server of its own, over --processes servers")
    parser.add_argument("--processes", type=int, default=None,
                        help="server processes (default 1; 2 with --redis)")
    parser.add_argument("--ws-deflate", action="store_true",
                        help="serve the WebSocket with permessage-deflate")
    args = parser.parse_args(argv)
    if args.processes is None:
        args.processes = 2 if args.redis else 1
    if not 1 <= args.processes <= 8 or (args.processes > 1 and not args.redis):
        parser.error("--processes is 1 to 8, and more than 1 needs --redis")
    if not 1 <= args.rooms <= 1000 or args.gets < 0 or args.wasm < 0:
        parser.error("--rooms is 1 to 1000; --gets and --wasm are 0 or more")
    if not 0 < args.deadline <= 3600 or not 0 <= args.think <= 10:
        parser.error("--deadline is at most 3600 s, --think at most 10 s")
    return args


def _stop_on_sigterm(signum: int, frame: object) -> None:
    raise SystemExit(1)  # so that the server process is stopped on the way out


def _wait_for_port(host: str, port: int, process: subprocess.Popen[bytes]) -> bool:
    deadline = time.monotonic() + 60
    while True:
        if process.poll() is not None:
            return False
        with contextlib.suppress(OSError), socket.create_connection((host, port), 0.5):
            return True
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)


def _stop(process: subprocess.Popen[bytes]) -> None:
    """Stop one process this started, by its pid."""
    if process.poll() is None:
        os.kill(process.pid, signal.SIGTERM)
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            os.kill(process.pid, signal.SIGKILL)
            process.wait(5)


def main(argv: list[str]) -> int:
    args = parse_args(argv)
    signal.signal(signal.SIGTERM, _stop_on_sigterm)
    if not (SITE / "vendor" / "pyodide").is_dir():
        from .config import load_build_web

        load_build_web().build()
    host = "127.0.0.1"
    load_before = [round(x, 2) for x in os.getloadavg()]
    started: list[subprocess.Popen[bytes]] = []
    with tempfile.TemporaryDirectory(prefix="spades-load-") as folder:
        try:
            redis_url: str | None = None
            redis_pid: int | None = None
            if args.redis:
                redis_port = _free_port()
                redis = subprocess.Popen(
                    [shutil.which("redis-server") or "/usr/bin/redis-server", "--port",
                     str(redis_port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
                     "--dir", folder], stdout=subprocess.DEVNULL)
                started.append(redis)
                if not _wait_for_port(host, redis_port, redis):
                    print(json.dumps({"error": "redis-server did not start"}))
                    return 1
                redis_url, redis_pid = f"redis://{host}:{redis_port}/0", redis.pid
            ports = [_free_port() for _ in range(args.processes)]
            for port in ports:
                command = [
                    sys.executable, "-m", "spades_server", "--host", host, "--port", str(port),
                    "--db", str(Path(folder) / "rooms.sqlite3"), "--no-build", "--no-install",
                    "--bot-delay", "0", "--max-connections", str(4 * args.rooms + 100),
                    "--max-rooms", str(args.rooms + 100),
                    # every simulated client comes from 127.0.0.1: no per-address limit
                    "--address-connections", str(4 * args.rooms + 100),
                    "--address-creates", str(args.rooms + 10),
                    "--address-joins", str(4 * args.rooms + 100),
                ]
                if redis_url is not None:
                    command += ["--redis", redis_url]
                if args.ws_deflate:
                    command.append("--ws-deflate")
                started.append(subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL))
                if not _wait_for_port(host, port, started[-1]):
                    print(json.dumps({"error": "the server did not start"}))
                    return 1
            pids = [process.pid for process in started if process.pid != redis_pid]
            result = asyncio.run(_run(args, host, ports, pids, redis_url, redis_pid))
        finally:
            for process in reversed(started):
                _stop(process)
    result["machine"] = {"cpus": os.cpu_count(), "python": sys.version.split()[0],
                         "load_avg_before": load_before,
                         "load_avg": [round(x, 2) for x in os.getloadavg()]}
    print(json.dumps(result))
    games = result["games"]
    failed = games["errors"] or games["lost"] or games["games_over"] < args.rooms
    failed = failed or any(result[k]["errors"] for k in ("get_index", "wasm") if k in result)
    return 1 if failed else 0


__all__ = ["main", "percentile", "statistics"]
