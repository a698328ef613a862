"""The observation in the layout the reference encoders were written for (before the games
wrote the envelope's own layout with full-word field names): The Shadow Planet flat, Shadowlord!
with its tasks under ``public``, and the short field names of that time."""

from __future__ import annotations

from typing import Any

PLANET_NAMES = {
    "players": "n",
    "exclusive": "excl",
    "character_location": "char_loc",
    "character_section": "char_section",
    "seat_character": "seat_char",
}
LORD_PUBLIC = {
    "loose_colour": "loose_col",
    "loose_count": "loose_n",
    "permissions": "perm",
    "shadow_control": "shadow_ctl",
    "current_colour": "cur",
}
OFFER = {"characters": "chars", "permission_give": "perm_give", "permission_want": "perm_want"}
VOTE = {"subject": "a", "origin": "b", "caller": "cur", "subject_location": "at"}
DUEL = {"battle": "idx", "figures": "figs"}


def renamed(data: Any, names: dict[str, str]) -> Any:
    """``data`` (an object or ``None``) with its keys renamed by ``names``."""
    return None if data is None else {names.get(key, key): value for key, value in data.items()}


def planet(observation: dict[str, Any]) -> dict[str, Any]:
    """The flat layout: the public fields beside ``seat``, ``pending``, ``private`` and ``tasks``."""
    flat = {**renamed(observation["public"], PLANET_NAMES), "private": observation["private"]}
    flat.update(seat=observation["seat"], pending=observation["pending"], tasks=observation["tasks"])
    if observation["outcome"] is not None:
        flat["outcome"] = observation["outcome"]
    return flat


def lord(observation: dict[str, Any]) -> dict[str, Any]:
    """The nested layout with ``public.tasks`` and the short names."""
    public = renamed(observation["public"], LORD_PUBLIC)
    public["tasks"] = observation["tasks"]
    public["offer"] = renamed(public.get("offer"), OFFER)
    for key in ("vote", "last_vote"):
        public[key] = renamed(public.get(key), VOTE)
    for key in ("last_duel",):
        if key in public:
            public[key] = renamed(public[key], DUEL)
    battle = public.get("battle")
    if battle is not None:
        public["battle"] = {k: renamed(v, DUEL) if k in ("duel", "ready", "last") and isinstance(v, dict) else v
                            for k, v in battle.items()}  # fmt: skip
    return {**{k: v for k, v in observation.items() if k not in ("public", "tasks", "outcome")}, "public": public}


def legacy(observation: dict[str, Any]) -> dict[str, Any]:
    """``observation`` as it was written before: by its shape, The Shadow Planet's or Shadowlord!'s."""
    if "players" in observation["public"] and "character_location" in observation["public"]:
        return planet(observation)
    return lord(observation)
