"""The rules of The Shadow Planet, one concept per module, and ``RULEBOOK``: every task type with
the rule that handles it, declared here in one table (no registration by import side effects).

``KERNEL`` is the engine loop over this table (:class:`shadowtable.core.kernel.Kernel`).
"""

from __future__ import annotations

from collections.abc import Callable
from operator import attrgetter
from typing import Any

from shadowtable.core.game import TERMINAL
from shadowtable.core.kernel import Automatic, Chance, Decision, Kernel, Rulebook, always
from shadowtable.games.shadow_planet.context import Context
from shadowtable.games.shadow_planet.rules import (
    abilities,
    control,
    decks,
    endgame,
    markers,
    messages,
    movement,
    objectives,
    section_effects,
    sections,
    steps,
    swap,
    turn,
    vehicles,
)
from shadowtable.games.shadow_planet.state import State
from shadowtable.games.shadow_planet.tasks import (
    AdjustCountdown,
    ApplyAbility,
    ApplySectionEffect,
    AskRider,
    CancelAbility,
    ChooseDeck,
    ChooseIdentity,
    ChooseMarkerColour,
    ChooseMarkerSeat,
    ChooseProtagonist,
    ChooseScrapTarget,
    ChooseSectionEffect,
    ChooseSectionMarkerColour,
    ChooseSectionMarkerSeat,
    DealObjective,
    DiscardMessage,
    DiscardUncontrolled,
    DrawDraftCard,
    DrawExtraCards,
    DrawFromDeck,
    DrawMandatoryCard,
    DriveElsewhere,
    EndInSection,
    EndRound,
    EndTurn,
    GiveRobotCard,
    GiveScrapCard,
    LookMessages,
    MatchIdentities,
    MoveForFree,
    PickCharacter,
    PickTempleCard,
    PlayAttackCards,
    PlayGetCards,
    PlayMoveCards,
    PlayRepairCards,
    PlaySearchCards,
    RemoveMessage,
    RemoveObjective,
    Reorder,
    ReturnScrapCard,
    RevealDraft,
    RevealMessages,
    RevealTop,
    SearchDeck,
    ShowRevealCard,
    ShuffleMessages,
    SpendMovePoints,
    StartMessages,
    StartRound,
    StartTurn,
    TakeRobotCard,
)

_seat: Callable[[Any], int] = attrgetter("seat")
"""The deciding seat: every decision task names it in its ``seat`` field."""


def decision(
    legal: Callable[[Context, State, Any], list[int]],
    apply: Callable[[Context, State, Any, int], None],
    prompt: str,
    rule: str,
    *shown: str,
    ready: Callable[[Context, State, Any], bool] | None = always,
) -> Decision[Context, State]:
    """A decision of the task's ``seat`` (always shown).  Each is offered only when it has a legal
    action (a ``done``, or a precondition checked when the task is pushed), so ``advance`` need
    not list them; a discard has its own ``ready`` test (a player with an empty Gear is skipped)."""
    return Decision(_seat, legal, apply, prompt, rule, ("seat", *shown), ready)


RULEBOOK = Rulebook(
    {
        # setup
        RemoveObjective: Chance(objectives.removable, objectives.remove_objective, ready=always),
        DealObjective: Chance(objectives.dealable, objectives.deal_objective, shown=("seat",), ready=always),
        ChooseProtagonist: Chance(objectives.protagonists, objectives.choose_protagonist, ready=always),
        # the round and its Control phase
        StartRound: Automatic(control.start_round),
        DrawDraftCard: Chance(control.draft_cards, control.draw_draft_card, ready=always),
        PickCharacter: decision(
            control.pick_options,
            control.pick,
            "pick a Character to control this round, face down",
            "control",
            "step",
        ),
        RevealDraft: Automatic(control.reveal_draft),
        # the Operations phase: turns and abilities
        StartTurn: Automatic(turn.start_turn),
        DiscardUncontrolled: Automatic(turn.discard_uncontrolled),
        ApplyAbility: Automatic(abilities.apply_ability),
        CancelAbility: decision(
            abilities.cancel_options,
            abilities.cancel,
            "choose the Character whose ability is cancelled until the end of the round",
            "ability",
        ),
        ChooseMarkerSeat: decision(
            markers.other_seats,
            markers.give_to,
            "choose the player who receives Markers from the pool",
            "ability",
            "count",
        ),
        ChooseMarkerColour: decision(
            markers.pool_colours,
            markers.choose_marker_colour,
            "choose the colour of the pool Marker the player receives",
            "ability",
            "target",
            "count",
        ),
        MoveForFree: decision(
            abilities.free_move_options,
            abilities.move_for_free,
            "use the ability to move into the Section for free, or skip it",
            "ability",
            "section",
        ),
        # the five steps
        PlayMoveCards: decision(
            steps.move_options,
            steps.move_step,
            "step I, Move: play a Move card, declare driving a Vehicle, or be done",
            "move",
            "total",
            "cards",
            "drive",
            "dest",
            "passengers",
        ),
        AskRider: decision(
            vehicles.ride_options,
            vehicles.answer_ride,
            "ride the Vehicle to its destination, or stay",
            "vehicle",
            "rider",
            "waiting",
            "drive",
            "dest",
        ),
        SpendMovePoints: decision(
            movement.walk_actions,
            movement.walk_step,
            "spend Move points: go along a Link, enter a Section, or be done",
            "move",
            "points",
        ),
        DriveElsewhere: decision(
            vehicles.fallback_options,
            vehicles.fallback,
            "the destination is out of reach: drive to another Location, or stay",
            "vehicle",
            "points",
            "drive",
            "passengers",
        ),
        PlaySearchCards: decision(
            steps.search_options,
            steps.search_step,
            "step II, Search: play a Search card, or be done",
            "search",
            "points",
        ),
        SearchDeck: Automatic(steps.search_deck),
        Reorder: decision(
            steps.reorder_options,
            steps.place,
            "put the searched cards back: choose the next card from the top",
            "search",
            "deck",
            "size",
            "placed",
        ),
        DrawMandatoryCard: Automatic(steps.draw_mandatory_card),
        PlayGetCards: decision(
            steps.get_options,
            steps.get_step,
            "step III, Get: play a Get card, or be done",
            "get",
            "draws",
        ),
        DrawExtraCards: Automatic(steps.draw_extra_cards),
        PlayRepairCards: decision(
            steps.repair_options,
            steps.repair_step,
            "step IV, Repair: play a Repair card, or be done",
            "repair",
        ),
        ChooseScrapTarget: decision(
            swap.target_options,
            swap.choose_target,
            "choose the player to swap a card with",
            "repair",
        ),
        GiveScrapCard: decision(
            swap.give_options,
            swap.choose_given,
            "choose the card of your hand you give in the swap",
            "repair",
            "target",
        ),
        ReturnScrapCard: decision(
            swap.take_options,
            swap.swap,
            "choose the card of your hand you give back in the swap",
            "repair",
            "giver",
        ),
        PlayAttackCards: decision(
            steps.attack_options,
            steps.attack_step,
            "step V, Attack: play an Attack card, or be done",
            "attack",
        ),
        # Sections and their effects
        EndInSection: Automatic(sections.end_in_section),
        ChooseSectionEffect: decision(
            sections.choice_options,
            sections.choose,
            "pay the Section's effect by revealing cards of your hand, or leave the Section",
            "section",
            "section",
        ),
        ShowRevealCard: decision(
            sections.reveal_options,
            sections.reveal,
            "show the next card of your hand that pays the Section's effect",
            "section",
            "section",
            "reveal",
            "shown",
        ),
        ApplySectionEffect: Automatic(sections.apply_section_effect),
        LookMessages: Automatic(section_effects.look_messages),
        RemoveMessage: decision(
            section_effects.remove_options,
            section_effects.remove_message,
            "remove one of the Messages cards you look at from the game",
            "section",
            "looked",
            "remove",
        ),
        TakeRobotCard: decision(
            section_effects.robot_cards,
            section_effects.take_robot_card,
            "choose the card of the Robot's Gear you take",
            "section",
        ),
        GiveRobotCard: decision(
            section_effects.own_cards,
            section_effects.give_robot_card,
            "choose the card of your hand the Robot gets in exchange",
            "section",
        ),
        AdjustCountdown: decision(
            section_effects.countdown_options,
            section_effects.adjust_countdown,
            "advance or move back the Countdown Indicator",
            "section",
            "amount",
        ),
        ChooseSectionMarkerSeat: decision(
            markers.other_seats,
            markers.give_to,
            "choose the player who receives Markers from the pool",
            "section",
            "count",
        ),
        ChooseSectionMarkerColour: decision(
            markers.pool_colours,
            markers.choose_marker_colour,
            "choose the colour of the pool Marker the player receives",
            "section",
            "target",
            "count",
        ),
        ChooseDeck: decision(
            section_effects.deck_options,
            section_effects.choose_deck,
            "choose the Location deck whose top card you take",
            "section",
            "count",
        ),
        DrawFromDeck: Automatic(section_effects.draw_from_deck),
        PickTempleCard: decision(
            section_effects.temple_options,
            section_effects.pick_temple_card,
            "put a card of the Messages pile on the Temple pile",
            "section",
            "count",
        ),
        EndTurn: Automatic(turn.end_turn),
        # hidden decks
        RevealTop: Chance(decks.reveal_outcomes, decks.reveal, shown=("deck",), ready=always),
        # the Messages phase and the end of the round
        StartMessages: Automatic(messages.start_messages),
        DiscardMessage: decision(
            messages.discard_options,
            messages.discard,
            "discard a card of your Gear face down to the Messages pile",
            "messages",
            ready=messages.has_gear,
        ),
        ShuffleMessages: Automatic(messages.shuffle_messages),
        RevealMessages: Automatic(messages.reveal_messages),
        EndRound: Automatic(messages.end_round),
        # the end of the game
        MatchIdentities: Automatic(endgame.match_identities),
        ChooseIdentity: decision(
            endgame.identity_options,
            endgame.choose_identity,
            "choose your identity among the Characters you have fewest Markers of",
            "identity",
        ),
    }
)

KERNEL: Kernel[Context, State] = Kernel(RULEBOOK)

PENDING_KINDS = tuple(kind for kind, t in RULEBOOK.by_kind.items() if not isinstance(RULEBOOK.handlers[t], Automatic))
"""Every kind a ``pending`` can have but ``over``: the decisions and chance nodes, in table order."""


def current_player(state: State) -> int:
    """The seat to act, ``CHANCE`` (-1) or ``TERMINAL`` (-2)."""
    seat = KERNEL.current_player(state)
    return TERMINAL if seat is None else seat


__all__ = ["KERNEL", "PENDING_KINDS", "RULEBOOK", "current_player"]
