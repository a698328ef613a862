"""Audit: end-game award arithmetic and identity assignment (SP-END-*, SP-D-PROC-7)."""

from __future__ import annotations

from games.shadow_planet.helpers import JENNA, JOHN, NIKKE, RACHEL, REED, Table, advance, give, kind, standard
from shadowtable.games.shadow_planet import state as M
from shadowtable.games.shadow_planet.board import move_card
from shadowtable.games.shadow_planet.tasks import MatchIdentities


def ended(players: int, objectives: list[int], reason: int, **opts: object) -> Table:
    """An end-of-game position built by editing: Objectives, no Markers, empty Gear everywhere."""
    t = standard(players, identity_ties="lowest_initiative", **opts)
    s = t.s
    s.objectives = objectives
    s.removed_objectives = [o for o in range(1, 5) if o not in objectives][: 5 - players]
    s.sheets, s.pool = [0] * (5 * players), [15] * 5
    for card in range(121):
        if s.where[card] >= M.GEAR0:
            move_card(s, card, M.REMOVED)
    s.latched, s.stack = reason, [MatchIdentities(0)]
    return t


def finish(t: Table) -> dict[str, object]:
    advance(t)
    assert kind(t.s) == "over"
    out: dict[str, object] = t.game.observe(t.s, None)["outcome"]
    return out


def test_unmatched_characters_gear_counts_for_the_astronauts_when_the_guardian_is_missing() -> None:
    # seats: Commander, Alien, Lieutenant -> Nikke, Jenna, John; Reed is the phantom Guardian,
    # Rachel (unmatched) is an Astronaut: her Repair and Attack count for the Astronauts.
    t = ended(3, [1, 0, 2], M.END_COUNTDOWN)
    t.s.repair, t.s.threat = 1, 1
    give(t.s, 36, RACHEL)  # Spare Parts (Repair)
    give(t.s, 55, RACHEL)  # Pickaxe (Attack)
    give(t.s, 56, REED)  # the phantom Guardian's Attack does not count
    out = finish(t)
    assert t.s.identity == [NIKKE, JENNA, JOHN]
    assert out["phantom_guardian"] == "Reed Robinson" and out["astronaut_repair"] == 1
    assert out["astronaut_attack"] == 1 and out["winning_role"] == "astronaut"
    assert t.game.returns(t.s) == [1.0, 0.0, 1.0]


def test_phantom_guardian_winning_on_threat_makes_every_player_lose() -> None:
    t = ended(4, [1, 0, 2, 3], M.END_THREAT | M.END_COUNTDOWN)
    out = finish(t)
    assert out["reason"] == "threat" and out["winning_role"] == "guardian"
    assert t.game.returns(t.s) == [0.0, 0.0, 0.0, 0.0]


def test_with_the_guardian_in_play_an_unmatched_characters_gear_is_ignored() -> None:
    # 4 players: Guardian, Alien, Commander, Lieutenant; Reed stays unmatched and counts for nobody.
    t = ended(4, [4, 0, 1, 2], M.END_COUNTDOWN)
    t.s.repair = 1
    give(t.s, 36, REED)
    out = finish(t)
    assert t.s.identity == [RACHEL, JENNA, NIKKE, JOHN] and out["phantom_guardian"] is None
    assert out["astronaut_repair"] == 0 and out["winning_role"] == "guardian"
    assert t.game.returns(t.s) == [1.0, 0.0, 0.0, 0.0]


def test_ray_gun_counts_one_attack_in_the_aliens_gear_and_messages_one_get_for_astronauts() -> None:
    # Repair end: the Guardian loses.  Alien (Jenna): Ray Gun + Green Fog: 1 Get vs 1 Attack, Threat stays 3.
    # Commander (Nikke): Messages (no use to an Astronaut) and two plain Attack: 2 < 3.
    t = ended(3, [4, 0, 1], M.END_REPAIR)
    t.s.threat, t.s.repair = 3, 0
    give(t.s, 74, JENNA)  # Ray Gun in the Alien's Gear: one Attack
    give(t.s, 32, JENNA)  # Green Fog (Get)
    give(t.s, 31, NIKKE)  # Messages in an Astronaut's Gear: irrelevant
    give(t.s, 55, NIKKE)
    give(t.s, 56, NIKKE)
    out = finish(t)
    assert out["alien_get"] == 1 and out["alien_attack"] == 1 and out["final_threat"] == 3
    assert out["astronaut_attack"] == 2 and out["winning_role"] == "alien"
    assert t.game.returns(t.s) == [0.0, 1.0, 0.0]


def test_aliens_repair_cards_do_not_count_for_the_repair_check() -> None:
    t = ended(3, [4, 0, 1], M.END_COUNTDOWN)
    t.s.repair, t.s.threat = 2, 0
    give(t.s, 36, JENNA)  # the Alien's Repair cards
    give(t.s, 66, JENNA)
    give(t.s, 114, NIKKE)  # Help (Repair): one for the Astronauts
    out = finish(t)
    assert out["astronaut_repair"] == 1 and out["winning_role"] == "guardian"
    assert t.game.returns(t.s) == [1.0, 0.0, 0.0]


def test_astronauts_reaching_exactly_the_repair_and_threat_values_win() -> None:
    t = ended(5, [4, 0, 1, 2, 3], M.END_COUNTDOWN)
    t.s.repair, t.s.threat = 2, 4
    give(t.s, 97, JENNA)  # Alien (Jenna): 1 Attack, 0 Get: Threat back to 3
    give(t.s, 36, NIKKE)  # Commander
    give(t.s, 66, JOHN)  # Lieutenant
    give(t.s, 67, JOHN)  # Frozen Part: no Repair for an Astronaut
    give(t.s, 55, JOHN)
    give(t.s, 74, RACHEL)  # Sergeant: Ray Gun, two Attack
    out = finish(t)
    assert t.s.identity == [REED, JENNA, NIKKE, JOHN, RACHEL]
    assert out["astronaut_repair"] == 2 and out["final_threat"] == 3 and out["astronaut_attack"] == 3
    assert out["winning_role"] == "astronaut"
    assert t.game.returns(t.s) == [0.0, 0.0, 1.0, 1.0, 1.0]


def test_identity_priority_order_uses_fewest_markers_among_still_available_characters() -> None:
    # Alien (seat 2) takes Rachel (no white); the Commander (seat 0) would also want Rachel
    # but must take the fewest among the rest; the Guardian (seat 1) gets what is left.
    t = standard(3, identity_ties="lowest_initiative")
    s = t.s
    s.objectives, s.removed_objectives = [1, 4, 0], [2, 3]
    rows = {0: [3, 2, 2, 0, 1], 1: [0, 0, 0, 0, 0], 2: [1, 1, 1, 0, 1]}
    for seat, row in rows.items():
        s.sheets[seat * 5 : seat * 5 + 5] = row
    s.pool = [15 - sum(s.sheets[seat * 5 + col] for seat in range(3)) for col in range(5)]
    s.latched = M.END_REPAIR
    advance(t, MatchIdentities(0))
    assert s.identity == [REED, JENNA, RACHEL]
