"""Ladder benchmark: one level against the level below, in one configuration, over a fixed count of games.

    python benchmarks/ladder.py --game shadow-planet --players 3 --upper ismcts --lower heuristic --games 24

Line-up: at 2 players the two levels alternate seats; otherwise the upper level sits in one seat
(moving one place per game) and the lower level everywhere else ("one against the rest").  Game
``i`` is played with seed ``derive_seed(derive_seed(20261204, "ladder", CONFIG), "game", i)`` where
CONFIG is e.g. ``shadow-planet-3p-ismcts-vs-heuristic`` (the tournament's seeding); that label is
used by no training or tuning run.  ``--series N`` (N > 1) plays an independent run on fresh seeds:
the label gains ``-series-N``; its result replaces the configuration's result file, which names
the series.  The count of games is an argument, fixed before the run and
recorded.  Writes ``docs/results/ladder/<config>-<upper>-vs-<lower>.json`` and the game records
beside it (``.jsonl``): win rates per seat-game with 95% Wilson intervals for both levels, whether
the intervals separate, and the median seconds per decision of the upper level (CPU seconds of
the one process, so other load on the machine does not count; the wall-clock median beside it).
``--resume`` continues a run from its records file; records already there are replaced only with
``--force``.

    python benchmarks/ladder.py --table                       # the results table of docs/bots.md
    python benchmarks/ladder.py --objectives RESULT.json      # a run's win rates by Objective
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from shadowtable.bots import ladder
from shadowtable.bots.registry import make_bot
from shadowtable.core.errors import ShadowTableError
from shadowtable.core.keyvalue import parse_pairs
from shadowtable.core.registry import make
from shadowtable.core.rng import derive_seed
from shadowtable.sim import batch
from shadowtable.sim.stats import wilson_interval
from shadowtable.sim.tournament import run_tournament

MASTER = 20261204
OUT = Path(__file__).resolve().parents[1] / "docs" / "results" / "ladder"


class TimedBot:
    """A bot whose every decision's times are appended to ``log`` as a JSON line
    ``[wall_s, cpu_s, cut_by_cap]`` (one short append per decision, so worker processes can share
    the file)."""

    def __init__(self, bot: Any, log: Path) -> None:
        self.bot = bot
        self.log = log

    def __getattr__(self, name: str) -> Any:
        return getattr(self.bot, name)

    def choose(self, *args: Any, **kwargs: Any) -> int:
        """The wrapped bot's choice, timed."""
        start, cpu = time.perf_counter(), time.process_time()
        action: int = self.bot.choose(*args, **kwargs)
        wall = time.perf_counter() - start
        line = json.dumps([wall, time.process_time() - cpu, ladder.cut_by_time_cap(self.bot, wall)])
        with self.log.open("a", encoding="utf-8") as handle:
            handle.write(line + "\n")
        return action


def read_times(log: Path) -> list[tuple[float, float, bool]]:
    """The decision times a run's :class:`TimedBot` logged (none if there is no log)."""
    if not log.exists():
        return []
    return [tuple(json.loads(line)) for line in log.read_text(encoding="utf-8").splitlines() if line.strip()]


def lineup(upper: str, lower: str, players: int) -> list[str]:
    """Tournament bot specs: alternating at 2 players, else one upper against the rest."""
    if players == 2:
        return [upper, lower]
    return [upper, f"{lower}*{players - 1}"]


def series_label(label: str, series: int) -> str:
    """The seed label of run ``series`` of a ladder pairing (the first keeps the plain label)."""
    if series < 1:
        raise SystemExit("error: --series counts from 1")
    return label if series == 1 else f"{label}-series-{series}"


def side(tally: dict[str, Any]) -> dict[str, Any]:
    """Wins, seat-games, win rate and its 95% Wilson interval from a tournament tally."""
    wins, games = int(tally["wins"]), int(tally["games"])
    low, high = wilson_interval(wins, games)
    return {"wins": wins, "seat_games": games, "win_rate": wins / games if games else 0.0, "interval": [low, high]}


def run(
    game_id: str,
    players: int,
    options: dict[str, Any],
    upper: str,
    lower: str,
    games: int,
    *,
    workers: int = 1,
    resume: bool = False,
    series: int = 1,
    folder: Path = OUT,
) -> dict[str, Any]:
    """Play the fixed count of games (``resume``: keep the games already in the records file and
    play the rest; ``workers``: in that many processes, the same games) and return the result."""
    config = ladder.config_name(game_id, players, options)
    label = series_label(f"{config}-{upper}-vs-{lower}", series)
    seed = derive_seed(MASTER, "ladder", label)
    upper_spec, lower_spec = ladder.resolve_spec(upper, game_id), ladder.resolve_spec(lower, game_id)
    if upper_spec == lower_spec:
        raise ValueError(f"{upper} and {lower} play the same spec")
    folder.mkdir(parents=True, exist_ok=True)
    records = ladder.result_path(folder, config, upper, lower).with_suffix(".jsonl")
    times_log = records.with_suffix(".times.jsonl")
    if not resume:
        times_log.write_text("", encoding="utf-8")
    original = getattr(batch, "make_bot")  # noqa: B009 - replaced for this run only, to time the upper level

    def timed(spec: str) -> Any:
        return TimedBot(original(spec), times_log) if spec == upper_spec else original(spec)

    setattr(batch, "make_bot", timed)  # noqa: B010
    started = time.perf_counter()
    try:
        result = run_tournament(
            game_id,
            players,
            lineup(upper_spec, lower_spec, players),
            games,
            seed,
            options,
            records_path=records,
            workers=workers,
            resume=resume and records.exists(),
        )
    finally:
        setattr(batch, "make_bot", original)  # noqa: B010
    times = read_times(times_log)
    data = result.to_json()
    up, low = side(data["bots"][upper_spec]), side(data["bots"][lower_spec])
    up["median_decision_s"] = statistics.median(t[1] for t in times) if times else None
    up["median_decision_wall_s"] = statistics.median(t[0] for t in times) if times else None
    up["decisions"] = len(times)
    up["decisions_cut_by_time_cap"] = sum(t[2] for t in times)
    return {
        "format": "shadowtable-ladder-1",
        "config": config,
        "game": game_id,
        "players": players,
        "options": options,
        "upper": {"level": upper, "spec": upper_spec, **up},
        "lower": {"level": lower, "spec": lower_spec, **low},
        "separated": up["interval"][0] > low["interval"][1],
        "games": games,
        "lineup": "alternating" if players == 2 else "one against the rest",
        "seed_master": MASTER,
        "series": series,
        "seed_label": ["ladder", label],
        "seed": seed,
        "game_seeds": "derive_seed(seed, 'game', i) for game i",
        "truncated": data["truncated"],
        "wall_s": round(time.perf_counter() - started, 1),
        "workers": workers,
        "resumed": resume,
        "timed_decisions_from": times_log.name,
        "tournament": data,
        "records": records.name,
    }


def _rate(part: dict[str, Any]) -> str:
    low, high = part["interval"]
    return f"{100 * part['win_rate']:.1f}% ({100 * low:.1f}-{100 * high:.1f}), {part['seat_games']}"


def table(folder: Path = OUT) -> str:
    """The results in ``folder`` as a Markdown table (docs/bots.md)."""
    rows = [
        "| configuration | upper | lower | games | upper wins | lower wins | separated | upper median s/decision |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for path in sorted(folder.glob("*-vs-*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        u, lo, median = data["upper"], data["lower"], data["upper"]["median_decision_s"]
        run_name = data["config"] if data.get("series", 1) == 1 else f"{data['config']} (run {data['series']})"
        rows.append(
            f"| {run_name} | {u['level']} | {lo['level']} | {data['games']} | {_rate(u)} | {_rate(lo)} "
            f"| {'yes' if data['separated'] else 'no'} | {median:.3g} |"
        )
    return "\n".join(rows)


def by_fact(result: dict[str, Any], folder: Path, key: str = "objective") -> dict[str, dict[str, list[int]]]:
    """Wins and seat-games of each level by the seats' end-of-game fact ``key`` (The Shadow Planet's
    Objective), read from the run's records: ``{value: {level: [wins, seat_games]}}``."""
    level_of = {result["upper"]["spec"]: result["upper"]["level"], result["lower"]["spec"]: result["lower"]["level"]}
    tally: dict[str, dict[str, list[int]]] = {}
    with (folder / result["records"]).open(encoding="utf-8") as lines:
        for line in lines:
            record = json.loads(line)
            for seat in record.get("metadata", {}).get("seats", []):
                if key not in seat:
                    continue
                counts = tally.setdefault(str(seat[key]), {}).setdefault(
                    level_of[record["seats"][seat["seat"]]], [0, 0]
                )
                counts[0] += bool(seat.get("won"))
                counts[1] += 1
    return tally


def fact_table(result: dict[str, Any], folder: Path, key: str = "objective") -> str:
    """:func:`by_fact` as a Markdown table: per value, each level's win rate, 95% Wilson interval, seat-games."""
    levels = [result["upper"]["level"], result["lower"]["level"]]
    rows = [f"| {key} | " + " | ".join(levels) + " |", "|---|" + "---|" * len(levels)]
    for value, counts in sorted(by_fact(result, folder, key).items()):
        tallies = [counts.get(level, [0, 0]) for level in levels]
        cells = [_rate(side({"wins": wins, "games": games})) if games else "-" for wins, games in tallies]
        rows.append(f"| {value} | " + " | ".join(cells) + " |")
    return "\n".join(rows)


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the arguments, play, write the result file (``--table``: print the results table;
    ``--objectives RESULT``: print a run's win rates by Objective)."""
    given = sys.argv[1:] if argv is None else list(argv)
    if given == ["--table"]:
        print(table())
        return 0
    if len(given) == 2 and given[0] == "--objectives":
        path = Path(given[1])
        try:
            result = json.loads(path.read_text(encoding="utf-8"))
            print(fact_table(result, path.parent))
        except (OSError, ValueError, KeyError, TypeError) as exc:
            print(f"error: {path} is not a ladder result with its records beside it ({exc})", file=sys.stderr)
            return 2
        return 0
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", required=True)
    parser.add_argument("--players", type=int, required=True)
    parser.add_argument("--option", action="append", default=[], help="KEY=VALUE, e.g. modified=true")
    parser.add_argument("--upper", required=True, help="a level name or alias (ismcts, level2)")
    parser.add_argument("--lower", required=True)
    parser.add_argument("--games", type=int, required=True, help="number of games, fixed before the run")
    parser.add_argument("--workers", type=int, default=1, help="processes playing the games (the same games)")
    parser.add_argument(
        "--series", type=int, default=1, help="an independent run on fresh seeds (2, 3, ...); 1 is the first run"
    )
    parser.add_argument(
        "--resume", action="store_true", help="keep the games already in the records file and play the rest"
    )
    parser.add_argument(
        "--force", action="store_true", help="replace the records of an earlier run of this pairing in --folder"
    )
    parser.add_argument(
        "--folder",
        type=Path,
        default=OUT,
        help="where the result, records and times go (default docs/results/ladder; a run played over several "
        "sittings may keep its records elsewhere until it is whole, then its files move there)",
    )
    args = parser.parse_args(argv)
    if args.series < 1 or args.games < 1:
        print("error: --games and --series count from 1", file=sys.stderr)
        return 2
    options = parse_pairs(args.option, what="--option")
    upper, lower = ladder.level_name(args.upper), ladder.level_name(args.lower)
    if upper is None or lower is None:
        print(f"error: unknown level; levels: {', '.join(ladder.LADDER)}", file=sys.stderr)
        return 2
    try:
        make(args.game, players=args.players, **options)
        make_bot(ladder.resolve_spec(upper, args.game))
    except ShadowTableError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    config = ladder.config_name(args.game, args.players, options)
    records = ladder.result_path(args.folder, config, upper, lower).with_suffix(".jsonl")
    if records.exists() and not (args.resume or args.force):
        print(
            f"error: {records} holds an earlier run's games; pass --resume to continue it or --force to replace it",
            file=sys.stderr,
        )
        return 2
    try:
        out = run(
            args.game,
            args.players,
            options,
            upper,
            lower,
            args.games,
            workers=args.workers,
            resume=args.resume,
            series=args.series,
            folder=args.folder,
        )
    except (ShadowTableError, ValueError) as exc:  # two levels of one spec, records it cannot resume from
        print(f"error: {exc}", file=sys.stderr)
        return 2
    path = ladder.result_path(args.folder, out["config"], upper, lower)
    path.write_text(json.dumps(out, indent=2) + "\n", encoding="utf-8")
    u, lo = out["upper"], out["lower"]
    print(
        f"{out['config']}: {upper} {u['win_rate']:.3f} {u['interval']} vs {lower} {lo['win_rate']:.3f} "
        f"{lo['interval']} separated={out['separated']} median decision {u['median_decision_s']}s -> {path}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
