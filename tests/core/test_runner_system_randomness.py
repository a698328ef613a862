"""Games people play: no seed, chance from the operating system, a record that cannot predict.

A record (a save) holds every action so far, chance outcomes included; with a master seed it would
also let anyone compute every future draw. ``Session(..., seed=None)`` draws chance and bot
randomness from :class:`secrets.SystemRandom` and records no seed.
"""

from __future__ import annotations

from typing import Any

from shadowtable.bots import RandomBot
from shadowtable.core import GameRecord, make
from shadowtable.core.runner import Session


def _seedlike_keys(data: Any, path: str = "") -> list[str]:
    """Keys anywhere in ``data`` that could carry a generator's seed or state, with a value."""
    found = []
    if isinstance(data, dict):
        for key, value in data.items():
            if any(word in str(key).lower() for word in ("seed", "rng", "random", "entropy")) and value is not None:
                found.append(f"{path}/{key}")
            found += _seedlike_keys(value, f"{path}/{key}")
    elif isinstance(data, list):
        for i, value in enumerate(data):
            found += _seedlike_keys(value, f"{path}/{i}")
    return found


def _first_decision(game_id: str, players: int) -> Session:
    session = Session(make(game_id, players=players), [None] + [RandomBot()] * (players - 1), None)
    session.run()
    assert session.awaits_outside_decision()
    return session


def _unseeded_opening(game_id: str, players: int, steps: int = 200) -> tuple[int, ...]:
    """The first ``steps`` actions of an unseeded game between random bots: dozens of draws and
    rolls, so two such openings coincide with negligible probability."""
    session = Session(make(game_id, players=players), [RandomBot()] * players, None)
    session.run(max_steps=steps)
    return tuple(session.actions)


def test_two_unseeded_sessions_deal_differently() -> None:
    for game_id, players in (("shadow-planet", 4), ("shadowlord", 3)):
        assert len({_unseeded_opening(game_id, players) for _ in range(3)}) == 3


def test_an_unseeded_record_holds_no_seed_nor_anything_like_one() -> None:
    session = _first_decision("shadow-planet", 4)
    session.apply(session.game.legal_actions(session.state)[0])
    session.run()
    record = session.record()
    assert session.seed is None and record.seed is None
    data = GameRecord.loads(record.dumps()).to_json()
    assert data["seed"] is None
    assert _seedlike_keys(data) == []


def test_resuming_an_unseeded_save_replays_it_then_draws_afresh() -> None:
    game = make("shadow-planet", players=4)
    session = Session(game, [RandomBot()] * 4, None)
    session.run(max_steps=60)
    saved = GameRecord.loads(session.record().dumps())
    futures = set()
    for _ in range(3):
        resumed = Session.resume(saved, [RandomBot()] * 4)
        assert resumed.seed is None
        assert game.state_to_json(resumed.state) == game.state_to_json(session.state)
        resumed.run()
        assert resumed.is_over() and resumed.record().seed is None
        futures.add(tuple(resumed.actions[len(saved.actions) :]))
    assert len(futures) == 3  # the save did not fix the future


def test_a_seeded_session_still_resumes_exactly() -> None:
    game = make("tiny-showdown", players=3)
    whole = Session(game, [RandomBot()] * 3, 5)
    whole.run()
    partial = Session(game, [RandomBot()] * 3, 5)
    partial.run(max_steps=3)
    resumed = Session.resume(GameRecord.loads(partial.record().dumps()), [RandomBot()] * 3)
    resumed.run()
    assert resumed.actions == whole.actions and resumed.seed == 5
