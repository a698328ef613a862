"""The prepared deals of the tutorials: one per title, a fixed seed chosen so that the early game
shows the key rules, with the newcomer at seat 0 and heuristic bots at the other seats.

A tutorial table draws every chance outcome from its seed (:func:`shadowtable.core.table.chance_rng`):
the opening deal is the same for every newcomer, and the game's record keeps the seed, so a
tutorial game replays like any other."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from shadowtable.core.wording import bot_name

NEWCOMER_SEAT = 0
"""The newcomer's seat in every tutorial."""


@dataclass(frozen=True)
class PreparedDeal:
    """One title's tutorial: the game, its players and options, the seed of every chance draw, the
    bots' level and why this deal teaches well."""

    game_id: str
    players: int
    seed: int
    why: str
    options: dict[str, Any] = field(default_factory=dict)
    bot: str = "heuristic"

    def seat_names(self) -> list[str]:
        """``You`` at the newcomer's seat, then each bot by name and level, as at any table
        (``Brook (heuristic bot)`` at seat 1)."""
        return ["You" if seat == NEWCOMER_SEAT else bot_name(seat, self.bot) for seat in range(self.players)]


DEALS: dict[str, PreparedDeal] = {
    "shadow-planet": PreparedDeal(
        game_id="shadow-planet",
        players=3,
        seed=5,
        why=(
            "Three players, the fewest the game allows. In this deal your first round has you "
            "pick a Character, move and search, and its Messages phase (where your secret "
            "Objective decides what to discard) comes within about a dozen choices; the next "
            "rounds bring the abilities, Get, Repair, Attack and the Sections."
        ),
    ),
    "shadowlord": PreparedDeal(
        game_id="shadowlord",
        players=2,
        seed=5,
        options={"modified": True, "turn_cap": 8, "max_offers_per_turn": 0},
        why=(
            "The modified 2-player game (one Alliance each), eight turns and no offers, so a first "
            "game fits in about ten minutes. In this deal you place your starting Space Ships, a "
            "Special Event at once lets you discover a galaxy and enlist whoever you find there, "
            "and you move your rings within your first eight choices."
        ),
    ),
}
"""The tutorial of each title, by game id."""


def deal_for(game_id: str) -> PreparedDeal:
    """The prepared deal of ``game_id`` (``KeyError``: no tutorial for it)."""
    return DEALS[game_id]
