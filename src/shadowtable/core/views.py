"""A game's typed observation, found through its manifest (so generic code names no game).

``typed_view(game, game.observe(state, seat))`` is the observation as the class the game's
manifest names as ``view`` (a subclass of :class:`shadowtable.core.observation.Observation`).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from shadowtable.core.errors import ShadowTableError
from shadowtable.core.game import Game
from shadowtable.core.game import Observation as JsonObservation
from shadowtable.core.manifest import load, manifest_of
from shadowtable.core.observation import Observation

TypedObservation = Observation[Any, Any, Any]
"""The typed observation of a game, whichever it is."""


@cache
def view_class(game_class: type[Game[Any]]) -> type[TypedObservation]:
    """The typed observation class the manifest of ``game_class`` names (looked up once);
    :class:`ShadowTableError` if it names none."""
    reference = manifest_of(game_class).view
    if reference is None:
        raise ShadowTableError(f"{game_class.__name__} names no typed observation in its manifest")
    found = load(reference)
    if not (isinstance(found, type) and issubclass(found, Observation)):
        raise ShadowTableError(f"the view {reference!r} is not an Observation class")
    return found


def typed_view(game: Game[Any], observation: JsonObservation, *, checked: bool = True) -> TypedObservation:
    """``observation`` (``game.observe(...)``'s JSON) as the game's typed view.  ``checked=False``
    skips the checks of :meth:`~shadowtable.core.observation.Observation.from_json`, for an
    observation the game itself wrote (see :meth:`~shadowtable.core.observation.Observation.from_game_json`)."""
    view = view_class(type(game))
    return view.from_json(observation) if checked else view.from_game_json(observation)
