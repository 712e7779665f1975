"""Set up the files the page serves, idempotently and quickly when nothing changed.

- ``npm ci`` when ``node_modules`` is missing or was not installed from ``package-lock.json``;
- copies the PyScript and Pyodide files the page loads into the git-ignored ``vendor/``
  (and ``axe-core``'s ``axe.min.js`` into ``vendor/test/``, for the browser tests only);
- packs the Python the page imports (``spades_core``, ``ui``, the text catalogues ``locales/``
  and ``lessons/`` when present) into
  ``vendor/app.zip``, which ``pyscript.toml`` unpacks into the interpreter's working directory,
  with bytecode precompiled by Pyodide's own CPython under Node (the page then skips compiling);
  redone only when those files change;
- lists what the service worker (``sw.js``) precaches and hashes it into a build id: writes
  ``vendor/build.json`` and ``vendor/sw-build.js`` (``self.SPADES_BUILD = {...}``, imported by
  sw.js), so that any change to a served file gives a new worker and a new cache.

Usage: ``python3 tools/build_web.py``
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NODE_MODULES = ROOT / "node_modules"
VENDOR = ROOT / "vendor"
LOCK_FILE = ROOT / "package-lock.json"
LOCK_STAMP = NODE_MODULES / ".build_web.lock.sha256"

PYODIDE_DIR = NODE_MODULES / "pyodide"
PYODIDE_FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)
PYSCRIPT_DIST = NODE_MODULES / "@pyscript" / "core" / "dist"
# For the browser tests only (accessibility checks); the page never loads it.
AXE_FILE = NODE_MODULES / "axe-core" / "axe.min.js"
APP_SOURCES = ("spades_core", "ui", "lessons", "locales")
APP_ZIP = VENDOR / "app.zip"
APP_ZIP_KEY = VENDOR / "app.zip.key"
# Served, but not read by Python: left out of app.zip.
APP_SKIP = ("ui/icons",)
SW_SCRIPT = ROOT / "sw.js"
SW_BUILD = VENDOR / "sw-build.js"
BUILD_INFO = VENDOR / "build.json"
# What the service worker precaches, as URLs relative to the page: exactly what the page, the
# Expert's worker and the lessons screen fetch (tests/browser/test_offline.py compares this list
# with the requests of a real visit), plus the manifest and its icons.
SHELL_FILES = (
    "index.html",
    "pyscript.toml",
    "manifest.webmanifest",
    "ui/favicon.svg",
    "ui/icons/icon.svg",
    "ui/icons/icon-192.png",
    "ui/icons/icon-512.png",
    "ui/loading.js",
    "ui/sw-register.js",
    "ui/table.css",
    "ui/cards.css",
    "ui/lessons.css",
    "ui/coach.css",
    "ui/main.py",
    "ui/botworker.py",
)
# PyScript's chunks the page loads (core.js imports core-<hash>.js, which imports the others on
# start-up); the editor, terminal, zip and graph chunks load only for elements this page lacks.
PYSCRIPT_CHUNKS = (
    "toml",
    "deprecations-manager",
    "donkey",
    "error",
    "py-editor",
    "py-game",
    "py-terminal",
)
_ZIP_DATE = (1980, 1, 1, 0, 0, 0)

# Run by Node: args are Pyodide's folder, the sources' zip, the zip of __pycache__ files to write.
# "unchecked-hash" pycs are used as they are: no check of the source's mtime after unpacking.
_COMPILE_JS = """
import { readFileSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
const [indexURL, source, target] = process.argv.slice(-3);
const { loadPyodide } = await import(pathToFileURL(indexURL + "pyodide.mjs").href);
const py = await loadPyodide({ indexURL, stdout: () => {}, stderr: () => {} });
py.unpackArchive(new Uint8Array(readFileSync(source)), "zip", { extractDir: "/app" });
try {
  py.runPython(`
import compileall, os, py_compile, zipfile
mode = py_compile.PycInvalidationMode.UNCHECKED_HASH
if not compileall.compile_dir("/app", quiet=2, invalidation_mode=mode):
    raise SystemExit("compileall failed")
with zipfile.ZipFile("/pyc.zip", "w") as out:
    for folder, _, names in os.walk("/app"):
        for name in names:
            if name.endswith(".pyc"):
                path = os.path.join(folder, name)
                out.write(path, os.path.relpath(path, "/app"))
`);
} catch (error) {
  console.error(String(error.message).trim().split("\\n").pop());
  process.exit(1);
}
writeFileSync(target, py.FS.readFile("/pyc.zip"));
"""


def _log(message: str) -> None:
    print(f"build_web: {message}", file=sys.stderr, flush=True)


def _lock_digest() -> str:
    return hashlib.sha256(LOCK_FILE.read_bytes()).hexdigest()


def ensure_node_modules() -> bool:
    """Run ``npm ci`` unless node_modules was installed from the current lock file."""
    digest = _lock_digest()
    if LOCK_STAMP.is_file() and LOCK_STAMP.read_text().strip() == digest:
        return False
    npm = shutil.which("npm")
    if npm is None:
        raise SystemExit("build_web: npm is not installed (install Node.js 20+ with npm)")
    _log("npm ci (node_modules missing or stale)")
    subprocess.run(
        [npm, "ci", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error"],
        cwd=ROOT,
        check=True,
        stdin=subprocess.DEVNULL,
    )
    LOCK_STAMP.write_text(digest + "\n")
    return True


def _sync_dir(pairs: list[tuple[Path, str]], target: Path) -> int:
    """Make ``target`` hold exactly the given files (source, name); return how many were copied."""
    target.mkdir(parents=True, exist_ok=True)
    copied = 0
    wanted = set()
    for source, name in pairs:
        wanted.add(name)
        dest = target / name
        src_stat = source.stat()
        if dest.is_file():
            dst_stat = dest.stat()
            if (dst_stat.st_size, dst_stat.st_mtime_ns) == (src_stat.st_size, src_stat.st_mtime_ns):
                continue
        shutil.copy2(source, dest)
        copied += 1
    for stale in target.iterdir():
        if stale.name not in wanted:
            if stale.is_dir():
                shutil.rmtree(stale)
            else:
                stale.unlink()
    return copied


def vendor_runtime() -> int:
    """Copy Pyodide's core files and PyScript's built files (no source maps) into vendor/."""
    pyodide = [(PYODIDE_DIR / name, name) for name in PYODIDE_FILES]
    pyscript = [
        (path, path.name)
        for path in sorted(PYSCRIPT_DIST.iterdir())
        if path.is_file() and path.suffix in {".js", ".css"}
    ]
    copied = _sync_dir(pyodide, VENDOR / "pyodide") + _sync_dir(pyscript, VENDOR / "pyscript")
    if AXE_FILE.is_file():
        copied += _sync_dir([(AXE_FILE, AXE_FILE.name)], VENDOR / "test")
    return copied


def _app_files() -> list[Path]:
    files: list[Path] = []
    skip = {ROOT / name for name in APP_SKIP}
    for top in APP_SOURCES:
        base = ROOT / top
        if not base.is_dir():
            continue
        for dirpath, dirnames, filenames in os.walk(base):
            dirnames[:] = sorted(
                d
                for d in dirnames
                if not d.startswith(".") and d != "__pycache__" and Path(dirpath, d) not in skip
            )
            files.extend(
                Path(dirpath) / name
                for name in sorted(filenames)
                if not name.startswith(".") and not name.endswith((".pyc", ".pyo"))
            )
    return files


def _zip(entries: list[tuple[str, bytes]]) -> bytes:
    """A deterministic zip: sorted names, fixed dates and modes."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        for name, data in sorted(entries):
            info = zipfile.ZipInfo(name, date_time=_ZIP_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, data)
    return buffer.getvalue()


def compile_bytecode(sources: bytes) -> list[tuple[str, bytes]]:
    """Compile the zipped sources with Pyodide's own CPython (run by Node), for the page to skip
    compiling at start-up. Returns ``__pycache__`` entries; none when compilation fails, so that
    the page then reports the real error (a SyntaxError, say) when it imports the module."""
    node = shutil.which("node")
    if node is None:
        _log("node not found: app.zip without precompiled bytecode")
        return []
    with tempfile.TemporaryDirectory() as temp:
        source_zip, pyc_zip = Path(temp, "src.zip"), Path(temp, "pyc.zip")
        source_zip.write_bytes(sources)
        command = [node, "--input-type=module", "-e", _COMPILE_JS, "--"]
        command += [str(PYODIDE_DIR) + "/", str(source_zip), str(pyc_zip)]
        result = subprocess.run(command, capture_output=True, text=True, stdin=subprocess.DEVNULL)
        if result.returncode != 0 or not pyc_zip.is_file():
            reason = (result.stderr.strip().splitlines() or ["no output"])[-1][:200]
            _log(f"bytecode not precompiled: {reason}")
            return []
        with zipfile.ZipFile(pyc_zip) as archive:
            return [(name, archive.read(name)) for name in archive.namelist()]


def pack_app() -> bool:
    """Write vendor/app.zip (sources plus precompiled bytecode) when its sources changed."""
    sources = [(path.relative_to(ROOT).as_posix(), path.read_bytes()) for path in _app_files()]
    source_zip = _zip(sources)
    key = hashlib.sha256(source_zip + _COMPILE_JS.encode() + _lock_digest().encode()).hexdigest()
    if APP_ZIP.is_file() and APP_ZIP_KEY.is_file() and APP_ZIP_KEY.read_text().strip() == key:
        return False
    data = _zip(sources + compile_bytecode(source_zip))
    APP_ZIP.parent.mkdir(parents=True, exist_ok=True)
    partial = APP_ZIP.with_suffix(".zip.tmp")
    partial.write_bytes(data)
    partial.replace(APP_ZIP)
    APP_ZIP_KEY.write_text(key + "\n")
    return True


def pyscript_files(folder: Path | None = None) -> list[str]:
    """core.js, its core-<hash>.js and the chunks of PYSCRIPT_CHUNKS, named as core imports them."""
    folder = folder or VENDOR / "pyscript"
    found = re.search(r'from\s*"\./(core-[\w-]+\.js)"', (folder / "core.js").read_text())
    if found is None:
        raise SystemExit("build_web: vendor/pyscript/core.js imports no core-<hash>.js")
    core = found.group(1)
    imported = set(re.findall(r'import\(\s*"\./([\w.-]+\.js)"\s*\)', (folder / core).read_text()))
    names = ["core.js", core]
    for stem in PYSCRIPT_CHUNKS:
        matches = sorted(n for n in imported if re.fullmatch(re.escape(stem) + r"-[\w-]{8}\.js", n))
        if len(matches) != 1:
            raise SystemExit(f"build_web: {core} imports {matches or 'no'} chunk for {stem!r}")
        names.append(matches[0])
    return names


def precache_files() -> list[str]:
    """The URLs (relative to the page) that the service worker caches on install."""
    files = list(SHELL_FILES)
    files += [f"vendor/pyodide/{name}" for name in PYODIDE_FILES]
    files += [f"vendor/pyscript/{name}" for name in pyscript_files()]
    files.append("vendor/app.zip")
    return files


def build_id(files: list[str], root: Path | None = None) -> str:
    """A hash of the precached files' names and bytes and of sw.js: a new build, a new id."""
    root = root or ROOT
    digest = hashlib.sha256()
    for name in [*files, "sw.js"]:
        digest.update(name.encode() + b"\0" + hashlib.sha256((root / name).read_bytes()).digest())
    return digest.hexdigest()[:16]


_build_info_lock = threading.Lock()
_build_info_memo: dict[str, object] = {}


def write_build_info() -> dict[str, object]:
    """Write vendor/build.json and vendor/sw-build.js for the files as they are now; quick (no
    hashing) when no precached file changed size or mtime since the last call."""
    with _build_info_lock:
        files = precache_files()
        names = [*files, "sw.js"]
        stats = [(ROOT / name).stat() for name in names]
        stamp = repr([(n, s.st_size, s.st_mtime_ns) for n, s in zip(names, stats, strict=True)])
        stamp += str(ROOT)
        if _build_info_memo.get("stamp") == stamp and BUILD_INFO.is_file() and SW_BUILD.is_file():
            return _build_info_memo["info"]  # type: ignore[return-value]
        info: dict[str, object] = {
            "build": build_id(files),
            "files": files,
            "bytes": sum(s.st_size for s in stats[:-1]),
        }
        text = json.dumps(info, indent=1)
        VENDOR.mkdir(parents=True, exist_ok=True)
        for path, content in (
            (BUILD_INFO, text + "\n"),
            (SW_BUILD, f"// Written by tools/build_web.py: what sw.js precaches.\n"
                       f"self.SPADES_BUILD = {text};\n"),
        ):
            if not path.is_file() or path.read_text() != content:
                path.write_text(content)
        _build_info_memo.update(stamp=stamp, info=info)
        return info


def build() -> None:
    """Everything the page needs, doing only the work that is out of date."""
    ensure_node_modules()
    copied = vendor_runtime()
    packed = pack_app()
    state = "rebuilt" if packed else "unchanged"
    info = write_build_info()
    _log(f"vendor/ ready ({copied} runtime file(s) copied, app.zip {state}, build {info['build']})")


def main() -> int:
    try:
        build()
    except subprocess.CalledProcessError as error:
        print(f"build_web: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
