"""ISMCTS with a prior: paired root sweeps, the significance rule, and cut-off evaluation."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from types import SimpleNamespace
from typing import Any

import pytest

from shadowtable.bots import make_bot
from shadowtable.bots.evaluation import evaluator, evaluators_for, material_shares, register_evaluator
from shadowtable.bots.ismcts import (
    SAME_AS_BASELINE_SWEEPS,
    ISMCTSBot,
    paired_decision,
    paired_differences,
    surviving_actions,
)
from shadowtable.core import BotError, Game, Observation, make, play_game

from .spy_game import SpiedBot

PASS, RAISE = 0, 1


class FirstLegal:
    """A prior that always plays the lowest legal action (passing, in the tiny game)."""

    name = "first"

    def choose(
        self, game: Game[Any], seat: int, observation: Observation, legal: Sequence[int], rng: random.Random
    ) -> int:
        return legal[0]


class ValueBlindPaired(ISMCTSBot):
    """Broken on purpose: rollouts score every seat the same, so no action looks better."""

    def rollout(self, game: Any, state: Any, rng: random.Random) -> list[float]:
        return [0.5] * game.players


def _last_round_observation(card: int) -> tuple[Any, dict[str, Any]]:
    game = make("tiny-showdown", players=2, rounds=1)  # raising is strictly better than passing here
    state = game.apply(game.apply(game.initial_state(), card), 0)
    return game, game.observe(state, 0)


def test_paired_differences_mean_and_standard_error() -> None:
    samples = {0: [0.0, 0.0, 0.0, 0.0], 1: [1.0, 0.0, 1.0, 1.0]}
    mean, error = paired_differences(samples, 1, 0)
    assert mean == pytest.approx(0.75)
    assert error == pytest.approx(math.sqrt(0.25 / 4))
    assert paired_differences({0: [0.3], 1: [0.6]}, 1, 0) == (pytest.approx(0.3), math.inf)


def test_paired_decision_leaves_the_baseline_only_for_a_significant_advantage() -> None:
    clear = {0: [0.0] * 6, 1: [1.0, 1.0, 1.0, 1.0, 0.0, 1.0], 2: [1.0, 0.0, 0.0, 0.0, 0.0, 0.0]}
    assert paired_decision(clear, baseline=0, confidence=1.5) == 1
    assert paired_decision(clear, baseline=0, confidence=10.0) == 0
    noisy = {0: [0.0, 1.0, 0.0, 1.0], 1: [1.0, 0.0, 1.0, 0.0]}
    assert paired_decision(noisy, baseline=0, confidence=1.0) == 0
    assert paired_decision({0: [0.5] * 5, 1: [0.4] * 5}, baseline=0, confidence=0.0) == 0


def test_surviving_actions_drop_the_clearly_worse_but_never_the_baseline() -> None:
    samples = {0: [0.0] * 5, 1: [1.0] * 5, 2: [0.9, 1.0, 1.0, 1.0, 1.0], 3: [0.1] * 5}
    assert surviving_actions(samples, [0, 1, 2, 3], baseline=0, confidence=1.5) == [0, 1, 2]


def test_a_prior_builds_from_its_spec_and_bad_confidence_is_refused() -> None:
    bot = make_bot("ismcts:iterations=40:prior=random:confidence=2")
    assert bot.prior.name == "random" and bot.confidence == 2.0
    with pytest.raises(BotError):
        make_bot("ismcts:prior=random:confidence=-1")
    with pytest.raises(BotError):
        make_bot("ismcts:prior=nobody")


@pytest.mark.parametrize("card", [0, 2, 4])
def test_the_search_overrules_a_prior_that_passes_when_raising_is_better(card: int) -> None:
    game, observation = _last_round_observation(card)
    bot = ISMCTSBot(iterations=200, prior=FirstLegal())
    assert bot.choose(game, 0, observation, [PASS, RAISE], random.Random(card)) == RAISE


def test_with_no_evidence_the_prior_move_is_kept() -> None:
    game, observation = _last_round_observation(3)
    bot = ValueBlindPaired(iterations=200, prior=FirstLegal())
    assert bot.choose(game, 0, observation, [PASS, RAISE], random.Random(3)) == PASS


def test_sweeps_share_determinization_and_seed_so_equal_actions_tie_exactly() -> None:
    game, observation = _last_round_observation(1)
    bot = ISMCTSBot(iterations=100, prior=FirstLegal())
    samples = bot.paired_search(game, 0, observation, [PASS, RAISE], PASS, random.Random(0))
    assert len(samples[PASS]) == len(samples[RAISE]) == 50  # one iteration per action per sweep
    assert all(raised >= passed for raised, passed in zip(samples[RAISE], samples[PASS], strict=True))


def test_paired_play_is_reproducible_and_spied_bots_see_only_their_observations() -> None:
    game = make("tiny-showdown", players=3)

    def record(seed: int) -> dict[str, Any]:
        random.seed(seed)  # the global random must not matter
        bots = [SpiedBot(ISMCTSBot(iterations=30, prior="random")) for _ in range(3)]
        return play_game(game, bots, seed).to_json()

    assert record(4) == record(4)
    assert record(4) != record(5)


def test_cut_off_rollouts_use_the_named_evaluation(monkeypatch: pytest.MonkeyPatch) -> None:
    game = make("tiny-showdown", players=2)
    monkeypatch.setattr("shadowtable.bots.evaluation._EVALUATORS", {})
    register_evaluator("tiny-showdown", "first-wins", lambda g, s: [1.0, 0.0])
    assert evaluators_for("tiny-showdown") == ["first-wins"]
    cut = ISMCTSBot(max_rollout_steps=1, evaluate="first-wins")
    assert cut.rollout(game, game.initial_state(), random.Random(0)) == [1.0, 0.0]
    with pytest.raises(BotError, match="no evaluation 'nope'"):
        ISMCTSBot(max_rollout_steps=1, evaluate="nope").rollout(game, game.initial_state(), random.Random(0))


def test_material_shares_sum_to_one() -> None:
    assert material_shares([3.0, 1.0]) == [0.75, 0.25]
    assert material_shares([0.0, 0.0, 0.0]) == [pytest.approx(1 / 3)] * 3


def test_shadowlord_material_evaluation_is_a_share_per_seat_and_public() -> None:
    game = make("shadowlord", players=3)
    rng = random.Random(2)
    state = game.initial_state()
    for _ in range(200):  # into the game, through chance and decisions
        player = game.current_player(state)
        if player < -1:
            break
        outcomes = game.chance_outcomes(state) if player == -1 else None
        action = outcomes[0][0] if outcomes else rng.choice(game.legal_actions(state))
        state = game.apply(state, action)
    values = evaluator("shadowlord", "heuristic")(game, state)
    assert len(values) == 3 and sum(values) == pytest.approx(1.0)
    assert all(0.0 <= v <= 1.0 for v in values)
    same = evaluator("shadowlord", "heuristic")(game, game.determinize(game.observe(state, 1), random.Random(9)))
    assert same == values


@pytest.mark.parametrize(
    "spec",
    [
        "ismcts:iterations=12:rollout=heuristic:prior=heuristic:max_rollout_steps=20:evaluate=heuristic",
        "ismcts:iterations=16:rollout=heuristic:prior=heuristic:max_rollout_steps=20:evaluate=heuristic:width=3",
    ],
    ids=["all-at-once", "widening"],
)
def test_shadowlord_paired_search_with_evaluation_plays_reproducibly(spec: str) -> None:
    def record() -> dict[str, Any]:
        game = make("shadowlord", players=2)
        return play_game(game, [SpiedBot(make_bot(spec)), make_bot("heuristic")], 3, max_steps=60).to_json()

    assert record() == record()


def test_an_action_that_plays_out_like_the_baseline_is_dropped_after_enough_sweeps() -> None:
    same = [1.0, 0.0] * (SAME_AS_BASELINE_SWEEPS // 2)
    samples = {0: same, 1: list(same), 2: [*same[:-1], 1.0]}
    assert surviving_actions(samples, [0, 1, 2], baseline=0, confidence=1.5) == [0, 2]
    early = {action: values[:-1] for action, values in samples.items()}
    assert surviving_actions(early, [0, 1, 2], baseline=0, confidence=1.5) == [0, 1, 2]


def test_last_iterations_reports_the_search_just_run() -> None:
    game, observation = _last_round_observation(2)
    plain = ISMCTSBot(iterations=50)
    plain.choose(game, 0, observation, [PASS, RAISE], random.Random(0))
    assert plain.last_iterations == 50
    plain.choose(game, 0, observation, [RAISE], random.Random(0))
    assert plain.last_iterations == 0
    paired = ISMCTSBot(iterations=50, prior=FirstLegal())
    paired.choose(game, 0, observation, [PASS, RAISE], random.Random(0))
    assert 0 < paired.last_iterations <= 50 and paired.last_iterations % 2 == 0


class _StubView:
    """Two seats of one colour each; figure 0 is seat 0's, figure 1 seat 1's, figure 2 nobody's."""

    def __init__(self, stone: int, out: tuple[bool, bool] = (False, False)) -> None:
        self.pub = SimpleNamespace(stone=stone, seat_out=list(out))  # read as the typed public view
        self.owner_list = [0, 1, 9]

    def owner(self, figure: int) -> int:
        return self.owner_list[figure]

    def mine_of(self, seat: int) -> list[int]:
        return [seat]

    def seat_material(self, seat: int) -> float:
        return 10.0


def test_shadowlord_material_counts_the_power_stone_for_its_holder_only() -> None:
    from shadowtable.games.shadowlord.evaluation import POWER_STONE_BONUS, alive_material

    assert [alive_material(_StubView(0), seat) for seat in (0, 1)] == [10.0 + POWER_STONE_BONUS, 10.0]
    assert [alive_material(_StubView(2), seat) for seat in (0, 1)] == [10.0, 10.0]  # the Shadowlord holds it
    assert [alive_material(_StubView(-1), seat) for seat in (0, 1)] == [10.0, 10.0]
    assert alive_material(_StubView(1, out=(False, True)), 1) == 0.0


class ValueByAction(ISMCTSBot):
    """Root action ``best`` always scores 1 and every other action 0: a planted better move."""

    def __init__(self, best: int, **params: Any) -> None:
        super().__init__(**params)
        self.best = best

    def iterate_from(self, game: Any, root: Any, state: Any, action: int, seat: int, rng: random.Random) -> float:
        return 1.0 if action == self.best else 0.0


def _ten_actions(bot: ISMCTSBot) -> int:
    """The move ``bot`` plays among actions 0-9 with 0 as the prior's move (its candidates drawn
    in the order ``candidate_order`` gives with ``random.Random(0)``)."""
    game = SimpleNamespace(
        spec=SimpleNamespace(id="ten-actions"),
        determinize=lambda observation, rng: 0,
        legal_actions=lambda state: list(range(10)),
    )
    return bot.widening_choice(game, 0, {}, list(range(10)), 0, random.Random(0))  # type: ignore[arg-type]


def test_progressive_widening_finds_a_better_move_in_a_later_round() -> None:
    for best in range(1, 10):  # wherever the random order puts it, enough budget reaches it
        bot = ValueByAction(best, iterations=400, prior=FirstLegal(), width=3)
        assert _ten_actions(bot) == best


def test_progressive_widening_keeps_the_prior_move_when_the_budget_ends_first() -> None:
    game = SimpleNamespace(spec=SimpleNamespace(id="ten-actions"))
    order = ISMCTSBot(width=3).candidate_order(game, 0, {}, list(range(10)), 0, random.Random(0))  # type: ignore[arg-type]
    late = order[-1]  # swept in the last round only
    bot = ValueByAction(late, iterations=3 * SAME_AS_BASELINE_SWEEPS, prior=FirstLegal(), width=3)
    assert _ten_actions(bot) == 0
    assert bot.last_iterations == 3 * SAME_AS_BASELINE_SWEEPS


def test_candidates_are_ranked_by_the_evaluation_one_step_ahead(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("shadowtable.bots.evaluation._EVALUATORS", {})
    register_evaluator("ten-actions", "by-action", lambda g, action: [action / 10, 1 - action / 10])
    game = SimpleNamespace(
        spec=SimpleNamespace(id="ten-actions"), determinize=lambda o, r: 0, apply_unchecked=lambda s, a: a
    )
    bot = ISMCTSBot(width=3, evaluate="by-action")
    assert bot.candidate_order(game, 0, {}, list(range(10)), 5, random.Random(0)) == [9, 8, 7, 6, 4, 3, 2, 1, 0]  # type: ignore[arg-type]
    assert bot.candidate_order(game, 1, {}, list(range(10)), 5, random.Random(0)) == [0, 1, 2, 3, 4, 6, 7, 8, 9]  # type: ignore[arg-type]


@pytest.mark.parametrize("width", [0, 1, True, 2.5, "3"])
def test_a_width_below_two_or_not_an_int_is_refused(width: Any) -> None:
    with pytest.raises(BotError, match="width"):
        ISMCTSBot(prior="heuristic", width=width)
