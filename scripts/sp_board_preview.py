"""Render one mid-game Shadow Planet board for seat 0 to /tmp/sp_board.html (a look at the web board).

Usage: python scripts/sp_board_preview.py [--kind PENDING_KIND] [--seed N] [--players N] [--out PATH]
It plays random legal actions (seeded) until seat 0 must decide a step of the ``kind`` asked for
(default ``spend_move_points``, where the reachable places are highlighted), then writes the page.
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

from shadowtable.core.game import CHANCE, TERMINAL
from shadowtable.core.registry import make
from shadowtable.games.shadow_planet.boards.web import render_board
from shadowtable.server.views import seat_view

CSS = Path(__file__).resolve().parents[1] / "src/shadowtable/games/shadow_planet/boards/web.css"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--kind", default="spend_move_points", help="pending kind to stop at; 'over': the end")
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seat", type=int, default=0)
    parser.add_argument("--skip", type=int, default=1, help="take the N-th matching decision")
    parser.add_argument("--out", default="/tmp/sp_board.html")
    args = parser.parse_args()
    game = make("shadow-planet", players=args.players)
    rng = random.Random(args.seed)
    state = game.initial_state()
    seen = 0
    while game.current_player(state) != TERMINAL:
        player = game.current_player(state)
        if player == CHANCE:
            outcomes = game.chance_outcomes(state)
            action = rng.choices([o for o, _ in outcomes], [w for _, w in outcomes])[0]
        else:
            if player == args.seat and game.observe(state, player)["pending"]["kind"] == args.kind:
                seen += 1
                if seen >= args.skip:
                    break
            action = rng.choice(game.legal_actions(state))
        state = game.apply(state, action)
    message = seat_view(game, state, args.seat, v=0, events=[], turn=0)
    html = render_board(game, message)
    page = (
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>"
        "<meta name='viewport' content='width=device-width, initial-scale=1'>"
        f"<title>Shadow Planet board preview</title><style>body{{font-family:system-ui;margin:8px}}"
        f"{CSS.read_text()}</style></head><body>"
        f"<p><em>{html.goal}</em></p><div style='display:flex;flex-wrap:wrap;gap:16px'>"
        f"<div style='flex:1 1 560px;min-width:0'>{html.board}</div>"
        f"<div style='flex:1 1 320px;min-width:0'>{html.panel}</div></div></body></html>"
    )
    Path(args.out).write_text(page, encoding="utf-8")
    print(f"wrote {args.out} ({message['pending']['kind']}, round {message['obs']['round']})")


if __name__ == "__main__":
    main()
