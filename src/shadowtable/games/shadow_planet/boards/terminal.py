"""The Shadow Planet board: indicators, Locations with pawns, Vehicles and Sections, sheets, hand."""

from __future__ import annotations

from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from shadowtable.core.game import Game, Observation
from shadowtable.games.shadow_planet.game import ShadowPlanetGame
from shadowtable.games.shadow_planet.printed import printed

COLOUR_STYLES = ("yellow", "dark_orange", "red", "white", "grey50")
COLOUR_NAMES = ("yellow", "orange", "red", "white", "black")


def indicator(name: str, value: int, top: int, end: int, style: str) -> Text:
    """``Countdown ███████░░░░░ 7/12 (ends at 0)``."""
    bar = Text(f"{name:<10}")
    bar.append("█" * value, style=style)
    bar.append("░" * (top - value), style="grey35")
    bar.append(f" {value}/{top} (ends at {end})")
    return bar


def marker_dots(mask_or_counts: list[int]) -> Text:
    text = Text()
    for colour, count in enumerate(mask_or_counts):
        if count:
            text.append("●" * count, style=COLOUR_STYLES[colour])
    return text or Text("-")


def section_marks(mask: int) -> list[int]:
    return [1 if (mask >> colour) & 1 else 0 for colour in range(5)]


def locations_table(c: Any, obs: Observation) -> Table:
    table = Table(title="Gliese 667", expand=True, box=box.SIMPLE_HEAD)
    for column in ("Location", "Characters", "Sections (Markers)", "Deck"):
        table.add_column(column)
    decks = obs["zones"]["decks"]
    for loc, name in enumerate(c.location_names):
        pawns = Text()
        for ch, where in enumerate(obs["char_loc"]):
            if where != loc:
                continue
            controller = obs["controller"][ch]
            colour = c.char_colour[ch]
            label = c.char_names[ch] + (f" ({COLOUR_NAMES[colour]})" if colour >= 0 else "")
            label += f" [seat {controller}]" if controller >= 0 else ""
            section = obs["char_section"][ch]
            if section >= 0:
                label += f" in {c.section_names[section]}"
            style = COLOUR_STYLES[colour] if colour >= 0 else ""
            pawns.append(label + "\n", style=f"bold {style}" if controller == obs["seat"] else style)
        for v, at in enumerate(obs["vehicle_loc"]):
            if at == loc:
                pawns.append(f"{c.vehicle_names[v]} (Vehicle)\n", style="cyan")
        pawns.rstrip()
        sections = Text()
        for s, home in enumerate(c.section_location):
            if home == loc:
                sections.append(f"{c.section_names[s]} (enter {c.section_entry[s]}) ")
                sections.append_text(marker_dots(section_marks(obs["section_markers"][s])))
                sections.append("\n")
        sections.rstrip()
        deck = decks[loc]
        known = ", ".join("?" if k is None else c.short(k) for k in deck["top"])
        table.add_row(name, pawns, sections, f"{deck['size']} cards" + (f"\ntop: {known}" if known else ""))
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


def colours_line(c: Any) -> Text:
    """Which colour of Marker belongs to which Character."""
    text = Text("Marker colours: ", style="bold")
    for ch, colour in enumerate(c.char_colour):
        if colour >= 0:
            text.append(f"● {c.char_names[ch]} ({COLOUR_NAMES[colour]})  ", style=COLOUR_STYLES[colour])
    return text


def players_table(c: Any, obs: Observation) -> Table:
    table = Table(title="Players", expand=True, box=box.SIMPLE_HEAD)
    for column in ("Seat", "Objective", "Controls", "Markers on sheet"):
        table.add_column(column)
    for seat, objective in enumerate(obs["objectives"]):
        name = "?" if objective is None else ("-" if objective < 0 else c.objective_names[objective])
        ch = obs["seat_char"][seat]
        counts = [obs["sheets"][seat * 5 + k] for k in range(5)]
        mark = " (you)" if seat == obs["seat"] else ""
        protagonist = " *" if seat == obs["protagonist"] else ""
        table.add_row(f"{seat}{mark}{protagonist}", name, c.char_names[ch] if ch >= 0 else "-", marker_dots(counts))
    return table


def hand_panel(c: Any, obs: Observation) -> RenderableType:
    seat = obs["seat"]
    zones = obs["zones"]
    lines = Text()
    if seat is not None and obs["seat_char"][seat] >= 0:
        ch = obs["seat_char"][seat]
        lines.append(f"Your hand ({c.char_names[ch]}): ", style="bold")
        lines.append(", ".join(c.short(k) for k in zones["gear"][ch]["known"]) or "-")
        lines.append("\n")
    for ch, played in enumerate(zones["played"]):
        if played:
            lines.append(f"{c.char_names[ch]} played: ", style="bold")
            lines.append(", ".join(c.short(k) for k in played) + "\n")
    pile = zones["decks"][4]["size"]
    lines.append(
        f"Messages pile {pile}  Temple {len(zones['temple'])}  Discarded {len(zones['discard'])}  "
        f"Removed {zones['removed']}"
    )
    return Panel(lines, title="Cards")


def outcome_panel(obs: Observation) -> RenderableType | None:
    if "outcome" not in obs:
        return None
    out = obs["outcome"]
    text = Text(f"Game over ({out['reason']}): {out['why']}\n", style="bold")
    for row in out["seats"]:
        text.append(f"seat {row['seat']}: {row['why']}\n")
    return Panel(text, title="Outcome", border_style="green")


def shadow_planet_board(game: Game[Any], obs: Observation) -> RenderableType:
    """Everything a player at the table sees, drawn with Rich."""
    if not isinstance(game, ShadowPlanetGame):
        raise TypeError(f"the Shadow Planet board cannot draw {game.spec.id}")
    c = printed(game)
    who = "spectator" if obs["seat"] is None else f"seat {obs['seat']}"
    pending = obs["pending"]
    header = Text(f"Round {obs['round']} · {pending['kind'].replace('_', ' ')} · viewing as {who}", style="bold")
    if pending["seat"] is not None and pending["seat"] >= 0:
        mine = obs["seat"] is not None and pending["seat"] == obs["seat"]
        header.append(f"\n{'You' if mine else 'Seat ' + str(pending['seat'])}: {pending['prompt']}", style="")
    indicators = Group(
        indicator("Countdown", obs["countdown"], 12, 0, "dark_orange"),
        indicator("Repair", obs["repair"], 10, 0, "blue"),
        indicator("Threat", obs["threat"], 8, 8, "red"),
    )
    parts: list[RenderableType] = [
        header,
        indicators,
        hand_panel(c, obs),
        locations_table(c, obs),
        players_table(c, obs),
        colours_line(c),
        map_table(game.words.reference()),
    ]
    outcome = outcome_panel(obs)
    if outcome is not None:
        parts.insert(1, outcome)
    return Group(*parts)
