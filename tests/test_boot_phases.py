"""tools/browser_bench.py's split of the ready time: each phase is the gap between two of the
page's marks, a phase whose marks a page lacks is left out (the bare page has no app); and
tools/build_web.py's snapshot boot: on unless turned off, off where no snapshot could be made."""

from __future__ import annotations

from pathlib import Path

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


def test_snapshot_boot_is_on_unless_turned_off_or_missing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    build_web = load_tool("build_web")
    monkeypatch.setattr(build_web, "site_snapshot", lambda: "vendor/pyodide/snapshot-0123.zip")
    monkeypatch.delenv(build_web.SNAPSHOT_ENV, raising=False)
    assert build_web.SNAPSHOT_BOOT in build_web.shell_files()
    monkeypatch.setenv(build_web.SNAPSHOT_ENV, "0")
    assert build_web.SNAPSHOT_BOOT not in build_web.shell_files()
    monkeypatch.setenv(build_web.SNAPSHOT_ENV, "1")
    monkeypatch.setattr(build_web, "site_snapshot", lambda: None)  # Node could not make it
    assert build_web.SNAPSHOT_BOOT not in build_web.shell_files()
    assert build_web.main(["--bogus"]) == 2


def test_a_snapshot_that_cannot_be_made_leaves_none_behind(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    build_web = load_tool("build_web")
    folder = tmp_path / "vendor" / "pyodide"
    folder.mkdir(parents=True)
    for name in build_web.PYODIDE_FILES:
        (folder / name).write_bytes(name.encode())
    old = folder / "snapshot-0123456789abcdef.zip"  # made from other Pyodide files
    old.write_bytes(b"old")
    key = tmp_path / "snapshot.sha256"
    key.write_text("0" * 64 + "\n")
    monkeypatch.setattr(build_web, "SITE", tmp_path)
    monkeypatch.setattr(build_web, "VENDOR", tmp_path / "vendor")
    monkeypatch.setattr(build_web, "SNAPSHOT_KEY", key)
    monkeypatch.setattr(build_web.shutil, "which", lambda name: None)  # no Node
    assert build_web.make_snapshot() is False
    assert not old.exists() and not key.exists()
    assert build_web.site_snapshot() is None
    assert "no snapshot (node not found)" in capsys.readouterr().err
