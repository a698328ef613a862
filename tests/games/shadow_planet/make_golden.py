"""Regenerate the golden records (run by hand after an intended rules change, then review the diff):

PYTHONPATH=src python -m tests.games.shadow_planet.make_golden   (from the repository root)

Each record is a plain game record of bots (random ones, or the heuristic bot, which reads the
observation); its ``metadata`` is ``game.summary`` of the final state (end reason, rounds,
indicator trajectory, identities, winners and why).  The seeds are chosen so that together the
records meet every decision of the game but the Temple pile (covered by scenario tests).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from shadowtable.bots.registry import make_bot
from shadowtable.core import make, play_game

GOLDEN = Path(__file__).parent / "golden"
VARIANT: dict[str, Any] = {
    "temple_first": False,
    "caves_vehicle_only": False,
    "latched_end": False,
    "alien_threat_clamp": False,
    "identity_ties": "lowest_initiative",
    "vehicle_fallback": False,
    "search_bonus_without_cards": False,
    "crawler_is_move_card": False,
}
CASES: dict[str, tuple[int, dict[str, Any], int, str]] = {
    "3p-seed11": (3, {}, 11, "random"),
    "4p-seed22": (4, {}, 22, "random"),
    "5p-seed33": (5, {}, 33, "random"),
    "3p-seed108": (3, {}, 108, "random"),
    "4p-seed229": (4, {}, 229, "random"),
    "4p-seed187": (4, {}, 187, "random"),
    "5p-seed68": (5, {}, 68, "random"),
    "4p-variant-seed44": (4, VARIANT, 44, "random"),
    "4p-heuristic-seed0": (4, {}, 0, "heuristic"),
    "5p-heuristic-seed2": (5, {}, 2, "heuristic"),
}


def main() -> None:
    GOLDEN.mkdir(exist_ok=True)
    for name, (players, options, seed, bot) in CASES.items():
        game = make("shadow-planet", players=players, **options)
        record = play_game(game, [make_bot(bot) for _ in range(players)], seed)
        (GOLDEN / f"{name}.json").write_text(record.dumps() + "\n")
        print(name, len(record.actions), "actions")


if __name__ == "__main__":
    main()
