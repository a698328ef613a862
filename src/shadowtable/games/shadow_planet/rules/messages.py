"""The Messages phase and the end of the round (RB "3. Messages from the Shadows Phase")."""

from __future__ import annotations

from shadowtable.games.shadow_planet import actions as A
from shadowtable.games.shadow_planet.board import (
    forget,
    hand,
    move_card,
    move_openly,
    set_countdown,
    set_repair,
    set_threat,
    tell,
    tell_all,
    zone_size,
)
from shadowtable.games.shadow_planet.context import Context
from shadowtable.games.shadow_planet.rules.decks import top_known
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


def start_messages(ctx: Context, s: State, task: StartMessages) -> None:
    """Players pick up their played cards; then the secret discards, from the Protagonist to the
    left (a player with an empty Gear has nothing to discard and is skipped)."""
    where = s.where
    for card, zone in enumerate(where):
        if zone >= PLAYED0:
            where[card] = zone - PLAYED0 + GEAR0  # picked up in everyone's sight: still known
    s.stack.extend(DiscardMessage((s.protagonist + k) % s.n) for k in reversed(range(s.n)))


def has_gear(ctx: Context, s: State, task: DiscardMessage) -> bool:
    """Whether the seat has a card to discard (a player with an empty Gear is skipped)."""
    ch = s.seat_char[task.seat]
    return ch >= 0 and GEAR0 + ch in s.where


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


def shuffle_messages(ctx: Context, s: State, task: ShuffleMessages) -> None:
    """All Messages cards face down and shuffled: the known top order is lost.

    With option ``temple_first`` off, the Temple pile is shuffled in with the rest.
    """
    s.top[MESSAGES_DECK] = []
    if not ctx.options["temple_first"]:
        for card in s.temple[:]:
            move_card(s, card, MSG)
    s.revealed, s.reveal_cards = [0] * 5, []


def reveal_messages(ctx: Context, s: State, task: RevealMessages) -> None:
    """Reveal the Temple pile first (option), then random cards, up to the reveal count."""
    while sum(s.revealed) < ctx.c.reveal_count:
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
    s.revealed[ctx.ctype[card]] += 1
    s.reveal_cards.append(card)
    move_card(s, card, REMOVED)
    forget(s, card)


def end_round(ctx: Context, s: State, task: EndRound) -> None:
    """The three consequences in order, the Countdown's +1 and +1 per depleted deck; then hands go
    back next to the board and a latched end condition ends the game now."""
    move, search, get, repair, attack = s.revealed
    set_threat(ctx, s, s.threat + (get - attack))
    set_repair(ctx, s, s.repair + (attack - repair))
    set_countdown(ctx, s, s.countdown - (move - search))
    depleted = sum(1 for d in range(4) if zone_size(s, DECK0 + d) == 0)
    set_countdown(ctx, s, s.countdown - 1 - depleted)
    s.last_reveal = s.revealed[:]
    s.trajectory.append([s.countdown, s.repair, s.threat])
    if not ctx.options["latched_end"]:
        s.latched = (
            (END_THREAT if s.threat >= ctx.c.threat_max else 0)
            | (END_REPAIR if s.repair == 0 else 0)
            | (END_COUNTDOWN if s.countdown == 0 else 0)
        )
    s.cancelled = -1
    if s.latched:
        for card, zone in enumerate(s.where):
            if zone >= GEAR0:
                tell_all(s, card)  # every Gear is revealed to award victory
        s.stack.append(MatchIdentities(0))
    else:
        s.stack.append(StartRound())


def face_up_to_messages(s: State, card: int) -> None:
    """A face-up discard to the Messages pile (Crying, Crawler)."""
    move_openly(s, card, MSG)
    tell_all(s, card)
