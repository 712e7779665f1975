"""tools/build_web.py: site/vendor/ holds what the page loads, and a second run changes nothing."""

from __future__ import annotations

import shutil
import zipfile
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]
VENDOR = ROOT / "site" / "vendor"


def test_vendor_holds_the_runtime_and_the_app(
    live_server: str, tool: Callable[[str], ModuleType]
) -> None:
    build_web = tool("build_web")
    for name in build_web.PYODIDE_FILES:
        assert (VENDOR / "pyodide" / name).is_file(), name
    assert (VENDOR / "pyscript" / "core.js").is_file()
    assert not list((VENDOR / "pyscript").glob("*.map"))
    with zipfile.ZipFile(VENDOR / "app.zip") as archive:
        names = set(archive.namelist())
    assert {"spades_core/__init__.py", "ui/__init__.py", "ui/main.py"} <= names
    pycs = [name for name in names if name.startswith("ui/__pycache__/main.")]
    assert pycs and pycs[0].endswith(".pyc"), "bytecode was not precompiled"
    assert not any(name.startswith(("tests/", "tools/", "lab/", ".")) for name in names)
    # The standard library as served: Pyodide's sources, and beside the modules every start
    # imports their bytecode, compiled by the same Pyodide (no interpreter compiles them again).
    with zipfile.ZipFile(VENDOR / "pyodide" / "python_stdlib.zip") as archive:
        stdlib = set(archive.namelist())
    assert {"encodings/__init__.py", "encodings/__init__.pyc", "datetime.pyc"} <= stdlib


def test_second_build_changes_nothing(
    live_server: str,
    tool: Callable[[str], ModuleType],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    build_web = tool("build_web")
    assert build_web.ensure_node_modules() is False
    assert build_web.vendor_runtime() == 0
    assert build_web.copy_sources() == 0
    assert build_web.prune_site() == []
    # Pack a frozen copy of the sources, so edits made while the tests run cannot interfere.
    for top in build_web.APP_SOURCES:
        if (ROOT / top).is_dir():
            shutil.copytree(ROOT / top, tmp_path / top)
    monkeypatch.setattr(build_web, "ROOT", tmp_path)
    monkeypatch.setattr(build_web, "APP_ZIP", tmp_path / "app.zip")
    monkeypatch.setattr(build_web, "APP_ZIP_KEY", tmp_path / "app.zip.key")
    monkeypatch.setattr(build_web, "compile_bytecode", lambda sources: [])
    assert build_web.pack_app() is True
    before = (tmp_path / "app.zip").read_bytes()
    assert build_web.pack_app() is False
    (tmp_path / "app.zip.key").unlink()
    assert build_web.pack_app() is True
    assert (tmp_path / "app.zip").read_bytes() == before, "the zip is not deterministic"
