"""A rule-of-thumb bot for The Shadow Planet that plays its secret Objective.

It decides only from the seat's observation (typed: :class:`~.view.PlanetObservation`), the
legal actions and the printed material (card types and values, Links, Sections) read from
``game.words.reference()`` (:mod:`.printed`).  The strategy follows the
rulebook's "Game Strategy" sections:

* every role aims its Markers at one *target* Character (the one it has fewest Markers of,
  ties broken by how good that Character's Gear looks for the role) and drafts accordingly;
* Astronauts gather Repair and Attack cards, steer Searches so they draw them, head for the
  Caves (by Vehicle) and discard Search and non-counting Repair cards to the Messages pile;
* the Alien hoards Get cards, feeds Get cards to the Messages pile while the Threat is safe
  and gets rid of Attack cards;
* the Guardian runs the clock with Move cards, sabotages Repair with Attack cards and turns
  to Get cards to push the Threat to its end when the Alien seems to be winning.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cache
from typing import Any

from shadowtable.core.errors import BotError
from shadowtable.core.game import Game, Observation
from shadowtable.games.shadow_planet import actions as A
from shadowtable.games.shadow_planet.printed import Printed, printed
from shadowtable.games.shadow_planet.view import PlanetObservation, PlanetPublic

MOVE, SEARCH, GET, REPAIR, ATTACK = "move", "search", "get", "repair", "attack"
"""Card types by name (``Printed.types``); their ids come from the printed tables."""
ALIEN, ASTRONAUT, GUARDIAN = "alien", "astronaut", "guardian"
THREAT_SAFE = 5
"""The Alien feeds Get cards to the Messages pile only while the Threat is at most this."""
ALIEN_REPAIR_PUSH = 4
"""From this Threat on the Alien prefers Repair cards in the Messages pile (a Repair end)."""
THREAT_ALARM = 5
"""From this Threat on the Guardian believes the Alien is winning and pushes the Threat to 8."""

# How much a role wants a card of each type in the Gear it expects to be matched with.
KEEP = {
    ASTRONAUT: {MOVE: 0.0, SEARCH: 0.2, GET: 0.1, REPAIR: 3.0, ATTACK: 3.0},
    ALIEN: {MOVE: 0.0, SEARCH: 0.1, GET: 3.0, REPAIR: 0.2, ATTACK: -2.0},
    GUARDIAN: {MOVE: 0.5, SEARCH: 0.0, GET: 0.5, REPAIR: 0.0, ATTACK: 0.5},
}
# How much a role wants a card of each type to stay in a Gear it does not expect to be matched
# with (an Astronaut's Repair or Attack may still help a fellow Astronaut; the Alien wants
# Attack cards gone; the Guardian wants Repair cards gone).
KEEP_OTHER = {
    ASTRONAUT: {MOVE: 0.0, SEARCH: 0.1, GET: 0.0, REPAIR: 1.5, ATTACK: 1.5},
    ALIEN: {MOVE: 0.0, SEARCH: 0.0, GET: 0.0, REPAIR: 0.0, ATTACK: -1.0},
    GUARDIAN: {MOVE: 0.0, SEARCH: 0.0, GET: 0.0, REPAIR: -1.0, ATTACK: 0.0},
}
# How much a role likes a card of each type being revealed from the Messages pile.
MESSAGE_CALM = {
    ASTRONAUT: {MOVE: -1.0, SEARCH: 1.0, GET: -1.0, REPAIR: 2.0, ATTACK: -0.5},
    ALIEN: {MOVE: 0.0, SEARCH: 0.3, GET: 1.0, REPAIR: 0.5, ATTACK: -1.5},
    GUARDIAN: {MOVE: 1.0, SEARCH: -1.0, GET: 0.0, REPAIR: -1.5, ATTACK: 1.5},
}
# How much a role likes drawing a card of each type (the top of a searched deck).
DRAW = {
    ASTRONAUT: {MOVE: 0.0, SEARCH: 0.5, GET: 1.0, REPAIR: 3.0, ATTACK: 3.0},
    ALIEN: {MOVE: 0.3, SEARCH: 0.5, GET: 3.0, REPAIR: 1.0, ATTACK: -1.0},
    GUARDIAN: {MOVE: 2.0, SEARCH: -1.0, GET: 1.0, REPAIR: -1.0, ATTACK: 3.0},
}
ALARMED_DRAW = {MOVE: 1.0, SEARCH: -1.0, GET: 3.0, REPAIR: -1.0, ATTACK: 1.0}
"""How much the alarmed Guardian likes drawing a card of each type."""


class ShadowPlanetHeuristicBot:
    """Plays the seat's secret Objective by rules of thumb; deterministic given ``rng``."""

    name = "heuristic"

    def choose(
        self,
        game: Game[Any],
        seat: int,
        observation: Observation | PlanetObservation,
        legal_actions: Sequence[int],
        rng: random.Random,
    ) -> int:
        try:
            material = printed(game)
        except (KeyError, TypeError) as exc:
            raise BotError(f"the Shadow Planet heuristic cannot play {game.spec.id!r}") from exc
        view = View(material, seat, observation)
        chooser = DECIDERS.get(view.observation.pending.kind)
        action = chooser(view, list(legal_actions)) if chooser is not None else None
        if action is None or action not in legal_actions:
            return legal_actions[rng.randrange(len(legal_actions))]
        return action


class View:
    """Facts a seat can read from its observation, with the printed material at hand."""

    def __init__(self, rules: Printed, seat: int, observation: Observation | PlanetObservation) -> None:
        self.r = rules
        self.seat = seat
        self.observation = planet_view(observation)
        self.public = self.observation.public
        self.data: dict[str, Any] = self.observation.pending.data
        """The public arguments of the pending decision (``pending.data``)."""
        objective = self.public.objectives[seat]
        self.role = rules.objective_role[objective] if isinstance(objective, int) and objective >= 0 else ASTRONAUT
        self.my_char: int = self.public.seat_character[seat]
        self.hand: list[int] = gear_cards(self.public, self.my_char) if self.my_char >= 0 else []
        self.locations = len(rules.location_names)
        self.colours = len(self.public.pool)
        self.crawler = rules.vehicle_index("crawler")
        self.location_types = location_type_counts(rules.card_home, rules.card_type, len(rules.types), self.locations)

    def ctype(self, card: int) -> int:
        """The card's type id (an index of ``Printed.types``)."""
        return int(self.r.card_type[card])

    def kind(self, card: int) -> str:
        """The card's type by name (:data:`MOVE` .. :data:`ATTACK`)."""
        return self.r.types[self.r.card_type[card]]

    def markers(self, ch: int) -> int:
        """Markers of Character ``ch``'s colour on this seat's sheet (the Robot: none ever)."""
        colour = self.r.char_colour[ch]
        return self.public.sheets[self.seat * self.colours + colour] if colour >= 0 else 0

    def threat(self) -> int:
        """The Threat Indicator's position."""
        return self.public.threat

    def guardian_alarmed(self) -> bool:
        """The Guardian switches to Get cards when the Threat is high."""
        return self.role == GUARDIAN and self.threat() >= THREAT_ALARM


def planet_view(observation: Observation | PlanetObservation) -> PlanetObservation:
    """The typed observation (read from its JSON unless it is typed already)."""
    return observation if isinstance(observation, PlanetObservation) else PlanetObservation.from_json(observation)


@cache
def location_type_counts(
    homes: tuple[int, ...], types: tuple[int, ...], kinds: int, locations: int
) -> tuple[tuple[int, ...], ...]:
    """Cards of each type a Location deck starts with (static content)."""
    counts = [[0] * kinds for _ in range(locations)]
    for home, card_type in zip(homes, types, strict=True):
        if 0 <= home < locations:
            counts[home][card_type] += 1
    return tuple(tuple(row) for row in counts)


def gear_cards(public: PlanetPublic, ch: int) -> list[int]:
    """Cards of Character ``ch``'s Gear (hand) the seat can see."""
    return list(public.zones.gear[ch].known)


# -- card values ------------------------------------------------------------------------------
def keep_value(view: View, card: int) -> float:
    """How much the seat wants ``card`` to stay in a Gear it may be matched with."""
    t, kind = view.ctype(card), view.kind(card)
    value = KEEP[view.role][kind]
    for who, counted_type, count in view.r.endgame[card]:
        if who == view.role and counted_type == t:
            value *= count
    if view.role == ALIEN and kind == GET and view.threat() >= 7:
        value += 0.5
    return value


def message_value(view: View, card: int) -> float:
    """How much the seat likes ``card`` being revealed in the Messages phase."""
    kind = view.kind(card)
    value = MESSAGE_CALM[view.role][kind]
    if kind == GET:
        if view.role == ALIEN and view.threat() > THREAT_SAFE:
            value = -2.0
        elif view.guardian_alarmed():
            value = 2.0
    if view.role == ALIEN and kind == REPAIR and view.threat() >= ALIEN_REPAIR_PUSH:
        value = 1.2  # with the Threat up, ending the game by Repair beats the Astronauts' Attack
    if view.role == ASTRONAUT and kind == MOVE and int(view.public.countdown) > 9:
        value = -0.5
    return value


def draw_value(view: View, card: int) -> float:
    """How much the seat wants to draw ``card`` into its hand."""
    kind = view.kind(card)
    if view.guardian_alarmed() and kind == GET:
        return 3.0
    return DRAW[view.role][kind] * (1.0 if keep_value(view, card) != 0 or kind not in (REPAIR, ATTACK) else 0.3)


def gear_score(view: View, ch: int) -> float:
    """How good Character ``ch``'s visible Gear is for the seat's role."""
    cards = gear_cards(view.public, ch) + list(view.public.zones.played[ch])
    if view.role == GUARDIAN:
        # the Guardian takes the identity Astronauts would most like, to deny it to them
        return sum(1.0 for c in cards if view.kind(c) == REPAIR)
    return sum(keep_value(view, c) for c in cards)


def target_character(view: View) -> int:
    """The non-Robot Character the seat expects (and wants) to be matched with."""
    chars = [ch for ch in range(len(view.r.char_names)) if ch != view.r.robot]
    return min(chars, key=lambda ch: (view.markers(ch), -gear_score(view, ch), ch))


# -- draft and identity -----------------------------------------------------------------------
def draft_score(view: View, ch: int, target: int) -> float:
    """Prefer the target while it stays the fewest-Marker colour, else the Robot, else a rival."""
    if ch == view.r.robot:
        return 2.5 if view.role == GUARDIAN else 1.2  # the Robot's Gear never counts
    others = range(len(view.r.char_names))
    fewest_other = min(view.markers(c) for c in others if c not in (target, view.r.robot))
    if ch == target:
        after = view.markers(target) + 1
        return 3.0 if after < fewest_other else 2.0 if after == fewest_other else -1.0
    if view.markers(ch) <= view.markers(target):
        return 1.5  # a rival for the identity: a Marker of it keeps the target ahead
    return 1.0 + 0.1 * view.markers(ch)


def decide_draft(view: View, legal: list[int]) -> int:
    target = target_character(view)
    return max(legal, key=lambda a: (draft_score(view, a - A.PICK, target), -a))


def decide_identity(view: View, legal: list[int]) -> int:
    return max(legal, key=lambda a: (gear_score(view, a - A.IDENTITY), -a))


# -- Markers, abilities ----------------------------------------------------------------------
def seat_markers(view: View, seat: int) -> list[int]:
    return [int(x) for x in view.public.sheets[seat * view.colours : (seat + 1) * view.colours]]


def decide_give_seat(view: View, legal: list[int]) -> int:
    """Give Markers to a seat that competes for the seat's own target identity."""
    my_colour = view.r.char_colour[target_character(view)]

    def rivalry(action: int) -> tuple[int, int]:
        sheet = seat_markers(view, action - A.SEAT)
        return (int(sheet[my_colour] == min(sheet)), -sum(sheet))

    return max(legal, key=lambda a: (rivalry(a), -a))


def decide_give_colour(view: View, legal: list[int]) -> int:
    """Give the receiver a Marker of its current fewest colour, the seat's own target first."""
    receiver = int(view.data["target"])
    my_colour = view.r.char_colour[target_character(view)]
    sheet = seat_markers(view, receiver) if 0 <= receiver < len(view.public.seat_character) else [0] * view.colours

    def score(action: int) -> tuple[int, int]:
        colour = action - A.COLOUR
        return (int(colour == my_colour and sheet[colour] == min(sheet)), -sheet[colour])

    return max(legal, key=lambda a: (score(a), -a))


def decide_cancel(view: View, legal: list[int]) -> int:
    """Cancel Rachel (who gives Markers) or Reed (free moves, Search bonus) of another seat."""
    names = view.r.char_names
    for wanted in ("Rachel", "Reed"):
        for a in legal:
            ch = a - A.CANCEL
            if names[ch].startswith(wanted) and view.public.controller[ch] != view.seat:
                return a
    return legal[0]


def decide_reed(view: View, legal: list[int]) -> int:
    """Reed moves into the Graveyard for free when the hand can pay for it."""
    graveyard = view.r.section_index("graveyard")
    return A.USE if best_reveal(view, graveyard, view.hand) is not None else A.SKIP


# -- Sections ---------------------------------------------------------------------------------
def effect_value(view: View, effect: dict[str, Any]) -> float:
    kind = effect["kind"]
    if kind == "repair_advance":
        return {ASTRONAUT: 2.0, ALIEN: 0.5, GUARDIAN: -2.0}[view.role]
    if kind == "vehicle_into_play":
        in_play = view.public.vehicle_loc[view.r.vehicle_index(effect["vehicle"])] >= 0
        return 0.0 if in_play or view.role == GUARDIAN else 2.0
    return 1.0


def reveal_value(view: View, section: int, index: int) -> float:
    return sum(effect_value(view, e) for e in view.r.section_effects[section][index])


def type_counts(view: View, cards: Sequence[int]) -> list[int]:
    counts = [0] * len(view.r.types)
    for c in cards:
        counts[view.ctype(c)] += 1
    return counts


def best_reveal(view: View, section: int, cards: Sequence[int]) -> int | None:
    """The most useful reveal of ``section`` that ``cards`` can pay, if it helps at all."""
    counts = type_counts(view, cards)
    best: tuple[float, int] | None = None
    for i, cost in enumerate(view.r.section_costs[section]):
        if all(counts[t] >= need for t, need in enumerate(cost)):
            value = reveal_value(view, section, i)
            if value > 0 and (best is None or value > best[0]):
                best = (value, i)
    return best[1] if best is not None else None


def reserved_cards(view: View) -> set[int]:
    """Cards kept in hand to pay for the Section the active Character occupies."""
    section = int(view.public.character_section[view.public.active])
    if section < 0:
        return set()
    index = best_reveal(view, section, view.hand)
    if index is None:
        return set()
    need = list(view.r.section_costs[section][index])
    keep: set[int] = set()
    for card in sorted(view.hand, key=lambda c: keep_value(view, c)):
        t = view.ctype(card)
        if need[t] > 0:
            need[t] -= 1
            keep.add(card)
    return keep


def decide_section(view: View, legal: list[int]) -> int:
    section = int(view.public.character_section[view.public.active])
    options = [(reveal_value(view, section, a - A.RESOLVE), -a, a) for a in legal if a != A.LEAVE]
    best = max(options, default=None)
    return best[2] if best is not None and best[0] > 0 else A.LEAVE


# -- movement ---------------------------------------------------------------------------------
def location_value(view: View, loc: int) -> float:
    """Expected worth of a draw at ``loc`` for the role (deck composition, size left)."""
    size = int(view.public.zones.decks[loc].size)
    if size == 0:
        return -1.0
    composition = view.location_types[loc]
    total = sum(composition) or 1
    draw = ALARMED_DRAW if view.guardian_alarmed() else DRAW[view.role]
    return sum(draw[kind] * composition[t] for t, kind in enumerate(view.r.types)) / total


def move_cards_in_hand(view: View, reserved: set[int]) -> list[int]:
    """Playable Move cards (not reserved, not the Crawler), highest value first."""
    cards = [c for c in view.hand if view.kind(c) == MOVE and c not in reserved and view.r.vehicle_play[c] is None]
    return sorted(cards, key=lambda c: (-view.r.card_value[c], c))


def drive_reach(view: View, vehicle: int, cards: Sequence[int]) -> int:
    """Move points a driver gets from ``cards`` with the Vehicle's bonus."""
    total = sum(view.r.card_value[c] for c in cards)
    kind, amount = view.r.vehicle_bonus[vehicle]
    return total * amount if kind == "multiply_total" else total + amount * len(cards)


def best_destination(view: View, here: int, points: int) -> int:
    """The most valuable Location one walk of ``points`` reaches (``here`` if none is better)."""
    best = here
    for dest in range(view.locations):
        walkable = view.r.walk_ok[here][dest] and view.r.link_cost[here][dest] <= points
        if walkable and dest != here and location_value(view, dest) > location_value(view, best) + 0.2:
            best = dest
    return best


def decide_move_step(view: View, legal: list[int]) -> int:
    public = view.public
    active = public.active
    here = public.character_location[active]
    reserved = reserved_cards(view)
    playable = [a - A.PLAY for a in legal if A.PLAY <= a < A.CHOOSE]
    crawler_card = [c for c in playable if view.r.vehicle_play[c] is not None]
    if crawler_card and view.role != GUARDIAN and public.vehicle_loc[view.crawler] < 0:
        return A.PLAY + crawler_card[0]
    moves = [c for c in move_cards_in_hand(view, reserved) if c in playable]
    drive = int(view.data["drive"])
    if drive >= 0:
        need = view.r.drive_dist[here][int(view.data["dest"])]
        have = drive_reach_played(view, drive)
        return A.PLAY + moves[0] if have < need and moves else A.DONE
    drives = [a for a in legal if A.DRIVE <= a < A.RIDE]
    for a in sorted(drives, key=lambda a: -location_value(view, (a - A.DRIVE) % view.locations)):
        vehicle, dest = divmod(a - A.DRIVE, view.locations)
        if view.r.drive_dist[here][dest] <= drive_reach(view, vehicle, moves) and location_value(
            view, dest
        ) > location_value(view, here):
            return a
    need = walking_need(view, here, moves)
    if int(view.data["total"]) < need and moves:
        return A.PLAY + moves[0]
    return A.DONE


def drive_reach_played(view: View, vehicle: int) -> int:
    total, cards = int(view.data["total"]), int(view.data["cards"])
    kind, amount = view.r.vehicle_bonus[vehicle]
    return total * amount if kind == "multiply_total" else total + amount * cards


def walking_need(view: View, here: int, moves: Sequence[int]) -> int:
    """Move points to play for: a better Location, else a useful Section here, else none."""
    total = sum(view.r.card_value[c] for c in moves) + int(view.data["total"])
    dest = best_destination(view, here, total)
    if dest != here:
        return int(view.r.link_cost[here][dest])
    section = useful_section(view, here, total)
    return int(view.r.section_entry[section]) if section is not None else 0


def useful_section(view: View, here: int, points: int) -> int | None:
    """A Section at ``here`` the active Character may enter with ``points`` and then pay for."""
    active = int(view.public.active)
    colour = view.r.char_colour[active]
    if colour < 0 or int(view.public.character_section[active]) >= 0:
        return None
    best: tuple[float, int] | None = None
    for section, loc in enumerate(view.r.section_location):
        entry = int(view.r.section_entry[section])
        if loc != here or entry > points or (int(view.public.section_markers[section]) >> colour) & 1:
            continue
        spare = spare_after_entry(view, entry)
        index = best_reveal(view, section, spare)
        if index is not None:
            value = reveal_value(view, section, index)
            if best is None or value > best[0]:
                best = (value, section)
    return best[1] if best is not None else None


def spare_after_entry(view: View, entry: int) -> list[int]:
    """The hand left after playing the fewest Move cards worth ``entry`` points."""
    spent = max(0, entry - int(view.data["total"]))
    left = list(view.hand)
    for card in move_cards_in_hand(view, set()):
        if spent <= 0:
            break
        left.remove(card)
        spent -= view.r.card_value[card]
    return left


def decide_walk(view: View, legal: list[int]) -> int:
    active = int(view.public.active)
    here = int(view.public.character_location[active])
    points = int(view.data["points"])
    dest = best_destination(view, here, points)
    if dest != here and A.GOTO + dest in legal:
        return A.GOTO + dest
    best: tuple[float, int] | None = None
    for a in legal:
        if A.ENTER <= a < A.DRIVE:
            section = a - A.ENTER
            index = best_reveal(view, section, view.hand)
            if index is not None:
                value = reveal_value(view, section, index)
                if best is None or value > best[0]:
                    best = (value, a)
    return best[1] if best is not None else A.DONE


def decide_fallback(view: View, legal: list[int]) -> int:
    options = [a for a in legal if a != A.DONE]
    return max(options, key=lambda a: (location_value(view, a - A.GOTO), -a), default=A.DONE)


def decide_ride(view: View, legal: list[int]) -> int:
    dest = int(view.data["dest"])
    asked = int(view.data["rider"])
    here = int(view.public.character_location[asked])
    return A.RIDE if 0 <= dest < view.locations and location_value(view, dest) > location_value(view, here) else A.STAY


# -- Search, Get, Repair, Attack ----------------------------------------------------------------
def decide_play_type(view: View, legal: list[int], step_type: str) -> int:
    """Play the step's cards that help: Search and Get always (they come back), others rarely."""
    reserved = reserved_cards(view)
    for a in legal:
        if not A.PLAY <= a < A.CHOOSE:
            continue
        card = a - A.PLAY
        if card in reserved or not worth_playing(view, card, step_type):
            continue
        return a
    return A.DONE


def worth_playing(view: View, card: int, step_type: str) -> bool:
    if view.r.forbid[card]:
        return False  # e.g. Smoking would forbid the seat's own Get step
    if view.r.end_of_turn[card] is not None:
        return message_value(view, card) > 0 and keep_value(view, card) < 1.0
    if view.r.swap[card]:
        return False
    return step_type in (SEARCH, GET)


def decide_reorder(view: View, legal: list[int]) -> int:
    """Put the card the seat most wants to draw next on top."""
    return max(legal, key=lambda a: (draw_value(view, a - A.PLACE), -a))


def decide_give_card(view: View, legal: list[int]) -> int:
    """Give away the card the seat least wants to keep."""
    return min(legal, key=lambda a: (keep_value(view, a - A.CHOOSE), a))


def decide_take_card(view: View, legal: list[int]) -> int:
    return max(legal, key=lambda a: (keep_value(view, a - A.CHOOSE), -a))


def decide_accommodation(view: View, legal: list[int]) -> int:
    """Remove the Messages card whose reveal would hurt the seat most."""
    return min(legal, key=lambda a: (message_value(view, a - A.CHOOSE), a))


def decide_temple(view: View, legal: list[int]) -> int:
    """Put the Messages card whose reveal helps the seat most on the Temple pile."""
    return max(legal, key=lambda a: (message_value(view, a - A.CHOOSE), -a))


def decide_decompression(view: View, legal: list[int]) -> int:
    return A.ADVANCE if view.role == GUARDIAN else A.MOVE_BACK


def decide_graveyard(view: View, legal: list[int]) -> int:
    """Take the top card of the deck most likely to give a wanted card."""

    def worth(action: int) -> float:
        loc = action - A.DECK
        top = view.public.zones.decks[loc].top
        if top and top[0] is not None:
            return draw_value(view, int(top[0]))
        return location_value(view, loc)

    return max(legal, key=lambda a: (worth(a), -a))


def decide_reveal(view: View, legal: list[int]) -> int:
    """Show the Section payment with the cards that say least about the seat's Objective."""
    return min(legal, key=lambda a: (keep_value(view, a - A.CHOOSE), a))


def decide_messages_discard(view: View, legal: list[int]) -> int:
    """Discard the card whose reveal helps most and whose loss from the Gear hurts least."""
    mine = view.role != GUARDIAN and view.my_char == target_character(view)

    def worth(action: int) -> float:
        card = action - A.DISCARD
        kept = keep_value(view, card) if mine else KEEP_OTHER[view.role][view.kind(card)]
        return message_value(view, card) - kept

    return max(legal, key=lambda a: (worth(a), -a))


DECIDERS = {
    "pick_character": decide_draft,
    "cancel_ability": decide_cancel,
    "choose_marker_seat": decide_give_seat,
    "choose_section_marker_seat": decide_give_seat,
    "choose_marker_colour": decide_give_colour,
    "choose_section_marker_colour": decide_give_colour,
    "move_for_free": decide_reed,
    "play_move_cards": decide_move_step,
    "ask_rider": decide_ride,
    "spend_move_points": decide_walk,
    "drive_elsewhere": decide_fallback,
    "play_search_cards": lambda v, legal: decide_play_type(v, legal, SEARCH),
    "reorder": decide_reorder,
    "play_get_cards": lambda v, legal: decide_play_type(v, legal, GET),
    "play_repair_cards": lambda v, legal: decide_play_type(v, legal, REPAIR),
    "play_attack_cards": lambda v, legal: decide_play_type(v, legal, ATTACK),
    "give_scrap_card": decide_give_card,
    "return_scrap_card": decide_give_card,
    "choose_section_effect": decide_section,
    "show_reveal_card": decide_reveal,
    "remove_message": decide_accommodation,
    "take_robot_card": decide_take_card,
    "give_robot_card": decide_give_card,
    "adjust_countdown": decide_decompression,
    "choose_deck": decide_graveyard,
    "pick_temple_card": decide_temple,
    "discard_message": decide_messages_discard,
    "choose_identity": decide_identity,
}
"""The rule of thumb for each pending decision kind (``pending.kind``); others: a random choice."""
