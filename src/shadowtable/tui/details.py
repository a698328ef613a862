"""What a front end says about a choice and a seat's goal, from the game's reference data.

Pure functions over :meth:`Game.reference`, :meth:`Game.preview` and observations (no Textual),
so they are tested directly and reused by other front ends.
"""

from __future__ import annotations

import re
from typing import Any

from shadowtable.core.game import Game
from shadowtable.core.observation import Observation

SKIPPED_FIELDS = frozenset({"name", "id"})


def _summary(entry: dict[str, Any]) -> str:
    """One line for a reference entry: its ``text``, else its other fields."""
    if entry.get("text"):
        return str(entry["text"])
    parts = []
    for key, value in entry.items():
        if key in SKIPPED_FIELDS or value in (None, "", []):
            continue
        if isinstance(value, list):
            value = "; ".join(_summary(v) if isinstance(v, dict) else str(v) for v in value)
        elif isinstance(value, dict):
            value = _summary(value)
        parts.append(f"{key.replace('_', ' ')}: {value}")
    return ", ".join(parts)


def mentioned(reference: dict[str, Any], text: str) -> list[str]:
    """Reference lines for what ``text`` names: cards by ``#id``, Power Cards by value, and every
    named entry (a Section, a Location, a Character...) whose name appears in it."""
    lines: list[str] = []
    cards = {entry.get("id"): entry for entry in reference.get("cards", []) if isinstance(entry, dict)}
    for number in re.findall(r"#(\d+)", text):
        card = cards.get(int(number))
        if card is not None:
            lines.append(f"{card['name']} #{number}: {card['text']}")
    power = {entry["value"]: entry for entry in reference.get("power_cards", [])}
    for number in re.findall(r"\b(?:card|four) (\d+)s?\b", text):
        if int(number) in power:
            lines.append(str(power[int(number)]["text"]))
    named = [
        entry
        for key, entries in reference.items()
        if key not in ("cards", "power_cards") and isinstance(entries, list)
        for entry in entries
        if isinstance(entry, dict) and isinstance(entry.get("name"), str)
    ]
    for entry in sorted(named, key=lambda e: -len(e["name"])):
        name = entry["name"]
        if re.search(rf"(?<![\w/]){re.escape(name)}(?![\w/])", text):
            lines.append(f"{name}: {_summary(entry)}")
            text = text.replace(name, "")
    return lines


def action_details(game: Game[Any], reference: dict[str, Any], state: Any, action: int) -> str:
    """What a person should know before choosing ``action``: what it names (card texts, costs),
    then what would come next (:meth:`Game.preview`)."""
    words = game.words.action_to_str(state, action)
    lines = [words, *mentioned(reference, words)]
    preview = game.words.preview(state, action)
    if preview is not None:
        if preview.get("reach"):
            lines.append("With these Move points you could reach: " + ", ".join(preview["reach"]))
        choices = preview["choices"]
        shown = ", ".join(choices[:12]) + (f", ... ({len(choices)} in all)" if len(choices) > 12 else "")
        lines.append(f"Then: {preview['prompt']}: {shown}")
    return "\n".join(lines)


def how_to_win(reference: dict[str, Any], observation: Observation[object, object, object] | None) -> str:
    """The viewer's goal: its secret Objective's (where its typed observation has ``objectives``
    per seat and it knows its own), else the game's (``observation`` ``None``: not typed)."""
    seat = None if observation is None else observation.seat
    objectives = getattr(getattr(observation, "public", None), "objectives", None)
    if isinstance(seat, int) and isinstance(objectives, tuple) and seat < len(objectives):
        mine = objectives[seat]
        if isinstance(mine, int) and 0 <= mine < len(reference.get("objectives", [])):
            entry = reference["objectives"][mine]
            return f"How you win: you are the {entry['name']} ({entry['role']}).\n\n{entry['goal']}"
    if reference.get("goal"):
        return f"How you win:\n\n{reference['goal']}"
    return ""
