"""The Messages phase and the end of the round (RB "3. Messages from the Shadows Phase")."""

from __future__ import annotations

from shadowtable.core.events import note
from shadowtable.games.shadow_planet import actions as A
from shadowtable.games.shadow_planet.board import (
    cards_of,
    forget,
    hand,
    move_card,
    move_openly,
    tell,
    tell_all,
    zone_size,
)
from shadowtable.games.shadow_planet.context import Context
from shadowtable.games.shadow_planet.rules.causes import (
    END_BITS,
    TYPE_NAMES,
    compare,
    end_value,
    move_indicator,
    secret,
)
from shadowtable.games.shadow_planet.rules.decks import top_known
from shadowtable.games.shadow_planet.rules.effects import TYPES
from shadowtable.games.shadow_planet.state import (
    DECK0,
    END_COUNTDOWN,
    END_REPAIR,
    END_THREAT,
    GEAR0,
    MESSAGES_DECK,
    MSG,
    PLAYED0,
    REMOVED,
    State,
)
from shadowtable.games.shadow_planet.tasks import (
    DiscardMessage,
    EndRound,
    MatchIdentities,
    RevealMessages,
    ShuffleMessages,
    StartMessages,
    StartRound,
)

MOVE_T, SEARCH_T, GET_T, REPAIR_T, ATTACK_T = range(5)


def start_messages(ctx: Context, s: State, task: StartMessages) -> None:
    """Players pick up their played cards; then the secret discards, from the Protagonist to the
    left (a player with an empty Gear has nothing to discard and is skipped)."""
    where, zones = s.where, s.zones
    for ch in range(6):
        played = zones[PLAYED0 + ch]
        if played:  # picked up in everyone's sight: still known
            for card in cards_of(played):
                where[card] = GEAR0 + ch
            zones[GEAR0 + ch] |= played
            zones[PLAYED0 + ch] = 0
    s.stack.extend(DiscardMessage((s.protagonist + k) % s.n) for k in reversed(range(s.n)))


def has_gear(ctx: Context, s: State, task: DiscardMessage) -> bool:
    """Whether the seat has a card to discard (a player with an empty Gear is skipped)."""
    ch = s.seat_char[task.seat]
    return ch >= 0 and s.zones[GEAR0 + ch] != 0


def discard_options(ctx: Context, s: State, task: DiscardMessage) -> list[int]:
    return [A.DISCARD + card for card in hand(s, s.seat_char[task.seat])]


def discard(ctx: Context, s: State, task: DiscardMessage, action: int) -> None:
    """A face-down discard: nobody else can tell which card of that Gear left."""
    card, seat = action - A.DISCARD, task.seat
    for other in hand(s, s.seat_char[seat]):
        forget(s, other)
        tell(s, seat, other)
    move_card(s, card, MSG)
    forget(s, card)
    tell(s, seat, card)
    if s.journal is not None:
        ch, size = s.seat_char[seat], zone_size(s, MSG)
        name = ctx.content.char_names[ch]
        secret(
            s,
            "discard",
            (seat,),
            f"seat {seat} discards {ctx.content.short(card)} from {name}'s Gear face down to the Messages pile",
            f"seat {seat} discards a card from {name}'s Gear face down to the Messages pile",
            "messages",
            {"card": card, "name": ctx.content.card_name[card], "type": TYPES[ctx.card_type[card]]},
            seat=seat,
            character=name,
            to="messages",
            face_up=False,
            pile=size,
        )


def shuffle_messages(ctx: Context, s: State, task: ShuffleMessages) -> None:
    """All Messages cards face down and shuffled: the known top order is lost.

    With option ``temple_first`` off, the Temple pile is shuffled in with the rest.
    """
    s.top[MESSAGES_DECK] = []
    if not ctx.options["temple_first"]:
        for card in s.temple[:]:
            move_card(s, card, MSG)
    s.revealed, s.reveal_cards = [0] * 5, []
    if s.journal is not None:
        size, temple = zone_size(s, MSG), len(s.temple)
        first = f"; the Temple pile ({temple}) is revealed first" if temple else ""
        note(
            s,
            "shuffle",
            f"the Messages pile ({size} cards) is shuffled face down{first}",
            rule="messages",
            pile=size,
            temple=temple,
        )


def reveal_messages(ctx: Context, s: State, task: RevealMessages) -> None:
    """Reveal the Temple pile first (option), then random cards, up to the reveal count."""
    while sum(s.revealed) < ctx.content.reveal_count:
        if s.temple:
            _reveal(ctx, s, s.temple[0])
            continue
        if zone_size(s, MSG) == 0:
            break
        if not top_known(s, MESSAGES_DECK, 1, task):
            return
        _reveal(ctx, s, s.top[MESSAGES_DECK][0])


def _reveal(ctx: Context, s: State, card: int) -> None:
    """Turn ``card`` face up for everyone (``reveal_cards``), then remove it from the game face
    down: the removed pile itself is seen by nobody."""
    from_temple = bool(s.temple) and s.temple[0] == card
    s.revealed[ctx.card_type[card]] += 1
    s.reveal_cards.append(card)
    move_card(s, card, REMOVED)
    forget(s, card)
    if s.journal is not None:
        number, t = len(s.reveal_cards), ctx.card_type[card]
        pile = "the Temple pile" if from_temple else "the Messages pile"
        so_far = f"{TYPE_NAMES[t]} {s.revealed[t]} so far"
        note(
            s,
            "reveal",
            f"Message {number} revealed from {pile}: {ctx.content.short(card)} ({so_far})",
            rule="messages",
            card=card,
            name=ctx.content.card_name[card],
            type=TYPES[t],
            number=number,
            source="temple" if from_temple else "messages",
            counts=dict(zip(TYPES, s.revealed, strict=True)),
        )


def end_round(ctx: Context, s: State, task: EndRound) -> None:
    """The three consequences in order, the Countdown's +1 and +1 per depleted deck; then hands go
    back next to the board and a latched end condition ends the game now."""
    move, search, get, repair, attack = s.revealed
    compare(ctx, s, "threat", get, GET_T, attack, ATTACK_T)
    compare(ctx, s, "repair", attack, ATTACK_T, repair, REPAIR_T)
    compare(ctx, s, "countdown", search, SEARCH_T, move, MOVE_T)
    empty = [d for d in range(4) if zone_size(s, DECK0 + d) == 0]
    depleted = len(empty)
    why, names = "", []
    if s.journal is not None:
        why = "end of the round (advances 1)"
        names = [ctx.content.location_names[d] for d in empty]
        if empty:
            why += f" and {depleted} depleted Location deck{'s' if depleted > 1 else ''} ({', '.join(names)})"
    move_indicator(
        ctx,
        s,
        "countdown",
        s.countdown - 1 - depleted,
        why,
        "messages",
        cause="end_of_round",
        round_end=1,
        depleted=depleted,
        decks=names,
    )
    s.last_reveal = s.revealed[:]
    s.trajectory.append([s.countdown, s.repair, s.threat])
    if not ctx.options["latched_end"]:
        s.latched = (
            (END_THREAT if s.threat >= ctx.content.threat_max else 0)
            | (END_REPAIR if s.repair == 0 else 0)
            | (END_COUNTDOWN if s.countdown == 0 else 0)
        )
    s.cancelled = -1
    if s.latched:
        for card, zone in enumerate(s.where):
            if zone >= GEAR0:
                tell_all(s, card)  # every Gear is revealed to award victory
        if s.journal is not None:
            note_end(ctx, s)
        s.stack.append(MatchIdentities(0))
    elif s.journal is not None:
        note(
            s,
            "round",
            f"round {s.round} ends: Countdown {s.countdown}, Repair {s.repair}, Threat {s.threat}",
            rule="messages",
            round=s.round,
            countdown=s.countdown,
            repair=s.repair,
            threat=s.threat,
            revealed=dict(zip(TYPES, s.last_reveal, strict=True)),
        )
    if not s.latched:
        s.stack.append(StartRound())


def note_end(ctx: Context, s: State) -> None:
    """The game ends at the end of this round: which end conditions hold, which one decides."""
    held = [name for bit, name in END_BITS if s.latched & bit]
    reason = held[0]
    parts = [f"{name.capitalize()} reached {end_value(ctx, name)}" for name in held]
    also = f" (also {', '.join(parts[1:])}; priority Threat, Repair, Countdown)" if len(held) > 1 else ""
    now = f"Countdown {s.countdown}, Repair {s.repair}, Threat {s.threat}"
    note(
        s,
        "end",
        f"the game ends after round {s.round}: {parts[0]}{also}; {now}",
        rule="messages",
        reason=reason,
        conditions=held,
        round=s.round,
        threat=s.threat,
        repair=s.repair,
        countdown=s.countdown,
    )


def face_up_to_messages(ctx: Context, s: State, card: int, why: str, rule: str) -> None:
    """A face-up discard to the Messages pile (Crying, Crawler)."""
    move_openly(s, card, MSG)
    tell_all(s, card)
    if s.journal is not None:
        note(
            s,
            "discard",
            f"{ctx.content.short(card)} is discarded face up to the Messages pile ({why})",
            rule=rule,
            card=card,
            name=ctx.content.card_name[card],
            type=TYPES[ctx.card_type[card]],
            to="messages",
            face_up=True,
            cause=why,
        )
