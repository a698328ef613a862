"""Every encoded vector and action mask of seeded random games hashes to the digest the
encoders gave before they read the typed observation.

The digests below were computed with the encoders that read the JSON observation dict (the
code before the typed rewrite), by running ``digest`` on these same configurations; any
change to a single byte of any vector or mask changes them.  Regenerate them only for a
deliberate change of an encoding layout (which also invalidates trained policies).
"""

from __future__ import annotations

import hashlib
import random
from typing import Any

import pytest

np = pytest.importorskip("numpy")

from shadowtable import make  # noqa: E402
from shadowtable.core.game import CHANCE  # noqa: E402
from shadowtable.core.rng import sample_outcome  # noqa: E402
from shadowtable.rl.encoding import action_mask, encoder_for  # noqa: E402

GOLDEN: list[tuple[str, dict[str, Any], int, str]] = [
    # (game, configuration, seed, sha256 of every vector and mask, every step, every seat)
    ("shadow-planet", {"players": 3}, 1, "19531b08f4871653c4ab9ad8cda87f1833b385c2bd2c30dac400228deccc6b13"),
    ("shadow-planet", {"players": 3}, 2, "c0af6373c197509ec2ad8f198051b235a3a26ddcd0d26ee26810dd508f7edc4a"),
    ("shadow-planet", {"players": 4}, 1, "7ef18e3f78afb0270b968569715736b648e4b174e022444ef87453e53588af46"),
    ("shadow-planet", {"players": 4}, 2, "0f9b14e6d54288cf5265a74aa0735925e82a50392a831f554d6b6ae91337a365"),
    ("shadow-planet", {"players": 5}, 1, "868fc4f9b04dec09b45cc4183f0d52bf3e509a073cbb6048a4dea584b4d68535"),
    ("shadow-planet", {"players": 5}, 2, "4a6e6d6f5573fddbf092e72fefd0d1db1b9579fbe101f539becb04c5aaada36c"),
    ("shadowlord", {"players": 2}, 1, "2c5c8a5d0dbea053920e8bf953344136f0f1d4cd940e1c5c10c84ab4ba17833c"),
    ("shadowlord", {"players": 2}, 2, "786649351565781c1107278ded20ccf987c7185fa34b69c974aeeb7fef67393e"),
    ("shadowlord", {"players": 3}, 1, "87682be670aad018b7cd6e859c0f8181d27c01c2bec5c2074c5fee3d82246fc0"),
    ("shadowlord", {"players": 3}, 2, "242c25b55fb4a3eb479632fccb0831f3a76757cf21f4adf4077a042bd22d5e4e"),
    ("shadowlord", {"players": 4}, 1, "44412885292d37a9e2cfac52f16594eea4ff80a17c97798e35429aebf9ef1315"),
    ("shadowlord", {"players": 4}, 2, "00a262626bb96941d584089b9d85c646dd44c9e8a1fb186911acbd3604db1b55"),
    (
        "shadowlord",
        {"players": 2, "modified": True},
        3,
        "426f2c27cac8a91d76d08d541717f1d9564d673d3bafb2aba697b59936825a74",
    ),
    (
        "shadowlord",
        {"players": 4, "turn_cap": 25},
        4,
        "5890633b6aae7bb0852b3f218117f93318506246eab17fdfa22df27f5d73560e",
    ),
]


def digest(game_id: str, config: dict[str, Any], seed: int) -> str:
    """The sha256 of the encoding of every seat (and a spectator) and of the mover's action
    mask, at every step of one seeded random game."""
    game = make(game_id, **config)
    encoder = encoder_for(game)
    rng = random.Random(seed)
    hasher = hashlib.sha256()
    state = game.initial_state()
    while True:
        for seat in [*range(game.players), None]:
            hasher.update(encoder.encode(game.observe(state, seat)).tobytes())
        if game.is_terminal(state):
            return hasher.hexdigest()
        if game.current_player(state) == CHANCE:
            state = game.apply(state, sample_outcome(game.chance_outcomes(state), rng))
            continue
        legal = game.legal_actions(state)
        hasher.update(action_mask(game, legal).tobytes())
        state = game.apply(state, rng.choice(legal))


@pytest.mark.parametrize(("game_id", "config", "seed", "expected"), GOLDEN)
def test_every_vector_and_mask_is_unchanged(game_id: str, config: dict[str, Any], seed: int, expected: str) -> None:
    assert digest(game_id, config, seed) == expected
