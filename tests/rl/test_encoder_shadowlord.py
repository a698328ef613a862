"""The Shadowlord! observation encoder: shape, range, information discipline, sensitivity."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import numpy as np

from shadowtable import CHANCE, make
from shadowtable.core.kernel import task_kind
from shadowtable.games.shadowlord.encoder import ShadowlordEncoder
from shadowtable.games.shadowlord.game import ShadowlordGame
from shadowtable.games.shadowlord.state import State
from shadowtable.rl.encoding import encoder_for

CONFIGURATIONS: list[dict[str, Any]] = [
    {"players": 2},
    {"players": 2, "modified": True},
    {"players": 3},
    {"players": 4},
]
DOC = Path(__file__).resolve().parents[2] / "docs" / "rl" / "shadowlord-encoding.md"


def shadowlord(players: int, **options: Any) -> ShadowlordGame:
    game = make("shadowlord", players=players, turn_cap=25, **options)
    assert isinstance(game, ShadowlordGame)
    return game


def random_positions(game: ShadowlordGame, seed: int, every: int = 9) -> list[tuple[State, int]]:
    """Decision states of one random playout (every ``every``-th step) with the seat to act."""
    rng = random.Random(seed)
    state = game.initial_state()
    out: list[tuple[State, int]] = []
    for step in range(2500):
        if game.is_terminal(state):
            break
        player = game.current_player(state)
        if player != CHANCE and step % every == 0:
            out.append((state, player))
        state = game.apply(state, rng.choice(game.legal_actions(state)))
    return out


def test_the_encoder_is_registered_for_shadowlord() -> None:
    assert isinstance(encoder_for(shadowlord(3)), ShadowlordEncoder)


def test_shape_dtype_and_range_over_random_playouts() -> None:
    shapes = set()
    for config in CONFIGURATIONS:
        game = shadowlord(**config)
        encoder = ShadowlordEncoder(game)
        shapes.add(encoder.shape)
        positions = random_positions(game, seed=len(config) + config["players"])
        assert positions
        for state, seat in positions:
            vector = encoder.encode(game.observe(state, seat))
            assert vector.shape == encoder.shape and vector.dtype == np.float32
            assert vector.min() >= encoder.low and vector.max() <= encoder.high
    assert len(shapes) == 1


def test_the_layout_adds_up_to_the_shape() -> None:
    encoder = ShadowlordEncoder(shadowlord(4))
    assert sum(size for _, size in encoder.layout()) == encoder.shape[0]


def test_a_seat_encoding_ignores_what_the_seat_cannot_know() -> None:
    for config in CONFIGURATIONS:
        game = shadowlord(**config)
        encoder = ShadowlordEncoder(game)
        for state, seat in random_positions(game, seed=7, every=23):
            observation = game.observe(state, seat)
            vector = encoder.encode(observation)
            for k in range(3):
                resampled = game.determinize(observation, random.Random(k))
                again = encoder.encode(game.observe(resampled, seat))
                assert np.array_equal(vector, again), (config, seat, state.stack[-1])


def secret_moments(game: ShadowlordGame, seeds: range, per_kind: int = 6) -> list[tuple[State, int]]:
    """Decision states where other seats hold secrets beyond cards: a Duel commitment or a vote."""
    found: dict[str, list[tuple[State, int]]] = {"commit": [], "vote": []}
    for seed in seeds:
        rng = random.Random(seed)
        state = game.initial_state()
        while not game.is_terminal(state) and min(len(v) for v in found.values()) < per_kind:
            player = game.current_player(state)
            kind = task_kind(type(state.stack[-1]))
            if player != CHANCE and kind in found and len(found[kind]) < per_kind:
                found[kind].append((state, player))
            state = game.apply(state, rng.choice(game.legal_actions(state)))
    return found["commit"] + found["vote"]


def test_secret_commitments_and_votes_do_not_leak() -> None:
    game = shadowlord(3)
    encoder = ShadowlordEncoder(game)
    moments = secret_moments(game, range(20))
    kinds = {task_kind(type(state.stack[-1])) for state, _ in moments}
    assert kinds == {"commit", "vote"}
    for state, _ in moments:
        for viewer in range(game.players):
            observation = game.observe(state, viewer)
            vector = encoder.encode(observation)
            resampled = game.determinize(observation, random.Random(viewer))
            assert np.array_equal(vector, encoder.encode(game.observe(resampled, viewer)))


def changed(game: ShadowlordGame, state: State, field: str, index: int, value: int) -> State:
    data = game.state_to_json(state)
    data[field][index] = value
    return game.state_from_json(data)


def test_different_public_facts_give_different_encodings() -> None:
    game = shadowlord(4)
    encoder = ShadowlordEncoder(game)
    state, seat = random_positions(game, seed=3)[3]
    base = encoder.encode(game.observe(state, seat))
    master = 0
    variants = [
        changed(game, state, "ships", master, (state.ships[master] + 1) % 6),
        changed(game, state, "disc", 6, 1 - state.disc[6]),
        changed(game, state, "loc", master, 12 if state.loc[master] != 12 else 11),
        changed(game, state, "hand", 3 * 5 + 4, state.hand[3 * 5 + 4] + 1),  # seat 3's hand size
    ]
    encodings = [encoder.encode(game.observe(v, seat)) for v in variants]
    assert all(not np.array_equal(base, e) for e in encodings)
    assert len({e.tobytes() for e in encodings}) == len(encodings)


def with_own_hand(game: ShadowlordGame, state: State, seat: int, hand: list[int]) -> State:
    data = game.state_to_json(state)
    data["hand"][seat * 5 : seat * 5 + 5] = hand
    return game.state_from_json(data)


def test_own_hand_is_encoded_and_seats_see_different_vectors() -> None:
    game = shadowlord(4)
    encoder = ShadowlordEncoder(game)
    state, seat = random_positions(game, seed=5)[2]
    zero = encoder.encode(game.observe(with_own_hand(game, state, seat, [1, 0, 0, 0, 0]), seat))
    ten = encoder.encode(game.observe(with_own_hand(game, state, seat, [0, 0, 0, 0, 1]), seat))
    assert not np.array_equal(zero, ten)
    other = (seat + 1) % 4
    mine = encoder.encode(game.observe(state, seat))
    assert not np.array_equal(mine, encoder.encode(game.observe(state, other)))


def test_every_block_is_documented() -> None:
    text = DOC.read_text(encoding="utf-8")
    encoder = ShadowlordEncoder(shadowlord(2))
    offset = 0
    for name, size in encoder.layout():
        assert f"| `{name}` | {size} | {offset} |" in text, name
        offset += size
    assert str(encoder.shape[0]) in text


def test_the_layout_orders_hold_the_game_s_decision_and_cell_kinds() -> None:
    """The fixed orders of the ``pending`` block and the cell kinds hold exactly the game's own
    (``place_portrait_cards`` is the one decision the layout has no slot for: it encodes as
    'chance or automatic')."""
    from shadowtable.games.shadowlord import encoder
    from shadowtable.games.shadowlord.content import CELL_KINDS
    from shadowtable.games.shadowlord.tasks import PlaceStartingShip

    derived = encoder.decision_kinds()
    assert len(derived) == len(set(derived)) and task_kind(PlaceStartingShip) in derived
    assert set(encoder.DECISION_KINDS) == set(derived) - {"place_portrait_cards"}
    assert len(encoder.DECISION_KINDS) == len(set(encoder.DECISION_KINDS))
    assert set(encoder.CELL_KINDS) == set(CELL_KINDS.values())
    assert (encoder.GALAXY_SIZE, encoder.FIGURE_SIZE, encoder.PENDING_SLOTS) == (41, 56, 34)
