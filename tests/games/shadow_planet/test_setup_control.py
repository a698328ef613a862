"""Setup (SP-SETUP-*) and the Control phase draft (SP-CTRL-*)."""

from __future__ import annotations

import pytest

from games.shadow_planet.helpers import (
    CHAR_NAMES,
    ERICO,
    HILL,
    JENNA,
    JOHN,
    MELITA,
    NIKKE,
    ROBOT,
    Table,
    hand_of,
    kind,
    standard,
)
from shadowtable.core import CHANCE
from shadowtable.games.shadow_planet import state as M


@pytest.mark.parametrize(("players", "repair"), [(3, 5), (4, 6), (5, 8)])
def test_indicators_start_and_repair_depends_on_player_count(players: int, repair: int) -> None:
    s = Table(players).s
    assert (s.countdown, s.repair, s.threat) == (12, repair, 2)


def test_location_decks_messages_and_gear_contents() -> None:
    s = Table(3).s
    types = Table(3).game.ctx.card_type
    expected = {0: [9, 5, 0, 3, 3], 1: [5, 6, 5, 4, 0], 2: [5, 6, 4, 0, 5], 3: [0, 0, 6, 8, 6]}
    for deck, counts in expected.items():
        cards = [c for c, z in enumerate(s.where) if z == deck]
        assert [sum(1 for c in cards if types[c] == t) for t in range(5)] == counts
    gear = {JENNA: [3, 2, 1, 0, 0], NIKKE: [2, 3, 0, 1, 0], JOHN: [3, 2, 0, 0, 1], 3: [2, 2, 2, 0, 0]}
    gear.update({4: [3, 2, 0, 0, 1], ROBOT: [1, 3, 0, 2, 0]})
    for ch, counts in gear.items():
        assert [sum(1 for c in hand_of(s, ch) if types[c] == t) for t in range(5)] == counts
    assert sorted(types[c] for c, z in enumerate(s.where) if z == M.MSG) == [0, 1, 2, 3, 4]


def test_alien_is_never_removed_and_removed_objectives_stay_unseen() -> None:
    t = Table(3)
    assert t.game.legal_actions(t.s) == [1, 2, 3, 4]  # the Alien (0) cannot be removed
    t.do("remove objective Guardian", "remove objective Sergeant")
    assert sorted(t.game.legal_actions(t.s)) == [0, 1, 2]  # the pile: Alien + two Astronauts
    t.do("deal seat 0: Commander", "deal seat 1: Alien", "deal seat 2: Lieutenant", "protagonist seat 1")
    for seat in (None, 0, 1, 2):
        obs = t.game.observe(t.s, seat)
        assert obs["public"]["removed_objectives"] == 2
        assert 4 not in [o for o in obs["public"]["objectives"] if o is not None]
    assert Table(5).game.current_player(Table(5).s) == CHANCE and kind(Table(5).s) == "deal_objective"


def test_pawns_start_on_their_locations_and_markers_are_in_the_pool() -> None:
    s = Table(4).s
    assert s.char_loc == [MELITA, MELITA, MELITA, ERICO, HILL, ERICO]
    assert s.pool == [15] * 5 and sum(s.sheets) == 0 and s.vehicle_loc == [-1, -1]


def test_protagonist_is_a_uniform_chance_choice() -> None:
    t = Table(4).setup(["alien", "commander", "lieutenant", "guardian"][:4], protagonist=2)
    assert t.s.protagonist == 2


def test_random_card_goes_to_the_player_right_of_the_protagonist() -> None:
    t = Table(4).setup(["alien", "commander", "lieutenant", "guardian"], protagonist=1)
    t.do("random character Nikke Larsson")
    assert t.game.observe(t.s, 0)["public"]["draft"]["random"] == NIKKE  # seat 0 is right of seat 1
    assert all(t.game.observe(t.s, seat)["public"]["draft"]["random"] is None for seat in (1, 2, 3))
    assert t.game.current_player(t.s) == 1  # the Protagonist chooses first


def test_picks_pass_left_and_the_last_player_adds_the_random_card() -> None:
    t = Table(4).setup(["alien", "commander", "lieutenant", "guardian"], protagonist=1)
    t.do("random character Robot")
    assert t.legal_text() == [f"pick {CHAR_NAMES[c]}" for c in range(5)]
    t.do("pick Jenna Scott")
    assert t.game.current_player(t.s) == 2 and len(t.legal_text()) == 4
    t.do("pick Nikke Larsson", "pick John Vargo")
    assert t.game.current_player(t.s) == 0
    assert t.legal_text() == ["pick Rachel Robinson", "pick Reed Robinson", "pick Robot"]


def test_picks_are_secret_until_the_simultaneous_reveal() -> None:
    t = Table(3).setup(["alien", "commander", "lieutenant"])
    t.do("random character Robot", "pick Reed Robinson")
    assert t.s.controller == [-1] * 6
    assert t.game.observe(t.s, 1)["public"]["draft"]["picks"] == [None, -1, None]  # own: not yet picked
    assert t.game.observe(t.s, 0)["public"]["draft"]["picks"][0] == 4
    t.do("pick Jenna Scott", "pick Robot")
    assert t.s.controller[4] == 0 and t.s.controller[0] == 1 and t.s.controller[5] == 2


def test_each_player_takes_gear_and_one_marker_but_not_for_the_robot() -> None:
    t = standard(3, picks=[JENNA, NIKKE, ROBOT], random_char=JOHN)
    assert t.s.sheets[0:5] == [1, 0, 0, 0, 0] and t.s.sheets[5:10] == [0, 1, 0, 0, 0]
    assert sum(t.s.sheets[10:15]) == 0 and t.s.pool == [14, 14, 15, 15, 15]
    obs = t.game.observe(t.s, 2)
    assert sorted(obs["public"]["zones"]["gear"][ROBOT]["known"]) == hand_of(t.s, ROBOT)
