"""Benchmark ISMCTS: iterations per second and decision time at a given budget.

    python benchmarks/bench_ismcts.py [--game tiny-showdown] [--players N] [--iterations 200]
                                      [--runs 5] [--decisions 20] [--rollout random]
                                      [--tree actions|observations] [--seed 0]
                                      [--spec "ismcts:time=1:rollout=heuristic:prior=heuristic"]

``--spec`` replaces ``--iterations``/``--rollout``/``--tree`` with a whole bot spec (for time
budgets, priors and evaluations).  Iterations are counted as the bot reports them
(``last_iterations``), so time budgets and searches that stop early are measured truly.

Decision positions are taken from random playouts of the game (positions with a single legal
action are skipped: the bot answers those without searching).  Each run times one ISMCTS decision
per position; the table reports the median over runs (and the fastest and slowest run) of the
iterations per second and of the run's median decision time.  The tiny test game is loaded from
``tests/tiny_game.py`` by path when ``--game`` is not registered.
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import statistics
import sys
from dataclasses import dataclass
from pathlib import Path
from time import perf_counter
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
TINY_GAME_FILE = ROOT / "tests" / "tiny_game.py"
if importlib.util.find_spec("shadowtable") is None:  # run from a checkout without installing
    sys.path.insert(0, str(ROOT / "src"))

from shadowtable.bots import make_bot  # noqa: E402
from shadowtable.bots.ismcts import DEFAULT_ITERATIONS, TREE_KINDS, ISMCTSBot  # noqa: E402
from shadowtable.core import (  # noqa: E402
    CHANCE,
    TERMINAL,
    Game,
    UnknownGameError,
    derive_seed,
    game_class,
    make,
    register,
    sample_outcome,
)


@dataclass(frozen=True)
class Position:
    """A decision point: the acting seat's observation and legal actions."""

    seat: int
    observation: dict[str, Any]
    legal: list[int]


@dataclass(frozen=True)
class RunResult:
    """One run over every position."""

    iterations_per_second: float
    median_decision_seconds: float


def load_game(game_id: str, players: int | None) -> Game[Any]:
    """The registered game, or the tiny test game loaded from ``tests/tiny_game.py``."""
    try:
        return _make(game_id, players)
    except UnknownGameError:
        spec = importlib.util.spec_from_file_location("tiny_game", TINY_GAME_FILE)
        if spec is None or spec.loader is None:
            raise
        module = importlib.util.module_from_spec(spec)
        sys.modules["tiny_game"] = module
        spec.loader.exec_module(module)
        register(module.TinyGame)
        return _make(game_id, players)


def _make(game_id: str, players: int | None) -> Game[Any]:
    return make(game_id, players=players or game_class(game_id).SPEC.min_players)


def decision_positions(game: Game[Any], count: int, seed: int) -> list[Position]:
    """``count`` positions with a real choice, from seeded random playouts."""
    positions: list[Position] = []
    rng = random.Random(seed)
    for _ in range(100 * count):
        state = game.initial_state()
        while game.current_player(state) != TERMINAL and len(positions) < count:
            player = game.current_player(state)
            legal = game.legal_actions(state)
            if player == CHANCE:
                state = game.apply(state, sample_outcome(game.chance_outcomes(state), rng))
                continue
            if len(legal) > 1:
                positions.append(Position(player, game.observe(state, player), legal))
            state = game.apply(state, legal[rng.randrange(len(legal))])
        if len(positions) >= count:
            break
    return positions


def time_run(game: Game[Any], bot: ISMCTSBot, positions: list[Position], run: int) -> RunResult:
    """Time one decision per position."""
    durations = []
    iterations = 0
    for index, position in enumerate(positions):
        rng = random.Random(derive_seed(0, "bench", run, index))
        start = perf_counter()
        bot.choose(game, position.seat, position.observation, position.legal, rng)
        durations.append(perf_counter() - start)
        iterations += bot.last_iterations
    return RunResult(iterations / sum(durations), statistics.median(durations))


def format_report(game: Game[Any], bot: ISMCTSBot, positions: int, runs: list[RunResult]) -> str:
    """A plain-text table of the medians over runs, with the fastest and slowest run."""
    speeds = [r.iterations_per_second for r in runs]
    times = [r.median_decision_seconds * 1000 for r in runs]
    rows = [
        ("iterations / s", statistics.median(speeds), max(speeds), min(speeds)),
        ("decision time (ms)", statistics.median(times), min(times), max(times)),
    ]
    budget = " and ".join(
        part for part in (_maybe(bot.iterations, "iterations"), _maybe(bot.time, "s")) if part is not None
    )
    prior = "" if bot.prior is None else f", prior {bot.prior.name}"
    lines = [
        f"ISMCTS on {game.spec.id} ({game.players} players): {budget}, "
        f"tree {bot.tree}, rollout {bot.rollout_policy.name}{prior}, {positions} positions x {len(runs)} runs",
        f"{'measure':<20}{'median':>12}{'best':>12}{'worst':>12}",
    ]
    lines += [f"{name:<20}{median:>12.1f}{best:>12.1f}{worst:>12.1f}" for name, median, best, worst in rows]
    return "\n".join(lines)


def _maybe(value: float | None, unit: str) -> str | None:
    return None if value is None else f"{value:g} {unit}"


def build_bot(args: argparse.Namespace) -> ISMCTSBot:
    """The bot of ``--spec``, or one built from ``--iterations``, ``--rollout`` and ``--tree``."""
    if args.spec:
        bot = make_bot(args.spec)
        if not isinstance(bot, ISMCTSBot):
            raise SystemExit(f"--spec must name an ismcts bot, got {args.spec!r}")
        return bot
    return ISMCTSBot(iterations=args.iterations, rollout=args.rollout, tree=args.tree)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="tiny-showdown")
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--iterations", type=int, default=DEFAULT_ITERATIONS)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--decisions", type=int, default=20)
    parser.add_argument("--rollout", default="random")
    parser.add_argument("--tree", choices=TREE_KINDS, default="actions")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--spec", default=None, help="a whole ismcts bot spec (overrides the three above)")
    args = parser.parse_args(argv)
    if args.runs < 5:
        parser.error("--runs must be at least 5 (the report is a median)")
    game = load_game(args.game, args.players)
    bot = build_bot(args)
    positions = decision_positions(game, args.decisions, args.seed)
    if not positions:
        parser.error(f"{args.game} has no decision with more than one legal action")
    runs = [time_run(game, bot, positions, run) for run in range(args.runs)]
    print(format_report(game, bot, len(positions), runs))


if __name__ == "__main__":
    main()
