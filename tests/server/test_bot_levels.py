"""Bot levels: a client seats a level of the server's list, never parameters or a file."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from server.wire import Seat, create, play_out
from shadowtable.bots import ladder
from shadowtable.core.errors import BotError
from shadowtable.server.bot_levels import LEVELS, SEAT_VALUES, check_default_bot, levels_for, run_spec
from shadowtable.server.run import ServeOptions, config_from

SRC = Path(__file__).resolve().parents[2] / "src"


def _refusal(client: Any, seat: str, game: str = "shadowlord", players: int = 2) -> str:
    response = client.post("/api/tables", json={"game": game, "players": players, "seats": ["human", seat]})
    assert response.status_code == 400, response.text
    error: str = response.json()["error"]
    return error


def test_a_seat_with_bot_parameters_is_refused_with_the_levels_offered(serve: Any) -> None:
    with serve() as client:
        before = client.get("/api/tables?status=open").json()
        for seat in ("bot:ismcts:iterations=100000000", "bot:heuristic:depth=9", "bot:random:x=1", "bot:nope"):
            error = _refusal(client, seat)
            assert "unknown bot level" in error and "bot levels for shadowlord with 2 players: random" in error
            assert "heuristic, ismcts" in error
        assert client.get("/api/tables?status=open").json() == before  # nothing was created


def test_a_policy_path_is_refused_without_saying_whether_the_file_exists(serve: Any, tmp_path: Path) -> None:
    existing = tmp_path / "policy.pt"
    existing.write_bytes(b"not a policy")
    missing = tmp_path / "missing.pt"
    with serve() as client:
        said = [_refusal(client, f"bot:policy:path={path}") for path in (existing, missing, "/etc/passwd")]
    assert len({re.sub(r"'[^']*'", "'...'", text) for text in said}) == 1  # the same words, file or none
    assert "unknown bot level" in said[0]


def test_the_catalogue_lists_the_levels_and_what_each_plays(serve: Any) -> None:
    with serve() as client:
        catalogue = client.get("/api/games").json()
    levels = {level["name"]: level for level in catalogue["levels"]}
    assert list(levels) == list(LEVELS)
    assert catalogue["bots"] == [name for name, level in levels.items() if level["plays"]]
    shadowlord = next(game for game in catalogue["games"] if game["id"] == "shadowlord")
    counts = list(range(shadowlord["min_players"], shadowlord["max_players"] + 1))
    assert levels["random"]["plays"]["shadowlord"] == levels["ismcts"]["plays"]["shadowlord"] == counts
    assert "tiny-showdown" not in levels["heuristic"]["plays"]  # no heuristic bot for it
    assert set(levels["policy"]["plays"]) <= {"shadow-planet", "shadowlord"}
    assert set(levels["policy"]["plays"].get("shadowlord", [])) <= {2, 3, 4}


def test_the_schema_lists_the_seat_values(serve: Any) -> None:
    with serve() as client:
        schema = client.get("/openapi.json").json()
    seats = schema["components"]["schemas"]["CreateTable"]["properties"]["seats"]
    items = next(option for option in seats["anyOf"] if option.get("type") == "array")["items"]
    assert items["enum"] == SEAT_VALUES == ["human", "bot:random", "bot:heuristic", "bot:ismcts", "bot:policy"]


def test_checking_a_policy_seat_loads_nothing() -> None:
    code = (
        "import sys; from shadowtable.server.bot_levels import check_seat_bot, levels_for;"
        "levels_for('shadow-planet', 4); check_seat_bot('policy', 'shadow-planet', 4) if 'policy' in"
        " levels_for('shadow-planet', 4) else None; print('torch' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], env={"PYTHONPATH": str(SRC)}, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False"


def test_a_level_runs_its_own_spec_and_a_search_stays_within_the_budget() -> None:
    shadowlord = run_spec("ismcts", "heuristic", 5.0, "shadowlord")
    assert shadowlord == ladder.LADDER["ismcts"].spec_for("shadowlord")  # the ladder's, its cap kept
    assert "prior=heuristic" in shadowlord and "evaluate=heuristic" in shadowlord
    assert run_spec("ismcts", "heuristic", 0.5, "shadow-planet").endswith(":time=0.400")  # a small budget caps it
    assert "evaluate" not in run_spec("ismcts", "heuristic", 5.0, "shadow-planet")
    assert run_spec("random", "heuristic", 5.0) == "random"
    assert run_spec("ismcts:iterations=100000000", "heuristic", 5.0) == "heuristic"  # stored by an older server
    assert run_spec("ismcts:iterations=9", "ismcts:iterations=9", 5.0) == "ismcts:iterations=9"  # the operator's
    assert "random" in levels_for("tiny-showdown", 2) and "heuristic" not in levels_for("tiny-showdown", 2)


@pytest.mark.parametrize(
    ("spec", "words"),
    [("nobody", "unknown bot 'nobody'"), ("policy:path=/no/such/file.pt", "no policy file"), ("ismcts:x=1", "x")],
)
def test_the_default_bot_is_a_level_or_a_valid_spec(spec: str, words: str) -> None:
    with pytest.raises(BotError, match=words):
        config_from(ServeOptions(default_bot=spec))
    for good in ("heuristic", "policy", "ismcts:iterations=50"):
        check_default_bot(good)


def test_a_rematch_keeps_the_operators_default_bot(serve: Any) -> None:
    with serve(default_bot="ismcts:iterations=5") as client:
        answer = create(client, game="tiny-showdown", players=2, name="Ann")
        table, token = answer["table"]["id"], answer["token"]
        headers = {"Authorization": f"Bearer {token}"}
        started = client.post(f"/api/tables/{table}/start", headers=headers)
        assert [seat["bot"] for seat in started.json()["seats"]] == [None, "ismcts:iterations=5"]
        with client.websocket_connect(f"/ws/{table}") as ws:
            seat = Seat(ws)
            seat.hello(token)
            play_out(seat)
        rematch = client.post(f"/api/tables/{table}/rematch", headers=headers)
        assert rematch.status_code == 200, rematch.text
        assert [seat["bot"] for seat in rematch.json()["seats"]] == [None, "ismcts:iterations=5"]
        refused = client.post(
            "/api/tables", json={"game": "tiny-showdown", "players": 2, "seats": ["human", "bot:ismcts:iterations=5"]}
        )
        assert refused.status_code == 400  # the operator's bot is not a level a client may name
