"""What a seat may know, built from allow-lists of named fields (a field not listed is not sent).

Public (every seat and a spectator): the board and the figures, loose ships, face-down discs
(not their identities), supplies, the Power Stone and its timer, the turn, Truces and
permissions, the open offer (offered cards are shown), the Battle plan with its Duels (drawn
cards face up; committed cards only as a count), the vote and the last closed vote (cast
votes hidden, but for the reader's own), the counts of the deck, the discard pile, each Attack
Hand and each portrait, and the pending work (``tasks``: every task on the stack as
``Task.to_json()``; no task holds a hidden value, and :func:`determinize` needs them to
rebuild a state with the same future).  Per seat
(``private``): its Attack Hand, the cards under its portraits and the cards it committed to a
Duel.  ``pending`` says who must decide what (``Kernel.pending``); ``outcome`` why the game
ended.  :func:`determinize` deals the unknown cards into the hidden places.
"""

from __future__ import annotations

import random
from typing import Any

from shadowtable.core.errors import StateFormatError
from shadowtable.core.kernel import Kernel, Rulebook
from shadowtable.games.shadowlord.content import CARD_VALUES
from shadowtable.games.shadowlord.context import Context
from shadowtable.games.shadowlord.state import BLACK, Duel, State, state_from_json

NV = CARD_VALUES
HIDDEN_VOTE = -2

PUBLIC_LISTS = (
    "owner",
    "loc",
    "status",
    "ships",
    "captor",
    "moves",
    "flags",
    "adjust",
    "loose_col",
    "loose_n",
    "disc",
    "bag",
    "supply",
    "boxed",
    "alive",
    "perm",
    "seat_out",
)
"""State lists every seat sees as they are."""
PUBLIC_SCALARS = (
    "stone",
    "stone_passes",
    "timer",
    "cur",
    "turn",
    "first_round_turns",
    "bribed",
    "offers",
    "truce",
    "shadow_ctl",
    "winner",
    "steps_turn",
    "pool",
    "first_seat",
    "roll",
    "announced",
    "end",
)
"""State numbers (and the end reason) every seat sees."""
OFFER_FIELDS = ("from", "to", "give", "want", "chars", "release", "ships", "perm_give", "perm_want", "truce", "items")
"""The open offer: public to the table (offered cards are shown and held aside)."""
VOTE_FIELDS = ("kind", "a", "b", "voters")
"""The vote in progress; ``votes`` is added with every vote but the reader's own hidden."""
LAST_VOTE_FIELDS = ("kind", "a", "b", "cur", "at", "voters", "passed")
"""The last closed vote (its result is public); ``votes`` as in :data:`VOTE_FIELDS`."""
BATTLE_FIELDS = ("plan", "allies", "queue", "last")
"""The Battle plan; ``duel`` and ``ready`` are added as :data:`DUEL_FIELDS` views."""
DUEL_FIELDS = ("idx", "figs", "drawn", "count")
"""A Duel: its figures, the cards drawn face up and how many were committed (the committed
cards themselves are private: ``private.commit`` / ``private.ready_commit``)."""


def portrait_seat(ctx: Context, s: State, f: int) -> int:
    owner = s.owner[f]
    return ctx.seat_of(owner) if 0 <= owner < BLACK else -1


def observe(ctx: Context, kernel: Kernel[Context, State], s: State, seat: int | None) -> dict[str, Any]:
    """The observation of ``seat`` (``None``: a spectator)."""
    nf = len(s.owner)
    hand, pcards = s.hand, s.pcards
    public: dict[str, Any] = {name: list(getattr(s, name)) for name in PUBLIC_LISTS}
    public.update({name: getattr(s, name) for name in PUBLIC_SCALARS})
    public["deck_count"] = sum(s.deck)
    public["discard_count"] = sum(s.discard)
    public["hand_counts"] = [sum(hand[k * NV : k * NV + NV]) for k in range(4)]
    public["portrait_counts"] = [sum(pcards[f * NV : f * NV + NV]) for f in range(nf)]
    public["offer"] = None if s.offer is None else _offer_view(s.offer.to_json())
    public["vote"] = None if s.vote is None else _vote_view(s.vote.to_json(), seat)
    public["last_vote"] = None if s.last_vote is None else _vote_view(s.last_vote, seat, LAST_VOTE_FIELDS)
    public["battle"] = None if s.battle is None else _battle_view(s.battle.to_json())
    public["last_duel"] = _plain(s.last_duel)
    public["tasks"] = [task.to_json() for task in s.stack]
    private: dict[str, Any] = {"hand": None, "portraits": {}, "commit": [None, None], "ready_commit": []}
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
    return {
        "seat": seat,
        "public": public,
        "private": private,
        "pending": kernel.pending(s).to_json(),
        "outcome": outcome_text(ctx, s),
    }


def _plain(value: Any) -> Any:
    """A copy of a JSON value of the state (lists of ints, lists of lists)."""
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


def _vote_view(vote: dict[str, Any], seat: int | None, fields: tuple[str, ...] = VOTE_FIELDS) -> dict[str, Any]:
    """The named fields of a vote, and its cast votes with every one but ``seat``'s hidden."""
    view = {name: _plain(vote[name]) for name in fields}
    view["votes"] = [v if v == -1 or k == seat else HIDDEN_VOTE for k, v in enumerate(vote["votes"])]
    return view


def _offer_view(offer: dict[str, Any]) -> dict[str, Any]:
    return {name: offer[name] for name in OFFER_FIELDS}


def _duel_view(duel: dict[str, Any]) -> dict[str, Any]:
    return {name: _plain(duel[name]) for name in DUEL_FIELDS}


def _battle_view(battle: dict[str, Any]) -> dict[str, Any]:
    view = {name: _plain(battle[name]) for name in BATTLE_FIELDS}
    view["duel"] = None if battle["duel"] is None else _duel_view(battle["duel"])
    view["ready"] = [_duel_view(duel) for duel in battle["ready"]]
    return view


def _own_commits(ctx: Context, s: State, duel: Duel, seat: int | None) -> list[Any]:
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
        "truncated": "the game was truncated (turn cap or step limit): nobody wins",
    }
    return texts.get(s.end, s.end)


def determinize(ctx: Context, rulebook: Rulebook, obs: dict[str, Any], rng: random.Random) -> State:
    """A full state consistent with ``obs``: unknown cards dealt at random into the hidden places."""
    try:
        return _determinize(ctx, rulebook, obs, rng)
    except (KeyError, TypeError, IndexError, AttributeError) as exc:
        raise StateFormatError(f"not a shadowlord observation: {exc!r}") from exc


def _determinize(ctx: Context, rulebook: Rulebook, obs: dict[str, Any], rng: random.Random) -> State:
    public = obs["public"]
    private = obs["private"]
    seat = obs["seat"]
    data: dict[str, Any] = {name: _plain(public[name]) for name in (*PUBLIC_LISTS, *PUBLIC_SCALARS)}
    nf = len(public["owner"])
    pool = list(ctx.content.card_counts)
    hand = [0] * (4 * NV)
    pcards = [0] * (nf * NV)
    if seat is not None:
        for v in range(NV):
            hand[seat * NV + v] = private["hand"][v]
            pool[v] -= private["hand"][v]
        for key, counts in private["portraits"].items():
            for v in range(NV):
                pcards[int(key) * NV + v] = counts[v]
                pool[v] -= counts[v]
    offer = _plain(public["offer"])
    if offer is not None:
        for v in range(NV):
            pool[v] -= offer["give"][v]
    battle = _plain(public["battle"])
    duels: list[tuple[dict[str, Any], list[Any]]] = []
    if battle is not None:
        if battle["duel"] is not None:
            duels.append((battle["duel"], private["commit"]))
        duels.extend(zip(battle["ready"], private["ready_commit"], strict=True))
    for duel, known in duels:
        for side in (0, 1):
            for v in duel["drawn"][side]:
                pool[v] -= 1
            if known[side] is not None:
                for v in range(NV):
                    pool[v] -= known[side][v]
    cards = [v for v in range(NV) for _ in range(max(0, pool[v]))]
    rng.shuffle(cards)

    def deal(n: int) -> list[int]:
        counts = [0] * NV
        for _ in range(n):
            counts[cards.pop()] += 1
        return counts

    for k in range(4):
        if k != seat:
            hand[k * NV : k * NV + NV] = deal(public["hand_counts"][k])
    for f in range(nf):
        hidden = seat is None or _owner_seat(ctx, public, f) != seat
        if str(f) not in private["portraits"] and public["portrait_counts"][f] and hidden:
            pcards[f * NV : f * NV + NV] = deal(public["portrait_counts"][f])
    for duel, known in duels:
        duel["commit"] = [list(c) if c is not None else deal(duel["count"][i]) for i, c in enumerate(known)]
    vote = _plain(public["vote"])
    if vote is not None:
        vote["votes"] = [0 if v == HIDDEN_VOTE else v for v in vote["votes"]]
    last_vote = _plain(public.get("last_vote"))
    if last_vote is not None:
        last_vote["votes"] = _hidden_votes_consistent(last_vote)
    data["deck"] = deal(public["deck_count"])
    data["discard"] = deal(public["discard_count"])
    data["hand"] = hand
    data["pcards"] = pcards
    data["offer"] = offer
    data["vote"] = vote
    data["battle"] = battle
    data["last_duel"] = _plain(public.get("last_duel"))
    data["last_vote"] = last_vote
    data["stack"] = public["tasks"]
    return state_from_json(data, rulebook.task_from_json)


def _hidden_votes_consistent(vote: dict[str, Any]) -> list[int]:
    """Other seats' hidden votes of a closed vote, filled in to agree with its result: one
    'yes' if it passed and the reader's own vote was not one, else 'no'."""
    votes = [0 if v == HIDDEN_VOTE else v for v in vote["votes"]]
    if vote["passed"] and 1 not in votes:
        hidden = [k for k, v in enumerate(vote["votes"]) if v == HIDDEN_VOTE]
        if hidden:
            votes[hidden[0]] = 1
    return votes


def _owner_seat(ctx: Context, public: dict[str, Any], f: int) -> int:
    owner = public["owner"][f]
    return ctx.seat_of(owner) if 0 <= owner < BLACK else -1
