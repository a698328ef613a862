"""Who sees what: per-seat observations and determinization (sampling a consistent full state).

A card's place is shown to a seat when the card's bit is set in ``public`` or in that seat's
``known`` mask; everything else is a count.  ``determinize`` keeps every shown fact and deals
the unseen cards into the unseen places: a Location deck only ever holds its own cards, and
the five original Messages cards never leave the Messages pile, the Temple pile or the removed
pile.
"""

from __future__ import annotations

import random
from typing import Any

from shadowtable.core.kernel import Task
from shadowtable.games.shadow_planet import state as M
from shadowtable.games.shadow_planet.board import cards_of
from shadowtable.games.shadow_planet.context import Context
from shadowtable.games.shadow_planet.rules import KERNEL, RULEBOOK
from shadowtable.games.shadow_planet.rules.control import draft_drawer, draft_received
from shadowtable.games.shadow_planet.state import State, zone_index
from shadowtable.games.shadow_planet.tasks import (
    SECRET,
    ChooseIdentity,
    ChooseProtagonist,
    DealObjective,
    DrawDraftCard,
    PickCharacter,
    RemoveObjective,
    secrets,
    task_to_json,
)
from shadowtable.games.shadow_planet.view import (
    Deck,
    Draft,
    Gear,
    PlanetObservation,
    PlanetOutcome,
    PlanetPublic,
    Zones,
)

PUBLIC = (
    "players", "round", "protagonist", "countdown", "repair", "threat", "latched", "end_reason", "trajectory",
    "pool", "sheets", "section_markers", "character_location", "character_section", "controller", "seat_character",
    "vehicle_loc", "identity", "active", "forbid", "exclusive", "bonus", "auras", "cancelled", "revealed",
    "last_reveal", "reveal_cards",
)  # fmt: skip
"""State fields every seat sees as they are (the allow-list, by their observation names; everything
else is built below)."""
STATE_NAMES = {
    "players": "n",
    "exclusive": "excl",
    "character_location": "char_loc",
    "character_section": "char_section",
    "seat_character": "seat_char",
}
"""Observation name -> state attribute where the two differ."""


def state_name(name: str) -> str:
    """The state's attribute for public observation field ``name``."""
    return STATE_NAMES.get(name, name)


def observe(r: Context, s: State, seat: int | None) -> dict[str, Any]:
    """JSON view of ``s`` for ``seat`` (None: a spectator), in the envelope's layout
    (:class:`~shadowtable.games.shadow_planet.view.PlanetObservation`; ``outcome`` is filled in
    by the game once it is over).

    ``pending`` says who must decide what (``kernel.pending``); ``tasks`` is the pending work,
    each task with its arguments, a secret one (a card chosen face down) ``null`` unless ``seat``
    is the one that knows it.  Cards are shown where ``public`` or the seat's ``known`` mask
    says the seat knows their place.
    """
    mask = s.public | (s.known[seat] if seat is not None else 0)
    public: dict[str, Any] = {}
    for name in PUBLIC:
        value = getattr(s, state_name(name))
        public[name] = [x[:] if isinstance(x, list) else x for x in value] if isinstance(value, list) else value
    ended = not s.stack or isinstance(s.stack[-1], ChooseIdentity)  # identities: Objectives revealed
    public["objectives"] = [o if ended or seat == i or o == -1 else None for i, o in enumerate(s.objectives)]
    public["removed_objectives"] = len(s.removed_objectives)
    public["zones"] = _zones(r, s, mask)
    public["draft"] = _draft(s, seat)
    return {
        "seat": seat,
        "pending": KERNEL.pending(s).to_json(),
        "public": public,
        "private": cards_of(s.known[seat]) if seat is not None else [],
        "tasks": [_task_seen(task, seat) for task in s.stack],
        "outcome": None,
    }


def observe_typed(r: Context, s: State, seat: int | None, outcome: PlanetOutcome | None) -> PlanetObservation:
    """:func:`observe`'s facts built as the typed view directly (no JSON in between), with
    ``outcome`` (the game's, once it is over): equal to ``PlanetObservation.from_json`` of
    :func:`observe`'s JSON with that outcome (``tests/games/test_observe_typed.py`` checks it
    over many games, every seat and a spectator)."""
    mask = s.public | (s.known[seat] if seat is not None else 0)
    public: list[Any] = []
    for name in STATE_ATTRIBUTES:
        value = getattr(s, name)
        if type(value) is list:  # a state list holds ints only, or lists of ints only
            value = tuple([tuple(x) for x in value]) if value and type(value[0]) is list else tuple(value)
        public.append(value)
    ended = not s.stack or isinstance(s.stack[-1], ChooseIdentity)  # identities: Objectives revealed
    public += [
        tuple([o if ended or seat == i or o == -1 else None for i, o in enumerate(s.objectives)]),
        len(s.removed_objectives),
        _typed_zones(s, mask),
        _typed_draft(s, seat),
    ]
    return PlanetObservation(
        seat,
        KERNEL.pending(s),
        PlanetPublic(*public),
        tuple(cards_of(s.known[seat])) if seat is not None else (),
        tuple([_task_typed(task, seat) for task in s.stack]),
        outcome,
    )


STATE_ATTRIBUTES = tuple(state_name(name) for name in PUBLIC)
"""The state's attributes of :data:`PUBLIC`, in order (the first fields of
:class:`~shadowtable.games.shadow_planet.view.PlanetPublic`)."""
TASK_CACHE = 4096
"""The most tasks whose JSON :func:`_task_typed` keeps (the cache is emptied when full)."""
_TASK_JSON: dict[int, tuple[Task, dict[str, Any]]] = {}


def _task_typed(task: Task, seat: int | None) -> dict[str, Any]:
    """:func:`_task_seen`, its JSON kept per task object (tasks are frozen, and the stack shares
    them from state to state; the entry holds the task, so its id is not reused while kept).  The
    inner lists are shared between views (a view's tasks are read-only)."""
    entry = _TASK_JSON.get(id(task))
    if entry is None or entry[0] is not task:
        if len(_TASK_JSON) >= TASK_CACHE:
            _TASK_JSON.clear()
        entry = _TASK_JSON[id(task)] = (task, task_to_json(task))
    found = entry[1]
    data = dict(found)
    hidden = SECRET.get(type(task))
    if hidden:
        for name, knower in hidden.items():
            if seat is None or seat != getattr(task, knower):
                data[name] = None
    return data


def _task_seen(task: Task, seat: int | None) -> dict[str, Any]:
    """A task as JSON, its secret fields ``None`` unless ``seat`` is the one that knows them."""
    data = task_to_json(task)
    for name, knower in secrets(task).items():
        if seat is None or seat != getattr(task, knower):
            data[name] = None
    return data


def _zones(r: Context, s: State, mask: int) -> dict[str, Any]:
    zones = s.zones
    decks = []
    for d in range(5):
        top = s.top[d]
        on_top = 0
        for c in top:
            on_top |= 1 << c
        decks.append(
            {
                "size": zones[d].bit_count(),
                "top": [c if (mask >> c) & 1 else None for c in top],
                "rest_known": cards_of(zones[d] & mask & ~on_top),
            }
        )
    gear = [{"size": zones[M.GEAR0 + ch].bit_count(), "known": cards_of(zones[M.GEAR0 + ch] & mask)} for ch in range(6)]
    return {
        "decks": decks,
        "temple": [c if (mask >> c) & 1 else None for c in s.temple],
        "discard": cards_of(zones[M.DISCARD]),
        "removed": zones[M.REMOVED].bit_count(),
        "gear": gear,
        "played": [cards_of(zones[M.PLAYED0 + ch]) for ch in range(6)],
    }


def _typed_zones(s: State, mask: int) -> Zones:
    """:func:`_zones`, typed (an empty set of cards read without a call)."""
    zones = s.zones
    decks = []
    for d in range(5):
        top, zone = s.top[d], zones[d]
        on_top = 0
        for c in top:
            on_top |= 1 << c
        rest = zone & mask & ~on_top
        decks.append(
            Deck(
                zone.bit_count(),
                tuple([c if (mask >> c) & 1 else None for c in top]),
                tuple(cards_of(rest)) if rest else (),
            )
        )
    discard, played = zones[M.DISCARD], zones[M.PLAYED0 : M.PLAYED0 + 6]
    return Zones(
        tuple(decks),
        tuple([c if (mask >> c) & 1 else None for c in s.temple]),
        tuple(cards_of(discard)) if discard else (),
        zones[M.REMOVED].bit_count(),
        tuple([_gear(zone, zone & mask) for zone in zones[M.GEAR0 : M.GEAR0 + 6]]),
        tuple([tuple(cards_of(zone)) if zone else () for zone in played]),
    )


GEAR_CACHE = 4096
"""The most :class:`~shadowtable.games.shadow_planet.view.Gear` views :func:`_gear` keeps (the
cache is emptied when full)."""
_GEAR: dict[tuple[int, int], Gear] = {}


def _gear(zone: int, known: int) -> Gear:
    """The view of a Gear holding the cards of ``zone``, those of ``known`` shown (a frozen view,
    kept per pair: Gears change seldom)."""
    key = (zone, known)
    found = _GEAR.get(key)
    if found is None:
        if len(_GEAR) >= GEAR_CACHE:
            _GEAR.clear()
        found = _GEAR[key] = Gear(zone.bit_count(), tuple(cards_of(known)) if known else ())
    return found


def _draft_step(s: State) -> int | None:
    """How many players have picked, during the draft (None outside it)."""
    top = s.stack[-1] if s.stack else None
    if isinstance(top, PickCharacter):
        return top.step
    return 0 if isinstance(top, DrawDraftCard) else None


def _draft(s: State, seat: int | None) -> dict[str, Any]:
    step = _draft_step(s)
    if step is None or seat is None:
        return {"random": None, "picks": [None] * s.n, "received": None}
    order = (seat - s.protagonist) % s.n
    drawer = seat == draft_drawer(s)
    received = draft_received(s, order) if order <= step and s.draft_random >= 0 else None
    if order == s.n - 1 and order > step:
        received = None
    return {
        "random": s.draft_random if drawer else None,
        "picks": [p if i == seat else None for i, p in enumerate(s.draft_picks)],
        "received": received,
    }


def _typed_draft(s: State, seat: int | None) -> Draft:
    """:func:`_draft`, typed."""
    draft = _draft(s, seat)
    received = draft["received"]
    return Draft(draft["random"], tuple(draft["picks"]), None if received is None else tuple(received))


# -- determinization ----------------------------------------------------------------------------
def determinize(r: Context, obs: dict[str, Any] | PlanetObservation, rng: random.Random) -> State:
    """A full state agreeing with everything ``obs`` (its JSON or typed view) shows."""
    view = obs if isinstance(obs, PlanetObservation) else PlanetObservation.from_json(obs)
    s = State.__new__(State)
    s.journal, s.legal = None, None
    for name in PUBLIC:
        value = getattr(view.public, name)
        setattr(
            s,
            state_name(name),
            [list(x) if isinstance(x, tuple) else x for x in value] if isinstance(value, tuple) else value,
        )
    _objectives(r, s, view.public, rng)
    _cards(r, s, view, rng)
    s.stack = [_task_filled(r, s, dict(task), rng) for task in view.tasks]
    _draft_fill(s, view, rng)
    return s


def _task_filled(r: Context, s: State, data: dict[str, Any], rng: random.Random) -> Task:
    """A task from its JSON, a hidden secret field sampled from what is consistent."""
    if data.get("task") == "return_scrap_card" and data.get("given") is None:
        mine = [c for c in range(r.num_cards) if s.where[c] == M.GEAR0 + s.active]  # the giver's hand
        data = {**data, "given": rng.choice(mine)}
    if data.get("task") == "give_robot_card" and data.get("taken") is None:
        robot = [c for c in range(r.num_cards) if s.where[c] == M.GEAR0 + r.robot]
        data = {**data, "taken": rng.choice(robot)}
    return RULEBOOK.task_from_json(data)


def _objectives(r: Context, s: State, public: PlanetPublic, rng: random.Random) -> None:
    shown = list(public.objectives)
    removed_count = public.removed_objectives
    dealt = [i for i, o in enumerate(shown) if o is None]
    known = {o for o in shown if o is not None and o >= 0}
    undealt_seats = sum(1 for o in shown if o == -1)
    for _ in range(1000):
        pool = [o for o in range(5) if o not in known]
        rng.shuffle(pool)
        removed, rest = pool[:removed_count], pool[removed_count:]
        if 0 in removed:
            continue
        hidden_dealt = len(dealt)
        if not ended_alien_ok(shown, rest, hidden_dealt, removed_count, r.players, undealt_seats):
            continue
        s.removed_objectives = removed
        s.objectives = [rest.pop(0) if o is None else o for o in shown]  # the hidden ones, in seat order
        return
    raise ValueError("no consistent objective deal")


def ended_alien_ok(shown: list[Any], rest: list[int], hidden: int, removed: int, n: int, undealt: int) -> bool:
    """Once the removal is complete the Alien must be among the dealt or still-to-deal cards."""
    if removed < 5 - n:
        return True
    return 0 in [o for o in shown if o is not None] or 0 in rest[: hidden + undealt]


def _cards(r: Context, s: State, view: PlanetObservation, rng: random.Random) -> None:
    zones = view.public.zones
    where = [-1] * r.num_cards
    s.top = [[] for _ in range(5)]
    slots: list[tuple[str, int, int]] = []  # (kind, zone, index)
    for d, deck in enumerate(zones.decks):
        for i, c in enumerate(deck.top):
            s.top[d].append(-1 if c is None else c)
            if c is None:
                slots.append(("top", d, i))
            else:
                where[c] = d
        for c in deck.rest_known:
            where[c] = d
        hidden_rest = deck.size - len(deck.top) - len(deck.rest_known)
        slots.extend(("zone", d, -1) for _ in range(hidden_rest))
    s.temple = []
    for i, c in enumerate(zones.temple):
        s.temple.append(-1 if c is None else c)
        if c is None:
            slots.append(("temple", M.TEMPLE, i))
        else:
            where[c] = M.TEMPLE
    for c in zones.discard:
        where[c] = M.DISCARD
    seen_removed = [c for c in view.public.reveal_cards if where[c] < 0]  # revealed, then removed
    for c in seen_removed:
        where[c] = M.REMOVED
    slots.extend(("zone", M.REMOVED, -1) for _ in range(zones.removed - len(seen_removed)))
    for ch, g in enumerate(zones.gear):
        for c in g.known:
            where[c] = M.GEAR0 + ch
        slots.extend(("zone", M.GEAR0 + ch, -1) for _ in range(g.size - len(g.known)))
    for ch, played in enumerate(zones.played):
        for c in played:
            where[c] = M.PLAYED0 + ch
    unknown = [c for c in range(r.num_cards) if where[c] < 0]
    dealt = set(unknown)
    _deal(r, s, where, slots, unknown, rng)
    s.where = where
    s.zones = zone_index(where)
    private = 0
    for c in view.private:
        private |= 1 << c
    shown = 0
    for c in range(r.num_cards):
        if where[c] >= 0 and c not in dealt:
            shown |= 1 << c
    s.public = shown & ~private
    seat = view.seat
    s.known = [private if i == seat else 0 for i in range(s.n)]


def _deal(
    r: Context, s: State, where: list[int], slots: list[tuple[str, int, int]], unknown: list[int], rng: random.Random
) -> None:
    """Fill unseen places: decks from their own cards, Messages cards only into Messages places."""
    home = r.content.card_home
    rng.shuffle(unknown)
    remaining = list(unknown)
    for d in range(4):
        deck_slots = [sl for sl in slots if sl[1] == d]
        own = [c for c in remaining if home[c] == d][: len(deck_slots)]
        for sl, c in zip(deck_slots, own, strict=True):
            _put(s, where, sl, c)
            remaining.remove(c)
    slots = [sl for sl in slots if sl[1] >= 4]
    rng.shuffle(slots)
    messages_cards = [c for c in remaining if home[c] == 10]
    message_slots = [sl for sl in slots if sl[1] in (M.MSG, M.TEMPLE, M.REMOVED)]
    for sl, c in zip(message_slots, messages_cards, strict=False):
        _put(s, where, sl, c)
        remaining.remove(c)
        slots.remove(sl)
    for sl, c in zip(slots, remaining, strict=True):
        _put(s, where, sl, c)


def _put(s: State, where: list[int], slot: tuple[str, int, int], card: int) -> None:
    kind, zone, index = slot
    where[card] = zone
    if kind == "top":
        s.top[zone][index] = card
    elif kind == "temple":
        s.temple[index] = card


def _draft_fill(s: State, view: PlanetObservation, rng: random.Random) -> None:
    draft = view.public.draft
    s.draft_picks = [p if p is not None else -1 for p in draft.picks]
    s.draft_random = -1
    top = s.stack[-1] if s.stack else None
    if not isinstance(top, PickCharacter):
        if not isinstance(top, DrawDraftCard | RemoveObjective | DealObjective | ChooseProtagonist):
            s.draft_picks = list(s.seat_char)  # revealed
        return
    step = top.step
    seat = view.seat
    received = draft.received
    known_random = draft.random
    for _ in range(1000):
        chars = list(range(6))
        rng.shuffle(chars)
        if known_random is not None:
            chars.remove(known_random)
            chars.insert(0, known_random)
        random_card, order = chars[0], chars[1:]
        picks = [-1] * s.n
        for k in range(step):
            picks[(s.protagonist + k) % s.n] = order[k]
        trial = s
        trial.draft_random, trial.draft_picks = random_card, picks
        own_pick = None if seat is None else draft.picks[seat]
        if seat is not None and own_pick is not None:
            picks[seat] = own_pick
            if len(set(p for p in picks if p >= 0)) != step or random_card in picks:
                continue
        if received is not None and seat is not None:
            my_order = (seat - s.protagonist) % s.n
            if sorted(draft_received(trial, my_order)) != sorted(received):
                continue
        return
    raise ValueError("no consistent draft")
