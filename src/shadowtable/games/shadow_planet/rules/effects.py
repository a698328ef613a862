"""The card-effect vocabulary: every effect a card, Section or ability can carry, as data.

An effect is a JSON object ``{"kind": ..., <parameters>}``.  :data:`EFFECT_KINDS` names each
kind, where it may appear and the type of each parameter; :func:`validate_effect` checks one.
The engine interprets these kinds and nothing else, so a printed card list can be written in
the content file alone.
"""

from __future__ import annotations

from typing import Any

TYPES = ("move", "search", "get", "repair", "attack")
"""Operation card types, in step order (I Move .. V Attack)."""
COLOURS = ("yellow", "orange", "red", "white", "black")
"""Marker colours, in Initiative order of the Characters that wear them (the Robot has none)."""

CARD = "card"
SECTION = "section"
ABILITY = "ability"

EFFECT_KINDS: dict[str, tuple[frozenset[str], dict[str, type | tuple[type, ...]]]] = {
    # other Characters in the same Location as the source gain +amount Search this round
    "aura_search": (frozenset({CARD, ABILITY}), {"amount": int, "include_self": bool}),
    # the player cannot play cards of this type for the rest of the turn
    "forbid_type": (frozenset({CARD}), {"type": str}),
    # playable only as the first card of its type this turn; no other card of the type after it
    "exclusive_type": (frozenset({CARD}), {"type": str}),
    # at the end of the turn the card goes to the Messages pile (face up or down)
    "end_of_turn_to_messages": (frozenset({CARD}), {"face_up": bool}),
    # swap one card of your hand with one card of another player; chooser of their card
    "swap_with_player": (frozenset({CARD}), {"chooser": str}),
    # put a Vehicle into play in the current Location
    "vehicle_into_play": (
        frozenset({CARD, SECTION}),
        {"vehicle": str, "discard_to_messages": bool, "value_counts": bool},
    ),
    # at game end the card counts as `count` cards of `type` in the Gear of that role
    "endgame_count": (frozenset({CARD}), {"objective": str, "type": str, "count": int}),
    # Section effects
    "repair_advance": (frozenset({SECTION}), {"amount": int}),
    "messages_look_remove": (frozenset({SECTION}), {"look": int, "remove": int}),
    "robot_gear_swap": (frozenset({SECTION}), {}),
    "countdown_adjust": (frozenset({SECTION}), {"amount": int}),
    "give_pool_markers": (frozenset({SECTION, ABILITY}), {"count": int}),
    "draw_any_location": (frozenset({SECTION}), {"count": int}),
    "temple_pile": (frozenset({SECTION}), {"count": int}),
    # abilities
    "cancel_ability": (frozenset({ABILITY}), {}),
    "give_pool_marker": (frozenset({ABILITY}), {"count": int}),
    "free_move_to_section": (frozenset({ABILITY}), {"location": str, "section": str}),
    "search_bonus": (frozenset({ABILITY}), {"amount": int}),
    "take_protagonist": (frozenset({ABILITY}), {}),
}

OPTIONAL_DEFAULTS: dict[str, dict[str, Any]] = {
    "vehicle_into_play": {"discard_to_messages": False, "value_counts": True},
    "aura_search": {"include_self": False},
    "end_of_turn_to_messages": {"face_up": True},
    "swap_with_player": {"chooser": "other"},
}

ROLES = ("alien", "astronaut", "guardian")


def validate_effect(effect: Any, where: str, allowed_in: str) -> dict[str, Any]:
    """The effect with defaults filled in; raises ``ValueError`` naming ``where`` and the field."""
    if not isinstance(effect, dict):
        raise ValueError(f"{where}: effect must be an object, got {effect!r}")
    kind = effect.get("kind")
    if kind not in EFFECT_KINDS:
        raise ValueError(f"{where}: field 'kind': unknown effect {kind!r}")
    contexts, params = EFFECT_KINDS[kind]
    if allowed_in not in contexts:
        raise ValueError(f"{where}: effect {kind!r} cannot appear on a {allowed_in}")
    full = {**OPTIONAL_DEFAULTS.get(kind, {}), **effect}
    for name, wanted in params.items():
        if name not in full:
            raise ValueError(f"{where}: effect {kind!r} misses field {name!r}")
        value = full[name]
        if isinstance(value, bool) and wanted is int or not isinstance(value, wanted):
            raise ValueError(f"{where}: effect {kind!r} field {name!r} has bad type {value!r}")
    extra = set(full) - set(params) - {"kind"}
    if extra:
        raise ValueError(f"{where}: effect {kind!r} has unknown fields {sorted(extra)}")
    _check_values(kind, full, where)
    return full


def _check_values(kind: str, effect: dict[str, Any], where: str) -> None:
    if "type" in effect and effect["type"] not in TYPES:
        raise ValueError(f"{where}: effect {kind!r} field 'type': unknown card type {effect['type']!r}")
    if kind == "endgame_count" and (effect["objective"] not in ROLES or effect["count"] < 0):
        raise ValueError(f"{where}: effect 'endgame_count' field 'objective'/'count' is invalid")
    if kind == "swap_with_player" and effect["chooser"] != "other":
        raise ValueError(f"{where}: effect 'swap_with_player' field 'chooser' must be 'other'")
    for name in ("amount", "count", "look", "remove"):
        if name in effect and effect[name] < (0 if kind == "endgame_count" else 1):
            raise ValueError(f"{where}: effect {kind!r} field {name!r} must be positive")
