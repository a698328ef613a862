"""Protocol details beyond the generic suite: notation, JSON errors, hidden-card swaps."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from games.shadow_planet.helpers import JOHN, RACHEL, REED, controlling
from shadowtable.core import CHANCE, TERMINAL, StateFormatError, make
from shadowtable.games.shadow_planet import actions as A
from shadowtable.games.shadow_planet import state as M
from shadowtable.games.shadow_planet.notation import decision_from_str, decision_to_str
from shadowtable.games.shadow_planet.tasks import GiveRobotCard, ReturnScrapCard


def test_every_decision_id_has_notation_that_parses_back() -> None:
    t = controlling(JOHN, others=[RACHEL, REED])
    rules = t.game.ctx
    texts = set()
    for action in range(A.NUM_ACTIONS):
        text = decision_to_str(rules, t.s, action)
        texts.add(text.lower())
        assert decision_from_str(rules, text) == action, text
    assert len(texts) == A.NUM_ACTIONS


def test_state_from_json_rejects_malformed_data() -> None:
    game = make("shadow-planet", players=3)
    data = game.state_to_json(game.initial_state())
    for broken in (
        {**data, "where": 5},
        {k: v for k, v in data.items() if k != "stack"},
        {**data, "stack": [{"task": "no_such_task"}]},
        {**data, "round": "x"},
    ):
        with pytest.raises(StateFormatError):
            game.state_from_json(broken)
    with pytest.raises(StateFormatError):
        make("shadow-planet", players=4).state_from_json(data)


def random_states(players: int, seed: int, every: int = 7) -> list[object]:
    game = make("shadow-planet", players=players)
    rng = random.Random(seed)
    state = game.initial_state()
    out = []
    step = 0
    while game.current_player(state) != TERMINAL:
        if step % every == 0:
            out.append(state)
        legal = game.legal_actions(state)
        state = game.apply(state, legal[rng.randrange(len(legal))])
        step += 1
    return out


@pytest.mark.parametrize("players", [3, 4, 5])
def test_swapping_two_cards_a_seat_cannot_see_leaves_its_observation_unchanged(players: int) -> None:
    game = make("shadow-planet", players=players)
    rng = random.Random(players)
    checked = 0
    for state in random_states(players, players):
        s = state  # type: ignore[assignment]
        for seat in range(players):
            mask = s.public | s.known[seat]  # type: ignore[attr-defined]
            hidden = [c for c in range(121) if not (mask >> c) & 1 and s.where[c] >= M.MSG]  # type: ignore[attr-defined]
            pairs = [(a, b) for a in hidden for b in hidden if s.where[a] != s.where[b]]  # type: ignore[attr-defined]
            if not pairs or game.current_player(s) == CHANCE:
                continue
            a, b = rng.choice(pairs)
            swapped = s.copy()  # type: ignore[attr-defined]
            for zone_list in (swapped.temple,):
                for i, card in enumerate(zone_list):
                    zone_list[i] = b if card == a else a if card == b else card
            swapped.where[a], swapped.where[b] = s.where[b], s.where[a]  # type: ignore[attr-defined]
            swapped.zones = M.zone_index(swapped.where)  # type: ignore[attr-defined]
            for i, task in enumerate(swapped.stack):
                if isinstance(task, ReturnScrapCard) and task.given in (a, b):
                    swapped.stack[i] = replace(task, given=b if task.given == a else a)
                if isinstance(task, GiveRobotCard) and task.taken in (a, b):
                    swapped.stack[i] = replace(task, taken=b if task.taken == a else a)
            assert game.observe(swapped, seat) == game.observe(s, seat)
            checked += 1
    assert checked > 20


def test_rules_help_quotes_the_rulebook_for_each_decision_kind() -> None:
    from shadowtable.bots import RandomBot
    from shadowtable.core import make
    from shadowtable.core.runner import Session

    game = make("shadow-planet", players=4)
    session = Session(game, [RandomBot()] * 4, seed=3)
    seen: dict[str, str] = {}
    while not session.is_over():
        if session.current_player >= 0:
            observation = game.observe(session.state, session.current_player)
            seen[observation["pending"]["kind"]] = game.words.rules_help(observation)
        session.step()
    assert seen["pick_character"].startswith("Playing a Round > 1. Control Phase")
    assert "II. Search" in seen["reorder"] and "III. Get" in seen["play_get_cards"]
    assert "must discard 1 card face-down" in seen["discard_message"]
    assert all(text for text in seen.values()), [k for k, v in seen.items() if not v]


def test_every_decision_names_a_rule_and_says_what_is_decided() -> None:
    from shadowtable.core.kernel import Decision
    from shadowtable.core.rules_help import load_rules_help
    from shadowtable.games.shadow_planet.rules import RULEBOOK

    rules = load_rules_help("shadowtable.games.shadow_planet")["rules"]
    decisions = [h for h in RULEBOOK.handlers.values() if isinstance(h, Decision)]
    assert len(decisions) == 29
    for handler in decisions:
        assert handler.rule in rules and len(handler.prompt) > 20 and handler.shown[0] == "seat"
