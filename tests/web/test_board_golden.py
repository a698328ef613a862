"""The browser boards and the page fragments give the same HTML, byte for byte, as recorded.

Seeded games of both titles (random bots, several player counts) are played on a
:class:`~shadowtable.core.table.Table` that tells every audience.  At every version of every seat
and of the spectator, the seat's view message is rendered by the game's web board and by
:func:`shadowtable.web.render.view_fragments`; one SHA-256 per game covers all of it.

The digests in ``GOLDEN`` are a legitimate golden: they were computed by this test from the
board and fragment code as it stood before the boards were rewritten to read the typed
observation and split into small functions, so a rewrite that changes one byte of any page
fails here.  A deliberate change of the HTML is the only reason to record them again.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pytest

from shadowtable.bots.registry import make_bot
from shadowtable.core.registry import make
from shadowtable.core.table import Table
from shadowtable.web.render import board_renderer, view_fragments

GAMES = [  # title, players, seed, steps played at most (every version up to there is rendered)
    ("shadow-planet", 3, 11, 400),  # to its end
    ("shadow-planet", 4, 12, 160),
    ("shadow-planet", 5, 13, 160),
    ("shadowlord", 2, 21, 160),
    ("shadowlord", 3, 22, 160),
    ("shadowlord", 4, 23, 160),
]

GOLDEN: dict[tuple[str, int, int, int], str] = {
    ("shadow-planet", 3, 11, 400): "c389f6ff331f3930bccafa47e97a511edcb74d6a2f88bf3ab3832f7095e7efb8",
    ("shadow-planet", 4, 12, 160): "0805e5ba02f5c09f03087d56f857b9e3e2f245f4c7d048e2e38eed63bc631ae4",
    ("shadow-planet", 5, 13, 160): "be93ef0fb132f861826e55f187a4eb3cd0d0746a6b919def2f5005e3375b82ac",
    ("shadowlord", 2, 21, 160): "ebf79e673189e78470ce1826af26a96343fac77a5f4818cf3441dda893167974",
    ("shadowlord", 3, 22, 160): "2240f417d01a4ebf57e28a77b112bb795297d3b6c9a4e45022c2c03ede20cd96",
    ("shadowlord", 4, 23, 160): "4f060dbd07c85f0448737e2572227abb140639818015541413cb8d88e340f255",
}


def _presence(players: int) -> list[dict[str, Any]]:
    return [
        {"seat": i, "name": f"Player {i}", "kind": "bot", "here": True, "bot_playing": True} for i in range(players)
    ]


def _info(table: Table, status: str) -> dict[str, Any]:
    seats = [{"seat": i, "name": name} for i, name in enumerate(table.seat_names)]
    return {"status": status, "seats": seats}


def _digest(title: str, players: int, seed: int, steps: int) -> tuple[str, int]:
    """The SHA-256 of every rendered version of one game, and how many views were rendered."""
    game = make(title, players=players)
    table = Table(game, [make_bot("random") for _ in range(players)], seed)
    table.tell()
    render_board = board_renderer(type(game))
    seen = dict.fromkeys(table.audiences(), -1)
    digest = hashlib.sha256()
    views = 0
    while True:
        over = table.is_over()
        for audience in table.audiences():
            v = table.channels[audience].v
            if v == seen[audience]:
                continue
            # alternately the whole log and only the events since the last version rendered
            since = 0 if views % 2 == 0 else max(seen[audience], 0)
            seen[audience] = v
            presence = _presence(players) if views % 3 else None
            message = table.view(audience, since).to_json(presence=presence)
            message = json.loads(json.dumps(message))  # as a browser or the page receives it
            board = render_board(game, message)
            fragments = view_fragments(game, message, _info(table, "over" if over else "playing"))
            digest.update(repr((audience, v, board.board, board.panel, board.goal)).encode())
            digest.update(json.dumps(fragments, sort_keys=True).encode())
            views += 1
        if over or len(table.actions) >= steps:
            break
        table.step()
    opening = view_fragments(game, table.view(None, 0).to_json(), _info(table, "open"))
    digest.update(json.dumps(opening, sort_keys=True).encode())
    return digest.hexdigest(), views


@pytest.mark.parametrize(("title", "players", "seed", "steps"), GAMES)
def test_the_pages_are_the_recorded_html(title: str, players: int, seed: int, steps: int) -> None:
    digest, views = _digest(title, players, seed, steps)
    assert views > 40 * (players + 1)
    assert digest == GOLDEN[(title, players, seed, steps)]
