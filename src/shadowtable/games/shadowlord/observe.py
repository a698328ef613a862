"""What a seat may know: the board, counts and the log are public; Attack Hands, the cards under
portraits, cards committed to a Duel and cast votes belong to their owner; the deck, the discard
pile and the face-down discs are known to nobody.  :func:`determinize` samples the unknown cards.
"""

from __future__ import annotations

import random
from typing import Any

from shadowtable.core.errors import StateFormatError
from shadowtable.games.shadowlord.content import CARD_VALUES
from shadowtable.games.shadowlord.context import Context
from shadowtable.games.shadowlord.state import BLACK, SLState, clone, state_from_json, state_to_json

NV = CARD_VALUES
HIDDEN_VOTE = -2


def portrait_seat(ctx: Context, s: SLState, f: int) -> int:
    owner = s.owner[f]
    return ctx.seat_of(owner) if 0 <= owner < BLACK else -1


def observe(ctx: Context, s: SLState, seat: int | None) -> dict[str, Any]:
    """The observation of ``seat`` (``None``: a spectator)."""
    data = state_to_json(s)
    nf = len(s.owner)
    deck, discard, hand, pcards = data.pop("deck"), data.pop("discard"), data.pop("hand"), data.pop("pcards")
    public: dict[str, Any] = data
    public["deck_count"] = sum(deck)
    public["discard_count"] = sum(discard)
    public["hand_counts"] = [sum(hand[k * NV : k * NV + NV]) for k in range(4)]
    public["portrait_counts"] = [sum(pcards[f * NV : f * NV + NV]) for f in range(nf)]
    private: dict[str, Any] = {"hand": None, "portraits": {}, "commit": [None, None]}
    if seat is not None:
        private["hand"] = hand[seat * NV : seat * NV + NV]
        private["portraits"] = {
            str(f): pcards[f * NV : f * NV + NV]
            for f in range(nf)
            if portrait_seat(ctx, s, f) == seat and any(pcards[f * NV : f * NV + NV])
        }
    battle = public.get("battle")
    if battle and battle.get("duel"):
        private["commit"] = _hide_commits(ctx, s, battle["duel"], seat)
    if battle and battle.get("ready"):
        private["ready_commit"] = [_hide_commits(ctx, s, duel, seat) for duel in battle["ready"]]
    vote = public.get("vote")
    if vote:
        vote["votes"] = [v if v == -1 or k == seat else HIDDEN_VOTE for k, v in enumerate(vote["votes"])]
    return {"seat": seat, "public": public, "private": private, "outcome": outcome_text(ctx, s)}


def _hide_commits(ctx: Context, s: SLState, duel: dict[str, Any], seat: int | None) -> list[Any]:
    """Remove a Duel's face-down cards from the public view; return what ``seat`` may see."""
    mine: list[Any] = [None, None]
    for side in (0, 1):
        if seat is not None and portrait_seat(ctx, s, duel["figs"][side]) == seat:
            mine[side] = duel["commit"][side]
    duel["commit"] = None
    return mine


def outcome_text(ctx: Context, s: SLState) -> str | None:
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


def determinize(ctx: Context, obs: dict[str, Any], rng: random.Random) -> SLState:
    """A full state consistent with ``obs``: unknown cards dealt at random into the hidden places."""
    try:
        public = clone(obs["public"])
        private = obs["private"]
        seat = obs["seat"]
    except (KeyError, TypeError) as exc:
        raise StateFormatError(f"not a shadowlord observation: {exc}") from exc
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
    if public.get("offer"):
        for v in range(NV):
            pool[v] -= public["offer"]["give"][v]
    battle = public.get("battle") or {}
    duels: list[tuple[dict[str, Any], list[Any]]] = []
    if battle.get("duel"):
        duels.append((battle["duel"], private["commit"]))
    for duel, known in zip(battle.get("ready") or [], private.get("ready_commit") or [], strict=True):
        duels.append((duel, known))
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
    if public.get("vote"):
        public["vote"]["votes"] = [0 if v == HIDDEN_VOTE else v for v in public["vote"]["votes"]]
    public["deck"] = deal(public.pop("deck_count"))
    public["discard"] = deal(public.pop("discard_count"))
    public.pop("hand_counts")
    public.pop("portrait_counts")
    public["hand"] = hand
    public["pcards"] = pcards
    return state_from_json(public)


def _owner_seat(ctx: Context, public: dict[str, Any], f: int) -> int:
    owner = public["owner"][f]
    return ctx.seat_of(owner) if 0 <= owner < BLACK else -1
