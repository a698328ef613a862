"""Every task type and its rule, in one table."""

from __future__ import annotations

from shadowtable.core.kernel import Automatic, Chance, Decision, Rulebook
from third_game.rules import betting, dealing, showdown
from third_game.tasks import DealCard, PlaceBet, ShowCards

RULEBOOK = Rulebook(
    {
        DealCard: Chance(dealing.deal_outcomes, dealing.deal, shown=("seat",)),
        PlaceBet: Decision(
            seat=betting.bettor,
            legal=betting.bet_legal,
            apply=betting.bet,
            prompt="PlaceBet to compete with your card, or pass",
            rule="bet",
            shown=("seat",),
        ),
        ShowCards: Automatic(showdown.showdown),
    }
)
