"""tools/serve.py: public files only, right MIME types, gzip, ETags (no browser needed)."""

from __future__ import annotations

import gzip
import http.client
from urllib.parse import urlsplit

import pytest

Response = tuple[int, dict[str, str], bytes]


def fetch(
    base: str, path: str, headers: dict[str, str] | None = None, method: str = "GET"
) -> Response:
    parts = urlsplit(base)
    connection = http.client.HTTPConnection(parts.hostname or "127.0.0.1", parts.port, timeout=30)
    try:
        connection.request(method, path, headers=headers or {})
        response = connection.getresponse()
        body = response.read()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, body
    finally:
        connection.close()


@pytest.mark.parametrize(
    ("path", "content_type"),
    [
        ("/", "text/html"),
        ("/index.html", "text/html"),
        ("/pyscript.toml", "application/toml"),
        ("/ui/main.py", "text/plain"),
        ("/ui/table.css", "text/css"),
        ("/ui/favicon.svg", "image/svg+xml"),
        ("/vendor/pyscript/core.js", "text/javascript"),
        ("/vendor/pyodide/pyodide.mjs", "text/javascript"),
        ("/vendor/pyodide/pyodide.asm.wasm", "application/wasm"),
        ("/vendor/pyodide/pyodide-lock.json", "application/json"),
        ("/vendor/app.zip", "application/zip"),
    ],
)
def test_public_files_have_their_mime_type(live_server: str, path: str, content_type: str) -> None:
    status, headers, _ = fetch(live_server, path)
    assert status == 200
    assert headers["content-type"].startswith(content_type)


@pytest.mark.parametrize(
    "path",
    [
        "/.git/HEAD",
        "/.gitignore",
        "/.ci/run",
        "/tools/serve.py",
        "/tests/browser/conftest.py",
        "/node_modules/pyodide/package.json",
        "/package-lock.json/../.git/config",
        "/%2e%2e/%2e%2e/etc/passwd",
        "/ui/%2e%2e/.git/HEAD",
        "//etc/passwd",
        "/vendor/",
        "/no-such-file.html",
        "/ui/main.py%00.txt",
    ],
)
def test_private_and_missing_paths_are_404(live_server: str, path: str) -> None:
    status, _, body = fetch(live_server, path)
    assert status == 404
    assert b"ref:" not in body and b"root:" not in body


def test_compressible_responses_are_gzipped_when_accepted(live_server: str) -> None:
    _, plain_headers, plain = fetch(live_server, "/vendor/pyodide/pyodide.asm.wasm")
    assert "content-encoding" not in plain_headers
    status, headers, body = fetch(
        live_server, "/vendor/pyodide/pyodide.asm.wasm", {"Accept-Encoding": "gzip, deflate, br"}
    )
    assert status == 200
    assert headers["content-encoding"] == "gzip"
    assert int(headers["content-length"]) == len(body) < len(plain)
    assert gzip.decompress(body) == plain
    _, zip_headers, _ = fetch(live_server, "/vendor/app.zip", {"Accept-Encoding": "gzip"})
    assert "content-encoding" not in zip_headers


def test_etag_revalidation_and_head(live_server: str) -> None:
    _, headers, body = fetch(live_server, "/index.html")
    status, _, empty = fetch(live_server, "/index.html", {"If-None-Match": headers["etag"]})
    assert (status, empty) == (304, b"")
    status, head_headers, head_body = fetch(live_server, "/index.html", method="HEAD")
    assert status == 200 and head_body == b""
    assert int(head_headers["content-length"]) == len(body)
