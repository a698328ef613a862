"""A text rendering of an observation."""

from __future__ import annotations

from typing import Any


def render(obs: dict[str, Any]) -> str:
    cards = " ".join("?" if c is None else str(c) for c in obs["cards"])
    bets = " ".join({-1: ".", 0: "pass", 1: "bet"}[b] for b in obs["bets"])
    return f"cards: {cards}\nbets: {bets}\nnow: {obs['pending']['prompt']}"
