"""Calibration of the analysis's win chances: do the chances it reports come true as often?

    python benchmarks/analysis_calibration.py [--game shadow-planet] [--players 4] [--games 500]
        [--rollouts 16] [--per-game 1] [--fit] [--out FILE] [--plot FILE] [--pairs FILE]
    python benchmarks/analysis_calibration.py --from-pairs FILE [FILE ...] [--store-map] [--out FILE] [--plot FILE]

Plays ``--games`` games with the game's heuristic bot at every seat; game ``i`` uses the seed
``derive_seed(20261203, "analysis-calibration", i)`` (the held-out seeds) or, with ``--fit``,
``derive_seed(20261203, "analysis-recalibration-fit", i)`` (the seeds the recalibration map is
fitted on; never used to measure it). In each game ``--per-game`` decisions with a choice are
drawn (seat and ply, by a generator seeded from the game's seed) and analysed from the deciding
seat's view (:func:`shadowtable.analysis.analyse_decision`, heuristic rollouts, ``--rollouts``
samples, the analysis seed being the game's seed). Each gives one pair: the seat's reported chance
before the decision (raw, and as calibrated by the package's map) and whether the seat won.

Reported (as JSON to ``--out``; a reliability plot to ``--plot``): the Brier score with a 95%
bootstrap interval (games resampled, 2,000 draws), the base-rate Brier (always predicting the
seats' overall win rate in the run) with its interval, the reliability by decile of the predicted
chance, and the calibration slope and intercept (logistic regression of the outcome on logit(p),
p clipped to [1/(2(n+1)), 1 - 1/(2(n+1))] for n samples). With ``--fit`` the map
``p' = sigmoid(a logit(p) + b)`` fitted to the raw pairs is written to the package's
``calibration.json`` under ``GAME/PLAYERS``. ``--pairs`` appends each game's pairs as JSON lines
as they come (a run cut short keeps what it made); ``--from-pairs`` reports from such files: the
parts of one run split by ``--first`` are joined (same settings and seed set, no game twice), and
``--store-map`` stores the map a joined fit run's pairs give. See docs/analysis.md.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import random
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from time import perf_counter
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if importlib.util.find_spec("shadowtable") is None:  # run from a checkout without installing
    sys.path.insert(0, str(ROOT / "src"))

from shadowtable.analysis import (  # noqa: E402
    AnalysisSettings,
    analyse_decision,
    chosen_chance,
    decision_points,
    rollout_policy,
)
from shadowtable.analysis.calibration import (  # noqa: E402
    CALIBRATION_FILE,
    CUT_PREFIX,
    MAP_POLICY,
    HeldOutCheck,
    clipped_logit,
    fit_logistic,
    load_maps,
    map_key,
    sigmoid,
)
from shadowtable.core.game import Game  # noqa: E402
from shadowtable.core.manifest import load, manifest_of  # noqa: E402
from shadowtable.core.registry import make  # noqa: E402
from shadowtable.core.rng import derive_seed, derived_rng  # noqa: E402
from shadowtable.core.runner import play_game  # noqa: E402

SEED = 20261203
HELD_OUT = "analysis-calibration"
FIT = "analysis-recalibration-fit"
BOOTSTRAP = 2000

Pair = dict[str, Any]


def game_seed(index: int, fit: bool, label: str = HELD_OUT) -> int:
    """The seed of game ``index``: from the fit set or the held-out set named ``label``."""
    return derive_seed(SEED, FIT if fit else label, index)


def game_pairs(
    game: Game[Any],
    index: int,
    seed: int,
    rollouts: int,
    per_game: int,
    chosen_only: bool,
    policy_spec: str = MAP_POLICY,
    horizon: int | None = None,
) -> list[Pair]:
    """Play one heuristic game from ``seed`` and analyse ``per_game`` of its decisions drawn by seed
    (rollouts played by ``policy_spec`` at every seat).

    ``chosen_only``: score the choice made alone (:func:`chosen_chance`: the chance the full
    analysis gives it, at a fraction of the cost); the pair then has no ``before``."""
    bot_class = load(manifest_of(type(game)).heuristic_bot or "")
    record = play_game(game, [bot_class() for _ in range(game.players)], seed)
    assert record.returns is not None
    points = [p for p in decision_points(record) if len(game.legal_actions(p.state)) > 1]
    chosen = derived_rng(seed, "calibration-points").sample(points, min(per_game, len(points)))
    settings = AnalysisSettings(rollouts=rollouts, seed=seed, policy=policy_spec, horizon=horizon)
    policy = rollout_policy(game, settings.policy)
    pairs = []
    for point in sorted(chosen, key=lambda p: p.ply):
        won = record.returns[point.seat] >= game.spec.max_utility and not record.truncated
        pair: Pair = {"game": index, "seat": point.seat, "ply": point.ply}
        pair["choices"] = len(game.legal_actions(point.state))
        if chosen_only:
            after, samples, _exact = chosen_chance(game, point, settings, policy)
            pair |= {"samples": samples, "after": after, "won": won}
        else:
            decision = analyse_decision(game, point, settings, policy)
            assert decision is not None
            made = next(alt.raw_chance for alt in decision.alternatives if alt.action == point.action)
            pair |= {
                "samples": decision.samples,
                "before": max(alt.raw_chance for alt in decision.alternatives),
                "after": made,
                "lost_raw": decision.best.raw_chance - made,
                "noise": decision.noise,
                "won": won,
            }
        pairs.append(pair)
    return pairs


def brier(predicted: Sequence[float], won: Sequence[bool]) -> float:
    """Mean squared difference between the chances and the outcomes (1 won, 0 not)."""
    return sum((p - float(w)) ** 2 for p, w in zip(predicted, won, strict=True)) / len(predicted)


def by_game(pairs: list[Pair]) -> list[list[Pair]]:
    """The pairs grouped by game (the unit the bootstrap resamples)."""
    groups: dict[int, list[Pair]] = {}
    for pair in pairs:
        groups.setdefault(pair["game"], []).append(pair)
    return list(groups.values())


def bootstrap(groups: list[list[Pair]], statistic: Any, draws: int = BOOTSTRAP) -> tuple[float, float]:
    """The 2.5% and 97.5% points of ``statistic`` over games resampled with replacement."""
    rng = random.Random(SEED)
    values = sorted(
        statistic([pair for _ in groups for pair in groups[rng.randrange(len(groups))]]) for _ in range(draws)
    )
    return values[int(0.025 * draws)], values[min(draws - 1, int(0.975 * draws))]


def chances(pairs: list[Pair], key: str, maps: dict[str, Any] | None, game_key: str) -> list[float]:
    """Each pair's chance ``key`` ("before"/"after"), raw (``maps`` None) or through the game's map."""
    if maps is None or "a" not in maps.get(game_key, {}):
        return [pair[key] for pair in pairs]
    a, b = maps[game_key]["a"], maps[game_key]["b"]
    return [sigmoid(a * clipped_logit(pair[key], pair["samples"]) + b) for pair in pairs]


def reliability(predicted: Sequence[float], won: Sequence[bool]) -> list[dict[str, Any]]:
    """Per decile of the predicted chance: its range, the count, mean predicted and observed win rate."""
    rows = []
    for decile in range(10):
        low, high = decile / 10, (decile + 1) / 10
        inside = [(p, w) for p, w in zip(predicted, won, strict=True) if low <= p < high or (decile == 9 and p == 1)]
        rows.append(
            {
                "range": [low, high],
                "count": len(inside),
                "predicted": sum(p for p, _ in inside) / len(inside) if inside else None,
                "observed": sum(w for _, w in inside) / len(inside) if inside else None,
            }
        )
    return rows


def scores(pairs: list[Pair], predicted: list[float]) -> dict[str, Any]:
    """Brier with its interval, reliability by decile, calibration slope and intercept."""
    index = {id(pair): p for pair, p in zip(pairs, predicted, strict=True)}
    groups = by_game(pairs)
    won = [pair["won"] for pair in pairs]
    samples = [pair["samples"] for pair in pairs]
    slope, intercept = fit_logistic([clipped_logit(p, n) for p, n in zip(predicted, samples, strict=True)], won)
    low, high = bootstrap(groups, lambda ps: brier([index[id(p)] for p in ps], [p["won"] for p in ps]))
    return {
        "brier": brier(predicted, won),
        "brier_95": [low, high],
        "slope": slope,
        "intercept": intercept,
        "mean_predicted": sum(predicted) / len(predicted),
        "reliability": reliability(predicted, won),
    }


def base_rate(pairs: list[Pair]) -> dict[str, Any]:
    """The Brier of always predicting the run's overall win rate of the deciding seats."""

    def score(ps: list[Pair]) -> float:
        rate = sum(p["won"] for p in ps) / len(ps)
        return brier([rate] * len(ps), [p["won"] for p in ps])

    low, high = bootstrap(by_game(pairs), score)
    return {"win_rate": sum(p["won"] for p in pairs) / len(pairs), "brier": score(pairs), "brier_95": [low, high]}


def report(pairs: list[Pair], meta: dict[str, Any], maps: dict[str, Any] | None) -> dict[str, Any]:
    """The whole result: the run's settings, the base rate, raw and calibrated scores."""
    game_key = meta_key(meta)
    result: dict[str, Any] = {**meta, "pairs": len(pairs), "games_with_pairs": len(by_game(pairs))}
    result["base_rate"] = base_rate(pairs)
    result["raw_after"] = scores(pairs, chances(pairs, "after", None, game_key))
    with_before = all(pair.get("before") is not None for pair in pairs)
    if with_before:
        result["raw"] = scores(pairs, chances(pairs, "before", None, game_key))
    if maps is not None and "a" in maps.get(game_key, {}):
        result["map"] = {k: v for k, v in maps[game_key].items() if k != "held_out"}
        result["calibrated_after"] = scores(pairs, chances(pairs, "after", maps, game_key))
        if with_before:
            result["calibrated"] = scores(pairs, chances(pairs, "before", maps, game_key))
    return result


def plot(result: dict[str, Any], path: Path) -> None:
    """The reliability plot: mean predicted against observed win rate per decile, raw and calibrated."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(5, 5))
    axes.plot([0, 1], [0, 1], color="#999", linestyle="--", label="perfect calibration")
    for name, colour in (("raw_after", "#c33"), ("calibrated_after", "#36c")):
        if name not in result:
            continue
        rows = [row for row in result[name]["reliability"] if row["count"]]
        axes.plot(
            [row["predicted"] for row in rows],
            [row["observed"] for row in rows],
            marker="o",
            color=colour,
            label=f"{name.removesuffix('_after')} (Brier {result[name]['brier']:.3f}, "
            f"slope {result[name]['slope']:.2f})",
        )
    axes.set_xlim(0, 1)
    axes.set_ylim(0, 1)
    axes.set_xlabel("reported chance of winning (mean in decile)")
    axes.set_ylabel("observed win rate")
    title = f"{result['game']}, {result['players']} players: {result['pairs']} decisions, {result['games']} games"
    axes.set_title(title, fontsize=9)
    axes.legend(loc="upper left", fontsize=8)
    figure.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, dpi=100)
    plt.close(figure)


def meta_key(meta: dict[str, Any]) -> str:
    """The key of a run's map in ``calibration.json``: its game and players, and its rollouts'
    cut-off (``shadowlord/2/cut-60``) where it had one."""
    horizon = meta.get("horizon")
    return map_key(meta["game"], int(meta["players"]), "" if horizon is None else f"{CUT_PREFIX}{horizon}")


def store_map(pairs: list[Pair], meta: dict[str, Any], path: Path = CALIBRATION_FILE) -> dict[str, Any]:
    """Fit ``p' = sigmoid(a logit(p) + b)`` to the raw chances of the choices made (the chances a
    played game checks) and write it to ``path``."""
    a, b = fit_logistic([clipped_logit(p["after"], p["samples"]) for p in pairs], [p["won"] for p in pairs])
    maps = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    entry = {
        "a": a,
        "b": b,
        "rollouts": meta["rollouts"],
        "games": meta["games"],
        "pairs": len(pairs),
        "seeds": meta.get("seeds") or f"derive_seed({SEED}, {FIT!r}, i) for i in range({meta['games']})",
        "per_game": meta["per_game"],
        "fitted_on": "the chance of the choice made",
        "policy": meta.get("policy", MAP_POLICY),
    }
    if meta.get("horizon") is not None:
        entry["horizon"] = meta["horizon"]
    maps[meta_key(meta)] = entry  # a new map: an earlier held-out check no longer holds
    path.write_text(json.dumps(maps, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return entry


def store_held_out(result: dict[str, Any], path: Path = CALIBRATION_FILE) -> HeldOutCheck:
    """Keep what a held-out run found for the chances as reported (through the stored map, or raw
    where there is none) beside the map in ``path``, for :func:`calibration_words`."""
    if result.get("fit"):
        raise ValueError("a fit run cannot check its own map: store a run on held-out seeds")
    scored = result.get("calibrated_after") or result["raw_after"]
    check = HeldOutCheck(
        games=int(result["games_with_pairs"]),
        won=float(result["base_rate"]["win_rate"]),
        mean_chance=float(scored["mean_predicted"]),
        slope=float(scored["slope"]),
        brier=float(scored["brier"]),
        base_rate_brier=float(result["base_rate"]["brier"]),
        seeds=str(result["seeds"]),
    )
    maps = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    key = meta_key(result)
    entry = maps.setdefault(key, {"policy": MAP_POLICY})
    if "calibrated_after" in result and (entry.get("a"), entry.get("b")) != (result["map"]["a"], result["map"]["b"]):
        raise ValueError(f"{key}: the run was scored with another map than the one stored")
    entry["held_out"] = check.to_json()
    path.write_text(json.dumps(maps, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return check


def pairs_lines(path: Path) -> list[dict[str, Any]]:
    """A ``--pairs`` file's lines as JSON: the settings first, then one line per game."""
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def kept_games(path: Path) -> list[int]:
    """The games a ``--pairs`` file already holds."""
    return [line["game"] for line in pairs_lines(path)[1:]]


def read_pairs(path: Path) -> tuple[list[Pair], dict[str, Any]]:
    """The pairs and the run's settings from a ``--pairs`` file (first line: the settings)."""
    lines = pairs_lines(path)
    meta = lines[0]["meta"]
    pairs = [pair for line in lines[1:] for pair in line["pairs"]]
    meta["games"] = len(lines) - 1
    return pairs, meta


RUN_SETTINGS = ("game", "players", "rollouts", "per_game", "fit", "chosen_only", "policy")


def seed_set(meta: dict[str, Any]) -> str:
    """The seed set a run's settings name, without its count (``... for i in range(N)``)."""
    return str(meta["seeds"]).split(" for i in ")[0]


def join_pairs(paths: Sequence[Path]) -> tuple[list[Pair], dict[str, Any]]:
    """The pairs and settings of one run kept in several ``--pairs`` files (a run split by
    ``--first``): every file must hold the same settings and seed set, and no game twice."""
    metas, games, pairs = [], [], []
    for path in paths:
        lines = pairs_lines(path)
        if not lines or "meta" not in lines[0]:
            raise ValueError(f"{path}: not a --pairs file (its first line holds no settings)")
        metas.append({"policy": MAP_POLICY} | lines[0]["meta"])  # runs before --policy were the heuristic's
        for line in lines[1:]:
            games.append(line["game"])
            pairs.extend(line["pairs"])
    first = metas[0]
    for path, meta in zip(paths[1:], metas[1:], strict=True):
        differing = [key for key in RUN_SETTINGS if meta.get(key) != first.get(key)]
        if seed_set(meta) != seed_set(first):
            differing.append("seeds")
        if differing:
            raise ValueError(f"{path}: another run's pairs ({', '.join(differing)} differ from {paths[0]})")
    twice = sorted(game for game, count in Counter(games).items() if count > 1)
    if twice:
        raise ValueError(f"game {twice[0]} is in the pairs twice")
    meta = dict(first)
    meta.pop("seconds", None)
    meta["games"] = len(games)
    contiguous = sorted(games) == list(range(len(games)))
    count = f"range({len(games)})" if contiguous else f"the {len(games)} indices in the pairs files"
    meta["seeds"] = f"{seed_set(first)} for i in {count}"
    return pairs, meta


def maps_for(policy: str) -> dict[str, Any]:
    """The package's maps fitted for rollouts played by ``policy`` (a map is for one policy)."""
    return {key: entry for key, entry in load_maps().items() if entry.get("policy", MAP_POLICY) == policy}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="shadow-planet")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--rollouts", type=int, default=16)
    parser.add_argument("--per-game", type=int, default=1)
    parser.add_argument("--fit", action="store_true", help="use the fit seeds and store the fitted map")
    parser.add_argument("--out", type=Path)
    parser.add_argument("--plot", type=Path)
    parser.add_argument("--pairs", type=Path, help="append each game's pairs here as JSON lines")
    parser.add_argument(
        "--from-pairs",
        type=Path,
        nargs="+",
        help="report from --pairs files instead of playing (the parts of one split run are joined)",
    )
    parser.add_argument(
        "--store-map", action="store_true", help="with --from-pairs of a fit run: store the map its pairs give"
    )
    parser.add_argument(
        "--policy",
        default=MAP_POLICY,
        help=f"the bot spec that plays the rollouts (default {MAP_POLICY!r}, the one the maps are fitted for)",
    )
    parser.add_argument("--chosen-only", action="store_true", help="score only the choice made (much cheaper)")
    parser.add_argument(
        "--horizon", type=int, help="cut rollouts off after this many steps, scored by the game's evaluation"
    )
    parser.add_argument("--resume", action="store_true", help="keep the games already in --pairs, play the rest")
    parser.add_argument("--first", type=int, default=0, help="play games --first to --games - 1 (split a run)")
    parser.add_argument(
        "--label",
        default=HELD_OUT,
        help=f"seed label of a held-out set (default {HELD_OUT!r}; another, e.g. 'analysis-calibration-2', "
        "draws a further set never used to fit)",
    )
    parser.add_argument(
        "--store-held-out",
        action="store_true",
        help="keep this held-out run's findings beside the map (the replay page says them to players)",
    )
    args = parser.parse_args(argv)
    if args.fit and args.label != HELD_OUT:
        parser.error("--label names a held-out set; --fit always uses the fit seeds")
    if args.fit and args.store_held_out:
        parser.error("--store-held-out keeps a held-out run's findings; a --fit run checks nothing")
    if args.store_map and args.from_pairs is None:
        parser.error("--store-map stores the map of pairs read with --from-pairs (a --fit run stores its own)")
    if args.from_pairs is not None:
        try:
            pairs, meta = join_pairs(args.from_pairs)
        except (OSError, ValueError) as error:
            raise SystemExit(f"error: {error}") from None
        except KeyError as error:
            raise SystemExit(f"error: a --pairs file lacks the field {error}") from None
        if args.store_map and not meta.get("fit"):
            raise SystemExit("error: --store-map needs the pairs of a --fit run (held-out pairs never fit a map)")
    else:
        game = make(args.game, players=args.players)
        meta = {
            "game": args.game,
            "players": args.players,
            "games": args.games,
            "rollouts": args.rollouts,
            "per_game": args.per_game,
            "seeds": f"derive_seed({SEED}, {FIT if args.fit else args.label!r}, i) for i in range({args.games})",
            "fit": args.fit,
            "chosen_only": args.chosen_only,
            "policy": args.policy,
            "horizon": args.horizon,
        }
        done: set[int] = set()
        pairs = []
        if args.resume and args.pairs is not None and args.pairs.exists():
            kept, _ = read_pairs(args.pairs)
            pairs.extend(kept)
            done = set(kept_games(args.pairs))
        elif args.pairs is not None:
            args.pairs.parent.mkdir(parents=True, exist_ok=True)
            args.pairs.write_text(json.dumps({"meta": meta}) + "\n", encoding="utf-8")
        started = perf_counter()
        for index in range(args.first, args.games):
            if index in done:
                continue
            seed = game_seed(index, args.fit, args.label)
            made = game_pairs(
                game, index, seed, args.rollouts, args.per_game, args.chosen_only, args.policy, args.horizon
            )
            pairs.extend(made)
            if args.pairs is not None:
                with args.pairs.open("a", encoding="utf-8") as file:
                    file.write(json.dumps({"game": index, "pairs": made}) + "\n")
        meta["seconds"] = round(perf_counter() - started, 1)
    if meta.get("fit") and (args.from_pairs is None or args.store_map):
        store_map(pairs, meta)
    result = report(pairs, meta, None if meta.get("fit") else maps_for(meta.get("policy", MAP_POLICY)))
    if args.store_held_out:
        store_held_out(result)
    text = json.dumps(result, indent=1)
    if args.out is not None:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(text + "\n", encoding="utf-8")
    if args.plot is not None:
        plot(result, args.plot)
    summary = {k: result[k] for k in ("game", "players", "games", "pairs")}
    print(json.dumps(summary), f"base {result['base_rate']['brier']:.4f}", end=" ")
    for name in ("raw", "raw_after", "calibrated", "calibrated_after"):
        if name in result:
            print(f"{name} brier {result[name]['brier']:.4f} slope {result[name]['slope']:.3f}", end=" ")
    print()


if __name__ == "__main__":
    main()
