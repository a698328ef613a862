"""Self-play collection now against the code of an earlier commit, side by side on the same core.

    taskset -c 1 python benchmarks/selfplay_then_and_now.py shadow-planet --players 4

The earlier tree (``--then``, by default the code when the bot-ladder issue was filed) is taken
from git (``git archive``) into a temporary folder and compiled there as the build compiles this
one (``setup.py build_ext --inplace``; ``--pure`` leaves it pure Python).  Each side then collects
the same way, in turns, in a fresh process each time: ``--games`` self-play games in lockstep
(the trainer's way, in both trees), the learner in every seat, one network with the trainer's
default 256-256 layers and the weights of ``torch.manual_seed(0)`` (the same network on both
sides: the encodings' sizes must agree), one PyTorch thread.  Each process plays one warm-up
batch, then one measured batch; the report gives each side's recorded decisions per CPU second
(the median of ``--runs``) and their ratio.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from shadowtable.core.errors import ShadowTableError
from shadowtable.core.registry import make

ROOT = Path(__file__).resolve().parent.parent
THEN = "0e3bc43"
"""main just before the first work on the bot-ladder issue: what its 'today' was."""

MEASURE = """
import inspect, json, math, random, sys, time
import torch
from shadowtable.core.registry import make
from shadowtable.learn import selfplay
from shadowtable.learn.network import PolicyValueNet
from shadowtable.rl.encoding import encoder_for

game_id, players, games, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
torch.set_num_threads(1)
game = make(game_id, players=players)
shape = encoder_for(game).shape
torch.manual_seed(0)
net = PolicyValueNet(math.prod(shape), game.spec.num_distinct_actions, (256, 256))
learner = selfplay.NetPlayer(net, learning=True)
own_generators = "generator" not in inspect.signature(selfplay.play_batch).parameters

def batch(seed):
    lineups = [[learner] * players for _ in range(games)]
    if own_generators:
        return selfplay.play_batch(game, lineups, random.Random(seed))
    return selfplay.play_batch(game, lineups, random.Random(seed), torch.Generator().manual_seed(seed))

batch(seed + 1)  # warm-up
cpu = time.process_time()
finished = batch(seed)
cpu = time.process_time() - cpu
decisions = sum(len(t.actions) for f in finished for t in f.trajectories)
import shadowtable.core.kernel as kernel
print(json.dumps({"module": selfplay.__file__, "compiled": not kernel.__file__.endswith(".py"),
                  "shape": list(shape), "decisions": decisions, "cpu_s": cpu}))
"""


class Refused(Exception):
    """A tree that cannot be taken or built, or two trees that do not measure the same network."""


def take(revision: str, folder: Path) -> Path:
    """``revision``'s files in ``folder`` (git archive); the folder."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", revision], capture_output=True)
    if archive.returncode != 0:
        raise Refused(f"git cannot give the tree of {revision!r}: {archive.stderr.decode().strip()}")
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive.stdout, check=True)
    return folder


def build(tree: Path) -> None:
    """Compile ``tree``'s extension modules in place (the compiled build, required)."""
    env = {**os.environ, "SHADOWTABLE_REQUIRE_COMPILED": "1"}
    done = subprocess.run(
        [sys.executable, "setup.py", "build_ext", "--inplace"], cwd=tree, env=env, capture_output=True, text=True
    )
    if done.returncode != 0:
        raise Refused(f"the tree did not compile:\n{done.stdout[-2000:]}{done.stderr[-2000:]}")


def collect(src: Path, game: str, players: int, games: int, seed: int) -> dict[str, Any]:
    """One measured batch in a fresh process importing ``src``."""
    env = {**os.environ, "PYTHONPATH": str(src)}
    done = subprocess.run(
        [sys.executable, "-c", MEASURE, game, str(players), str(games), str(seed)],
        env=env,
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        raise Refused(f"collection from {src} failed:\n{done.stderr[-2000:]}")
    found: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    if not found["module"].startswith(str(src)):
        raise Refused(f"{src} was not the code imported ({found['module']})")
    return found


def summary(runs: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Decisions per CPU second of each run and their median."""
    rates = [r["decisions"] / r["cpu_s"] for r in runs]
    return {
        "decisions": runs[0]["decisions"],
        "per_cpu_s": [round(r) for r in rates],
        "median": statistics.median(rates),
    }


def measure(args: argparse.Namespace, then_src: Path) -> dict[str, Any]:
    """Both sides, ``args.runs`` times each, in turns."""
    sides: dict[str, list[dict[str, Any]]] = {"then": [], "now": []}
    sources = {"then": then_src, "now": ROOT / "src"}
    for run in range(args.runs):
        for side, src in sources.items():
            sides[side].append(collect(src, args.game, args.players, args.games, args.seed + run))
    shapes = {side: runs[0]["shape"] for side, runs in sides.items()}
    if shapes["then"] != shapes["now"]:
        raise Refused(f"the encodings differ in size ({shapes}): not the same network")
    compiled = {side: runs[0]["compiled"] for side, runs in sides.items()}
    if compiled["then"] and not compiled["now"]:
        raise Refused("this tree is pure Python and the earlier one compiled: pip install -e . compiles this one")
    then, now = summary(sides["then"]), summary(sides["now"])
    return {
        "game": args.game,
        "players": args.players,
        "then": args.then,
        "games": args.games,
        "runs": args.runs,
        "encoding": shapes["now"],
        "compiled": compiled,
        "then_collection": then,
        "now_collection": now,
        "ratio_per_cpu_s": now["median"] / then["median"],
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game")
    parser.add_argument("--players", type=int, required=True)
    parser.add_argument("--then", default=THEN, help=f"the earlier commit (default {THEN})")
    parser.add_argument("--games", type=int, default=64)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=20261206)
    parser.add_argument("--pure", action="store_true", help="leave the earlier tree uncompiled")
    args = parser.parse_args(argv)
    if min(args.games, args.runs) < 1:
        print("error: --games and --runs must be >= 1", file=sys.stderr)
        return 2
    try:
        make(args.game, players=args.players)  # a game this tree cannot make is refused before any build
        with tempfile.TemporaryDirectory(prefix="shadowtable-then-") as folder:
            tree = take(args.then, Path(folder))
            if not args.pure:
                build(tree)
            out = measure(args, tree / "src")
    except (Refused, ShadowTableError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    print(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
