"""Any text typed as an action gives a legal action or a typed error, never a crash.

The class of defect: ``str.isdigit()`` is true for "²" and "①" (``int()`` rejects them), and
``int()`` refuses a number of more than 4,300 digits, so both games' parsers raised a bare
``ValueError`` (and the terminal app crashed) on such input.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import shadowtable
from shadowtable.bots import RandomBot
from shadowtable.core import IllegalActionError, InvalidActionError
from shadowtable.core.game import QUOTE_LIMIT, Game, quote_input
from shadowtable.core.runner import Session

GAMES = [("shadow-planet", 4), ("shadowlord", 2)]
STEPS = (0, 5, 40, 150)
"""States to parse at: the setup chance node, early decisions, and mid-game."""

AWKWARD = ["²", "①", "٣", "½", "9" * 5000, "play #" + "9" * 5000, "resolve ٣ x", "0" * 5000, "", "\x00", "#"]


@cache
def states(game_id: str, players: int) -> tuple[Game[Any], list[Any]]:
    game = shadowtable.make(game_id, players=players)
    found = []
    for steps in STEPS:
        session = Session(game, [RandomBot()] * players, seed=7)
        session.run(max_steps=steps)
        if not session.is_over():
            found.append(session.state)
    return game, found


def _check(game: Game[Any], state: Any, text: str) -> None:
    try:
        action = game.words.parse_action(state, text)
    except (InvalidActionError, IllegalActionError) as exc:
        assert quote_input(text) in str(exc)
        assert len(str(exc)) < 12 * QUOTE_LIMIT  # never the whole of a long input
    else:
        assert action in game.legal_actions(state)


NUMBER_LIKE = st.characters(categories=("Nd", "No", "Nl"))
"""Characters Unicode counts as numbers: "²", "①", "٣", "Ⅻ" ... (``isdigit()`` is true for some)."""

TEXT = st.one_of(
    st.text(),
    st.text(NUMBER_LIKE, min_size=1),
    st.text(st.sampled_from("0123456789# ²①٣"), min_size=1),
    st.builds(
        lambda verb, digits: f"{verb} #{digits}", st.sampled_from(["play", "discard", "take"]), st.text("0123456789")
    ),
)


@pytest.mark.parametrize(("game_id", "players"), GAMES)
@settings(max_examples=200)
@given(index=st.integers(0, len(STEPS) - 1), text=TEXT)
@example(index=2, text="²")
@example(index=2, text="①")
@example(index=2, text="9" * 5000)
def test_any_text_parses_to_a_legal_action_or_a_typed_error(game_id: str, players: int, index: int, text: str) -> None:
    game, found = states(game_id, players)
    _check(game, found[index % len(found)], text)


@pytest.mark.parametrize(("game_id", "players"), GAMES)
@settings(max_examples=80)
@given(data=st.data())
def test_legal_notation_with_any_text_around_it(game_id: str, players: int, data: Any) -> None:
    game, found = states(game_id, players)
    state = data.draw(st.sampled_from(found), label="state")
    notation = data.draw(st.sampled_from([game.words.action_to_str(state, a) for a in game.legal_actions(state)]))
    text = data.draw(st.text(max_size=3)) + notation + data.draw(st.text(max_size=3))
    _check(game, state, text)


@pytest.mark.parametrize(("game_id", "players"), GAMES)
@pytest.mark.parametrize("text", AWKWARD, ids=lambda t: repr(t[:12]))
def test_awkward_digits_give_typed_errors(game_id: str, players: int, text: str) -> None:
    game, found = states(game_id, players)
    for state in found:
        _check(game, state, text)


@pytest.mark.parametrize(("game_id", "players"), GAMES)
def test_an_action_id_in_ascii_digits_still_works(game_id: str, players: int) -> None:
    game, found = states(game_id, players)
    for state in found:
        legal = game.legal_actions(state)
        by_text = {game.words.action_to_str(state, a).strip().lower() for a in legal}
        for action in legal[:5]:
            if str(action) not in by_text:  # an id that is not also some action's notation
                assert game.words.parse_action(state, str(action)) == action
                assert game.words.parse_action(state, f" 0{action} ") == action


def test_error_messages_quote_at_most_80_characters_of_the_input() -> None:
    game, found = states("shadow-planet", 4)
    long_text = "x" * 5000
    with pytest.raises(InvalidActionError) as info:
        game.words.parse_action(found[1], long_text)
    message = str(info.value)
    assert "x" * (QUOTE_LIMIT - 1) + "\u2026" in message and "x" * QUOTE_LIMIT not in message
    assert len(message) < 2 * QUOTE_LIMIT
