"""Audit: who sees what in the Messages phase (SP-INFO-5, decisions file "Who sees what")."""

from __future__ import annotations

import random

from games.shadow_planet.helpers import JOHN, RACHEL, REED, ROBOT, run_until, standard
from shadowtable.games.shadow_planet import state as M


def test_revealed_messages_cards_are_seen_by_everyone_then_removed_unseen() -> None:
    """ "Messages pile: ... revealed cards by all; the removed-from-game pile by nobody": the
    players must be able to tell which cards were revealed (the example reasons about the
    revealed Crying and Fight), although the removed pile itself stays a face-down count."""
    t = run_until(standard(3, picks=[JOHN, RACHEL, REED], random_char=ROBOT), "discard_message")
    t.do("discard Move (Move 1) #92", "discard Move (Move 1) #98", "discard Axe (Attack 1) #109")
    order = [116, 92, 98, 117, 120, 109]
    for k, card in enumerate(order):
        before = t.s
        for seat in (None, 0, 1, 2):
            assert t.game.words.event_text(before, card, seat) == f"reveal Messages: {t.game.ctx.content.short(card)}"
        t.reveal(card)
        if k < len(order) - 1:
            assert t.game.observe(t.s, 1)["public"]["reveal_cards"] == order[: k + 1]
    for seat in (None, 0, 1, 2):
        obs = t.game.observe(t.s, seat)
        assert obs["public"]["reveal_cards"] == order and obs["public"]["last_reveal"] == [3, 1, 0, 0, 2]
        assert obs["public"]["zones"]["removed"] == 6
        assert all(c not in obs["private"] for c in order)
    assert "Last Messages reveal: " in t.game.words.render(t.game.observe(t.s, 2))


def test_a_state_saved_without_reveal_cards_still_loads() -> None:
    t = standard(3)
    data = t.game.state_to_json(t.s)
    del data["reveal_cards"]
    assert t.game.state_from_json(data).reveal_cards == []


def test_determinize_keeps_revealed_messages_cards_in_the_removed_pile() -> None:
    t = run_until(standard(3, picks=[JOHN, RACHEL, REED], random_char=ROBOT), "discard_message")
    t.do("discard Move (Move 1) #92", "discard Move (Move 1) #98", "discard Axe (Attack 1) #109")
    t.reveal(116, 92, 98, 117, 120, 109)
    for seat in (None, 1):
        obs = t.game.observe(t.s, seat)
        for k in range(20):
            sampled = t.game.determinize(obs, random.Random(k))
            assert all(sampled.where[c] == M.REMOVED for c in obs["public"]["reveal_cards"])
            assert t.game.observe(sampled, seat) == obs
