"""The replay page in a real browser (Debian's Chromium driven by Playwright): a finished game's
end screen links to its replay and analysis; the replay steps, switches seats, reveals every
seat's hand only after the end, carries its state in a link to share, and shows the analysis once
it is ready; a spectator of a running game reaches no analysis and no reveal of it."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from server.cluster import free_port
from serving import source_path, wait_healthy
from web.driver import create_table, new_player, play_until_over, random_policy
from web.test_browser_a11y import PHONE, contrast_failures

pytestmark = pytest.mark.browser

HERE = Path(__file__).resolve().parent


class ReplayServer:
    """``tests/web/replay_server.py`` in a subprocess: the tiny game, small fast analyses."""

    def __init__(self, folder: Path) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        env = {**os.environ, "PYTHONPATH": os.pathsep.join((source_path(), str(HERE.parent)))}
        self.log_path = folder / "server.log"
        self.log = self.log_path.open("w")
        database = f"sqlite:///{folder / 'replay.db'}"
        self.process = subprocess.Popen(
            [sys.executable, str(HERE / "replay_server.py"), str(self.port), database],
            env=env,
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )
        wait_healthy(self.url, self.process, self.log_path.read_text)

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
        self.log.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ReplayServer]:
    running = ReplayServer(tmp_path_factory.mktemp("replay-server"))
    yield running
    running.stop()


def table_status(page: Any, table: str) -> str:
    """The table's status, as the API gives it to this page."""
    return str(page.evaluate("async (t) => (await (await fetch(`/api/tables/${t}`)).json()).status", table))


def heading(page: Any) -> str:
    return str(page.inner_text("#replay-h")).strip()


def test_from_the_end_screen_to_the_replay_its_reveal_and_its_analysis(browser: Any, server: ReplayServer) -> None:
    player = new_player(browser, "seat0", seed=3)
    page = player.page
    try:
        table = create_table(page, server.url, game="tiny-showdown", players=2, seats={1: "bot:random"}, options={})
        play_until_over([player], {player.name: random_policy})
        page.wait_for_selector("#end-banner:not([hidden])")
        link = page.locator("#end-banner a.replay-link")
        assert link.inner_text().strip() == "Replay and analysis"
        assert link.get_attribute("href") == f"/replay/{table}?seat=0"
        assert page.locator("#over a.replay-link").get_attribute("href") == f"/replay/{table}?seat=0"
        link.click()
        page.wait_for_url(re.compile(rf".*/replay/{table}\?seat=0$"))
        last = int(re.search(r"of (\d+)", heading(page))[1])  # type: ignore[index]
        assert heading(page) == f"Step 0 of {last}" and "as Ada" in page.inner_text("header .you")
        # stepping: the arrow key and the links
        page.keyboard.press("ArrowRight")
        page.wait_for_url(re.compile(r".*step=1$"))
        assert heading(page) == f"Step 1 of {last}"
        page.click("a[data-nav=last]")
        page.wait_for_url(re.compile(rf".*step={last}$"))
        # switching seats keeps the step
        page.click("nav[aria-label='whose view'] a:not([aria-current])  >> nth=1")
        page.wait_for_url(re.compile(rf".*seat=1&step={last}$"))
        assert heading(page) == f"Step {last} of {last}" and "as Ada" not in page.inner_text("header .you")
        # the reveal: every seat's view side by side, kept while stepping and in the shared link
        assert page.locator("[data-reveal-view]").count() == 0
        page.click("#reveal-toggle")
        page.wait_for_url(re.compile(r".*reveal=1$"))
        assert page.locator("[data-reveal-view]").count() == 2
        assert "cards nobody had seen yet, such as the order of the decks" in page.inner_text("#revealed")
        page.click("a[data-nav=first]")
        page.wait_for_url(re.compile(r".*seat=1&step=0&reveal=1$"))
        assert page.locator("[data-reveal-view]").count() == 2
        shared = page.input_value("#share-link")
        assert shared == f"{server.url}/replay/{table}?seat=1&step=0&reveal=1"
        page.click("#copy-link")
        page.wait_for_function("() => document.getElementById('copy-done').textContent !== ''")
        assert page.inner_text("#copy-done").strip() in {"Link copied.", "Select the link and copy it (Ctrl+C)."}
        # the analysis: asked for, its progress polled, shown when ready
        page.goto(f"{server.url}/replay/{table}?seat=0&step=0")
        assert page.inner_text("#analysis-status").strip() == "Not analysed yet."
        page.click("#analyse")
        page.wait_for_selector(".accuracy-table", timeout=60_000)
        assert page.get_attribute("#analysis-status", "data-status") == "done"
        assert page.locator("figure.chance-graph svg title").count() == 1
        page.click("#next-decision")
        page.wait_for_selector(".decision-now [data-decision-seat='0']")
        words = page.inner_text(".decision-now .words")
        assert re.search(r"(kept|cut) your chance of winning", words), words
        assert page.locator("[data-accuracy-seat]").count() == 2
        # every text of the analysed page, with the reveal, is readable at desktop and phone width
        page.goto(f"{server.url}/replay/{table}?seat=0&step={last}&reveal=1")
        assert page.locator("h1").count() == 1
        problems = contrast_failures(page, "replay analysed, revealed")
        page.set_viewport_size(PHONE)
        problems += contrast_failures(page, "replay analysed, revealed, phone")
        assert not problems, "\n".join(problems)
        # nothing makes the page scroll sideways at a phone's width: its wide tables scroll in their box
        page.goto(f"{server.url}/replay/{table}?seat=0&step={last}")
        assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    finally:
        page.context.close()


def test_a_spectator_of_a_running_game_reaches_no_analysis_and_no_reveal(browser: Any, server: ReplayServer) -> None:
    player = new_player(browser, "seat0", seed=4)
    spectator = new_player(browser, "watcher", seed=5)
    try:
        table = create_table(
            player.page, server.url, game="tiny-showdown", players=2, seats={1: "bot:random"}, options={}
        )
        page = spectator.page
        page.goto(f"{server.url}/t/{table}")
        page.wait_for_selector("#frag-status")
        assert table_status(page, table) == "playing"
        assert not page.locator("a.replay-link").first.is_visible()
        assert page.locator("#analysis, #analyse, [data-reveal-view]").count() == 0
        for path in (f"/replay/{table}?reveal=1", f"/replay/{table}?seat=1&reveal=1", f"/replay/{table}"):
            answer = page.goto(server.url + path)
            assert answer is not None and answer.status == 409
            assert "once the game is over" in page.inner_text("main")
            assert page.locator("#analysis, #analyse, [data-reveal-view]").count() == 0
        statuses = page.evaluate(
            """async (table) => {
                const api = `/api/tables/${table}/analysis`;
                const read = await fetch(api);
                const ask = await fetch(api, { method: "POST" });
                return [read.status, ask.status];
            }""",
            table,
        )
        assert statuses == [409, 409]
        assert table_status(page, table) == "playing", "the game is still running"
    finally:
        player.page.context.close()
        spectator.page.context.close()
