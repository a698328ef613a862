"""A trained policy without PyTorch: its weights in a NumPy ``.npz`` file, played by a forward
pass in NumPy.

``shadowtable train`` writes ``policy.pt`` (PyTorch); ``scripts/ship_policy.py`` turns one into
``<game>-<players>p.npz`` (16-bit weights, the same network), which is what ships with the
package, so the game server's ``[web]`` install offers the trained policy with NumPy alone.  The
file holds only arrays (read with ``allow_pickle=False``): the weights by their PyTorch names and
``meta``, the policy record's other fields as JSON.
"""

from __future__ import annotations

import json
import zipfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from shadowtable.learn.record import check_record

SUFFIX = ".npz"
META = "meta"


def trunk_layer(index: int) -> str:
    """The name of the trunk's ``index``-th linear layer (each followed by ``tanh``), as
    :class:`~shadowtable.learn.network.PolicyValueNet` names it."""
    return f"trunk.{2 * index}"


@dataclass(frozen=True)
class PortablePolicy:
    """A policy's trunk and policy head as NumPy arrays (``float32``)."""

    game: str
    players: int
    obs_size: int
    num_actions: int
    trunk: tuple[tuple[NDArray[np.float32], NDArray[np.float32]], ...]
    head: tuple[NDArray[np.float32], NDArray[np.float32]]
    guide: str = ""
    """The bot whose choice a guided policy adds ``guide_weight`` to (empty: not guided)."""
    guide_weight: float = 0.0
    options: Mapping[str, Any] = field(default_factory=dict)
    """The game options it was trained with."""

    def logits(self, obs: NDArray[Any], guide_action: int | None = None) -> NDArray[np.float32]:
        """The policy's logits over every action id for one encoded observation (``guide_action``:
        the guide's choice, which a guided policy needs)."""
        hidden = np.asarray(obs, dtype=np.float32).reshape(-1)
        for weight, bias in self.trunk:
            hidden = np.tanh(weight @ hidden + bias)
        weight, bias = self.head
        out: NDArray[np.float32] = weight @ hidden + bias
        if self.guide:
            if guide_action is None:
                raise ValueError(f"a policy guided by {self.guide!r} needs the guide's action")
            out[guide_action] += np.float32(self.guide_weight)
        return out

    def probabilities(
        self, obs: NDArray[Any], legal_actions: Sequence[int], guide_action: int | None = None
    ) -> list[float]:
        """The probability of each legal action (in the order given): a softmax over the legal
        actions' logits, as the masked network gives it."""
        chosen = self.logits(obs, guide_action)[list(legal_actions)].astype(np.float64)
        weights = np.exp(chosen - chosen.max())
        return [float(p) for p in weights / weights.sum()]


def write_portable(record: Mapping[str, Any], path: Path) -> None:
    """Write a policy record (its ``state_dict`` values as NumPy arrays) to ``path`` as ``.npz``,
    through a temporary file."""
    meta = {name: value for name, value in record.items() if name != "state_dict"}
    arrays = {name: np.asarray(value, dtype=np.float16) for name, value in record["state_dict"].items()}
    tmp = path.with_name(path.name + ".tmp")
    with tmp.open("wb") as handle:
        np.savez_compressed(handle, allow_pickle=False, **{META: np.array(json.dumps(meta, sort_keys=True))}, **arrays)
    tmp.replace(path)


def read_record(path: Path) -> dict[str, Any]:
    """The policy record in ``path``, its ``state_dict`` values as ``float32`` arrays (16-bit ones
    widened); ``ValueError`` naming the problem if it is not one."""
    try:
        with np.load(path, allow_pickle=False) as data:
            meta = json.loads(str(data[META]))
            arrays = {name: data[name].astype(np.float32) for name in data.files if name != META}
    except FileNotFoundError:
        raise ValueError(f"no policy file at {path}") from None
    except (OSError, ValueError, KeyError, zipfile.BadZipFile, json.JSONDecodeError) as exc:
        raise ValueError(f"{path} is not a policy file ({type(exc).__name__})") from None
    check_record(meta, path)
    return {**meta, "state_dict": arrays}


def read_portable(path: Path) -> PortablePolicy:
    """The policy in ``path``; ``ValueError`` naming the problem if it is not one."""
    record = read_record(path)
    arrays = record["state_dict"]
    try:
        trunk = tuple(
            (arrays[f"{layer}.weight"], arrays[f"{layer}.bias"])
            for layer in map(trunk_layer, range(len(record["hidden"])))
        )
        head = (arrays["policy.weight"], arrays["policy.bias"])
        guide = str(record.get("guide", ""))
        guide_weight = float(arrays["guide"]) if guide else 0.0
    except KeyError as exc:
        raise ValueError(f"{path} lacks the weights {exc.args[0]!r}") from None
    return PortablePolicy(
        game=str(record["game"]),
        players=int(record["players"]),
        obs_size=int(record["obs_size"]),
        num_actions=int(record["num_actions"]),
        trunk=trunk,
        head=head,
        guide=guide,
        guide_weight=guide_weight,
        options=dict(record.get("options") or {}),
    )
