"""The policy and value network: an MLP over the encoded observation, masked to the legal actions.

Saved as a small dict (``torch.save``) that names the game it was trained for, so a policy is
never loaded against another game, player count or encoding size.

A *guided* network (``guide`` names a bot, for example ``heuristic``) adds a learned weight to the
logit of the action that bot would choose from the same observation (residual policy learning:
the network learns where to depart from the bot, starting from the bot's own play).

With ``separate_value`` the value has a trunk of its own, so the value loss never changes the
features the policy head reads (the policy's trunk is trained by the policy's loss alone).

For play, a batch of observations can be given by their nonzero entries (:class:`SparseBatch`):
an encoded observation is mostly zeros (about 130 nonzero of 3,860 in The Shadow Planet with 4
players), so the first layer reads only the columns of its weights that those entries select
(``embedding_bag``) instead of multiplying the whole matrix, the same sums in another order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

import numpy as np
import torch
from torch import nn
from torch.nn import functional

from shadowtable.learn.record import POLICY_FORMAT, POLICY_VERSION, check_record

ILLEGAL_LOGIT = -1e9
"""The logit of an illegal action: its probability underflows to exactly zero."""


def mlp(width: int, hidden: Sequence[int]) -> tuple[nn.Sequential, int]:
    """Linear layers of the ``hidden`` sizes, each followed by ``tanh``, and their output width."""
    layers: list[nn.Module] = []
    for size in hidden:
        layers += [nn.Linear(width, size), nn.Tanh()]
        width = size
    return nn.Sequential(*layers), width


class PolicyValueNet(nn.Module):
    """A trunk, a head of logits over every action id and a head for the state value (on the same
    trunk, or with ``separate_value`` on a trunk of its own); with a ``guide`` bot spec, a learned
    weight (starting at ``guide_weight``) added to the logit of the guide's choice."""

    def __init__(
        self,
        obs_size: int,
        num_actions: int,
        hidden: Sequence[int] = (256, 256),
        guide: str = "",
        guide_weight: float = 0.0,
        separate_value: bool = False,
    ) -> None:
        super().__init__()
        self.guide_spec = guide
        if guide:
            self.guide = nn.Parameter(torch.tensor(float(guide_weight)))
        self.trunk, width = mlp(obs_size, hidden)
        self.separate_value = separate_value
        if separate_value:
            self.value_trunk, _ = mlp(obs_size, hidden)
        self.policy = nn.Linear(width, num_actions)
        self.value = nn.Linear(width, 1)
        self.obs_size, self.num_actions, self.hidden = obs_size, num_actions, tuple(hidden)
        nn.init.orthogonal_(self.policy.weight, gain=0.01)
        nn.init.zeros_(self.policy.bias)

    def forward(
        self, obs: torch.Tensor | SparseBatch, mask: torch.Tensor, guides: torch.Tensor | None = None
    ) -> tuple[torch.Tensor, torch.Tensor]:
        """Masked logits (illegal actions at :data:`ILLEGAL_LOGIT`) and values, for a batch
        (dense rows, or a :class:`SparseBatch` read by this network's :class:`ColumnReader`);
        ``guides``: each row's guide action (a guided network needs them)."""
        if isinstance(obs, SparseBatch) and obs.reader.net is not self:
            raise ValueError("a sparse batch is read by the reader of the network it is fed to")
        features = _through(self.trunk, obs, 0)
        logits = self.policy(features)
        if self.guide_spec:
            if guides is None:
                raise ValueError(f"a network guided by {self.guide_spec!r} needs each row's guide action")
            logits = logits.scatter_add(1, guides[:, None], self.guide.expand(len(guides), 1))
        value_features = _through(self.value_trunk, obs, 1) if self.separate_value else features
        return logits.masked_fill(~mask, ILLEGAL_LOGIT), self.value(value_features).squeeze(-1)

    def trunks(self) -> list[nn.Sequential]:
        """The policy's trunk, then the value's own (with ``separate_value``)."""
        return [self.trunk, self.value_trunk] if self.separate_value else [self.trunk]


class ColumnReader:
    """The first layer of each of a network's trunks, its weight matrix transposed so that a row
    of the input reads only the columns its nonzero entries select.  A copy of the weights as they
    are when it is made: for play, while they do not change (training makes a new one for each
    round of play)."""

    def __init__(self, net: PolicyValueNet) -> None:
        if not net.hidden:
            raise ValueError("a network without hidden layers has no first layer to read by columns")
        firsts = [cast(nn.Linear, trunk[0]) for trunk in net.trunks()]
        self.net = net
        self.columns = [layer.weight.detach().t().contiguous() for layer in firsts]
        self.biases = [layer.bias.detach() for layer in firsts]
        self.rest = [list(trunk)[1:] for trunk in net.trunks()]

    def first(self, rows: SparseRows, trunk: int) -> torch.Tensor:
        """The first layer's output (before its activation) for ``rows``, of the ``trunk``-th trunk."""
        summed = functional.embedding_bag(
            rows.columns, self.columns[trunk], rows.offsets, mode="sum", per_sample_weights=rows.values
        )
        return summed + self.biases[trunk]


@dataclass(frozen=True)
class SparseRows:
    """A batch of rows by their nonzero entries, row after row: each one's column and value, and
    where each row's entries start (``offsets``; a row with none has an empty run)."""

    columns: torch.Tensor
    values: torch.Tensor
    offsets: torch.Tensor

    @classmethod
    def of(cls, dense: np.ndarray[Any, Any], device: torch.device | None = None) -> SparseRows:
        """The nonzero entries of the 2-D ``float32`` array ``dense``."""
        flat = np.flatnonzero(dense != 0)  # on booleans: four times as fast as on the floats
        rows, columns = np.divmod(flat, dense.shape[1])
        return cls(
            torch.from_numpy(columns).to(device),
            torch.from_numpy(dense.reshape(-1)[flat]).to(device),
            torch.from_numpy(np.searchsorted(rows, np.arange(len(dense)))).to(device),
        )


@dataclass(frozen=True)
class SparseBatch:
    """Rows given by their nonzero entries, and the reader of the network they are fed to."""

    rows: SparseRows
    reader: ColumnReader


def _through(trunk: nn.Sequential, obs: torch.Tensor | SparseBatch, index: int) -> torch.Tensor:
    """``trunk`` applied to ``obs`` (the ``index``-th trunk of the network, for a sparse batch)."""
    if not isinstance(obs, SparseBatch):
        out: torch.Tensor = trunk(obs)
        return out
    hidden = obs.reader.first(obs.rows, index)
    for layer in obs.reader.rest[index]:
        hidden = layer(hidden)
    return hidden


def masked_entropy(logits: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """The entropy of each row's distribution over its legal actions.  The illegal actions'
    log-probabilities (about ``ILLEGAL_LOGIT``) are set to 0 before ``exp``, their terms dropped
    after: the same sums and gradients, without an ``exp`` that underflows (on the CPU thirty
    times as slow as one that does not)."""
    illegal = ~mask
    log_probs = torch.log_softmax(logits, dim=-1).masked_fill(illegal, 0.0)
    return -(log_probs.exp() * log_probs).masked_fill(illegal, 0.0).sum(-1)


def policy_record(net: PolicyValueNet, game: str, players: int, options: dict[str, Any]) -> dict[str, Any]:
    """What a saved policy holds: its game, shape and weights."""
    return {
        "format": POLICY_FORMAT,
        "version": POLICY_VERSION,
        "game": game,
        "players": players,
        "options": dict(options),
        "obs_size": net.obs_size,
        "num_actions": net.num_actions,
        "hidden": list(net.hidden),
        "guide": net.guide_spec,
        "separate_value": net.separate_value,
        "state_dict": {name: tensor.detach().cpu() for name, tensor in net.state_dict().items()},
    }


def save_policy(net: PolicyValueNet, path: Path, game: str, players: int, options: dict[str, Any]) -> None:
    """Write the policy to ``path`` through a temporary file (never a torn file)."""
    tmp = path.with_name(path.name + ".tmp")
    torch.save(policy_record(net, game, players, options), tmp)
    tmp.replace(path)


def half_precision(record: dict[str, Any]) -> dict[str, Any]:
    """The record with its weights stored in 16 bits (half the file; a shipped policy is played
    from exactly these weights, widened back to 32 bits)."""
    return {**record, "state_dict": {name: t.half() for name, t in record["state_dict"].items()}}


def net_from_record(record: dict[str, Any]) -> PolicyValueNet:
    """The network a policy record describes, with its weights (16-bit ones widened)."""
    net = PolicyValueNet(
        int(record["obs_size"]),
        int(record["num_actions"]),
        [int(h) for h in record["hidden"]],
        guide=str(record.get("guide", "")),
        separate_value=bool(record.get("separate_value", False)),
    )
    net.load_state_dict({name: t.float() for name, t in record["state_dict"].items()})
    net.eval()
    return net


def load_policy_record(path: Path) -> dict[str, Any]:
    """A saved policy, checked to be one; raises ``ValueError`` naming the problem."""
    try:
        record = torch.load(path, map_location="cpu", weights_only=True)
    except FileNotFoundError:
        raise ValueError(f"no policy file at {path}") from None
    except Exception as exc:  # torch raises many kinds for a file that is not a checkpoint
        raise ValueError(f"{path} is not a policy file ({type(exc).__name__})") from None
    check_record(record, path)
    assert isinstance(record, dict)
    return record


class TorchPolicy:
    """A policy saved by training (``policy.pt``), played with PyTorch; the same interface as
    :class:`~shadowtable.learn.portable.PortablePolicy`."""

    def __init__(self, record: dict[str, Any]) -> None:
        self.net = net_from_record(record)
        self.game, self.players = str(record["game"]), int(record["players"])
        self.obs_size, self.num_actions = self.net.obs_size, self.net.num_actions
        self.guide = self.net.guide_spec
        self.options: dict[str, Any] = dict(record.get("options") or {})
        if torch.get_num_threads() != 1:  # one observation per pass: a thread per core made it 20 times slower
            torch.set_num_threads(1)

    def probabilities(self, obs: Any, legal_actions: Sequence[int], guide_action: int | None = None) -> list[float]:
        """The probability of each legal action (in the order given); ``guide_action``: the
        guide's choice, for a guided policy."""
        tensor = torch.from_numpy(obs.reshape(1, -1))
        mask = torch.zeros((1, self.num_actions), dtype=torch.bool)
        mask[0, list(legal_actions)] = True
        guides = None if guide_action is None else torch.tensor([guide_action], dtype=torch.int64)
        with torch.no_grad():
            logits, _ = self.net(tensor, mask, guides)
            probs = torch.softmax(logits[0], dim=-1).double()
        return [float(probs[action]) for action in legal_actions]
