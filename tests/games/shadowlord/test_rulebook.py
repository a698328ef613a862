"""The rulebook table, typed tasks and the engine loop: every task kind has one declared rule,
decisions say in words what is decided, states round-trip with their tasks, and ``apply``
never writes onto the caller's state."""

from __future__ import annotations

import inspect
import json
import random
from dataclasses import fields

from shadowtable.core import CHANCE
from shadowtable.core.kernel import Automatic, Chance, Decision, task_kind
from shadowtable.core.rules_help import load_rules_help
from shadowtable.games.shadowlord import tasks
from shadowtable.games.shadowlord.rules import KERNEL, RULEBOOK
from shadowtable.games.shadowlord.tasks import Build, ChanceNode, ProposeTruce, SeatDecision

from .helpers import RED, G, board, game, pending, put, warrior


def task_types() -> list[type[tasks.Task]]:
    abstract = {tasks.Task, SeatDecision, ChanceNode, tasks.Draw, tasks.D8Roll}
    return [
        t
        for _, t in inspect.getmembers(tasks, inspect.isclass)
        if issubclass(t, tasks.Task) and t.__module__ == tasks.__name__ and t not in abstract
    ]


def test_every_task_kind_has_exactly_one_rule_of_its_nature() -> None:
    assert set(task_types()) == set(RULEBOOK.handlers)
    for task_type, handler in RULEBOOK.handlers.items():
        if issubclass(task_type, SeatDecision):
            assert isinstance(handler, Decision), task_type
        elif issubclass(task_type, ChanceNode):
            assert isinstance(handler, Chance), task_type
        else:
            assert isinstance(handler, Automatic), task_type


def test_every_decision_has_a_prompt_a_rule_and_public_fields_it_really_has() -> None:
    help_data = load_rules_help("shadowtable.games.shadowlord")
    for task_type, handler in RULEBOOK.handlers.items():
        names = {f.name for f in fields(task_type)}
        if isinstance(handler, Chance):
            assert set(handler.shown) <= names, task_type
        if isinstance(handler, Decision):
            assert set(handler.shown) <= names - {"seat"}, task_type  # the seat is Pending.seat
            assert len(handler.prompt) > 20 and ":" in handler.prompt, task_type
            assert handler.rule in help_data["rules"], task_type
            assert help_data["modes"][task_kind(task_type)] == handler.rule, task_type


def test_kinds_keep_their_names_in_data() -> None:
    assert task_kind(ProposeTruce) == "propose_truce" and task_kind(tasks.PlaceDefender) == "place_defender"
    assert ProposeTruce(0, 2).to_json() == {"task": "propose_truce", "seat": 0, "battle": 2}
    assert RULEBOOK.task_from_json({"task": "enlist", "seat": 1, "figure": 14, "galaxy": 6, "discovered": True}) == (
        tasks.Enlist(1, 14, 6, True)
    )


def test_pending_says_who_decides_what_in_words_and_only_the_shown_fields() -> None:
    g = game(4)
    s = board(g)
    put(s, warrior(RED), G(1, 1), ships=1)
    s = pending(g, s, Build(0))
    obs = g.observe(s, 2)
    assert obs["pending"] == KERNEL.pending(s).to_json()
    assert obs["pending"]["seat"] == 0 and obs["pending"]["kind"] == "build"
    assert obs["pending"]["prompt"].startswith("Build: place Space Ships")
    assert obs["pending"]["rule"] == "build" and obs["pending"]["data"] == {}
    assert "Step 3 - Building Space Ships" in g.words.rules_help(obs)
    assert "stack" not in obs["public"] and obs["tasks"][-1] == {"task": "build", "seat": 0}


def test_apply_lists_into_the_new_state_only_and_states_round_trip_with_their_tasks() -> None:
    g = game(3)
    rng = random.Random(3)
    s = g.initial_state()
    for _ in range(300):
        if g.is_terminal(s):
            break
        before = json.dumps(g.state_to_json(s), sort_keys=True)
        cached = s.legal
        outcomes = g.chance_outcomes(s)
        action = outcomes[0][0] if g.current_player(s) == CHANCE else rng.choice(g.legal_actions(s))
        after = g.apply(s, action)
        assert s.legal is cached and json.dumps(g.state_to_json(s), sort_keys=True) == before
        assert after.legal == g.kernel.legal_actions(g.ctx, after)
        rebuilt = g.state_from_json(json.loads(json.dumps(g.state_to_json(after))))
        assert rebuilt.stack == after.stack and rebuilt.legal is None
        assert g.legal_actions(rebuilt) == g.legal_actions(after)
        s = after
