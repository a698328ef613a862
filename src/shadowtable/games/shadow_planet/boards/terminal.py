"""The Shadow Planet board: indicators, Locations with pawns, Vehicles and Sections, sheets, hand."""

from __future__ import annotations

from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from shadowtable.core.game import Game
from shadowtable.games.shadow_planet.game import ShadowPlanetGame
from shadowtable.games.shadow_planet.printed import Printed, printed
from shadowtable.games.shadow_planet.view import PlanetObservation, PlanetOutcome

COLOUR_STYLES = ("yellow", "dark_orange", "red", "white", "grey50")
"""The terminal style of each Marker colour, by colour id."""


def indicator(name: str, value: int, top: int, end: int, style: str) -> Text:
    """``Countdown ███████░░░░░ 7/12 (ends at 0)``."""
    bar = Text(f"{name:<10}")
    bar.append("█" * value, style=style)
    bar.append("░" * (top - value), style="grey35")
    bar.append(f" {value}/{top} (ends at {end})")
    return bar


def marker_dots(mask_or_counts: list[int]) -> Text:
    """A dot per Marker, in its colour (``-`` for none)."""
    text = Text()
    for colour, count in enumerate(mask_or_counts):
        if count:
            text.append("●" * count, style=COLOUR_STYLES[colour])
    return text or Text("-")


def section_marks(mask: int, colours: int) -> list[int]:
    """A Section's Markers bitmask as one flag per colour."""
    return [1 if (mask >> colour) & 1 else 0 for colour in range(colours)]


def colour_names(game: Game[Any], c: Printed) -> dict[int, str]:
    """The name of each Marker colour (by colour id), as the Characters' reference names it."""
    characters = game.words.reference()["characters"]
    return {colour: str(characters[ch]["colour"]) for ch, colour in enumerate(c.char_colour) if colour >= 0}


def pawns_text(c: Printed, colours: dict[int, str], obs: PlanetObservation, loc: int) -> Text:
    """The Characters (with colour, controlling seat and Section) and Vehicles at Location ``loc``."""
    public = obs.public
    pawns = Text()
    for ch, where in enumerate(public.character_location):
        if where != loc:
            continue
        controller = public.controller[ch]
        colour = c.char_colour[ch]
        label = c.char_names[ch] + (f" ({colours[colour]})" if colour >= 0 else "")
        label += f" [seat {controller}]" if controller >= 0 else ""
        section = public.character_section[ch]
        if section >= 0:
            label += f" in {c.section_names[section]}"
        style = COLOUR_STYLES[colour] if colour >= 0 else ""
        pawns.append(label + "\n", style=f"bold {style}" if controller == obs.seat else style)
    for v, at in enumerate(public.vehicle_loc):
        if at == loc:
            pawns.append(f"{c.vehicle_names[v]} (Vehicle)\n", style="cyan")
    pawns.rstrip()
    return pawns


def sections_text(c: Printed, obs: PlanetObservation, loc: int) -> Text:
    """The Sections of Location ``loc`` with their entry cost and Markers."""
    sections = Text()
    for s, home in enumerate(c.section_location):
        if home == loc:
            sections.append(f"{c.section_names[s]} (enter {c.section_entry[s]}) ")
            marks = section_marks(obs.public.section_markers[s], len(obs.public.pool))
            sections.append_text(marker_dots(marks))
            sections.append("\n")
    sections.rstrip()
    return sections


def locations_table(c: Printed, colours: dict[int, str], obs: PlanetObservation) -> Table:
    """Each Location with its pawns, its Sections and its deck."""
    table = Table(title="Gliese 667", expand=True, box=box.SIMPLE_HEAD)
    for column in ("Location", "Characters", "Sections (Markers)", "Deck"):
        table.add_column(column)
    for loc, name in enumerate(c.location_names):
        deck = obs.public.zones.decks[loc]
        known = ", ".join("?" if k is None else c.named(k) for k in deck.top)
        table.add_row(
            name,
            pawns_text(c, colours, obs, loc),
            sections_text(c, obs, loc),
            f"{deck.size} cards" + (f"\ntop: {known}" if known else ""),
        )
    return table


def map_table(reference: dict[str, Any]) -> Table:
    """The Links with their Move cost and what each Section costs to pay at the end of a turn."""
    table = Table(title="Links and Sections", expand=True, box=box.SIMPLE_HEAD)
    table.add_column("Links (Move cost)")
    table.add_column("Section: payment -> effect")
    links = [
        f"{a} - {b}: {link['cost']}" + (" (Vehicle only)" if link["vehicle_only"] else "")
        for link in reference["links"]
        for a, b in [link["between"]]
    ]
    payments = [
        f"{section['name']}: {pay['cost']} -> {pay['effect']}"
        for section in reference["sections"]
        for pay in section["payments"]
    ]
    for row in range(max(len(links), len(payments))):
        table.add_row(links[row] if row < len(links) else "", payments[row] if row < len(payments) else "")
    return table


def colours_line(c: Printed, colours: dict[int, str]) -> Text:
    """Which colour of Marker belongs to which Character."""
    text = Text("Marker colours: ", style="bold")
    for ch, colour in enumerate(c.char_colour):
        if colour >= 0:
            text.append(f"● {c.char_names[ch]} ({colours[colour]})  ", style=COLOUR_STYLES[colour])
    return text


def players_table(c: Printed, obs: PlanetObservation) -> Table:
    """Each seat's Objective (as far as the viewer knows it), Character and Markers."""
    public = obs.public
    colours = len(public.pool)
    table = Table(title="Players", expand=True, box=box.SIMPLE_HEAD)
    for column in ("Seat", "Objective", "Controls", "Markers on sheet"):
        table.add_column(column)
    for seat, objective in enumerate(public.objectives):
        name = "?" if objective is None else ("-" if objective < 0 else c.objective_names[objective])
        ch = public.seat_character[seat]
        counts = list(public.sheets[seat * colours : (seat + 1) * colours])
        mark = " (you)" if seat == obs.seat else ""
        protagonist = " *" if seat == public.protagonist else ""
        table.add_row(f"{seat}{mark}{protagonist}", name, c.char_names[ch] if ch >= 0 else "-", marker_dots(counts))
    return table


def hand_panel(c: Printed, obs: PlanetObservation) -> RenderableType:
    """The viewer's hand, the cards played this turn (by name, as a person reads them: no card ids)
    and the card piles' sizes."""
    seat = obs.seat
    public = obs.public
    zones = public.zones
    lines = Text()
    if seat is not None and public.seat_character[seat] >= 0:
        ch = public.seat_character[seat]
        lines.append(f"Your hand ({c.char_names[ch]}): ", style="bold")
        lines.append(", ".join(c.named(k) for k in zones.gear[ch].known) or "-")
        lines.append("\n")
    for ch, played in enumerate(zones.played):
        if played:
            lines.append(f"{c.char_names[ch]} played: ", style="bold")
            lines.append(", ".join(c.named(k) for k in played) + "\n")
    pile = zones.decks[-1].size  # the Messages pile follows the Location decks
    lines.append(
        f"Messages pile {pile}  Temple {len(zones.temple)}  Discarded {len(zones.discard)}  Removed {zones.removed}"
    )
    return Panel(lines, title="Cards")


def outcome_panel(outcome: PlanetOutcome | None) -> RenderableType | None:
    """How the game ended and why each seat won or lost (``None`` while it runs)."""
    if outcome is None:
        return None
    text = Text(f"Game over ({outcome.reason}): {outcome.why}\n", style="bold")
    for row in outcome.seats:
        text.append(f"seat {row.seat}: {row.why}\n")
    return Panel(text, title="Outcome", border_style="green")


def header_text(obs: PlanetObservation) -> Text:
    """The round, the decision pending and who views; then who must decide what."""
    who = "spectator" if obs.seat is None else f"seat {obs.seat}"
    pending = obs.pending
    header = Text(f"Round {obs.public.round} · {pending.kind.replace('_', ' ')} · viewing as {who}", style="bold")
    if pending.seat is not None and pending.seat >= 0:
        decider = "You" if obs.deciding else f"Seat {pending.seat}"
        header.append(f"\n{decider}: {pending.prompt}", style="")
    return header


def indicators_group(c: Printed, obs: PlanetObservation) -> Group:
    """The Countdown, Repair and Threat Indicators as bars."""
    public = obs.public
    return Group(
        indicator("Countdown", public.countdown, c.countdown_max, 0, "dark_orange"),
        indicator("Repair", public.repair, c.repair_max, 0, "blue"),
        indicator("Threat", public.threat, c.threat_max, c.threat_max, "red"),
    )


def shadow_planet_board(game: Game[Any], obs: object) -> RenderableType:
    """Everything a player at the table sees (its typed observation), drawn with Rich."""
    if not isinstance(game, ShadowPlanetGame):
        raise TypeError(f"the Shadow Planet board cannot draw {game.spec.id}")
    if not isinstance(obs, PlanetObservation):
        raise TypeError(f"the Shadow Planet board draws a PlanetObservation, not {type(obs).__name__}")
    c = printed(game)
    colours = colour_names(game, c)
    parts: list[RenderableType] = [
        header_text(obs),
        indicators_group(c, obs),
        hand_panel(c, obs),
        locations_table(c, colours, obs),
        players_table(c, obs),
        colours_line(c, colours),
        map_table(game.words.reference()),
    ]
    outcome = outcome_panel(obs.outcome)
    if outcome is not None:
        parts.insert(1, outcome)
    return Group(*parts)
