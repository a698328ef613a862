"""Who sees what (SP-INFO-*): observations, remembered cards, determinize and render."""

from __future__ import annotations

import json
import random

from games.shadow_planet.helpers import JOHN, MELITA, RACHEL, REED, ROBOT, controlling, run_until, standard
from shadowtable.games.shadow_planet.state import zone_index


def test_own_objective_only_until_the_end() -> None:
    t = standard(3)
    for seat in range(3):
        objectives = t.game.observe(t.s, seat)["public"]["objectives"]
        assert objectives[seat] == t.s.objectives[seat]
        assert all(o is None for i, o in enumerate(objectives) if i != seat)
    assert t.game.observe(t.s, None)["public"]["objectives"] == [None, None, None]


def test_hand_is_seen_by_its_controller_and_played_cards_by_everyone() -> None:
    t = controlling(JOHN, others=[RACHEL, REED])
    assert sorted(t.game.observe(t.s, 0)["public"]["zones"]["gear"][JOHN]["known"]) == list(range(92, 98))
    assert t.game.observe(t.s, 1)["public"]["zones"]["gear"][JOHN]["known"] == []
    t.do("play Move (Move 1) #92")
    assert t.game.observe(t.s, 1)["public"]["zones"]["played"][JOHN] == [92]


def test_searched_cards_stay_known_while_in_place_and_are_forgotten_when_moved() -> None:
    t = controlling(JOHN, others=[RACHEL, REED])
    t.do("done", "play Search (Search 1) #95", "done")
    t.reveal(9, 10)
    t.do("place Search (Search 1) #10")  # John keeps 9 on top after drawing 10
    assert t.game.observe(t.s, 0)["public"]["zones"]["decks"][MELITA]["top"] == [9]
    assert t.game.observe(t.s, 1)["public"]["zones"]["decks"][MELITA]["top"] == [None]
    assert 10 not in t.game.observe(t.s, 1)["public"]["zones"]["gear"][JOHN]["known"]
    run_until(t, "discard_message")
    # someone else drew or discarded the top card: once moved, it is no longer shown as known
    if t.s.where[9] != MELITA:
        assert 9 not in t.game.observe(t.s, 0)["public"]["zones"]["decks"][MELITA]["top"]


def test_determinize_keeps_everything_the_seat_knows() -> None:
    t = controlling(JOHN, others=[RACHEL, REED])
    t.do("done", "play Search (Search 1) #95", "done")
    t.reveal(9, 10)
    for seat in (None, 0, 1, 2):
        obs = t.game.observe(t.s, seat)
        for k in range(5):
            sampled = t.game.determinize(obs, random.Random(k))
            assert t.game.observe(sampled, seat) == obs
            assert not t.game.conservation_errors(sampled)
            assert all(sampled.where[c] == d for d in range(4) for c in sampled.top[d])
            home = t.game.ctx.content.card_home
            assert all(home[c] == z for c, z in enumerate(sampled.where) if z < 4)
    sampled = t.game.determinize(t.game.observe(t.s, 0), random.Random(3))
    assert t.game.legal_actions(sampled) == t.game.legal_actions(t.s)


def test_states_differing_only_in_hidden_cards_look_the_same() -> None:
    a = controlling(JOHN, others=[RACHEL, REED])
    b = controlling(JOHN, others=[RACHEL, REED])
    hidden_a = [c for c, z in enumerate(a.s.where) if z == 1][:2]
    b.s.where[hidden_a[0]], b.s.where[hidden_a[1]] = 1, 1  # same E/Rico multiset: nothing differs yet
    b.s.zones = zone_index(b.s.where)
    assert a.game.observe(a.s, 1) == b.game.observe(b.s, 1)
    c = controlling(JOHN, others=[RACHEL, REED])
    c.s.objectives[2], c.s.objectives[1] = c.s.objectives[1], c.s.objectives[2]
    assert a.game.observe(a.s, 0) == c.game.observe(c.s, 0)


def test_render_shows_only_the_observation() -> None:
    t = controlling(JOHN, others=[RACHEL, REED])
    text1 = t.game.words.render(t.game.observe(t.s, 1))
    assert "Smoking" not in text1 and "Fight" not in text1  # John's hand is hidden from seat 1
    text0 = t.game.words.render(t.game.observe(t.s, 0))
    assert "Smoking" in text0 and "Countdown 12" in text0


def test_observation_is_json_and_hides_unseen_draft_cards() -> None:
    t = standard(3, picks=[JOHN, RACHEL, REED], random_char=ROBOT)
    assert json.loads(json.dumps(t.game.observe(t.s, 2))) == t.game.observe(t.s, 2)


def test_illegal_notation_is_rejected_without_leaking() -> None:
    t = controlling(JOHN, others=[RACHEL, REED])
    import pytest

    from shadowtable.core import IllegalActionError, InvalidActionError

    with pytest.raises(IllegalActionError) as err:
        t.game.words.parse_action(t.s, "play Space Suit (Move 5) #20")
    assert "E/Rico" not in str(err.value)
    with pytest.raises(InvalidActionError):
        t.game.words.parse_action(t.s, "fly to the moon")


def test_a_number_that_is_not_a_seat_is_refused() -> None:
    """``observe(state, -1)`` used to index the last seat's private view."""
    import pytest

    from shadowtable.core import InvalidSeatError, make

    g = make("shadow-planet", players=4)
    s = g.initial_state()
    for bad in (-1, -4, 4, 10**40, True):
        with pytest.raises(InvalidSeatError, match="seat must be between 0 and 3"):
            g.observe(s, bad)
