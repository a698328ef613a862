"""Audit: Character abilities against the decisions file (SP-AB-*, SP-D-BOARD-CAVES)."""

from __future__ import annotations

from games.shadow_planet.helpers import CAVES, HILL, JOHN, RACHEL, REED, ROBOT, autopilot, kind, place, standard


def test_reeds_free_move_does_not_leave_the_caves_without_a_vehicle() -> None:
    """Reed's free move goes "to the Hill and then into the Graveyard"; from the Caves that is
    the Caves - Hill Link, which "may only be used by a Character driving or riding a Vehicle"
    (decisions file, Board).  With the option off the Link is open and so is the free move."""
    for option, offered in ((True, False), (False, True)):
        t = standard(3, picks=[REED, RACHEL, JOHN], random_char=ROBOT, caves_vehicle_only=option)
        place(t.s, REED, CAVES)
        autopilot(t, REED)
        assert (kind(t.s) == "move_for_free") is offered
        if offered:
            t.do("use ability")
            assert (t.s.char_loc[REED], t.s.char_section[REED]) == (HILL, 5)
        else:
            assert kind(t.s) == "play_move_cards" and t.s.char_loc[REED] == CAVES and t.s.bonus == 2
