"""The REINFORCE example learns on the tiny game and never plays an illegal action."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("gymnasium")

from shadowtable.rl.gymnasium_env import ShadowTableEnv  # noqa: E402
from shadowtable.rl.reinforce import (  # noqa: E402
    LinearSoftmaxPolicy,
    evaluate,
    reinforce_update,
    run_episode,
    train,
)

EVAL_EPISODES = 400


def _env() -> ShadowTableEnv:
    return ShadowTableEnv("tiny-showdown", players=2, seat=0, opponents="random")


def _policy(env: ShadowTableEnv) -> LinearSoftmaxPolicy:
    return LinearSoftmaxPolicy(int(np.prod(env.observation_space.shape)), int(env.action_space.n))


def _trained(lr: float) -> LinearSoftmaxPolicy:
    env = _env()
    policy = _policy(env)
    train(env, policy, episodes=300, lr=lr, rng=np.random.default_rng(7))
    return policy


def test_training_beats_the_untrained_policy_and_a_flipped_update_does_not() -> None:
    # Raising never hurts in tiny-showdown: always raising wins 0.70 against a random opponent,
    # the uniform policy 0.525 and never raising 0. The evaluation half-width is about 0.05.
    env = _env()
    untrained = evaluate(env, _policy(env), EVAL_EPISODES, seed=123)
    trained = evaluate(env, _trained(lr=0.1), EVAL_EPISODES, seed=123)
    flipped = evaluate(env, _trained(lr=-0.1), EVAL_EPISODES, seed=123)
    assert 0.45 < untrained.mean_return < 0.60
    assert trained.mean_return > untrained.mean_return + 0.1
    assert flipped.mean_return < untrained.mean_return - 0.1
    assert trained.illegal_actions == untrained.illegal_actions == flipped.illegal_actions == 0


def test_the_untrained_policy_is_uniform_over_legal_actions() -> None:
    env = _env()
    policy = _policy(env)
    observation, info = env.reset(seed=0)
    probs = policy.probabilities(observation, np.flatnonzero(info["action_mask"]))
    assert np.allclose(probs, 0.5)


def test_the_policy_never_picks_an_illegal_action() -> None:
    env = ShadowTableEnv("tiny-showdown", players=2)
    policy = _policy(env)
    # Strongly favour every action, so that a missing mask would show at once.
    policy.bias[:] = 50.0
    rng = np.random.default_rng(1)
    for seed in range(30):
        episode = run_episode(env, policy, rng, seed=seed)
        assert episode.illegal_actions == 0
        assert all(action in legal for action, legal in zip(episode.actions, episode.legal, strict=True))
    # A mask with a single legal action leaves no choice, whatever the weights favour.
    mask = np.zeros(int(env.action_space.n), dtype=np.int8)
    mask[1] = 1
    policy.bias[0] = 1e6
    observation, _ = env.reset(seed=0)
    assert {policy.act(observation, mask, rng) for _ in range(20)} == {1}


def test_updates_touch_only_the_legal_columns_and_nonzero_rows() -> None:
    env = ShadowTableEnv("tiny-showdown", players=2)
    policy = LinearSoftmaxPolicy(int(np.prod(env.observation_space.shape)), 5)  # extra, never-legal columns
    episode = run_episode(env, policy, np.random.default_rng(2), seed=2)
    episode.episode_return = 1.0
    reinforce_update(policy, episode, baseline=0.0, lr=0.5)
    assert policy.weights.dtype == np.float32
    assert not policy.weights[:, 2:].any() and not policy.bias[2:].any()
    touched = np.flatnonzero(policy.weights.any(axis=1))
    seen = np.flatnonzero(np.any(np.stack(episode.observations) != 0, axis=0))
    assert set(touched) <= set(seen) and touched.size > 0


def test_the_example_script_runs() -> None:
    path = Path(__file__).resolve().parents[2] / "examples" / "train_reinforce.py"
    spec = importlib.util.spec_from_file_location("train_reinforce", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.main(["--game", "tiny-showdown", "--players", "2", "--episodes", "20", "--eval-episodes", "20"])
