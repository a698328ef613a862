"""The initial state: the components laid out as the rulebook's setup describes."""

from __future__ import annotations

from shadowtable.games.shadowlord.content import CARD_VALUES
from shadowtable.games.shadowlord.context import Context
from shadowtable.games.shadowlord.rules.alliances import lord
from shadowtable.games.shadowlord.state import ACTIVE, BAG, BLACK, NOBODY, REMOVED, State
from shadowtable.games.shadowlord.tasks import RollFirstPlayer

NV = CARD_VALUES


def initial_state(ctx: Context) -> State:
    """Setup as written: three rings per player on the Home Planet, shadows in the Lost
    Fortress, the Shadowlord with the Power Stone and five ships, a face-down disc per empty
    galaxy (their identities are chance, drawn when turned over)."""
    s = State.__new__(State)
    s.journal = None
    _lay_out_figures(ctx, s)
    _lay_out_components(ctx, s)
    _start_turns(ctx, s)
    return s


def _lay_out_figures(ctx: Context, s: State) -> None:
    """The figures: the alliances in play at home (the others' removed), the Shadowlord and the
    shadows in the Lost Fortress, the discs' figures in the bag."""
    c = ctx.content
    nf = c.num_figures
    s.owner = [NOBODY] * nf
    s.loc = [NOBODY] * nf
    s.status = [BAG] * nf
    s.ships = [0] * nf
    s.captor = [NOBODY] * nf
    s.moves = [0] * nf
    s.flags = [0] * nf
    s.adjust = [0] * nf
    s.pcards = [0] * (nf * NV)
    in_play = set(ctx.config.alliances)
    for f in range(12):
        colour = c.fig_colour[f]
        if colour in in_play:
            s.owner[f], s.loc[f], s.status[f] = colour, c.home_of[colour], ACTIVE
        else:
            s.status[f] = REMOVED
    lf = lord(ctx)
    for f in range(lf, nf):
        s.owner[f], s.loc[f], s.status[f] = BLACK, c.fortress, ACTIVE
    s.ships[lf] = min(c.supplies["shadowlord_ships"], c.supplies["black_ships"])
    s.stone = lf


def _lay_out_components(ctx: Context, s: State) -> None:
    """The discs, the cards, the ships' supplies and boxes, and the seats in play."""
    c = ctx.content
    ng, sup = c.num_galaxies, c.supplies
    in_play = set(ctx.config.alliances)
    s.loose_col = [NOBODY] * ng
    s.loose_n = [0] * ng
    s.disc = [1 if c.cell_kind[g] in ("galaxy", "ruins", "space_base") else 0 for g in range(ng)]
    s.bag = list(c.disc_counts)
    s.deck = list(c.card_counts)
    s.discard = [0] * NV
    s.hand = [0] * (4 * NV)
    s.supply = [sup["ships_per_colour"] if a in in_play else 0 for a in range(4)]
    s.supply.append(sup["black_ships"] - s.ships[lord(ctx)])
    s.boxed = [0 if a in in_play else sup["ships_per_colour"] for a in range(4)] + [0]
    s.alive = [1 if a in in_play else 0 for a in range(4)]
    s.perm = [0] * 4
    s.seat_out = [0] * 4
    for seat in range(ctx.players, 4):
        s.seat_out[seat] = 1


def _start_turns(ctx: Context, s: State) -> None:
    """The timer, the turn counters and an empty table: the first thing to do is to roll for the
    first player."""
    c = ctx.content
    s.stone_passes = 0
    every = ctx.options["timer_mode"] == "every_turn"
    s.timer = c.timer_every_turn_notches if every else c.timer_notches
    s.cur = NOBODY
    s.turn = 0
    s.first_round_turns = len(ctx.config.alliances)
    s.bribed = s.offers = s.truce = s.shadow_ctl = s.steps_turn = s.pool = 0
    s.winner = NOBODY
    s.first_seat = NOBODY
    s.roll = -1
    s.announced = -1
    s.last_duel = None
    s.last_vote = None
    s.battle = s.vote = s.offer = None
    s.stack = [RollFirstPlayer()]
    s.end = ""
    s.legal = None
    s.at = None
