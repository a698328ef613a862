"""The rules of Shadowlord!, one concept per module, and the one table that ties every task to
its rule: :data:`RULEBOOK`.  :func:`make_kernel` builds the engine loop on it, with the
game's interjections (free actions, offers, revocations), the skipping of decisions of seats
out of the game and the per-turn step limit."""

from __future__ import annotations

from collections.abc import Callable
from operator import attrgetter

from shadowtable.core.kernel import Automatic, Chance, Decision, Interjections, Kernel, Rulebook
from shadowtable.games.shadowlord.context import Context
from shadowtable.games.shadowlord.rules import (
    battle,
    cards,
    duel,
    events,
    interjections,
    movement,
    negotiation,
    recruit,
    shift,
    turn,
    voting,
)
from shadowtable.games.shadowlord.state import SLState
from shadowtable.games.shadowlord.tasks import (
    AfterDraw,
    AlliesStart,
    BattleEnd,
    BattleStart,
    Blast,
    BlastCheck,
    BlastRoll,
    BlastShipsRoll,
    BribeAnswerRoll,
    BribeRoll,
    Build,
    BuildStart,
    CallOwn,
    ChallengeQ,
    Commit,
    Dismiss,
    DismissAsk,
    DismissTo,
    DrawShadowShips,
    DrawToDuel,
    DrawToHand,
    DuelReady,
    DuelResolve,
    DuelRun,
    EndTurn,
    Enlist,
    Event,
    EventRoll,
    Face,
    Fight,
    FightOrder,
    First,
    GiveStone,
    Join,
    Move,
    NextBattle,
    OfferBuild,
    OfferReply,
    PlaceA,
    PlaceChar,
    PlaceD,
    PlaceShadow,
    PlaceTraded,
    PortraitCards,
    PutToVote,
    Reveal,
    Round,
    SeatDecision,
    SendAlly,
    SetupShip,
    ShadowMove,
    ShiftFrom,
    ShiftTo,
    StealCard,
    StormDiscard,
    StormRoll,
    Surrender,
    Teleport,
    Traitor,
    TruceA,
    TruceQ,
    TurnBody,
    TurnStart,
    Vote,
    VoteEnd,
    Want,
)

decider: Callable[[SeatDecision], int] = attrgetter("seat")
"""The seat that decides: every decision's first field, ``seat``."""


DRAW = Chance(cards.draw_outcomes, cards.draw_to_hand, shown=("seat",), prepare=cards.prepare_draw)

RULEBOOK = Rulebook(
    {
        # -- setup and the order of a turn (rules/turn.py) --
        First: Chance(turn.first_outcomes, turn.roll_first),
        SetupShip: Decision(
            decider,
            turn.setup_ship_legal,
            turn.place_setup_ship,
            "Setup: place one of your starting Space Ships on a ring of this Alliance",
            rule="setup",
            shown=("colour",),
        ),
        TurnStart: Automatic(turn.turn_start),
        Surrender: Decision(
            decider,
            turn.surrender_legal,
            turn.decide_surrender,
            "The Shadowlord has lost the Power Stone: surrender to its owner, or play on",
            rule="surrender",
            never_empty=True,
        ),
        TurnBody: Automatic(turn.turn_body),
        AfterDraw: Automatic(turn.after_draw),
        BuildStart: Automatic(turn.build_start),
        Build: Decision(
            decider,
            turn.build_legal,
            turn.build,
            "Build: place Space Ships on your rings or loose, discard a card for ships, or end building",
            rule="build",
            never_empty=True,
        ),
        PortraitCards: Decision(
            decider,
            turn.portrait_cards_legal,
            turn.portrait_cards,
            "Your Battles are over: place cards of your Attack Hand under your portraits, or end your turn",
            rule="cards",
        ),
        EndTurn: Automatic(turn.end_turn),
        # -- Power Cards and dice (rules/cards.py; the d8 rolls belong to their rules) --
        DrawToHand: DRAW,
        DrawShadowShips: Chance(
            cards.draw_outcomes, cards.sink_shadow_ships, shown=("figure",), prepare=cards.prepare_draw
        ),
        DrawToDuel: Chance(cards.draw_outcomes, duel.sink_duel, shown=("side",), prepare=cards.prepare_draw),
        # -- Special Events (rules/events.py) --
        EventRoll: Chance(cards.two_d8_outcomes, events.roll_event),
        Event: Decision(
            decider,
            events.event_legal,
            events.resolve_event,
            "Special Event: name its target, or skip it",
            rule="event",
            shown=("event",),
            never_empty=True,
        ),
        StormRoll: Chance(cards.d8_outcomes, events.storm_roll, shown=("seat",)),
        StormDiscard: Decision(
            decider,
            events.storm_legal,
            events.storm_discard,
            "Spacestorm: choose the next of your Space Ships to lose",
            rule="storm",
            shown=("count",),
        ),
        StealCard: Chance(events.steal_outcomes, events.steal_card, shown=("victim", "count")),
        # -- votes (rules/voting.py) --
        PutToVote: Automatic(voting.put_to_vote),
        Vote: Decision(
            decider,
            voting.vote_legal,
            voting.cast_vote,
            "Vote, secretly, on the motion before the table: one yes passes it",
            rule="vote",
            never_empty=True,
        ),
        VoteEnd: Automatic(voting.end_vote),
        # -- recruiting (rules/recruit.py) --
        BribeRoll: Chance(cards.d8_outcomes, recruit.bribe_roll, shown=("figure",)),
        BribeAnswerRoll: Chance(cards.d8_outcomes, recruit.bribe_answer, shown=("figure", "briber_roll")),
        Traitor: Automatic(recruit.traitor_after_dismiss),
        Reveal: Chance(recruit.reveal_outcomes, recruit.reveal_disc, shown=("galaxy", "discovered")),
        Enlist: Decision(
            decider,
            recruit.enlist_legal,
            recruit.enlist,
            "A character is found: enlist him, give him to another player, or remove him from the game",
            rule="enlist",
            shown=("figure", "galaxy", "discovered"),
            never_empty=True,
        ),
        PlaceShadow: Decision(
            decider,
            recruit.place_shadow_legal,
            recruit.place_shadow,
            "A shadow is revealed: place it in a galaxy you neither control nor occupy",
            rule="search",
            shown=("figure",),
        ),
        Join: Automatic(recruit.join),
        PlaceChar: Decision(
            decider,
            recruit.place_char_legal,
            recruit.place_char,
            "A character comes to you: place him in a galaxy your Alliance controls",
            rule="trade",
            shown=("figure", "colour"),
        ),
        Dismiss: Decision(
            decider,
            recruit.dismiss_legal,
            recruit.dismiss,
            "Your Alliance would have more than seven characters: Dismiss one to make room",
            rule="dismiss",
            shown=("colour",),
        ),
        DismissAsk: Automatic(recruit.dismiss_ask),
        Want: Decision(
            decider,
            recruit.want_legal,
            recruit.want,
            "A character is Dismissed: say whether you want him",
            rule="allies",
            shown=("figure",),
            never_empty=True,
        ),
        DismissTo: Decision(
            decider,
            recruit.dismiss_to_legal,
            recruit.dismiss_to,
            "Several players want the character you Dismissed: choose who gets him",
            rule="dismiss",
            shown=("figure", "wanted"),
        ),
        # -- shifting Space Ships (rules/shift.py) --
        ShiftFrom: Decision(
            decider,
            shift.shift_from_legal,
            shift.shift_from,
            "Shift Space Ships between your rings here: choose the ring that gives one, or stop shifting",
            rule="shift",
            shown=("galaxy", "colour", "budget"),
        ),
        ShiftTo: Decision(
            decider,
            shift.shift_to_legal,
            shift.shift_to,
            "Shift a Space Ship: choose the ring that takes it",
            rule="shift",
            shown=("galaxy", "colour", "budget", "source"),
        ),
        # -- movement (rules/movement.py) --
        Move: Decision(
            decider,
            movement.move_legal,
            movement.move,
            "Movement: move your rings, drop or pick up Space Ships, search for allies, pass the Power Stone, "
            "or end movement",
            rule="move",
            never_empty=True,
        ),
        ShadowMove: Decision(
            decider,
            movement.shadow_move_legal,
            movement.move_shadow,
            "Move a shadow one galaxy (the other players vote on it), or move none",
            rule="shadow_move",
            never_empty=True,
        ),
        # -- Battles (rules/battle.py) --
        Fight: Automatic(battle.fight),
        TruceQ: Decision(
            decider,
            battle.truce_q_legal,
            battle.truce_question,
            "A Battle is due where your characters meet enemies: fight, or propose a Truce",
            rule="truce",
            shown=("battle",),
            never_empty=True,
        ),
        TruceA: Decision(
            decider,
            battle.yes_no,
            battle.truce_answer,
            "A Truce is proposed to you: accept it, or refuse and fight",
            rule="truce",
            shown=("battle",),
            never_empty=True,
        ),
        ChallengeQ: Decision(
            decider,
            battle.yes_no,
            battle.challenge_question,
            "Enemy Space Ships lie loose where your characters stand: challenge them, or leave them",
            rule="truce",
            shown=("battle",),
            never_empty=True,
        ),
        AlliesStart: Automatic(battle.allies_start),
        CallOwn: Decision(
            decider,
            battle.call_own_legal,
            battle.call_own,
            "You are attacked: call in one of your characters to defend, or call nobody",
            rule="allies",
            shown=("battle", "colour"),
        ),
        SendAlly: Decision(
            decider,
            battle.send_ally_legal,
            battle.send_ally,
            "A Battle is about to be fought: send one of your characters to a side, or send nobody",
            rule="allies",
            shown=("battle", "colour"),
        ),
        NextBattle: Automatic(battle.next_battle),
        FightOrder: Decision(
            decider,
            battle.order_legal,
            battle.fight_order,
            "Several Battles are due: choose where to fight next",
            rule="order",
        ),
        BattleStart: Automatic(battle.battle_start),
        Round: Automatic(battle.battle_round),
        PlaceA: Decision(
            decider,
            battle.place_a_legal,
            battle.place_attacker,
            "Battle Board: place an attacking ring",
            rule="battle_board",
            shown=("battle", "first_attacker"),
        ),
        Face: Decision(
            decider,
            battle.face_legal,
            battle.face,
            "Battle Board: two rings attack your lone defender; choose the one he Duels",
            rule="battle_board",
            shown=("battle", "first_attacker", "second_attacker"),
        ),
        PlaceD: Decision(
            decider,
            battle.place_d_legal,
            battle.place_defender,
            "Battle Board: place a defending ring opposite the attacker",
            rule="battle_board",
            shown=("battle", "first_attacker", "second_attacker", "first_defender"),
        ),
        # -- Duels (rules/duel.py) --
        DuelRun: Automatic(duel.duel_run),
        BlastCheck: Automatic(duel.blast_check),
        BlastRoll: Chance(cards.d8_outcomes, duel.blast_roll, shown=("side", "battle")),
        Blast: Decision(
            decider,
            duel.blast_legal,
            duel.blast,
            "Power Blast: draw an extra card, or destroy a d8 of the enemy duellist's Space Ships",
            rule="blast",
            shown=("side",),
            never_empty=True,
        ),
        BlastShipsRoll: Chance(cards.d8_outcomes, duel.blast_ships_roll, shown=("side",)),
        Commit: Decision(
            decider,
            duel.commit_legal,
            duel.commit,
            "Duel: commit a Power Card face down, or stop committing",
            rule="battle_board",
            shown=("side",),
        ),
        DuelReady: Automatic(duel.duel_ready),
        DuelResolve: Automatic(duel.duel_resolve),
        BattleEnd: Automatic(duel.battle_end),
        GiveStone: Decision(
            decider,
            duel.give_stone_legal,
            duel.give_stone,
            "The Lost Fortress has fallen: give the Power Stone to one of your rings there",
            rule="stone",
            shown=("colour", "galaxy"),
        ),
        Teleport: Decision(
            decider,
            duel.teleport_legal,
            duel.teleport,
            "The Lost Fortress has fallen: Teleport your characters there to your Home Planet, or stay",
            rule="teleport",
        ),
        # -- Trading and Negotiation (rules/negotiation.py) --
        OfferBuild: Decision(
            decider,
            negotiation.build_legal,
            negotiation.build_offer,
            "Your offer: add an item, send it, or withdraw it",
            rule="trade",
            never_empty=True,
        ),
        OfferReply: Decision(
            decider,
            negotiation.reply_legal,
            negotiation.reply,
            "An offer is made to you: accept it, or refuse it",
            rule="trade",
        ),
        PlaceTraded: Decision(
            decider,
            negotiation.place_traded_legal,
            negotiation.place_traded,
            "A character is traded to you: leave him where he is, or move him to a galaxy you control",
            rule="trade",
            shown=("figure",),
        ),
    }
)
"""Every task type and the rule that handles it."""

INTERJECTIONS: Interjections[Context, SLState] = Interjections(
    interjections.legal_interjections, interjections.apply_interjection
)


def is_over(s: SLState) -> bool:
    return bool(s.end)


def seat_out(s: SLState, seat: int) -> bool:
    """A seat whose every Alliance has left the game decides nothing more."""
    return bool(s.seat_out[seat])


def make_kernel(rulebook: Rulebook = RULEBOOK) -> Kernel[Context, SLState]:
    """The engine loop of Shadowlord! on ``rulebook`` (tests extend :data:`RULEBOOK`)."""
    return Kernel(rulebook, is_over, interjections=INTERJECTIONS, seat_out=seat_out, after_apply=turn.count_step)


KERNEL = make_kernel()
