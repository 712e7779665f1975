"""lab/nil_odds.py and lab/review_audit.py: small runs (smoke tests; the figures are in
docs/hints.md, from the full runs)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _run(*args: str) -> dict[str, object]:
    done = subprocess.run([sys.executable, *args], capture_output=True, text=True, check=True,
                          cwd=ROOT)
    result = json.loads(done.stdout)
    assert isinstance(result, dict)
    return result


@pytest.mark.slow
def test_the_nil_odds_table_counts_stated_against_made() -> None:
    result = _run(str(ROOT / "lab" / "nil_odds.py"), "--hands", "3", "--levels", "normal",
                  "--seed", "41")
    level = result["levels"]["normal"]  # type: ignore[index]
    assert level["hands"] == 3
    for source in ("hint", "review"):
        buckets = level[source]
        assert sum(b["hands"] for b in buckets.values()) == 3
        for bucket, figures in buckets.items():
            assert figures["stated_pct"] == 10 * int(bucket)
            assert figures["within"] is None  # under 30 hands: not judged
            assert 0 <= figures["made_pct"] <= 100
    # the review's figure only where the review would show it (the item flagged)
    shown = level["review_flagged"]
    assert 0 <= shown["hands"] <= 3
    assert sum(b["hands"] for b in shown["buckets"].values()) == shown["hands"]
    assert set(shown["buckets"]) <= set(level["review"])


@pytest.mark.slow
def test_the_review_audit_judges_every_flagged_item() -> None:
    result = _run(str(ROOT / "lab" / "review_audit.py"), "--hands", "2", "--seed", "9041",
                  "--quote", "1")
    flagged = result["flagged"]
    assert isinstance(flagged, int) and flagged >= 1
    for key in ("largest_named", "with_reason", "lesson_fits", "within_noise"):
        assert result[key]["of"] == flagged  # type: ignore[index]
    assert result["with_reason"]["count"] == flagged  # type: ignore[index]
    assert len(result["quotes"]) == 1  # type: ignore[arg-type]
