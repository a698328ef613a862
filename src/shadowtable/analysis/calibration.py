"""The recalibration of the analysis's win chances: per game and player count, a logistic map.

The rollout policy's win rates are too extreme (docs/analysis.md, "Calibration"):
``benchmarks/analysis_calibration.py --fit`` fits ``p' = sigmoid(a logit(p) + b)`` to
(reported chance, won) pairs from bot games on seeds kept for fitting, and stores ``a`` and ``b``
in ``calibration.json`` beside this module, under ``"GAME/PLAYERS"``, with the seeds and counts
they came from and the rollout policy they were measured with (``heuristic``). A game without a
map, a variant of a game (any option away from its default: ``"GAME/PLAYERS/VARIANT"``, no map
stored), and an analysis whose rollouts another policy plays, keep the raw chances.

Beside a map (or alone, for a game without one) ``held_out`` keeps what a run on seeds never used
to fit found (``--store-held-out``): :func:`calibration_words` says it to a player in a sentence.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

CALIBRATION_FILE = Path(__file__).with_name("calibration.json")


def sigmoid(x: float) -> float:
    """The logistic function, safe for large ``|x|``."""
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    z = math.exp(x)
    return z / (1.0 + z)


def clipped_logit(p: float, samples: int) -> float:
    """``logit(p)`` with ``p`` kept half a sample's share inside (0, 1): a share of ``samples``
    draws is never exactly certain, so 0/16 is read as 1/34 and 16/16 as 33/34."""
    margin = 1.0 / (2.0 * (max(samples, 1) + 1))
    q = min(max(p, margin), 1.0 - margin)
    return math.log(q / (1.0 - q))


def fit_logistic(x: Sequence[float], y: Sequence[bool], iterations: int = 50) -> tuple[float, float]:
    """``(a, b)`` maximising the likelihood of ``y`` under ``sigmoid(a x + b)`` (Newton's method)."""
    a, b = 1.0, 0.0
    for _ in range(iterations):
        ga = gb = haa = hab = hbb = 0.0
        for xi, yi in zip(x, y, strict=True):
            p = sigmoid(a * xi + b)
            r = float(yi) - p
            w = p * (1.0 - p)
            ga += r * xi
            gb += r
            haa += w * xi * xi
            hab += w * xi
            hbb += w
        det = haa * hbb - hab * hab
        if det <= 1e-12:
            break
        da = (hbb * ga - hab * gb) / det
        db = (haa * gb - hab * ga) / det
        a, b = a + da, b + db
        if abs(da) < 1e-10 and abs(db) < 1e-10:
            break
    return a, b


@cache
def load_maps(path: Path = CALIBRATION_FILE) -> dict[str, Any]:
    """The stored maps, by ``"GAME/PLAYERS"`` (empty when there is no file)."""
    if not path.exists():
        return {}
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


MAP_POLICY = "heuristic"
"""The rollout policy every stored map and check was measured with (an entry may name another)."""


CUT_PREFIX = "cut-"
"""Where an analysis's rollouts were cut off: ``cut-60`` ends the variant's name."""


def variant_of(game: Any, horizon: int | None = None) -> str:
    """The options of ``game`` (a :class:`~shadowtable.core.game.Game`) set away from their
    defaults, and the ``horizon`` its rollouts were cut off at, as one name (``modified``,
    ``turn_cap-100``, ``cut-60``); empty for the game as the rulebook sets it (or as people play it),
    played out to the end.
    Each has its own calibration map."""
    declared = {option.name: option for option in getattr(game.spec, "options", ())}
    parts = []
    for name, value in sorted(dict(getattr(game, "options", {}) or {}).items()):
        if name not in declared or declared[name].is_standard(value):
            continue
        parts.append(name if value is True else f"{name}-{value}")
    if horizon is not None:
        parts.append(f"{CUT_PREFIX}{horizon}")
    return "-".join(parts)


def split_variant(variant: str) -> tuple[str, int | None]:
    """A variant's name (:func:`variant_of`) as its game options' part and its cut-off, if any."""
    options, _, cut = variant.rpartition(CUT_PREFIX)
    if cut.isdigit() and (not options or options.endswith("-")):
        return options.removesuffix("-"), int(cut)
    return variant, None


def map_key(game: str, players: int, variant: str = "") -> str:
    """The key of ``game`` at ``players`` (and ``variant``) in ``calibration.json``."""
    return f"{game}/{players}/{variant}" if variant else f"{game}/{players}"


def map_entry(game: str, players: int, policy: str = MAP_POLICY, variant: str = "") -> Mapping[str, Any] | None:
    """The stored entry of ``game`` at ``players`` (in ``variant``) if it was measured with
    rollouts by ``policy``."""
    entry: Mapping[str, Any] | None = load_maps().get(map_key(game, players, variant))
    if entry is None or entry.get("policy", MAP_POLICY) != policy:
        return None
    return entry


def calibrated(
    p: float,
    samples: int,
    game: str,
    players: int,
    exact: bool = False,
    policy: str = MAP_POLICY,
    variant: str = "",
) -> float:
    """The chance ``p`` (a share of ``samples`` rollouts by ``policy``) through the map of ``game``
    at ``players`` in ``variant``; unchanged for a game without a map for that policy and for an
    ``exact`` chance (every sample ended the game at once, so no rollout policy was involved)."""
    entry = map_entry(game, players, policy, variant)
    if entry is None or exact or "a" not in entry:
        return p
    return sigmoid(entry["a"] * clipped_logit(p, samples) + entry["b"])


@dataclass(frozen=True)
class HeldOutCheck:
    """What a calibration run on held-out seeds found for the chances as reported (through the
    map where there is one): ``won`` is the deciding seats' win rate, ``mean_chance`` the mean
    reported chance, ``slope`` the calibration slope (1: the right spread)."""

    games: int
    won: float
    mean_chance: float
    slope: float
    brier: float
    base_rate_brier: float
    seeds: str = ""

    def to_json(self) -> dict[str, Any]:
        """As stored in ``calibration.json``."""
        return dict(self.__dict__)


SLOPE_RANGE = (0.8, 1.25)
"""Calibration slopes read as "the right spread" (1 is perfect; below, too extreme)."""

LEVEL_TOLERANCE = 0.04
"""How far the mean reported chance may stand from the win rate and still be "the right level"."""


def calibration_words(game: str, players: int, policy: str = MAP_POLICY, variant: str = "") -> str:
    """One sentence for a player: how far the analysis's chances of ``game`` at ``players`` in
    ``variant`` (with rollouts by ``policy``) have been shown to mean what they say."""
    return described_calibration(map_entry(game, players, policy, variant), players, policy, variant)


def described_calibration(
    entry: Mapping[str, Any] | None, players: int, policy: str = MAP_POLICY, variant: str = ""
) -> str:
    """:func:`calibration_words` for a stored ``entry`` (``None``: no map or check)."""
    found = None if entry is None else entry.get("held_out")
    check = None if found is None else HeldOutCheck(**found)
    if check is None:
        if entry is not None and "a" in entry:
            return (
                f"These chances are corrected by a map fitted on {entry['games']} bot games, "
                "not yet checked on games kept apart."
            )
        options, horizon = split_variant(variant)
        which = f"for {players} players" if policy == MAP_POLICY else f"with games played out by the {policy} bot"
        if options:
            which += f" in this variant of the game ({options.replace('-', ' ')})"
        if horizon is not None:
            which += f" with games cut off after {horizon} steps"
        if horizon is not None:
            return f"These chances are the raw shares at the cut-off, not yet checked against real results {which}."
        return (
            f"These chances are the raw win rates of the played-out games, not yet checked against real "
            f"results {which}; where they have been checked, raw chances ran too extreme "
            "(a low chance came true more often than shown, a high one less often)."
        )
    where = f"Checked on {check.games} bot games kept apart"
    low, high = SLOPE_RANGE
    if check.slope < low:
        return (
            f"{where}, these chances are still too extreme: a low chance came true more often than "
            "shown, a high one less often. Read them as rough."
        )
    if check.slope > high:
        return (
            f"{where}, these chances are too timid: a low chance came true less often than shown, "
            "a high one more often."
        )
    gap = check.mean_chance - check.won
    if abs(gap) > LEVEL_TOLERANCE:
        side = "high" if gap > 0 else "low"
        return f"{where}, these chances spread right but run about {round(100 * abs(gap))} points {side} on average."
    return f"{where}, these chances came true about as often as they say."
