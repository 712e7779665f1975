"""Serve the page: ``python3 tools/serve.py [--port 8000] [--host 127.0.0.1]``.

Standard library only. Runs ``tools/build_web.py`` first, then serves the public files with the
right MIME types, gzip for compressible responses (compressed once, kept in memory) and ETags.
Every response says ``Cache-Control: no-cache`` (revalidate), index.html and sw.js included; the
service worker's build files (vendor/build.json, vendor/sw-build.js) are rewritten when a served
file changed since, so that an edited CSS or JS file reaches the page on the next load.
Dotfiles, ``.git``, ``tools/``, ``tests/``, ``node_modules/`` and caches are never served.
Browser tests reuse :func:`start_server` (port 0 picks a free port).
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import posixpath
import sys
import threading
from collections.abc import Callable
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import unquote, urlsplit

TOOLS = Path(__file__).resolve().parent
ROOT = TOOLS.parent
# Refreshed before they are served (see the module's docstring).
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
    ".html",
    ".js",
    ".mjs",
    ".css",
    ".json",
    ".webmanifest",
    ".toml",
    ".py",
    ".txt",
    ".md",
    ".svg",
    ".wasm",
}
PRIVATE_TOP = {"tools", "tests", "node_modules", "test-artifacts", "__pycache__"}
PRIVATE_SEGMENTS = {"__pycache__", "node_modules"}
MIN_GZIP_SIZE = 512


class _Entry:
    """One file's bytes (plain and, lazily, gzipped) for a given size and mtime."""

    __slots__ = ("gzipped", "key", "lock", "plain", "etag")

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


class _FileCache:
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


def resolve_public(url_path: str, root: Path = ROOT) -> Path | None:
    """The file a URL path names, or None when it is missing or not public."""
    path = posixpath.normpath(unquote(urlsplit(url_path).path))
    parts = [part for part in path.split("/") if part]
    if any(part.startswith(".") or part in PRIVATE_SEGMENTS for part in parts):
        return None
    if parts and parts[0] in PRIVATE_TOP:
        return None
    candidate = root.joinpath(*parts)
    if candidate.is_dir():
        candidate = candidate / "index.html"
    try:
        resolved = candidate.resolve(strict=True)
    except (OSError, ValueError):
        return None
    if not resolved.is_file() or not resolved.is_relative_to(root.resolve()):
        return None
    return resolved


def _make_handler(
    root: Path, cache: _FileCache, quiet: bool, refresh: Callable[[], object] | None
) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        server_version = "SpadesServe/1"
        protocol_version = "HTTP/1.1"

        def do_GET(self) -> None:
            self._respond(send_body=True)

        def do_HEAD(self) -> None:
            self._respond(send_body=False)

        def _respond(self, send_body: bool) -> None:
            if refresh is not None and urlsplit(self.path).path in BUILD_INFO_PATHS:
                refresh()
            path = resolve_public(self.path, root)
            if path is None:
                self._send_status(HTTPStatus.NOT_FOUND, send_body)
                return
            entry = cache.get(path)
            suffix = path.suffix.lower()
            content_type = MIME_TYPES.get(suffix, "application/octet-stream")
            if self.headers.get("If-None-Match") == entry.etag:
                self.send_response(HTTPStatus.NOT_MODIFIED)
                self._common_headers(entry.etag)
                self.end_headers()
                return
            body = entry.plain
            encoded = False
            if (
                suffix in COMPRESSIBLE
                and len(body) >= MIN_GZIP_SIZE
                and "gzip" in self.headers.get("Accept-Encoding", "")
            ):
                body = entry.gzip_bytes()
                encoded = True
            self.send_response(HTTPStatus.OK)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            if encoded:
                self.send_header("Content-Encoding", "gzip")
            if suffix in COMPRESSIBLE:
                self.send_header("Vary", "Accept-Encoding")
            self._common_headers(entry.etag)
            self.end_headers()
            if send_body:
                try:
                    self.wfile.write(body)
                except ConnectionError:
                    self.close_connection = True

        def _common_headers(self, etag: str) -> None:
            self.send_header("ETag", etag)
            self.send_header("Cache-Control", "no-cache")
            self.send_header("X-Content-Type-Options", "nosniff")

        def _send_status(self, status: HTTPStatus, send_body: bool) -> None:
            body = f"{status.value} {status.phrase}\n".encode()
            self.send_response(status)
            self.send_header("Content-Type", "text/plain; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.send_header("X-Content-Type-Options", "nosniff")
            self.end_headers()
            if send_body:
                self.wfile.write(body)

        def log_message(self, format: str, *args: object) -> None:
            if not quiet:
                super().log_message(format, *args)

    return Handler


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: object, client_address: object) -> None:
        if isinstance(sys.exc_info()[1], ConnectionError):
            return  # the client went away (a closed tab or test context): nothing to report
        super().handle_error(request, client_address)  # type: ignore[arg-type]


def start_server(
    port: int = 8000, host: str = "127.0.0.1", root: Path = ROOT, quiet: bool = False
) -> ThreadingHTTPServer:
    """Serve ``root`` from a daemon thread; stop with ``shutdown()`` then ``server_close()``."""
    refresh = None
    if root == ROOT and (root / "vendor").is_dir():
        if str(TOOLS) not in sys.path:
            sys.path.insert(0, str(TOOLS))
        import build_web

        refresh = build_web.write_build_info
    handler = _make_handler(root, _FileCache(), quiet, refresh)
    server = _Server((host, port), handler)
    threading.Thread(target=server.serve_forever, name="spades-serve", daemon=True).start()
    return server


def server_url(server: ThreadingHTTPServer) -> str:
    host, port = server.server_address[:2]
    return f"http://{host!s}:{port}/"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Set up and serve the Spades trainer page.")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--host", default="127.0.0.1")
    args = parser.parse_args(argv)

    sys.path.insert(0, str(TOOLS))
    import build_web

    build_web.build()
    server = start_server(args.port, args.host)
    print(f"Serving the Spades trainer at {server_url(server)}  (Ctrl+C to stop)", flush=True)
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        print()
    finally:
        server.shutdown()
        server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
