"""Setup, the Control phase (draft), the Messages phase and the end of the round."""

from __future__ import annotations

from shadowtable.games.shadow_planet.board import (
    cards_in,
    ensure_top,
    forget,
    hand,
    move_card,
    move_openly,
    set_countdown,
    set_repair,
    set_threat,
    take_marker,
    tell,
    tell_all,
    zone_size,
)
from shadowtable.games.shadow_planet.context import Context
from shadowtable.games.shadow_planet.state import (
    DECK0,
    DRAFT_RANDOM,
    DRAFT_REVEAL,
    END_COUNTDOWN,
    END_GAME,
    END_REPAIR,
    END_THREAT,
    GEAR0,
    MESSAGES_DECK,
    MSG,
    MSG_APPLY,
    MSG_DISCARD,
    MSG_REVEAL,
    PLAYED0,
    REMOVED,
    ROUND_START,
    SETUP_DEAL,
    SETUP_PROTAG,
    SETUP_REMOVE,
    TURN_START,
    State,
)

ALIEN = 0


def reset_turn(s: State) -> None:
    """Clear the per-turn scratch fields."""
    s.fill, s.forbid, s.excl, s.move_total, s.move_cards = -1, 0, 0, 0, 0
    s.drive, s.dest, s.passengers, s.ask, s.points, s.bonus = -1, -1, [], [], 0, 0
    s.look, s.placed, s.draws, s.target, s.chosen, s.count = [], [], 0, -1, -1, 0
    s.reveal, s.eff_index, s.ability_index = -1, 0, 0


# -- setup chance -------------------------------------------------------------------------------
def setup_outcomes(s: State) -> list[int]:
    """Chance outcomes of the Objective removal and deal."""
    if s.mode == SETUP_REMOVE:
        return [o for o in range(1, 5) if o not in s.removed_objectives]
    dealt = set(s.removed_objectives) | {o for o in s.objectives if o >= 0}
    return [o for o in range(5) if o not in dealt]


def apply_setup(r: Context, s: State, outcome: int) -> None:
    """Remove one Objective unseen, or deal one to the next seat, or choose the Protagonist."""
    if s.mode == SETUP_REMOVE:
        s.removed_objectives.append(outcome)
        if len(s.removed_objectives) == 5 - r.n:
            s.mode = SETUP_DEAL
    elif s.mode == SETUP_DEAL:
        seat = s.objectives.index(-1)
        s.objectives[seat] = outcome
        if -1 not in s.objectives:
            s.mode = SETUP_PROTAG
    else:
        s.protagonist = outcome
        s.mode = ROUND_START


# -- control phase ------------------------------------------------------------------------------
def round_start(r: Context, s: State) -> None:
    """A new round: the Protagonist shuffles the Characters; the right neighbour draws one."""
    s.round += 1
    s.controller, s.seat_char = [-1] * 6, [-1] * r.n
    s.draft_random, s.draft_picks, s.draft_step = -1, [-1] * r.n, 0
    s.auras, s.cancelled, s.active = [], -1, 0
    s.revealed = [0] * 5
    reset_turn(s)
    s.mode = DRAFT_RANDOM


def draft_drawer(s: State) -> int:
    """The player to the Protagonist's right (seat - 1) draws the random card and picks last."""
    return (s.protagonist - 1) % s.n


def draft_picker(s: State) -> int:
    """Seat choosing now: the Protagonist first, then to the left."""
    return (s.protagonist + s.draft_step) % s.n


def draft_received(s: State, step: int) -> list[int]:
    """Characters offered to the picker at ``step`` (the last picker adds the random card)."""
    taken = {s.draft_picks[(s.protagonist + k) % s.n] for k in range(step)}
    offered = [ch for ch in range(6) if ch != s.draft_random and ch not in taken]
    if step == s.n - 1:
        offered = sorted([*offered, s.draft_random])
    return offered


def apply_pick(r: Context, s: State, ch: int) -> None:
    """The picker plays ``ch`` face down; after the last pick everything is revealed."""
    s.draft_picks[draft_picker(s)] = ch
    s.draft_step += 1
    if s.draft_step == r.n:
        s.mode = DRAFT_REVEAL


def draft_reveal(r: Context, s: State) -> None:
    """Reveal picks; each player takes the Gear and one Marker of the colour (none for the Robot)."""
    for seat, ch in enumerate(s.draft_picks):
        s.controller[ch], s.seat_char[seat] = seat, ch
        for card in hand(s, ch):
            tell(s, seat, card)
        take_marker(s, seat, r.c.char_colour[ch])
    s.active, s.draft_random = 0, -1
    s.mode = TURN_START


# -- messages phase -----------------------------------------------------------------------------
def msg_seat(s: State) -> int:
    """Seat discarding now (from the Protagonist, to the left)."""
    return (s.protagonist + s.msg_next) % s.n


def msg_start(r: Context, s: State) -> None:
    """Players pick up their played cards; then the secret discards begin."""
    for ch in range(6):
        for card in cards_in(s, PLAYED0 + ch):
            move_card(s, card, GEAR0 + ch)  # picked up in everyone's sight: still known
    s.msg_next = 0
    _skip_empty_discarders(r, s)


def _skip_empty_discarders(r: Context, s: State) -> None:
    while s.msg_next < s.n and not hand(s, s.seat_char[msg_seat(s)]):
        s.msg_next += 1
    s.mode = MSG_DISCARD if s.msg_next < s.n else MSG_REVEAL
    if s.mode == MSG_REVEAL:
        _shuffle_messages(r, s)


def apply_discard(r: Context, s: State, card: int) -> None:
    """A face-down discard: nobody else can tell which card of that Gear left."""
    seat = msg_seat(s)
    ch = s.seat_char[seat]
    for other in hand(s, ch):
        forget(s, other)
        tell(s, seat, other)
    move_card(s, card, MSG)
    forget(s, card)
    tell(s, seat, card)
    s.msg_next += 1
    _skip_empty_discarders(r, s)


def _shuffle_messages(r: Context, s: State) -> None:
    """All Messages cards face down and shuffled: the known top order is lost.

    With option ``temple_first`` off, the Temple pile is shuffled in with the rest.
    """
    s.top[MESSAGES_DECK] = []
    if not r.options["temple_first"]:
        for card in s.temple[:]:
            move_card(s, card, MSG)
    s.revealed, s.reveal_cards = [0] * 5, []


def msg_reveal(r: Context, s: State) -> None:
    """Reveal the Temple pile first (option), then random cards, up to the reveal count."""
    while sum(s.revealed) < r.c.reveal_count:
        if s.temple:
            _reveal(r, s, s.temple[0])
            continue
        if zone_size(s, MSG) == 0:
            break
        if not ensure_top(s, MESSAGES_DECK, 1):
            return
        _reveal(r, s, s.top[MESSAGES_DECK][0])
    s.mode = MSG_APPLY


def _reveal(r: Context, s: State, card: int) -> None:
    """Turn ``card`` face up for everyone (``reveal_cards``), then remove it from the game face
    down: the removed pile itself is seen by nobody."""
    s.revealed[r.ctype[card]] += 1
    s.reveal_cards.append(card)
    move_card(s, card, REMOVED)
    forget(s, card)


def msg_apply(r: Context, s: State) -> None:
    """The three consequences in order, then the Countdown's +1 and +1 per depleted deck."""
    move, search, get, repair, attack = s.revealed
    set_threat(r, s, s.threat + (get - attack))
    set_repair(r, s, s.repair + (attack - repair))
    set_countdown(r, s, s.countdown - (move - search))
    depleted = sum(1 for d in range(4) if zone_size(s, DECK0 + d) == 0)
    set_countdown(r, s, s.countdown - 1 - depleted)
    s.last_reveal = s.revealed[:]
    round_end(r, s)


def round_end(r: Context, s: State) -> None:
    """Hands go back next to the board; a latched end condition ends the game now."""
    s.trajectory.append([s.countdown, s.repair, s.threat])
    if not r.options["latched_end"]:
        s.latched = (
            (END_THREAT if s.threat >= r.c.threat_max else 0)
            | (END_REPAIR if s.repair == 0 else 0)
            | (END_COUNTDOWN if s.countdown == 0 else 0)
        )
    s.cancelled = -1
    if s.latched:
        for card, zone in enumerate(s.where):
            if zone >= GEAR0:
                tell_all(s, card)  # every Gear is revealed to award victory
        s.mode = END_GAME
    else:
        s.mode = ROUND_START


def face_up_to_messages(s: State, card: int) -> None:
    """A face-up discard to the Messages pile (Crying, Crawler)."""
    move_openly(s, card, MSG)
    tell_all(s, card)
