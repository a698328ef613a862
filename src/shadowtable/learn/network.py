"""The policy and value network: an MLP over the encoded observation, masked to the legal actions.

Saved as a small dict (``torch.save``) that names the game it was trained for, so a policy is
never loaded against another game, player count or encoding size.

A *guided* network (``guide`` names a bot, for example ``heuristic``) adds a learned weight to the
logit of the action that bot would choose from the same observation (residual policy learning:
the network learns where to depart from the bot, starting from the bot's own play).

With ``separate_value`` the value has a trunk of its own, so the value loss never changes the
features the policy head reads (the policy's trunk is trained by the policy's loss alone).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import torch
from torch import nn

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
        self, obs: torch.Tensor, mask: torch.Tensor, guides: torch.Tensor | None = None
    ) -> tuple[torch.Tensor, torch.Tensor]:
        """Masked logits (illegal actions at :data:`ILLEGAL_LOGIT`) and values, for a batch;
        ``guides``: each row's guide action (a guided network needs them)."""
        features = self.trunk(obs)
        logits = self.policy(features)
        if self.guide_spec:
            if guides is None:
                raise ValueError(f"a network guided by {self.guide_spec!r} needs each row's guide action")
            logits = logits.scatter_add(1, guides[:, None], self.guide.expand(len(guides), 1))
        value_features = self.value_trunk(obs) if self.separate_value else features
        return logits.masked_fill(~mask, ILLEGAL_LOGIT), self.value(value_features).squeeze(-1)


def masked_entropy(logits: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """The entropy of each row's distribution over its legal actions."""
    log_probs = torch.log_softmax(logits, dim=-1)
    return -(log_probs.exp() * log_probs).masked_fill(~mask, 0.0).sum(-1)


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
