"""Rated ladder: openskill ratings of every level from a round-robin in every configuration.

    python benchmarks/ladder_ratings.py            # play every configuration, write the results
    python benchmarks/ladder_ratings.py --plan     # the games and the estimated cost, nothing played
    python benchmarks/ladder_ratings.py --table    # print the Markdown table of the results

Levels: ``random`` and ``heuristic`` in every configuration, the ``policy`` where one ships for it
and level 2 (``ismcts``) only where :data:`SEARCH_GAMES` gives it a (small) count of games.  Each
configuration plays two blocks: :data:`QUICK_GAMES` games among the quick levels, then
``SEARCH_GAMES[config]`` games among all its levels.  Levels are mixed at every table: game ``i``
of a block seats level ``(i + seat * stride) % k`` (``k`` levels, ``stride`` running through the
numbers below ``k`` prime to it, one full rotation each), so each level sits each seat equally
often over every ``k`` games.  Game ``i`` of a block is played with seed
``derive_seed(derive_seed(20261204, "ladder-ratings", CONFIG, BLOCK), "game", i)``, a label used by
no training or tuning run.  Ratings are openskill Plackett-Luce (``shadowtable.sim.tournament``),
seats ranked by return, updated game by game in block order.  Writes
``docs/results/ladder/ratings-<config>.json`` (ratings, win rates by level, by seat and by role,
median CPU seconds per decision by level), the game records beside it (``.jsonl``, each game's
decision times with it) and ``ratings.md`` (the table of all of them).

``--resume`` adds games to a configuration without replaying those already recorded: each game of
the records is checked against the plan (its block, seed, seating and bot specs) and against the
engine (its actions replay to its returns), then rated in its place; only the games missing from
the records are played.  So raising a count in :data:`SEARCH_GAMES` costs only the added games, and
the games rated are the ones recorded (a search decision cut by its time cap need not repeat).
Decision times are those the records carry: games recorded before records kept them are rated
but not timed (``timed_games`` in the result says how many were).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import statistics
import sys
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from shadowtable.bots import ladder
from shadowtable.bots.policy_bot import shipped_policy
from shadowtable.bots.registry import make_bot
from shadowtable.core.record import GameRecord, RecordError, replay_final
from shadowtable.core.registry import make
from shadowtable.core.rng import derive_seed
from shadowtable.core.runner import play_game
from shadowtable.sim.batch import game_seed
from shadowtable.sim.stats import WinTally
from shadowtable.sim.tournament import SkillRating, TournamentResult, add_record, empty_result, updated_ratings

MASTER = 20261204
SEED_LABEL = "ladder-ratings"
OUT = Path(__file__).resolve().parents[1] / "docs" / "results" / "ladder"

CONFIGS: tuple[tuple[str, int, dict[str, Any]], ...] = (
    ("shadow-planet", 3, {}),
    ("shadow-planet", 4, {}),
    ("shadow-planet", 5, {}),
    ("shadowlord", 2, {}),
    ("shadowlord", 2, {"modified": True}),
    ("shadowlord", 3, {}),
    ("shadowlord", 4, {}),
)
"""Every configuration rated: game, players, options."""

QUICK_GAMES = 180
"""Games per configuration among the quick levels (random, heuristic, the policy where it ships)."""

SEARCH_GAMES: dict[str, int] = {
    "shadow-planet-3p": 88,
    "shadow-planet-4p": 64,
    "shadow-planet-5p": 56,
    "shadowlord-2p": 96,
    "shadowlord-2p-modified": 96,
    "shadowlord-3p": 88,
    "shadowlord-4p": 64,
}
"""Games per configuration with level 2 at the table (whole seat rotations): level 2 costs 0.2-0.7 s
of one core per decision, so it plays only where the ladder measured it, and fewer games than the
quick levels (The Shadow Planet's counts were raised on 2026-12-04, before its rerun; Shadowlord!'s
with 2 players, standard and modified, on 2026-12-05, before their rerun, and with 3 and 4 players
later that day, before theirs, to seat level 2 in 24 seat-games each; with 4 players to 64 on
2026-12-05, before a third run, to rate level 2 as surely as the quick levels; every other
configuration's but the two-player ones on 2026-12-05 again, before its next run, to seat level 2
in 64-70 seat-games; the two-player counts, raised to 128 with them, went back to the 48 their
results were played with when their runs did not fit that session, then to 96, for 48 seat-games,
later on 2026-12-05, before their runs with ``--resume``)."""

SEARCH_LEVEL = "ismcts"


def levels_of(game_id: str, players: int, options: dict[str, Any]) -> tuple[list[str], list[str]]:
    """The quick levels of a configuration, and all of its levels (level 2 where it plays)."""
    config = ladder.config_name(game_id, players, options)
    quick = ["random", "heuristic"] + (["policy"] if shipped_policy(game_id, players, options) is not None else [])
    return quick, quick + ([SEARCH_LEVEL] if SEARCH_GAMES.get(config, 0) > 0 else [])


def strides(count: int) -> list[int]:
    """The seat strides of a rotation of ``count`` levels: the numbers below it prime to it."""
    return [d for d in range(1, count) if math.gcd(d, count) == 1] or [1]


def seating(levels: Sequence[str], players: int, index: int) -> list[str]:
    """The level in each seat of game ``index``: level ``(i + seat * stride) % k`` (see the module)."""
    count = len(levels)
    steps = strides(count)
    stride = steps[(index // count) % len(steps)]
    return [levels[(index + seat * stride) % count] for seat in range(players)]


def rate(games: Iterable[tuple[Sequence[str], Sequence[float]]], levels: Sequence[str]) -> dict[str, SkillRating]:
    """Ratings of ``levels`` after ``games`` (each the levels seated and their returns), in order."""
    first = empty_result("", 1, {}, 0, list(levels)).ratings
    ratings: dict[str, SkillRating] = dict(first)
    for lineup, returns in games:
        ratings.update(updated_ratings(ratings, lineup, returns))
    return ratings


def ranking(ratings: Mapping[str, SkillRating]) -> list[str]:
    """The levels strongest first: by the conservative ordinal (``mu - 3 sigma``), then by ``mu``."""
    return sorted(ratings, key=lambda name: (-ratings[name].ordinal, -ratings[name].mu, name))


class TimedBot:
    """A bot whose every decision's CPU seconds are appended to ``times``, and whose decisions cut
    short by its time cap (wall clock at or past its ``time`` budget) are counted in ``capped``."""

    def __init__(self, bot: Any, times: list[float], capped: list[int]) -> None:
        self.bot = bot
        self.times = times
        self.capped = capped

    def __getattr__(self, name: str) -> Any:
        return getattr(self.bot, name)

    def choose(self, *args: Any, **kwargs: Any) -> int:
        """The wrapped bot's choice, timed."""
        start, wall = time.process_time(), time.perf_counter()
        action: int = self.bot.choose(*args, **kwargs)
        self.times.append(time.process_time() - start)
        if ladder.cut_by_time_cap(self.bot, time.perf_counter() - wall):
            self.capped[0] += 1
        return action


Played = tuple[int, list[str], GameRecord, dict[str, list[float]], dict[str, int]]
"""One game of a block: index, levels seated, record, each level's decision times and capped count."""


def play_game_of_block(
    game_id: str, players: int, options: dict[str, Any], levels: Sequence[str], seed: int, index: int
) -> Played:
    """Play game ``index`` of a block (the same game in any process)."""
    game = make(game_id, players=players, **options)
    specs = {level: ladder.resolve_spec(level, game_id) for level in levels}
    lineup = seating(levels, players, index)
    times: dict[str, list[float]] = {level: [] for level in levels}
    capped: dict[str, list[int]] = {level: [0] for level in levels}
    bots = [TimedBot(make_bot(specs[level]), times[level], capped[level]) for level in lineup]
    record = play_game(game, bots, game_seed(seed, index), seat_names=[specs[level] for level in lineup])
    return index, lineup, record, times, {level: count[0] for level, count in capped.items()}


class RecordMismatch(ValueError):
    """A recorded game is not the game the plan would play in its place."""


Recorded = Mapping[tuple[str, int], Mapping[str, Any]]
"""An earlier run's records: each line of its ``.jsonl`` by block name and game index."""


def read_recorded(path: Path) -> dict[tuple[str, int], dict[str, Any]]:
    """The lines of the records at ``path`` by block and index (none if there is no file)."""
    if not path.exists():
        return {}
    lines = (json.loads(text) for text in path.read_text(encoding="utf-8").splitlines() if text.strip())
    return {(line["block"], line["index"]): line for line in lines}


def recorded_game(
    line: Mapping[str, Any], game_id: str, players: int, levels: Sequence[str], seed: int, index: int
) -> Played:
    """Game ``index`` of a block as recorded, once checked to be the game the plan plays there."""
    record = GameRecord.from_json(line["record"])
    lineup = seating(levels, players, index)
    specs = [ladder.resolve_spec(level, game_id) for level in lineup]
    expected = {"levels": lineup, "game": game_id, "seed": game_seed(seed, index), "seats": specs}
    found = {"levels": line["levels"], "game": record.game, "seed": record.seed, "seats": record.seats}
    wrong = [name for name in expected if expected[name] != found[name]]
    if wrong:
        raise RecordMismatch(f"recorded game {index} of block {line['block']!r} differs in {', '.join(wrong)}")
    try:
        game, final = replay_final(record)
    except RecordError as exc:
        raise RecordMismatch(f"recorded game {index} of block {line['block']!r}: {exc}") from exc
    if record.returns is not None and (not game.is_terminal(final) or game.returns(final) != record.returns):
        raise RecordMismatch(f"recorded game {index} of block {line['block']!r} does not replay to its returns")
    times = {level: list(line.get("cpu_s", {}).get(level, [])) for level in levels}
    capped = {level: int(line.get("capped", {}).get(level, 0)) for level in levels}
    return index, lineup, record, times, capped


def _play_packed(task: tuple[str, int, dict[str, Any], list[str], int, int]) -> tuple[Any, ...]:
    """:func:`play_game_of_block` in a worker process, its record as JSON (to cross the pipe)."""
    index, lineup, record, times, capped = play_game_of_block(*task)
    return index, lineup, record.to_json(), times, capped


def play_block(
    game_id: str,
    players: int,
    options: dict[str, Any],
    levels: Sequence[str],
    seed: int,
    games: int,
    workers: int = 1,
    recorded: Mapping[int, Played] | None = None,
) -> Iterator[Played]:
    """The block's games in index order (``workers``: played in that many processes, the same
    games; ``recorded``: games read back from earlier records (:func:`recorded_game`), by index)."""
    recorded = recorded or {}
    tasks = [(game_id, players, options, list(levels), seed, index) for index in range(games) if index not in recorded]
    with ProcessPoolExecutor(max_workers=workers) if workers > 1 and tasks else contextlib.nullcontext() as pool:
        played = pool.map(_play_packed, tasks) if pool is not None else map(_play_packed, tasks)
        for index in range(games):
            if index in recorded:
                yield recorded[index]
                continue
            index_played, lineup, record, times, capped = next(played)
            yield index_played, lineup, GameRecord.from_json(record), times, capped


def tally(part: WinTally) -> dict[str, Any]:
    """Seat-games, wins, win rate and its 95% Wilson interval."""
    low, high = part.win_interval
    return {"seat_games": part.games, "wins": part.wins, "win_rate": part.win_rate, "interval": [low, high]}


def summary(result: TournamentResult, times: Mapping[str, list[float]], capped: Mapping[str, int]) -> dict[str, Any]:
    """Each level's rating, rank, win rates (overall, by seat, by role) and median s per decision."""
    order = ranking(result.ratings)
    return {
        level: {
            **result.ratings[level].to_json(),
            "rank": order.index(level) + 1,
            **tally(result.bots[level]),
            "by_seat": [tally(seat) for seat in result.bot_seats[level]],
            "by_role": {role: tally(by[level]) for role, by in sorted(result.roles.items()) if level in by},
            "decisions": len(times[level]),
            "median_decision_s": statistics.median(times[level]) if times[level] else None,
            "decisions_cut_by_time_cap": capped[level],
        }
        for level in result.labels
    }


def run(
    game_id: str, players: int, options: dict[str, Any], out: Path, workers: int = 1, resume: bool = False
) -> dict[str, Any]:
    """Play both blocks of one configuration (``workers``: in that many processes, the same games,
    rated in the same order; ``resume``: games already in its records read back, not played); its
    result (records written beside it)."""
    config = ladder.config_name(game_id, players, options)
    quick, every = levels_of(game_id, players, options)
    game = make(game_id, players=players, **options)
    result = empty_result(game_id, players, dict(game.options), MASTER, every)
    times: dict[str, list[float]] = {level: [] for level in every}
    capped: dict[str, int] = dict.fromkeys(every, 0)
    blocks = [("quick", quick, QUICK_GAMES), ("search", every, SEARCH_GAMES.get(config, 0))]
    started = time.perf_counter()
    records = out / f"ratings-{config}.jsonl"
    lines = read_recorded(records) if resume else {}
    seeds = {block: derive_seed(MASTER, SEED_LABEL, config, block) for block, _, _ in blocks}
    earlier = {
        block: {
            index: recorded_game(lines[block, index], game_id, players, levels, seeds[block], index)
            for index in range(games)
            if (block, index) in lines
        }
        for block, levels, games in blocks
    }  # every recorded game checked before the records are rewritten
    untimed = {(block, index) for (block, index), line in lines.items() if "cpu_s" not in line}
    resumed = timed = 0
    with records.open("w", encoding="utf-8") as sink:
        for block, levels, games in blocks:
            for index, lineup, record, spent, cut in play_block(
                game_id, players, options, levels, seeds[block], games, workers, earlier[block]
            ):
                add_record(result, record, lineup, game.spec.max_utility)
                resumed += index in earlier[block]
                line: dict[str, Any] = {"block": block, "index": index, "levels": lineup, "record": record.to_json()}
                if (block, index) not in untimed:
                    timed += 1
                    line |= {"cpu_s": {level: [round(t, 6) for t in ts] for level, ts in spent.items()}, "capped": cut}
                for level, seconds in spent.items():
                    times[level] += seconds
                    capped[level] += cut[level]
                sink.write(json.dumps(line) + "\n")
                sink.flush()
    return {
        "format": "shadowtable-ladder-ratings-1",
        "config": config,
        "game": game_id,
        "players": players,
        "options": options,
        "levels": {level: ladder.resolve_spec(level, game_id) for level in every},
        "blocks": [
            {"name": b, "levels": list(ls), "games": g, "seed_label": [SEED_LABEL, config, b]} for b, ls, g in blocks
        ],
        "seed_master": MASTER,
        "game_seeds": "derive_seed(derive_seed(seed_master, *seed_label), 'game', i) for game i of a block",
        "games": result.games,
        "truncated": result.truncated,
        "ranking": ranking(result.ratings),
        "ratings": summary(result, times, capped),
        "seat_win_rates": [tally(seat) for seat in result.seats],
        "wall_s": round(time.perf_counter() - started, 1),
        "workers": workers,
        "resumed_games": resumed,
        "timed_games": timed,
        "records": records.name,
    }


def plan() -> list[dict[str, Any]]:
    """Per configuration: its levels, games per block and the estimated CPU seconds of level 2
    (seat-games times decisions per seat-game times median seconds per decision, from the ladder)."""
    rows = []
    for game_id, players, options in CONFIGS:
        config = ladder.config_name(game_id, players, options)
        quick, every = levels_of(game_id, players, options)
        search = SEARCH_GAMES.get(config, 0)
        seat_games = sum(seating(every, players, i).count(SEARCH_LEVEL) for i in range(search))
        measured = ladder.read_result(ladder.results_dir(), config, SEARCH_LEVEL, "heuristic")
        estimate = None
        if seat_games and measured is not None:
            upper = measured["upper"]
            estimate = seat_games * upper["decisions"] / upper["seat_games"] * upper["median_decision_s"]
        rows.append(
            {
                "config": config,
                "quick": quick,
                "quick_games": QUICK_GAMES,
                "levels": every,
                "search_games": search,
                "search_seat_games": seat_games,
                "search_cpu_s_estimate": estimate,
            }
        )
    return rows


def _pct(part: Mapping[str, Any]) -> str:
    if not part["seat_games"]:
        return "-"
    low, high = part["interval"]
    return f"{100 * part['win_rate']:.0f}% ({100 * low:.0f}-{100 * high:.0f}), {part['seat_games']}"


def table(folder: Path = OUT) -> str:
    """The results in ``folder`` as Markdown: one table of ratings, then win rates by seat and role."""
    rows = [
        "| configuration | rank | level | mu | sigma | ordinal | win rate (95% CI), seat-games | s/decision |",
        "|---|---|---|---|---|---|---|---|",
    ]
    seats = ["| configuration | level | win rate by seat (seat 1, 2, ...) |", "|---|---|---|"]
    roles = ["| configuration | level | win rate by role |", "|---|---|---|"]
    for path in sorted(folder.glob("ratings-*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        for level in data["ranking"]:
            r = data["ratings"][level]
            median = r["median_decision_s"]
            rows.append(
                f"| {data['config']} | {r['rank']} | {level} | {r['mu']:.1f} | {r['sigma']:.2f} | {r['ordinal']:.1f} "
                f"| {_pct(r)} | {'-' if median is None else f'{median:.2g}'} |"
            )
            seats.append(f"| {data['config']} | {level} | {'; '.join(_pct(s) for s in r['by_seat'])} |")
            if r["by_role"]:
                by_role = "; ".join(f"{role} {_pct(part)}" for role, part in r["by_role"].items())
                roles.append(f"| {data['config']} | {level} | {by_role} |")
    return "\n".join([*rows, "", *seats, "", *roles])


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the arguments; play, plan or print the table."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--plan", action="store_true", help="print the games and estimated cost; play nothing")
    parser.add_argument("--table", action="store_true", help="print the Markdown table of the results")
    parser.add_argument("--config", action="append", default=[], help="only this configuration (repeatable)")
    parser.add_argument("--workers", type=int, default=1, help="processes playing the games (the same games)")
    parser.add_argument("--folder", type=Path, default=OUT, help="where the results are written and read")
    parser.add_argument(
        "--resume", action="store_true", help="read back the games already recorded; play only those missing"
    )
    args = parser.parse_args(argv)
    if args.workers < 1:
        print("error: --workers must be at least 1", file=sys.stderr)
        return 2
    known = {ladder.config_name(g, p, o): (g, p, o) for g, p, o in CONFIGS}
    unknown = [name for name in args.config if name not in known]
    if unknown:
        print(f"error: unknown configuration {unknown[0]!r}; known: {', '.join(known)}", file=sys.stderr)
        return 2
    if args.plan:
        print(json.dumps(plan(), indent=2))
        return 0
    if args.table:
        print(table(args.folder))
        return 0
    args.folder.mkdir(parents=True, exist_ok=True)
    for name in args.config or list(known):
        game_id, players, options = known[name]
        try:
            out = run(game_id, players, options, args.folder, workers=args.workers, resume=args.resume)
        except RecordMismatch as exc:
            print(f"error: {exc}; its records do not fit this plan (run without --resume to replay)", file=sys.stderr)
            return 2
        (args.folder / f"ratings-{name}.json").write_text(json.dumps(out, indent=2) + "\n", encoding="utf-8")
        print(f"{name}: {' > '.join(out['ranking'])} ({out['games']} games, {out['wall_s']} s)", flush=True)
    (args.folder / "ratings.md").write_text(table(args.folder) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
