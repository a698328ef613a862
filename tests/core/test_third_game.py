"""The third game of docs/architecture.md ("How to add a third game"), built on the kernel,
passes the whole conformance suite; the kernel's own promises hold on it."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import pytest

from shadowtable.core import IllegalActionError, Observation, make, register
from shadowtable.core.kernel import CHANCE_SEAT, Pending, task_kind
from shadowtable.core.registry import unregister
from shadowtable.testing import ConformanceFailure, check_game
from third_game import TinyStackGame
from third_game.game import KERNEL
from third_game.state import State
from third_game.tasks import DealCard, PlaceBet


@pytest.fixture
def tiny_stack() -> Iterator[None]:
    register(TinyStackGame)
    yield
    unregister("tiny-stack")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_third_game_passes_the_conformance_suite(tiny_stack: None, players: int) -> None:
    stats = check_game(lambda: make("tiny-stack", players=players), range(30))
    assert all(s.steps == 2 * players for s in stats)


def test_pending_names_the_seat_the_decision_and_only_the_shown_fields(tiny_stack: None) -> None:
    g = make("tiny-stack", players=3)
    s = g.initial_state()
    assert KERNEL.pending(s) == Pending(CHANCE_SEAT, "deal_card", "chance decides", "", {"seat": 0})
    for card in (4, 1, 2):
        s = g.apply(s, card)
    pending = KERNEL.pending(s)
    assert (pending.seat, pending.kind, pending.rule, pending.data) == (0, "place_bet", "bet", {"seat": 0})
    assert "Bet" in pending.prompt
    obs = g.observe(s, 1)
    assert obs["pending"] == pending.to_json() and obs["cards"] == [None, 1, None]


def test_apply_copies_once_and_never_changes_the_callers_state(tiny_stack: None) -> None:
    g = make("tiny-stack", players=2)
    s = g.initial_state()
    before = g.state_to_json(s)
    after = g.apply(s, 3)
    assert g.state_to_json(s) == before and after.cards[0] == 3 and after.stack is not s.stack
    with pytest.raises(IllegalActionError):
        g.apply(s, 7)
    assert g.state_to_json(s) == before


def test_tasks_are_named_fields_and_round_trip_through_json(tiny_stack: None) -> None:
    g = make("tiny-stack", players=2)
    s = g.apply(g.apply(g.initial_state(), 0), 1)
    assert s.stack[-1] == PlaceBet(seat=0) and task_kind(DealCard) == "deal_card"
    assert g.state_from_json(g.state_to_json(s)) == s


class OversharingTinyStack(TinyStackGame):
    """Broken: a new field (the raw task stack) reaches every observation without being on the
    allow-list; nothing secret in it, so only the schema can catch it."""

    SPEC = replace(TinyStackGame.SPEC, id="tiny-stack-oversharing")

    def observe(self, state: State, seat: int | None) -> Observation:
        return {**super().observe(state, seat), "stack": [task.to_json() for task in state.stack]}


def test_a_field_not_on_the_allow_list_fails_the_schema_check() -> None:
    register(OversharingTinyStack)
    try:
        with pytest.raises(ConformanceFailure, match="does not match its schema"):
            check_game(lambda: make("tiny-stack-oversharing", players=2), range(3))
    finally:
        unregister("tiny-stack-oversharing")


def test_the_schemas_ship_with_the_game_for_both_kinds() -> None:
    game = TinyStackGame(2)
    for kind in ("seat", "spectator"):
        schema = game.observation_schema(kind)
        assert schema is not None and schema["additionalProperties"] is False


def test_tuple_schemas_keep_their_meaning_for_the_fast_validator() -> None:
    from shadowtable.testing import _compile, _draft7

    schema = {"$schema": "x", "type": "array", "prefixItems": [{"type": "integer"}], "items": {"type": "string"}}
    assert _draft7(schema) == {"type": "array", "items": [{"type": "integer"}], "additionalItems": {"type": "string"}}
    check = _compile(schema)
    assert check is not None
    assert check([1, "a", "b"]) is None
    assert check(["a"]) is not None and check([1, 2]) is not None
