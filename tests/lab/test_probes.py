"""Restricted play changes play only for the probed role, and only by removing that kind of action."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import Any

from tests.lab.helpers import planet_spec

from shadowtable.core.game import Game, Observation
from shadowtable.core.record import GameRecord
from shadowtable.core.registry import make
from shadowtable.lab.kinds import action_kinds, game_kinds, kind_of
from shadowtable.lab.restricted import RestrictedBot
from shadowtable.lab.run import replay_record
from shadowtable.lab.spec import check_spec

PLAY = "play a card from your hand"


class Recorder:
    """A bot that takes the first action it is given and remembers what it was given."""

    name = "recorder"

    def __init__(self) -> None:
        self.given: list[list[int]] = []

    def choose(
        self, game: Game[Any], seat: int, observation: Observation, legal: Sequence[int], rng: random.Random
    ) -> int:
        self.given.append(list(legal))
        return legal[0]


def _kinds() -> Any:
    kinds = game_kinds("shadow-planet")
    assert kinds is not None
    return kinds


def _play_ids(kinds: Any) -> list[int]:
    return [a for a in range(kinds.size) if kinds.of(a) == PLAY][:3]


def test_the_wrapper_removes_the_kind_only_for_its_seat_and_only_when_another_choice_is_left() -> None:
    kinds = _kinds()
    game = make("shadow-planet", players=3)
    plays = _play_ids(kinds)
    done = next(a for a in range(kinds.size) if kinds.of(a) == "end the step or stop moving")
    inner = Recorder()
    bot = RestrictedBot(inner, kinds, "seat 1", PLAY)
    rng = random.Random(0)
    assert bot.choose(game, 0, {}, [*plays, done], rng) == plays[0]  # another seat: unchanged
    assert bot.choose(game, 1, {}, [*plays, done], rng) == done
    assert bot.choose(game, 1, {}, plays, rng) == plays[0]  # nothing else is legal: unchanged
    assert inner.given == [[*plays, done], [done], plays]


def test_a_role_is_read_from_the_seats_own_observation() -> None:
    kinds = _kinds()
    game = make("shadow-planet", players=3)
    plays = _play_ids(kinds)
    bot = RestrictedBot(Recorder(), kinds, "alien", PLAY)
    objectives = game.words.reference()["objectives"]
    alien_objective = next(i for i, o in enumerate(objectives) if o["role"] == "alien")
    unseen = {"public": {"objectives": [None, None, None]}}
    dealt = {"public": {"objectives": [None, alien_objective, None]}}
    assert bot.allowed(game, 1, unseen, [*plays, 0]) == [*plays, 0]
    assert bot.allowed(game, 1, dealt, [*plays, 0]) == [0]
    assert bot.allowed(game, 0, dealt, [*plays, 0]) == [*plays, 0]


def decisions(record: GameRecord) -> Iterator[tuple[int, int, Observation, list[int], int]]:
    """``(step, seat, its observation, legal actions, action taken)`` for every decision of a record."""
    game = make(record.game, players=record.players, **record.options)
    state = game.initial_state()
    for step, action in enumerate(record.actions):
        seat = game.current_player(state)
        if seat >= 0:
            yield step, seat, game.observe(state, seat), list(game.legal_actions(state)), action
        state = game.apply(state, action)


def test_a_probed_game_follows_the_baseline_until_the_role_first_avoids_the_kind() -> None:
    spec = check_spec(planet_spec(games=3, probes=[{"role": "alien", "kind": PLAY}]))
    kinds = _kinds()
    game = make("shadow-planet", players=3)
    restricted_somewhere = False
    for index in range(spec.games):
        base, probed = replay_record(spec, 0, index), replay_record(spec, 1, index)
        first_restricted = None
        for step, seat, observation, legal, action in decisions(probed):
            is_alien = kinds.role_of(game, observation, seat) == "alien"
            others = [a for a in legal if kinds.of(a) != PLAY]
            if is_alien and others and len(others) < len(legal):
                assert kinds.of(action) != PLAY
                first_restricted = step if first_restricted is None else first_restricted
        cut = len(probed.actions) if first_restricted is None else first_restricted
        assert probed.actions[:cut] == base.actions[:cut]
        restricted_somewhere |= first_restricted is not None
        if first_restricted is None:
            assert probed == base
    assert restricted_somewhere


def test_kinds_use_the_table_pages_group_labels() -> None:
    record = replay_record(check_spec(planet_spec(games=1)), 0, 0)
    game = make("shadow-planet", players=3)
    state = game.initial_state()
    labelled = 0
    for action in record.actions:
        if game.current_player(state) >= 0:
            for legal in game.legal_actions(state):
                label = game.words.action_group(state, legal)
                if label is not None:
                    assert kind_of(game, state, legal) == label
                    labelled += 1
        state = game.apply(state, action)
    assert labelled > 0
    assert PLAY in action_kinds("shadow-planet")
    assert "propose a Truce" in action_kinds("shadowlord")
