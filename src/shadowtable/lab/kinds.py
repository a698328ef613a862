"""Kinds of action, the words the designer's lab restricts play by, read from each game's manifest."""

from __future__ import annotations

from typing import Any

from shadowtable.core.action_kinds import ActionKinds
from shadowtable.core.manifest import load, manifest_of
from shadowtable.core.registry import game_class


def game_kinds(game_id: str) -> ActionKinds | None:
    """The :class:`ActionKinds` ``game_id``'s manifest names, or ``None`` if it names none."""
    reference = manifest_of(game_class(game_id)).action_kinds
    if reference is None:
        return None
    kinds = load(reference)
    return kinds if isinstance(kinds, ActionKinds) else None


def action_kinds(game_id: str) -> list[str]:
    """Every kind of action of ``game_id``, in words (empty for a game that sorts none)."""
    kinds = game_kinds(game_id)
    return kinds.names() if kinds is not None else []


def kind_of(game: Any, state: Any, action: int) -> str:
    """The kind of ``action`` (read from its id alone: ``state`` is not needed, kept for callers
    that hold one); a game that sorts no kinds puts every action in one kind, ``"any"``."""
    kinds = game_kinds(game.spec.id)
    return kinds.of(action) if kinds is not None else "any"
