"""ISMCTS: parameters, tree mechanics, determinism and playing strength on the tiny game."""

from __future__ import annotations

import random
from typing import Any

import pytest

from shadowtable.bots import Bot, make_bot
from shadowtable.bots.ismcts import DEFAULT_ITERATIONS, ISMCTSBot, Node, best_action, select_child
from shadowtable.core import BotError, make, play_game

from .option_game import HiddenOptionGame

RAISE = 1
BET = 1


def _tiny(players: int = 2) -> Any:
    return make("tiny-showdown", players=players)


def _decision_observation(game: Any, cards: tuple[int, ...], seat: int = 0) -> dict[str, Any]:
    state = game.initial_state()
    for card in cards:
        state = game.apply(state, card)
    return game.observe(state, seat)


def test_registry_builds_ismcts_with_parameters() -> None:
    bot = make_bot("ismcts:iterations=400:rollout=random:c=1.5:max_rollout_steps=30")
    assert isinstance(bot, ISMCTSBot)
    assert (bot.iterations, bot.c, bot.max_rollout_steps, bot.time) == (400, 1.5, 30, None)
    assert bot.rollout_policy.name == "random"
    assert isinstance(bot, Bot)


def test_budgets_default_and_time_alone_is_unlimited_iterations() -> None:
    assert ISMCTSBot().iterations == DEFAULT_ITERATIONS
    timed = make_bot("ismcts:time=0.01")
    assert (timed.iterations, timed.time) == (None, 0.01)
    assert make_bot("ismcts:time=0.01:iterations=5").iterations == 5


@pytest.mark.parametrize(
    "spec", ["ismcts:iterations=0", "ismcts:c=-1", "ismcts:time=0", "ismcts:rollout=nobody", "ismcts:depth=3"]
)
def test_bad_parameters_raise_bot_error(spec: str) -> None:
    with pytest.raises(BotError):
        make_bot(spec)


def test_time_budget_search_returns_a_legal_action() -> None:
    game = _tiny()
    observation = _decision_observation(game, (3, 1))
    action = make_bot("ismcts:time=0.02").choose(game, 0, observation, [0, 1], random.Random(0))
    assert action in (0, 1)


def test_select_child_counts_availability_only_for_legal_children() -> None:
    node = Node()
    for action in (0, 1, 2):
        child = node.children[action] = Node(action, seat=0)
        child.visits, child.availability, child.value_sum = 1, 1, 0.5
    chosen = select_child(node, [0, 2], c=0.7, rng=random.Random(0))
    assert chosen.action in (0, 2)
    assert [node.children[a].availability for a in (0, 1, 2)] == [2, 1, 2]


def test_ucb_prefers_the_child_that_was_available_more_often_per_visit() -> None:
    often_available, rarely_available = Node(0, seat=0), Node(1, seat=0)
    for child, availability in ((often_available, 50), (rarely_available, 5)):
        child.visits, child.value_sum, child.availability = 4, 2.0, availability
    assert often_available.ucb(1.0) > rarely_available.ucb(1.0)
    assert often_available.ucb(0.0) == rarely_available.ucb(0.0) == 0.5


def test_best_action_is_the_most_visited_legal_root_action() -> None:
    root = Node()
    for action, visits in ((0, 10), (1, 30), (2, 50)):
        root.children[action] = Node(action, seat=0)
        root.children[action].visits = visits
    assert best_action(root, [0, 1, 2]) == 2
    assert best_action(root, [0, 1]) == 1
    assert best_action(root, [3]) == 3


def test_each_node_stores_the_value_of_the_seat_that_acted_there() -> None:
    game = _tiny(players=3)
    observation = _decision_observation(game, (4, 0, 2))
    root = ISMCTSBot(iterations=300).search(game, observation, random.Random(1))
    assert sum(child.visits for child in root.children.values()) == root.visits == 300
    for child in root.children.values():
        assert child.seat == 0
        assert 0.0 <= child.value_sum <= child.visits
        assert all(grandchild.seat == 1 for grandchild in child.children.values())
    assert root.children[RAISE].mean_value > root.children[0].mean_value


def test_cut_off_rollouts_score_the_middle_of_the_utility_range() -> None:
    game = _tiny()
    state = game.initial_state()
    assert ISMCTSBot(max_rollout_steps=1).rollout(game, state, random.Random(0)) == [0.5, 0.5]
    final = ISMCTSBot(max_rollout_steps=100).rollout(game, state, random.Random(0))
    assert set(final) <= {0.0, 1.0}


@pytest.mark.parametrize("card", [0, 1, 2, 3, 4])
def test_ismcts_raises_in_the_last_round_whatever_its_card(card: int) -> None:
    game = make("tiny-showdown", players=2, rounds=1)  # raising now is strictly better than passing
    observation = _decision_observation(game, (card, 0))
    assert ISMCTSBot().choose(game, 0, observation, [0, 1], random.Random(card)) == RAISE


@pytest.mark.parametrize("players", [2, 3])
def test_same_seed_gives_the_same_record_despite_global_random(players: int) -> None:
    game = _tiny(players)

    def record(seed: int) -> dict[str, Any]:
        random.seed(seed * 7 + 1)  # disturbing the global random must not matter
        bots = [make_bot("ismcts:iterations=60") for _ in range(players)]
        return play_game(game, bots, seed).to_json()

    for seed in range(4):
        assert record(seed) == record(seed)


def test_search_depends_on_the_rng_it_is_given() -> None:
    game = _tiny()
    observation = _decision_observation(game, (2, 2))
    bot = ISMCTSBot(iterations=100)

    def visit_profile(seed: int) -> list[tuple[int, float]]:
        root = bot.search(game, observation, random.Random(seed))
        return [(child.visits, child.value_sum) for child in root.children.values()]

    assert visit_profile(5) == visit_profile(5)
    assert len({tuple(visit_profile(seed)) for seed in range(6)}) > 1


@pytest.mark.parametrize("tree", ["actions", "observations"])
def test_an_action_legal_in_some_determinizations_is_scored_by_its_availability(tree: str) -> None:
    game = HiddenOptionGame(2)
    observation = game.observe(game.apply(game.initial_state(), 1), 0)
    root, table = ISMCTSBot(iterations=400, tree=tree).search_tree(game, observation, random.Random(3))
    responder = root.children[BET] if table is None else _merged_responder_nodes(table)
    fold, unlock = responder.children[0], responder.children[1]
    assert unlock.visits <= unlock.availability and fold.visits <= fold.availability
    assert fold.availability <= sum(child.visits for child in responder.children.values())
    assert 0.3 < unlock.availability / fold.availability < 0.7  # the key is 1 in half the determinizations
    assert best_action(root, [0, 1]) == BET  # worth 1/2: the responder can only unlock with key 1


def _merged_responder_nodes(table: dict[tuple[int, str], Node]) -> Node:
    """In the observation tree the responder has one node per key; sum their statistics."""
    merged = Node()
    for (seat, _), node in table.items():
        if seat != 1 or not node.children:
            continue
        for action, child in node.children.items():
            into = merged.children.setdefault(action, Node(action, seat))
            into.visits += child.visits
            into.availability += child.availability
    return merged
