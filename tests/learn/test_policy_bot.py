"""The ``policy`` bot: a saved policy plays from the seat's observation alone."""

from __future__ import annotations

import math
import random
from pathlib import Path
from typing import Any

import pytest
import torch

from bots.spy_game import SpiedBot
from shadowtable.bots import make_bot
from shadowtable.bots.policy_bot import PolicyBot
from shadowtable.core import CHANCE, BotError, make, play_game
from shadowtable.learn.network import PolicyValueNet, save_policy
from shadowtable.rl.encoding import encoder_for
from shadowtable.testing import choice_points


def untrained_policy(path: Path, game_id: str, players: int, seed: int = 0, guide: str = "") -> Path:
    game = make(game_id, players=players)
    torch.manual_seed(seed)
    net = PolicyValueNet(
        math.prod(encoder_for(game).shape), game.spec.num_distinct_actions, (64,), guide=guide, guide_weight=2.0
    )
    torch.nn.init.normal_(net.policy.weight, std=1.0)  # far from uniform, so choices depend on the input
    save_policy(net, path, game_id, players, {})
    return path


def positions(game_id: str, players: int, seed: int, count: int) -> list[tuple[object, int]]:
    """States where a seat has several legal actions, from a random playout."""
    return choice_points(make(game_id, players=players), random.Random(seed), count)


@pytest.mark.parametrize("guide", ["", "heuristic"])
@pytest.mark.parametrize(("game_id", "players"), [("shadow-planet", 4), ("shadowlord", 2)])
def test_the_same_choices_on_every_state_the_seat_cannot_tell_apart(
    tmp_path: Path, game_id: str, players: int, guide: str
) -> None:
    bot = PolicyBot(path=str(untrained_policy(tmp_path / "p.pt", game_id, players, guide=guide)))
    game = make(game_id, players=players)
    choices = set()
    for state, seat in positions(game_id, players, seed=3, count=6):
        observation = game.observe(state, seat)
        legal = game.legal_actions(state)
        expected = bot.probabilities(game, observation, legal)
        choice = bot.choose(game, seat, observation, legal, random.Random(11))
        choices.add(choice)
        for sample in range(4):
            resampled = game.determinize(observation, random.Random(sample))
            seen = game.observe(resampled, seat)
            assert seen == observation
            assert bot.probabilities(game, seen, game.legal_actions(resampled)) == expected
            assert bot.choose(game, seat, seen, game.legal_actions(resampled), random.Random(11)) == choice
    assert len(choices) > 1


def test_the_bot_touches_no_state_but_its_observation(tmp_path: Path) -> None:
    path = untrained_policy(tmp_path / "tiny.pt", "tiny-showdown", 2)
    game = make("tiny-showdown", players=2)
    spied = [SpiedBot(make_bot(f"policy:path={path}")), SpiedBot(make_bot(f"policy:path={path}:greedy=1"))]
    for seed in range(10):
        assert play_game(game, spied, seed).returns is not None
    assert all(bot.decisions > 0 for bot in spied)


def test_the_same_seed_gives_the_same_game(tmp_path: Path) -> None:
    path = untrained_policy(tmp_path / "sp.pt", "shadow-planet", 3)
    game = make("shadow-planet", players=3)
    first = play_game(game, [make_bot(f"policy:path={path}"), make_bot("heuristic"), make_bot("random")], 5)
    again = play_game(game, [make_bot(f"policy:path={path}"), make_bot("heuristic"), make_bot("random")], 5)
    assert first.actions == again.actions


def test_bad_policies_are_refused_with_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(BotError, match="no policy file"):
        make_bot(f"policy:path={tmp_path / 'missing.pt'}")
    (tmp_path / "junk.pt").write_text("not a policy", encoding="utf-8")
    with pytest.raises(BotError, match="not a policy file"):
        make_bot(f"policy:path={tmp_path / 'junk.pt'}")
    bot = make_bot(f"policy:path={untrained_policy(tmp_path / 'sl.pt', 'shadowlord', 2)}")
    game = make("shadow-planet", players=4)
    state = game.initial_state()
    while game.current_player(state) == CHANCE:
        state = game.apply(state, game.chance_outcomes(state)[0][0])
    seat = game.current_player(state)
    with pytest.raises(BotError, match="trained for shadowlord with 2 players"):
        bot.choose(game, seat, game.observe(state, seat), game.legal_actions(state), random.Random(0))


def test_the_bot_decides_on_one_thread(tmp_path: Path) -> None:
    path = untrained_policy(tmp_path / "tiny.pt", "tiny-showdown", 2)
    threads = torch.get_num_threads()
    try:
        torch.set_num_threads(2)  # PyTorch's default on a two-core machine: 20 times slower here
        game = make("tiny-showdown", players=2)
        play_game(game, [make_bot(f"policy:path={path}"), make_bot("random")], 1)
        assert torch.get_num_threads() == 1
    finally:
        torch.set_num_threads(threads)


def test_a_policy_shipped_in_16_bits_chooses_as_the_trained_one(tmp_path: Path) -> None:
    from shadowtable.learn.network import half_precision, load_policy_record

    path = untrained_policy(tmp_path / "sp.pt", "shadow-planet", 4)
    torch.save(half_precision(load_policy_record(path)), tmp_path / "half.pt")
    assert (tmp_path / "half.pt").stat().st_size < 0.6 * path.stat().st_size
    game = make("shadow-planet", players=4)
    full, half = make_bot(f"policy:path={path}"), make_bot(f"policy:path={tmp_path / 'half.pt'}")
    for state, seat in positions("shadow-planet", 4, seed=3, count=10):
        observation, legal = game.observe(state, seat), game.legal_actions(state)
        assert full.probabilities(game, observation, legal) == pytest.approx(
            half.probabilities(game, observation, legal), abs=0.02
        )


SHIPPED = [
    ("shadow-planet", 3),
    ("shadow-planet", 4),
    ("shadow-planet", 5),
    ("shadowlord", 2),
    ("shadowlord", 3),
    ("shadowlord", 4),
]
"""Configurations a policy ships for (docs/bots.md); the modified two-player game is tested below."""


@pytest.mark.parametrize(("game_id", "players"), SHIPPED)
def test_the_shipped_policy_plays_when_no_path_is_given(game_id: str, players: int) -> None:
    import numpy as np

    from shadowtable.bots.policy_bot import shipped_policy
    from shadowtable.learn.portable import read_portable

    path = shipped_policy(game_id, players)
    assert path is not None, f"the package ships a policy for {game_id} with {players} players"
    policy = read_portable(path)
    assert (policy.game, policy.players) == (game_id, players)
    with np.load(path, allow_pickle=False) as data:
        assert all(data[name].dtype == np.float16 for name in data.files if name != "meta")
    game = make(game_id, players=players)
    lineup = [make_bot("policy"), *(make_bot("heuristic") for _ in range(players - 1))]
    assert play_game(game, lineup, 0).returns is not None


def test_the_policy_bot_refuses_a_configuration_where_none_ships(hide_shipped_policy: Any) -> None:
    hide_shipped_policy("shadowlord", 3)
    bot = make_bot("policy")
    sl = make("shadowlord", players=3)
    state, seat = positions("shadowlord", 3, seed=1, count=1)[0]
    with pytest.raises(BotError, match="no policy ships for shadowlord with 3 players"):
        bot.choose(sl, seat, sl.observe(state, seat), sl.legal_actions(state), random.Random(0))


def test_a_portable_policy_chooses_as_the_pytorch_one(tmp_path: Path) -> None:
    from shadowtable.learn.network import load_policy_record
    from shadowtable.learn.portable import write_portable

    path = untrained_policy(tmp_path / "sp.pt", "shadow-planet", 4)
    record = load_policy_record(path)
    write_portable(
        {**record, "state_dict": {k: v.half().float().numpy() for k, v in record["state_dict"].items()}},
        tmp_path / "sp.npz",
    )
    torch.save(half_precision_record(record), tmp_path / "half.pt")
    game = make("shadow-planet", players=4)
    torch_bot, numpy_bot = (
        make_bot(f"policy:path={tmp_path / 'half.pt'}"),
        make_bot(f"policy:path={tmp_path / 'sp.npz'}"),
    )
    for state, seat in positions("shadow-planet", 4, seed=5, count=10):
        observation, legal = game.observe(state, seat), game.legal_actions(state)
        assert numpy_bot.probabilities(game, observation, legal) == pytest.approx(
            torch_bot.probabilities(game, observation, legal), abs=1e-4
        )


def half_precision_record(record: dict[str, object]) -> dict[str, object]:
    from shadowtable.learn.network import half_precision

    return half_precision(record)


def test_the_shipped_policy_plays_without_pytorch() -> None:
    import subprocess
    import sys

    script = (
        "import sys; sys.modules['torch'] = None\n"
        "from shadowtable.bots import make_bot\n"
        "from shadowtable.core import make, play_game\n"
        "from shadowtable.server.bot_levels import why_not\n"
        "assert why_not('policy', 'shadow-planet', 4) is None\n"
        "game = make('shadow-planet', players=4)\n"
        "result = play_game(game, [make_bot('policy'), *(make_bot('heuristic') for _ in range(3))], 2)\n"
        "assert 'torch' not in sys.modules or sys.modules['torch'] is None\n"
        "print('played', len(result.actions))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.startswith("played ")


def test_a_pytorch_policy_without_pytorch_says_what_to_install(tmp_path: Path) -> None:
    import subprocess
    import sys

    path = untrained_policy(tmp_path / "tiny.pt", "tiny-showdown", 2)
    script = (
        "import sys; sys.modules['torch'] = None\n"
        "from shadowtable.bots import make_bot\n"
        "from shadowtable.core import BotError\n"
        f"try:\n    make_bot('policy:path={path}')\n"
        "except BotError as exc:\n    print(exc)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert "[train]" in done.stdout, done.stdout + done.stderr[-2000:]


def test_a_policy_plays_only_the_variant_it_was_trained_for(tmp_path: Path) -> None:
    from shadowtable.bots.policy_bot import shipped_policy
    from shadowtable.learn.network import load_policy_record
    from shadowtable.learn.portable import read_portable, write_portable

    path = untrained_policy(tmp_path / "sl.pt", "shadowlord", 2)
    record = {**load_policy_record(path), "options": {"modified": True}}
    torch.save(record, tmp_path / "modified.pt")
    state_dict = {k: v.float().numpy() for k, v in record["state_dict"].items()}
    write_portable({**record, "state_dict": state_dict}, tmp_path / "modified.npz")
    assert read_portable(tmp_path / "modified.npz").options == {"modified": True}
    standard, modified = make("shadowlord", players=2), make("shadowlord", players=2, modified=True)
    for file in ("modified.pt", "modified.npz"):
        bot = make_bot(f"policy:path={tmp_path / file}")
        bot.check_game(modified)
        with pytest.raises(
            BotError, match=r"trained for shadowlord with 2 players \(modified\), not shadowlord with 2"
        ):
            bot.check_game(standard)
    shipped_bot = make_bot("policy")  # without a path: the policy shipped for the table's own configuration
    shipped_bot.check_game(modified)
    assert shipped_bot.path is not None and shipped_bot.path.name == "shadowlord-2p-modified.npz"
    with pytest.raises(BotError, match=r"for shadowlord with 2 players \(modified\), not shadowlord with 2 players"):
        shipped_bot.check_game(standard)
    assert make_bot("policy").check_game(standard) is None
    assert shipped_policy("shadow-planet", 4, {}) == shipped_policy("shadow-planet", 4)
    assert (
        shipped_policy("shadow-planet", 4) is not None
        and shipped_policy("shadow-planet", 4).name == "shadow-planet-4p.npz"
    )
