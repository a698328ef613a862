"""Votes (3-4 player games): every other player votes in turn order, secretly; one 'yes'
passes.  With two players left (or in a 2-player game) voting is suspended: the action passes.
"""

from __future__ import annotations

from collections.abc import Callable

from shadowtable.games.shadowlord.actions import DONE, YES
from shadowtable.games.shadowlord.context import Context
from shadowtable.games.shadowlord.rules.alliances import alive_seats
from shadowtable.games.shadowlord.rules.registry import auto, decision, log
from shadowtable.games.shadowlord.state import SLState, Task

Effect = Callable[[Context, SLState, int, int], None]
EFFECTS: dict[str, tuple[Effect, Effect]] = {}
"""Vote kind -> (on pass, on fail); both get the two integer arguments of the vote."""


def voting_suspended(ctx: Context, s: SLState) -> bool:
    return len(alive_seats(s)) <= 2


def start_vote(ctx: Context, s: SLState, kind: str, a: int, b: int = -1) -> None:
    """Ask the other players about ``kind``; runs the effect at once when voting is suspended."""
    if voting_suspended(ctx, s):
        EFFECTS[kind][0](ctx, s, a, b)
        return
    me = ctx.seat_of(s.cur)
    order = [(me + i) % ctx.players for i in range(1, ctx.players)]
    voters = [k for k in order if k in alive_seats(s)]
    s.vote = {"kind": kind, "a": a, "b": b, "voters": voters, "votes": [-1] * ctx.players}
    s.stack.append(("vote_end",))
    for k in reversed(voters):
        s.stack.append(("vote", k))


def vote_legal(ctx: Context, s: SLState, task: Task) -> list[int]:
    return [DONE, YES]


@decision("vote", vote_legal)
def cast_vote(ctx: Context, s: SLState, task: Task, action: int) -> None:
    assert s.vote is not None
    s.vote["votes"][task[1]] = 1 if action == YES else 0


@auto("vote_end")
def end_vote(ctx: Context, s: SLState, task: Task) -> None:
    vote = s.vote
    s.vote = None
    if vote is None:
        return
    yes = [k for k, v in enumerate(vote["votes"]) if v == 1]
    passed = bool(yes)
    log(s, f"vote on {vote['kind']}: {'passed' if passed else 'failed'} (yes: {yes})")
    EFFECTS[vote["kind"]][0 if passed else 1](ctx, s, vote["a"], vote["b"])
