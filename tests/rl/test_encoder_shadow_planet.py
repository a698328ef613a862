"""The Shadow Planet observation encoder: shape, range, information and distinctness."""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator
from typing import Any

import pytest

np = pytest.importorskip("numpy")

from shadowtable import make  # noqa: E402
from shadowtable.core.game import TERMINAL  # noqa: E402
from shadowtable.games.shadow_planet.encoder import ShadowPlanetEncoder  # noqa: E402
from shadowtable.games.shadow_planet.game import ShadowPlanetGame  # noqa: E402
from shadowtable.games.shadow_planet.state import State  # noqa: E402
from shadowtable.rl.encoding import encoder_for  # noqa: E402


def sp_game(players: int) -> ShadowPlanetGame:
    game = make("shadow-planet", players=players)
    assert isinstance(game, ShadowPlanetGame)
    return game


def playout(game: ShadowPlanetGame, seed: int) -> Iterator[State]:
    """Every state of one random game, the final one included."""
    rng = random.Random(seed)
    state = game.initial_state()
    yield state
    while game.current_player(state) != TERMINAL:
        legal = game.legal_actions(state)
        state = game.apply(state, legal[rng.randrange(len(legal))])
        yield state


def test_registered_for_the_game() -> None:
    game = sp_game(4)
    assert isinstance(encoder_for(game), ShadowPlanetEncoder)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_shape_dtype_and_range_over_random_playouts(players: int) -> None:
    game = sp_game(players)
    encoder = ShadowPlanetEncoder(game)
    assert encoder.shape == (sum(size for _, size in encoder.layout()),)
    checked = 0
    for index, state in enumerate(playout(game, players)):
        if index % 7 and not game.is_terminal(state):
            continue
        for seat in [*range(players), None]:
            vector = encoder.encode(game.observe(state, seat))
            assert vector.shape == encoder.shape and vector.dtype == np.float32
            assert vector.min() >= encoder.low and vector.max() <= encoder.high
            checked += 1
    assert checked > players * 10


def test_shape_depends_only_on_the_player_count() -> None:
    shapes = {players: ShadowPlanetEncoder(sp_game(players)).shape for players in (3, 4, 5)}
    assert len(set(shapes.values())) == 3
    assert ShadowPlanetEncoder(sp_game(4)).shape == shapes[4]


@pytest.mark.parametrize("seed", [1, 2])
def test_unchanged_when_only_what_the_seat_cannot_know_changes(seed: int) -> None:
    game = sp_game(4)
    encoder = ShadowPlanetEncoder(game)
    compared = 0
    for index, state in enumerate(playout(game, seed)):
        if index % 11 or game.is_terminal(state):
            continue
        for seat in range(4):
            observation = game.observe(state, seat)
            expected = encoder.encode(observation)
            for k in range(2):
                other = game.determinize(observation, random.Random(k))
                assert np.array_equal(encoder.encode(game.observe(other, seat)), expected)
                compared += 1
    assert compared > 40


def changed(observation: dict[str, Any], path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    other = copy.deepcopy(observation)
    target = other
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return other


def test_different_public_facts_give_different_encodings() -> None:
    game = sp_game(4)
    encoder = ShadowPlanetEncoder(game)
    state = next(s for i, s in enumerate(playout(game, 3)) if i > 150 and game.current_player(s) >= 0)
    observation = game.observe(state, 0)
    base = encoder.encode(observation)
    public = observation["public"]
    edits: list[tuple[tuple[Any, ...], Any]] = [
        (("public", "countdown"), (public["countdown"] + 1) % 12),
        (("public", "threat"), (public["threat"] + 1) % 8),
        (("public", "sheets", 1), public["sheets"][1] + 1),
        (("public", "character_location", 0), (public["character_location"][0] + 1) % 4),
        (("public", "vehicle_loc", 1), (public["vehicle_loc"][1] + 2) % 4),
        (("public", "section_markers", 2), public["section_markers"][2] ^ 1),
        (("public", "zones", "discard"), [*public["zones"]["discard"], 120]),
        (("public", "zones", "decks", 0, "size"), public["zones"]["decks"][0]["size"] - 1),
        (("public", "round"), public["round"] + 1),
    ]
    for path, value in edits:
        assert not np.array_equal(encoder.encode(changed(observation, path, value)), base), path


@pytest.mark.parametrize(("seed", "seat"), [(4, None), (5, None), (6, 0), (7, 2)])
def test_consecutive_views_that_differ_encode_differently(seed: int, seat: int | None) -> None:
    game = sp_game(4)
    encoder = ShadowPlanetEncoder(game)
    previous: tuple[dict[str, Any], Any] | None = None
    distinct = 0
    for state in playout(game, seed):
        observation = game.observe(state, seat)
        observation["trajectory"] = []  # history, summarised by the current indicators and round
        vector = encoder.encode(observation)
        if previous is not None and previous[0] != observation:
            assert not np.array_equal(previous[1], vector)
            distinct += 1
        previous = (observation, vector)
    assert distinct > 50


TRAINED_PENDING_ORDER = (
    "remove_objective", "deal_objective", "choose_protagonist", "draw_draft_card", "pick_character",
    "cancel_ability", "choose_marker_seat", "choose_marker_colour", "move_for_free", "play_move_cards",
    "ask_rider", "spend_move_points", "drive_elsewhere", "play_search_cards", "reorder", "play_get_cards",
    "play_repair_cards", "choose_scrap_target", "give_scrap_card", "return_scrap_card", "play_attack_cards",
    "choose_section_effect", "show_reveal_card", "remove_message", "take_robot_card", "give_robot_card",
    "adjust_countdown", "choose_section_marker_seat", "choose_section_marker_colour", "choose_deck",
    "pick_temple_card", "reveal_top", "discard_message", "choose_identity", "over",
)  # fmt: skip
"""The ``pending`` block's order the shipped 4-player policy (``learn/policies``) was trained with."""
TRAINED_LAYOUT = [
    ("seat", 4), ("own_objective", 7), ("objectives", 28), ("removed_objectives", 1), ("to_act", 6), ("my_turn", 1),
    ("pending", 35), ("pending_data", 65), ("round", 1), ("protagonist", 4), ("indicators", 3), ("latched", 3),
    ("end_reason", 3), ("pool", 5), ("sheets", 20), ("section_markers", 35), ("char_loc", 24), ("char_section", 48),
    ("controller", 30), ("seat_char", 28), ("vehicle_loc", 10), ("identity", 28), ("draft", 21), ("turn", 31),
    ("reveals", 12), ("zone_sizes", 14), ("hand", 121), ("private", 121),
    *[(f"deck_{d}", 121) for d in range(5)], *[(f"deck_{d}_depth", 121) for d in range(5)],
    ("temple", 121), ("discard", 121), *[(f"gear_{c}", 121) for c in range(6)],
    *[(f"played_{c}", 121) for c in range(6)], ("shown", 121), ("secret", 122), ("winners", 4),
]  # fmt: skip
"""The 4-player layout (3860 values) the shipped policy was trained with."""


def test_the_sizes_and_kinds_read_from_the_game_keep_the_trained_layout() -> None:
    encoder = ShadowPlanetEncoder(sp_game(4))
    assert tuple(encoder.kind_slot) == TRAINED_PENDING_ORDER
    assert encoder.layout() == TRAINED_LAYOUT
    assert encoder.shape == (3860,)
