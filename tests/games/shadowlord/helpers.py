"""Building scenario states for Shadowlord! tests.

``board()`` gives a clean board after setup (no ships, no discs, empty hands, no pending work);
``put()`` places figures; ``pending()`` pushes the decision or work under test above a
:class:`Hold` sentinel, so the test sees exactly what one rule does.  Games made here (and
games handed to ``pending()``) run on :data:`TEST_KERNEL`: the game's rulebook plus ``Hold``.
"""

from __future__ import annotations

from typing import Any

from shadowtable.core import CHANCE, make
from shadowtable.core.events import Event, visible
from shadowtable.core.kernel import Decision, Rulebook, Task, always, task_kind
from shadowtable.games.shadowlord.actions import DONE
from shadowtable.games.shadowlord.board import place
from shadowtable.games.shadowlord.game import ShadowlordGame
from shadowtable.games.shadowlord.rules import RULEBOOK, make_kernel
from shadowtable.games.shadowlord.setup import initial_state
from shadowtable.games.shadowlord.state import ACTIVE, BLACK, State
from shadowtable.games.shadowlord.tasks import SeatDecision, decider

RED, BLUE, YELLOW, GREEN = 0, 1, 2, 3
VALUES = (0, 2, 4, 7, 10)
LORD = 24
FORTRESS = 12


def master(c: int) -> int:
    return c


def warrior(c: int) -> int:
    return 4 + c


def diplomat(c: int) -> int:
    return 8 + c


def shadow(i: int) -> int:
    """Shadow number ``i`` (1-8); strengths 3, 4, 5, 5, 6, 7, 8, 9."""
    return LORD + i


DISC_WARRIOR, DISC_MERCHANT, DISC_DIPLOMAT = 12, 16, 20


def G(row: int, col: int) -> int:
    return row * 5 + col


def vi(value: int) -> int:
    """Index of a card value."""
    return VALUES.index(value)


Hold = SeatDecision
"""Test sentinel: a decision (``done`` only) under the work being tested.  It is the base class
of the decisions, which no rule of the game handles (a subclass of it defined here could not be
made in the compiled build, whose task classes take no subclasses in Python)."""


TEST_RULEBOOK = Rulebook(
    {
        **RULEBOOK.handlers,
        Hold: Decision(decider, lambda ctx, s, task: [DONE], lambda ctx, s, task, action: None, "Hold", ready=always),
    }
)
TEST_KERNEL = make_kernel(TEST_RULEBOOK)


def game(players: int = 4, **options: Any) -> ShadowlordGame:
    g = make("shadowlord", players=players, **options)
    assert isinstance(g, ShadowlordGame)
    g.kernel = TEST_KERNEL
    HEARD.clear()
    return g


def kind(task: Task) -> str:
    """A task's kind in data (``ProposeTruce`` -> ``"propose_truce"``)."""
    return task_kind(type(task))


def board(g: ShadowlordGame, cur: int = RED) -> State:
    """After setup: rings at home with no ships, shadows in the Lost Fortress, no discs."""
    s = initial_state(g.ctx)
    s.stack = []
    s.cur = cur
    s.first_seat = g.ctx.seat_of(cur)
    s.first_round_turns = 0
    s.disc = [0] * 25
    s.bag = [0] * len(s.bag)
    return s


def put(s: State, f: int, g: int, ships: int = 0, owner: int | None = None) -> None:
    """Place figure ``f`` (active) in galaxy ``g`` with ``ships`` Space Ships."""
    s.legal = None
    if owner is not None:
        s.owner[f] = owner
    colour = s.owner[f]
    s.status[f] = ACTIVE
    place(s, f, g)
    s.supply[colour] += s.ships[f] - ships
    s.ships[f] = ships


def loose(s: State, g: int, colour: int, n: int) -> None:
    s.legal = None
    s.loose_col[g] = colour
    s.loose_n[g] = n
    s.supply[colour] -= n


def give_hand(s: State, seat: int, *values: int) -> None:
    """Move cards of the given values from the deck into ``seat``'s Attack Hand."""
    for v in values:
        s.deck[vi(v)] -= 1
        s.hand[seat * 5 + vi(v)] += 1


def give_portrait(s: State, f: int, *values: int) -> None:
    for v in values:
        s.deck[vi(v)] -= 1
        s.pcards[f * 5 + vi(v)] += 1


def hand(s: State, seat: int) -> list[int]:
    return s.hand[seat * 5 : seat * 5 + 5]


def pending(g: ShadowlordGame, s: State, *tasks: Task) -> State:
    """Push ``tasks`` (the last one on top) above a :class:`Hold` sentinel and run automatic
    work (``g`` is switched to :data:`TEST_KERNEL`)."""
    g.kernel = TEST_KERNEL
    s.stack = [Hold(0), *tasks]
    s.legal = None
    g.kernel.advance(g.ctx, s)
    return s


HEARD: list[Event] = []
"""The events noted since the last :func:`game`, for every audience (read with :func:`heard`)."""


def do(g: ShadowlordGame, s: State, text: str) -> State:
    """Apply the legal action whose notation is ``text`` (its events go to :data:`HEARD`)."""
    assert g.current_player(s) != CHANCE, f"chance node pending: {s.stack[-1]}"
    new, events = g.apply_recorded(s, g.words.parse_action(s, text))
    HEARD.extend(events)
    return new


def chance(g: ShadowlordGame, s: State, outcome: int) -> State:
    """Apply a chance outcome (card value index, die roll, disc kind...); events to :data:`HEARD`."""
    assert g.current_player(s) == CHANCE, f"not a chance node: {s.stack[-1] if s.stack else None}"
    new, events = g.apply_recorded(s, outcome)
    HEARD.extend(events)
    return new


def heard(seat: int | None = None, kind: str | None = None) -> list[dict[str, Any]]:
    """The events noted since the last :func:`game` that ``seat`` is told (``kind``: only those)."""
    return [e for e in visible(HEARD, seat) if kind is None or e["kind"] == kind]


def heard_text(seat: int | None = None) -> str:
    """:func:`heard` as one text, a line per event."""
    return "\n".join(e["text"] for e in heard(seat))


def draw(g: ShadowlordGame, s: State, value: int) -> State:
    return chance(g, s, vi(value))


def top(s: State) -> Any:
    """The task on top of the stack (typed ``Any``: tests read its fields by name)."""
    return s.stack[-1]


def texts(g: ShadowlordGame, s: State) -> list[str]:
    s.legal = None  # scenario tests change states by hand between listings
    return [g.words.action_to_str(s, a) for a in g.legal_actions(s)]


def settled(s: State) -> bool:
    """Only the sentinel is left."""
    return s.stack == [Hold(0)]


def no_conservation_errors(g: ShadowlordGame, s: State) -> bool:
    errors = g.conservation_errors(s)
    assert not errors, errors
    return True


__all__ = ["BLACK"]
