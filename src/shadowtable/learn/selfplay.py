"""Playing batches of games in lockstep: every seat's decision that a network makes is batched.

Each game of a batch gives every seat a *player*: the learner (whose decisions are recorded for
training), a frozen network (a past self) or a bot. The games advance together: chance nodes and
bots are played at once; the pending decisions of networks are encoded from each seat's own
observation and decided in one forward pass per network. A seat is only ever shown its own
observation, as in any other game.

Each game draws from its own generators (its chance and bots, and its networks' samples), seeded
from ``rng`` when the batch starts, so a game plays the same whether it is played alone or in a
batch of any size: only how many forward passes its decisions share changes.

A network's first layer reads the observations by their nonzero entries (``sparse``, the
default; see :class:`~shadowtable.learn.network.SparseBatch`): the same sums as the dense
product in another order, so a game plays the same alone or batched either way.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import chain
from typing import Any

import numpy as np
import torch

from shadowtable.bots.policy_bot import guide_choice
from shadowtable.bots.registry import make_bot
from shadowtable.core.game import CHANCE, TERMINAL, Game
from shadowtable.core.rng import sample_outcome
from shadowtable.learn.network import ColumnReader, PolicyValueNet, SparseBatch, SparseRows
from shadowtable.rl.encoding import encode_into, encoder_for, encoder_input

Potential = Callable[[Game[Any], Any, int], float]
"""``potential(game, state, seat)``: a shaping potential of ``seat`` (0 for no shaping)."""


@dataclass
class NetPlayer:
    """Seats played by ``net``; ``learning``: its decisions are recorded; ``greedy``: it plays the
    most probable action instead of sampling."""

    net: PolicyValueNet
    learning: bool = False
    greedy: bool = False


@dataclass
class BotPlayer:
    """Seats played by a bot (``choose`` with the seat's observation and legal actions)."""

    bot: Any


Player = NetPlayer | BotPlayer


@dataclass
class Trajectory:
    """One learning seat's decisions in one game, and what it got for each."""

    seat: int
    observations: list[np.ndarray[Any, Any]] = field(default_factory=list)
    masks: list[np.ndarray[Any, Any]] = field(default_factory=list)
    actions: list[int] = field(default_factory=list)
    guides: list[int] = field(default_factory=list)
    """The guide's choice at each decision (a guided network's; 0 where there is no guide)."""
    log_probs: list[float] = field(default_factory=list)
    values: list[float] = field(default_factory=list)
    rewards: list[float] = field(default_factory=list)
    potential: float = 0.0
    """The shaping potential at the seat's last decision."""


@dataclass
class Finished:
    """A finished game: each seat's return, and the learning seats' trajectories."""

    returns: list[float]
    trajectories: list[Trajectory]
    players: list[Player]
    length: int


@dataclass
class _Table:
    game_rng: random.Random
    sample_rng: random.Random
    """Draws the networks' samples at this table."""
    state: Any
    players: list[Player]
    trajectories: dict[int, Trajectory]
    length: int = 0


def play_batch(
    game: Game[Any],
    lineups: Sequence[Sequence[Player]],
    rng: random.Random,
    *,
    shaping: float = 0.0,
    potential: Potential | None = None,
    device: torch.device | None = None,
    max_steps: int | None = None,
    sparse: bool = True,
) -> list[Finished]:
    """Play one game per lineup (one player per seat) to the end, in lockstep.

    ``rng`` seeds each game's two generators, in lineup order: one for its chance and bots, one for
    its networks' samples (so ``play_batch(game, [a, b], rng)`` plays as ``play_batch(game, [a],
    rng)`` then ``play_batch(game, [b], rng)``). With
    ``shaping`` and a ``potential``, a learning seat's reward for each decision is
    ``shaping * (potential after - potential before)`` (potential-based shaping: the sum over a
    game is the return plus a constant, so the best policy is unchanged) and its return at the end.
    With ``sparse`` (and hidden layers), each network's first layer reads the rows' nonzero
    entries only; without, it multiplies the dense rows.
    """
    encoder = encoder_for(game)
    limit = max_steps or game.spec.max_game_length
    tables = [_new_table(game, lineup, rng) for lineup in lineups]
    done: list[Finished | None] = [None] * len(tables)
    guide_bots: dict[str, Any] = {}
    readers = _column_readers(lineups) if sparse else {}
    while True:
        pending: dict[int, list[tuple[int, int, list[int]]]] = {}  # id(net) -> (table, seat, legal)
        nets: dict[int, NetPlayer] = {}
        for index, table in enumerate(tables):
            if done[index] is not None:
                continue
            choice = _advance(game, table, limit)
            if choice is None:
                done[index] = _finish(game, table, shaping, potential)
                continue
            seat, legal = choice
            player = table.players[seat]
            assert isinstance(player, NetPlayer)
            nets[id(player.net)] = player
            pending.setdefault(id(player.net), []).append((index, seat, legal))
        if not pending:
            break
        for key, decisions in pending.items():
            _decide(
                game,
                encoder,
                nets[key],
                [(tables[i], s, legal) for i, s, legal in decisions],
                device,
                shaping,
                potential,
                guide_bots,
                readers.get(key),
            )
    return [finished for finished in done if finished is not None]


def _new_table(game: Game[Any], lineup: Sequence[Player], rng: random.Random) -> _Table:
    """A game at its start, its two generators seeded from ``rng`` (chance and bots, then the
    networks' samples), a trajectory for each learning seat."""
    return _Table(
        random.Random(rng.getrandbits(64)),
        random.Random(rng.getrandbits(64)),
        game.initial_state(),
        list(lineup),
        {s: Trajectory(s) for s, p in enumerate(lineup) if isinstance(p, NetPlayer) and p.learning},
    )


def _column_readers(lineups: Sequence[Sequence[Player]]) -> dict[int, ColumnReader]:
    """A column reader for each network of the lineups that has hidden layers (by ``id``)."""
    nets = {id(p.net): p.net for lineup in lineups for p in lineup if isinstance(p, NetPlayer)}
    return {key: ColumnReader(net) for key, net in nets.items() if net.hidden}


def _advance(game: Game[Any], table: _Table, limit: int) -> tuple[int, list[int]] | None:
    """Play chance, bots and forced moves until a network seat has a choice to make (its seat and
    legal actions) or the game ends (None)."""
    while table.length < limit:
        player = game.current_player(table.state)
        if player == TERMINAL:
            return None
        if player == CHANCE:
            action = sample_outcome(game.chance_outcomes(table.state), table.game_rng)
        else:
            seat_player = table.players[player]
            legal = game.legal_actions(table.state)
            if isinstance(seat_player, NetPlayer):
                if len(legal) > 1:
                    return player, legal
                action = legal[0]  # nothing to choose, nothing to learn
            else:
                action = int(
                    seat_player.bot.choose(game, player, game.observe(table.state, player), legal, table.game_rng)
                )
        table.state = game.apply(table.state, action)
        table.length += 1
    return None


def _decide(
    game: Game[Any],
    encoder: Any,
    player: NetPlayer,
    decisions: list[tuple[_Table, int, list[int]]],
    device: torch.device | None,
    shaping: float,
    potential: Potential | None,
    guide_bots: dict[str, Any],
    reader: ColumnReader | None,
) -> None:
    """One forward pass for every pending decision of ``player``'s network, then each applied.

    What can be done for the whole batch at once is: the legal-action masks, the draws and the
    recorded rows (views of the batch's arrays, which no later round reuses)."""
    count = len(decisions)
    obs = np.zeros((count, int(np.prod(encoder.shape))), dtype=np.float32)
    masks = np.zeros((count, game.spec.num_distinct_actions), dtype=bool)
    guides = np.zeros(count, dtype=np.int64)
    spec = player.net.guide_spec
    if spec and spec not in guide_bots:
        guide_bots[spec] = make_bot(spec)
    for row, (table, seat, legal) in enumerate(decisions):
        encode_into(encoder, encoder_input(encoder, game, table.state, seat), obs[row].reshape(encoder.shape))
        if spec:
            guides[row] = guide_choice(guide_bots[spec], game, seat, game.observe(table.state, seat), legal)
    legal_lists = [legal for _, _, legal in decisions]
    _mark_legal(masks, legal_lists)
    with torch.inference_mode():
        inputs = SparseBatch(SparseRows.of(obs, device), reader) if reader else torch.from_numpy(obs).to(device)
        logits, values = player.net(
            inputs,
            torch.from_numpy(masks).to(device),
            torch.from_numpy(guides).to(device) if spec else None,
        )
        log_probs = torch.log_softmax(logits, dim=-1).cpu().numpy()
        value_list = values.cpu().numpy().tolist()
    actions = _choices(log_probs, legal_lists, [table.sample_rng for table, _, _ in decisions], player.greedy)
    chosen_log_probs = log_probs[np.arange(count), actions].tolist()
    guide_list = guides.tolist()
    for row, (table, seat, _legal) in enumerate(decisions):
        action = actions[row]
        trajectory = table.trajectories.get(seat)
        if trajectory is not None:
            if potential is not None and shaping:
                _shape(trajectory, potential(game, table.state, seat), shaping)
            trajectory.observations.append(obs[row])
            trajectory.masks.append(masks[row])
            trajectory.actions.append(action)
            trajectory.guides.append(guide_list[row])
            trajectory.log_probs.append(chosen_log_probs[row])
            trajectory.values.append(value_list[row])
            trajectory.rewards.append(0.0)
        table.state = game.apply(table.state, action)
        table.length += 1


def _flat_legal(legal: Sequence[Sequence[int]]) -> tuple[np.ndarray[Any, Any], ...]:
    """Each row's legal actions laid end to end: the rows' counts, and the row and the action of
    every entry."""
    counts = np.fromiter((len(actions) for actions in legal), dtype=np.intp, count=len(legal))
    rows = np.repeat(np.arange(len(legal)), counts)
    return counts, rows, np.fromiter(chain.from_iterable(legal), dtype=np.intp, count=int(counts.sum()))


def _mark_legal(masks: np.ndarray[Any, Any], legal: Sequence[list[int]]) -> None:
    """Set ``masks[row, action]`` for each row's legal actions, in one assignment."""
    _, rows, actions = _flat_legal(legal)
    masks[rows, actions] = True


def _shape(trajectory: Trajectory, now: float, shaping: float) -> None:
    """Credit the seat's last decision with ``shaping`` times the change of potential since it,
    and keep ``now`` as the potential at this decision."""
    if trajectory.actions:
        trajectory.rewards[-1] += shaping * (now - trajectory.potential)
    trajectory.potential = now


def _choices(
    log_probs: np.ndarray[Any, Any], legal: Sequence[Sequence[int]], rngs: Sequence[random.Random], greedy: bool
) -> list[int]:
    """Each row's action: the most probable (``greedy``), else drawn by inverse transform with one
    uniform number from that row's generator (a row's draw depends on its row alone): the first of
    the row's legal actions, in ascending order, whose cumulative probability is above the draw.
    Only the legal actions' probabilities are taken (the illegal ones' are 0 and add nothing to a
    sum, so the cumulative sums are bit for bit those over the whole row), in a table as wide as
    the most legal actions of a row rather than as all actions."""
    if greedy:
        return [int(a) for a in log_probs.argmax(axis=1)]
    counts, rows, actions = _flat_legal(legal)
    order = np.lexsort((actions, rows))  # each row's actions ascending, the rows in turn
    actions = actions[order]
    starts = np.cumsum(counts) - counts
    probabilities = np.zeros((len(legal), int(counts.max())), dtype=np.float64)
    probabilities[rows, np.arange(len(actions)) - starts[rows]] = np.exp(log_probs[rows, actions].astype(np.float64))
    cumulative = np.cumsum(probabilities, axis=1)  # a row's padding repeats its total
    draws = np.fromiter((rng.random() for rng in rngs), dtype=np.float64, count=len(rngs)) * cumulative[:, -1]
    below = np.minimum((cumulative <= draws[:, None]).sum(axis=1), counts - 1)
    picked: list[int] = actions[starts + below].tolist()
    return picked


def _finish(game: Game[Any], table: _Table, shaping: float, potential: Potential | None) -> Finished:
    """The game's returns (all zeros for a game cut off before its end) given to the learners."""
    returns = [float(r) for r in game.returns(table.state)]
    trajectories = [t for t in table.trajectories.values() if t.actions]
    for trajectory in trajectories:
        trajectory.rewards[-1] += returns[trajectory.seat] - (shaping * trajectory.potential if potential else 0.0)
    return Finished(returns, trajectories, table.players, table.length)
