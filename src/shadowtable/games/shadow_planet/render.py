"""A readable text rendering of a Shadow Planet observation."""

from __future__ import annotations

from typing import Any

from shadowtable.games.shadow_planet.content import COLOURS
from shadowtable.games.shadow_planet.context import Context


def render(r: Context, obs: dict[str, Any]) -> str:
    """Text of everything in ``obs`` a player would look at."""
    c = r.content

    def label(card: int | None) -> str:
        return "?" if card is None else c.short(card)

    pub = obs["public"]
    pending = obs["pending"]
    who = pending["seat"]
    to_act = "game over" if who is None else "chance" if who < 0 else f"seat {who}: {pending['prompt']}"
    lines = [
        f"The Shadow Planet - round {pub['round']} - {pending['kind'].replace('_', ' ')} - seen by "
        + ("spectator" if obs["seat"] is None else f"seat {obs['seat']}"),
        f"Countdown {pub['countdown']}  Repair {pub['repair']}  Threat {pub['threat']}  "
        f"Protagonist: seat {pub['protagonist']}  To act: {to_act}",
    ]
    objectives = ["?" if o is None else ("-" if o < 0 else c.objective_names[o]) for o in pub["objectives"]]
    for seat in range(len(pub["objectives"])):
        ch = pub["seat_character"][seat]
        markers = ", ".join(f"{COLOURS[k]} {pub['sheets'][seat * 5 + k]}" for k in range(5))
        who = c.char_names[ch] if ch >= 0 else "-"
        lines.append(f"  seat {seat}: objective {objectives[seat]}, controls {who}; markers {markers}")
    zones = pub["zones"]
    for ch in range(6):
        where = c.location_names[pub["character_location"][ch]]
        sec = pub["character_section"][ch]
        if sec >= 0:
            where += f" / {c.section_names[sec]}"
        gear = zones["gear"][ch]
        known = ", ".join(label(k) for k in gear["known"]) or "-"
        played = ", ".join(label(k) for k in zones["played"][ch]) or "-"
        lines.append(f"  {c.char_names[ch]} at {where}: Gear {gear['size']} cards (seen: {known}); played: {played}")
    for d, deck in enumerate(zones["decks"]):
        name = "Messages pile" if d == 4 else c.location_names[d]
        top = ", ".join(label(k) for k in deck["top"]) or "-"
        lines.append(f"  {name}: {deck['size']} cards; known top: {top}")
    for v, at in enumerate(pub["vehicle_loc"]):
        lines.append(f"  {c.vehicle_names[v]}: " + (c.location_names[at] if at >= 0 else "not in play"))
    marks = [
        f"{c.section_names[k]}: " + "/".join(COLOURS[x] for x in range(5) if (m >> x) & 1)
        for k, m in enumerate(pub["section_markers"])
        if m
    ]
    lines.append("  Section Markers: " + ("; ".join(marks) or "none"))
    lines.append(
        f"  Temple pile: {len(zones['temple'])}  Discarded: {len(zones['discard'])}  Removed: {zones['removed']}"
    )
    if pub["reveal_cards"]:
        lines.append("  Last Messages reveal: " + ", ".join(label(k) for k in pub["reveal_cards"]))
    out = obs["outcome"]
    if out is not None:
        lines.append(f"Game over ({out['reason']}): {out['why']}")
        for row in out["seats"]:
            lines.append(f"  seat {row['seat']}: {row['why']}")
    return "\n".join(lines)
