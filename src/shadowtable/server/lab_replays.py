"""A lab run's odd game as a finished, unlisted table, so the replay page shows it (with the reveal,
from any seat's view) like any game played here.

The game is played again in a worker (:func:`shadowtable.server.lab_work.odd_game`: the same
seed, bots and variant give the same game) and stored as a table that is over: its seats the
run's bots, its actions every step.  The table is made once per odd game and remembered on the
run; only the games the run's figures list as odd can be opened, so a run makes at most that
many tables.
"""

from __future__ import annotations

import json
import secrets
import time
from typing import Any

from shadowtable.server import lab_work
from shadowtable.server.accounts import Account
from shadowtable.server.errors import Conflict, NotFound
from shadowtable.server.lab_runs import LabRuns
from shadowtable.server.repository import lab as sql
from shadowtable.server.repository.tables import insert_seats, insert_table
from shadowtable.server.schema import actions
from shadowtable.server.service import TableService
from shadowtable.server.store import Append
from shadowtable.server.table import Seat

ODD_GAME_ONLY = "only the games listed as odd can be opened in the replay"


def finished_table_writes(table_id: str, game: dict[str, Any], at: float) -> list[Any]:
    """The statements that store ``game`` (:func:`lab_work.odd_game`) as finished table ``table_id``."""
    fields = {
        "game": game["game"],
        "version": game["version"],
        "players": game["players"],
        "options": game["options"],
        "status": "over",
        "clock": None,
        "listed": False,
        "returns": game["returns"],
        "created_at": at,
        "finished_at": at,
        "rated": False,
        "rated_at": at,
    }
    seats = [Seat("bot", bot, None, None) for bot in game["bots"]]
    steps = [
        {"table_id": table_id, "idx": i, "seat": seat, "action": action, "client_id": None, "at": at}
        for i, (seat, action) in enumerate(game["steps"])
    ]
    return [insert_table(table_id, fields), insert_seats(table_id, seats), Append(actions, steps)]


async def odd_game_table(
    lab: LabRuns, service: TableService, account: Account, run_id: str, arm: int, index: int
) -> str:
    """The id of the finished table holding game ``index`` of ``arm`` of ``account``'s run (made
    now if it was not yet); 404 for a game the run does not list as odd."""
    run = await lab.run(account, run_id)
    result = run["result"]
    if result is None:
        raise Conflict("the odd games can be opened once the run is done")
    if not any(odd["arm"] == arm and odd["index"] == index for odd in result["odd_games"]):
        raise NotFound(ODD_GAME_ONLY)
    key = f"{arm}:{index}"
    made: dict[str, str] = run["replays"]
    if key in made:
        return made[key]
    game = await lab.workers.run(lab_work.odd_game, run["spec"], arm, index, lab.content_folder)
    table_id = secrets.token_urlsafe(9)
    await service.repository.write(*finished_table_writes(table_id, game, time.time()), table_id=table_id)
    made = {**made, key: table_id}
    await lab.database().execute(sql.set_replays(run_id, json.dumps(made)))
    return table_id
