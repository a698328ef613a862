"""Screenshots of the designer's lab, taken in Debian's Chromium.

    python scripts/lab_screenshots.py [--out docs/screenshots] [--games 300]
                                      [--chromium /usr/bin/chromium] [--force]

Starts ``shadowtable serve`` on a temporary SQLite database with the lab open to every account,
signs up, fills the new run form for a 3-player game of The Shadow Planet (random bots, a variant
with one rule switched, a probe) and saves: ``lab-new.png`` (1280x800, the form),
``lab-progress.png`` (the run playing), ``lab-figures.png`` and ``lab-compared.png`` (the
figures), ``lab-new-phone.png``, ``lab-variant-phone.png`` and ``lab-figures-phone.png`` (390x844).  Refuses to replace
existing pictures unless ``--force``.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
from browser_screenshots import start_server  # noqa: E402
from replay_screenshots import DESKTOP, PHONE, shoot  # noqa: E402

SEED = "20261203"


def fill_form(page: Any, url: str, games: int) -> None:
    """The new run form: random bots, a variant whose Marker ties go to the lowest initiative, and
    a probe."""
    page.goto(url + "/lab/new?game=shadow-planet&players=3")
    page.fill("#lab-games", str(games))
    page.fill("#lab-seed", SEED)
    for seat in range(3):
        page.select_option(f"#bot-{seat}", "level0")
    page.check("input[name=v1_on]")
    page.fill("#v1-name", "ties by initiative")
    page.select_option("#v1_opt_identity_ties", "lowest_initiative")
    roles = page.locator("#p0-role option").all_inner_texts()
    page.select_option("#p0-role", roles[1])
    page.evaluate("() => window.scrollTo(0, 0)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, default=Path("docs/screenshots"))
    parser.add_argument("--games", type=int, default=300, help="games per arm of the run shown")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--force", action="store_true", help="replace existing pictures")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    args.out.mkdir(parents=True, exist_ok=True)
    saved = []
    with tempfile.TemporaryDirectory() as folder:
        process, url = start_server(Path(folder), {"SHADOWTABLE_LAB_ACCOUNTS": "*"})
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=args.chromium, args=["--no-sandbox"])
                page = browser.new_page(viewport=DESKTOP)
                page.goto(url + "/signup")
                page.fill("input[name=name]", "Designer")
                page.fill("input[name=password]", "correct horse battery")
                page.click("button[type=submit]")
                page.wait_for_url(url + "/")
                fill_form(page, url, args.games)
                saved.append(shoot(page, args.out, "lab-new.png", args.force))
                page.click("#lab-start")
                page.wait_for_url(f"{url}/lab/*")
                page.wait_for_function("() => Number(document.getElementById('run-done')?.textContent) > 0")
                saved.append(shoot(page, args.out, "lab-progress.png", args.force))
                run = page.url
                page.wait_for_selector("#lab-figures", timeout=1_800_000)
                page.evaluate("() => document.getElementById('figures-h').scrollIntoView()")
                saved.append(shoot(page, args.out, "lab-figures.png", args.force))
                page.evaluate("() => document.getElementById('lab-compared').scrollIntoView()")
                saved.append(shoot(page, args.out, "lab-compared.png", args.force))
                page.set_viewport_size(PHONE)
                fill_form(page, url, args.games)
                saved.append(shoot(page, args.out, "lab-new-phone.png", args.force))
                page.evaluate("() => document.getElementById('variant-1-h').scrollIntoView()")
                saved.append(shoot(page, args.out, "lab-variant-phone.png", args.force))
                page.goto(run)
                page.evaluate("() => document.getElementById('figures-h').scrollIntoView()")
                saved.append(shoot(page, args.out, "lab-figures-phone.png", args.force))
                browser.close()
        finally:
            process.terminate()
            process.wait(10)
    for path in saved:
        print(path)


if __name__ == "__main__":
    main()
