"""Screenshots of the replay page with its analysis, taken in Debian's Chromium.

    python scripts/replay_screenshots.py [--out docs/screenshots] [--budget 600]
                                         [--chromium /usr/bin/chromium] [--force] [--data DIR]

Starts ``shadowtable serve`` on a temporary SQLite database (``--budget``: its analysis budget in
seconds), has bots play a 3-player game of The Shadow Planet to its end (the server deals it at random),
asks for its analysis and waits for it, then saves the replay as seat 0 at the step of its costliest
decision: ``replay-analysis.png`` (1280x800, the decision and the marks), ``replay-graph.png``
(the win-chance graph and the deduction panel), ``replay-reveal.png`` (every seat's hand) and
``replay-phone.png`` (390x844, the analysis).  Refuses to replace existing pictures unless ``--force``.
With ``--data DIR`` the server keeps its database in ``DIR`` and a later run with the same
``DIR`` shoots the game analysed there again (to retake the pictures after a change to the page
without waiting for another analysis).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
from browser_screenshots import start_server as start_browser_server  # noqa: E402

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


def start_server(folder: Path, budget: float) -> tuple[subprocess.Popen[bytes], str]:
    """The server of :mod:`browser_screenshots`, with the analysis budget given."""
    return start_browser_server(folder, {"SHADOWTABLE_ANALYSIS_BUDGET": str(budget)}, attempts=600)


def call(url: str, method: str = "GET", body: dict[str, Any] | None = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.loads(answer.read())


def finished_analysed_table(url: str, wait_s: float, table: str | None = None) -> tuple[str, dict[str, Any]]:
    """A 3-player game of bots played to its end and analysed (``table``: that one, already
    played): its id and the stored result."""
    if table is None:
        seats = ["bot:heuristic"] * 3
        made = call(url + "/api/tables", "POST", {"game": "shadow-planet", "players": 3, "seats": seats})
        table = str(made["table"]["id"])
    deadline = time.monotonic() + wait_s
    while call(f"{url}/api/tables/{table}")["status"] != "over":
        if time.monotonic() > deadline:
            raise SystemExit("error: the game did not end in time")
        time.sleep(0.5)
    call(f"{url}/api/tables/{table}/analysis", "POST")
    while True:
        answer = call(f"{url}/api/tables/{table}/analysis")
        if answer["status"] == "done":
            return table, answer["result"]
        if answer["status"] == "failed" or time.monotonic() > deadline:
            raise SystemExit(f"error: the analysis did not finish: {answer}")
        print(f"analysis: {answer['status']} {round(100 * answer['progress'])}%", flush=True)
        time.sleep(5)


def costliest_step(result: dict[str, Any], seat: int) -> int:
    """The step of ``seat``'s decision that lost the most win chance (a labelled one first, then
    one whose chances rest on enough samples to be labelled)."""
    from shadowtable.analysis import MIN_LABEL_SAMPLES

    mine = [d for d in result["analysis"]["decisions"] if d["seat"] == seat]
    return int(
        max(
            mine,
            key=lambda d: (d["label"] is not None, d.get("samples", 0) >= MIN_LABEL_SAMPLES, d["lost"], -d["ply"]),
        )["ply"]
    )


def shoot(page: Any, out: Path, name: str, force: bool, *, full: bool = False) -> Path:
    path = out / name
    if path.exists() and not force:
        raise SystemExit(f"error: {path} exists (use --force to replace it)")
    page.screenshot(path=str(path), full_page=full)
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, default=Path("docs/screenshots"))
    parser.add_argument("--budget", type=float, default=600.0, help="the server's analysis budget, seconds")
    parser.add_argument("--wait", type=float, default=1800.0, help="seconds to wait for the game and analysis")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--force", action="store_true", help="replace existing pictures")
    parser.add_argument("--data", type=Path, help="keep the server's database here and reuse its game")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as scratch:
        folder = args.data or Path(scratch)
        folder.mkdir(parents=True, exist_ok=True)
        kept = folder / "screenshot-table.txt"
        process, url = start_server(folder, args.budget)
        try:
            table, result = finished_analysed_table(url, args.wait, kept.read_text().strip() if kept.exists() else None)
            kept.write_text(table)
            step = costliest_step(result, 0)
            replay = f"{url}/replay/{table}?seat=0&step={step}"
            saved = []
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=args.chromium, args=["--no-sandbox"])
                page = browser.new_page(viewport=DESKTOP)
                page.goto(replay)
                saved.append(shoot(page, args.out, "replay-analysis.png", args.force))
                page.goto(replay + "#analysis")
                page.locator("#graph-h").scroll_into_view_if_needed()
                page.evaluate("() => document.getElementById('graph-h').scrollIntoView()")
                saved.append(shoot(page, args.out, "replay-graph.png", args.force))
                page.goto(replay + "&reveal=1")
                page.evaluate("() => document.getElementById('revealed').scrollIntoView()")
                saved.append(shoot(page, args.out, "replay-reveal.png", args.force))
                page.set_viewport_size(PHONE)
                page.goto(replay)
                page.evaluate("() => document.getElementById('analysis').scrollIntoView()")
                saved.append(shoot(page, args.out, "replay-phone.png", args.force))
                browser.close()
        finally:
            process.terminate()
            process.wait(10)
    for path in saved:
        print(path)


if __name__ == "__main__":
    main()
