"""The rules of The Shadow Planet, one concept per module, and ``RULEBOOK``: every task type with
the rule that handles it, declared here in one table (no registration by import side effects).

``KERNEL`` is the engine loop over this table (:class:`shadowtable.core.kernel.Kernel`).
"""

from __future__ import annotations

from typing import Any

from shadowtable.core.game import TERMINAL
from shadowtable.core.kernel import Automatic, Chance, Decision, Kernel, Rulebook
from shadowtable.games.shadow_planet.context import Context
from shadowtable.games.shadow_planet.rules import (
    abilities,
    control,
    decks,
    endgame,
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
    AbilityNext,
    AdjustCountdown,
    CancelAbility,
    ChooseDeck,
    ChooseIdentity,
    ChooseProtagonist,
    DealObjective,
    DiscardMessage,
    DraftPick,
    DrawDraftCard,
    DrawFromDeck,
    DriveFallback,
    EffectNext,
    EndRound,
    EndTurn,
    FreeMove,
    GetDraws,
    GetMandatory,
    GiveColour,
    GiveRobotCard,
    GiveSeat,
    LookMessages,
    MatchIdentities,
    MovePoints,
    RemoveMessage,
    RemoveObjective,
    Reorder,
    RevealDraft,
    RevealMessages,
    RevealPick,
    RevealTop,
    RideAsk,
    ScrapGive,
    ScrapTake,
    ScrapTarget,
    SearchLook,
    SectionChoice,
    SectionEnd,
    SectionGiveColour,
    SectionGiveSeat,
    ShuffleMessages,
    StartMessages,
    StartRound,
    StartTurn,
    StepAttack,
    StepGet,
    StepMove,
    StepRepair,
    StepSearch,
    TakeRobotCard,
    TemplePick,
    UncontrolledDiscard,
)


def _seat(task: Any) -> int:
    seat: int = task.seat
    return seat


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
            seat=_seat,
            legal=control.pick_options,
            apply=control.pick,
            prompt="pick a Character to control this round, face down",
            rule="control",
            shown=("seat", "step"),
        ),
        RevealDraft: Automatic(control.reveal_draft),
        # the Operations phase: turns and abilities
        StartTurn: Automatic(turn.start_turn),
        UncontrolledDiscard: Automatic(turn.uncontrolled_discard),
        AbilityNext: Automatic(abilities.ability_next),
        CancelAbility: Decision(
            seat=_seat,
            legal=abilities.cancel_options,
            apply=abilities.cancel,
            prompt="choose the Character whose ability is cancelled until the end of the round",
            rule="ability",
            shown=("seat",),
        ),
        GiveSeat: Decision(
            seat=_seat,
            legal=abilities.other_seats,
            apply=abilities.give_to,
            prompt="choose the player who receives Markers from the pool",
            rule="ability",
            shown=("seat", "count"),
        ),
        GiveColour: Decision(
            seat=_seat,
            legal=abilities.pool_colours,
            apply=abilities.give_colour,
            prompt="choose the colour of the pool Marker the player receives",
            rule="ability",
            shown=("seat", "target", "count"),
        ),
        FreeMove: Decision(
            seat=_seat,
            legal=abilities.free_move_options,
            apply=abilities.free_move,
            prompt="use the ability to move into the Section for free, or skip it",
            rule="ability",
            shown=("seat", "section"),
        ),
        # the five steps
        StepMove: Decision(
            seat=_seat,
            legal=steps.move_options,
            apply=steps.move_step,
            prompt="step I, Move: play a Move card, declare driving a Vehicle, or be done",
            rule="move",
            shown=("seat", "total", "cards", "drive", "dest", "passengers"),
        ),
        RideAsk: Decision(
            seat=_seat,
            legal=vehicles.ride_options,
            apply=vehicles.answer_ride,
            prompt="ride the Vehicle to its destination, or stay",
            rule="vehicle",
            shown=("seat", "rider", "waiting", "drive", "dest"),
        ),
        MovePoints: Decision(
            seat=_seat,
            legal=movement.walk_actions,
            apply=movement.walk_step,
            prompt="spend Move points: go along a Link, enter a Section, or be done",
            rule="move",
            shown=("seat", "points"),
        ),
        DriveFallback: Decision(
            seat=_seat,
            legal=vehicles.fallback_options,
            apply=vehicles.fallback,
            prompt="the destination is out of reach: drive to another Location, or stay",
            rule="vehicle",
            shown=("seat", "points", "drive", "passengers"),
        ),
        StepSearch: Decision(
            seat=_seat,
            legal=steps.search_options,
            apply=steps.search_step,
            prompt="step II, Search: play a Search card, or be done",
            rule="search",
            shown=("seat", "points"),
        ),
        SearchLook: Automatic(steps.search_look),
        Reorder: Decision(
            seat=_seat,
            legal=steps.reorder_options,
            apply=steps.place,
            prompt="put the searched cards back: choose the next card from the top",
            rule="search",
            shown=("seat", "deck", "size", "placed"),
        ),
        GetMandatory: Automatic(steps.get_mandatory),
        StepGet: Decision(
            seat=_seat,
            legal=steps.get_options,
            apply=steps.get_step,
            prompt="step III, Get: play a Get card, or be done",
            rule="get",
            shown=("seat", "draws"),
        ),
        GetDraws: Automatic(steps.get_draws),
        StepRepair: Decision(
            seat=_seat,
            legal=steps.repair_options,
            apply=steps.repair_step,
            prompt="step IV, Repair: play a Repair card, or be done",
            rule="repair",
            shown=("seat",),
        ),
        ScrapTarget: Decision(
            seat=_seat,
            legal=swap.target_options,
            apply=swap.choose_target,
            prompt="choose the player to swap a card with",
            rule="repair",
            shown=("seat",),
        ),
        ScrapGive: Decision(
            seat=_seat,
            legal=swap.give_options,
            apply=swap.choose_given,
            prompt="choose the card of your hand you give in the swap",
            rule="repair",
            shown=("seat", "target"),
        ),
        ScrapTake: Decision(
            seat=_seat,
            legal=swap.take_options,
            apply=swap.swap,
            prompt="choose the card of your hand you give back in the swap",
            rule="repair",
            shown=("seat", "giver"),
        ),
        StepAttack: Decision(
            seat=_seat,
            legal=steps.attack_options,
            apply=steps.attack_step,
            prompt="step V, Attack: play an Attack card, or be done",
            rule="attack",
            shown=("seat",),
        ),
        # Sections and their effects
        SectionEnd: Automatic(sections.section_end),
        SectionChoice: Decision(
            seat=_seat,
            legal=sections.choice_options,
            apply=sections.choose,
            prompt="pay the Section's effect by revealing cards of your hand, or leave the Section",
            rule="section",
            shown=("seat", "section"),
        ),
        RevealPick: Decision(
            seat=_seat,
            legal=sections.reveal_options,
            apply=sections.reveal,
            prompt="show the next card of your hand that pays the Section's effect",
            rule="section",
            shown=("seat", "section", "reveal", "shown"),
        ),
        EffectNext: Automatic(sections.effect_next),
        LookMessages: Automatic(section_effects.look_messages),
        RemoveMessage: Decision(
            seat=_seat,
            legal=section_effects.remove_options,
            apply=section_effects.remove_message,
            prompt="remove one of the Messages cards you look at from the game",
            rule="section",
            shown=("seat", "looked", "remove"),
        ),
        TakeRobotCard: Decision(
            seat=_seat,
            legal=section_effects.robot_cards,
            apply=section_effects.take_robot_card,
            prompt="choose the card of the Robot's Gear you take",
            rule="section",
            shown=("seat",),
        ),
        GiveRobotCard: Decision(
            seat=_seat,
            legal=section_effects.own_cards,
            apply=section_effects.give_robot_card,
            prompt="choose the card of your hand the Robot gets in exchange",
            rule="section",
            shown=("seat",),
        ),
        AdjustCountdown: Decision(
            seat=_seat,
            legal=section_effects.countdown_options,
            apply=section_effects.adjust_countdown,
            prompt="advance or move back the Countdown Indicator",
            rule="section",
            shown=("seat", "amount"),
        ),
        SectionGiveSeat: Decision(
            seat=_seat,
            legal=section_effects.other_seats,
            apply=section_effects.give_to,
            prompt="choose the player who receives Markers from the pool",
            rule="section",
            shown=("seat", "count"),
        ),
        SectionGiveColour: Decision(
            seat=_seat,
            legal=section_effects.pool_colours,
            apply=section_effects.give_colour,
            prompt="choose the colour of the pool Marker the player receives",
            rule="section",
            shown=("seat", "target", "count"),
        ),
        ChooseDeck: Decision(
            seat=_seat,
            legal=section_effects.deck_options,
            apply=section_effects.choose_deck,
            prompt="choose the Location deck whose top card you take",
            rule="section",
            shown=("seat", "count"),
        ),
        DrawFromDeck: Automatic(section_effects.draw_from_deck),
        TemplePick: Decision(
            seat=_seat,
            legal=section_effects.temple_options,
            apply=section_effects.temple_pick,
            prompt="put a card of the Messages pile on the Temple pile",
            rule="section",
            shown=("seat", "count"),
        ),
        EndTurn: Automatic(turn.end_turn),
        # hidden decks
        RevealTop: Chance(decks.reveal_outcomes, decks.reveal, shown=("deck",)),
        # the Messages phase and the end of the round
        StartMessages: Automatic(messages.start_messages),
        DiscardMessage: Decision(
            seat=_seat,
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
            seat=_seat,
            legal=endgame.identity_options,
            apply=endgame.choose_identity,
            prompt="choose your identity among the Characters you have fewest Markers of",
            rule="identity",
            shown=("seat",),
        ),
    }
)

KERNEL: Kernel[Context, State] = Kernel(RULEBOOK)


def current_player(state: State) -> int:
    """The seat to act, ``CHANCE`` (-1) or ``TERMINAL`` (-2)."""
    seat = KERNEL.current_player(state)
    return TERMINAL if seat is None else seat


__all__ = ["KERNEL", "RULEBOOK", "current_player"]
