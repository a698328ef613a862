"""The first layer read by the observations' nonzero entries: the same rows, the same outputs as
the dense product, and the same self-play games."""

from __future__ import annotations

import random

import numpy as np
import pytest
import torch

from shadowtable.core import make
from shadowtable.learn.network import ColumnReader, PolicyValueNet, SparseBatch, SparseRows
from shadowtable.learn.selfplay import NetPlayer, play_batch
from shadowtable.rl.encoding import encoder_for


def sparse_rows(rows: int, width: int, seed: int) -> np.ndarray:
    generator = np.random.default_rng(seed)
    dense = np.where(generator.random((rows, width)) < 0.05, generator.random((rows, width)), 0.0).astype(np.float32)
    dense[2] = 0.0  # a row with no nonzero entry at all
    dense[3, -1] = 1.0  # the last column
    return dense


def test_sparse_rows_hold_exactly_the_nonzero_entries_row_after_row() -> None:
    dense = sparse_rows(9, 50, seed=1)
    rows = SparseRows.of(dense)
    rebuilt = np.zeros_like(dense)
    offsets = [*rows.offsets.tolist(), len(rows.columns)]
    for row in range(len(dense)):
        start, end = offsets[row], offsets[row + 1]
        rebuilt[row, rows.columns[start:end].numpy()] = rows.values[start:end].numpy()
    assert np.array_equal(rebuilt, dense)
    assert len(rows.columns) == np.count_nonzero(dense) and offsets[2] == offsets[3]
    assert rows.columns.dtype == torch.int64 and rows.values.dtype == torch.float32


@pytest.mark.parametrize("separate_value", [False, True])
def test_a_sparse_batch_gives_the_dense_logits_and_values(separate_value: bool) -> None:
    torch.manual_seed(0)
    net = PolicyValueNet(50, 12, (16, 8), guide="heuristic", guide_weight=0.5, separate_value=separate_value)
    dense = sparse_rows(9, 50, seed=2)
    mask = torch.from_numpy(np.random.default_rng(3).random((9, 12)) < 0.6)
    mask[:, 0] = True
    guides = torch.arange(9) % 12
    with torch.inference_mode():
        want_logits, want_values = net(torch.from_numpy(dense), mask, guides)
        logits, values = net(SparseBatch(SparseRows.of(dense), ColumnReader(net)), mask, guides)
    assert torch.allclose(logits, want_logits, atol=1e-6) and torch.allclose(values, want_values, atol=1e-6)
    assert not torch.equal(values[0], values[1])  # rows differ: the comparison can fail


def test_a_reader_serves_its_own_network_only_and_needs_a_hidden_layer() -> None:
    torch.manual_seed(0)
    net, other = PolicyValueNet(50, 12, (16,)), PolicyValueNet(50, 12, (16,))
    batch = SparseBatch(SparseRows.of(sparse_rows(4, 50, seed=4)), ColumnReader(other))
    with pytest.raises(ValueError, match="reader of the network"):
        net(batch, torch.ones((4, 12), dtype=torch.bool))
    with pytest.raises(ValueError, match="hidden layers"):
        ColumnReader(PolicyValueNet(50, 12, ()))


@pytest.mark.parametrize(("game_id", "players"), [("shadow-planet", 4), ("shadowlord", 2)])
def test_self_play_with_the_sparse_first_layer_plays_the_dense_games(
    game_id: str, players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    read = []
    first = ColumnReader.first
    monkeypatch.setattr(ColumnReader, "first", lambda self, rows, trunk: read.append(trunk) or first(self, rows, trunk))
    game = make(game_id, players=players, **({"turn_cap": 6} if game_id == "shadowlord" else {}))
    torch.manual_seed(0)
    learner = NetPlayer(PolicyValueNet(encoder_for(game).shape[0], game.spec.num_distinct_actions, (32,)), True)
    lineups = [[learner] * players] * 4
    sparse = play_batch(game, lineups, random.Random(5), sparse=True)
    passes = len(read)
    dense = play_batch(game, lineups, random.Random(5), sparse=False)
    assert passes > 10 and len(read) == passes  # sparse: every pass read by columns; dense: none
    assert sum(len(t.actions) for f in sparse for t in f.trajectories) > 50
    for s, d in zip(sparse, dense, strict=True):
        assert s.returns == d.returns and s.length == d.length
        for ts, td in zip(s.trajectories, d.trajectories, strict=True):
            assert ts.actions == td.actions
            assert [o.tobytes() for o in ts.observations] == [o.tobytes() for o in td.observations]
            assert ts.log_probs == pytest.approx(td.log_probs, abs=1e-5)
            assert ts.values == pytest.approx(td.values, abs=1e-5)
