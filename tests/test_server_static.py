"""spades_server serves the site (site/, built by tools/build_web.py) and nothing else:
tests/browser/test_serving.py's checks run again against it, plus its CSP header, every tracked
file's path (only the site's answer), symlinks and the kinds of file served."""

from __future__ import annotations

import json
import os
import re
import subprocess
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import pytest

from spades_server.__main__ import main as server_main
from spades_server.config import Config, load_build_web
from spades_server.server import start_server
from spades_server.static import CSP
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


def test_only_the_sites_files_answer_among_the_tracked_ones(live_server: str) -> None:
    """Every file git tracks, asked for by its path: 200 (with the site's bytes) only for those
    the site holds, the page's own files; 404 for all the others (the README, the engine's
    Python, the server, the tools, the tests, the project's settings)."""
    tracked = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True
    ).stdout.decode().split("\0")
    tracked = [name for name in tracked if name]
    assert len(tracked) > 100
    site = load_build_web().SITE
    listed = set(load_build_web().site_files())
    answered: set[str] = set()
    for name in tracked:
        status, _, body = fetch(live_server, "/" + quote(name))
        assert status in (200, 404), (name, status)
        if status == 200:
            answered.add(name)
            assert body == (site / name).read_bytes(), name
    assert answered == listed & set(tracked)
    assert {"index.html", "sw.js", "pyscript.toml", "ui/main.py", "ui/table.css"} <= answered
    for private in ("README.md", "pyproject.toml", "package.json", "package-lock.json",
                    "requirements-server.txt", "docs/server.md", "spades_core/hints.py",
                    "spades_server/app.py", "tools/build_web.py", "tests/helpers.py"):
        assert private in tracked and private not in answered, private


def test_the_site_holds_its_list_and_a_build_removes_anything_else(live_server: str) -> None:
    build_web = load_build_web()
    site = build_web.SITE
    on_disk = {path.relative_to(site).as_posix() for path in site.rglob("*") if path.is_file()}
    assert on_disk == set(build_web.site_files())
    stray = [site / "secrets.json", site / "ui" / "notes.txt", site / "extra" / "dump.sqlite3"]
    for path in stray:
        path.parent.mkdir(exist_ok=True)
        path.write_text("x")
    assert fetch(live_server, "/secrets.json")[0] == 200  # served while it is there...
    assert build_web.prune_site() == ["extra/dump.sqlite3", "secrets.json", "ui/notes.txt"]
    assert not any(path.exists() for path in stray) and not (site / "extra").exists()
    assert fetch(live_server, "/secrets.json")[0] == 404  # ...and gone with the next build


def test_the_sqlite_file_may_not_be_inside_the_served_folder(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="inside the served folder"):
        Config(site=tmp_path, db_path=tmp_path / "data" / "rooms.sqlite3")
    assert Config(site=tmp_path / "site", db_path=tmp_path / "rooms.sqlite3").site.name == "site"
    inside = str(load_build_web().SITE / "rooms.sqlite3")
    assert server_main(["--db", inside, "--no-build", "--no-install"]) == 2


@pytest.fixture
def small_site(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """A server whose site is a temporary folder (no refresh: not the project's build)."""
    site = tmp_path / "site"
    site.mkdir()
    server = start_server(0, config=Config(site=site, db_path=tmp_path / "rooms.sqlite3"))
    try:
        yield server.url, site
    finally:
        server.stop()


def test_a_symlink_out_of_the_site_is_not_served(small_site: tuple[str, Path]) -> None:
    url, site = small_site
    outside = site.parent / "secret.txt"
    outside.write_text("secret")
    (site / "public.txt").write_text("ok")
    (site / "link.txt").symlink_to(outside)
    (site / "out.txt").symlink_to("/etc/hostname")
    (site / "inside.txt").symlink_to(site / "public.txt")
    assert fetch(url, "/public.txt")[::2] == (200, b"ok")
    assert fetch(url, "/inside.txt")[::2] == (200, b"ok")
    for path in ("/link.txt", "/out.txt", "/../secret.txt", "/%2e%2e/secret.txt"):
        assert fetch(url, path)[0] == 404, path


def test_only_the_kinds_of_file_the_page_is_made_of_are_served(
    small_site: tuple[str, Path],
) -> None:
    """A log, a database under another name or a file with no suffix left in the served
    folder stays private."""
    url, site = small_site
    names = ("server.log", "rooms.sqlite", "backup.tar.gz", "LICENSE", "notes.bak", "page.js",
             "app.zip", "style.css")
    for name in names:
        (site / name).write_text("x")
    served = {name for name in names if fetch(url, f"/{name}")[0] == 200}
    assert served == {"page.js", "app.zip", "style.css"}


def test_a_server_started_before_the_build_answers_404(tmp_path: Path) -> None:
    server = start_server(0, config=Config(site=tmp_path / "not-built",
                                           db_path=tmp_path / "rooms.sqlite3"))
    try:
        assert fetch(server.url, "/")[0] == 404
        assert fetch(server.url, "/index.html")[0] == 404
    finally:
        server.stop()


def test_an_edited_page_file_reaches_the_site_when_the_worker_asks_for_the_build(
    live_server: str,
) -> None:
    """The dev server copies the repository's page files again where they changed when the
    service worker checks the build (every navigation of a page it controls): a new build."""
    source, copy = ROOT / "ui" / "coach.css", load_build_web().SITE / "ui" / "coach.css"
    original, stat = source.read_bytes(), source.stat()
    old = json.loads(fetch(live_server, "/vendor/build.json")[2])["build"]
    try:
        source.write_bytes(original + b"\n/* edited */\n")
        assert copy.read_bytes() == original  # not copied before the worker asks
        new = json.loads(fetch(live_server, "/vendor/sw-build.js")[2].split(b"= ", 1)[1][:-2])
        assert new["build"] != old
        assert fetch(live_server, "/ui/coach.css")[2].endswith(b"/* edited */\n")
    finally:
        source.write_bytes(original)
        os.utime(source, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert json.loads(fetch(live_server, "/vendor/build.json")[2])["build"] == old
    assert copy.read_bytes() == original


def test_a_range_request_gets_the_plain_bytes_asked_for(live_server: str) -> None:
    whole = (load_build_web().SITE / "vendor" / "app.zip").read_bytes()
    for encoding in ("", "gzip"):
        status, headers, body = fetch(
            live_server, "/vendor/app.zip", {"Range": "bytes=10-29", "Accept-Encoding": encoding}
        )
        assert (status, body) == (206, whole[10:30])
        assert "content-encoding" not in headers and headers["cache-control"] == "no-cache"
