"""Save SVG screenshots of the terminal app for the docs.

python scripts/screenshots.py shadow-planet --players 4 --bots heuristic --out docs/screenshots/sp.svg
python scripts/screenshots.py shadowlord --players 3 --bots heuristic --end --out docs/screenshots/sl-end.svg

Mid-game: you sit at seat 0 and take the first choice ``--choices`` times.  ``--end``: bots play
every seat to the end and the shot shows the finished game as a spectator sees it.
"""

from __future__ import annotations

import argparse
import asyncio
from pathlib import Path

import shadowtable
from shadowtable.bots import make_bot
from shadowtable.core.runner import Session
from shadowtable.tui.app import PlayApp
from shadowtable.tui.table import Table


async def capture(game_id: str, players: int, bots: str, seed: int, choices: int, out: Path, end: bool) -> None:
    game = shadowtable.make(game_id, players=players)
    if end:
        seats = [make_bot(bots) for _ in range(players)]
        table = Table(Session(game, seats, seed, seat_names=[bots] * players), [])
    else:
        seats = [None] + [make_bot(bots) for _ in range(players - 1)]
        table = Table(Session(game, seats, seed, seat_names=["you"] + [bots] * (players - 1)), [0])
    app = PlayApp(table)
    async with app.run_test(size=(160, 48)) as pilot:
        for _ in range(choices):
            if table.session.is_over():
                break
            await pilot.press("enter")
            await pilot.pause()
        await pilot.pause()
        out.parent.mkdir(parents=True, exist_ok=True)
        app.save_screenshot(filename=out.name, path=str(out.parent))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--bots", default="random")
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--choices", type=int, default=12, help="decisions to take (first option) before the shot")
    parser.add_argument("--end", action="store_true", help="bots play every seat; shoot the finished game")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    asyncio.run(capture(args.game, args.players, args.bots, args.seed, args.choices, args.out, args.end))


if __name__ == "__main__":
    main()
