"""How each tutorial ends when played as a newcomer would: for fixed seeds, the newcomer's seat
played by the heuristic bot and by random choices; per game, how many games end in a real result
(a win, or the game's own ending) and how many at the turn cap, and how many choices it took.

Usage: ``python scripts/tutorial_endings.py [game_id] [--seeds N]``."""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from collections import Counter
from dataclasses import dataclass

from shadowtable.bots.registry import make_bot
from shadowtable.tutorial import NEWCOMER_SEAT, PreparedDeal, Tutorial, deal_for, deals


@dataclass(frozen=True)
class Ending:
    """How one tutorial game ended: the game's end reason, the winning seat and the choices made."""

    reason: str
    winner: int
    choices: int


PLAYERS = ("heuristic", "mixed", "random")
"""How the newcomer chooses: as the heuristic bot, as it three times in four and at random
otherwise (a sensible newcomer who sometimes tries things), or at random among the coach's choices."""

MIXED_RANDOM = 0.25


def play_out(deal: PreparedDeal, player: str, seed: int, limit: int = 400) -> Ending:
    """Play the tutorial on ``deal``, the newcomer choosing as ``player`` (one of :data:`PLAYERS`)."""
    tutorial = Tutorial(deal)
    rng, bot = random.Random(seed), make_bot("heuristic")
    game = tutorial.table.game
    while not tutorial.is_over() and tutorial.chosen < limit:
        state = tutorial.table.state
        if player == "heuristic" or player == "mixed" and rng.random() >= MIXED_RANDOM:
            legal = game.legal_actions(state)
            action = bot.choose(game, NEWCOMER_SEAT, game.observe(state, NEWCOMER_SEAT), legal, rng)
        else:
            action = rng.choice(tutorial.coaching().choices).action
        tutorial.choose(action)
    summary = game.summary(tutorial.table.state)
    returns = game.returns(tutorial.table.state) if tutorial.is_over() else []
    winner = next((seat for seat, value in enumerate(returns) if value > 0), -1)
    return Ending(str(summary.get("end_reason") or "unfinished"), winner, tutorial.chosen)


def report(game_id: str, seeds: int) -> None:
    deal = deal_for(game_id)
    for player in PLAYERS:
        endings = [play_out(deal, player, seed) for seed in range(seeds)]
        reasons = Counter(e.reason for e in endings)
        winners = Counter("you" if e.winner == NEWCOMER_SEAT else "bot" if e.winner > 0 else "none" for e in endings)
        choices = [e.choices for e in endings]
        print(
            f"{game_id} newcomer={player}: ends {dict(reasons)} winners {dict(winners)} "
            f"choices min {min(choices)} median {statistics.median(choices)} max {max(choices)}"
        )


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("game_id", nargs="?", default=None)
    parser.add_argument("--seeds", type=int, default=20)
    args = parser.parse_args(argv)
    for game_id in [args.game_id] if args.game_id else sorted(deals()):
        report(game_id, args.seeds)


if __name__ == "__main__":
    main(sys.argv[1:])
