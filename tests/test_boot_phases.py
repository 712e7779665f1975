"""tools/browser_bench.py's split of the ready time: each phase is the gap between two of the
page's marks, a phase whose marks a page lacks is left out (the bare page has no app), and the
experimental snapshot boot of tools/build_web.py is off unless asked for."""

from __future__ import annotations

import pytest

from tests.helpers import load_tool


def test_phases_are_gaps_between_the_page_marks() -> None:
    bench = load_tool("browser_bench")
    load = {"ready": 5000.0, "files": {"pyodide.asm.wasm": {"end": 300.0}},
            "marks": {"py:Loading interpreter": 200.0, "bench:wasm-start": 400.0,
                      "bench:wasm-end": 600.0, "py:Loaded interpreter": 3600.0,
                      "spades:python-start": 4000.0, "spades:app-imported": 4300.0}}
    found = bench.phases(load)
    assert found["wasm download ends (from nav)"] == 300.0
    assert found["  wasm compile + instantiate"] == 200.0
    assert found["  interpreter start (stdlib mounted, Python init)"] == 3000.0
    assert found["loadPyodide, in all"] == 3400.0
    assert found["importing the app"] == 300.0
    assert found["ready (from nav)"] == 5000.0
    assert "building the controller" not in found  # no spades:app-built mark
    other = {**load, "ready": 7000.0}
    medians = bench.median_phases([load, other, other])
    assert medians["ready (from nav)"] == 7000.0
    table = bench.phase_table({"phases_ms": {"app_first": medians, "app_repeat": {},
                                             "bare_first": {}, "bare_repeat": medians}})
    assert "| importing the app | 300 |  |  | 300 |" in table.splitlines()


def test_snapshot_boot_is_off_unless_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    build_web = load_tool("build_web")
    monkeypatch.delenv(build_web.SNAPSHOT_ENV, raising=False)
    assert build_web.SNAPSHOT_BOOT not in build_web.shell_files()
    monkeypatch.setenv(build_web.SNAPSHOT_ENV, "1")
    assert build_web.SNAPSHOT_BOOT in build_web.shell_files()
    assert build_web.main(["--bogus"]) == 2
