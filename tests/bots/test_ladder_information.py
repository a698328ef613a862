"""Every ladder level chooses the same on two true states its seat cannot tell apart (resampling check)."""

from __future__ import annotations

import random
import re

import pytest

from shadowtable.bots import ladder, make_bot
from shadowtable.bots.policy_bot import shipped_policy
from shadowtable.core import make
from shadowtable.testing import choice_points

CONFIGS: list[tuple[str, int, dict[str, object]]] = [
    ("shadow-planet", 3, {}),
    ("shadow-planet", 4, {}),
    ("shadow-planet", 5, {}),
    ("shadowlord", 2, {}),
    ("shadowlord", 2, {"modified": True}),
    ("shadowlord", 3, {}),
    ("shadowlord", 4, {}),
]


def positions(
    game_id: str, players: int, seed: int, count: int, options: dict[str, object] | None = None
) -> list[tuple[object, int]]:
    """States where a seat has several legal actions, from a random playout."""
    return choice_points(make(game_id, players=players, **(options or {})), random.Random(seed), count)


def level_spec(name: str, game_id: str) -> str:
    """The level's spec for ``game_id``; a search keeps its settings with a small iteration budget
    (what it may look at is the same; only fewer rollouts, to keep the test fast)."""
    spec = ladder.LADDER[name].spec_for(game_id, time_cap_s=60.0)
    return re.sub(r"iterations=\d+", "iterations=6", spec)


@pytest.mark.parametrize(("game_id", "players", "options"), CONFIGS)
@pytest.mark.parametrize("name", list(ladder.LADDER))
def test_a_level_chooses_the_same_on_states_its_seat_cannot_tell_apart(
    name: str, game_id: str, players: int, options: dict[str, object]
) -> None:
    if name == "policy":
        pytest.importorskip("numpy")
        if shipped_policy(game_id, players, options) is None:
            pytest.skip(f"no policy ships for {game_id} with {players} players {options}")
    game = make(game_id, players=players, **options)
    spec = level_spec(name, game_id)
    told_apart = 0
    for state, seat in positions(game_id, players, seed=5, count=2, options=options):
        observation, legal = game.observe(state, seat), game.legal_actions(state)
        choice = make_bot(spec).choose(game, seat, observation, legal, random.Random(17))
        for sample in range(2):
            resampled = game.determinize(observation, random.Random(sample))
            seen = game.observe(resampled, seat)
            assert seen == observation
            told_apart += resampled != state
            again = make_bot(spec).choose(game, seat, seen, game.legal_actions(resampled), random.Random(17))
            assert again == choice, (spec, seat)
    assert told_apart > 0, "the resampled states should differ from the true one somewhere"
