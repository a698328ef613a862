"""The conformance suite must fail on games that break the protocol."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from shadowtable.core import Game, make, register
from shadowtable.core.registry import unregister
from shadowtable.testing import ConformanceFailure, check_game, check_replay
from tiny_game import (
    BoolTakingTinyGame,
    ChattyTinyGame,
    DiscardTinyGame,
    DriftingTinyGame,
    EventTellingTinyGame,
    IllegalAcceptingTinyGame,
    InPlaceBoolTakingTinyGame,
    LeakyTinyGame,
    MutatingTinyGame,
    SeatTrustingTinyGame,
    TinyGame,
    TrueStateWordingTinyGame,
)


@pytest.fixture
def registered() -> Iterator[Any]:
    added: list[str] = []

    def add(cls: type[Game[Any]]) -> type[Game[Any]]:
        register(cls)
        added.append(cls.SPEC.id)
        return cls

    yield add
    for gid in added:
        unregister(gid)


def test_the_sound_tiny_game_passes(registered: Any) -> None:
    stats = check_game(lambda: make("tiny-showdown", players=3), range(20))
    assert len(stats) == 20


def test_the_sound_discard_game_passes(registered: Any) -> None:
    registered(DiscardTinyGame)
    stats = check_game(lambda: make("tiny-discard", players=3), range(40))
    assert len(stats) == 40


@pytest.mark.parametrize(
    ("variant", "symptom"),
    [
        (MutatingTinyGame, "mutated its input"),
        (LeakyTinyGame, "observation of a determinized state differs"),
        (DriftingTinyGame, "different records|replay"),
        (IllegalAcceptingTinyGame, "illegal action"),
        (BoolTakingTinyGame, "was accepted: only an integer is an action"),
        (InPlaceBoolTakingTinyGame, r"apply_in_place\(.+\) was accepted: only an integer is an action"),
        (ChattyTinyGame, "indistinguishable actions"),
        (TrueStateWordingTinyGame, "a log line or event reveals what the reader does not know"),
        (EventTellingTinyGame, "a log line or event reveals what the reader does not know"),
        (SeatTrustingTinyGame, "accepted seat -1"),
    ],
    ids=[
        "mutates-input",
        "leaks-hidden-cards",
        "replays-differently",
        "accepts-illegal",
        "takes-true-as-1",
        "takes-true-as-1-in-place",
        "log-leaks-cards",
        "log-worded-from-true-state",
        "event-tells-hidden-cards",
        "trusts-seat-numbers",
    ],
)
def test_broken_variant_fails_the_suite(registered: Any, variant: type[TinyGame], symptom: str) -> None:
    registered(variant)
    gid = variant.SPEC.id
    with pytest.raises(ConformanceFailure, match=symptom):
        check_game(lambda: make(gid, players=3), range(40))


def test_a_game_that_replays_differently_fails_the_replay_check(
    registered: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    registered(DriftingTinyGame)
    # past the one game that starts clean, whether or not another test made it in this process
    monkeypatch.setattr(DriftingTinyGame, "games_made", 1)
    with pytest.raises(ConformanceFailure, match="replay does not reach the identical final state"):
        check_replay(make("tiny-drifting", players=3), 7)
