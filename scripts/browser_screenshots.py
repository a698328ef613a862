"""Screenshots of the browser pages, taken from a real game in Debian's Chromium.

    python scripts/browser_screenshots.py [--out docs/screenshots] [--chromium /usr/bin/chromium]

Starts ``shadowtable serve`` on a temporary SQLite database, creates a table of each game from the
lobby (you at seat 0, bots elsewhere), plays random legal moves by clicking until mid-game, and
saves desktop (1280x800) and phone (390x844) pictures; The Shadow Planet is also played to its
end-of-game reveal.  Refuses to replace existing pictures unless ``--force`` is given.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(
    folder: Path, extra_env: dict[str, str] | None = None, attempts: int = 300
) -> tuple[subprocess.Popen[bytes], str]:
    """``shadowtable serve`` on a free port with its data in ``folder``; the process and its address."""
    port = free_port()
    env = {
        **os.environ,
        "SHADOWTABLE_DATA_DIR": str(folder),
        "SHADOWTABLE_BOT_DELAY": "0",
        "SHADOWTABLE_BOT_WORKERS": "0",
        **(extra_env or {}),
    }
    command = [str(Path(sys.executable).with_name("shadowtable")), "serve", "--port", str(port)]
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    for _ in range(attempts):
        try:
            with urllib.request.urlopen(url + "/healthz", timeout=1):
                return process, url
        except OSError:
            time.sleep(0.1)
    process.kill()
    raise SystemExit("error: the server did not start")


def wait_for_setup(page: Any, game: str, players: int | None = None) -> None:
    """Wait until the lobby form's game-dependent part is the one for ``game`` (and ``players``)
    and no newer one is loading."""
    wanted = f"fieldset[data-game='{game}']" + ("" if players is None else f"[data-players='{players}']")
    page.wait_for_selector(f"#setup:not(.htmx-request) > {wanted}", state="attached")


def create(page: Any, url: str, game: str, players: int, options: dict[str, str]) -> None:
    page.goto(url + "/")
    page.fill("input[name=name]", "Ada")
    page.select_option("select[name=game]", game)
    wait_for_setup(page, game)
    page.select_option("select[name=players]", str(players))
    wait_for_setup(page, game, players)
    if options:
        page.click("details summary:has-text('Game options')")
        for name, value in options.items():
            page.fill(f"input[name=opt_{name}]", value)
    page.click("button.primary")
    page.wait_for_url(re.compile(r".*/t/[A-Za-z0-9_-]+$"))


def play(page: Any, rng: random.Random, decisions: int, *, prefer: tuple[str, ...] = ()) -> None:
    """Click ``decisions`` legal actions (or until the game is over).  The page's ``turn`` is set
    only while it holds a decision (empty from a click until the view that answers it)."""
    made = 0
    while made < decisions:
        page.wait_for_function(
            "() => (!!document.body.dataset.turn && !!document.querySelector('#frag-actions [data-act]'))"
            " || document.body.dataset.over === '1'"
        )
        if page.evaluate("() => document.body.dataset.over === '1'"):
            return
        choices = page.evaluate(
            "() => [...document.querySelectorAll('#frag-actions [data-act]')]"
            ".map(b => [b.dataset.act, b.textContent.trim()])"
        )
        liked = [c for c in choices if c[1].startswith(prefer)] if prefer else []
        action = rng.choice(liked or choices)[0]
        page.evaluate(
            "id => document.querySelector(`#frag-actions [data-act=\"${id}\"]`)?.closest('details')"
            "?.setAttribute('open', '')",
            action,
        )
        page.locator(f'#frag-actions [data-act="{action}"]').click()
        made += 1


def shoot(page: Any, out: Path, name: str, force: bool) -> Path:
    path = out / name
    if path.exists() and not force:
        raise SystemExit(f"error: {path} exists (use --force to replace it)")
    page.wait_for_timeout(400)
    page.screenshot(path=str(path), full_page=False)
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("docs/screenshots"))
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--force", action="store_true", help="replace existing pictures")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    args.out.mkdir(parents=True, exist_ok=True)
    rng = random.Random(7)
    with tempfile.TemporaryDirectory() as folder:
        process, url = start_server(Path(folder))
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=args.chromium, args=["--no-sandbox"])
                saved = []
                for game, players, options, decisions in (
                    ("shadow-planet", 4, {}, 60),
                    ("shadowlord", 3, {}, 45),
                ):
                    page = browser.new_context(viewport=DESKTOP).new_page()
                    page.set_default_timeout(120_000)  # a guard: a loaded machine is only slower
                    create(page, url, game, players, options)
                    play(page, rng, decisions)
                    saved.append(shoot(page, args.out, f"browser-{game}-desktop.png", args.force))
                    page.set_viewport_size(PHONE)
                    saved.append(shoot(page, args.out, f"browser-{game}-phone.png", args.force))
                    if game == "shadow-planet":
                        page.set_viewport_size(DESKTOP)
                        play(page, rng, 10_000)
                        page.evaluate("() => document.getElementById('frag-panel').scrollIntoView()")
                        saved.append(shoot(page, args.out, f"browser-{game}-end.png", args.force))
                    page.context.close()
                browser.close()
        finally:
            process.terminate()
            process.wait(10)
    for path in saved:
        print(f"saved {path}")


if __name__ == "__main__":
    main()
