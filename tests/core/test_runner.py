"""The runner owns all randomness and only hands bots their observation."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest

from shadowtable.bots import RandomBot
from shadowtable.core import BotError, Game, GameRecord, RecordError, make, play_game
from shadowtable.core.rng import derive_seed, sample_outcome


class RecordingBot:
    name = "recording"

    def __init__(self) -> None:
        self.seen: list[dict[str, Any]] = []

    def choose(
        self, game: Game[Any], seat: int, observation: dict[str, Any], legal: Sequence[int], rng: random.Random
    ) -> int:
        self.seen.append(observation)
        return legal[0]


class IllegalBot(RecordingBot):
    def choose(
        self, game: Game[Any], seat: int, observation: dict[str, Any], legal: Sequence[int], rng: random.Random
    ) -> int:
        return 99


def test_bots_see_only_their_own_card_before_the_end() -> None:
    game = make("tiny-showdown", players=3)
    bots = [RecordingBot() for _ in range(3)]
    play_game(game, bots, seed=3)
    for seat, bot in enumerate(bots):
        assert bot.seen
        for obs in bot.seen:
            assert obs["seat"] == seat
            hidden = [c for i, c in enumerate(obs["cards"]) if i != seat]
            assert hidden == [None] * 2


def test_same_seed_same_record_different_seed_differs() -> None:
    game = make("tiny-showdown", players=4)
    records = [play_game(game, [RandomBot()] * 4, seed=s).actions for s in (1, 1, 2, 3, 4)]
    assert records[0] == records[1]
    assert any(r != records[0] for r in records[2:])


def test_the_global_random_is_untouched() -> None:
    random.seed(7)
    expected = random.random()
    random.seed(7)
    play_game(make("tiny-showdown", players=2), [RandomBot()] * 2, seed=11)
    assert random.random() == expected


def test_wrong_number_of_bots_and_illegal_bot_choice_are_errors() -> None:
    game = make("tiny-showdown", players=3)
    with pytest.raises(BotError, match="needs 3 bots"):
        play_game(game, [RandomBot()] * 2, seed=0)
    with pytest.raises(BotError, match="illegal action 99"):
        play_game(game, [IllegalBot(), RandomBot(), RandomBot()], seed=0)


def test_max_steps_truncates() -> None:
    record = play_game(make("tiny-showdown", players=3), [RandomBot()] * 3, seed=0, max_steps=4)
    assert record.truncated and record.returns is None and len(record.actions) == 4


def test_derived_seeds_are_stable_and_distinct() -> None:
    assert derive_seed(1, "chance") == derive_seed(1, "chance")
    assert len({derive_seed(1, "seat", s) for s in range(100)}) == 100
    assert derive_seed(1, "game", 0) != derive_seed(2, "game", 0)


def test_sample_outcome_follows_the_probabilities() -> None:
    rng = random.Random(0)
    counts = {0: 0, 1: 0}
    for _ in range(4000):
        counts[sample_outcome([(0, 0.25), (1, 0.75)], rng)] += 1
    assert 800 < counts[0] < 1200


def test_a_saved_session_resumes_exactly_like_an_uninterrupted_game() -> None:
    from shadowtable.core.runner import Session

    game = make("tiny-showdown", players=4)
    whole = play_game(game, [RandomBot()] * 4, seed=21)
    for cut in range(len(whole.actions)):
        partial = Session(game, [RandomBot()] * 4, seed=21)
        partial.run(max_steps=cut)
        saved = GameRecord.loads(partial.record().dumps())
        assert saved.truncated
        resumed = Session.resume(saved, [RandomBot()] * 4)
        resumed.run()
        assert resumed.record().actions == whole.actions


def test_session_waits_for_a_person_and_rejects_illegal_input() -> None:
    from shadowtable.core import IllegalActionError
    from shadowtable.core.runner import Session

    session = Session(make("tiny-showdown", players=2), [None, RandomBot()], seed=1)
    session.run()
    assert session.awaits_outside_decision() and session.current_player == 0
    before = list(session.actions)
    with pytest.raises(IllegalActionError):
        session.apply(5)
    assert session.actions == before
    session.apply(1)
    session.run()
    assert session.awaits_outside_decision() or session.is_over()


class ChoiceBot(RecordingBot):
    """Answers every decision with the same object, whatever it is."""

    def __init__(self, choice: object) -> None:
        super().__init__()
        self.choice = choice

    def choose(
        self, game: Game[Any], seat: int, observation: dict[str, Any], legal: Sequence[int], rng: random.Random
    ) -> int:
        assert 0 in legal and 1 in legal  # the tiny game's pass and raise: True and False would be taken
        return self.choice  # type: ignore[return-value]


@pytest.mark.parametrize("choice", [True, False, "1", 1.0], ids=repr)
def test_a_bot_choosing_what_is_not_an_integer_is_a_bot_error(choice: object) -> None:
    with pytest.raises(BotError, match="chose illegal action"):
        play_game(make("tiny-showdown", players=2), [ChoiceBot(choice), ChoiceBot(choice)], seed=1)


def test_a_bot_choosing_a_numpy_integer_is_recorded_as_a_plain_int() -> None:
    numpy = pytest.importorskip("numpy")
    record = play_game(make("tiny-showdown", players=2), [ChoiceBot(numpy.int64(1))] * 2, seed=1)
    assert record.actions and all(type(action) is int for action in record.actions)
    assert GameRecord.loads(record.dumps()) == record


@pytest.mark.parametrize("seed", [-1, 2**53, 10**30, True], ids=repr)
def test_a_seed_no_record_could_hold_is_refused(seed: int) -> None:
    with pytest.raises(RecordError, match="seed must be null or a whole number from 0 to 9007199254740991"):
        play_game(make("tiny-showdown", players=2), [RandomBot(), RandomBot()], seed=seed)
