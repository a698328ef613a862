"""The encoders give, byte for byte, the vectors of the plain encoders they replaced
(``tests/rl/reference``), for every seat and a spectator over seeded random games, from the
JSON observation and from the typed view built directly (``game.observe_typed``)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

np = pytest.importorskip("numpy")

from rl.reference.shadow_planet import ReferenceShadowPlanetEncoder  # noqa: E402
from rl.reference.shadowlord import ReferenceShadowlordEncoder  # noqa: E402
from shadowtable import make  # noqa: E402
from shadowtable.core.game import CHANCE, Game  # noqa: E402
from shadowtable.core.rng import sample_outcome  # noqa: E402
from shadowtable.rl.encoding import encoder_for  # noqa: E402

CONFIGURATIONS: list[tuple[str, dict[str, Any], type[Any]]] = [
    ("shadow-planet", {"players": 3}, ReferenceShadowPlanetEncoder),
    ("shadow-planet", {"players": 4}, ReferenceShadowPlanetEncoder),
    ("shadow-planet", {"players": 5}, ReferenceShadowPlanetEncoder),
    ("shadowlord", {"players": 2}, ReferenceShadowlordEncoder),
    ("shadowlord", {"players": 2, "modified": True}, ReferenceShadowlordEncoder),
    ("shadowlord", {"players": 3}, ReferenceShadowlordEncoder),
    ("shadowlord", {"players": 4}, ReferenceShadowlordEncoder),
    ("shadowlord", {"players": 4, "turn_cap": 25}, ReferenceShadowlordEncoder),
]


def sampled_states(game: Game[Any], seed: int, every: int) -> Iterator[Any]:
    """Every ``every``-th state of a random game (chance drawn by its odds), and the last one."""
    rng = random.Random(seed)
    state = game.initial_state()
    for step in range(100_000):
        if step % every == 0 or game.is_terminal(state):
            yield state
        if game.is_terminal(state):
            return
        if game.current_player(state) == CHANCE:
            state = game.apply(state, sample_outcome(game.chance_outcomes(state), rng))
        else:
            state = game.apply(state, rng.choice(game.legal_actions(state)))


@pytest.mark.parametrize(("game_id", "config", "reference"), CONFIGURATIONS)
def test_the_same_bytes_as_the_reference_encoder(game_id: str, config: dict[str, Any], reference: type[Any]) -> None:
    game = make(game_id, **config)
    encoder, expected_encoder = encoder_for(game), reference(game)
    assert encoder.shape == expected_encoder.shape
    assert encoder.layout() == expected_encoder.layout()  # type: ignore[attr-defined]
    buffer = np.full(encoder.shape, np.nan, dtype=np.float32)  # reused: nothing of one view may remain
    compared = 0
    for seed in (1, 2):
        for state in sampled_states(game, seed, every=13 if game_id == "shadowlord" else 9):
            for seat in [*range(game.players), None]:
                observation = game.observe(state, seat)
                expected = expected_encoder.encode(observation)
                assert encoder.encode(observation).tobytes() == expected.tobytes(), (seed, seat)
                assert encoder.encode_into(observation, buffer) is buffer  # type: ignore[attr-defined]
                assert buffer.tobytes() == expected.tobytes(), (seed, seat)
                typed = encoder.encode(game.observe_typed(state, seat))  # the view built directly
                assert typed.tobytes() == expected.tobytes(), (seed, seat)
                compared += 1
    assert compared > 150


def test_encode_into_refuses_an_array_of_another_shape_or_type() -> None:
    encoder: Any = encoder_for(make("shadow-planet", players=4))
    observation = make("shadow-planet", players=4).observe(make("shadow-planet", players=4).initial_state(), 0)
    with pytest.raises(ValueError):
        encoder.encode_into(observation, np.zeros(encoder.shape[0] + 1, dtype=np.float32))
    with pytest.raises(ValueError):
        encoder.encode_into(observation, np.zeros(encoder.shape, dtype=np.float64))
