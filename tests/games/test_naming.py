"""The naming convention both games follow (docs/architecture.md, *Naming convention*): the state
and context classes, the context's fields, the task types and their kinds on the wire, and
the action blocks."""

from __future__ import annotations

import dataclasses
import importlib
import random
import re
import typing
from types import ModuleType
from typing import Any

import pytest

from shadowtable.core.jsondata import field_types
from shadowtable.core.kernel import Rulebook, task_kind
from shadowtable.core.registry import make


def words(text: str) -> frozenset[str]:
    return frozenset(text.split())


GAMES = {"shadow-planet": "shadowtable.games.shadow_planet", "shadowlord": "shadowtable.games.shadowlord"}
"""Each game's id and package."""
RULEBOOKS = {**GAMES, "tiny-stack": "third_game"}
"""The packages whose task types follow the convention: both games and the example third game."""

VERBS = words(
    """
    Adjust Answer Apply Ask Blast Build Call Cancel Challenge Check Choose Commit Deal Discard
    Dismiss Draw Drive End Enlist Face Fight Find Finish Give Hold Join Look Match Move Pick
    Place Play Prepare Propose Put Queue Remove Reorder Resolve Return Reveal Roll Search Send
    Shift Show Shuffle Spend Start Steal Surrender Take Teleport Vote Want
    """
)
"""The verbs a task's name may start with: what the task does, or asks a seat to do."""

ABBREVIATIONS = words(
    """
    a d q p h c n o char chars perm fig figs gal cfg ctx msg obj idx cur eot vplay ctype cvalue
    ogive owant ochar orelease otruce osend oship sl sp
    """
)
"""Clipped words a name must not use (compared in lower case)."""

SHORT_WORDS = frozenset({"to", "up", "in", "of", "at", "as", "ok", "d8"})
"""Words of one or two letters a name may use."""

CAMEL_WORD = re.compile(r"[A-Z][a-z]*|[0-9]+")
SNAKE = re.compile(r"[a-z][a-z0-9]*(_[a-z0-9]+)*")


def module(game: str, name: str) -> ModuleType:
    return importlib.import_module(f"{RULEBOOKS[game]}.{name}")


def spelled_out(words: list[str]) -> list[str]:
    """The words of a name that are clipped: on the banned list, or too short to be a word."""
    return [w for w in words if w.lower() in ABBREVIATIONS or (len(w) < 3 and w.lower() not in SHORT_WORDS)]


def camel_words(name: str) -> list[str]:
    words = CAMEL_WORD.findall(name)
    assert "".join(words) == name, f"{name} is not CamelCase"
    return words


def rulebook(game: str) -> Rulebook:
    book = module(game, "rules").RULEBOOK
    assert isinstance(book, Rulebook)
    return book


def task_name_problems(name: str) -> list[str]:
    """What breaks the task naming rule in ``name`` (nothing: it follows it)."""
    words = camel_words(name)
    problems = []
    if words[0] not in VERBS:
        problems.append(f"{name}: starts with {words[0]!r}, not a verb of the allowed list")
    problems += [f"{name}: {w!r} is clipped" for w in spelled_out(words)]
    return problems


@pytest.mark.parametrize("game", RULEBOOKS)
def test_every_task_is_named_verb_then_object(game: str) -> None:
    problems = [p for t in rulebook(game).handlers for p in task_name_problems(t.__name__)]
    assert problems == []


@pytest.mark.parametrize("game", RULEBOOKS)
def test_every_task_kind_is_its_class_name_in_snake_case(game: str) -> None:
    book = rulebook(game)
    for kind, task_type in book.by_kind.items():
        assert SNAKE.fullmatch(kind), kind
        assert kind == task_kind(task_type)
        assert kind.replace("_", "") == task_type.__name__.lower()


def test_the_rule_catches_the_names_it_forbids() -> None:
    assert task_name_problems("StartTurn") == []
    assert task_name_problems("ProposeTruce") == []
    assert task_name_problems("TurnStart") != []  # object first
    assert task_name_problems("TruceQ") != []  # not a verb, clipped
    assert task_name_problems("PlaceA") != []  # clipped
    assert task_name_problems("PlaceChar") != []  # clipped
    assert block_name_problems("ogive") != [] and block_name_problems("commit_p") != []
    assert block_name_problems("offer_give") == [] and block_name_problems("commit_portrait") == []
    assert field_name_problems("c") != [] and field_name_problems("content") == []


@pytest.mark.parametrize("game", GAMES)
def test_state_and_context_classes_have_the_same_names_in_every_game(game: str) -> None:
    g: Any = make(game, players=3)
    assert type(g.initial_state()).__name__ == "State"
    assert type(g.initial_state()) is module(game, "state").State
    assert type(g.ctx).__name__ == "Context"
    assert type(g.ctx) is module(game, "context").Context


def field_name_problems(name: str) -> list[str]:
    words = name.split("_")
    return [f"{name}: {w!r} is clipped" for w in spelled_out(words)]


def public_fields(obj: object) -> list[str]:
    """The data attributes of ``obj`` (``dir`` works on the compiled build's native classes too)."""
    return [n for n in dir(obj) if not n.startswith("_") and not callable(getattr(obj, n))]


@pytest.mark.parametrize("game", GAMES)
def test_context_fields_are_spelled_out_and_shared_ones_named_alike(game: str) -> None:
    ctx = make(game, players=3).ctx  # type: ignore[attr-defined]
    names = public_fields(ctx)
    assert {"content", "players", "options"} <= set(names)
    assert [p for n in names for p in field_name_problems(n)] == []


VIEWS = {"shadow-planet": "PlanetObservation", "shadowlord": "LordObservation"}
"""Each game's typed observation (in its ``view`` module)."""


def record_types(hint: object, found: dict[type, list[str]]) -> None:
    """Every dataclass and named tuple reachable from ``hint``, with its JSON field names."""
    if typing.get_origin(hint) is not None:
        for arg in typing.get_args(hint):
            record_types(arg, found)
    elif isinstance(hint, type) and (dataclasses.is_dataclass(hint) or hasattr(hint, "_fields")) and hint not in found:
        found[hint] = list(field_types(hint))
        for inner in field_types(hint).values():
            record_types(inner, found)


@pytest.mark.parametrize("game", GAMES)
def test_observation_fields_on_the_wire_are_spelled_out(game: str) -> None:
    view = getattr(module(game, "view"), VIEWS[game])
    found: dict[type, list[str]] = {}
    for part in (view.PUBLIC, view.PRIVATE, view.OUTCOME):
        record_types(part, found)
    assert len(found) > 2
    assert [
        f"{cls.__name__}.{p}" for cls, names in found.items() for name in names for p in field_name_problems(name)
    ] == []


def block_name_problems(name: str) -> list[str]:
    if not SNAKE.fullmatch(name):
        return [f"{name}: not snake case"]
    return [f"{name}: {w!r} is clipped" for w in spelled_out(name.split("_"))]


@pytest.mark.parametrize("game", GAMES)
def test_action_blocks_are_spelled_out_and_tile_the_action_space(game: str) -> None:
    actions = module(game, "actions")
    blocks: tuple[tuple[str, int, int], ...] = actions.BLOCKS
    assert [p for name, _, _ in blocks for p in block_name_problems(name)] == []
    assert len({name for name, _, _ in blocks}) == len(blocks)
    ends = [0] + [start + size for _, start, size in blocks]
    assert [start for _, start, _ in blocks] == ends[:-1]  # contiguous, in order, from 0
    assert ends[-1] == actions.NUM_ACTIONS == make(game, players=3).spec.num_distinct_actions
    for name, start, _ in blocks:  # each block's first id is a constant named after the block
        constants = {n for n, v in vars(actions).items() if n.isupper() and v == start}
        assert {name.upper(), f"{name.upper()}0"} & constants, (name, constants)


def test_shadowlord_battle_vote_and_offer_are_typed_parts_of_the_state() -> None:
    """The parts of a Shadowlord! state with named members are typed classes, never
    string-keyed dicts or positional lists (only the public summaries of the last Duel and the
    last vote are kept as the JSON they are shown as)."""
    from shadowtable.games.shadowlord.state import INT_FIELDS, LIST_FIELDS, Ballot, Battle, Duel, Offer, PlannedBattle

    seen: set[str] = set()
    for seed in range(6):
        g: Any = make("shadowlord", players=3)
        rng = random.Random(seed)
        s = g.initial_state()
        while not g.is_terminal(s):
            # the state's fields by name (a compiled class has no __slots__ to read)
            fields = (*LIST_FIELDS, *INT_FIELDS, "battle", "vote", "offer")
            dicts = [n for n in fields if isinstance(getattr(s, n), dict)]
            assert dicts == []
            for name, part, kind in (("battle", s.battle, Battle), ("vote", s.vote, Ballot), ("offer", s.offer, Offer)):
                if part is not None:
                    assert type(part) is kind
                    seen.add(name)
            if s.battle is not None:
                assert all(type(entry) is PlannedBattle for entry in s.battle.plan)
                assert all(
                    type(duel) is Duel for duel in [*s.battle.ready, *([s.battle.duel] if s.battle.duel else [])]
                )
            if g.current_player(s) == -1:
                outcomes = g.chance_outcomes(s)
                action = rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0]
            else:
                action = rng.choice(g.legal_actions(s))
            s = g.apply(s, action)
        if seen == {"battle", "vote", "offer"}:
            return
    raise AssertionError(f"random games showed only {sorted(seen)}")
