"""What a seat may know, built from allow-lists of named fields (a field not listed is not sent).

The observation has the envelope's layout (:class:`~shadowtable.games.shadowlord.view.LordObservation`).
Public (every seat and a spectator): the board and the figures, loose ships, face-down discs
(not their identities), supplies, the Power Stone and its timer, the turn, Truces and
permissions, the open offer (offered cards are shown), the Battle plan with its Duels (drawn
cards face up; committed cards only as a count), the vote and the last closed vote (cast
votes hidden, but for the reader's own), the counts of the deck, the discard pile, each Attack
Hand and each portrait.  ``tasks``: every task on the stack as ``Task.to_json()`` (no task
holds a hidden value, and :func:`determinize` needs them to rebuild a state with the same
future).  Per seat (``private``): its Attack Hand, the cards under its portraits and the cards
it committed to a Duel.  ``pending`` says who must decide what (``Kernel.pending``);
``outcome`` why the game ended.  Where a name differs from the state's, :data:`STATE_NAMES`
maps it.  :func:`determinize` deals the unknown cards into the hidden places.
"""

from __future__ import annotations

import random
from typing import Any

from shadowtable.core import jsondata
from shadowtable.core.errors import StateFormatError
from shadowtable.core.kernel import Kernel, Rulebook
from shadowtable.games.shadowlord.content import CARD_VALUES
from shadowtable.games.shadowlord.context import Context
from shadowtable.games.shadowlord.state import BLACK, Duel, State, state_from_json
from shadowtable.games.shadowlord.state import Offer as StateOffer
from shadowtable.games.shadowlord.view import (
    Battle,
    ClosedVote,
    Counts,
    DuelResult,
    LordObservation,
    LordPrivate,
    LordPublic,
    Offer,
    Vote,
)

NV = CARD_VALUES
HIDDEN_VOTE = -2
JsonObject = dict[str, Any]
"""A JSON object: an observation, a part of one, or a part of the state's JSON."""
KnownDuel = tuple[JsonObject, tuple[Counts | None, ...]]
"""A Duel's state JSON and the face-down cards this seat knows of it (``None`` per unknown side)."""

PUBLIC_LISTS = (
    "owner",
    "loc",
    "status",
    "ships",
    "captor",
    "moves",
    "flags",
    "adjust",
    "loose_colour",
    "loose_count",
    "disc",
    "bag",
    "supply",
    "boxed",
    "alive",
    "permissions",
    "seat_out",
)
"""State lists every seat sees as they are (by their observation names, :data:`STATE_NAMES`)."""
PUBLIC_SCALARS = (
    "stone",
    "stone_passes",
    "timer",
    "current_colour",
    "turn",
    "first_round_turns",
    "bribed",
    "offers",
    "truce",
    "shadow_control",
    "winner",
    "steps_turn",
    "pool",
    "first_seat",
    "roll",
    "announced",
    "end",
)
"""State numbers (and the end reason) every seat sees."""
STATE_NAMES = {
    "loose_colour": "loose_col",
    "loose_count": "loose_n",
    "permissions": "perm",
    "shadow_control": "shadow_ctl",
    "current_colour": "cur",
    "characters": "chars",
    "permission_give": "perm_give",
    "permission_want": "perm_want",
    "subject": "a",
    "origin": "b",
    "caller": "cur",
    "subject_location": "at",
    "battle": "idx",
    "figures": "figs",
}
"""Observation name -> the state's (attribute or JSON key) where the two differ."""
OFFER_FIELDS = (
    "from", "to", "give", "want", "characters", "release", "ships", "permission_give", "permission_want", "truce",
    "items",
)  # fmt: skip
"""The open offer: public to the table (offered cards are shown and held aside)."""
VOTE_FIELDS = ("kind", "subject", "origin", "voters")
"""The vote in progress; ``votes`` is added with every vote but the reader's own hidden."""
LAST_VOTE_FIELDS = ("kind", "subject", "origin", "caller", "subject_location", "voters", "passed")
"""The last closed vote (its result is public); ``votes`` as in :data:`VOTE_FIELDS`."""
BATTLE_FIELDS = ("plan", "allies", "queue")
"""The Battle plan; ``last`` is added as a :data:`DUEL_RESULT_FIELDS` view, ``duel`` and
``ready`` as :data:`DUEL_FIELDS` views."""
DUEL_FIELDS = ("battle", "figures", "drawn", "count")
"""A Duel: its figures, the cards drawn face up and how many were committed (the committed
cards themselves are private: ``private.commit`` / ``private.ready_commit``)."""
DUEL_RESULT_FIELDS = ("figures", "totals", "winner", "cards")
"""The last Duel fought (``public.last_duel``, ``public.battle.last``)."""


def state_name(name: str) -> str:
    """The state's name for observation field ``name``."""
    return STATE_NAMES.get(name, name)


def portrait_seat(ctx: Context, s: State, f: int) -> int:
    owner = s.owner[f]
    return ctx.seat_of(owner) if 0 <= owner < BLACK else -1


def observe(ctx: Context, kernel: Kernel[Context, State], s: State, seat: int | None) -> JsonObject:
    """The observation of ``seat`` (``None``: a spectator), in the envelope's layout."""
    return {
        "seat": seat,
        "pending": kernel.pending(s).to_json(),
        "public": _public(s, seat),
        "private": _private(ctx, s, seat),
        "tasks": [task.to_json() for task in s.stack],
        "outcome": outcome_text(ctx, s),
    }


def observe_typed(ctx: Context, kernel: Kernel[Context, State], s: State, seat: int | None) -> LordObservation:
    """:func:`observe`'s facts built as the typed view directly (no JSON in between for the
    parts every observation has): equal to ``LordObservation.from_json`` of :func:`observe`'s
    JSON (``tests/games/test_observe_typed.py`` checks it over many games, every seat and a
    spectator)."""
    return LordObservation(
        seat,
        kernel.pending(s),
        _typed_public(s, seat),
        _typed_private(ctx, s, seat),
        tuple([task.to_json() for task in s.stack]),
        outcome_text(ctx, s),
    )


def _typed_public(s: State, seat: int | None) -> LordPublic:
    """:func:`_public`, typed: the lists and numbers as they are, the offer from its fields, the
    last Duel's view kept per (shared, never changed) result, the votes and the Battle read from
    their JSON views (rare)."""
    nf = len(s.owner)
    hand, pcards = s.hand, s.pcards
    public: list[Any] = [tuple(getattr(s, attribute)) for attribute in LIST_ATTRIBUTES]
    public += [getattr(s, attribute) for attribute in SCALAR_ATTRIBUTES]
    offer, vote, last_vote, battle, last_duel = s.offer, s.vote, s.last_vote, s.battle, s.last_duel
    public += [
        sum(s.deck),
        sum(s.discard),
        tuple([sum(hand[k * NV : k * NV + NV]) for k in range(4)]),
        tuple([sum(pcards[f * NV : f * NV + NV]) for f in range(nf)]),
        None if offer is None else _typed_offer(offer),
        None if vote is None else _read(Vote, _vote_view(vote.to_json(), seat)),
        None if last_vote is None else _read(ClosedVote, _vote_view(last_vote, seat, LAST_VOTE_FIELDS)),
        None if battle is None else _read(Battle, _battle_view(battle.to_json())),
        None if last_duel is None else _typed_duel_result(last_duel),
    ]
    return LordPublic(*public)


LIST_ATTRIBUTES = tuple(state_name(name) for name in PUBLIC_LISTS)
"""The state's attributes of :data:`PUBLIC_LISTS` (the first fields of
:class:`~shadowtable.games.shadowlord.view.LordPublic`, in order)."""
SCALAR_ATTRIBUTES = tuple(state_name(name) for name in PUBLIC_SCALARS)
"""The state's attributes of :data:`PUBLIC_SCALARS` (the fields that follow, in order)."""
CACHE = 1024
"""The most last-Duel views :func:`_typed_duel_result` keeps (the cache is emptied when full)."""
_DUEL_RESULTS: dict[int, tuple[JsonObject, DuelResult]] = {}


def _read(cls: type, data: JsonObject | None) -> Any:
    """A part of the observation's JSON as the typed ``cls`` (the game's own output: unchecked)."""
    return jsondata.trusted_reader(cls)(data)


def _typed_offer(offer: StateOffer) -> Offer:
    """The open offer's view (:data:`OFFER_FIELDS`), from its fields."""
    return Offer(
        offer.made_by,
        offer.to,
        tuple(offer.give),
        tuple(offer.want),
        tuple(offer.characters),
        tuple(offer.release),
        tuple(offer.ships),
        offer.permission_give,
        offer.permission_want,
        tuple(offer.truce),
        offer.items,
    )


def _typed_duel_result(result: JsonObject) -> DuelResult:
    """The view of a Duel's result (the state's, shared from state to state and never changed):
    kept per result object, which the entry holds (so its id is not reused while kept)."""
    entry = _DUEL_RESULTS.get(id(result))
    if entry is None or entry[0] is not result:
        if len(_DUEL_RESULTS) >= CACHE:
            _DUEL_RESULTS.clear()
        entry = _DUEL_RESULTS[id(result)] = (result, _read(DuelResult, _duel_result_view(result)))
    return entry[1]


def _typed_private(ctx: Context, s: State, seat: int | None) -> LordPrivate:
    """:func:`_private`, typed."""
    commit: tuple[Counts | None, ...] = (None, None)
    ready: tuple[tuple[Counts | None, ...], ...] = ()
    if s.battle is not None:
        if s.battle.duel is not None:
            commit = _typed_commits(ctx, s, s.battle.duel, seat)
        ready = tuple([_typed_commits(ctx, s, duel, seat) for duel in s.battle.ready])
    if seat is None:
        return LordPrivate(None, {}, commit, ready)
    pcards = s.pcards
    colours = [c for c in range(BLACK) if ctx.seat_of(c) == seat]  # portrait_seat(...) == seat
    portraits = {
        str(f): tuple(pcards[f * NV : f * NV + NV])
        for f, owner in enumerate(s.owner)
        if owner in colours and any(pcards[f * NV : f * NV + NV])
    }
    return LordPrivate(tuple(s.hand[seat * NV : seat * NV + NV]), portraits, commit, ready)


def _typed_commits(ctx: Context, s: State, duel: Duel, seat: int | None) -> tuple[Counts | None, ...]:
    """:func:`_own_commits`, typed."""
    return tuple([None if c is None else tuple(c) for c in _own_commits(ctx, s, duel, seat)])


def _public(s: State, seat: int | None) -> JsonObject:
    """What every seat sees (the reader's own cast votes aside)."""
    nf = len(s.owner)
    hand, pcards = s.hand, s.pcards
    public: JsonObject = {name: list(getattr(s, state_name(name))) for name in PUBLIC_LISTS}
    public.update({name: getattr(s, state_name(name)) for name in PUBLIC_SCALARS})
    public["deck_count"] = sum(s.deck)
    public["discard_count"] = sum(s.discard)
    public["hand_counts"] = [sum(hand[k * NV : k * NV + NV]) for k in range(4)]
    public["portrait_counts"] = [sum(pcards[f * NV : f * NV + NV]) for f in range(nf)]
    public["offer"] = None if s.offer is None else _named(s.offer.to_json(), OFFER_FIELDS)
    public["vote"] = None if s.vote is None else _vote_view(s.vote.to_json(), seat)
    public["last_vote"] = None if s.last_vote is None else _vote_view(s.last_vote, seat, LAST_VOTE_FIELDS)
    public["battle"] = None if s.battle is None else _battle_view(s.battle.to_json())
    public["last_duel"] = _duel_result_view(s.last_duel)
    return public


def _private(ctx: Context, s: State, seat: int | None) -> JsonObject:
    """The seat's Attack Hand, the cards under its portraits and its face-down Duel cards."""
    nf = len(s.owner)
    hand, pcards = s.hand, s.pcards
    private: JsonObject = {"hand": None, "portraits": {}, "commit": [None, None], "ready_commit": []}
    if seat is not None:
        private["hand"] = hand[seat * NV : seat * NV + NV]
        private["portraits"] = {
            str(f): pcards[f * NV : f * NV + NV]
            for f in range(nf)
            if portrait_seat(ctx, s, f) == seat and any(pcards[f * NV : f * NV + NV])
        }
    if s.battle is not None:
        if s.battle.duel is not None:
            private["commit"] = _own_commits(ctx, s, s.battle.duel, seat)
        private["ready_commit"] = [_own_commits(ctx, s, duel, seat) for duel in s.battle.ready]
    return private


def _plain(value: Any) -> Any:
    """A copy of a JSON value of the state (lists of ints, lists of lists)."""
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


def _named(data: JsonObject, fields: tuple[str, ...]) -> JsonObject:
    """The observation fields ``fields`` of a part of the state's JSON (copied)."""
    return {name: _plain(data[state_name(name)]) for name in fields}


def _vote_view(vote: JsonObject, seat: int | None, fields: tuple[str, ...] = VOTE_FIELDS) -> JsonObject:
    """The named fields of a vote, and its cast votes with every one but ``seat``'s hidden."""
    view = _named(vote, fields)
    view["votes"] = [v if v == -1 or k == seat else HIDDEN_VOTE for k, v in enumerate(vote["votes"])]
    return view


def _duel_result_view(result: JsonObject | None) -> JsonObject | None:
    return None if result is None else _named(result, DUEL_RESULT_FIELDS)


def _battle_view(battle: JsonObject) -> JsonObject:
    view = _named(battle, BATTLE_FIELDS)
    view["last"] = _duel_result_view(battle["last"])
    view["duel"] = None if battle["duel"] is None else _named(battle["duel"], DUEL_FIELDS)
    view["ready"] = [_named(duel, DUEL_FIELDS) for duel in battle["ready"]]
    return view


def _own_commits(ctx: Context, s: State, duel: Duel, seat: int | None) -> list[list[int] | None]:
    """The face-down cards of a Duel that ``seat`` committed (``None`` for the other side)."""
    return [
        duel.committed[side][:] if seat is not None and portrait_seat(ctx, s, duel.figures[side]) == seat else None
        for side in (0, 1)
    ]


def outcome_text(ctx: Context, s: State) -> str | None:
    """Why the game ended, in words (``None`` while it runs)."""
    if not s.end:
        return None
    texts = {
        "master_of_universe": f"seat {s.winner} defeated the Shadowlord and every other Star Master: "
        "Master of the Universe",
        "surrender": f"the other players surrendered to seat {s.winner}, owner of the Power Stone",
        "shadowlord_timer": "the Power Stone Timer reached the Starburst: the Shadowlord wins, every player loses",
        "shadowlord_wins": "every Alliance was defeated: the Shadowlord wins, every player loses",
        "truncated": f"the game reached its length limit ({ctx.options['turn_cap']} turns, or too many steps in "
        "one turn) with no winner: nobody wins",
    }
    return texts.get(s.end, s.end)


def determinize(ctx: Context, rulebook: Rulebook, obs: JsonObject | LordObservation, rng: random.Random) -> State:
    """A full state consistent with ``obs`` (its JSON or typed view): unknown cards dealt at
    random into the hidden places."""
    view = obs if isinstance(obs, LordObservation) else LordObservation.from_json(obs)
    try:
        return state_from_json(_state_data(ctx, view, rng), rulebook.task_from_json)
    except (KeyError, TypeError, IndexError, AttributeError) as exc:
        raise StateFormatError(f"not a shadowlord observation: {exc!r}") from exc


def _state_data(ctx: Context, view: LordObservation, rng: random.Random) -> JsonObject:
    """The state's JSON: the public fields as they are, the unseen cards dealt."""
    public, private, seat = view.public, view.private, view.seat
    data: JsonObject = {state_name(name): list(getattr(public, name)) for name in PUBLIC_LISTS}
    data.update({state_name(name): getattr(public, name) for name in PUBLIC_SCALARS})
    battle = None if public.battle is None else _battle_state(public.battle)
    duels = _duels_with_commits(battle, private)
    dealer = _Dealer(_unseen(ctx, view, duels), rng)
    nf = len(public.owner)
    hand = [0] * (4 * NV)
    pcards = [0] * (nf * NV)
    if seat is not None and private.hand is not None:
        hand[seat * NV : seat * NV + NV] = private.hand
    for key, counts in private.portraits.items():
        pcards[int(key) * NV : int(key) * NV + NV] = counts
    for k in range(4):
        if k != seat:
            hand[k * NV : k * NV + NV] = dealer.deal(public.hand_counts[k])
    for f in range(nf):
        hidden = seat is None or _owner_seat(ctx, public.owner[f]) != seat
        if str(f) not in private.portraits and public.portrait_counts[f] and hidden:
            pcards[f * NV : f * NV + NV] = dealer.deal(public.portrait_counts[f])
    for duel, known in duels:
        duel["commit"] = [list(c) if c is not None else dealer.deal(duel["count"][i]) for i, c in enumerate(known)]
    data["deck"] = dealer.deal(public.deck_count)
    data["discard"] = dealer.deal(public.discard_count)
    data.update(hand=hand, pcards=pcards, battle=battle, stack=[dict(task) for task in view.tasks])
    data["offer"] = None if public.offer is None else _state_json(public.offer)
    data["vote"] = None if public.vote is None else _state_json(public.vote)
    if data["vote"] is not None:
        data["vote"]["votes"] = [0 if v == HIDDEN_VOTE else v for v in data["vote"]["votes"]]
    data["last_vote"] = None if public.last_vote is None else _state_json(public.last_vote)
    if data["last_vote"] is not None:
        data["last_vote"]["votes"] = _hidden_votes_consistent(data["last_vote"])
    data["last_duel"] = None if public.last_duel is None else _state_json(public.last_duel)
    return data


def _state_json(part: object) -> JsonObject:
    """A typed part of the observation as the state's JSON of it (the state's key names)."""
    return {state_name(key): value for key, value in jsondata.write(part).items()}


def _battle_state(battle: Battle) -> JsonObject:
    """The Battle's state JSON, its Duels without their face-down cards (dealt later)."""
    return {
        "plan": jsondata.write(battle.plan),
        "allies": jsondata.write(battle.allies),
        "queue": list(battle.queue),
        "last": None if battle.last is None else _state_json(battle.last),
        "duel": None if battle.duel is None else _state_json(battle.duel),
        "ready": [_state_json(duel) for duel in battle.ready],
    }


def _duels_with_commits(battle: JsonObject | None, private: LordPrivate) -> list[KnownDuel]:
    """Each Duel's state JSON with the face-down cards this seat knows (``None`` per unknown side)."""
    if battle is None:
        return []
    duels: list[KnownDuel] = []
    if battle["duel"] is not None:
        duels.append((battle["duel"], private.commit))
    duels.extend(zip(battle["ready"], private.ready_commit, strict=True))
    return duels


def _unseen(ctx: Context, view: LordObservation, duels: list[KnownDuel]) -> list[int]:
    """How many cards of each value this seat has not seen."""
    pool = list(ctx.content.card_counts)
    seen: list[tuple[int, ...]] = []
    if view.private.hand is not None and view.seat is not None:
        seen.append(view.private.hand)
    seen.extend(view.private.portraits.values())
    if view.public.offer is not None:
        seen.append(view.public.offer.give)
    seen.extend(tuple(c) for _, known in duels for c in known if c is not None)
    for counts in seen:
        for v in range(NV):
            pool[v] -= counts[v]
    for duel, _ in duels:
        for side in (0, 1):
            for v in duel["drawn"][side]:
                pool[v] -= 1
    return pool


class _Dealer:
    """Deals the unseen cards (a count per value) at random."""

    def __init__(self, pool: list[int], rng: random.Random) -> None:
        self.cards = [v for v in range(NV) for _ in range(max(0, pool[v]))]
        rng.shuffle(self.cards)

    def deal(self, n: int) -> list[int]:
        """``n`` cards, as a count per value."""
        counts = [0] * NV
        for _ in range(n):
            counts[self.cards.pop()] += 1
        return counts


def _hidden_votes_consistent(vote: JsonObject) -> list[int]:
    """Other seats' hidden votes of a closed vote, filled in to agree with its result: one
    'yes' if it passed and the reader's own vote was not one, else 'no'."""
    votes = [0 if v == HIDDEN_VOTE else v for v in vote["votes"]]
    if vote["passed"] and 1 not in votes:
        hidden = [k for k, v in enumerate(vote["votes"]) if v == HIDDEN_VOTE]
        if hidden:
            votes[hidden[0]] = 1
    return votes


def _owner_seat(ctx: Context, owner: int) -> int:
    return ctx.seat_of(owner) if 0 <= owner < BLACK else -1
