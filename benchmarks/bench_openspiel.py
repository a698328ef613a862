"""The OpenSpiel bridge: ``clone()`` of a pyspiel state against a copy of the engine state it wraps.

    python benchmarks/bench_openspiel.py [--positions 20] [--number 200] [--seed 0]
                                         [--baseline-src PATH]

For each game it replays positions spread over one seeded random playout and times, at each,
``state.clone()`` and ``state.st_state.copy()`` (the best of 3 runs of ``--number`` calls); the
table gives the medians over the positions and their ratio.  ``--baseline-src`` measures another
tree's ``src`` the same way in a subprocess, so both figures come from the same run.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import timeit
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
GAMES = [("shadow-planet", 4), ("shadowlord", 2), ("shadowlord", 4)]


def random_history(game: Any, seed: int) -> list[int]:
    """The actions of one seeded random playout (chance outcomes drawn by their probability)."""
    rng, state = random.Random(seed), game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(actions, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return [int(a) for a in state.history()]


def replay(game: Any, actions: list[int]) -> Any:
    """A fresh state with ``actions`` applied."""
    state = game.new_initial_state()
    for action in actions:
        state.apply_action(action)
    return state


def positions(game: Any, history: list[int], count: int) -> list[Any]:
    """Up to ``count`` states spread evenly over ``history`` (none terminal)."""
    cuts = sorted({len(history) * i // count for i in range(count)})
    return [replay(game, history[:cut]) for cut in cuts]


def seconds_per_call(fn: Any, number: int) -> float:
    """The best of 3 timings of ``number`` calls, per call."""
    return min(timeit.repeat(fn, number=number, repeat=3)) / number


def measure(game_id: str, players: int, count: int, number: int, seed: int) -> dict[str, Any]:
    """Median clone and engine-copy times (µs) over ``count`` positions of one game."""
    from shadowtable.rl.openspiel_game import load

    game = load(game_id, players)
    states = positions(game, random_history(game, seed), count)
    clone = statistics.median(seconds_per_call(s.clone, number) for s in states) * 1e6
    copy = statistics.median(seconds_per_call(s.st_state.copy, number) for s in states) * 1e6
    return {"game": game_id, "players": players, "positions": len(states), "clone_us": clone, "copy_us": copy}


def measure_all(args: argparse.Namespace) -> dict[str, Any]:
    """Every game's figures, and where ``shadowtable`` was imported from."""
    import shadowtable

    rows = [measure(g, p, args.positions, args.number, args.seed) for g, p in GAMES]
    return {"source": str(Path(shadowtable.__file__).resolve().parent.parent), "rows": rows}


def measure_baseline(args: argparse.Namespace) -> dict[str, Any]:
    """:func:`measure_all` run on ``args.baseline_src`` in a subprocess."""
    command = [sys.executable, __file__, "--json", "--src", args.baseline_src]
    command += ["--positions", str(args.positions), "--number", str(args.number), "--seed", str(args.seed)]
    env = {**os.environ, "PYTHONPATH": args.baseline_src}
    done = subprocess.run(command, env=env, check=True, capture_output=True, text=True)
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def format_table(label: str, result: dict[str, Any]) -> str:
    """One tree's rows as a plain-text table."""
    lines = [f"{label}: {result['source']}"]
    lines.append(f"  {'game':<14} {'players':>7} {'positions':>9} {'clone µs':>10} {'copy µs':>9} {'clone/copy':>10}")
    for row in result["rows"]:
        ratio = row["clone_us"] / row["copy_us"]
        lines.append(
            f"  {row['game']:<14} {row['players']:>7} {row['positions']:>9} "
            f"{row['clone_us']:>10.1f} {row['copy_us']:>9.1f} {ratio:>10.2f}"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--positions", type=int, default=20, help="positions per game (default 20)")
    parser.add_argument("--number", type=int, default=200, help="calls per timing (default 200)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--baseline-src", help="also measure this tree's src (in a subprocess)")
    parser.add_argument("--src", default=str(ROOT / "src"), help=argparse.SUPPRESS)
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    sys.path.insert(0, args.src)
    if args.json:
        print(json.dumps(measure_all(args)))
        return
    if args.baseline_src:
        print(format_table("baseline", measure_baseline(args)))
    print(format_table("this tree", measure_all(args)))


if __name__ == "__main__":
    main()
