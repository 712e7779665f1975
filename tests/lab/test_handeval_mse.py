"""lab/handeval_mse.py: the hand evaluator's trick estimates against played-out deals."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_measuring_tool_prints_the_same_figures_twice() -> None:
    command = [sys.executable, str(ROOT / "lab" / "handeval_mse.py"), "--deals", "30",
               "--seed", "3"]
    first = subprocess.run(command, capture_output=True, text=True, check=True, cwd=ROOT)
    second = subprocess.run(command, capture_output=True, text=True, check=True, cwd=ROOT)
    assert first.stdout == second.stdout
    result = json.loads(first.stdout)
    assert result["deals"] == 30 and result["seed"] == 3
    for name in ("handeval", "removed"):
        for way in ("eager", "contract"):
            figures = result["figures"][name][way]
            assert figures["mse"] >= 0 and figures["team_mse"] >= 0
    # every seat's tricks add up to 13 a deal: the mean estimate error is the evaluator's
    assert result["figures"]["handeval"]["eager"]["bias"] == \
        result["figures"]["handeval"]["contract"]["bias"]
