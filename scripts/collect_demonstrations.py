"""Collect a teacher bot's choices for a policy to copy (``shadowtable train --imitate-from FILE``).

    python scripts/collect_demonstrations.py --game shadowlord --players 2 --teacher level2 \\
        --opponent heuristic --guide heuristic --games 100 --workers 2 --out runs/sl2-level2.npz

Game ``i`` is drawn from ``derive_seed(20261204, LABEL, i)``; the teacher sits in seat
``i % players`` and the opponent in every other seat, and only the teacher's real choices (more than
one legal action) are kept, each from its own seat's observation, with the guide's choice beside it
when ``--guide`` names one (a guided network needs it). The games are shared among ``--workers``
processes and joined in game order, so the file does not depend on the number of workers. The
teacher may be a ladder level (``level2``) or any bot spec. An existing file is never replaced.
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from shadowtable.bots import ladder
from shadowtable.bots.registry import make_bot
from shadowtable.cli.options import game_options
from shadowtable.core.errors import ShadowTableError
from shadowtable.core.registry import make
from shadowtable.core.rng import derive_seed
from shadowtable.learn.imitation import Demonstrations, game_demonstrations, joined, save_demonstrations

SEED = 20261204
LABEL = "demonstrations"


def one_game(job: tuple[str, int, dict[str, Any], list[str], int, str, int]) -> Demonstrations:
    """Game ``index`` of a collection (run in a worker process)."""
    game_id, players, options, seat_bots, teacher_seat, guide, seed = job
    game = make(game_id, players=players, **options)
    return game_demonstrations(game, seat_bots, [teacher_seat], seed, guide)


def game_jobs(args: argparse.Namespace, options: dict[str, Any], teacher: str, opponent: str) -> list[Any]:
    """One job per game: the teacher in seat ``i % players``, the opponent in every other seat."""
    jobs = []
    for index in range(args.games):
        seat = index % args.players
        seat_bots = [teacher if s == seat else opponent for s in range(args.players)]
        seed = derive_seed(SEED, args.label, index)
        jobs.append((args.game, args.players, options, seat_bots, seat, args.guide, seed))
    return jobs


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", required=True)
    parser.add_argument("--players", type=int, required=True)
    parser.add_argument("--option", action="append", default=[], help="a game option, name=value")
    parser.add_argument("--teacher", required=True, help="the bot whose choices are kept (a level or a spec)")
    parser.add_argument("--opponent", default="heuristic", help="the bot in every other seat")
    parser.add_argument("--guide", default="", help="the guide bot whose choice each row keeps (a guided network's)")
    parser.add_argument("--games", type=int, required=True)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--label", default=LABEL, help="the seed label (keep it apart from every evaluation's)")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    if args.out.exists():
        print(f"error: {args.out} exists; name another file", file=sys.stderr)
        return 2
    if args.games < 1 or args.workers < 1:
        print("error: --games and --workers must be at least 1", file=sys.stderr)
        return 2
    try:
        options = game_options(args.option)
        make(args.game, players=args.players, **options)
    except Exception as error:  # noqa: BLE001 - one error line for a bad game, count or option
        print(f"error: {error}", file=sys.stderr)
        return 2
    teacher = ladder.resolve_spec(args.teacher, args.game)
    opponent = ladder.resolve_spec(args.opponent, args.game)
    try:
        for spec in (teacher, opponent, args.guide):
            if spec:
                make_bot(spec)
    except ShadowTableError as error:  # one error line for a bad bot, before any game is played
        print(f"error: {error}", file=sys.stderr)
        return 2
    jobs = game_jobs(args, options, teacher, opponent)
    started = time.perf_counter()
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        parts = list(pool.map(one_game, jobs))
    meta = {
        "game": args.game,
        "players": args.players,
        "options": options,
        "teacher": teacher,
        "opponent": opponent,
        "guide": args.guide,
        "games": args.games,
        "seeds": f"derive_seed({SEED}, {args.label!r}, i) for i in range({args.games})",
        "seconds": round(time.perf_counter() - started, 1),
    }
    demos = joined(parts, meta)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    save_demonstrations(demos, args.out)
    print(f"wrote {args.out}: {len(demos)} choices of {teacher} in {args.games} games, {meta['seconds']} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
