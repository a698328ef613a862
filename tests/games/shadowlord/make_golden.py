"""Regenerate the golden records (run by hand after an intended rules change):

python -m tests.games.shadowlord.make_golden   (from the repository root, src on the path)
"""

from __future__ import annotations

from pathlib import Path

from shadowtable.bots.random_bot import RandomBot
from shadowtable.core import make, play_game

GOLDEN = Path(__file__).parent / "golden"
CASES = {
    "2p-seed7": (2, {}, 7),
    "2p-modified-seed8": (2, {"modified": True}, 8),
    "3p-seed9": (3, {}, 9),
    "4p-seed10": (4, {}, 10),
}


def main() -> None:
    GOLDEN.mkdir(exist_ok=True)
    for name, (players, options, seed) in CASES.items():
        game = make("shadowlord", players=players, **options)
        record = play_game(game, [RandomBot() for _ in range(players)], seed)
        (GOLDEN / f"{name}.json").write_text(record.dumps() + "\n")


if __name__ == "__main__":
    main()
