"""The site's files: the one folder ``tools/build_web.py`` builds (``site/``), and nothing else.

Starlette's own :class:`~starlette.staticfiles.StaticFiles` finds the file: the URL's path inside
the folder and never out of it (``..``, absolute paths, a symlink leading out: 404), ``/`` as
``index.html``, 404 and 405, ETag and Last-Modified with 304, HEAD, ranges. Added here: the
project's MIME types, and only for the kinds of file the page is made of (any other file is
404), ``Cache-Control: no-cache`` on every file (revalidated: the service worker and its build
files above all), the page's CSP as a header on HTML, ``nosniff``, the files' bytes read once and
gzip compressed once, kept in memory (a range request is Starlette's, from the disk), and the
build id refreshed (``build_web.refresh_site``) when the service worker asks for it.
"""

from __future__ import annotations

import asyncio
import contextlib
import gzip
import os
import threading
from collections.abc import Callable
from pathlib import Path

import anyio.to_thread
from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.responses import FileResponse, Response
from starlette.staticfiles import NotModifiedResponse, StaticFiles
from starlette.types import Scope

from .config import load_build_web

# The service worker's build files (paths inside the site): asking for one refreshes them.
BUILD_INFO_PATHS = {"vendor/build.json", "vendor/sw-build.js"}
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
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".ico": "image/x-icon",
    ".wasm": "application/wasm",
    ".zip": "application/zip",
    ".woff2": "font/woff2",
}
COMPRESSIBLE = {
    ".html", ".js", ".mjs", ".css", ".json", ".webmanifest", ".toml", ".py", ".txt", ".svg",
    ".wasm",
}
MIN_GZIP_SIZE = 512
# The page's policy (index.html's <meta> says the same; tests compare them), sent as a header
# with every HTML response.
CSP = (
    "default-src 'self'; script-src 'self' 'unsafe-eval' 'wasm-unsafe-eval'; "
    "worker-src 'self' blob:; style-src 'self'; img-src 'self'; object-src 'none'; "
    "base-uri 'none'; form-action 'none'"
)
# Sent with every file (and the 404s).
COMMON_HEADERS = {
    "Cache-Control": "no-cache",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


class _Entry:
    """One file's bytes: ``state`` is (size and mtime, plain bytes, gzipped bytes or None),
    replaced whole, so that a reader without the lock sees one version or the other."""

    __slots__ = ("lock", "state")

    def __init__(self) -> None:
        self.state: tuple[tuple[int, int], bytes, bytes | None] | None = None
        self.lock = threading.Lock()


class FileCache:
    """Each file read once and, when asked, gzipped once, kept in memory; read again when its
    size or mtime changes."""

    def __init__(self) -> None:
        self._entries: dict[str, _Entry] = {}
        self._lock = threading.Lock()

    def peek(self, path: str, stat: os.stat_result, gzipped: bool) -> bytes | None:
        """The bytes when they are in memory already (no thread needed), else None."""
        entry = self._entries.get(path)
        state = entry.state if entry is not None else None
        if state is None or state[0] != (stat.st_size, stat.st_mtime_ns):
            return None
        return state[2] if gzipped else state[1]

    def get(self, path: str, stat: os.stat_result, gzipped: bool) -> bytes:
        key = (stat.st_size, stat.st_mtime_ns)
        with self._lock:
            entry = self._entries.setdefault(path, _Entry())
        with entry.lock:  # one read or compression of a file at a time; the others wait for it
            state = entry.state
            if state is None or state[0] != key:
                with open(path, "rb") as file:
                    state = (key, file.read(), None)
            if gzipped and state[2] is None:
                state = (key, state[1], gzip.compress(state[1], compresslevel=6, mtime=0))
            entry.state = state
            data = state[2] if gzipped else state[1]
            assert data is not None
            return data


def not_found(status: int = 404, headers: dict[str, str] | None = None) -> Response:
    text = "404 Not Found\n" if status == 404 else f"{status}\n"
    return Response(text, status, media_type="text/plain; charset=utf-8",
                    headers={"X-Content-Type-Options": "nosniff", **(headers or {})})


def site_refresher(site: Path) -> Callable[[], object] | None:
    """``tools/build_web.py``'s ``refresh_site`` when ``site`` is the project's own build folder
    (its page files copied again where they changed, the build id rewritten); else None."""
    build_web = load_build_web()
    if not site.is_dir() or site.resolve() != Path(build_web.SITE).resolve():
        return None
    refresh: Callable[[], object] = build_web.refresh_site
    return refresh


class SiteFiles(StaticFiles):
    """The ASGI app mounted at ``/`` after the rooms' routes: every other GET or HEAD."""

    def __init__(self, site: Path, refresh: Callable[[], object] | None = None) -> None:
        # check_dir=False: a server started before the first build answers 404, not 500.
        super().__init__(directory=site, html=True, check_dir=False)
        self.site = site
        self.refresh = refresh
        self.cache = FileCache()
        self._refresh_lock = asyncio.Lock()

    async def check_config(self) -> None:
        """No error when the folder is missing: every path is then 404."""

    async def get_response(self, path: str, scope: Scope) -> Response:
        if self.refresh is not None and path in BUILD_INFO_PATHS:
            # On failure (a build under way, say), the build files as they are.
            async with self._refresh_lock:
                with contextlib.suppress(OSError):
                    await anyio.to_thread.run_sync(self.refresh)
        if path == "." and scope["path"] == "/":
            path = "index.html"  # the page's address: one look-up rather than the folder's two
        try:
            response = await super().get_response(path, scope)
        except HTTPException as error:
            return not_found(error.status_code, dict(error.headers or {}))
        if not isinstance(response, FileResponse) or response.stat_result is None:
            return response  # a 304 (or a redirect)
        request_headers = Headers(scope=scope)
        if "range" in request_headers:
            return response  # Starlette's: the plain file's bytes asked for, from the disk
        path, stat = str(response.path), response.stat_result
        gzipped = (
            os.path.splitext(path)[1].lower() in COMPRESSIBLE
            and stat.st_size >= MIN_GZIP_SIZE
            and "gzip" in request_headers.get("accept-encoding", "")
        )
        body = self.cache.peek(path, stat, gzipped)
        if body is None:
            body = await anyio.to_thread.run_sync(self.cache.get, path, stat, gzipped)
        headers = {
            name: value for name, value in response.headers.items() if name != "content-length"
        }
        if gzipped:
            headers["Content-Encoding"] = "gzip"
            headers.pop("accept-ranges", None)
        headers["Content-Length"] = str(len(body))
        return Response(b"" if scope["method"] == "HEAD" else body, headers=headers)

    def file_response(
        self,
        full_path: str | os.PathLike[str],
        stat_result: os.stat_result,
        scope: Scope,
        status_code: int = 200,
    ) -> Response:
        suffix = os.path.splitext(full_path)[1].lower()
        media_type = MIME_TYPES.get(suffix)
        if media_type is None:  # only the kinds of file the page is made of
            raise HTTPException(404)
        headers = dict(COMMON_HEADERS)
        if suffix == ".html":
            headers["Content-Security-Policy"] = CSP
        if suffix in COMPRESSIBLE:
            headers["Vary"] = "Accept-Encoding"
        response = FileResponse(
            full_path, status_code, headers, media_type, stat_result=stat_result
        )
        if self.is_not_modified(response.headers, Headers(scope=scope)):
            return NotModifiedResponse(response.headers)
        return response
