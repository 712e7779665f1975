"""spades_server serves the page as tools/serve.py does: tests/browser/test_serving.py's checks
run again against it, plus its CSP header, symlinks and its own private files."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from spades_server.config import Config, load_build_web
from spades_server.server import start_server
from spades_server.static import CSP, resolve_public
from tests.browser.test_serving import (  # the same checks, against the new server
    fetch,
    test_compressible_responses_are_gzipped_when_accepted,
    test_etag_revalidation_and_head,
    test_private_and_missing_paths_are_404,
    test_public_files_have_their_mime_type,
)

ROOT = Path(__file__).resolve().parents[1]
__all__ = [
    "test_compressible_responses_are_gzipped_when_accepted",
    "test_etag_revalidation_and_head",
    "test_private_and_missing_paths_are_404",
    "test_public_files_have_their_mime_type",
]


@pytest.fixture(scope="module")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    load_build_web().build()
    db = tmp_path_factory.mktemp("static") / "rooms.sqlite3"
    server = start_server(0, config=Config(db_path=db))
    try:
        yield server.url
    finally:
        server.stop()


def test_html_has_the_pages_csp_header(live_server: str) -> None:
    _, headers, body = fetch(live_server, "/")
    meta = re.search(rb'http-equiv="Content-Security-Policy" content="([^"]+)"', body)
    assert meta is not None and meta.group(1).decode() == CSP
    assert headers["content-security-policy"] == CSP
    assert headers["cache-control"] == "no-cache"
    assert headers["x-content-type-options"] == "nosniff"


def test_manifest_and_build_info(live_server: str) -> None:
    status, headers, _ = fetch(live_server, "/manifest.webmanifest")
    assert status == 200 and headers["content-type"].startswith("application/manifest+json")
    status, _, body = fetch(live_server, "/vendor/build.json")
    assert status == 200 and "build" in json.loads(body)


@pytest.mark.parametrize(
    "path", ["/spades_server/app.py", "/spades_rooms.sqlite3", "/ws/../tools/serve.py",
             "/lab/hand_duel.py"]
)
def test_the_servers_own_files_are_private(live_server: str, path: str) -> None:
    assert fetch(live_server, path)[0] == 404


def test_a_symlink_to_a_private_file_is_not_served(tmp_path: Path) -> None:
    (tmp_path / "tools").mkdir()
    (tmp_path / "tools" / "secret.py").write_text("x")
    (tmp_path / ".env").write_text("x")
    (tmp_path / "public.txt").write_text("ok")
    (tmp_path / "link.txt").symlink_to(tmp_path / "tools" / "secret.py")
    (tmp_path / "env.txt").symlink_to(tmp_path / ".env")
    (tmp_path / "out.txt").symlink_to("/etc/hostname")
    assert resolve_public("/public.txt", tmp_path) == (tmp_path / "public.txt").resolve()
    for path in ("/link.txt", "/env.txt", "/out.txt", "/tools/secret.py", "/.env"):
        assert resolve_public(path, tmp_path) is None, path


def test_only_the_kinds_of_file_the_page_is_made_of_are_served(tmp_path: Path) -> None:
    """A log, a database under another name or a file with no suffix left in the served
    folder stays private."""
    for name in ("server.log", "rooms.sqlite", "backup.tar.gz", "LICENSE", "notes.bak",
                 "page.js", "app.zip", "style.css"):
        (tmp_path / name).write_text("x")
    served = {name for name in ("server.log", "rooms.sqlite", "backup.tar.gz", "LICENSE",
                                "notes.bak", "page.js", "app.zip", "style.css")
              if resolve_public(f"/{name}", tmp_path) is not None}
    assert served == {"page.js", "app.zip", "style.css"}
