"""The bot ladder: named levels, each a bot spec per game, shared by the lobby, ``play`` and ``tournament``.

Level 0 plays any legal move, level 1 is the heuristic bot, level 2 searches (ISMCTS with the
heuristic as prior and rollout policy) within a per-decision budget a person will wait for.  The
trained policy is a level of its own, set against level 1.  A level above 1 counts as *shown* for
a configuration (game, players, options) only when its ladder result (``benchmarks/ladder.py``,
kept in ``docs/results/ladder/``) exists and separates it from the level below; see
:func:`shown`.  Where two shown levels are set against the same level below (level 2 and the
policy), the lobby offers both only where one beat the other head to head, else the quicker of the
two; see :func:`offered_ladder`.  The rated ladder (``benchmarks/ladder_ratings.py``, ``ratings-<config>.json``
in the same folder) gives every level played in a configuration an openskill rating; see
:func:`level_rating`.
"""

from __future__ import annotations

import json
import math
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

SEARCH_ITERATIONS = 48
"""Level 2's iteration budget per decision (what makes a measurement reproducible), chosen so that
the median decision takes at most about 1 s of one core (``benchmarks/ladder.py`` reports it)."""

SEARCH_TIME_CAP_S = 2.0
"""Level 2's time cap per decision, a safety bound: the search stops at whichever comes first."""


def cut_by_time_cap(bot: Any, wall_s: float) -> bool:
    """Whether a decision of ``bot`` that took ``wall_s`` seconds of wall clock was cut short by
    its time cap (a searching bot's ``time`` budget; a bot without one never is)."""
    cap = getattr(bot, "time", None)
    return isinstance(cap, float) and wall_s >= cap


SEARCH_SPEC = "ismcts:rollout=heuristic:prior=heuristic"
"""Level 2's search settings; a game's manifest may add its own (``search_settings``), and the
budgets are added by :meth:`LadderLevel.spec_for`."""

RATINGS_FORMAT = "shadowtable-ladder-ratings-1"
"""The ``format`` of a rated ladder's result file."""

RESULTS_ENV = "SHADOWTABLE_LADDER_RESULTS"
"""Environment variable naming the folder of ladder results (default: the repository's)."""


def search_settings(game_id: str) -> str:
    """The settings ``game_id``'s manifest adds to the searching level (none for an unknown game)."""
    from shadowtable.core.manifest import manifest_of
    from shadowtable.core.registry import available_games, game_class

    return manifest_of(game_class(game_id)).search_settings if game_id in available_games() else ""


def default_level(game_id: str) -> str:
    """The level a bot seat plays when none is named (as the lobby's seats): level 1 where a
    heuristic bot plays ``game_id``, else level 0."""
    from shadowtable.core.manifest import manifest_of
    from shadowtable.core.registry import available_games, game_class

    heuristic = game_id in available_games() and manifest_of(game_class(game_id)).heuristic_bot
    return "heuristic" if heuristic else "random"


@dataclass(frozen=True)
class LadderLevel:
    """One rung: its name, its ``levelN`` alias, the level it must beat, and its specs."""

    name: str
    alias: str
    below: str | None
    """The level it is measured against (``None`` for level 0)."""
    searches: bool = False

    def spec_for(self, game_id: str, time_cap_s: float = SEARCH_TIME_CAP_S) -> str:
        """The spec this level plays ``game_id`` with, its search capped at ``time_cap_s`` seconds."""
        if not self.searches:
            return self.name
        base = SEARCH_SPEC + search_settings(game_id)
        return f"{base}:iterations={SEARCH_ITERATIONS}:time={max(0.01, time_cap_s):.3f}"


LADDER: dict[str, LadderLevel] = {
    level.name: level
    for level in (
        LadderLevel("random", "level0", None),
        LadderLevel("heuristic", "level1", "random"),
        LadderLevel("ismcts", "level2", "heuristic", searches=True),
        LadderLevel("policy", "policy", "heuristic"),
    )
}
"""Every level by name, weakest first (the policy is set against level 1, not level 2)."""

ALIASES: dict[str, str] = {level.alias: level.name for level in LADDER.values()}


def level_name(text: str) -> str | None:
    """The level ``text`` names (``level2`` or ``ismcts``), or ``None`` if it names none."""
    if text in LADDER:
        return text
    return ALIASES.get(text)


def resolve_spec(text: str, game_id: str) -> str:
    """A bot spec for ``game_id``: a level name or alias becomes its spec; any other text is kept."""
    name = level_name(text.strip())
    return text if name is None else LADDER[name].spec_for(game_id)


def resolve_line_up(text: str, game_id: str) -> tuple[str, ...]:
    """The bot specs of a comma-separated line-up (``simulate``'s, ``sweep``'s), each level name or
    alias replaced by its spec for ``game_id`` and any other entry kept as it is."""
    return tuple(resolve_spec(entry, game_id) for entry in text.split(","))


def resolve_entry(entry: str, game_id: str) -> str:
    """A tournament line-up entry with its level named by spec: ``level2*3`` becomes ``SPEC*3``."""
    spec, star, count = entry.rpartition("*")
    if star and count.strip().isdigit():
        return f"{resolve_spec(spec, game_id)}*{count}"
    return resolve_spec(entry, game_id)


def config_name(game_id: str, players: int, options: Mapping[str, Any] | None = None) -> str:
    """The configuration's name in result files: ``shadowlord-2p-modified``, ``shadow-planet-3p``
    (each option set away from its default appended: its name if true, else ``name-value``; the
    default where people play is no variant: :meth:`~shadowtable.core.spec.OptionSpec.is_standard`)."""
    from shadowtable.core.registry import game_class  # lazy: bots stay importable without the games

    declared = {option.name: option for option in game_class(game_id).SPEC.options}
    parts = [game_id, f"{players}p"]
    for key, value in sorted((options or {}).items()):
        if key in declared and declared[key].is_standard(value):
            continue
        if value is True:
            parts.append(key)
        elif value not in (False, None):
            parts.append(f"{key}-{value}")
    return "-".join(parts)


def results_dir() -> Path:
    """Where ladder results are read from: ``$SHADOWTABLE_LADDER_RESULTS``, else the repository's."""
    env = os.environ.get(RESULTS_ENV)
    if env:
        return Path(env)
    return Path(__file__).resolve().parents[3] / "docs" / "results" / "ladder"


def result_path(folder: Path, config: str, upper: str, lower: str) -> Path:
    """The result file of ``upper`` against ``lower`` in ``config``."""
    return folder / f"{config}-{upper}-vs-{lower}.json"


def read_result(folder: Path, config: str, upper: str, lower: str) -> dict[str, Any] | None:
    """The ladder result of ``upper`` against ``lower`` in ``config``, or ``None`` if none is readable."""
    path = result_path(folder, config, upper, lower)
    try:
        stamp = path.stat().st_mtime_ns
    except OSError:
        return None
    return _read_json(str(path), stamp)


@lru_cache(maxsize=256)
def _read_json(path: str, stamp: int) -> dict[str, Any] | None:
    """A result file's JSON object (cached while its modification time, ``stamp``, stays)."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def separated(result: Mapping[str, Any] | None) -> bool:
    """Whether ``result`` shows the upper level stronger: its interval wholly above the lower's."""
    return result is not None and bool(result.get("separated")) and _wholly_above(result, "upper", "lower")


def _wholly_above(result: Mapping[str, Any], high: str, low: str) -> bool:
    """Whether side ``high``'s 95% interval in ``result`` lies wholly above side ``low``'s."""
    try:
        return float(result[high]["interval"][0]) > float(result[low]["interval"][1])
    except (KeyError, TypeError, ValueError, IndexError):
        return False


def shown(name: str, config: str, folder: Path | None = None) -> bool:
    """Whether level ``name`` is shown stronger than the level below in ``config`` (levels 0 and 1
    always): its result separates, and was played with the spec the level plays now (a result of
    earlier settings shows nothing about the level as it is)."""
    if name in ("random", "heuristic") or LADDER[name].below is None:
        return True
    return shown_result(name, config, folder) is not None


def played_as_now(result: Mapping[str, Any], level: LadderLevel, config: str) -> bool:
    """Whether ``result``'s upper spec is the one ``level`` plays now in ``config``'s game."""
    return _side_as_now(result.get("upper"), level, config)


def _side_as_now(side: Any, level: LadderLevel, config: str) -> bool:
    """Whether one side of a result (``{"level", "spec", ...}``) played ``level``'s spec as now."""
    game_id = re.match(r"(.+?)-\d+p(?:-|$)", config)
    return game_id is not None and isinstance(side, Mapping) and side.get("spec") == level.spec_for(game_id.group(1))


@dataclass(frozen=True)
class Comparison:
    """Which of two levels counts as the stronger in a configuration, and on what evidence."""

    stronger: bool
    """Whether the first level counts as stronger than the second."""
    basis: str
    """``head-to-head`` (a result between them that separates), ``rates`` (their win rates against
    the same level below, perhaps overlapping) or ``order`` (the ladder's order: nothing measured)."""
    rates: tuple[float, float] | None = None
    """The two levels' win rates per seat-game (first, second): in the head-to-head, or against the
    level below."""
    games: int | None = None
    """The head-to-head's games."""
    unseparated: tuple[float, float, int] | None = None
    """A head-to-head between the two, played as now, whose intervals overlap (so it decides
    nothing): their win rates per seat-game (first, second) and its games."""


def compare(name: str, other: str, config: str, folder: Path | None = None) -> Comparison:
    """Whether level ``name`` counts as stronger than level ``other`` in ``config`` (a takeover plays
    the strongest), and why: a head-to-head result, played with both levels' specs as now, that
    separates them decides; else, where both were measured against the same level below, the higher
    win rate there (the better estimate, its interval perhaps overlapping); else the later level in
    :data:`LADDER`.  A head-to-head whose intervals overlap decides nothing; it is reported beside
    (``unseparated``)."""
    where = folder or results_dir()
    unseparated: tuple[float, float, int] | None = None
    for upper, lower, name_is_upper in ((name, other, True), (other, name, False)):
        result = read_result(where, config, upper, lower)
        if result is None or not _played_as_now_both(result, config):
            continue
        name_rate, other_rate = (
            _side_rate(result, side) for side in (("upper", "lower") if name_is_upper else ("lower", "upper"))
        )
        rates = (name_rate, other_rate) if name_rate is not None and other_rate is not None else None
        games = result.get("games") if isinstance(result.get("games"), int) else None
        if separated(result):
            upper_stronger = True
        elif _wholly_above(result, "lower", "upper"):
            upper_stronger = False
        else:
            if rates is not None and games is not None:
                unseparated = (*rates, games)
            continue
        return Comparison(upper_stronger == name_is_upper, "head-to-head", rates, games)
    below = LADDER[name].below
    if below is not None and below == LADDER[other].below:
        name_rate, other_rate = (_current_win_rate(level, below, config, where) for level in (name, other))
        if name_rate is not None and other_rate is not None and name_rate != other_rate:
            return Comparison(name_rate > other_rate, "rates", (name_rate, other_rate), unseparated=unseparated)
    order = list(LADDER)
    return Comparison(order.index(name) > order.index(other), "order", unseparated=unseparated)


def stronger(name: str, other: str, config: str, folder: Path | None = None) -> bool:
    """Whether level ``name`` counts as stronger than level ``other`` in ``config`` (:func:`compare`)."""
    return compare(name, other, config, folder).stronger


def _side_rate(result: Mapping[str, Any], side: str) -> float | None:
    """One side's win rate per seat-game in ``result``, if it records one."""
    part = result.get(side)
    value = part.get("win_rate") if isinstance(part, Mapping) else None
    return float(value) if isinstance(value, int | float) else None


def shown_result(name: str, config: str, folder: Path | None = None) -> Mapping[str, Any] | None:
    """The ladder result that shows level ``name`` stronger than the level below in ``config``
    (as :func:`shown`), if there is one: the measured games behind its place in the lobby."""
    level = LADDER[name]
    if level.below is None:
        return None
    result = read_result(folder or results_dir(), config, name, level.below)
    return result if separated(result) and result is not None and played_as_now(result, level, config) else None


def weakest_first(names: Sequence[str], config: str, folder: Path | None = None) -> list[str]:
    """``names`` ordered weakest first by :func:`stronger` (each placed just above the highest-listed
    level it counts as stronger than), so that a list of levels reads upward as the evidence does."""
    ordered: list[str] = []
    for name in names:
        place = len(ordered)
        while place > 0 and not stronger(name, ordered[place - 1], config, folder):
            place -= 1
        ordered.insert(place, name)
    return ordered


@dataclass(frozen=True)
class Withheld:
    """A level shown stronger than the level below but not offered: another level set against that
    same level below is offered in its place, and the two were not told apart."""

    name: str
    beside: str
    """The level offered in its place (the quicker of the two)."""
    comparison: Comparison
    """``name`` against ``beside`` (:func:`compare`): the evidence that decided nothing."""


def offered_ladder(names: Sequence[str], config: str, folder: Path | None = None) -> tuple[list[str], list[Withheld]]:
    """``names`` (levels each shown stronger than the level below) as the lobby offers them, weakest
    first (:func:`weakest_first`), so that each level is shown stronger than the level listed below
    it; and the levels left out.  Where two levels are set against the same level below (level 2 and
    the policy), the one listed above must have beaten the other head to head with separated
    intervals (:func:`compare`); where it has not (a head-to-head too close to call, or none played
    as they play now), only the quicker of the two is offered (the smaller median time per decision;
    the one listed below where either time is unmeasured)."""
    offered: list[str] = []
    withheld: list[Withheld] = []
    for name in weakest_first(names, config, folder):
        beneath = offered[-1] if offered else None
        if beneath is None or not _set_against_the_same(name, beneath):
            offered.append(name)
            continue
        why = compare(name, beneath, config, folder)
        if why.stronger and why.basis == "head-to-head":
            offered.append(name)
        elif _quicker(name, beneath, config, folder):
            offered[-1] = name
            withheld.append(Withheld(beneath, name, compare(beneath, name, config, folder)))
        else:
            withheld.append(Withheld(name, beneath, why))
    return offered, withheld


def _set_against_the_same(name: str, other: str) -> bool:
    """Whether levels ``name`` and ``other`` are both measured against the same level below."""
    below = LADDER[name].below
    return below is not None and below == LADDER[other].below


def _quicker(name: str, other: str, config: str, folder: Path | None) -> bool:
    """Whether level ``name``'s measured median time per decision is below level ``other``'s."""
    mine, theirs = (median_decision_s(level, config, folder) for level in (name, other))
    return mine is not None and theirs is not None and mine < theirs


def _played_as_now_both(result: Mapping[str, Any], config: str) -> bool:
    """Whether both sides of a head-to-head ``result`` played the specs their levels play now."""
    sides = [result.get("upper"), result.get("lower")]
    return all(
        isinstance(side, Mapping) and side.get("level") in LADDER and _side_as_now(side, LADDER[side["level"]], config)
        for side in sides
    )


def _current_win_rate(name: str, below: str, config: str, folder: Path) -> float | None:
    """Level ``name``'s win rate in its result against ``below``, if one was played as it plays now."""
    result = read_result(folder, config, name, below)
    if result is None or not played_as_now(result, LADDER[name], config):
        return None
    return _side_rate(result, "upper")


def median_decision_s(name: str, config: str, folder: Path | None = None) -> float | None:
    """The median seconds per decision of level ``name`` measured in ``config``, if measured."""
    level = LADDER[name]
    if level.below is None:
        return None
    result = read_result(folder or results_dir(), config, name, level.below)
    if result is None:
        return None
    value = result.get("upper", {}).get("median_decision_s")
    return float(value) if isinstance(value, int | float) else None


COMPARABLE_GAMES = 0.9
"""A level that played at least this share of the seat-games of the level with the smallest sigma
is ranked whatever its sigma (see :func:`ranked_levels`)."""
COMPARABLE_SIGMA = 1.5
"""A level is ranked only if its sigma is at most this many times the smallest sigma among the
levels of its configuration: the rank orders by the conservative estimate mu - 3 sigma, which
puts a level rated from few games (a large sigma) below levels it beat, so only ratings of
comparable certainty are ranked against each other (openskill starts every level at sigma 25/3,
about 8.3; the quick levels of a configuration end near one another, level 2 from fewer games
above them)."""


@dataclass(frozen=True)
class LevelRating:
    """A level's openskill rating in one configuration, from the rated ladder's round-robin."""

    mu: float
    sigma: float
    ordinal: float
    """The conservative estimate ``mu - 3 sigma``, which the rank orders by."""
    rank: int
    """Its place among the configuration's ranked levels (0 where it is not ranked)."""
    rated: int
    """How many of the configuration's levels are ranked."""
    median_decision_s: float | None
    seat_games: int | None = None
    """How many seat-games the rating comes from (``None``: the file does not say)."""
    settled: bool = True
    """Whether the rating is sure enough to rank (see :data:`COMPARABLE_SIGMA`)."""


def ranked_levels(ratings: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """The levels of a ratings file that are ranked, strongest first (by the conservative
    estimate, then mu): those of comparable certainty, whose sigma is within
    :data:`COMPARABLE_SIGMA` times the smallest or who played about as many seat-games
    (:data:`COMPARABLE_GAMES`) as the level with the smallest (a level that loses nearly every game,
    as level 0 does, keeps a larger sigma however many games it plays), and any level whose
    conservative estimate is above all of theirs: a large sigma only lowers that estimate, so a
    level ahead of them even so is first however few its games (a level that wins nearly every
    game, as level 2 does in Shadowlord! with 2 players, keeps a larger sigma too)."""
    surest = min(ratings, key=lambda name: float(ratings[name]["sigma"]))
    smallest, most = float(ratings[surest]["sigma"]), _seat_games(ratings[surest])

    def comparable(name: str) -> bool:
        games = _seat_games(ratings[name])
        many = most is not None and games is not None and games >= COMPARABLE_GAMES * most
        return float(ratings[name]["sigma"]) <= COMPARABLE_SIGMA * smallest or many

    def ordinal(name: str) -> float:
        return float(ratings[name]["ordinal"])

    order = sorted(ratings, key=lambda name: (-ordinal(name), -float(ratings[name]["mu"]), name))
    top = max((ordinal(name) for name in order if comparable(name)), default=-math.inf)
    return [name for name in order if comparable(name) or ordinal(name) > top]


def _seat_games(entry: Mapping[str, Any]) -> int | None:
    games = entry.get("seat_games")
    return games if isinstance(games, int) and not isinstance(games, bool) else None


def ratings_path(folder: Path, config: str) -> Path:
    """The rated ladder's result file of ``config``."""
    return folder / f"ratings-{config}.json"


def level_rating(
    name: str, config: str, folder: Path | None = None, among: Sequence[str] | None = None
) -> LevelRating | None:
    """Level ``name``'s rating in ``config``, or ``None`` where no readable result rates it; its rank
    among the levels ``among`` and itself (default: every level the result rates), as the lobby
    ranks the levels it offers."""
    path = ratings_path(folder or results_dir(), config)
    try:
        data = _read_json(str(path), path.stat().st_mtime_ns)
    except OSError:
        return None
    if data is None or data.get("format") != RATINGS_FORMAT or data.get("config") != config:
        return None
    try:
        ratings, entry = data["ratings"], data["ratings"][name]
        if among is not None:
            ratings = {level: rated for level, rated in ratings.items() if level in among or level == name}
        ranked = ranked_levels(ratings)
        median, seat_games = entry.get("median_decision_s"), entry.get("seat_games")
        return LevelRating(
            mu=float(entry["mu"]),
            sigma=float(entry["sigma"]),
            ordinal=float(entry["ordinal"]),
            rank=ranked.index(name) + 1 if name in ranked else 0,
            rated=len(ranked),
            median_decision_s=float(median) if isinstance(median, int | float) else None,
            seat_games=seat_games if isinstance(seat_games, int) and not isinstance(seat_games, bool) else None,
            settled=name in ranked,
        )
    except (KeyError, TypeError, ValueError, AttributeError):
        return None


def typical_decision_s(name: str, config: str, folder: Path | None = None) -> float | None:
    """The median seconds per decision of level ``name`` in ``config``: the ladder's measurement
    against the level below, else the rated ladder's; ``None`` where neither measured it."""
    measured = median_decision_s(name, config, folder)
    if measured is not None:
        return measured
    rating = level_rating(name, config, folder)
    return None if rating is None else rating.median_decision_s
