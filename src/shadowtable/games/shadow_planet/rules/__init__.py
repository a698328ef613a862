"""The rules of The Shadow Planet, one concept per module, and ``RULEBOOK``: every task type with
the rule that handles it, declared here in one table (no registration by import side effects).

``KERNEL`` is the engine loop over this table (:class:`shadowtable.core.kernel.Kernel`).
"""

from __future__ import annotations

from shadowtable.core.game import TERMINAL
from shadowtable.core.kernel import Automatic, Chance, Decision, Kernel, Rulebook
from shadowtable.games.shadow_planet import engine
from shadowtable.games.shadow_planet.context import Context
from shadowtable.games.shadow_planet.rules import control, decks, endgame, messages, objectives
from shadowtable.games.shadow_planet.state import State
from shadowtable.games.shadow_planet.tasks import (
    ChooseIdentity,
    ChooseProtagonist,
    DealObjective,
    DiscardMessage,
    DraftPick,
    DrawDraftCard,
    EndRound,
    LegacyAuto,
    LegacyDecision,
    MatchIdentities,
    RemoveObjective,
    RevealDraft,
    RevealMessages,
    RevealTop,
    ShuffleMessages,
    StartMessages,
    StartRound,
)

RULEBOOK = Rulebook(
    {
        # setup
        RemoveObjective: Chance(objectives.removable, objectives.remove_objective),
        DealObjective: Chance(objectives.dealable, objectives.deal_objective, shown=("seat",)),
        ChooseProtagonist: Chance(objectives.protagonists, objectives.choose_protagonist),
        # the round and its Control phase
        StartRound: Automatic(control.start_round),
        DrawDraftCard: Chance(control.draft_cards, control.draw_draft_card),
        DraftPick: Decision(
            seat=lambda task: task.seat,
            legal=control.pick_options,
            apply=control.pick,
            prompt="pick a Character to control this round, face down",
            rule="control",
            shown=("seat", "step"),
        ),
        RevealDraft: Automatic(control.reveal_draft),
        # hidden decks
        RevealTop: Chance(decks.reveal_outcomes, decks.reveal, shown=("deck",)),
        # the Messages phase and the end of the round
        StartMessages: Automatic(messages.start_messages),
        DiscardMessage: Decision(
            seat=lambda task: task.seat,
            legal=messages.discard_options,
            apply=messages.discard,
            prompt="discard a card of your Gear face down to the Messages pile",
            rule="messages",
            shown=("seat",),
        ),
        ShuffleMessages: Automatic(messages.shuffle_messages),
        RevealMessages: Automatic(messages.reveal_messages),
        EndRound: Automatic(messages.end_round),
        # the end of the game
        MatchIdentities: Automatic(endgame.match_identities),
        ChooseIdentity: Decision(
            seat=lambda task: task.seat,
            legal=endgame.identity_options,
            apply=endgame.choose_identity,
            prompt="choose your identity among the Characters you have fewest Markers of",
            rule="identity",
            shown=("seat",),
        ),
        # the bridge to the engine's modes (the Operations phase, until it is ported)
        LegacyAuto: Automatic(engine.legacy_run),
        LegacyDecision: Decision(
            seat=lambda task: task.seat,
            legal=engine.legacy_legal,
            apply=engine.legacy_decide,
            prompt="decide",
            shown=("mode", "seat"),
        ),
    }
)

KERNEL: Kernel[Context, State] = Kernel(RULEBOOK)


def current_player(state: State) -> int:
    """The seat to act, ``CHANCE`` (-1) or ``TERMINAL`` (-2)."""
    seat = KERNEL.current_player(state)
    return TERMINAL if seat is None else seat


__all__ = ["KERNEL", "RULEBOOK", "current_player"]
