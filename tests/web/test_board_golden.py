"""The browser boards and the page fragments give the same HTML, byte for byte, as recorded.

Seeded games of both titles (random bots, several player counts) are played on a
:class:`~shadowtable.core.table.Table` that tells every audience.  At every version of every seat
and of the spectator, the seat's view message is rendered by the game's web board and by
:func:`shadowtable.web.render.view_fragments`; one SHA-256 per game covers all of it.

The digests in ``GOLDEN`` are a legitimate golden: they were computed by this test from the
board and fragment code as it stood before the boards were rewritten to read the typed
observation and split into small functions, so a rewrite that changes one byte of any page
fails here.  A deliberate change of the HTML is the only reason to record them again.  The
Shadowlord! digests were recorded again for two reworded lines (before the first turn "Setting
up: before the first turn." for "Turn 1: - plays -."; the offer's prompt "add an item (up to 4),
send it, or withdraw it"), then for two log lines (a Special Event by the chart's name, "Special
Event roll 9: Draw 2 Power Cards" for "draw2", in the roll's notation too; "the shadows (...)
attack" for "attacks"), then for building Space Ships ("discard card 7 for 7 Space Ships" for
"discard for ships 7"), then for ending a battle's commitment ("commit no more cards" for
"commit done"): with those written as before, the new pages hash to the earlier digests, so
nothing else changed.
The Shadow Planet's digests were recorded again for the prompt of a chance node ("Setting up:
before the first turn" in round 0, "Chance: a card is drawn" after, for "Chance: chance
decides"), then for two log lines ("seat 2 (Alien) is ..." for "(Alien, alien)"; Reed's free
move from his own Location "moves into the Graveyard (Hill)" for "moves Hill -> Hill and into
the Graveyard"; his ability's words "move for free from Hill into the Graveyard" for "from hill
into graveyard"), then for what paying for a Section's effect and leaving it
say ("reveal 2 Attack from your hand: ..."), each checked the same way.
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
    ("shadow-planet", 3, 11, 400): "f6e8f5c0f86daa4ac533f0ac130eca6b2d828002d68c0842a2cb4a8acc5d7b39",
    ("shadow-planet", 4, 12, 160): "b68db08c158b9b97a20524f1baa2fa33423f72b64e6e994cc03848983c140cfe",
    ("shadow-planet", 5, 13, 160): "1e5bcff3175d64e79ad8d8db5343b8229624a08b7e8a77c263217c8ad4b0bc7a",
    ("shadowlord", 2, 21, 160): "0372afabb5ed6ff9e1cfa3807a2f57b7aa1dddb4b9cfa0ea69ac0519206fe006",
    ("shadowlord", 3, 22, 160): "a9bc2ca19e602c026b2bd5f3838750b0cf72bbb0a8190d21e2a2b269f12451b7",
    ("shadowlord", 4, 23, 160): "7acede740ce08d7d16a39717f476e0f530c3310810c36b56238b8050f362a9ec",
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
