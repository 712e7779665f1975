"""Instructions per random hand: ``python3 tools/engine_instructions.py`` prints one JSON object.

The same three drivers as ``python -m spades_core bench`` (:mod:`spades_core.bench`): our engine
on the bots' path (``bots.rollout.play_out``, the path the expert's search runs on), our engine
state by state (``GameState``, the table's path) and, when ``open_spiel`` is installed,
OpenSpiel's ``spades``; each hand is 4 bids and 52 plays chosen by ``random.choice`` among the
legal actions (plus OpenSpiel's 52 chance actions of the deal).

Unlike wall time, the count of machine instructions does not depend on the machine's load: it
tells whether a change made the engine do less. Each driver runs under valgrind's callgrind
twice, ``--warm`` hands then 0 or ``--hands`` more hands of the same seed (so that memoised
tables are as full as in the benchmark's later rounds); the difference over ``--hands`` is the
cost of one hand. Needs ``valgrind`` (``apt-get install -y valgrind``). Instructions are not
time: the benchmark's ratio is what the bar asks for, this tells where the time goes.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DRIVER = """
import sys
from spades_core import bench
run = {{"search": bench.play_hands, "states": bench.play_states}}.get("{name}")
if run is None:
    def run(count, seed):
        driver = bench.openspiel_hands(count, seed)
        driver()
run({warm}, 1)
run(int(sys.argv[1]), 1)
"""


def instructions(name: str, count: int, warm: int) -> int:
    """Instructions callgrind counts for one run of ``name``'s driver over ``count`` hands."""
    with tempfile.TemporaryDirectory() as scratch:
        completed = subprocess.run(
            [
                "valgrind", "--tool=callgrind", f"--callgrind-out-file={scratch}/out",
                sys.executable, "-c", DRIVER.format(name=name, warm=warm), str(count),
            ],
            cwd=ROOT, capture_output=True, text=True, check=True,
        )
    found = re.search(r"Collected : (\d+)", completed.stderr)
    if found is None:
        raise RuntimeError(f"callgrind printed no count for {name}:\n{completed.stderr[-2000:]}")
    return int(found.group(1))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=500, help="hands measured (default 500)")
    parser.add_argument("--warm", type=int, default=300, help="hands played first (default 300)")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        print("engine_instructions: valgrind is missing (apt-get install -y valgrind)",
              file=sys.stderr)
        return 2
    names = ["search", "states"]
    try:
        import pyspiel  # type: ignore[import-not-found]  # noqa: F401
    except ImportError:
        pass
    else:
        names.append("openspiel")
    result: dict[str, float] = {}
    for name in names:
        extra = instructions(name, args.hands, args.warm) - instructions(name, 0, args.warm)
        result[f"{name}_instructions_per_hand"] = round(extra / args.hands)
    if "openspiel_instructions_per_hand" in result:
        theirs = result["openspiel_instructions_per_hand"]
        result["instruction_ratio_vs_openspiel"] = round(
            theirs / result["search_instructions_per_hand"], 3
        )
        result["immutable_instruction_ratio_vs_openspiel"] = round(
            theirs / result["states_instructions_per_hand"], 3
        )
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
