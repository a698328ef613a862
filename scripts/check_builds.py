"""Check that the compiled build and the pure-Python build play byte-identical games.

    python scripts/check_builds.py [--games 4] [--ismcts-games 1] [--pure-copy DIR] [--keep DIR]

Plays seeded games of every registered game in each of its standard configurations (player
counts and variants), with random bots, with heuristic bots and (``--ismcts-games``) with small
ISMCTS bots, once with the compiled build this interpreter imports and once with the pure build:
a copy of ``src/`` without the extension modules, first on ``sys.path`` of a subprocess.  The
two outputs must be byte-identical: every game record (actions, returns, summary) and, per game,
a digest of the state, the legal actions or chance outcomes before every step and every seat's
final observation.

Exit status 0: identical; 1: a difference (the first one is printed); 2: the compiled build
is not what this interpreter imports, or a side failed to run.  docs/performance.md.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
BOTS = ("random", "heuristic")
ISMCTS = "ismcts:iterations=16:max_rollout_steps=40"
"""Seat 0's bot in the ISMCTS games (the other seats play at random), for their first ``ISMCTS_STEPS``."""
ISMCTS_STEPS = 150


def copy_pure_source(destination: Path) -> Path:
    """A copy of ``src/`` without compiled extension modules in ``destination/src`` (replaced if
    there); returns that folder, the one to put first on ``sys.path``."""
    target = destination / "src"
    destination.mkdir(parents=True, exist_ok=True)
    if target.exists():
        shutil.rmtree(target)
    shutil.copytree(ROOT / "src", target, ignore=shutil.ignore_patterns("*.so", "*.pyd", "__pycache__", "*.egg-info"))
    return target


# -- one side: play and print ---------------------------------------------------------------------
def _canonical(data: Any) -> bytes:
    return json.dumps(data, sort_keys=True, separators=(",", ":")).encode()


def play_all(games: int, ismcts_games: int) -> None:
    """Print every game's record and digest, one line each (run by each side)."""
    from shadowtable.bots.registry import make_bot
    from shadowtable.core import CHANCE, available_games, game_class, make, play_game

    for game_id in available_games():
        for config in game_class(game_id).standard_configurations():
            options = {k: v for k, v in config.items() if k != "players"}
            line_up = [(bot, seed) for bot in BOTS for seed in range(games)]
            line_up += [(ISMCTS, seed) for seed in range(ismcts_games)]
            for bot, seed in line_up:
                game = make(game_id, players=config["players"], **options)
                seats = [bot] * game.players if bot in BOTS else [bot] + ["random"] * (game.players - 1)
                digest = hashlib.sha256()

                def on_step(game: Any, state: Any, player: int, action: int, digest: Any = digest) -> None:
                    digest.update(_canonical(game.state_to_json(state)))
                    if player == CHANCE:
                        digest.update(_canonical(game.chance_outcomes(state)))
                    else:
                        digest.update(_canonical(game.legal_actions(state)))
                    digest.update(b"%d;" % action)

                steps = None if bot in BOTS else ISMCTS_STEPS
                record = play_game(game, [make_bot(spec) for spec in seats], seed, on_step=on_step, max_steps=steps)
                final = game.initial_state()
                for action in record.actions:
                    final = game.apply(final, action)
                for seat in [None, *range(game.players)]:
                    digest.update(_canonical(game.observe(final, seat)))
                setting = " ".join(f"{key}={value}" for key, value in sorted(config.items()))
                label = f"{game_id} {setting}, {bot}, seed {seed}"
                print(json.dumps({"game": label, "digest": digest.hexdigest()}))
                print(record.dumps())


def _child(expect: str, games: int, ismcts_games: int) -> int:
    import shadowtable

    where = Path(shadowtable.__file__).parent
    if shadowtable.compiled() != (expect == "compiled"):
        print(f"check_builds: expected the {expect} build, got {shadowtable.build()} from {where}", file=sys.stderr)
        return 2
    print(f"check_builds: {shadowtable.build()} from {where}", file=sys.stderr)
    play_all(games, ismcts_games)
    return 0


# -- the driver -----------------------------------------------------------------------------------
def _first_difference(one: list[str], other: list[str]) -> str:
    for index, (a, b) in enumerate(zip(one, other, strict=False)):
        if a != b:
            label = "?"
            for line in reversed(one[: index + 1]):
                if line.startswith('{"game"'):
                    label = json.loads(line)["game"]
                    break
            at = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))
            return (
                f"first difference: output line {index + 1}, game {label}, character {at}\n"
                f"  compiled: ...{a[max(0, at - 60) : at + 60]}...\n"
                f"  pure:     ...{b[max(0, at - 60) : at + 60]}..."
            )
    return f"the outputs differ in length: compiled {len(one)} lines, pure {len(other)} lines"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=4, help="seeds per game configuration and bot kind")
    parser.add_argument("--ismcts-games", type=int, default=1, help=f"seeds per configuration with {ISMCTS}")
    parser.add_argument(
        "--pure-copy", type=Path, default=None, help="make the pure copy of src/ in DIR/src and keep it (for pytest)"
    )
    parser.add_argument("--pure-src", type=Path, default=None, help="use this existing pure copy of src/ instead")
    parser.add_argument("--keep", type=Path, default=None, help="write both outputs into this folder")
    parser.add_argument("--play", choices=("compiled", "pure"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.play:
        return _child(args.play, args.games, args.ismcts_games)

    with tempfile.TemporaryDirectory(prefix="shadowtable-builds-") as tmp:
        if args.pure_src:
            pure_src = args.pure_src.resolve()
        else:
            pure_src = copy_pure_source(args.pure_copy.resolve() if args.pure_copy else Path(tmp))
        out = args.keep.resolve() if args.keep else Path(tmp)
        out.mkdir(parents=True, exist_ok=True)
        counts = ["--games", str(args.games), "--ismcts-games", str(args.ismcts_games)]
        sides = {
            "compiled": dict(os.environ),
            "pure": {**os.environ, "PYTHONPATH": os.pathsep.join([str(pure_src), os.environ.get("PYTHONPATH", "")])},
        }
        start = time.perf_counter()
        running = {}
        for side, env in sides.items():
            with open(out / f"{side}.jsonl", "wb") as stdout:
                running[side] = subprocess.Popen(
                    [sys.executable, str(Path(__file__).resolve()), "--play", side, *counts],
                    stdout=stdout,
                    env=env,
                    cwd=tmp,  # not the checkout: nothing but the chosen build on the path
                )
        failed = [side for side, process in running.items() if process.wait() != 0]
        seconds = time.perf_counter() - start
        if failed:
            print(f"check_builds: FAILED: the {' and '.join(failed)} side did not run (see above)", file=sys.stderr)
            return 2
        compiled = (out / "compiled.jsonl").read_bytes()
        pure = (out / "pure.jsonl").read_bytes()
        games = compiled.count(b'{"game"')
        if compiled != pure or games == 0:
            detail = _first_difference(compiled.decode().splitlines(), pure.decode().splitlines())
            print(
                f"check_builds: FAILED: the compiled and the pure build played differently\n{detail}",
                file=sys.stderr,
            )
            return 1
        print(
            f"check_builds: {games} games byte-identical on the compiled and the pure build "
            f"(sha256 {hashlib.sha256(compiled).hexdigest()[:16]}, {seconds:.0f} s)"
        )
        return 0


if __name__ == "__main__":
    sys.exit(main())
