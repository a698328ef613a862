"""Audit: the Messages from the Shadows consequences, in the directions the rulebook gives (SP-MSG-4..6)."""

from __future__ import annotations

from games.shadow_planet.helpers import JOHN, RACHEL, REED, ROBOT, kind, run_until, standard


def test_more_get_advances_threat_more_repair_advances_repair_more_search_moves_countdown_back() -> None:
    """3 Search, 2 Get, 1 Repair: Threat +2 (advances), Repair -1 (advances: easier), Countdown
    +3 (moves back, below its maximum), then the Countdown's own advance of 1."""
    t = run_until(standard(3, picks=[JOHN, RACHEL, REED], random_char=ROBOT), "discard_message")
    t.s.countdown, t.s.threat, t.s.repair = 8, 2, 5
    t.do("discard Smoking (Search 2) #96", "discard Crying (Get 1) #102", "discard Search (Search 1) #107")
    t.reveal(117, 96, 107, 118, 102, 119)  # counted by icon: Smoking's value 2 counts once
    assert t.s.last_reveal == [0, 3, 2, 1, 0]
    assert (t.s.threat, t.s.repair, t.s.countdown) == (4, 4, 10)
    assert t.s.trajectory[-1] == [10, 4, 4] and kind(t.s) == "draw_draft_card"
