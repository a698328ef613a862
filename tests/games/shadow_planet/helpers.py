"""Test helpers: build Shadow Planet positions by playing notation, plus a documented editor.

``Table`` drives a game from the initial state with action notation (decisions and chance
outcomes alike, e.g. ``"deal seat 0: Alien"``, ``"pick Jenna Scott"``, ``"reveal Melita:
Medi-Kit (Move 2) #0"``).  ``edit`` helpers change a state directly for scenarios that would
take many rounds to reach; each keeps card and Marker conservation (checked by ``Table.check``).
"""

from __future__ import annotations

from typing import Any

from shadowtable.core import CHANCE, make
from shadowtable.core.kernel import Task, task_kind
from shadowtable.games.shadow_planet import state as M
from shadowtable.games.shadow_planet.board import move_card, tell
from shadowtable.games.shadow_planet.game import ShadowPlanetGame
from shadowtable.games.shadow_planet.rules import KERNEL
from shadowtable.games.shadow_planet.state import State
from shadowtable.games.shadow_planet.tasks import RevealTop
from shadowtable.testing import check_determinize

OBJ = {"alien": 0, "commander": 1, "lieutenant": 2, "sergeant": 3, "guardian": 4}
JENNA, NIKKE, JOHN, RACHEL, REED, ROBOT = range(6)
MELITA, ERICO, HILL, CAVES = range(4)
CHAR_NAMES = ("Jenna Scott", "Nikke Larsson", "John Vargo", "Rachel Robinson", "Reed Robinson", "Robot")


class Table:
    """A game and its current state, advanced by notation."""

    def __init__(self, players: int = 3, **options: Any) -> None:
        self.game: ShadowPlanetGame = make("shadow-planet", players=players, **options)  # type: ignore[assignment]
        self.state: State = self.game.initial_state()

    @property
    def s(self) -> State:
        """The state, to edit by hand: its cached legal actions are dropped."""
        self.state.legal = None
        return self.state

    def do(self, *texts: str) -> Table:
        """Apply each action given by its notation."""
        for text in texts:
            action = self.game.words.parse_action(self.state, text)
            self.state = self.game.apply(self.state, action)
            self.check()
        return self

    def act(self, action: int) -> Table:
        self.state = self.game.apply(self.state, action)
        return self

    def legal_text(self) -> list[str]:
        return [self.game.words.action_to_str(self.state, a) for a in self.game.legal_actions(self.state)]

    def chance_lowest(self, limit: int = 1000) -> Table:
        """Resolve chance nodes with their lowest outcome until a decision."""
        while self.game.current_player(self.state) == CHANCE and limit:
            self.state = self.game.apply(self.state, self.game.legal_actions(self.state)[0])
            limit -= 1
        return self

    def reveal(self, *cards: int) -> Table:
        """Resolve the next chance nodes with the given card ids."""
        for card in cards:
            assert self.game.current_player(self.state) == CHANCE, "expected a chance node"
            self.state = self.game.apply(self.state, card)
        return self

    def check(self) -> None:
        """Conservation, plus the hidden-information round trip of every seat at this state."""
        errors = self.game.conservation_errors(self.state)
        assert not errors, errors
        if not self.game.is_terminal(self.state):
            check_determinize(self.game, self.state, "scenario")

    def setup(self, objectives: list[str], protagonist: int = 0, removed: list[str] | None = None) -> Table:
        """Deal the given Objectives (seat order) and choose the Protagonist."""
        n = self.game.players
        left = [o for o in OBJ if o != "alien" and o not in objectives]
        for name in (removed or left)[: 5 - n]:
            self.do(f"remove objective {name.capitalize()}")
        for seat, name in enumerate(objectives):
            self.do(f"deal seat {seat}: {name.capitalize()}")
        return self.do(f"protagonist seat {protagonist}")

    def draft(self, random_char: int, picks: list[int]) -> Table:
        """The random draft card, then picks in draft order (Protagonist first)."""
        self.do(f"random character {CHAR_NAMES[random_char]}")
        for ch in picks:
            self.do(f"pick {CHAR_NAMES[ch]}")
        return self


def standard(players: int = 3, picks: list[int] | None = None, random_char: int = ROBOT, **options: Any) -> Table:
    """Seat 0 Alien, then Astronauts; Protagonist seat 0; the given picks in draft order."""
    objectives = ["alien", "commander", "lieutenant", "sergeant", "guardian"][:players]
    table = Table(players, **options).setup(objectives)
    return table.draft(random_char, picks or [JENNA, NIKKE, JOHN, RACHEL, REED][:players])


# -- the pending work -----------------------------------------------------------------------------
def top(s: State) -> Task | None:
    """The task on top of the stack (waiting for a seat or chance), or None once the game is over."""
    return s.stack[-1] if s.stack else None


def kind(s: State) -> str:
    """The kind of the pending task (``"over"`` once the game is over)."""
    task = top(s)
    return "over" if task is None else task_kind(type(task))


def data(s: State) -> dict[str, Any]:
    """The public arguments of the pending decision or chance node (``pending.data``)."""
    return KERNEL.pending(s).data


def reveal_for(s: State) -> str | None:
    """At a chance node revealing a deck's next card: the kind of the work waiting for it."""
    if isinstance(top(s), RevealTop) and len(s.stack) > 1:
        return task_kind(type(s.stack[-2]))
    return None


def advance(table: Table, *tasks: Task) -> Table:
    """Edit: ``tasks`` become the pending work (bottom first; none: keep the stack), then the
    kernel runs automatic work until a seat or chance must act."""
    if tasks:
        table.state.stack = list(tasks)
    KERNEL.prepare(table.game.ctx, table.state)
    return table


# -- documented state editing ------------------------------------------------------------------
def give(s: State, card: int, ch: int) -> None:
    """Edit: put ``card`` into Character ``ch``'s Gear (its controller learns it)."""
    move_card(s, card, M.GEAR0 + ch)
    if s.controller[ch] >= 0:
        tell(s, s.controller[ch], card)


def hand_of(s: State, ch: int) -> list[int]:
    return [c for c, z in enumerate(s.where) if z == M.GEAR0 + ch]


def clear_hand(s: State, ch: int, to_zone: int = M.REMOVED) -> None:
    """Edit: move every card of ``ch``'s Gear to ``to_zone`` (default: removed from the game)."""
    for card in hand_of(s, ch):
        move_card(s, card, to_zone)


def place(s: State, ch: int, loc: int) -> None:
    """Edit: move a pawn to a Location."""
    s.char_loc[ch], s.char_section[ch] = loc, -1


def autopilot(table: Table, until_active: int, limit: int = 2000) -> Table:
    """Play 'done' (or the first legal action) and lowest chance outcomes until ``until_active`` acts."""
    game = table.game
    while limit:
        limit -= 1
        s = table.state
        player = game.current_player(s)
        if player == CHANCE:
            table.chance_lowest(1)
            continue
        if s.active == until_active and kind(s) not in ("pick_character", "discard_message"):
            return table
        legal = game.legal_actions(s)
        from shadowtable.games.shadow_planet import actions as A

        table.act(A.DONE if A.DONE in legal else legal[0])
    raise AssertionError("autopilot did not reach the Character")


def controlling(ch: int, players: int = 3, others: list[int] | None = None, **options: Any) -> Table:
    """Seat 0 controls ``ch`` (picked first); the run stops when ``ch``'s turn needs a decision."""
    rest = others if others is not None else [c for c in (JENNA, NIKKE, JOHN, RACHEL, REED) if c != ch]
    picks = [ch, *rest][:players]
    random_char = next(c for c in (ROBOT, REED, RACHEL, JOHN) if c not in picks)
    table = standard(players, picks=picks, random_char=random_char, **options)
    return autopilot(table, ch)


def run_until(table: Table, wanted: str, limit: int = 3000) -> Table:
    """Play 'done' (else the first legal action) and lowest chance outcomes until the pending
    task is of kind ``wanted``."""
    from shadowtable.games.shadow_planet import actions as A

    while kind(table.state) != wanted and limit:
        limit -= 1
        if table.game.current_player(table.state) == CHANCE:
            table.chance_lowest(1)
            continue
        legal = table.game.legal_actions(table.state)
        table.act(A.DONE if A.DONE in legal else legal[0])
    assert kind(table.state) == wanted, f"run_until did not reach {wanted}"
    return table


def reveal_lowest(table: Table) -> Table:
    """Pay a Section by showing the lowest-id cards whenever the player has a choice."""
    while kind(table.state) == "show_reveal_card":
        table.act(table.game.legal_actions(table.state)[0])
    return table
