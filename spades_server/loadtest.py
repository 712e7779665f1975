"""``python3 -m spades_server loadtest``: the load benchmark, on loopback only, bounded.

It starts its own server process (``python3 -m spades_server`` on 127.0.0.1, a free port, a
fresh SQLite file) — with ``--redis``, a ``redis-server`` of its own on a free loopback port
(no persistence) and ``--processes`` server processes (2) on it, a room's seats spread over
them (North and South on one, East and West on the other: every action crosses processes;
``--rooms-together``: a room's four seats on one process, room K on process K mod N) —
then:

1. ``--rooms`` private rooms (default 200) of four simulated clients each (one WebSocket
   per seat, no bots), all at once: each client bids and plays its seat's legal actions from
   its own views, after a think time (``--think`` seconds, seeded), until the game is over
   (``--target`` points, or ``--hands`` hands). For every action it measures the time from
   sending it to the moment every seat of the room has received the state that follows
   (its version);
2. ``--gets`` GETs of ``/`` (default 2000), ``--get-concurrency`` at once (default 200);
3. ``--wasm`` parallel downloads of the Pyodide wasm (default 200), gzip accepted.

It prints one JSON object: actions, actions/s, p50/p95/p99/max of that time in ms (also for
the actions sent once every room was seated, and each minute's p95), errors (refusals,
closed sockets, bad statuses), lost actions (sent, never followed by an update to every
seat), actions refused ``busy`` (sent again 0.5 s later), each process's CPU and its time
runnable but waiting for a CPU (``/proc/PID/schedstat``), the clients' event-loop lag, and
the static figures. ``--client-processes N`` runs the simulated clients in N processes of
their own; ``--ramp S`` spreads the rooms' arrival over S seconds. It stops by itself
(``--deadline`` seconds for the games) and stops what it started by their pids. Exit status
0 when there was no error and no lost action, 1 otherwise.
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
    sent: list[float] = field(default_factory=list)  # when each of those actions was sent (s)
    actions: int = 0
    errors: list[str] = field(default_factory=list)
    lost: int = 0
    games_over: int = 0
    busy: int = 0  # actions refused "busy" (the server overloaded), sent again
    seated: float = 0.0  # when the last room had all four seats' first state (s)
    start: float = field(default_factory=time.perf_counter)

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
    started: bool = False  # every seat has had a state

    def received(self, seat: str, version: int) -> None:
        if version <= self.seen.get(seat, -1):
            return
        self.seen[seat] = version
        if len(self.seen) < 4:
            return
        lowest = min(self.seen.values())
        now = time.perf_counter()
        totals = self.totals
        if not self.started:
            self.started = True
            totals.seated = max(totals.seated, now - totals.start)
        for acted in [v for v in self.pending if v < lowest]:
            sent = self.pending.pop(acted)
            totals.latencies.append((now - sent) * 1000)
            totals.sent.append(sent - totals.start)


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
        last: str | None = None  # the last action sent
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
                if message["reason"] == "busy" and last is not None:
                    # overloaded, nothing changed: the player clicks again (its latency
                    # still counts from the first send)
                    totals.busy += 1
                    await asyncio.sleep(0.5)
                    await ws.send(last)
                    continue
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
            last = json.dumps(action)
            await ws.send(last)


async def _room(urls: list[str], index: int, args: argparse.Namespace, totals: Totals,
                gate: asyncio.Semaphore, deadline: float) -> None:
    run = RoomRun(totals)
    ready = asyncio.Event()
    code_box: list[str] = []
    options = {"target": args.target, "blind_nil": False, "bot_level": "beginner"}
    seats = ["N", "E", "S", "W"]
    tasks = []
    if args.ramp:  # the rooms arrive one by one over --ramp seconds
        await asyncio.sleep(index * args.ramp / args.rooms)
    async with gate:  # the connections open a few rooms at a time (the listen backlog)
        for number, seat in enumerate(seats):
            rng = random.Random(args.seed * 100_003 + index * 4 + number)
            join: dict[str, Any] = (
                {"type": "create", "nickname": f"p{index}", "options": options, "seat": seat}
                if number == 0 else {"type": "join", "nickname": f"p{index}{seat}", "seat": seat}
            )
            # the seats spread over the processes, or (--rooms-together) the room's four on
            # one process, room K on process K mod P: a room's events then concern one
            url = urls[(index + (0 if args.rooms_together else number)) % len(urls)]
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


def schedstat(pid: int | str) -> tuple[float, int] | None:
    """Seconds a process (its main thread) has spent runnable but waiting for a CPU so far,
    and how many times it was given one (``/proc/PID/schedstat``, its 2nd and 3rd fields):
    the machine's contention, not its work."""
    try:
        fields = Path(f"/proc/{pid}/schedstat").read_text().split()
        return int(fields[1]) / 1e9, int(fields[2])
    except (OSError, IndexError, ValueError):
        return None


def _sched_delta(before: tuple[float, int] | None,
                 after: tuple[float, int] | None) -> tuple[float, int]:
    if before is None or after is None:
        return 0.0, 0
    return after[0] - before[0], after[1] - before[1]


def _waits(waited: float, runs: int) -> dict[str, Any]:
    """Time waited for a CPU, the times it ran, and the mean wait each time it woke."""
    return {"s": round(waited, 2), "runs": runs,
            "ms_per_run": round(waited * 1000 / runs, 3) if runs else None}


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


async def _play(args: argparse.Namespace, urls: list[str], indices: range, totals: Totals,
                gate_size: int) -> list[float]:
    """Play the rooms ``indices`` from this process; return its event loop's lags (ms: how
    late a 50 ms sleep woke up, sampled all along: a busy client measures late)."""
    gate = asyncio.Semaphore(gate_size)
    deadline = time.monotonic() + args.deadline
    lags: list[float] = []
    done = asyncio.Event()

    async def watch() -> None:
        loop = asyncio.get_running_loop()
        while not done.is_set():
            before = loop.time()
            await asyncio.sleep(0.05)
            lags.append((loop.time() - before - 0.05) * 1000)

    watcher = asyncio.create_task(watch())
    try:
        await asyncio.gather(*(
            _room(urls, index, args, totals, gate, deadline) for index in indices
        ))
    finally:
        done.set()
        await watcher
    return lags


def _worker_argv(args: argparse.Namespace, number: int, urls: list[str],
                 start: float) -> list[str]:
    return [sys.executable, "-m", "spades_server", "loadtest", "--rooms", str(args.rooms),
            "--target", str(args.target), "--think", str(args.think),
            "--deadline", str(args.deadline), "--open-concurrency", str(args.open_concurrency),
            "--seed", str(args.seed), "--hands", str(args.hands), "--ramp", str(args.ramp),
            "--gets", "0", "--wasm", "0", "--client-processes", str(args.client_processes),
            *(["--rooms-together"] if args.rooms_together else []),
            "--worker", str(number), "--urls", ",".join(urls), "--start", repr(start)]


def _worker(args: argparse.Namespace) -> int:
    """``--worker K``: one of ``--client-processes`` N client processes: the rooms K, K + N,
    ... against ``--urls``; prints its raw figures as one JSON object (read by the parent)."""
    totals = Totals(start=args.start)
    count = args.client_processes
    cpu_before = time.process_time()
    sched_before = schedstat("self")
    lags = asyncio.run(_play(args, args.urls.split(","), range(args.worker, args.rooms, count),
                             totals, max(1, args.open_concurrency // count)))
    print(json.dumps({
        "latencies": totals.latencies, "sent": totals.sent, "actions": totals.actions,
        "errors": totals.errors, "lost": totals.lost, "games_over": totals.games_over,
        "busy": totals.busy,
        "seated": totals.seated, "cpu_s": time.process_time() - cpu_before, "lags": lags,
        "sched": _sched_delta(sched_before, schedstat("self")),
    }))
    return 0


async def _clients(args: argparse.Namespace, urls: list[str], totals: Totals) -> dict[str, Any]:
    """The simulated clients: in this process, or in ``--client-processes`` processes of
    their own (each started and stopped by its pid); their CPU and event loops' lags."""
    count = args.client_processes
    if count == 1:
        cpu_before = time.process_time()
        sched_before = schedstat("self")
        lags = await _play(args, urls, range(args.rooms), totals, args.open_concurrency)
        return {"cpu": time.process_time() - cpu_before, "lags": lags,
                "sched": _sched_delta(sched_before, schedstat("self"))}
    workers = [await asyncio.create_subprocess_exec(
        *_worker_argv(args, number, urls, totals.start), cwd=ROOT,
        stdout=asyncio.subprocess.PIPE) for number in range(count)]
    _CHILDREN.extend(worker.pid for worker in workers)
    try:
        outputs = await asyncio.gather(*(worker.communicate() for worker in workers))
    finally:
        for worker in workers:
            if worker.returncode is None:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(worker.pid, signal.SIGTERM)
                await worker.wait()
    cpu, lags, waited, runs = 0.0, [], 0.0, 0
    for number, (out, _) in enumerate(outputs):
        try:
            part = json.loads(out)
        except ValueError:
            totals.error(f"client process {number} printed no figures")
            continue
        totals.latencies += part["latencies"]
        totals.sent += part["sent"]
        totals.actions += part["actions"]
        for text in part["errors"]:
            totals.error(text)
        totals.lost += part["lost"]
        totals.games_over += part["games_over"]
        totals.busy += part["busy"]
        totals.seated = max(totals.seated, part["seated"])
        cpu += part["cpu_s"]
        lags += part["lags"]
        waited += part["sched"][0]
        runs += part["sched"][1]
    return {"cpu": cpu, "lags": lags, "sched": (waited, runs)}


def _spread(latencies: list[float], sent: list[float], seated: float) -> dict[str, Any]:
    """The latencies of the actions sent once every room was seated (the rooms' sockets
    opening and joining no longer competing), and each minute's p95 (by when sent)."""
    after = [lat for lat, when in zip(latencies, sent, strict=True) if when >= seated]
    minutes: dict[int, list[float]] = {}
    for lat, when in zip(latencies, sent, strict=True):
        minutes.setdefault(int(when // 60), []).append(lat)
    return {
        "all_seated_s": round(seated, 1), "actions_after": len(after),
        "p50_ms_after": percentile(after, 50), "p95_ms_after": percentile(after, 95),
        "p99_ms_after": percentile(after, 99),
        "p95_ms_by_minute": [percentile(minutes[m], 95) for m in sorted(minutes)],
    }


async def _run(args: argparse.Namespace, host: str, ports: list[int], pids: list[int],
               redis_url: str | None, redis_pid: int | None) -> dict[str, Any]:
    urls = [f"ws://{host}:{port}/ws" for port in ports]
    port = ports[0]
    cpu_before = [cpu_seconds(pid) for pid in pids]
    sched_before = [schedstat(pid) for pid in [*pids, *([redis_pid] if redis_pid else [])]]
    redis_cpu_before = cpu_seconds(redis_pid) if redis_pid else None
    redis_before = await _redis_info(redis_url)
    totals = Totals()
    start = totals.start
    clients = await _clients(args, urls, totals)
    seconds = time.perf_counter() - start
    sched_after = [schedstat(pid) for pid in [*pids, *([redis_pid] if redis_pid else [])]]
    clients_cpu = clients["cpu"]
    lat = totals.latencies
    games: dict[str, Any] = {
        "rooms": args.rooms, "clients": 4 * args.rooms, "target": args.target,
        "hands": args.hands, "processes": len(ports), "redis": redis_url is not None,
        "client_processes": args.client_processes, "ramp_s": args.ramp,
        "rooms_together": args.rooms_together,
        "think_s": args.think, "ws_deflate": args.ws_deflate,
        "games_over": totals.games_over, "actions": totals.actions,
        "seconds": round(seconds, 2),
        "actions_per_s": round(totals.actions / seconds, 1) if seconds else None,
        "p50_ms": percentile(lat, 50), "p95_ms": percentile(lat, 95),
        "p99_ms": percentile(lat, 99), "max_ms": round(max(lat), 1) if lat else None,
        "errors": len(totals.errors), "error_samples": [e for e in totals.errors if e][:5],
        "busy_refusals": totals.busy,
        "lost": totals.lost + (totals.actions - totals.lost - len(lat)),
        "clients_cpu_s": round(clients_cpu, 2),
        "clients_cpu_ms_per_action": (round(clients_cpu * 1000 / totals.actions, 2)
                                      if totals.actions else None),
        "clients_loop_lag_ms": {"p50": percentile(clients["lags"], 50),
                                "p99": percentile(clients["lags"], 99),
                                "max": round(max(clients["lags"]), 1)
                                if clients["lags"] else None},
        **_spread(lat, totals.sent, totals.seated),
    }
    # How long each process was ready to run but had no CPU (the machine's other work, or
    # this run's own processes outnumbering the cores), against the CPU it used.
    waits = [_waits(*_sched_delta(before, after))
             for before, after in zip(sched_before, sched_after, strict=True)]
    games["waited_for_cpu"] = {"servers": waits[:len(pids)],
                               "redis": waits[len(pids)] if redis_pid else None,
                               "clients": _waits(*clients["sched"])}
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
    parser.add_argument("--rooms-together", action="store_true",
                        help="each room's four seats on one server process (room K on "
                             "process K mod N), not spread over them")
    parser.add_argument("--client-processes", type=int, default=1,
                        help="processes the simulated clients run in (the rooms dealt out)")
    parser.add_argument("--ramp", type=float, default=0.0,
                        help="seconds over which the rooms arrive, one after another")
    # one client process of --client-processes (started by the benchmark itself)
    parser.add_argument("--worker", type=int, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--urls", default="", help=argparse.SUPPRESS)
    parser.add_argument("--start", type=float, default=0.0, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.processes is None:
        args.processes = 2 if args.redis else 1
    if not 1 <= args.processes <= 8 or (args.processes > 1 and not args.redis):
        parser.error("--processes is 1 to 8, and more than 1 needs --redis")
    if not 1 <= args.rooms <= 1000 or args.gets < 0 or args.wasm < 0:
        parser.error("--rooms is 1 to 1000; --gets and --wasm are 0 or more")
    if not 0 < args.deadline <= 3600 or not 0 <= args.think <= 10:
        parser.error("--deadline is at most 3600 s, --think at most 10 s")
    if not 1 <= args.client_processes <= 8 or not 0 <= args.ramp <= 600:
        parser.error("--client-processes is 1 to 8, --ramp 0 to 600 s")
    return args


_CHILDREN: list[int] = []  # the pids of the processes this started (servers, Redis, clients)


def _stop_on_sigterm(signum: int, frame: object) -> None:
    # The processes it started are stopped first, by their pids: their sockets closing end
    # the clients' tasks at once (a run stopped mid-way with its servers still up waited
    # on 4,000 sockets' closing handshakes); then the way out stops what is left.
    for pid in _CHILDREN:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGTERM)
    raise SystemExit(1)


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
    if args.worker is not None:  # a client process: SIGTERM ends it (it started nothing)
        return _worker(args)
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
                _CHILDREN.append(redis.pid)
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
                _CHILDREN.append(started[-1].pid)
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
