"""The parallel PettingZoo environment: PettingZoo's own test, the Messages discards in one step,
each from its own view, and the same game as the engine's."""

from __future__ import annotations

import random
from typing import Any

import pytest

pytest.importorskip("pettingzoo")

import numpy as np  # noqa: E402
from pettingzoo.test import parallel_api_test  # noqa: E402

from shadowtable.core.errors import IllegalActionError  # noqa: E402
from shadowtable.core.game import CHANCE, TERMINAL  # noqa: E402
from shadowtable.core.rng import sample_outcome  # noqa: E402
from shadowtable.rl.encoding import encode_into  # noqa: E402
from shadowtable.rl.pettingzoo import ShadowTableParallel, parallel_env  # noqa: E402


@pytest.mark.parametrize(
    ("game_id", "players"), [("tiny-showdown", 3), ("shadow-planet", 3), ("shadow-planet", 4), ("shadowlord", 2)]
)
def test_pettingzoo_parallel_api_test(game_id: str, players: int) -> None:
    parallel_api_test(parallel_env(game_id, players=players), num_cycles=400)


def test_the_same_seed_and_choices_give_the_same_game() -> None:
    # (PettingZoo's parallel_seed_test samples actions without their masks: not for masked games)
    first, second = parallel_env("shadow-planet", players=3), parallel_env("shadow-planet", players=3)
    seen = [first.reset(seed=42)[0], second.reset(seed=42)[0]]
    rng = random.Random(1)
    for _ in range(150):
        for a in seen[0]:
            assert np.array_equal(seen[0][a]["observation"], seen[1][a]["observation"])
            assert np.array_equal(seen[0][a]["action_mask"], seen[1][a]["action_mask"])
        choices = _choose(seen[0], rng)
        seen = [first.step(choices)[0], second.step(choices)[0]]


def _choose(observations: dict[str, Any], rng: random.Random) -> dict[str, int]:
    """A random legal action for every agent that has a decision."""
    return {
        agent: int(rng.choice(np.flatnonzero(o["action_mask"])))
        for agent, o in observations.items()
        if o["action_mask"].any()
    }


def _until_the_discards(env: ShadowTableParallel, rng: random.Random) -> dict[str, Any]:
    observations, _ = env.reset(seed=11)
    while len(env.deciding) < 2:
        observations, *_ = env.step(_choose(observations, rng))
        assert env.agents, "the game ended before any Messages discard"
    return observations


def test_the_messages_discards_are_one_step_each_seat_from_its_own_view() -> None:
    env = parallel_env("shadow-planet", players=4)
    observations = _until_the_discards(env, random.Random(2))
    game, before = env.game, env.state
    acting = sorted(a for a, o in observations.items() if o["action_mask"].any())
    assert acting == sorted(env.possible_agents[s] for s in env.deciding) and len(acting) >= 2
    choices = _choose(observations, random.Random(5))
    # the engine asks for the discards one by one: each seat's options are the mask it was given
    state = before
    for seat in env.deciding:
        agent = env.possible_agents[seat]
        assert game.current_player(state) == seat
        assert np.flatnonzero(observations[agent]["action_mask"]).tolist() == game.legal_actions(state)
        expected = np.zeros(env.encoder.shape, dtype=np.float32)
        encode_into(env.encoder, game.observe(before, seat), expected)
        assert np.array_equal(observations[agent]["observation"], expected)  # its own view, before any choice
        state = game.apply(state, choices[agent])
    chance = random.Random()
    chance.setstate(env._rng.getstate())
    env.step(choices)
    while game.current_player(state) == CHANCE:  # then chance, drawn as the environment draws it
        state = game.apply(state, sample_outcome(game.chance_outcomes(state), chance))
    assert game.state_to_json(env.state) == game.state_to_json(state)


def test_an_illegal_or_missing_action_raises_and_changes_nothing() -> None:
    env = parallel_env("shadow-planet", players=4)
    observations = _until_the_discards(env, random.Random(2))
    before, deciding = env.game.state_to_json(env.state), dict(env.deciding)
    choices = _choose(observations, random.Random(5))
    last = env.possible_agents[list(deciding)[-1]]
    with pytest.raises(IllegalActionError, match="not legal"):
        env.step({**choices, last: 10_000})
    with pytest.raises(IllegalActionError, match="sent no action"):
        env.step({a: c for a, c in choices.items() if a != last})
    assert env.game.state_to_json(env.state) == before and env.deciding == deciding


def test_a_whole_game_is_the_engines_game_and_ends_with_its_returns() -> None:
    env = parallel_env("shadow-planet", players=3)
    rng = random.Random(8)
    observations, _ = env.reset(seed=4)
    played: list[int] = []
    totals = dict.fromkeys(env.possible_agents, 0.0)
    while env.agents:
        choices = _choose(observations, rng)
        idle = [a for a in env.agents if a not in choices]
        played += [choices[env.possible_agents[s]] for s in env.deciding]
        observations, rewards, terminations, _, _ = env.step({**choices, **dict.fromkeys(idle, 0)})  # idle: ignored
        for agent, reward in rewards.items():
            totals[agent] += reward
    assert all(terminations.values())
    # the same choices, one by one, with chance drawn as the environment draws it
    game, chance = env.game, random.Random(4)
    state, choices_left = game.initial_state(), iter(played)
    while game.current_player(state) != TERMINAL:
        if game.current_player(state) == CHANCE:
            state = game.apply(state, sample_outcome(game.chance_outcomes(state), chance))
        else:
            state = game.apply(state, next(choices_left))
    assert next(choices_left, None) is None
    assert [totals[a] for a in env.possible_agents] == game.returns(state) == game.returns(env.state)


def test_no_discard_changes_another_seats_options() -> None:
    env = parallel_env("shadow-planet", players=5)
    _until_the_discards(env, random.Random(6))
    game, block = env.game, env.game.simultaneous_decisions(env.state)
    for choice in block[0][1]:  # whatever the first seat discards, the others' options stay the same
        after = game.simultaneous_decisions(game.apply(env.state, choice))
        assert after == block[1:]


@pytest.mark.parametrize("action", ["1", 1.0, True, None, np.bool_(True)], ids=repr)
def test_an_action_that_is_not_an_integer_raises_and_changes_nothing(action: object) -> None:
    env = parallel_env("shadow-planet", players=4)
    observations = _until_the_discards(env, random.Random(2))
    before, deciding = env.game.state_to_json(env.state), dict(env.deciding)
    choices = _choose(observations, random.Random(5))
    last = env.possible_agents[list(deciding)[-1]]
    with pytest.raises(IllegalActionError, match=f"{last}: an action is an int"):
        env.step({**choices, last: action})
    assert env.game.state_to_json(env.state) == before and env.deciding == deciding


def test_numpy_integers_are_the_actions_of_their_values() -> None:
    env, same = parallel_env("shadow-planet", players=4), parallel_env("shadow-planet", players=4)
    observations = _until_the_discards(env, random.Random(2))
    _until_the_discards(same, random.Random(2))
    choices = _choose(observations, random.Random(5))
    env.step({agent: np.int64(choice) for agent, choice in choices.items()})
    same.step(choices)
    assert env.game.state_to_json(env.state) == same.game.state_to_json(same.state)
