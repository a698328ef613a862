"""Reference data a player needs to choose: card texts, Sections (costs and payments), Links,
Characters (colours, abilities), Vehicles and how each role wins, all from the content files.

Every entry is keyed by the id or name the observation uses (card ids, Location, Section and
Character names), so a front end looks up what the observation shows.  Nothing here is secret:
it is the printed material of the game.  Under ``tables`` the same material comes as ids and
numbers for bots, encoders and boards (:mod:`.printed` reads it back as typed tables), with the
decisions a seat can face, in the order the rules list them.
"""

from __future__ import annotations

from typing import Any

from shadowtable.core.rules_help import quote
from shadowtable.core.wording import counted
from shadowtable.games.shadow_planet.content import COLOURS, Content
from shadowtable.games.shadow_planet.context import Context
from shadowtable.games.shadow_planet.rules import PENDING_KINDS
from shadowtable.games.shadow_planet.rules.effects import TYPES

PACKAGE = "shadowtable.games.shadow_planet"

GOAL_RULES = {"alien": "goal_alien", "astronaut": "goal_astronaut", "guardian": "goal_guardian"}
"""The rules-help entry quoting how each role wins."""


def place_name(names: tuple[str, ...], ident: str) -> str:
    """The printed name of a Location or Section that content data gives by id (``hill``: ``Hill``)."""
    key = ident.lower()
    return next((name for name in names if name.lower().replace(" ", "_") == key), ident)


def effect_text(content: Content, effect: dict[str, Any]) -> str:
    """One effect of a card, Section or ability in words."""
    kind = effect["kind"]
    amount = effect.get("amount", 0)
    count = effect.get("count", 0)
    words = {
        "aura_search": f"other Characters in the same Location get +{amount} Search this round"
        + (" (this Character too)" if effect.get("include_self") else ""),
        "forbid_type": f"you cannot play {str(effect.get('type', '')).capitalize()} cards for the rest of the turn",
        "exclusive_type": f"play it only as your first {str(effect.get('type', '')).capitalize()} card this turn; "
        f"no other {str(effect.get('type', '')).capitalize()} card after it",
        "end_of_turn_to_messages": "at the end of the turn it goes to the Messages pile"
        + (" face up" if effect.get("face_up", True) else " face down"),
        "swap_with_player": "swap a card of your hand with a card of another player"
        + (" (they choose theirs)" if effect.get("chooser", "other") == "other" else " (you choose theirs)"),
        "vehicle_into_play": f"puts the {str(effect.get('vehicle', '')).capitalize()} into play in this Location"
        + ("; then it goes to the Messages pile" if effect.get("discard_to_messages") else ""),
        "endgame_count": f"at the end of the game it counts as {count} "
        f"{str(effect.get('type', '')).capitalize()} {'card' if count == 1 else 'cards'} "
        f"in the Gear of an {str(effect.get('objective', ''))}",
        "repair_advance": f"Repair Indicator {counted(amount, 'step')} closer to the end",
        "messages_look_remove": f"look at the top {effect.get('look', 0)} Messages cards "
        f"and remove {effect.get('remove', 0)}",
        "robot_gear_swap": "swap a card of your hand with one of the Robot's Gear",
        "countdown_adjust": f"move the Countdown Indicator {counted(amount, 'step')}, forward or back",
        "give_pool_markers": f"give {counted(count, 'Marker')} from the pool to Characters",
        "give_pool_marker": f"give {counted(count, 'Marker')} from the pool to a Character",
        "draw_any_location": f"take the top {'card' if count == 1 else f'{count} cards'} of any Location deck",
        "temple_pile": f"look at {count} cards of the Temple pile and take one",
        "cancel_ability": "cancel another Character's ability this round",
        "free_move_to_section": f"move for free from {place_name(content.location_names, effect.get('location', ''))} "
        f"into the {place_name(content.section_names, effect.get('section', ''))}",
        "search_bonus": f"+{amount} Search",
        "take_protagonist": "take the Protagonist card",
    }
    return str(words.get(kind, kind.replace("_", " ")))


def card_text(content: Content, card: int) -> str:
    """A card's printed text: its type and value, then its effects (or "no special effect")."""
    kind = TYPES[content.card_type[card]].capitalize()
    effects = "; ".join(effect_text(content, e) for e in content.card_effects[card]) or "no special effect"
    return f"{kind} {content.card_value[card]}: {effects}."


def _cost_text(cost: tuple[int, ...]) -> str:
    return ", ".join(f"{n} {TYPES[t].capitalize()}" for t, n in enumerate(cost) if n) or "nothing"


def reference(ctx: Context) -> dict[str, Any]:
    """The game's reference data as JSON (see the module's documentation)."""
    c = ctx.content
    n_loc = len(c.location_names)
    return {
        "cards": [
            {"id": k, "name": c.card_name[k], "type": TYPES[c.card_type[k]], "value": c.card_value[k],
             "text": card_text(c, k)}
            for k in range(c.num_cards)
        ],
        "links": [
            {"between": [c.location_names[a], c.location_names[b]], "cost": c.link_cost[a][b],
             "vehicle_only": c.link_vehicle_only[a][b]}
            for a in range(n_loc) for b in range(a + 1, n_loc) if c.link_cost[a][b]
        ],
        "sections": [
            {
                "name": c.section_names[k],
                "location": c.location_names[c.section_location[k]],
                "entry_cost": c.section_entry[k],
                "payments": [
                    {"label": r.label, "cost": _cost_text(r.cost),
                     "effect": "; ".join(effect_text(c, e) for e in r.effects)}
                    for r in c.section_reveals[k]
                ],
            }
            for k in range(len(c.section_names))
        ],
        "characters": [
            {
                "name": c.char_names[k],
                "colour": COLOURS[c.char_colour[k]] if c.char_colour[k] >= 0 else None,
                "start": c.location_names[c.char_start[k]],
                "ability": "; ".join(effect_text(c, e) for e in c.char_controlled[k]) or None,
                "uncontrolled": "; ".join(effect_text(c, e) for e in c.char_uncontrolled[k]) or None,
            }
            for k in range(len(c.char_names))
        ],
        "vehicles": [
            {"name": c.vehicle_names[k], "capacity": c.vehicle_capacity[k],
             "bonus": _bonus_text(*c.vehicle_bonus[k])}
            for k in range(len(c.vehicle_names))
        ],
        "objectives": [
            {"name": c.objective_names[k], "priority": k + 1, "role": c.objective_role[k],
             "goal": quote(PACKAGE, GOAL_RULES[c.objective_role[k]])}
            for k in range(len(c.objective_names))
        ],
        "tables": tables(ctx),
    }  # fmt: skip


def tables(ctx: Context) -> dict[str, Any]:
    """The printed material by id: cards (type, value, starting place, what their effects do),
    Locations and Links, Sections and their payments, Vehicles, Characters, Objectives, the
    indicators' ranges, and the decisions (``pending.kind``) a seat can face."""
    c = ctx.content
    return {
        "types": list(TYPES),
        "card_name": list(c.card_name),
        "card_type": list(ctx.card_type),
        "card_value": list(ctx.card_value),
        "card_home": list(c.card_home),
        "forbid": list(ctx.forbid),
        "end_of_turn_face_up": list(ctx.end_of_turn),
        "swap": list(ctx.swap),
        "vehicle_play": [entry is not None for entry in ctx.vehicle_play],
        "endgame": [[list(count) for count in counts] for counts in ctx.endgame],
        "location_names": list(c.location_names),
        "link_cost": [list(row) for row in c.link_cost],
        "walk_ok": [list(row) for row in ctx.walk_ok],
        "drive_dist": [list(row) for row in ctx.drive_dist],
        "section_names": list(c.section_names),
        "section_location": list(c.section_location),
        "section_entry": list(c.section_entry),
        "section_costs": [[list(r.cost) for r in reveals] for reveals in c.section_reveals],
        "section_effects": [[[dict(e) for e in r.effects] for r in reveals] for reveals in c.section_reveals],
        "vehicle_names": list(c.vehicle_names),
        "vehicle_bonus": [list(bonus) for bonus in c.vehicle_bonus],
        "char_names": list(c.char_names),
        "char_colour": list(c.char_colour),
        "robot": ctx.robot,
        "objective_names": list(c.objective_names),
        "objective_role": list(c.objective_role),
        "countdown_max": c.countdown_max,
        "repair_max": c.repair_max,
        "threat_max": c.threat_max,
        "markers_per_colour": c.markers_per_colour,
        "decisions": list(PENDING_KINDS),
    }


def _bonus_text(kind: str, amount: int) -> str:
    if kind == "multiply_total":
        return f"Move total x{amount}"
    if kind == "add_per_card":
        return f"+{amount} Move per card played"
    return f"{kind.replace('_', ' ')} {amount}"


CONTENT_PARTS_BY_CLAUSE: dict[str, tuple[str, ...]] = {
    "SP-COMP-1": ("cards", "locations", "gear_size", "messages_size"),
    "SP-COMP-2": ("markers_per_colour", "characters"),
    "SP-COMP-3": ("locations",),
    "SP-COMP-4": ("cards", "characters"),
    "SP-COMP-5": ("cards",),
    "SP-SETUP-1": ("indicators",),
    "SP-SETUP-3": ("objectives",),
    "SP-SETUP-4": ("characters",),
    "SP-CTRL-5": ("cards", "characters", "markers_per_colour"),
    "SP-OPS-1": ("characters",),
    "SP-OPS-MOVE": ("links", "sections"),
    "SP-OPS-END": ("sections",),
    "SP-MSG-3": ("reveal_count",),
    "SP-IND": ("indicators",),
    "SP-END-1": ("indicators",),
    "SP-END-3": ("objectives",),
    "SP-SEC": ("sections",),
    "SP-VEH": ("vehicles",),
    "SP-AB": ("characters",),
    "SP-CARD": ("cards",),
    "SP-D-NAMES": ("characters", "cards"),
    "SP-D-OBJ": ("objectives",),
    "SP-D-IND": ("indicators",),
    "SP-D-DECKS": ("locations",),
    "SP-D-LINKS": ("links",),
    "SP-D-BOARD-CAVES": ("links",),
    "SP-D-SECTIONS": ("sections",),
    "SP-D-CARDS": ("cards",),
    "SP-D-CARD": ("cards",),
    "SP-D-GEAR": ("cards",),
    "SP-D-ABILITIES": ("characters",),
}
"""The parts of the content document (its top-level keys) that change a ledger entry, by id or
id group (``SP-SEC`` covers every ``SP-SEC-...``); the designer's lab names them."""
