"""The game logs count in words a person reads: ``1 Space Ship``, ``3 Space Ships``, never
``Space Ship(s)``, in every line any seat or a spectator is told over whole games of both games."""

from __future__ import annotations

import re

import pytest

from games.told import told_in_a_random_game
from shadowtable.core import make
from shadowtable.core.wording import counted, listed

NOUNS = "Space Ship|Power Card|Marker|step|card|Merchant|Space Base|shadow|character|captive|record"
ONE_WITH_PLURAL = re.compile(rf"(?<![\d.,])\b1 (?:loose \w+ )?(?:{NOUNS})s\b")
MANY_WITH_SINGULAR = re.compile(rf"(?<![\d.,])\b(?:0|[2-9]|\d\d+) (?:loose \w+ )?(?:{NOUNS})\b(?!s)")


def test_counted_words_one_thing_and_many() -> None:
    assert counted(1, "Space Ship") == "1 Space Ship"
    assert counted(0, "Space Ship") == "0 Space Ships"
    assert counted(3, "Space Ship") == "3 Space Ships"
    assert counted(2, "die", "dice") == "2 dice"
    assert counted(1, "die", "dice") == "1 die"


def test_listed_joins_with_and() -> None:
    assert listed([]) == ""
    assert listed(["Ada"]) == "Ada"
    assert listed(["Ada", "Brook"]) == "Ada and Brook"
    assert listed(["Ada", "Brook", "Cyd"]) == "Ada, Brook and Cyd"


def miscounted(text: str) -> list[str]:
    """What in ``text`` counts wrongly: a ``(s)``, one thing in the plural or many in the singular."""
    found = re.findall(r"\w+\(s\)", text)
    found += ONE_WITH_PLURAL.findall(text) + MANY_WITH_SINGULAR.findall(text)
    return found


def test_the_check_finds_the_old_wording() -> None:
    assert miscounted("yellow gains 0 Space Ship(s) to build") == ["Ship(s)", "0 Space Ship"]
    assert miscounted("loses 1 Space Ships") == ["1 Space Ships"]
    assert miscounted("loses 3 Space Ship and more") == ["3 Space Ship"]
    assert miscounted("3 loose blue Space Ship in c4") == ["3 loose blue Space Ship"]
    assert miscounted("Power Card 7: 2 + 1 Space Ship, 7 Space Ships, 1 Power Card") == []


@pytest.mark.parametrize(
    ("name", "players", "games"),
    [
        ("shadowlord", 2, 6),
        ("shadowlord", 3, 4),
        ("shadowlord", 4, 4),
        ("shadow-planet", 4, 4),
        ("shadow-planet", 5, 3),
    ],
)
def test_every_line_of_random_games_counts_in_words(name: str, players: int, games: int) -> None:
    game = make(name, players=players)
    wrong: set[str] = set()
    lines = 0
    for seed in range(games):
        for _state, _seat, line in told_in_a_random_game(game, seed):
            lines += 1
            wrong.update(f"{found!r} in {line['text']!r}" for found in miscounted(line["text"]))
    assert lines > 1000
    assert not wrong, sorted(wrong)[:10]
