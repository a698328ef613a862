"""Guided policies: a learned bonus on the logit of a guide bot's choice (residual policy learning)."""

from __future__ import annotations

import math
import random
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
import torch

from learn.test_policy_bot import positions
from shadowtable.bots import make_bot
from shadowtable.bots.policy_bot import PolicyBot, guide_choice
from shadowtable.cli import main
from shadowtable.core import make
from shadowtable.learn.network import PolicyValueNet, load_policy_record, net_from_record, save_policy
from shadowtable.learn.portable import read_portable, write_portable
from shadowtable.learn.ppo import Batch, PPOSettings, make_batch, update
from shadowtable.learn.selfplay import BotPlayer, NetPlayer, Player, Trajectory, play_batch
from shadowtable.rl.encoding import encoder_for

GAME, PLAYERS = "shadowlord", 2


def guided_net(weight: float = 6.0, seed: int = 0) -> PolicyValueNet:
    game = make(GAME, players=PLAYERS)
    torch.manual_seed(seed)
    return PolicyValueNet(
        math.prod(encoder_for(game).shape),
        game.spec.num_distinct_actions,
        (64,),
        guide="heuristic",
        guide_weight=weight,
    )


def test_a_new_guided_network_ranks_its_guides_choice_first() -> None:
    game, net, guide = make(GAME, players=PLAYERS), guided_net(), make_bot("heuristic")
    checked = 0
    for state, seat in positions(GAME, PLAYERS, seed=5, count=8):
        observation, legal = game.observe(state, seat), game.legal_actions(state)
        wanted = guide_choice(guide, game, seat, observation, legal)
        obs = torch.from_numpy(encoder_for(game).encode(observation).reshape(1, -1))
        mask = torch.zeros((1, game.spec.num_distinct_actions), dtype=torch.bool)
        mask[0, legal] = True
        logits, _ = net(obs, mask, torch.tensor([wanted]))
        assert int(logits.argmax()) == wanted
        checked += 1
    assert checked == 8


def test_a_guided_network_refuses_to_run_without_its_guides_choices() -> None:
    net = guided_net()
    with pytest.raises(ValueError, match="guide action"):
        net(torch.zeros((1, net.obs_size)), torch.ones((1, net.num_actions), dtype=torch.bool))


def test_collected_decisions_carry_the_guides_choice_and_the_update_learns_its_weight() -> None:
    game, net = make(GAME, players=PLAYERS), guided_net(weight=2.0)
    lineups: list[list[Player]] = [[NetPlayer(net, learning=True), BotPlayer(make_bot("heuristic"))] for _ in range(2)]
    finished = play_batch(game, lineups, random.Random(4), max_steps=400)
    trajectories = [t for f in finished for t in f.trajectories]
    assert trajectories and all(len(t.guides) == len(t.actions) for t in trajectories)
    agreed = sum(a == g for t in trajectories for a, g in zip(t.actions, t.guides, strict=True))
    assert agreed > 0
    for t in trajectories:  # a planted reward: following the guide pays
        t.rewards = [1.0 if a == g else -1.0 for a, g in zip(t.actions, t.guides, strict=True)]
    before = float(net.guide.detach())
    optimizer = torch.optim.Adam(net.parameters(), lr=1e-2)
    update(net, optimizer, make_batch(trajectories, PPOSettings(epochs=2)), PPOSettings(epochs=2), torch.Generator())
    assert float(net.guide.detach()) > before


def test_a_saved_guided_policy_plays_the_same_in_pytorch_and_in_numpy(tmp_path: Path) -> None:
    net = guided_net(weight=3.5)
    torch.nn.init.normal_(net.policy.weight, std=0.5)
    save_policy(net, tmp_path / "policy.pt", GAME, PLAYERS, {})
    record = load_policy_record(tmp_path / "policy.pt")
    assert record["guide"] == "heuristic"
    weights = {name: tensor.float().numpy() for name, tensor in record["state_dict"].items()}
    write_portable({**record, "state_dict": weights}, tmp_path / "policy.npz")
    portable = read_portable(tmp_path / "policy.npz")
    assert portable.guide == "heuristic" and portable.guide_weight == pytest.approx(3.5)
    game = make(GAME, players=PLAYERS)
    torch_bot, numpy_bot = PolicyBot(path=str(tmp_path / "policy.pt")), PolicyBot(path=str(tmp_path / "policy.npz"))
    for state, seat in positions(GAME, PLAYERS, seed=6, count=5):
        observation, legal = game.observe(state, seat), game.legal_actions(state)
        from_torch = torch_bot.probabilities(game, observation, legal, seat)
        from_numpy = numpy_bot.probabilities(game, observation, legal, seat)
        assert np.allclose(from_torch, from_numpy, atol=2e-3)  # 16-bit weights in the NumPy file
        guide = guide_choice(make_bot("heuristic"), game, seat, observation, legal)
        unguided = replace(portable, guide_weight=0.0).probabilities(
            encoder_for(game).encode(observation), legal, guide_action=guide
        )
        if len(legal) > 1:  # the bonus raises the guide's choice by exactly its factor before normalising
            ratio = (from_numpy[legal.index(guide)] / (1 - from_numpy[legal.index(guide)])) / (
                unguided[legal.index(guide)] / (1 - unguided[legal.index(guide)])
            )
            assert ratio == pytest.approx(math.exp(3.5), rel=1e-3)


def test_guide_and_imitate_together_are_one_error_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "run"
    assert (
        main(["train", GAME, "--players", "2", "--out", str(out), "--guide", "heuristic", "--imitate", "heuristic"])
        == 2
    )
    assert capsys.readouterr().err.startswith("error: a guided network starts from its guide's play")
    assert not out.exists()


def test_an_unknown_guide_is_one_error_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["train", GAME, "--players", "2", "--out", str(tmp_path / "run"), "--guide", "nosuchbot"]) == 2
    assert "unknown bot" in capsys.readouterr().err


def planted_batch(net: PolicyValueNet, seed: int = 4) -> list[Trajectory]:
    """Trajectories of ``net`` against the heuristic, every reward 0 (no advantage to follow)."""
    game = make(GAME, players=PLAYERS)
    lineups: list[list[Player]] = [[NetPlayer(net, learning=True), BotPlayer(make_bot("heuristic"))] for _ in range(2)]
    trajectories = [t for f in play_batch(game, lineups, random.Random(seed), max_steps=300) for t in f.trajectories]
    for t in trajectories:
        t.rewards = [0.0] * len(t.actions)
        t.values = [0.0] * len(t.actions)
    return trajectories


def guide_log_prob(net: PolicyValueNet, batch: Batch) -> float:
    with torch.no_grad():
        logits, _ = net(batch.observations, batch.masks, batch.guides)
    return float(torch.log_softmax(logits, dim=-1).gather(1, batch.guides[:, None]).mean())


@pytest.mark.parametrize("penalty", [0.0, 1.0])
def test_the_divergence_penalty_pulls_the_policy_towards_its_guide(penalty: float) -> None:
    net = guided_net(weight=0.5)
    trajectories = planted_batch(net)
    settings = PPOSettings(epochs=3, entropy_coef=0.0, value_coef=0.0, guide_kl=penalty)
    batch = make_batch(trajectories, settings)
    before = guide_log_prob(net, batch)
    update(net, torch.optim.Adam(net.parameters(), lr=1e-2), batch, settings, torch.Generator().manual_seed(0))
    after = guide_log_prob(net, batch)
    if penalty:
        assert after > before + 0.1
    else:  # no advantage, no entropy bonus, no value loss: only the penalty could have moved it
        assert after == pytest.approx(before, abs=1e-3)


def test_a_separate_value_trunk_leaves_the_policy_to_the_policy_loss(tmp_path: Path) -> None:
    game = make(GAME, players=PLAYERS)
    torch.manual_seed(0)
    size, actions = math.prod(encoder_for(game).shape), game.spec.num_distinct_actions
    net = PolicyValueNet(size, actions, (32,), guide="heuristic", guide_weight=2.0, separate_value=True)
    shared = PolicyValueNet(size, actions, (32,), guide="heuristic", guide_weight=2.0)
    trajectories = planted_batch(net)
    for t in trajectories:  # a value target far from 0, and no advantage for the policy
        t.rewards = [0.0] * (len(t.actions) - 1) + [5.0]
    settings = PPOSettings(epochs=2, entropy_coef=0.0)
    moved = {}
    for name, each in (("separate", net), ("shared", shared)):
        batch = make_batch(trajectories, settings)
        batch.advantages.zero_()
        trunk = [p.detach().clone() for p in each.trunk.parameters()]
        update(each, torch.optim.Adam(each.parameters(), lr=1e-2), batch, settings, torch.Generator().manual_seed(0))
        after = [p.detach() for p in each.trunk.parameters()]
        moved[name] = max(float((p - q).abs().max()) for p, q in zip(after, trunk, strict=True))
    assert moved["separate"] == 0.0 and moved["shared"] > 1e-3
    save_policy(net, tmp_path / "policy.pt", GAME, PLAYERS, {})
    record = load_policy_record(tmp_path / "policy.pt")
    assert record["separate_value"] is True
    again = net_from_record(record)
    batch = make_batch(trajectories, settings)
    obs, mask, guides = batch.observations[:4], batch.masks[:4], batch.guides[:4]
    with torch.no_grad():
        assert torch.allclose(again(obs, mask, guides)[1], net(obs, mask, guides)[1])


def test_a_divergence_penalty_without_a_guide_is_one_error_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "run"
    assert main(["train", GAME, "--players", "2", "--out", str(out), "--guide-kl", "0.5"]) == 2
    assert capsys.readouterr().err.startswith("error: --guide-kl keeps a policy near its guide")
    assert not out.exists()
