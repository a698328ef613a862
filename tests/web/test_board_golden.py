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
Both games' digests were recorded again when counts came to be worded for people ("1 Space
Ship", "3 Space Ships" for "Space Ship(s)"; "seat 1, seat 2 and seat 3 vote" for "seat(s) 1, 2, 3
vote"; "Power Card 0 and 10" for "0, 10"; "take the top card" for "the top 1 card(s)"): the pages
of the earlier and the new code, compared line by line, differ in those words only.
Shadowlord!'s digests were recorded again when its log came to tell each thing once: no bare
chance line ("chance: roll 2d8: 9 (Draw 2 Power Cards)") where the rule's own line tells the roll,
the disc or who plays first; no "seat 1 draws a Power Card" after "blue draws 1 Power Card"; a
Duel's card drawn face up by its duellist ("Green Master draws Power Card 4 face up for the
Duel" for "chance: draw Power Card: 4"); "red draws 1 Power Card" for "...: 1 + 0 for controlled
Ruins"; "red has no Space Ships to build (no Merchant, no Space Base)" for "red gains 0 Space
Ships to build: 0 Merchants x 3 + 0 Space Bases x 3". The earlier pages, with exactly those
lines rewritten, equal the new ones line for line. They were recorded again for one added line,
an event that finds no target ("Steal 2 Power Cards has no target (no other player holds a Power
Card): nothing happens"): without those lines the pages equal the ones before.
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
    ("shadow-planet", 3, 11, 400): "abb11758b286d1513caf90b82ed01a9c602d07e1e4782652a459889e47d7e7f5",
    ("shadow-planet", 4, 12, 160): "d8c70223672136fcd06e187678b7a18257532499824ffce904c52ce0d8042709",
    ("shadow-planet", 5, 13, 160): "a3dd8070d52ec1c900572ad62ec6449663455370edeff7cc4733302397280627",
    ("shadowlord", 2, 21, 160): "a57ed8d7d8410fef57682514cc29706370013eac95168667e11a69a7d5ce1fc1",
    ("shadowlord", 3, 22, 160): "8f96062063fc4366456dbde24f90b0ecb5b624a09db214b7b87837c457236371",
    ("shadowlord", 4, 23, 160): "818a43e0930ab3448b7e5914b954ada84e262de89c38dd69db49ffc2f72dd734",
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
