"""The card sheet: ``python3 tools/card_sheet.py`` draws every face and back and screenshots them.

Writes ``test-artifacts/card_sheet.html`` (all 52 faces, both jokers, the three backs, a four-colour
row and phone-sized hands; it links ``ui/cards.css`` and has the page's CSP, so an inline style
would show up as missing), serves the project root with ``python3 -m http.server`` on 127.0.0.1
(a free port; stopped at the end) and screenshots it with Debian's Chromium (tools/chromium.py):

  test-artifacts/card_sheet_desktop.png   1280x800 viewport, full page
  test-artifacts/card_sheet_detail.png    its top part (the four suits) at full size
  test-artifacts/card_sheet_large.png     courts, ace of spades and a joker at 240 px
  test-artifacts/card_sheet_phone.png     375-px phone (device scale 2): 13-card hands at 45 px
  test-artifacts/card_sheet_phone_1x.png  the same at device scale 1 (the hardest case)
"""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))

from chromium import CHROMIUM, CHROMIUM_ARGS  # noqa: E402

from ui.shared.cardface import RANKS, SUITS, back_markup, face_markup  # noqa: E402

OUT = ROOT / "test-artifacts"
CSP = ("default-src 'self'; script-src 'none'; style-src 'self'; img-src 'self'; "
       "object-src 'none'; base-uri 'none'")

SHEET_CSS = """
body { margin: 0; padding: 12px; background: #0b6b3a; color: #f4f1e8;
       font: 14px system-ui, sans-serif; }
h2 { margin: 10px 0 6px; font-size: 15px; }
.row { display: flex; flex-wrap: wrap; gap: 6px; margin-bottom: 6px; }
.card { position: relative; display: inline-block; width: 86px; height: 120px;
        border-radius: 6px; box-shadow: 0 1px 3px rgb(0 0 0 / 45%); }
.phone { width: 375px; padding: 4px 0; background: #0b6b3a; }
.phone .card { width: 45px; height: 63px; border-radius: 3px; }
.phone .row { gap: 4px; justify-content: center; }
.phone .fan .card { margin-left: -20px; }
.phone .fan .card:first-child { margin-left: 0; }
.large .card { width: 240px; height: 336px; border-radius: 15px; }
.phone .fan { gap: 0; flex-wrap: nowrap; }
"""


def _card(markup: str, label: str) -> str:
    return f'<span class="card has-face" role="img" aria-label="{label}">{markup}</span>'


HAND = ["AS", "KS", "TS", "7S", "2S", "QH", "9H", "4H", "AD", "JD", "8C", "5C", "3C"]
HAND2 = ["QS", "JS", "9S", "KH", "JH", "TH", "KD", "QD", "6D", "KC", "QC", "JC", "AC"]


def sheet() -> str:
    suits = "".join(
        '<div class="row">' + "".join(_card(face_markup(r + s), r + s) for r in RANKS) + "</div>"
        for s in SUITS)
    extras = ('<div class="row">' + _card(face_markup("BJ"), "BJ") + _card(face_markup("LJ"), "LJ")
              + "".join(f'<span class="back-{v}">{_card(back_markup(), v)}</span>'
                        for v in ("classic", "navy", "gold")) + "</div>")
    four = ('<div class="row four-colour">'
            + "".join(_card(face_markup(c), c) for c in ("AS", "KH", "QD", "JC", "TD", "7C", "5H"))
            + "</div>")

    def phone(cards: list[str], cls: str = "row") -> str:
        return f'<div class="{cls}">' + "".join(_card(face_markup(c), c) for c in cards) + "</div>"

    backs = ('<div class="row">' + "".join(
        f'<span class="back-{v}">{_card(back_markup(), v)}</span>'
        for v in ("classic", "navy", "gold") for _ in range(3)) + "</div>")
    phones = ('<div class="phone"><h2>Phone: 13 cards at 45 px</h2>' + phone(HAND) + phone(HAND2)
              + "<h2>Fanned (20 px overlap)</h2>" + phone(HAND, "row fan")
              + '<div class="four-colour">' + phone(HAND2, "row fan") + "</div>"
              + phone(["BJ", "LJ", "AH", "AC", "AD", "2D", "3H", "8S", "9C", "TC"]) + backs
              + "</div>")
    large = ('<div class="row large">'
             + "".join(_card(face_markup(c), c) for c in ("JS", "QH", "KD", "AS", "BJ")) + "</div>")
    return ("<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">"
            f'<meta http-equiv="Content-Security-Policy" content="{CSP}">'
            "<title>Card sheet</title><link rel=\"icon\" href=\"../ui/favicon.svg\">"
            '<link rel="stylesheet" href="../ui/cards.css">'
            '<link rel="stylesheet" href="card_sheet.css"></head><body>'
            f"<h2>Faces</h2>{suits}<h2>Jokers and backs</h2>{extras}"
            f"<h2>Four colours</h2>{four}{phones}<h2>Large</h2>{large}</body></html>")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def main() -> int:
    from playwright.sync_api import sync_playwright

    OUT.mkdir(exist_ok=True)
    (OUT / "card_sheet.css").write_text(SHEET_CSS, encoding="utf-8")
    (OUT / "card_sheet.html").write_text(sheet(), encoding="utf-8")
    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1",
         "--directory", str(ROOT)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}/test-artifacts/card_sheet.html"
    try:
        for _ in range(100):
            try:
                urllib.request.urlopen(url, timeout=1).close()
                break
            except OSError:
                time.sleep(0.1)
        errors: list[str] = []
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            shots = [("desktop", 1280, 800, 1, ".row"), ("phone", 375, 800, 2, ".phone"),
                     ("phone_1x", 375, 800, 1, ".phone")]
            for name, width, height, scale, part in shots:
                page = browser.new_page(viewport={"width": width, "height": height},
                                        device_scale_factor=scale)
                page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
                page.goto(url)
                path = OUT / f"card_sheet_{name}.png"
                if name == "desktop":
                    page.screenshot(path=str(OUT / "card_sheet_detail.png"),
                                    clip={"x": 0, "y": 0, "width": 1280, "height": 560})
                if name == "desktop":
                    page.locator(".large").screenshot(path=str(OUT / "card_sheet_large.png"))
                if part == ".phone":
                    page.locator(".phone").screenshot(path=str(path))
                else:
                    page.screenshot(path=str(path), full_page=True)
                print(path.relative_to(ROOT))
                page.close()
            browser.close()
        for error in errors:
            print("console error:", error, file=sys.stderr)
        return 1 if errors else 0
    finally:
        server.terminate()
        server.wait(timeout=10)


if __name__ == "__main__":
    sys.exit(main())
