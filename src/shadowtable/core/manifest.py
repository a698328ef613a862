"""A game's manifest: where its adapters live, as lazy import strings.

Every game package may hold a ``manifest`` module with ``MANIFEST = Manifest(...)`` naming its
heuristic bot, RL observation encoder, terminal board, state evaluations, length bound and typed
observation as
``"module:attribute"`` strings.  Generic modules (bots, RL, the terminal app) find a game's
adapter here and import it only when it is used, so no generic module names a game.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from shadowtable.core.errors import ShadowTableError


@dataclass(frozen=True)
class Manifest:
    """Import strings (``"package.module:attribute"``) of a game's adapters; ``None``: none.

    - ``heuristic_bot``: a class whose instances are :class:`shadowtable.bots.base.Bot`;
    - ``encoder``: a factory ``(game) -> Encoder`` of fixed-shape observation arrays;
    - ``terminal_board``: ``(game, typed observation) -> rich renderable`` for the terminal app;
    - ``web_board``: ``(game, view message) -> shadowtable.web.boards.BoardHtml`` for the browser;
    - ``evaluations``: name to ``(game, state) -> list[float]``, for search cut-offs;
    - ``gym_id``: the Gymnasium environment id registered for the game;
    - ``length_bound``: ``(game) -> int``, an upper bound on the steps (decisions and chance
      outcomes) of one game, worked out from the rules (OpenSpiel's ``max_game_length``);
    - ``view``: the game's typed observation, a subclass of
      :class:`shadowtable.core.observation.Observation` (``from_json(game.observe(...))``);
    - ``rules_extras``: ``(game_id, reference) -> (goals, endings, tables)``, what the rules page adds;
    - ``option_words``: option name to :class:`shadowtable.core.spec.OptionWords` (the lobby's form);
    - ``tutorial``: a :class:`shadowtable.tutorial.lesson.Lesson`, the title's guided first game;
    - ``deduction``: a :class:`shadowtable.core.deduction.Deduction`, what a seat could deduce of
      the hidden information from its own view of the game (docs/deduction.md);
    - ``action_kinds``: a :class:`shadowtable.core.action_kinds.ActionKinds`, its decisions sorted
      into kinds by action id (the designer's lab restricts play by kind);
    - ``content_parts``: rules-ledger id or id group to the top-level keys of the game's content
      document that change it (the designer's lab names them).
    """

    heuristic_bot: str | None = None
    encoder: str | None = None
    terminal_board: str | None = None
    web_board: str | None = None
    evaluations: Mapping[str, str] = field(default_factory=dict)
    gym_id: str | None = None
    length_bound: str | None = None
    view: str | None = None
    tutorial: str | None = None
    option_words: str | None = None
    rules_extras: str | None = None
    deduction: str | None = None
    action_kinds: str | None = None
    content_parts: str | None = None
    search_settings: str = ""
    analysis_settings: Mapping[str, Any] = field(default_factory=dict)
    """What the game server's analysis of this game sets beyond the server's own settings
    (``AnalysisSettings`` fields: ``{"horizon": 60, "most_choices": 4}`` where rollouts to the end
    of every choice would judge few decisions in the server's budget)."""
    end_reasons: str | None = None
    """A ``Mapping[str, str]``: each ``end_reason`` of the game's summaries in words, for reports."""
    """Settings the ladder's searching level adds for this game (``:max_rollout_steps=60``...)."""


NO_ADAPTERS = Manifest()


def manifest_of(game_class: type[Any]) -> Manifest:
    """The manifest in the package of ``game_class`` (or of its nearest base class with one)."""
    for cls in game_class.__mro__:
        package = cls.__module__.rpartition(".")[0]
        if not package or package == "shadowtable.core":
            continue
        try:
            module = importlib.import_module(f"{package}.manifest")
        except ModuleNotFoundError as exc:
            if exc.name != f"{package}.manifest":
                raise
            continue
        found = getattr(module, "MANIFEST", None)
        if isinstance(found, Manifest):
            return found
    return NO_ADAPTERS


def load(reference: str) -> Any:
    """The object a ``"module:attribute"`` string names, imported now."""
    module_name, sep, attribute = reference.partition(":")
    if not sep:
        raise ShadowTableError(f"an adapter reference is 'module:attribute', got {reference!r}")
    try:
        return getattr(importlib.import_module(module_name), attribute)
    except (ImportError, AttributeError) as exc:
        raise ShadowTableError(f"cannot load adapter {reference!r}: {exc}") from exc
