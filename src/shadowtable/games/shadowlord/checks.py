"""Component conservation: 50 Power Cards, Space Ships and rings per colour, every character
exactly once; the occupancy index agrees with the figures' locations."""

from __future__ import annotations

from shadowtable.games.shadowlord.board import occupancy
from shadowtable.games.shadowlord.content import CARD_VALUES, MAX_GALAXIES
from shadowtable.games.shadowlord.context import Context
from shadowtable.games.shadowlord.state import ACTIVE, BAG, BLACK, CAPTIVE, REMOVED, State

NV = CARD_VALUES


def card_locations(s: State) -> list[int]:
    """Cards per value index across deck, discard, hands, portraits and the current Duel."""
    counts = [s.deck[v] + s.discard[v] for v in range(NV)]
    for k in range(len(s.hand) // NV):
        for v in range(NV):
            counts[v] += s.hand[k * NV + v]
    for f in range(len(s.owner)):
        for v in range(NV):
            counts[v] += s.pcards[f * NV + v]
    if s.offer is not None:
        for v in range(NV):
            counts[v] += s.offer.give[v]
    battle = s.battle
    duels = [] if battle is None else ([battle.duel] if battle.duel is not None else []) + battle.ready
    for duel in duels:
        for side in (0, 1):
            for v in duel.drawn[side]:
                counts[v] += 1
            for v in range(NV):
                counts[v] += duel.committed[side][v]
    return counts


def conservation_errors(ctx: Context, s: State) -> list[str]:
    c = ctx.content
    errors: list[str] = []
    counts = card_locations(s)
    if counts != list(c.card_counts) or any(x < 0 for x in s.deck + s.discard + s.hand + s.pcards):
        errors.append(f"power cards {counts} != {list(c.card_counts)}")
    sup = c.supplies
    for colour in range(5):
        total = sup["black_ships"] if colour == BLACK else sup["ships_per_colour"]
        rings = sum(
            s.ships[f] for f in range(len(s.owner)) if s.owner[f] == colour and s.status[f] in (ACTIVE, CAPTIVE)
        )
        loose = sum(n for g, n in enumerate(s.loose_n) if n and s.loose_col[g] == colour)
        held = rings + loose + s.supply[colour] + s.boxed[colour]
        if held != total or s.supply[colour] < 0:
            errors.append(f"colour {colour}: {held} Space Ships accounted for, expected {total}")
        in_use = sum(1 for f in range(len(s.owner)) if s.owner[f] == colour and s.status[f] in (ACTIVE, CAPTIVE))
        limit = sup["black_rings"] if colour == BLACK else sup["rings_per_colour"]
        if in_use > limit:
            errors.append(f"colour {colour}: {in_use} Power Rings in use, only {limit}")
    for f in range(len(s.owner)):
        st = s.status[f]
        if st == ACTIVE and not (0 <= s.loc[f] < c.num_galaxies):
            errors.append(f"{c.fig_name[f]} is active but off the board")
        if st != ACTIVE and s.loc[f] != -1:
            errors.append(f"{c.fig_name[f]} is not active but has a location")
        if st == CAPTIVE and (s.captor[f] < 0 or s.status[s.captor[f]] not in (ACTIVE, CAPTIVE)):
            errors.append(f"{c.fig_name[f]} is captive without a captor")
        if st in (BAG, REMOVED) and s.ships[f]:
            errors.append(f"{c.fig_name[f]} is out of play with Space Ships")
        if st == ACTIVE and s.ships[f] + (1 if s.stone == f else 0) > sup["ring_capacity"]:
            errors.append(f"{c.fig_name[f]} carries more than a ring holds")
        if st == CAPTIVE and s.ships[f]:
            errors.append(f"{c.fig_name[f]} is captive with Space Ships")
    if s.stone >= 0 and s.status[s.stone] not in (ACTIVE, CAPTIVE):
        errors.append("the Power Stone is held by a figure out of play")
    if s.at is not None and s.at != occupancy(s.loc, MAX_GALAXIES):
        errors.append("the occupancy index disagrees with the figures' locations")
    bag_left = sum(s.bag)
    if bag_left != sum(s.disc):
        errors.append(f"{bag_left} discs in the bag but {sum(s.disc)} face down on the board")
    return errors
