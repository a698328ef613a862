"""The registered Python games under OpenSpiel: its random simulation test (serialising states
as it goes), the game type's claims, perfect-recall information states, ``max_game_length``,
cheap clones, pickling, ``resample_from_infostate`` and OpenSpiel's own Python ISMCTS playing
whole games."""

from __future__ import annotations

import copy
import json
import os
import pickle
import random
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from dataclasses import replace
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest

from tiny_game import TinyGame, TinyState

pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")
ismcts = pytest.importorskip("open_spiel.python.algorithms.ismcts")
mcts = pytest.importorskip("open_spiel.python.algorithms.mcts")
observation = pytest.importorskip("open_spiel.python.observation")

import shadowtable  # noqa: E402
from shadowtable.core.errors import IllegalActionError  # noqa: E402
from shadowtable.core.game import Observation  # noqa: E402
from shadowtable.core.registry import game_class, make, register, unregister  # noqa: E402
from shadowtable.games.shadow_planet.length import location_cards, most_round_steps, most_rounds  # noqa: E402
from shadowtable.games.shadowlord.rules.turn import TURN_STEP_LIMIT  # noqa: E402
from shadowtable.rl.openspiel_game import (  # noqa: E402
    apply_edits,
    json_edits,
    load,
    max_game_length,
    read_information_state,
)

PLANET_CONTENT = Path(__file__).parents[2] / "src/shadowtable/games/shadow_planet/data/content.json"
GAMES = [("tiny-showdown", 2), ("shadow-planet", 4), ("shadowlord", 2), ("shadowlord", 4)]
SIMULATIONS = {"tiny-showdown": 20}
"""Random games per configuration in OpenSpiel's simulation test (one where not named)."""


def random_action(state: Any, rng: random.Random) -> int:
    """A chance outcome drawn by its probability, or a uniformly random legal action."""
    if state.is_chance_node():
        actions, probs = zip(*state.chance_outcomes(), strict=True)
        return int(rng.choices(actions, probs)[0])
    return int(rng.choice(state.legal_actions()))


def positions(game: Any, seed: int, count: int = 6) -> list[Any]:
    """States of one seeded random playout, ``count`` at most: after every action in a short game
    (the tiny one), every 25th in the others."""
    every = 1 if game.max_game_length() < 100 else 25
    rng, state, found = random.Random(seed), game.new_initial_state(), []
    while not state.is_terminal() and len(found) < count:
        for _ in range(every):
            if state.is_terminal():
                break
            state.apply_action(random_action(state, rng))
        if not state.is_terminal():
            found.append(state.clone())
    assert found
    return found


def replay(game: Any, history: list[int]) -> Any:
    """A fresh state with ``history`` applied."""
    state = game.new_initial_state()
    for action in history:
        state.apply_action(action)
    return state


def strings(state: Any) -> tuple[Any, ...]:
    """Everything a caller reads as text from ``state``, and its history."""
    seats = range(state.get_game().num_players())
    return (
        [state.observation_string(p) for p in seats],
        [state.information_state_string(p) for p in seats],
        str(state),
        state.history(),
        state.legal_actions(),
    )


def play_out(state: Any, rng: random.Random) -> Iterator[Any]:
    """``state`` itself after each random action, to the end of the game."""
    while not state.is_terminal():
        state.apply_action(random_action(state, rng))
        yield state


def recorded(game: Any, history: list[int], seat: int) -> list[tuple[int | None, Any]]:
    """What ``seat`` observed along ``history`` replayed, as :func:`read_information_state` gives
    it: the first observation, then per step its own action (or ``None``) and the observation."""
    state = game.new_initial_state()
    out: list[tuple[int | None, Any]] = [(None, json.loads(state.observation_string(seat)))]
    for action in history:
        own = action if state.current_player() == seat else None
        state.apply_action(action)
        out.append((own, json.loads(state.observation_string(seat))))
    return out


class ForgetfulGame(TinyGame):
    """The tiny game, but a seat sees only how many bets were made and the last one."""

    SPEC = replace(TinyGame.SPEC, id="tiny-forgetful")

    def observe(self, state: TinyState, seat: int | None) -> Observation:
        seen = dict(super().observe(state, seat))
        bets = seen.pop("history")
        return {**seen, "bets": len(bets), "last": bets[-1] if bets else None}


@pytest.fixture
def forgetful() -> Iterator[Any]:
    register(ForgetfulGame)
    yield load("tiny-forgetful", 2)
    unregister("tiny-forgetful")


def views(state: Any) -> list[Any]:
    """The engine's observation of ``state`` by the spectator and by every seat."""
    game = state.st_game
    return [game.observe(state.st_state, seat) for seat in [None, *range(game.players)]]


STANDARD = [
    (game_id, players)
    for game_id in ("tiny-showdown", "shadow-planet", "shadowlord")
    for players in sorted({configuration["players"] for configuration in game_class(game_id).standard_configurations()})
]
"""Every game and standard player count (OpenSpiel loads a game by its player count alone)."""


@pytest.mark.parametrize(("game_id", "players"), STANDARD)
def test_openspiel_random_sim_test(game_id: str, players: int) -> None:
    """OpenSpiel's own checks over random games, serialising and deserialising the game and state
    on the way (at its first ten steps and every power of two)."""
    game = load(game_id, players)
    assert game.num_players() == players
    pyspiel.random_sim_test(game, num_sims=SIMULATIONS.get(game_id, 1), serialize=True, verbose=False)


def test_observation_tensor_matches_the_encoder() -> None:
    game = load("tiny-showdown", 2)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    observer = game.make_py_observer()
    observer.set_from(state, 0)
    assert observer.tensor.sum() > 0
    assert '"seat":0' in observer.string_from(state, 0)


def test_the_game_type_claims_what_states_provide() -> None:
    game = load("shadow-planet", 4)
    kind = game.get_type()
    assert kind.provides_information_state_string and not kind.provides_information_state_tensor
    assert kind.provides_observation_string and kind.provides_observation_tensor
    state = positions(game, seed=1, count=1)[0]
    seen = read_information_state(state.information_state_string(1))
    assert len(seen) == len(state.history()) + 1
    assert seen[-1][1] == json.loads(state.observation_string(1))
    with pytest.raises(NotImplementedError, match="no information-state tensor"):
        state.information_state_tensor(1)
    with pytest.raises(NotImplementedError, match="no information-state tensor"):
        game.information_state_tensor_shape()
    observer = observation.make_observation(game, observation.INFO_STATE_OBS_TYPE)
    assert observer.tensor is None
    assert observer.string_from(state, 1) == state.information_state_string(1)
    with pytest.raises(NotImplementedError, match="no information-state tensor"):
        observer.set_from(state, 1)
    everyone = pyspiel.IIGObservationType(perfect_recall=False, private_info=pyspiel.PrivateInfoType.ALL_PLAYERS)
    with pytest.raises(ValueError, match="observe for one seat"):
        game.make_py_observer(everyone)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ({"a": 1}, {"a": True}),
        ({"a": 1}, {"a": 1.0}),
        ([0.0], [-0.0]),
        ({"a": [1, 2]}, {"a": [1, 2, 3]}),
        ({"a": {"b": 1}, "c": 2}, {"a": {}, "d": None}),
        ({"x": [{"y": 1}, "z"]}, {"x": [{"y": 2}, "z"]}),
        (1, "1"),
    ],
)
def test_json_edits_turn_one_value_into_the_other(old: Any, new: Any) -> None:
    edits = json_edits(old, new)
    assert edits
    assert json.dumps(apply_edits(old, edits), sort_keys=True) == json.dumps(new, sort_keys=True)
    assert json_edits(new, new) == []


@pytest.mark.parametrize(("game_id", "players"), GAMES)
def test_an_information_state_records_every_observation_and_own_action(game_id: str, players: int) -> None:
    game = load(game_id, players)
    for state in positions(game, seed=9, count=2):
        for seat in range(players):
            text = state.information_state_string(seat)
            assert text.count("\n") == len(state.history())
            assert read_information_state(text) == recorded(game, state.history(), seat)


def test_an_information_state_tells_apart_what_the_seat_saw_earlier(forgetful: Any) -> None:
    # seat 0 holds card 3; seat 1 holds 1 (or 4) and raises (or passes); then seat 0 passes
    raised = replay(forgetful, [3, 1, 0, 1, 0])
    passed = replay(forgetful, [3, 1, 0, 0, 0])
    other_card = replay(forgetful, [3, 4, 0, 1, 0])
    assert views(raised)[1] == views(passed)[1]
    assert raised.information_state_string(0) != passed.information_state_string(0)
    assert views(raised)[1] == views(other_card)[1]
    assert raised.information_state_string(0) == other_card.information_state_string(0)
    assert views(raised)[2] != views(other_card)[2]
    assert raised.information_state_string(1) != other_card.information_state_string(1)


@pytest.mark.parametrize(("game_id", "players"), [("shadow-planet", 4), ("shadowlord", 2)])
def test_an_information_state_is_one_for_chance_outcomes_a_seat_does_not_see(game_id: str, players: int) -> None:
    game, rng = load(game_id, players), random.Random(3)
    for state in play_out(game.new_initial_state(), rng):
        if not state.is_chance_node():
            continue
        children = [state.child(outcome) for outcome, _ in state.chance_outcomes()[:4]]
        for one, other in combinations(children, 2):
            seen = [views(one)[seat + 1] == views(other)[seat + 1] for seat in range(players)]
            if any(seen) and not all(seen):
                for seat in range(players):
                    same = one.information_state_string(seat) == other.information_state_string(seat)
                    assert same == seen[seat]
                return
    pytest.fail("no chance outcome that only some seats see")


@pytest.mark.parametrize(("game_id", "players"), GAMES)
def test_a_clone_is_independent_of_its_original(game_id: str, players: int) -> None:
    game = load(game_id, players)
    rng = random.Random(1)
    for state in positions(game, seed=3):
        before = strings(state)  # also fills the original's string cache
        clone = state.clone()
        assert clone.st_game is state.st_game
        assert strings(clone) == before
        clone.apply_action(random_action(clone, rng))
        assert strings(state) == before
        assert strings(state) == strings(replay(game, state.history()))
        assert strings(clone) == strings(replay(game, clone.history()))
        assert clone.history()[:-1] == state.history()
        assert strings(clone) != before


def pickled(value: Any) -> Any:
    return pickle.loads(pickle.dumps(value))


def through_openspiel(state: Any) -> Any:
    """``state`` serialised and deserialised with its game by OpenSpiel."""
    return pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(state.get_game(), state))[1]


STATE_COPIES = {"pickle": pickled, "deepcopy": copy.deepcopy, "openspiel": through_openspiel}


def everything(state: Any) -> tuple[Any, ...]:
    """:func:`strings`, and the engine state's JSON form."""
    return (*strings(state), state.st_game.state_to_json(state.st_state))


def whole_game(game: Any, seed: int, middle: int = 257) -> list[Any]:
    """Three states of one seeded random game: the first, the one after ``middle`` steps, the last."""
    rng, state = random.Random(seed), game.new_initial_state()
    found = [state.clone()]
    for step in play_out(state, rng):
        if len(step.history()) == middle:
            found.append(step.clone())
    assert len(found) == 2, "the game ended before its middle"
    return [*found, state]


@pytest.mark.parametrize("how", STATE_COPIES)
@pytest.mark.parametrize(("game_id", "players"), [("shadow-planet", 4), ("shadowlord", 2)])
def test_a_state_round_trips_to_the_end_of_a_game(game_id: str, players: int, how: str) -> None:
    game = load(game_id, players)
    for k, state in enumerate(whole_game(game, seed=players)):
        before = everything(state)
        again = STATE_COPIES[how](state)
        assert type(again) is type(state)
        assert everything(again) == before
        rng_one, rng_other = random.Random(k), random.Random(k)
        for _ in range(20):
            if state.is_terminal():
                break
            state.apply_action(random_action(state, rng_one))
            again.apply_action(random_action(again, rng_other))
        assert everything(again) == everything(state)
    assert len(state.history()) >= 300, "the game was too short to check a long history"


@pytest.mark.parametrize("how", [pickled, copy.deepcopy], ids=["pickle", "deepcopy"])
@pytest.mark.parametrize(("game_id", "players"), STANDARD)
def test_a_game_round_trips(game_id: str, players: int, how: Any) -> None:
    game = load(game_id, players)
    again = how(game)
    assert isinstance(again, pyspiel.Game)
    assert str(again) == str(game) and again.num_players() == players
    assert again.max_game_length() == game.max_game_length()
    assert strings(again.new_initial_state()) == strings(game.new_initial_state())


@pytest.mark.parametrize("how", STATE_COPIES)
def test_a_resampled_state_round_trips(how: str) -> None:
    game = load("shadow-planet", 4)
    state = whole_game(game, seed=8, middle=120)[1]
    for k in range(2):  # resampled twice for seat 0: a lineage of three segments
        state = state.resample_from_infostate(0, pyspiel.UniformProbabilitySampler(k, 0.0, 1.0))
        state.apply_action(random_action(state, random.Random(k)))
    again = STATE_COPIES[how](state)
    assert everything(again) == everything(state)
    assert len(read_information_state(again.information_state_string(0))) == 1 + 120 + 2  # all seat 0 saw


def test_a_pickled_state_loads_in_a_new_process() -> None:
    """As multiprocessing and Ray load it: a process that has registered no game yet."""
    game = load("shadow-planet", 4)
    state = whole_game(game, seed=4)[-1]
    script = "import pickle, sys; state = pickle.load(sys.stdin.buffer); print(repr(state.history()), str(state))"
    source = str(Path(shadowtable.__file__).parents[1])
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [source, os.environ.get("PYTHONPATH")]))}
    done = subprocess.run(
        [sys.executable, "-c", script], input=pickle.dumps(state), capture_output=True, env=env, check=False
    )
    assert done.returncode == 0, done.stderr.decode()
    assert done.stdout.decode() == f"{state.history()!r} {state}\n"


@pytest.mark.parametrize(("game_id", "players"), GAMES)
def test_resampling_keeps_what_the_player_sees(game_id: str, players: int) -> None:
    game = load(game_id, players)
    hidden_differs = False
    for k, state in enumerate(positions(game, seed=5)):
        truth = views(state)
        for seat in range(players):
            sampled = state.resample_from_infostate(seat, pyspiel.UniformProbabilitySampler(k, 0.0, 1.0))
            assert views(sampled)[seat + 1] == truth[seat + 1]
            assert sampled.information_state_string(seat) == state.information_state_string(seat)
            for other in set(range(players)) - {seat}:
                alone = [(None, json.loads(sampled.observation_string(other)))]
                assert read_information_state(sampled.information_state_string(other)) == alone
            assert sampled.observation_string(seat) == state.observation_string(seat)
            assert sampled.current_player() == state.current_player()
            assert sampled.legal_actions() == state.legal_actions() or state.current_player() != seat
            hidden_differs = hidden_differs or views(sampled) != truth
    assert hidden_differs, "every resampled state equals the true one: nothing was resampled"


@pytest.mark.parametrize(("game_id", "players"), GAMES)
def test_resampling_depends_only_on_the_players_view_and_the_sampler(game_id: str, players: int) -> None:
    game = load(game_id, players)
    for k, state in enumerate(positions(game, seed=7, count=3)):
        for seat in range(players):
            one = state.resample_from_infostate(seat, pyspiel.UniformProbabilitySampler(k, 0.0, 1.0))
            same = state.resample_from_infostate(seat, pyspiel.UniformProbabilitySampler(k, 0.0, 1.0))
            assert views(one) == views(same)
            # another state the seat cannot tell from this one resamples the same way
            twin = state.resample_from_infostate(seat, pyspiel.UniformProbabilitySampler(100 + k, 0.0, 1.0))
            mine = state.resample_from_infostate(seat, random.Random(k).random)
            assert views(mine) == views(twin.resample_from_infostate(seat, random.Random(k).random))


def test_max_game_length_is_the_bound_worked_out_from_the_rules() -> None:
    for game_id, players in [("shadow-planet", 3), ("shadow-planet", 5), ("shadowlord", 2), ("shadowlord", 4)]:
        game = load(game_id, players)
        assert game.max_game_length() == max_game_length(game.st_game) < game.st_game.spec.max_game_length
    assert load("tiny-showdown", 2).max_game_length() == TinyGame.SPEC.max_game_length
    assert max_game_length(make("shadowlord", players=3, turn_cap=10)) == 11 * TURN_STEP_LIMIT + 1
    assert most_rounds(make("shadow-planet", players=4).ctx) == 12 + 32 + 121
    with pytest.raises(ValueError, match="built-in content"):
        max_game_length(make("shadow-planet", players=4, content=str(PLANET_CONTENT)))


LENGTH_CONFIGURATIONS = [("shadow-planet", 3), ("shadow-planet", 4), ("shadow-planet", 5)] + [
    ("shadowlord", players) for players in (2, 3, 4)
]


@pytest.mark.parametrize(
    ("game_id", "players", "games"),
    [(game_id, players, 10) for game_id, players in LENGTH_CONFIGURATIONS]
    + [pytest.param(game_id, players, 200, marks=pytest.mark.slow) for game_id, players in LENGTH_CONFIGURATIONS],
)
def test_random_games_stay_within_max_game_length(game_id: str, players: int, games: int) -> None:
    game = load(game_id, players)
    planet = game_id == "shadow-planet"
    rng = random.Random(players)
    for _ in range(games):
        state = game.new_initial_state()
        per_round = Counter(step.st_state.round if planet else 0 for step in play_out(state, rng))
        assert len(state.history()) <= game.max_game_length()
        if planet:  # the bound's parts: rounds, and steps per round
            ctx = game.st_game.ctx
            assert max(per_round) <= most_rounds(ctx)
            assert max(per_round.values()) <= most_round_steps(ctx) + sum(location_cards(ctx))


def play_with_ismcts(game: Any, simulations: int, rollout_length: int | None, seed: int) -> tuple[Any, int]:
    """A whole game, every seat played by one OpenSpiel ISMCTS bot; the end state and the number
    of decisions it searched (more than one legal action)."""
    rng = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng, max_length=rollout_length)
    bot = ismcts.ISMCTSBot(
        game, evaluator, uct_c=2.0, max_simulations=simulations, random_state=rng, allow_inconsistent_action_sets=True
    )
    state, searched = game.new_initial_state(), 0
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            searched += len(state.legal_actions()) > 1
            state.apply_action(int(bot.step(state)))
    return state, searched


@pytest.mark.parametrize(
    ("game_id", "players", "simulations", "rollout_length"),
    [
        ("shadow-planet", 4, 2, 10),
        ("shadowlord", 2, 2, 10),
        pytest.param("shadow-planet", 4, 8, None, marks=pytest.mark.slow),
        pytest.param("shadowlord", 2, 4, None, marks=pytest.mark.slow),
        pytest.param("shadowlord", 4, 4, 100, marks=pytest.mark.slow),
    ],
)
def test_openspiel_ismcts_plays_whole_games(
    game_id: str, players: int, simulations: int, rollout_length: int | None
) -> None:
    game = load(game_id, players)
    state, searched = play_with_ismcts(game, simulations, rollout_length, seed=0)
    assert searched > 0
    returns = state.returns()
    assert len(returns) == players
    assert all(game.min_utility() <= r <= game.max_utility() for r in returns)


@pytest.mark.parametrize("action", ["0", 0.0, True, False, None, np.bool_(True)], ids=repr)
def test_apply_action_and_child_refuse_what_is_not_an_integer(action: object) -> None:
    """OpenSpiel itself converts ``True`` to 1 and NumPy's bool too; the engine's contract refuses them."""
    state = load("shadowlord", 2).new_initial_state()
    assert state.legal_actions()[:2] == [0, 1]
    with pytest.raises(IllegalActionError, match="an action is an int"):
        state.apply_action(action)
    with pytest.raises(IllegalActionError, match="an action is an int"):
        state.child(action)
    assert state.history() == []


def test_apply_action_takes_a_numpy_integer_as_its_value() -> None:
    state = load("shadowlord", 2).new_initial_state()
    assert state.child(np.int64(0)).history() == [0]
    state.apply_action(np.int64(1))
    assert state.history() == [1]
