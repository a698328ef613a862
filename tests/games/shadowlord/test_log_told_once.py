"""Shadowlord!'s log tells each thing once, in words: a roll or a disc that its rule tells ("Special
Event roll 9: Draw 2 Power Cards") is not told again as a bare chance outcome ("chance: roll 2d8:
9"), a card drawn into another seat's hand is told by its draw's own line, and nothing that did not
happen is told (no Space Ships to build from nothing, no retreat from a galaxy to itself)."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from games.told import told_in_a_random_game
from shadowtable.core import make
from shadowtable.core.game import Game
from shadowtable.games.shadowlord.tasks import DrawToDuel, DrawToHand, RollEvent

RETREAT = re.compile(r"retreats? from (\w+) to (\w+)")


def told_lines(game: Game, seed: int) -> Iterator[tuple[object, int | None, str]]:
    """(the pending task, the reader, the line) for every line any seat or a spectator is told
    over one random game; the task is ``None`` for the lines of what the action caused."""
    for state, seat, line in told_in_a_random_game(game, seed):
        yield state.stack[-1] if line["kind"] == "action" else None, seat, line["text"]


def what_is_told_twice_or_of_nothing(task: object, seat: int | None, text: str) -> str | None:
    if text.startswith("chance: "):
        return "a bare chance outcome"
    if isinstance(task, DrawToHand) and seat != task.seat:
        return "another seat's draw, told again"
    if "gains 0 Space Ships" in text or "+ 0 for controlled Ruins" in text:
        return "a count of nothing"
    retreat = RETREAT.search(text)
    if retreat and retreat[1] == retreat[2]:
        return "a retreat to where they are"
    return None


def test_the_check_finds_the_old_lines() -> None:
    roll, draw, caused = RollEvent(), DrawToHand(1), None
    assert what_is_told_twice_or_of_nothing(roll, None, "chance: roll 2d8: 9 (Draw 2 Power Cards)")
    assert what_is_told_twice_or_of_nothing(draw, 0, "seat 1 draws a Power Card")
    assert what_is_told_twice_or_of_nothing(draw, 1, "you draw Power Card: 4") is None
    assert what_is_told_twice_or_of_nothing(caused, 0, "Battle in d3: blue attacks red") is None
    assert what_is_told_twice_or_of_nothing(caused, 2, "red gains 0 Space Ships to build: 0 Merchants x 3")
    assert what_is_told_twice_or_of_nothing(caused, 2, "red draws 1 Power Card: 1 + 0 for controlled Ruins")
    assert what_is_told_twice_or_of_nothing(caused, 2, "blue Diplomats retreat from e3 to e3 (Diplomatic Immunity)")
    moved = "blue Diplomat retreats from c5 to e3 (Diplomatic Immunity)"
    assert what_is_told_twice_or_of_nothing(caused, 2, moved) is None


@pytest.mark.parametrize(("players", "games"), [(2, 6), (3, 4), (4, 4)])
def test_every_line_is_told_once_and_of_something(players: int, games: int) -> None:
    game = make("shadowlord", players=players)
    wrong: set[str] = set()
    kinds_told: set[str] = set()
    for seed in range(games):
        for task, seat, text in told_lines(game, seed):
            found = what_is_told_twice_or_of_nothing(task, seat, text)
            if found:
                wrong.add(f"{found}: {text!r} to seat {seat}")
            if text.startswith("Special Event roll "):
                kinds_told.add("event roll")
            elif isinstance(task, DrawToHand) and seat == task.seat:
                kinds_told.add("own draw")
            elif isinstance(task, DrawToDuel) and text.endswith("face up for the Duel"):
                kinds_told.add("duel draw")
            elif " plays first" in text:
                kinds_told.add("first player")
    assert not sorted(wrong)[:10]
    assert {"event roll", "own draw", "first player"} <= kinds_told, "the outcomes are still told, once"


def test_a_duel_card_drawn_face_up_is_named_with_its_duellist() -> None:
    game = make("shadowlord", players=2)
    for seed in range(12):
        for task, _seat, text in told_lines(game, seed):
            if isinstance(task, DrawToDuel):
                assert re.fullmatch(r".+ draws Power Card \d+ face up for the Duel", text), text
                return
    pytest.fail("no Duel in 12 random games: the check found nothing to read")
