"""The registered Python games under OpenSpiel: its random simulation test, cheap clones,
``resample_from_infostate`` and OpenSpiel's own Python ISMCTS playing whole games."""

from __future__ import annotations

import random
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")
ismcts = pytest.importorskip("open_spiel.python.algorithms.ismcts")
mcts = pytest.importorskip("open_spiel.python.algorithms.mcts")

from shadowtable.rl.openspiel_game import load  # noqa: E402

GAMES = [("tiny-showdown", 2), ("shadow-planet", 4), ("shadowlord", 2), ("shadowlord", 4)]


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


def views(state: Any) -> list[Any]:
    """The engine's observation of ``state`` by the spectator and by every seat."""
    game = state.st_game
    return [game.observe(state.st_state, seat) for seat in [None, *range(game.players)]]


@pytest.mark.parametrize(
    ("game_id", "players"),
    [("tiny-showdown", 2), ("tiny-showdown", 3), ("shadow-planet", 4), ("shadowlord", 2), ("shadowlord", 4)],
)
def test_openspiel_random_sim_test(game_id: str, players: int) -> None:
    game = load(game_id, players)
    assert game.num_players() == players
    pyspiel.random_sim_test(
        game, num_sims={"tiny-showdown": 20, "shadow-planet": 3}.get(game_id, 2), serialize=False, verbose=False
    )


def test_observation_tensor_matches_the_encoder() -> None:
    game = load("tiny-showdown", 2)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    observer = game.make_py_observer()
    observer.set_from(state, 0)
    assert observer.tensor.sum() > 0
    assert '"seat":0' in observer.string_from(state, 0)


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
