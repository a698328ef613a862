"""The bot levels a server offers: the only bots a client may seat, each a fixed spec chosen here.

A client names a level (``"bot:ismcts"``), never parameters or a file: the spec a level runs is
the server's, so no request can make a bot search for hours or open a path on the server's disk.
The operator's ``--default-bot`` (trusted, from the command line) may be any bot spec.  The specs
are the ladder's (:mod:`shadowtable.bots.ladder`), the same ``play`` and ``tournament`` run; the
lobby offers a level above 1 only where the ladder's results show it stronger than the level below
(:func:`offered_levels`).
"""

from __future__ import annotations

import importlib.util
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from shadowtable.bots import ladder
from shadowtable.bots.policy_bot import configuration_words, shipped_policy
from shadowtable.bots.registry import make_bot, parse_bot_spec
from shadowtable.core.errors import BotError
from shadowtable.core.manifest import manifest_of
from shadowtable.core.registry import available_games, game_class

SEARCH_SHARE = 0.8
"""The share of the bot budget a searching level plans to use (the rest is margin: past the whole
budget its worker process is stopped)."""


@dataclass(frozen=True)
class BotLevel:
    """A bot a client may seat: its name, the spec the server runs and what the lobby shows."""

    name: str
    spec: str
    description: str
    shown: str
    """The level in a bot's name: ``Ada (heuristic bot)``."""
    searches: bool = False
    """Whether it searches until told to stop: it is given :data:`SEARCH_SHARE` of the budget."""

    def spec_within(self, budget_s: float, game_id: str | None = None) -> str:
        """The spec run for one decision of ``game_id`` within ``budget_s`` seconds: the ladder's,
        its time cap lowered to :data:`SEARCH_SHARE` of the budget where that is less."""
        if not self.searches:
            return self.spec
        cap = min(ladder.SEARCH_TIME_CAP_S, max(0.01, budget_s * SEARCH_SHARE))
        return ladder.LADDER[self.name].spec_for(game_id or "", cap)


LEVELS: dict[str, BotLevel] = {
    level.name: level
    for level in (
        BotLevel("random", "random", "Random (level 0: any legal move)", "random"),
        BotLevel("heuristic", "heuristic", "Heuristic (level 1: plays sensibly, quick)", "heuristic"),
        BotLevel(
            "ismcts",
            ladder.LADDER["ismcts"].spec_for(""),
            "ISMCTS (level 2: searches with the heuristic as guide, stronger and slower)",
            "ISMCTS",
            searches=True,
        ),
        BotLevel("policy", "policy", "Trained policy (a network trained on many games, quick)", "trained-policy"),
    )
}
"""Every level by name, weakest first."""

SEAT_VALUES = ["human", *(f"bot:{name}" for name in LEVELS)]
"""What a seat of a new table may be (the API's schema lists them)."""


@lru_cache(maxsize=1)
def has_numpy() -> bool:
    """Whether NumPy is installed (the shipped policies need it, and nothing more)."""
    return importlib.util.find_spec("numpy") is not None


@lru_cache(maxsize=1)
def _heuristic_games() -> frozenset[str]:
    return frozenset(gid for gid in available_games() if manifest_of(game_class(gid)).heuristic_bot)


def why_not(level: str, game_id: str, players: int, options: Mapping[str, Any] | None = None) -> str | None:
    """Why ``level`` cannot play ``game_id`` with ``players`` players and ``options`` here (``None``:
    it can)."""
    if level not in LEVELS:
        return f"unknown bot level {level[:40]!r} (a seat names a level, never parameters or a file)"
    if level == "heuristic" and game_id not in _heuristic_games():
        return f"no heuristic bot plays {game_id}"
    if level == "policy":
        if not has_numpy():
            return "the policy bot needs NumPy, which this server does not have"
        if shipped_policy(game_id, players, options) is None:
            return f"no policy ships for {configuration_words(game_id, players, options)}"
    return None


def levels_for(game_id: str, players: int, options: Mapping[str, Any] | None = None) -> list[str]:
    """The levels that play ``game_id`` with ``players`` players and ``options`` here, weakest first."""
    return [name for name in LEVELS if why_not(name, game_id, players, options) is None]


def offered_levels(
    game_id: str, players: int, folder: Path | None = None, options: Mapping[str, Any] | None = None
) -> list[str]:
    """The levels the lobby offers for ``game_id`` with ``players`` players and ``options`` (default
    options when ``None``): those that play it here and, above level 1, whose ladder result for that
    configuration shows them stronger than the level below (``folder``: where the results are;
    default :func:`ladder.results_dir`), weakest first by the evidence, each shown stronger than the
    level listed below it (:func:`ladder.offered_ladder`)."""
    return _ladder_here(game_id, players, folder, options)[0]


def withheld_levels(
    game_id: str, players: int, folder: Path | None = None, options: Mapping[str, Any] | None = None
) -> list[ladder.Withheld]:
    """The levels shown stronger than the level below that the lobby still does not offer for the
    configuration: not shown stronger than the level listed below them, the quicker offered instead
    (:func:`ladder.offered_ladder`)."""
    return _ladder_here(game_id, players, folder, options)[1]


def _ladder_here(
    game_id: str, players: int, folder: Path | None, options: Mapping[str, Any] | None
) -> tuple[list[str], list[ladder.Withheld]]:
    config = ladder.config_name(game_id, players, options)
    shown = [name for name in levels_for(game_id, players, options) if ladder.shown(name, config, folder)]
    return ladder.offered_ladder(shown, config, folder)


def typical_seconds(
    level: str, game_id: str, players: int, folder: Path | None = None, options: Mapping[str, Any] | None = None
) -> float | None:
    """The median seconds per decision measured for ``level`` by the ladder with ``options``
    (default options when ``None``), if any."""
    return ladder.typical_decision_s(level, ladder.config_name(game_id, players, options), folder)


def rating(
    level: str, game_id: str, players: int, folder: Path | None = None, options: Mapping[str, Any] | None = None
) -> ladder.LevelRating | None:
    """``level``'s rating from the rated ladder's results with ``options`` (default options when
    ``None``), if any, ranked among the levels the lobby offers there (a level rated there but not
    offered is not counted)."""
    offered = offered_levels(game_id, players, folder, options)
    return ladder.level_rating(level, ladder.config_name(game_id, players, options), folder, among=offered)


def takeover_level(
    game_id: str, players: int, move_s: float, options: dict[str, object] | None = None, folder: Path | None = None
) -> str:
    """The level that takes over a seat (a leaver, a clock run out): the strongest of the levels
    offered for the configuration (the last of :func:`offered_levels`, ordered by
    :func:`ladder.stronger`) whose typical time per decision fits ``move_s`` seconds (a level that
    does not search always fits); level 0 if none does."""
    config = ladder.config_name(game_id, players, options)
    fitting = [
        name
        for name in offered_levels(game_id, players, folder, options)
        if not LEVELS[name].searches or (ladder.median_decision_s(name, config, folder) or move_s + 1) <= move_s
    ]
    return fitting[-1] if fitting else "random"


def check_seat_bot(level: str, game_id: str, players: int, options: Mapping[str, Any] | None = None) -> None:
    """Raise :class:`BotError` unless a client may seat ``level`` at this game (nothing is loaded)."""
    why = why_not(level, game_id, players, options)
    if why is not None:
        offered = ", ".join(levels_for(game_id, players, options))
        raise BotError(f"{why}; bot levels for {game_id} with {players} players: {offered}")


def plays(level: str) -> dict[str, list[int]]:
    """The games ``level`` plays here, each with its player counts."""
    out: dict[str, list[int]] = {}
    for game_id in available_games():
        spec = game_class(game_id).SPEC
        counts = [n for n in range(spec.min_players, spec.max_players + 1) if why_not(level, game_id, n) is None]
        if counts:
            out[game_id] = counts
    return out


def check_default_bot(spec: str) -> None:
    """Raise :class:`BotError` if the operator's default bot is neither a level nor a valid spec;
    a policy file is checked for existence only (PyTorch is loaded by the bot workers, not here)."""
    if spec in LEVELS:
        return
    name, params = parse_bot_spec(spec)
    if name == "policy" and "path" in params:
        from pathlib import Path

        if not Path(str(params["path"])).is_file():
            raise BotError(f"--default-bot: no policy file at {params['path']}")
        return
    if name == "policy":
        raise BotError("--default-bot: name the level policy, or give policy:path=FILE")
    make_bot(spec)


def run_spec(bot: str, default_bot: str, budget_s: float, game_id: str | None = None) -> str:
    """The spec run for a seat stored as ``bot``: a level's own spec, else the default bot's (the
    operator's ``--default-bot``, as given; or what a table stored by an older server named)."""
    if bot in LEVELS:
        return LEVELS[bot].spec_within(budget_s, game_id)
    if default_bot in LEVELS:
        return LEVELS[default_bot].spec_within(budget_s, game_id)
    return default_bot
