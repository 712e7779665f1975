"""Build the site: the one folder ``site/`` (git-ignored) that is served, holding exactly what the
page, its workers and the service worker fetch, idempotently and quickly when nothing changed.

- ``npm ci`` when ``node_modules`` is missing or was not installed from ``package-lock.json``;
- copies the page's own files (``SHELL_FILES`` and ``sw.js``) from the repository into ``site/``,
  under the same paths, and writes ``ui/paint-words.js`` (the first visit's welcome in each
  language, from ``locales/``, for ui/paint.js to paint before Python);
- copies the PyScript and Pyodide files the page loads into ``site/vendor/``;
- packs the Python the page imports (``spades_core``, ``ui``, the text catalogues ``locales/``
  and ``lessons/`` when present) into
  ``site/vendor/app.zip``, which ``pyscript.toml`` unpacks into the interpreter's working
  directory, with bytecode precompiled by Pyodide's own CPython under Node (the page then skips
  compiling); redone only when those files change;
- lists what the service worker (``sw.js``) precaches and hashes it into a build id: writes
  ``site/vendor/build.json`` and ``site/vendor/sw-build.js`` (``self.SPADES_BUILD = {...}``,
  imported by sw.js), so that any change to a served file gives a new worker and a new cache;
- deletes anything else in ``site/``: the folder holds ``site_files()`` and nothing more, so any
  static host can serve it as it is, and nothing put there by hand survives a build.

``site_files()`` is the one statement of what is served: the precache list plus the service
worker's own three files. ``spades_server`` serves ``site/`` and nothing else.

On by default: the build also writes ``site/vendor/pyodide/snapshot-<key>.zip``, Pyodide's memory
snapshot of an interpreter that has just started, made under Node with the site's own Pyodide
files, and points the site's ``pyscript.toml`` at ``ui/pyodide-boot.mjs``, which starts Pyodide
from that snapshot when the service worker has cached it and as before otherwise
(docs/performance.md). ``--no-snapshot`` (or ``SPADES_SNAPSHOT=0``, for the server's process too,
as its refresh of the page's files reads it) builds the plain boot; without Node, or when making
the snapshot fails, so does the build (it says so).

On by default: the site serves, as ``vendor/pyodide/python_stdlib.zip``, Pyodide's standard
library with the bytecode of the modules an interpreter imports while the page starts (Pyodide's
own, PyScript's and the app's: ``STDLIB_PYC_EXTRA`` and whatever the start imports), compiled by
the same Pyodide under Node as "unchecked-hash" .pyc beside each .py, which zipimport prefers;
the sources stay, so a traceback still shows its lines. Every interpreter (the page's and its two
workers') then starts without compiling them: about 1.3 s of CPU instead of 3.3 s
(docs/performance.md). ``--no-stdlib-pyc`` (or ``SPADES_STDLIB_PYC=0``, for the server's process
too) serves Pyodide's own zip; without Node, or when the compile fails, so does the build.

Usage: ``python3 tools/build_web.py [--no-snapshot] [--no-stdlib-pyc]``
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
# The build folder: what is served, and only that. Its paths are the page's URLs.
SITE = ROOT / "site"
VENDOR = SITE / "vendor"
# Where vendor/ was built before site/ (removed by the build when it holds an old build).
OLD_VENDOR = ROOT / "vendor"
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
APP_SOURCES = ("spades_core", "ui", "lessons", "locales")
APP_ZIP = VENDOR / "app.zip"
# The sources' hash app.zip was packed from: build state, kept out of the served folder.
APP_ZIP_KEY = NODE_MODULES / ".build_web.app-zip.sha256"
# Served, but not read by Python: left out of app.zip.
APP_SKIP = ("ui/icons",)
SW_BUILD = VENDOR / "sw-build.js"
BUILD_INFO = VENDOR / "build.json"
# The service worker's own files: fetched by the browser (sw.js, checked on every navigation,
# and the script it imports) and by the worker (the server's build id); never cached.
SW_FILES = ("sw.js", "vendor/sw-build.js", "vendor/build.json")
# What the service worker precaches, as URLs relative to the page: exactly what the page, the
# Expert's worker and the lessons screen fetch (tests/browser/test_offline.py compares this list
# with the requests of a real visit), plus the manifest and its icons. These are the
# repository's own files, copied into site/ under the same paths (and sw.js with them).
SHELL_FILES = (
    "index.html",
    "pyscript.toml",
    "manifest.webmanifest",
    "ui/favicon.svg",
    "ui/icons/icon.svg",
    "ui/icons/icon-192.png",
    "ui/icons/icon-512.png",
    "ui/loading.js",
    "ui/paint.js",
    "ui/sw-register.js",
    "ui/table.css",
    "ui/cards.css",
    "ui/lessons.css",
    "ui/coach.css",
    "ui/main.py",
    "ui/botworker.py",
)
# Written by the build (not copied): the words ui/paint.js paints the first visit's welcome with
# before Python is ready, from the catalogues (ui/table/welcome.py's paint_script); precached.
PAINT_WORDS = "ui/paint-words.js"
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

# The precompiled standard library (on unless SPADES_STDLIB_PYC=0).
STDLIB_PYC_ENV = "SPADES_STDLIB_PYC"
STDLIB_PYC_KEY = NODE_MODULES / ".build_web.stdlib-pyc.sha256"
# Imported by the page beyond what Pyodide imports while it starts (seen in the page:
# tools/browser_bench.py's "modules"): PyScript's Python (html), the app (datetime), and an
# encoding the page's start reads.
STDLIB_PYC_EXTRA = ("html", "html.entities", "datetime", "encodings.cp437")
# Run by Node: args are Pyodide's folder, the modules to import, the zip of .pyc files to write.
_STDLIB_PYC_JS = """
import { writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
const [indexURL, extra, target] = process.argv.slice(-3);
const { loadPyodide } = await import(pathToFileURL(indexURL + "pyodide.mjs").href);
const py = await loadPyodide({ indexURL, stdout: () => {}, stderr: () => {} });
py.globals.set("extra", extra);
py.runPython(`
import importlib, importlib.util, sys, zipfile
from importlib._bootstrap_external import _code_to_hash_pyc
for name in extra.split(","):
    importlib.import_module(name)
home = next(path for path in sys.path if path.endswith(".zip"))
with zipfile.ZipFile(home) as source, zipfile.ZipFile("/pyc.zip", "w") as out:
    for name, module in sorted(sys.modules.items()):
        origin = str(getattr(getattr(module, "__spec__", None), "origin", None) or "")
        if not (origin.startswith(home + "/") and origin.endswith(".py")):
            continue
        inner = origin[len(home) + 1:]
        text = source.read(inner)
        code = compile(text, origin, "exec", dont_inherit=True)
        out.writestr(inner[:-3] + ".pyc",
                     _code_to_hash_pyc(code, importlib.util.source_hash(text), checked=False))
`);
writeFileSync(target, py.FS.readFile("/pyc.zip"));
"""

# The snapshot boot (on unless SPADES_SNAPSHOT=0): its files in site/.
SNAPSHOT_ENV = "SPADES_SNAPSHOT"
SNAPSHOT_BOOT = "ui/pyodide-boot.mjs"
# The name ui/pyodide-boot.mjs reads in the repository; the site's copy reads the snapshot's
# real name, snapshot-<key>.zip, the key a hash of the Pyodide files it was made from (the
# wasm and the standard library's zip, whose directory the snapshot's zipimport holds), so that a
# page never takes another build's snapshot from the caches.
SNAPSHOT_ZIP = "vendor/pyodide/snapshot.zip"
# The inputs' hash the snapshot was made from: build state, kept out of the served folder.
SNAPSHOT_KEY = NODE_MODULES / ".build_web.snapshot.sha256"
# Run by Node: args are Pyodide's folder and the file to write. A plain start, nothing imported
# beyond what Pyodide imports itself: no JavaScript object but Pyodide's own is referenced from
# Python, so the snapshot restores in a page or a worker as well as here.
_SNAPSHOT_JS = """
import { writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
const [indexURL, target] = process.argv.slice(-2);
const { loadPyodide } = await import(pathToFileURL(indexURL + "pyodide.mjs").href);
const py = await loadPyodide({ indexURL, _makeSnapshot: true, stdout: () => {}, stderr: () => {} });
writeFileSync(target, py.makeMemorySnapshot());
"""

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


def _copy(source: Path, dest: Path) -> bool:
    """Copy ``source`` to ``dest`` (mtime kept) unless it is already there with the same size and
    mtime; the new file replaces the old at once (a server reading it never sees half a file)."""
    src_stat = source.stat()
    if dest.is_file():
        dst_stat = dest.stat()
        if (dst_stat.st_size, dst_stat.st_mtime_ns) == (src_stat.st_size, src_stat.st_mtime_ns):
            return False
    dest.parent.mkdir(parents=True, exist_ok=True)
    partial = dest.with_name(dest.name + ".tmp")
    shutil.copy2(source, partial)
    partial.replace(dest)
    return True


def stdlib_pyc_enabled() -> bool:
    """Whether this build serves the precompiled standard library (unless
    ``SPADES_STDLIB_PYC=0``)."""
    return os.environ.get(STDLIB_PYC_ENV, "1") != "0"


def write_stdlib_pyc(target: Path | None = None) -> str:
    """Write ``target`` (site/vendor/pyodide/python_stdlib.zip): Pyodide's standard library
    plus the bytecode of the modules the page's start imports, for site/ only when its inputs
    changed: "made", "unchanged", or "failed" (no Node, or the compile failed)."""
    stdlib = PYODIDE_DIR / "python_stdlib.zip"
    digest = hashlib.sha256(_STDLIB_PYC_JS.encode() + ",".join(STDLIB_PYC_EXTRA).encode())
    for name in PYODIDE_FILES:
        digest.update(hashlib.sha256((PYODIDE_DIR / name).read_bytes()).digest())
    key = digest.hexdigest()
    in_site = target is None
    target = VENDOR / "pyodide" / "python_stdlib.zip" if target is None else target
    if (in_site and target.is_file() and STDLIB_PYC_KEY.is_file()
            and STDLIB_PYC_KEY.read_text().strip() == key):
        return "unchanged"
    node = shutil.which("node")
    if node is None:
        _log("node not found: the standard library without bytecode")
        return "failed"
    with tempfile.TemporaryDirectory() as temp:
        pyc_zip = Path(temp, "pyc.zip")
        command = [node, "--input-type=module", "-e", _STDLIB_PYC_JS, "--",
                   f"{PYODIDE_DIR}/", ",".join(STDLIB_PYC_EXTRA), str(pyc_zip)]
        result = subprocess.run(command, capture_output=True, text=True, stdin=subprocess.DEVNULL)
        if result.returncode != 0 or not pyc_zip.is_file():
            reason = (result.stderr.strip().splitlines() or ["no output"])[-1][:200]
            _log(f"standard library not precompiled: {reason}")
            return "failed"
        with zipfile.ZipFile(stdlib) as plain, zipfile.ZipFile(pyc_zip) as compiled:
            entries = [(name, plain.read(name)) for name in plain.namelist()]
            entries += [(name, compiled.read(name)) for name in compiled.namelist()]
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".tmp")
    partial.write_bytes(_zip(entries))
    partial.replace(target)
    if in_site:
        STDLIB_PYC_KEY.write_text(key + "\n")
    return "made"


def vendor_runtime() -> int:
    """Copy Pyodide's core files and the PyScript files the page loads into site/vendor/;
    return how many were copied. With the precompiled standard library on, its zip is written
    instead of Pyodide's (and Pyodide's copied when that fails)."""
    names = list(PYODIDE_FILES)
    copied = 0
    state = write_stdlib_pyc() if stdlib_pyc_enabled() else "off"
    if state in ("made", "unchanged"):
        names.remove("python_stdlib.zip")
        copied += state == "made"
    else:  # Pyodide's own zip (copied over a precompiled one: their sizes differ)
        STDLIB_PYC_KEY.unlink(missing_ok=True)
    pairs = [(PYODIDE_DIR / name, VENDOR / "pyodide" / name) for name in names]
    pairs += [
        (PYSCRIPT_DIST / name, VENDOR / "pyscript" / name) for name in pyscript_files(PYSCRIPT_DIST)
    ]
    return copied + sum(_copy(source, dest) for source, dest in pairs)


def snapshot_enabled() -> bool:
    """Whether this build makes the snapshot boot (unless ``SPADES_SNAPSHOT=0``)."""
    return os.environ.get(SNAPSHOT_ENV, "1") != "0"


def snapshot_boot() -> bool:
    """Whether site/ boots from a snapshot: enabled, and site/ holds one (none when Node is
    missing or could not make it: the plain boot, as with ``SPADES_SNAPSHOT=0``)."""
    return snapshot_enabled() and site_snapshot() is not None


def shell_files() -> tuple[str, ...]:
    """The repository's files copied into site/ (SHELL_FILES, and the snapshot boot's module
    when it is on)."""
    return (*SHELL_FILES, SNAPSHOT_BOOT) if snapshot_boot() else SHELL_FILES


def copy_sources() -> int:
    """Copy the repository's files the page fetches as they are (shell_files() and sw.js) into
    site/, under the same paths; return how many were copied. With the snapshot boot on, the
    site's pyscript.toml names ui/pyodide-boot.mjs as the interpreter."""
    snapshot = site_snapshot() if snapshot_enabled() else None
    names = [*shell_files(), "sw.js"]
    if snapshot is not None:
        names.remove("pyscript.toml")
        names.remove(SNAPSHOT_BOOT)
    copied = sum(_copy(ROOT / name, SITE / name) for name in names)
    _write_if_changed(SITE / PAINT_WORDS, paint_words_script())
    if snapshot is not None:
        # the site's copy reads this build's snapshot, and nothing else
        boot = (ROOT / SNAPSHOT_BOOT).read_text()
        _write_if_changed(SITE / SNAPSHOT_BOOT,
                          boot.replace('"snapshot.zip"', f'"{Path(snapshot).name}"'))
        text = (ROOT / "pyscript.toml").read_text()
        plain = 'interpreter = "./vendor/pyodide/pyodide.mjs"'
        if plain not in text:
            raise SystemExit(f"build_web: pyscript.toml lacks {plain!r}")
        _write_if_changed(SITE / "pyscript.toml",
                          text.replace(plain, f'interpreter = "./{SNAPSHOT_BOOT}"'))
    return copied


def paint_words_script() -> str:
    """The text of site/ui/paint-words.js: the early welcome's words in each language, from
    locales/<lang>/table.json as they are now (read at each call: the server's refresh too)."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    from ui.shared import i18n
    from ui.table import welcome

    def catalogue(lang: str) -> dict[str, str]:
        path = ROOT / "locales" / lang / f"{welcome.CATALOGUE}.json"
        return dict(json.loads(path.read_text(encoding="utf-8")))

    return welcome.paint_script(i18n.LANGUAGES, catalogue)


def make_snapshot(target: Path | None = None) -> bool:
    """Write ``target`` (site/vendor/pyodide/snapshot.zip: Pyodide's memory snapshot of a fresh
    interpreter, made by Node from site/'s Pyodide files), for site/ only when those files
    changed; False without Node or when Pyodide refuses (then, for site/, any older snapshot is
    deleted: the page boots as without it)."""
    folder = VENDOR / "pyodide"
    digest = hashlib.sha256(_SNAPSHOT_JS.encode())
    for name in PYODIDE_FILES:
        digest.update(hashlib.sha256((folder / name).read_bytes()).digest())
    key = digest.hexdigest()
    in_site = target is None
    target = SITE / snapshot_file(key) if target is None else target
    if (in_site and target.is_file() and SNAPSHOT_KEY.is_file()
            and SNAPSHOT_KEY.read_text().strip() == key):
        return False
    node = shutil.which("node")
    reason = "node not found"
    data = None
    if node is not None:
        with tempfile.TemporaryDirectory() as temp:
            raw = Path(temp, "snapshot.bin")
            command = [node, "--input-type=module", "-e", _SNAPSHOT_JS, "--", f"{folder}/",
                       str(raw)]
            result = subprocess.run(command, capture_output=True, text=True,
                                    stdin=subprocess.DEVNULL)
            if result.returncode == 0 and raw.is_file():
                data = _zip([("snapshot.bin", raw.read_bytes())])
            else:
                reason = (result.stderr.strip().splitlines() or ["no output"])[-1][:200]
    if data is None:
        _log(f"no snapshot ({reason}): the page boots without one")
        if in_site:  # no older snapshot may stay, made from other Pyodide files
            for other in (VENDOR / "pyodide").glob("snapshot-*.zip"):
                other.unlink()
            SNAPSHOT_KEY.unlink(missing_ok=True)
        return False
    partial = target.with_name(target.name + ".tmp")
    partial.write_bytes(data)
    partial.replace(target)
    if in_site:
        for other in (VENDOR / "pyodide").glob("snapshot-*.zip"):
            if other != target:
                other.unlink()
        SNAPSHOT_KEY.write_text(key + "\n")
    return True


def snapshot_file(key: str) -> str:
    """The snapshot's path in site/ for the hash ``key`` of the files it was made from."""
    return SNAPSHOT_ZIP.replace("snapshot.zip", f"snapshot-{key[:16]}.zip")


def site_snapshot() -> str | None:
    """The snapshot site/ holds (its path in site/), if any."""
    found = sorted((VENDOR / "pyodide").glob("snapshot-*.zip"))
    return found[-1].relative_to(SITE).as_posix() if found else None


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
    """Write site/vendor/app.zip (sources plus precompiled bytecode) when its sources changed."""
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
    APP_ZIP_KEY.parent.mkdir(parents=True, exist_ok=True)
    APP_ZIP_KEY.write_text(key + "\n")
    return True


def pyscript_files(folder: Path | None = None) -> list[str]:
    """core.js, its core-<hash>.js and the chunks of PYSCRIPT_CHUNKS, named as core imports them
    (read in ``folder``: site/vendor/pyscript/, or PyScript's dist/ when copying)."""
    folder = folder or VENDOR / "pyscript"
    found = re.search(r'from\s*"\./(core-[\w-]+\.js)"', (folder / "core.js").read_text())
    if found is None:
        raise SystemExit(f"build_web: {folder}/core.js imports no core-<hash>.js")
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
    files = [*shell_files(), PAINT_WORDS]
    files += [f"vendor/pyodide/{name}" for name in PYODIDE_FILES]
    snapshot = site_snapshot() if snapshot_enabled() else None
    if snapshot is not None:
        files.append(snapshot)
    files += [f"vendor/pyscript/{name}" for name in pyscript_files()]
    files.append("vendor/app.zip")
    return files


def site_files() -> list[str]:
    """Everything site/ holds and serves, as URLs relative to the page (and paths in site/):
    what the service worker precaches and its own three files."""
    return [*precache_files(), *SW_FILES]


def build_id(files: list[str], root: Path | None = None) -> str:
    """A hash of the precached files' names and bytes and of sw.js: a new build, a new id."""
    root = root or SITE
    digest = hashlib.sha256()
    for name in [*files, "sw.js"]:
        digest.update(name.encode() + b"\0" + hashlib.sha256((root / name).read_bytes()).digest())
    return digest.hexdigest()[:16]


_build_info_lock = threading.Lock()
_build_info_memo: dict[str, object] = {}


def _write_if_changed(path: Path, content: str) -> None:
    if path.is_file() and path.read_text() == content:
        return
    partial = path.with_name(path.name + ".tmp")
    partial.write_text(content)
    partial.replace(path)


def write_build_info() -> dict[str, object]:
    """Write site/vendor/build.json and site/vendor/sw-build.js for the files as they are now;
    quick (no hashing) when no precached file changed size or mtime since the last call."""
    with _build_info_lock:
        files = precache_files()
        names = [*files, "sw.js"]
        stats = [(SITE / name).stat() for name in names]
        stamp = repr([(n, s.st_size, s.st_mtime_ns) for n, s in zip(names, stats, strict=True)])
        stamp += str(SITE)
        if _build_info_memo.get("stamp") == stamp and BUILD_INFO.is_file() and SW_BUILD.is_file():
            return _build_info_memo["info"]  # type: ignore[return-value]
        info: dict[str, object] = {
            "build": build_id(files),
            "files": files,
            "bytes": sum(s.st_size for s in stats[:-1]),
        }
        text = json.dumps(info, indent=1)
        VENDOR.mkdir(parents=True, exist_ok=True)
        _write_if_changed(BUILD_INFO, text + "\n")
        _write_if_changed(SW_BUILD, f"// Written by tools/build_web.py: what sw.js precaches.\n"
                                    f"self.SPADES_BUILD = {text};\n")
        _build_info_memo.update(stamp=stamp, info=info)
        return info


def refresh_site() -> dict[str, object]:
    """What the server runs when the service worker asks for the build: the repository's page
    files copied again where they changed, and the build id written for the files as they are
    (so that an edit to, say, ui/table.css reaches the next load). app.zip is not repacked."""
    copy_sources()
    return write_build_info()


def prune_site() -> list[str]:
    """Delete whatever site/ holds besides site_files() (and the folders left empty); return the
    paths deleted, relative to site/."""
    wanted = {SITE / name for name in site_files()}
    removed: list[str] = []
    for folder, dirnames, filenames in os.walk(SITE, topdown=False):
        here = Path(folder)
        for name in filenames:
            path = here / name
            if path not in wanted:
                path.unlink()
                removed.append(path.relative_to(SITE).as_posix())
        for name in dirnames:
            path = here / name
            if path.is_symlink():
                path.unlink()
                removed.append(path.relative_to(SITE).as_posix())
            elif not any(path.iterdir()):
                path.rmdir()
    return sorted(removed)


def remove_old_vendor() -> bool:
    """Delete the repository's vendor/, where this script built before site/, when it holds
    one of its builds (its sw-build.js)."""
    if not (OLD_VENDOR / "sw-build.js").is_file():
        return False
    shutil.rmtree(OLD_VENDOR)
    return True


def build() -> None:
    """Everything the page needs, doing only the work that is out of date."""
    ensure_node_modules()
    if remove_old_vendor():
        _log("removed vendor/ (the old build folder; the site is built in site/)")
    copied = vendor_runtime()
    if snapshot_enabled() and make_snapshot():
        _log(f"{site_snapshot()} made (the snapshot boot)")
    copied += copy_sources()
    packed = pack_app()
    state = "rebuilt" if packed else "unchanged"
    info = write_build_info()
    removed = prune_site()
    if removed:
        _log(f"removed from site/, not part of the site: {', '.join(removed[:5])}"
             + (f" and {len(removed) - 5} more" if len(removed) > 5 else ""))
    _log(f"site/ ready ({copied} file(s) copied, app.zip {state}, build {info['build']})")


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    flags = {"--snapshot": (SNAPSHOT_ENV, "1"), "--no-snapshot": (SNAPSHOT_ENV, "0"),
             "--stdlib-pyc": (STDLIB_PYC_ENV, "1"), "--no-stdlib-pyc": (STDLIB_PYC_ENV, "0")}
    if any(arg not in flags for arg in args):
        print("usage: python3 tools/build_web.py [--no-snapshot] [--no-stdlib-pyc]",
              file=sys.stderr)
        return 2
    for arg in args:
        name, value = flags[arg]
        os.environ[name] = value
    try:
        build()
    except subprocess.CalledProcessError as error:
        print(f"build_web: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
