"""Screenshots of Learn to play, taken in Debian's Chromium.

    python scripts/learn_screenshots.py [--out docs/screenshots] [--chromium /usr/bin/chromium] [--force]

Starts ``shadowtable serve`` on a temporary SQLite database, opens each title's tutorial, clicks
varied choices until a few decisions in, and saves a desktop (1280x800) and a phone (390x844)
picture; The Shadow Planet's tutorial is also played to its end.  Refuses to replace existing
pictures unless ``--force`` is given.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
from browser_screenshots import shoot, start_server  # noqa: E402

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


def click_choices(page: Any, rng: random.Random, decisions: int | None) -> int:
    """Click varied choices ``decisions`` times (``None``: to the end); the decisions made."""
    made = 0
    while decisions is None or made < decisions:
        buttons = page.locator(".learn-choices button")
        if buttons.count() == 0:
            break
        with page.expect_navigation():
            buttons.nth(rng.randrange(buttons.count())).click()
        made += 1
    return made


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("docs/screenshots"))
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--force", action="store_true")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as folder, sync_playwright() as playwright:
        process, url = start_server(Path(folder))
        browser = playwright.chromium.launch(executable_path=args.chromium, args=["--no-sandbox"])
        try:
            for game, steps in (("shadow-planet", 3), ("shadowlord", 5)):
                for label, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
                    page = browser.new_context(viewport=viewport).new_page()
                    page.goto(f"{url}/learn/{game}")
                    click_choices(page, random.Random(1), steps)
                    print(shoot(page, args.out, f"learn-{game}-{label}.png", args.force))
                    if game == "shadow-planet" and label == "desktop":
                        started = time.monotonic()
                        made = click_choices(page, random.Random(1), None)
                        print(f"{game}: {made + steps} decisions, {time.monotonic() - started:.1f} s of clicking")
                        print(shoot(page, args.out, f"learn-{game}-end.png", args.force))
                    page.context.close()
        finally:
            browser.close()
            process.terminate()


if __name__ == "__main__":
    main()
