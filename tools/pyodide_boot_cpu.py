"""Pyodide's start under Node, three ways, in CPU time: ``python3 tools/pyodide_boot_cpu.py
[--rounds 5]`` prints one JSON object.

The page's ready time is mostly Pyodide's own start (docs/performance.md), and on a shared
machine its wall-clock time follows the load; the CPU time a start takes moves much less. This
tool starts the vendored Pyodide (node_modules/pyodide, as tools/build_web.py copies it) under
Node, each start in a fresh process, the ways in turn, ``--rounds`` times:

- ``plain``: ``loadPyodide()`` as the page does (the standard library's sources compiled as the
  interpreter and Pyodide import them);
- ``stdlib_pyc``: the same with ``stdLibURL`` pointing to a copy of ``python_stdlib.zip`` that also
  holds each module's bytecode (compiled here by the same Pyodide, "unchecked-hash" .pyc beside
  each .py, which zipimport prefers);
- ``snapshot``: ``loadPyodide({_loadSnapshot})`` from the snapshot tools/build_web.py makes with
  ``--snapshot`` (``makeMemorySnapshot()`` of a fresh interpreter).

Each start's wall and CPU (user + system, all threads: the WebAssembly compiler's too) ms of
``loadPyodide``; medians per way; the zips' sizes.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

TOOLS = Path(__file__).resolve().parent
sys.path.insert(0, str(TOOLS))

import build_web  # noqa: E402

PYODIDE = build_web.PYODIDE_DIR
# args: Pyodide's folder, the stdlib zip to write (sources and bytecode).
_STDLIB_PYC_JS = """
import { readFileSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
const [indexURL, target] = process.argv.slice(-2);
const { loadPyodide } = await import(pathToFileURL(indexURL + "pyodide.mjs").href);
const py = await loadPyodide({ indexURL });
py.unpackArchive(new Uint8Array(readFileSync(indexURL + "python_stdlib.zip")), "zip",
                 { extractDir: "/std" });
py.runPython(`
import compileall, os, py_compile, zipfile
mode = py_compile.PycInvalidationMode.UNCHECKED_HASH
compileall.compile_dir("/std", quiet=2, legacy=True, invalidation_mode=mode)
with zipfile.ZipFile("/out.zip", "w", zipfile.ZIP_DEFLATED, compresslevel=9) as out:
    for folder, dirs, names in os.walk("/std"):
        dirs.sort()
        for name in sorted(names):
            full = os.path.join(folder, name)
            out.write(full, os.path.relpath(full, "/std"))
`);
writeFileSync(target, py.FS.readFile("/out.zip"));
"""
# args: Pyodide's folder, the way, the stdlib zip, the raw snapshot.
_START_JS = """
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
const [indexURL, way, stdlib, snapshot] = process.argv.slice(-4);
const { loadPyodide } = await import(pathToFileURL(indexURL + "pyodide.mjs").href);
const options = { indexURL };
if (way === "stdlib_pyc") options.stdLibURL = stdlib;
if (way === "snapshot") options._loadSnapshot = readFileSync(snapshot);
const cpu = process.cpuUsage();
const begin = performance.now();
const py = await loadPyodide(options);
const wall = performance.now() - begin;
const used = process.cpuUsage(cpu);
const modules = py.runPython("import sys; len(sys.modules)");
console.log(JSON.stringify({ wall, cpu: (used.user + used.system) / 1000, modules }));
"""
WAYS = ("plain", "stdlib_pyc", "snapshot")


def _node(script: str, *args: str) -> str:
    node = shutil.which("node")
    if node is None:
        raise SystemExit("pyodide_boot_cpu: node not found")
    result = subprocess.run([node, "--input-type=module", "-e", script, "--", *args],
                            capture_output=True, text=True, stdin=subprocess.DEVNULL, check=False)
    if result.returncode != 0:
        raise SystemExit(f"pyodide_boot_cpu: {result.stderr.strip()[-300:]}")
    return result.stdout


def run(rounds: int) -> dict[str, object]:
    build_web.build()
    index = f"{build_web.VENDOR / 'pyodide'}/"
    with tempfile.TemporaryDirectory() as temp:
        stdlib, snapshot_zip = Path(temp, "stdlib.zip"), Path(temp, "snapshot.zip")
        _node(_STDLIB_PYC_JS, index, str(stdlib))
        if not build_web.make_snapshot(snapshot_zip):
            raise SystemExit("pyodide_boot_cpu: no snapshot")
        snapshot = Path(temp, "snapshot.bin")
        with zipfile.ZipFile(snapshot_zip) as archive:
            snapshot.write_bytes(archive.read("snapshot.bin"))
        starts: dict[str, list[dict[str, float]]] = {way: [] for way in WAYS}
        load_before = os.getloadavg()
        for _ in range(rounds):
            for way in WAYS:
                out = _node(_START_JS, index, way, str(stdlib), str(snapshot))
                starts[way].append(json.loads(out.strip().splitlines()[-1]))
        load_after = os.getloadavg()
        sizes = {"python_stdlib.zip": (PYODIDE / "python_stdlib.zip").stat().st_size,
                 "stdlib with bytecode": stdlib.stat().st_size,
                 "snapshot (raw)": snapshot.stat().st_size,
                 "snapshot.zip": snapshot_zip.stat().st_size}
    return {
        "rounds": rounds,
        "cpu_ms": {way: round(statistics.median(s["cpu"] for s in found))
                   for way, found in starts.items()},
        "wall_ms": {way: round(statistics.median(s["wall"] for s in found))
                    for way, found in starts.items()},
        "modules": {way: found[0]["modules"] for way, found in starts.items()},
        "bytes": sizes,
        "load_average": {"before": [round(x, 2) for x in load_before],
                         "after": [round(x, 2) for x in load_after]},
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--rounds", type=int, default=5, help="starts of each way (default 5)")
    args = parser.parse_args(argv)
    print(json.dumps(run(max(1, args.rounds))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
