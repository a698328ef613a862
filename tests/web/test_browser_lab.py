"""The designer's lab in a real browser (Debian's Chromium driven by Playwright): a designer signs
up, sets up a run of 200 games of each title from the page with random bots, follows its
progress, reads figures equal to the lab core's for the same seed, and opens an odd game in the
replay with every seat's hand shown."""

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
from shadowtable.lab.figures import lab_figures
from shadowtable.lab.run import play_rows
from shadowtable.lab.spec import check_spec
from web.driver import new_player

pytestmark = [pytest.mark.browser, pytest.mark.slow]

HERE = Path(__file__).resolve().parent
GAMES = 200
SEED = 20261203


class LabServer:
    """``tests/web/lab_server.py`` in a subprocess."""

    def __init__(self, folder: Path) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        env = {**os.environ, "PYTHONPATH": os.pathsep.join((source_path(), str(HERE.parent)))}
        env["SHADOWTABLE_DATA_DIR"] = str(folder)
        self.log_path = folder / "server.log"
        self.log = self.log_path.open("w")
        database = f"sqlite:///{folder / 'lab.db'}"
        self.process = subprocess.Popen(
            [sys.executable, str(HERE / "lab_server.py"), str(self.port), database],
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
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LabServer]:
    running = LabServer(tmp_path_factory.mktemp("lab-server"))
    yield running
    running.stop()


def core_figures(game: str, players: int) -> dict[str, Any]:
    """The lab core's figures of the run the page sets up, played in this process."""
    spec = check_spec(
        {
            "game": game,
            "players": players,
            "variants": [{"name": "baseline", "options": {}, "content": None}],
            "bots": ["level0"] * players,
            "games": GAMES,
            "seed": SEED,
        }
    )
    return lab_figures(spec, {0: play_rows(spec.to_json(), 0, 0, GAMES)})


@pytest.mark.parametrize(("game", "players"), [("shadow-planet", 3), ("shadowlord", 2)])
def test_a_run_from_the_page_to_its_figures_and_an_odd_game(
    browser: Any, server: LabServer, game: str, players: int
) -> None:
    player = new_player(browser, "designer", seed=1)
    page = player.page
    try:
        page.goto(server.url + "/signup")
        page.fill("input[name=name]", f"designer-{game}")
        page.fill("input[name=password]", "correct horse battery")
        page.click("button[type=submit]")
        page.wait_for_url(server.url + "/")
        page.click("#lab-link")
        page.wait_for_url(server.url + "/lab")
        page.select_option("#lab-game", game)
        page.select_option("#lab-players", str(players))
        page.click("form.lab-choose button[type=submit]")
        page.wait_for_url(re.compile(r".*/lab/new\?game=.*"))
        assert page.input_value("#lab-seed") != ""  # drawn and shown
        page.fill("#lab-games", str(GAMES))
        page.fill("#lab-seed", str(SEED))
        for seat in range(players):
            page.select_option(f"#bot-{seat}", "level0")
        page.click("#lab-start")
        page.wait_for_url(re.compile(r".*/lab/[A-Za-z0-9_-]+$"))
        run_id = page.url.rsplit("/", 1)[1]
        assert page.locator("#run-progress").count() == 1
        assert re.search(rf"of {GAMES} games played", page.inner_text("#run-status"))
        progress_shown = "() => Number(document.getElementById('run-done')?.textContent) > 0"
        page.wait_for_function(
            f"() => ({progress_shown})() || !!document.getElementById('lab-figures')", timeout=120_000
        )
        page.wait_for_selector("#lab-figures", timeout=300_000)
        assert page.locator("#lab-figures svg[role=img]").count() >= 2
        stored = page.evaluate(
            "async (r) => (await (await fetch(`/api/lab/runs/${r}?figures=true`)).json()).result", run_id
        )
        assert stored == core_figures(game, players)
        page.locator("button.odd-game").first.click()
        page.wait_for_url(re.compile(r".*/replay/[A-Za-z0-9_-]+\?reveal=1$"))
        assert page.locator("[data-reveal-view]").count() == players
    finally:
        page.context.close()
