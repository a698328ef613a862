"""Power Cards and dice: draws as chance nodes (reshuffles move the timer), d8 and 2d8 rolls."""

from __future__ import annotations

from collections.abc import Callable

from shadowtable.games.shadowlord.actions import NF, place_id
from shadowtable.games.shadowlord.content import CARD_VALUES, SHADOWLORD
from shadowtable.games.shadowlord.context import Context
from shadowtable.games.shadowlord.rules.registry import chance, log
from shadowtable.games.shadowlord.state import ACTIVE, BLACK, CAPTIVE, SLState, Task

NV = CARD_VALUES
DrawSink = Callable[[Context, SLState, Task, int], None]
DieHandler = Callable[[Context, SLState, Task, int], None]
DRAW_SINKS: dict[str, DrawSink] = {}
D8_HANDLERS: dict[str, DieHandler] = {}
TWO_D8 = [(t, (8 - abs(t - 9)) / 64.0) for t in range(2, 17)]


def hand_count(s: SLState, seat: int) -> int:
    return sum(s.hand[seat * NV : seat * NV + NV])


def portrait_count(s: SLState, f: int) -> int:
    return sum(s.pcards[f * NV : f * NV + NV])


def portrait_figs(ctx: Context, s: SLState, seat: int) -> list[int]:
    """The characters (active or captive) of ``seat``'s Alliances: where his cards may go."""
    kinds = ctx.content.fig_kind
    colours = ctx.seat_alliances[seat]
    status, owner = s.status, s.owner
    return [f for f in range(NF) if owner[f] in colours and status[f] in (ACTIVE, CAPTIVE) and kinds[f] < SHADOWLORD]


def place_actions(ctx: Context, s: SLState, seat: int) -> list[int]:
    """Every "place card v under f" for the cards in ``seat``'s Attack Hand."""
    base = seat * NV
    if not any(s.hand[base : base + NV]):
        return []
    mine = portrait_figs(ctx, s, seat)
    return [place_id(v, f) for v in range(NV) if s.hand[base + v] for f in mine]


def reshuffle(ctx: Context, s: SLState) -> None:
    """The discard pile becomes the deck; the Power Stone Timer moves one notch (REC)."""
    for v in range(NV):
        s.deck[v] += s.discard[v]
        s.discard[v] = 0
    if s.timer > 0 and ctx.options["timer_mode"] == "reshuffle":
        s.timer -= 1
    log(s, f"the Power Card deck is reshuffled; timer {s.timer}")


def needs_card(ctx: Context, s: SLState) -> bool:
    """Prepare a draw: reshuffle when the deck is empty; False if no card exists anywhere."""
    if sum(s.deck):
        return True
    if sum(s.discard):
        reshuffle(ctx, s)
        return True
    return False


def draw_outcomes(ctx: Context, s: SLState, task: Task) -> list[tuple[int, float]]:
    total = sum(s.deck)
    return [(v, s.deck[v] / total) for v in range(NV) if s.deck[v]]


@chance("draw", draw_outcomes)
def apply_draw(ctx: Context, s: SLState, task: Task, v: int) -> None:
    """``("draw", sink, arg)``: take a card of value index ``v`` from the deck into ``sink``."""
    s.deck[v] -= 1
    DRAW_SINKS[task[1]](ctx, s, task, v)


def sink_hand(ctx: Context, s: SLState, task: Task, v: int) -> None:
    s.hand[task[2] * NV + v] += 1


def sink_shadow_ships(ctx: Context, s: SLState, task: Task, v: int) -> None:
    """A shadow's Space Ships are the drawn card's value (six at most); the card is discarded."""
    f = task[2]
    want = min(ctx.content.card_values[v], ctx.content.supplies["ring_capacity"]) - s.ships[f]
    got = max(0, min(want, s.supply[BLACK]))
    s.ships[f] += got
    s.supply[BLACK] -= got
    s.discard[v] += 1
    log(s, f"{ctx.content.fig_name[f]} draws {ctx.content.card_values[v]}: {s.ships[f]} Space Ships")


DRAW_SINKS["hand"] = sink_hand
DRAW_SINKS["shadow"] = sink_shadow_ships


def d8_outcomes(ctx: Context, s: SLState, task: Task) -> list[tuple[int, float]]:
    return [(r, 0.125) for r in range(1, 9)]


@chance("d8", d8_outcomes)
def apply_d8(ctx: Context, s: SLState, task: Task, roll: int) -> None:
    """``("d8", purpose, ...)``: hand the roll to the purpose's handler."""
    D8_HANDLERS[task[1]](ctx, s, task, roll)


def two_d8_outcomes(ctx: Context, s: SLState, task: Task) -> list[tuple[int, float]]:
    return TWO_D8


def discard_from_hand(s: SLState, seat: int, v: int, n: int = 1) -> None:
    s.hand[seat * NV + v] -= n
    s.discard[v] += n


def discard_portrait(s: SLState, f: int) -> None:
    """A character leaving the game: the cards under its portrait are discarded."""
    for v in range(NV):
        s.discard[v] += s.pcards[f * NV + v]
        s.pcards[f * NV + v] = 0
