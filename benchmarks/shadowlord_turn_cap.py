"""Shadowlord! heuristic self-play: how often games reach the turn cap with no winner.

    nice -n 19 python benchmarks/shadowlord_turn_cap.py [--games N] [--others M] [--random R]

Plays ``N`` games of the 2-player game with the heuristic bot at every seat (and ``M`` games
each of the modified 2-player game, 3 and 4 players) at the default ``turn_cap`` (150), and
prints, per configuration, the games that reached the cap, the median number of turns and the
end reasons.  With ``--random R`` it also plays ``R`` 2-player games of the heuristic against
the random bot (seats alternating) and prints the heuristic's wins and losses.  Game ``i`` of a
configuration is seeded with ``derive_seed(0, "turn-cap-check", name, i)``, so runs before and
after a change to the bot play the same deals and dice.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from shadowtable import RandomBot, make, play_game  # noqa: E402
from shadowtable.core.rng import derive_seed  # noqa: E402
from shadowtable.games.shadowlord.heuristic import ShadowlordHeuristicBot  # noqa: E402

LABEL = "turn-cap-check"
CONFIGS: list[tuple[str, int, dict[str, Any]]] = [
    ("2p", 2, {}),
    ("2p-modified", 2, {"modified": True}),
    ("3p", 3, {}),
    ("4p", 4, {}),
]


def game_seed(name: str, index: int) -> int:
    """The master seed of game ``index`` of configuration ``name``."""
    return derive_seed(0, LABEL, name, index)


def self_play(name: str, players: int, options: dict[str, Any], games: int) -> None:
    """Heuristic at every seat: print capped games, median turns and end reasons."""
    game = make("shadowlord", players=players, **options)
    turns, ends, capped = [], Counter[str](), []
    start = time.perf_counter()
    for i in range(games):
        record = play_game(game, [ShadowlordHeuristicBot() for _ in range(players)], seed=game_seed(name, i))
        turns.append(int(record.metadata["turns"]))
        ends[str(record.metadata["end_reason"])] += 1
        if record.metadata["end_reason"] == "truncated":
            capped.append(i)
    seconds = time.perf_counter() - start
    print(
        f"{name:12s} games {games:5d}  capped {len(capped):4d} ({100 * len(capped) / games:5.1f}%)  "
        f"median turns {statistics.median(turns):6.1f}  [{seconds:.0f} s]"
    )
    print(f"{'':12s} ends: {dict(sorted(ends.items()))}")
    if capped:
        print(f"{'':12s} capped games: {capped[:20]}{' ...' if len(capped) > 20 else ''}")


def against_random(games: int) -> None:
    """Heuristic against random in the 2-player game, seats alternating."""
    game = make("shadowlord", players=2)
    wins = losses = 0
    for i in range(games):
        seat = i % 2
        bots: list[Any] = [ShadowlordHeuristicBot(), RandomBot()]
        if seat == 1:
            bots.reverse()
        winner = play_game(game, bots, seed=game_seed("2p-vs-random", i)).metadata["winner"]
        wins += winner == seat
        losses += winner == 1 - seat
    neither = games - wins - losses
    print(f"{'2p vs random':12s} games {games:5d}  heuristic wins {wins}  losses {losses}  neither {neither}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=400, help="2-player self-play games")
    parser.add_argument("--others", type=int, default=100, help="games of each other configuration")
    parser.add_argument("--random", type=int, default=0, help="2-player games against the random bot")
    args = parser.parse_args()
    for name, players, options in CONFIGS:
        count = args.games if name == "2p" else args.others
        if count > 0:
            self_play(name, players, options, count)
    if args.random > 0:
        against_random(args.random)


if __name__ == "__main__":
    main()
