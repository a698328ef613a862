"""What a seat of Shadowlord! could deduce about the others' hidden Power Cards.

Model (docs/deduction.md): every Power Card this seat has not seen (its own Attack Hand and
portraits, offered cards, Duel cards drawn face up or committed by itself are seen; the deck,
the discard pile, other hands and portraits, others' committed cards are not) is equally likely
to be any of the hidden cards: each opponent's hidden cards (Attack Hand plus the cards under
its portraits) are a uniform draw without replacement from the unseen pool.  Play is not used
as evidence.  Reported per opponent: how many hidden cards, the expected count of each value,
the expected total value and the exact distribution of the total value.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any

from shadowtable.core.deduction import SeenStep
from shadowtable.core.game import Game, Observation
from shadowtable.games.shadowlord.observe import _battle_state, _duels_with_commits, _owner_seat, _unseen
from shadowtable.games.shadowlord.view import LordObservation


def unseen_pool(game: Game[Any], view: LordObservation) -> list[int]:
    """How many cards of each value the seat has not seen."""
    battle = None if view.public.battle is None else _battle_state(view.public.battle)
    return [max(0, c) for c in _unseen(game.ctx, view, _duels_with_commits(battle, view.private))]  # type: ignore[attr-defined]


def hidden_count(game: Game[Any], view: LordObservation, opponent: int) -> int:
    """How many Power Cards ``opponent`` holds that the seat cannot see (hand and portraits)."""
    count = view.public.hand_counts[opponent]
    for figure, owner in enumerate(view.public.owner):
        mine = _owner_seat(game.ctx, owner) == opponent  # type: ignore[attr-defined]
        if mine and str(figure) not in view.private.portraits:
            count += view.public.portrait_counts[figure]
    return count


def total_distribution(pool: Sequence[int], values: Sequence[int], n: int) -> dict[int, float]:
    """The distribution of the total value of ``n`` cards drawn without replacement from
    ``pool`` (a count per value), exactly (multivariate hypergeometric)."""
    size = sum(pool)
    if n > size:
        raise ValueError(f"cannot draw {n} cards from {size}")
    ways: dict[tuple[int, int], int] = {(0, 0): 1}  # (cards, total) -> ways
    for count, value in zip(pool, values, strict=True):
        grown: dict[tuple[int, int], int] = {}
        for (cards, total), w in ways.items():
            for j in range(min(count, n - cards) + 1):
                key = (cards + j, total + j * value)
                grown[key] = grown.get(key, 0) + w * math.comb(count, j)
        ways = grown
    all_ways = math.comb(size, n)
    return {total: w / all_ways for (cards, total), w in sorted(ways.items()) if cards == n}


class ShadowlordDeduction:
    """Shadowlord!'s deduction adapter (:class:`shadowtable.core.deduction.Deduction`)."""

    def public_action(self, game: Game[Any], observation: Observation, actor: int, seat: int) -> bool:
        return False  # the model reads only the current observation

    def belief(
        self, game: Game[Any], seat: int, steps: Sequence[SeenStep], rng: random.Random, **options: Any
    ) -> dict[str, Any]:
        """Per opponent: hidden card count, expected count per value, expected and distributed total."""
        if not steps:
            raise ValueError("a belief needs at least the seat's current observation")
        if options:
            raise ValueError(f"unknown options: {sorted(options)}")
        view = LordObservation.from_json(steps[-1].observation)
        values = list(game.ctx.content.card_values)  # type: ignore[attr-defined]
        pool = unseen_pool(game, view)
        size = sum(pool)
        opponents = []
        for other in range(game.players):
            if other == seat:
                continue
            n = min(hidden_count(game, view, other), size)
            expected = [n * c / size if size else 0.0 for c in pool]
            distribution = total_distribution(pool, values, n)
            opponents.append(
                {
                    "seat": other,
                    "hidden_cards": n,
                    "expected_counts": expected,
                    "expected_total": sum(e * v for e, v in zip(expected, values, strict=True)),
                    "total_distribution": [[total, p] for total, p in distribution.items()],
                }
            )
        return {"model": "uniform-unseen", "values": values, "unseen": pool, "opponents": opponents}


DEDUCTION = ShadowlordDeduction()
