"""Power Cards and dice: draws as chance nodes (reshuffles move the timer), d8 and 2d8 rolls,
and the cards of the Attack Hand placed under portraits."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from shadowtable.core.events import note
from shadowtable.core.kernel import Chance, Handler, Task
from shadowtable.core.wording import counted
from shadowtable.games.shadowlord.actions import NF, place_id
from shadowtable.games.shadowlord.content import CARD_VALUES, SHADOWLORD
from shadowtable.games.shadowlord.context import Context
from shadowtable.games.shadowlord.state import ACTIVE, BLACK, CAPTIVE, State
from shadowtable.games.shadowlord.tasks import D8Roll, Draw, DrawShadowShips, DrawToHand

NV = CARD_VALUES
TWO_D8 = [(t, (8 - abs(t - 9)) / 64.0) for t in range(2, 17)]
D8 = [(r, 0.125) for r in range(1, 9)]


def public_roll(roll: Callable[[Context, State, Any, int], None]) -> Callable[[Context, State, Any, int], None]:
    """A handler of a die roll or of a card drawn face up that first records the outcome in
    ``s.roll``: both happen in the open, so the result is part of what every seat sees (two
    outcomes with the same effect on the board are still told apart)."""

    rolled = partial(_rolled, roll)  # not a closure: the compiled build's closures cannot be deep-copied
    rolled.__doc__ = roll.__doc__
    return rolled


def _rolled(roll: Callable[[Context, State, Any, int], None], ctx: Context, s: State, task: Any, outcome: int) -> None:
    s.roll = outcome
    roll(ctx, s, task, outcome)


def hand_count(s: State, seat: int) -> int:
    return sum(s.hand[seat * NV : seat * NV + NV])


def portrait_count(s: State, f: int) -> int:
    return sum(s.pcards[f * NV : f * NV + NV])


def portrait_figs(ctx: Context, s: State, seat: int) -> list[int]:
    """The characters (active or captive) of ``seat``'s Alliances: where his cards may go."""
    kinds = ctx.content.fig_kind
    colours = ctx.seat_alliances[seat]
    status, owner = s.status, s.owner
    return [f for f in range(NF) if owner[f] in colours and status[f] in (ACTIVE, CAPTIVE) and kinds[f] < SHADOWLORD]


def place_actions(ctx: Context, s: State, seat: int) -> list[int]:
    """Every "place card v under f" for the cards in ``seat``'s Attack Hand."""
    base = seat * NV
    if not any(s.hand[base : base + NV]):
        return []
    mine = portrait_figs(ctx, s, seat)
    return [place_id(v, f) for v in range(NV) if s.hand[base + v] for f in mine]


def place_card(ctx: Context, s: State, seat: int, v: int, f: int) -> None:
    """A card of ``seat``'s Attack Hand goes under ``f``'s portrait (its value stays private)."""
    s.hand[seat * NV + v] -= 1
    s.pcards[f * NV + v] += 1
    note(
        s,
        "cards",
        f"{ctx.content.colours[s.cur]} places a Power Card under {ctx.content.fig_name[f]}",
        rule="cards",
        seat=seat,
        figure=f,
    )


def reshuffle(ctx: Context, s: State) -> None:
    """The discard pile becomes the deck; the Power Stone Timer moves one notch (REC)."""
    cards = sum(s.discard)
    for v in range(NV):
        s.deck[v] += s.discard[v]
        s.discard[v] = 0
    note(
        s,
        "reshuffle",
        f"the Power Card deck is empty: the {cards} discarded cards are shuffled into a new deck",
        rule="timer",
        cards=cards,
    )
    if s.timer > 0 and ctx.options["timer_mode"] == "reshuffle":
        s.timer -= 1
        note(
            s,
            "timer",
            f"the Power Stone Timer moves one notch: {s.timer} left to the Starburst"
            + (" (the Shadowlord wins at the start of the next turn unless defeated)" if not s.timer else ""),
            rule="timer",
            timer=s.timer,
            was=s.timer + 1,
            cause="reshuffle",
        )


def prepare_draw(ctx: Context, s: State, task: Draw) -> None:
    """Before a draw: reshuffle when the deck is empty (no outcome, so no draw, if no card
    exists anywhere)."""
    if not any(s.deck) and any(s.discard):
        reshuffle(ctx, s)


def draw_outcomes(ctx: Context, s: State, task: Draw) -> list[tuple[int, float]]:
    """Card value indices with their share of the deck."""
    total = sum(s.deck)
    return [(v, s.deck[v] / total) for v in range(NV) if s.deck[v]]


def draw_to_hand(ctx: Context, s: State, task: DrawToHand, v: int) -> None:
    """Take a card of value index ``v`` from the deck into the Attack Hand."""
    s.deck[v] -= 1
    s.hand[task.seat * NV + v] += 1


def sink_shadow_ships(ctx: Context, s: State, task: DrawShadowShips, v: int) -> None:
    """A shadow's Space Ships are the drawn card's value (six at most); the card is discarded."""
    s.deck[v] -= 1
    f = task.figure
    want = min(ctx.content.card_values[v], ctx.content.supplies["ring_capacity"]) - s.ships[f]
    got = max(0, min(want, s.supply[BLACK]))
    s.ships[f] += got
    s.supply[BLACK] -= got
    s.discard[v] += 1
    note(
        s,
        "shadow_ships",
        f"{ctx.content.fig_name[f]} draws {ctx.content.card_values[v]}: "
        f"{counted(s.ships[f], 'Space Ship')} (six at most)",
        rule="fortress" if s.loc[f] == ctx.content.fortress else "search",
        figure=f,
        card=ctx.content.card_values[v],
        ships=s.ships[f],
    )


def d8_outcomes(ctx: Context, s: State, task: D8Roll) -> list[tuple[int, float]]:
    return D8[:]


def two_d8_outcomes(ctx: Context, s: State, task: object) -> list[tuple[int, float]]:
    return TWO_D8[:]


def discard_from_hand(s: State, seat: int, v: int, n: int = 1) -> None:
    s.hand[seat * NV + v] -= n
    s.discard[v] += n


def discard_portrait(s: State, f: int) -> None:
    """A character leaving the game: the cards under its portrait are discarded."""
    for v in range(NV):
        s.discard[v] += s.pcards[f * NV + v]
        s.pcards[f * NV + v] = 0


RULES: dict[type[Task], Handler] = {
    DrawToHand: Chance(draw_outcomes, draw_to_hand, shown=("seat",), prepare=prepare_draw),
    DrawShadowShips: Chance(draw_outcomes, public_roll(sink_shadow_ships), shown=("figure",), prepare=prepare_draw),
}
"""The rules of the Power Card draws, by task type (gathered into ``RULEBOOK``)."""
