"""The page's public files, as tools/serve.py serves them: MIME types, gzip (compressed once,
kept in memory), ETags and 304, ``Cache-Control: no-cache``, the page's CSP, the service
worker's build files refreshed before they are served; dotfiles and the private folders
(``tools/``, ``lab/``, ``tests/``, ``node_modules/``, caches) never, checked on the resolved
path."""

from __future__ import annotations

import asyncio
import gzip
import hashlib
import posixpath
import threading
from collections.abc import Callable
from pathlib import Path
from urllib.parse import unquote

from starlette.requests import Request
from starlette.responses import Response

from .config import load_build_web

BUILD_INFO_PATHS = {"/vendor/build.json", "/vendor/sw-build.js"}
MIME_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".json": "application/json",
    ".webmanifest": "application/manifest+json",
    ".toml": "application/toml; charset=utf-8",
    ".py": "text/plain; charset=utf-8",
    ".txt": "text/plain; charset=utf-8",
    ".md": "text/plain; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".ico": "image/x-icon",
    ".wasm": "application/wasm",
    ".zip": "application/zip",
    ".woff2": "font/woff2",
}
COMPRESSIBLE = {
    ".html", ".js", ".mjs", ".css", ".json", ".webmanifest", ".toml", ".py", ".txt", ".md",
    ".svg", ".wasm",
}
PRIVATE_TOP = {
    "tools", "lab", "tests", "node_modules", "test-artifacts", "__pycache__", "spades_server",
}
PRIVATE_SEGMENTS = {"__pycache__", "node_modules"}
PRIVATE_SUFFIXES = {".sqlite3", ".sqlite3-wal", ".sqlite3-shm", ".db"}
MIN_GZIP_SIZE = 512
# The page's policy (index.html's <meta> says the same; tests compare them), sent as a header
# with every HTML response.
CSP = (
    "default-src 'self'; script-src 'self' 'unsafe-eval' 'wasm-unsafe-eval'; "
    "worker-src 'self' blob:; style-src 'self'; img-src 'self'; object-src 'none'; "
    "base-uri 'none'; form-action 'none'"
)


class _Entry:
    """One file's bytes (plain and, lazily, gzipped) for a given size and mtime."""

    __slots__ = ("etag", "gzipped", "key", "lock", "plain")

    def __init__(self, key: tuple[int, int], plain: bytes) -> None:
        self.key = key
        self.plain = plain
        self.gzipped: bytes | None = None
        self.etag = '"' + hashlib.sha1(plain).hexdigest()[:20] + '"'
        self.lock = threading.Lock()

    def gzip_bytes(self) -> bytes:
        with self.lock:
            if self.gzipped is None:
                self.gzipped = gzip.compress(self.plain, compresslevel=6, mtime=0)
            return self.gzipped


class FileCache:
    def __init__(self) -> None:
        self._entries: dict[Path, _Entry] = {}
        self._lock = threading.Lock()

    def get(self, path: Path) -> _Entry:
        stat = path.stat()
        key = (stat.st_size, stat.st_mtime_ns)
        with self._lock:
            entry = self._entries.get(path)
        if entry is None or entry.key != key:
            entry = _Entry(key, path.read_bytes())
            with self._lock:
                self._entries[path] = entry
        return entry


def resolve_public(url_path: str, root: Path) -> Path | None:
    """The file a (still %-encoded) URL path names, or None when missing or not public."""
    path = posixpath.normpath(unquote(url_path))
    parts = [part for part in path.split("/") if part]
    if any(part.startswith(".") or part in PRIVATE_SEGMENTS for part in parts):
        return None
    if parts and parts[0] in PRIVATE_TOP:
        return None
    candidate = root.joinpath(*parts)
    try:
        if candidate.is_dir():
            candidate = candidate / "index.html"
        resolved = candidate.resolve(strict=True)
    except (OSError, ValueError):
        return None
    base = root.resolve()
    if not resolved.is_file() or not resolved.is_relative_to(base):
        return None
    # The same checks on the resolved path: a symlink may not lead to a private file.
    inside = resolved.relative_to(base).parts
    if any(part.startswith(".") or part in PRIVATE_SEGMENTS for part in inside):
        return None
    if (inside and inside[0] in PRIVATE_TOP) or resolved.suffix.lower() in PRIVATE_SUFFIXES:
        return None
    if resolved.suffix.lower() not in MIME_TYPES:  # only the kinds of file the page is made of
        return None
    return resolved


def build_info_refresher(root: Path) -> Callable[[], object] | None:
    """tools/build_web.py's ``write_build_info`` when ``root`` is the project's own folder."""
    tools = root / "tools"
    if not (root / "vendor").is_dir() or not (tools / "build_web.py").is_file():
        return None
    refresh: Callable[[], object] = load_build_web(root).write_build_info
    return refresh


class StaticFiles:
    """The endpoint for every GET or HEAD that is not the rooms' API."""

    def __init__(self, root: Path, refresh: Callable[[], object] | None) -> None:
        self.root = root
        self.cache = FileCache()
        self.refresh = refresh
        self._refresh_lock = asyncio.Lock()

    async def respond(self, request: Request) -> Response:
        raw = request.scope.get("raw_path") or request.url.path.encode()
        url_path = raw.decode("latin-1").split("?", 1)[0]
        if self.refresh is not None and url_path in BUILD_INFO_PATHS:
            async with self._refresh_lock:
                await asyncio.to_thread(self.refresh)
        path = await asyncio.to_thread(resolve_public, url_path, self.root)
        if path is None:
            return Response(
                "404 Not Found\n", 404, media_type="text/plain; charset=utf-8",
                headers={"X-Content-Type-Options": "nosniff"},
            )
        entry = await asyncio.to_thread(self.cache.get, path)
        suffix = path.suffix.lower()
        headers = {
            "ETag": entry.etag,
            "Cache-Control": "no-cache",
            "X-Content-Type-Options": "nosniff",
            "Referrer-Policy": "no-referrer",
        }
        content_type = MIME_TYPES.get(suffix, "application/octet-stream")
        if suffix == ".html":
            headers["Content-Security-Policy"] = CSP
        if suffix in COMPRESSIBLE:
            headers["Vary"] = "Accept-Encoding"
        if request.headers.get("if-none-match") == entry.etag:
            return Response(b"", 304, headers=headers)
        body = entry.plain
        if (
            suffix in COMPRESSIBLE
            and len(body) >= MIN_GZIP_SIZE
            and "gzip" in request.headers.get("accept-encoding", "")
        ):
            body = await asyncio.to_thread(entry.gzip_bytes)
            headers["Content-Encoding"] = "gzip"
        headers["Content-Type"] = content_type
        headers["Content-Length"] = str(len(body))
        if request.method == "HEAD":
            return Response(b"", 200, headers=headers)
        return Response(body, 200, headers=headers)
