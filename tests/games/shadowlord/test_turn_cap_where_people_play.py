"""SL-D-20: the turn cap is for simulations; where people play (a table on the server,
``shadowtable play``) a game has none unless they set one (1,000 turns, the most, stands for none).
The game as people play it is the standard configuration: its bots, policy and calibration."""

from __future__ import annotations

import numpy as np
import pytest

from shadowtable.analysis.calibration import variant_of
from shadowtable.bots.ladder import config_name
from shadowtable.core.registry import game_class, make
from shadowtable.games.shadowlord.game import TURN_CAP_MAX
from shadowtable.server.errors import ServiceError
from shadowtable.server.new_table import new_game


def test_a_table_has_no_turn_cap_unless_its_creator_sets_one() -> None:
    assert new_game("shadowlord", 2, {}).options["turn_cap"] == TURN_CAP_MAX
    assert new_game("shadowlord", 3, {"turn_cap": 40}).options["turn_cap"] == 40
    assert make("shadowlord", players=2).options["turn_cap"] == 150  # simulations keep theirs
    assert new_game("shadow-planet", 4, {}).options == make("shadow-planet", players=4).options
    with pytest.raises(ServiceError, match="unknown game"):
        new_game("chess", 2, {})


def test_shadowtable_play_starts_a_game_without_a_turn_cap() -> None:
    pytest.importorskip("textual")
    from shadowtable.cli.play import PlaySettings, new_table

    table = new_table(PlaySettings("shadowlord", players=2, bots=("random",)), [0])
    assert table.session.game.options["turn_cap"] == TURN_CAP_MAX
    table = new_table(PlaySettings("shadowlord", players=2, bots=("random",), options={"turn_cap": 30}), [0])
    assert table.session.game.options["turn_cap"] == 30


def test_the_game_as_people_play_it_is_the_standard_configuration() -> None:
    spec = game_class("shadowlord").SPEC
    assert spec.people_options() == {"turn_cap": TURN_CAP_MAX}
    assert spec.people_options({"turn_cap": 9}) == {"turn_cap": 9}
    assert game_class("shadow-planet").SPEC.people_options() == {}
    table = new_game("shadowlord", 2, {})
    assert config_name("shadowlord", 2, table.options) == "shadowlord-2p"
    assert config_name("shadowlord", 2, {"turn_cap": 40}) == "shadowlord-2p-turn_cap-40"
    assert variant_of(table) == ""
    assert variant_of(new_game("shadowlord", 2, {"turn_cap": 40})) == "turn_cap-40"


def test_the_lobby_offers_the_same_levels_at_a_table_without_a_turn_cap() -> None:
    from shadowtable.web.forms import bots_offered

    table = new_game("shadowlord", 2, {})
    assert bots_offered("shadowlord", 2, table.options) == bots_offered("shadowlord", 2)
    assert "policy" in bots_offered("shadowlord", 2, table.options)


def test_the_encoding_reads_the_turn_as_the_policies_learnt_it() -> None:
    """The turn count is scaled by the simulations' cap of 150 at most, so a game without a cap
    reads as the shipped policies were trained; a shorter cap scales it as before."""
    from shadowtable.games.shadowlord.encoder import ShadowlordEncoder

    capped, uncapped = make("shadowlord", players=2), new_game("shadowlord", 2, {})
    state = capped.initial_state()
    for _ in range(40):
        outcomes = capped.chance_outcomes(state)
        state = capped.apply(state, outcomes[0][0] if outcomes else capped.legal_actions(state)[0])
    seat = capped.current_player(state)
    seat = seat if seat >= 0 else 0
    a = ShadowlordEncoder(capped).encode(capped.observe(state, seat))
    b = ShadowlordEncoder(uncapped).encode(uncapped.observe(state, seat))
    assert np.array_equal(a, b)
    assert ShadowlordEncoder(make("shadowlord", players=2, turn_cap=30)).turn_cap == 30
