"""Secrecy in the page: what a browser context received and showed, checked against the true game.

- every ``view`` frame's observation is that seat's observation of a state the true game passed
  through (so it holds nothing the seat may not know: the twin-state tests prove observations
  hide what they must), and ``legal`` comes only when the seat decides;
- every frame's HTML is exactly what the page renderer makes from the rest of that frame, so the
  HTML adds nothing to the observation;
- the board and panel text the page showed at each version is the text of that version's frame;
- no frame other than ``over`` (sent once the game ended) holds a record, a state or a seed.
"""

from __future__ import annotations

import json
import sqlite3
import urllib.request
from pathlib import Path
from typing import Any

from shadowtable.core.record import GameRecord, replay_states
from shadowtable.server.views import encode
from shadowtable.web.render import view_fragments
from web.driver import Player, squeeze, text_of

SECRET_KEYS = {"seed", "state", "actions", "record", "history", "current_player"}
FRAME_KINDS = {"welcome", "view", "ack", "reject", "presence", "notice", "chat", "pong", "over", "refused"}


def finished_record(url: str, table: str) -> GameRecord:
    with urllib.request.urlopen(f"{url}/api/tables/{table}/record", timeout=120) as answer:
        return GameRecord.from_json(json.loads(answer.read()))


def running_record(folder: Path, table: str) -> GameRecord:
    """The true record so far of a game still in play, read from the server's SQLite database in
    ``folder`` (the server itself gives no record before the end: it holds every secret)."""
    with sqlite3.connect(folder / "server.db") as db:
        game, version, players, options = db.execute(
            "SELECT game, version, players, options FROM tables WHERE id = ?", (table,)
        ).fetchone()
        actions = [row[0] for row in db.execute("SELECT action FROM actions WHERE table_id = ? ORDER BY idx", (table,))]
    return GameRecord(
        game=game,
        version=version,
        players=players,
        options=json.loads(options),
        seats=[f"seat {seat}" for seat in range(players)],
        actions=actions,
        truncated=True,
    )


def table_info(url: str, table: str) -> dict[str, Any]:
    with urllib.request.urlopen(f"{url}/api/tables/{table}", timeout=120) as answer:
        info: dict[str, Any] = json.loads(answer.read())
        return info


def check_player(player: Player, seat: int | None, record: GameRecord, info: dict[str, Any]) -> int:
    """Every check above for one context; the number of view frames checked."""
    game = None
    observed: set[str] = set()
    for game, state in replay_states(record):
        observed.add(encode(game.observe(state, seat)))
    assert game is not None
    views = 0
    html_by_v: dict[int, dict[str, str]] = {}
    for message in player.messages():
        kind = message.get("t")
        assert kind in FRAME_KINDS, f"{player.name}: unexpected frame {kind!r}"
        if kind != "over":
            assert not SECRET_KEYS & set(message), f"{player.name}: a {kind} frame holds {SECRET_KEYS & set(message)}"
        if kind != "view":
            continue
        views += 1
        assert encode(message["obs"]) in observed, f"{player.name}: v{message['v']} shows no true state's observation"
        if message["legal"] is not None:
            assert seat is not None and message["pending"]["seat"] == seat, f"{player.name}: legal actions sent"
        html = message.pop("html")
        rendered = [view_fragments(game, message, {**info, "status": status}) for status in ("open", "playing", "over")]
        differing = sorted(key for key in html if all(html[key] != r.get(key) for r in rendered))
        assert not differing, f"{player.name}: v{message['v']} HTML is not the render of its own message: {differing}"
        html_by_v[message["v"]] = html
    for v, text in player.shown.items():
        html = html_by_v.get(v)
        if html is None:
            continue  # shown from the page's first render, before any frame
        assert squeeze(text) == text_of(html["board"] + html["panel"]), f"{player.name}: the page at v{v} differs"
    return views
