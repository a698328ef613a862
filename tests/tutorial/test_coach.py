"""The coach of each tutorial: it explains every decision, adapts to the newcomer's choice, names
the bots, and never says what the newcomer's seat may not know."""

from __future__ import annotations

import random

import pytest

from shadowtable.bots.registry import make_bot
from shadowtable.games.shadow_planet import actions as A
from shadowtable.games.shadow_planet.tutorial import message_advice
from shadowtable.tutorial import NEWCOMER_SEAT, Tutorial, deal_for, deals
from tutorial.secrets_of import leaks, secrets, told_lines

TITLES = sorted(deals())


def play(tutorial: Tutorial, rng: random.Random, limit: int = 400) -> int:
    """Play the newcomer's seat with varied legal choices, checking the coach at every decision."""
    checked = 0
    while not tutorial.is_over() and tutorial.chosen < limit:
        coaching = tutorial.coaching()
        lines, cards = secrets(tutorial)
        text = "\n".join(coaching.texts())
        assert leaks(text, lines, cards) == [], f"the coach leaks at decision {tutorial.decisions}"
        assert coaching.choices and coaching.prompt and coaching.purpose and coaching.look_at
        tutorial.choose(rng.choice(coaching.choices).action)
        checked += 1
    return checked


@pytest.mark.parametrize("game_id", TITLES)
@pytest.mark.parametrize("seed", [1, 2])
def test_the_coach_never_tells_what_the_seat_may_not_know(game_id: str, seed: int) -> None:
    tutorial = Tutorial(deal_for(game_id))
    assert play(tutorial, random.Random(seed)) > 10
    assert tutorial.is_over()
    final = tutorial.coaching()
    assert final.over and final.result and not final.choices
    lines, cards = secrets(tutorial)
    assert lines, "other seats were told things the newcomer was not: the check has something to find"
    assert leaks("\n".join(final.texts()), lines, cards) == []


@pytest.mark.parametrize("game_id", TITLES)
def test_the_leak_check_finds_another_seats_secret(game_id: str) -> None:
    tutorial = Tutorial(deal_for(game_id))
    lines, cards = secrets(tutorial)
    while not lines and tutorial.decisions < 60:
        tutorial.choose(tutorial.coaching().choices[0].action)
        lines, cards = secrets(tutorial)
    secret = sorted(lines)[0]
    assert secret not in "\n".join(told_lines(tutorial, NEWCOMER_SEAT))
    assert secret in leaks(f"coach says: {secret}", lines, cards)


@pytest.mark.parametrize("game_id", TITLES)
def test_the_coach_explains_the_first_decision_with_its_rule_and_choices(game_id: str) -> None:
    tutorial = Tutorial(deal_for(game_id))
    coaching = tutorial.coaching()
    view = tutorial.view()
    assert coaching.prompt == view.decision.prompt  # type: ignore[union-attr]
    assert coaching.rule_section and coaching.rule_quote
    assert coaching.rule_section in tutorial.table.game.words.rules_help(view.observation)
    assert [c.action for c in coaching.choices] == [c.action for c in view.choices or ()]
    assert any(c.effect for c in coaching.choices), "at least one choice says what it would do"
    assert all("seat " not in line for line in coaching.since), "players are named"


@pytest.mark.parametrize("game_id", TITLES)
def test_the_coach_follows_the_newcomers_choice_and_names_the_bots(game_id: str) -> None:
    tutorial = Tutorial(deal_for(game_id))
    choice = tutorial.coaching().choices[-1]
    tutorial.choose(choice.action)
    assert tutorial.coaching().you_chose.startswith(f"You chose {choice.text}")
    said = []
    while not tutorial.is_over() and tutorial.decisions < 60:
        coaching = tutorial.coaching()
        said += coaching.since
        tutorial.choose(coaching.choices[0].action)
    assert any("Brook (heuristic bot)" in line for line in said)


@pytest.mark.parametrize("game_id", TITLES)
def test_the_prepared_deal_is_the_same_for_every_newcomer(game_id: str) -> None:
    first, second = Tutorial(deal_for(game_id)), Tutorial(deal_for(game_id))
    assert first.table.rows == second.table.rows
    assert first.coaching() == second.coaching()
    assert first.table.record().seed == deals()[game_id].seed


def test_any_legal_choice_is_accepted_and_an_illegal_one_refused() -> None:
    from shadowtable.core.errors import IllegalActionError

    tutorial = Tutorial(deal_for("shadowlord"))
    legal = [c.action for c in tutorial.coaching().choices]
    with pytest.raises(IllegalActionError):
        tutorial.choose(max(legal) + 10_000)
    tutorial.choose(legal[-1])
    assert tutorial.chosen == 1 and tutorial.decisions >= 1


def test_a_heuristic_newcomer_finishes_each_tutorial() -> None:
    for game_id in TITLES:
        tutorial = Tutorial(deal_for(game_id))
        bot, rng = make_bot("heuristic"), random.Random(0)
        game = tutorial.table.game
        while not tutorial.is_over():
            state = tutorial.table.state
            tutorial.choose(bot.choose(game, 0, game.observe(state, 0), game.legal_actions(state), rng))
        assert tutorial.coaching().result


def test_each_message_discard_says_what_it_does_for_the_newcomers_own_objective() -> None:
    tutorial = Tutorial(deal_for("shadow-planet"))
    coaching = tutorial.coaching()
    while "Messages" not in coaching.rule_section:
        tutorial.choose(coaching.choices[-1].action)
        coaching = tutorial.coaching()
    view = tutorial.view()
    printed = tutorial.table.game.words.reference()
    role = printed["objectives"][view.observation["public"]["objectives"][NEWCOMER_SEAT]]["role"]
    for choice in coaching.choices:
        assert "#" not in choice.text  # a person reads no card ids
        card = printed["cards"][choice.action - A.DISCARD]
        assert f"a{'n' if card['type'] == 'attack' else ''} {card['type'].title()} card: if revealed" in choice.effect
        assert choice.effect == message_advice(role, card["type"])


def test_a_get_message_works_against_an_astronaut_and_helps_the_alien() -> None:
    assert message_advice("astronaut", "get").endswith("this works against you as the Astronaut")
    assert message_advice("alien", "get").endswith("this helps you as the Alien")
    assert message_advice("guardian", "get").endswith("this helps you as the Guardian")
    assert "you" not in message_advice("astronaut", "attack")  # lowers the Threat, holds back the repairs


@pytest.mark.parametrize("game_id", TITLES)
def test_a_decision_with_one_choice_only_is_taken_at_once_and_told(game_id: str) -> None:
    tutorial = Tutorial(deal_for(game_id))
    rng, forced = random.Random(3), []
    while not tutorial.is_over():
        coaching = tutorial.coaching()
        assert len(coaching.choices) > 1, "the newcomer is asked only when there is a choice"
        forced += coaching.forced
        tutorial.choose(rng.choice(coaching.choices).action)
    assert tutorial.decisions == tutorial.chosen + len(forced) + len(tutorial.coaching().forced)


OPENING = {
    "shadow-planet": (13, {"control", "move", "search", "messages"}),
    "shadowlord": (14, {"setup", "build", "move"}),
}
"""What each prepared deal promises (``PreparedDeal.why``): the rules met within the first choices."""


@pytest.mark.parametrize("game_id", TITLES)
@pytest.mark.parametrize("policy", ["first", "last", "random"])
def test_the_prepared_deal_shows_the_key_rules_early(game_id: str, policy: str) -> None:
    tutorial = Tutorial(deal_for(game_id))
    within, wanted = OPENING[game_id]
    rng, met = random.Random(4), set()
    while tutorial.chosen < within:
        coaching, view = tutorial.coaching(), tutorial.view()
        met.add(view.decision.rule if view.decision else "")
        pick = {"first": 0, "last": -1, "random": rng.randrange(len(coaching.choices))}[policy]
        tutorial.choose(coaching.choices[pick].action)
    assert wanted <= met


def _newcomer_plays(tutorial: Tutorial, player: str, rng: random.Random) -> None:
    """The newcomer's seat played to the end as the heuristic bot, or at random among the coach's choices."""
    bot, game = make_bot("heuristic"), tutorial.table.game
    while not tutorial.is_over() and tutorial.chosen < 400:
        state = tutorial.table.state
        if player == "heuristic":
            observation, legal = game.observe(state, NEWCOMER_SEAT), game.legal_actions(state)
            tutorial.choose(bot.choose(game, NEWCOMER_SEAT, observation, legal, rng))
        else:
            tutorial.choose(rng.choice(tutorial.coaching().choices).action)


@pytest.mark.parametrize("player", ["heuristic", "random"])
def test_the_shadowlord_tutorial_usually_ends_by_a_real_victory_not_the_turn_limit(player: str) -> None:
    real = 0
    for seed in range(4):
        tutorial = Tutorial(deal_for("shadowlord"))
        _newcomer_plays(tutorial, player, random.Random(seed))
        assert tutorial.is_over()
        summary = tutorial.table.game.summary(tutorial.table.state)
        final = tutorial.coaching()
        if summary["end_reason"] != "truncated":
            real += 1
            assert summary["winner"] is not None and summary["shadowlord_defeated"]
            assert "Master of the Universe" in final.result
        else:
            assert "truncated" in final.result
    assert real >= 3, f"only {real} of 4 tutorial games ended by a real victory"


def test_a_shadowlord_move_says_which_way_it_goes() -> None:
    tutorial = Tutorial(deal_for("shadowlord"))
    rng, seen = random.Random(3), {}
    while not tutorial.is_over() and len(seen) < 4:
        coaching = tutorial.coaching()
        for choice in coaching.choices:
            if choice.text.startswith("move ") and choice.text[-2] == " ":
                seen[choice.text[-1]] = choice.effect
        tutorial.choose(rng.choice(coaching.choices).action)
    assert seen, "the tutorial offers moves"
    words = {"n": "north (up", "e": "east (right", "s": "south (down", "w": "west (left"}
    for letter, effect in seen.items():
        assert effect.startswith(f"moves one galaxy {words[letter]}"), effect


def test_the_newcomers_own_lines_read_in_the_second_person() -> None:
    from shadowtable.tutorial.coach import named

    names = ["Ada", "Brook"]
    assert named("Spacestorm: seat 0 rolls 3 and loses 3 Space Ships", names, 0) == (
        "Spacestorm: you roll 3 and lose 3 Space Ships"
    )
    assert named("seat 1 rolls 3 and loses 3 Space Ships", names, 0) == "Brook rolls 3 and loses 3 Space Ships"
    assert named("2 Power Cards from the Attack Hand of seat 0 go to seat 1", names, 0) == (
        "2 Power Cards from your Attack Hand go to Brook"
    )
    assert named("seat 0 receives a card and seat 1 passes", names, 0) == "You receive a card and Brook passes"


def test_a_line_told_again_with_what_the_newcomer_knew_is_shown_once() -> None:
    from shadowtable.tutorial.coach import without_repeats

    public = "Reed Robinson (uncontrolled) discards the top card of the Hill deck face up"
    private = public + ": it is Get (Get 1), the top card you knew"
    assert without_repeats([public, private, "round 1 ends", public]) == [private, "round 1 ends", public]
    assert without_repeats(["a", "b", "a"]) == ["a", "b"]


def test_paying_for_a_sections_effect_says_what_it_costs_and_does() -> None:
    from shadowtable.core.registry import make
    from shadowtable.tutorial.coach import Coach

    game = make("shadow-planet", players=3)
    coach = Coach(game, 0, ["Ada", "Brook", "Cyd"])
    observation = game.observe(game.initial_state(), 0)
    assert coach.choice_effect(observation, "resolve 0 Top card", "section") == (
        "reveal 2 Attack from your hand: take the top card of any Location deck"
    )
    assert coach.choice_effect(observation, "resolve 1 Moonette", "section").startswith("reveal 3 Move, 1 Search")
    assert coach.choice_effect(observation, "leave section", "section").startswith("leaves the Section")
