"""The round and its Control phase: the draft of Characters (RB "1. Control Phase")."""

from __future__ import annotations

from shadowtable.core.events import note
from shadowtable.core.kernel import Task
from shadowtable.games.shadow_planet import actions as A
from shadowtable.games.shadow_planet.board import hand, take_marker, tell
from shadowtable.games.shadow_planet.context import Context
from shadowtable.games.shadow_planet.rules.causes import marker
from shadowtable.games.shadow_planet.rules.decks import uniform
from shadowtable.games.shadow_planet.rules.turn import reset_turn
from shadowtable.games.shadow_planet.state import State
from shadowtable.games.shadow_planet.tasks import (
    DrawDraftCard,
    EndRound,
    PickCharacter,
    RevealDraft,
    RevealMessages,
    ShuffleMessages,
    StartMessages,
    StartRound,
    StartTurn,
)


def rest_of_round() -> list[Task]:
    """The round's work after the Operations phase, bottom of the stack first."""
    return [EndRound(), RevealMessages(), ShuffleMessages(), StartMessages()]


def start_round(ctx: Context, s: State, task: StartRound) -> None:
    """A new round: the Protagonist shuffles the Characters; the right neighbour draws one;
    the draft, the six turns, the Messages phase and the round's end follow."""
    n = ctx.players
    s.round += 1
    s.controller, s.seat_char = [-1] * 6, [-1] * n
    s.draft_random, s.draft_picks = -1, [-1] * n
    s.auras, s.cancelled, s.active = [], -1, 0
    s.revealed = [0] * 5
    reset_turn(s)
    pickers = [PickCharacter((s.protagonist + step) % n, step) for step in reversed(range(n))]
    s.stack += [*rest_of_round(), StartTurn(), RevealDraft(), *pickers, DrawDraftCard()]


def draft_drawer(s: State) -> int:
    """The player to the Protagonist's right (seat - 1) draws the random card and picks last."""
    return (s.protagonist - 1) % s.n


def draft_received(s: State, step: int) -> list[int]:
    """Characters offered to the picker at ``step`` (the last picker adds the random card)."""
    taken = {s.draft_picks[(s.protagonist + k) % s.n] for k in range(step)}
    offered = [ch for ch in range(6) if ch != s.draft_random and ch not in taken]
    if step == s.n - 1:
        offered = sorted([*offered, s.draft_random])
    return offered


def draft_cards(ctx: Context, s: State, task: DrawDraftCard) -> list[tuple[int, float]]:
    return uniform(list(range(6)))


def draw_draft_card(ctx: Context, s: State, task: DrawDraftCard, ch: int) -> None:
    s.draft_random = ch


def pick_options(ctx: Context, s: State, task: PickCharacter) -> list[int]:
    return [A.PICK + ch for ch in draft_received(s, task.step)]


def pick(ctx: Context, s: State, task: PickCharacter, action: int) -> None:
    """The picker plays the Character face down."""
    s.draft_picks[task.seat] = action - A.PICK


def reveal_draft(ctx: Context, s: State, task: RevealDraft) -> None:
    """Reveal picks; each player takes the Gear and one Marker of the colour (none for the Robot)."""
    for seat, ch in enumerate(s.draft_picks):
        s.controller[ch], s.seat_char[seat] = seat, ch
        for card in hand(s, ch):
            tell(s, seat, card)
        taken = take_marker(s, seat, ctx.content.char_colour[ch])
        if s.journal is not None:
            name = ctx.content.char_names[ch]
            note(
                s,
                "control",
                f"seat {seat} controls {name} this round",
                rule="control",
                seat=seat,
                character=name,
                round=s.round,
            )
            why = f"controls {name}"
            marker(ctx, s, seat, ctx.content.char_colour[ch], why, "control", "control", taken=taken, character=name)
    if s.journal is not None:
        for ch in range(6):
            if s.controller[ch] < 0:
                name = ctx.content.char_names[ch]
                note(
                    s,
                    "control",
                    f"{name} is uncontrolled this round",
                    rule="uncontrolled",
                    seat=-1,
                    character=name,
                    round=s.round,
                )
    s.active, s.draft_random = 0, -1
