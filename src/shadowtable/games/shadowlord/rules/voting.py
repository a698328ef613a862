"""Votes (3-4 player games): every other player votes in turn order, secretly; one 'yes'
passes.  With two players left (or in a 2-player game) voting is suspended: the motion passes.

The motions and what passing or failing does are one explicit table, :data:`MOTIONS`.
"""

from __future__ import annotations

from collections.abc import Callable

from shadowtable.core.events import note
from shadowtable.core.kernel import Automatic, Decision, Handler, Task, always
from shadowtable.games.shadowlord.actions import DONE, YES
from shadowtable.games.shadowlord.context import Context
from shadowtable.games.shadowlord.rules import events, movement, recruit
from shadowtable.games.shadowlord.rules.alliances import alive_seats
from shadowtable.games.shadowlord.state import SLState
from shadowtable.games.shadowlord.tasks import PutToVote, Vote, VoteEnd, decider

Effect = Callable[[Context, SLState, int, int], None]


def no_effect(ctx: Context, s: SLState, subject: int, origin: int) -> None:
    return None


MOTIONS: dict[str, tuple[Effect, Effect]] = {
    "defect": (recruit.defect_passes, no_effect),
    "place_shadow": (recruit.shadow_stays, recruit.shadow_removed),
    "move_shadow": (movement.shadow_moved, movement.shadow_back),
    "storm": (events.storm_passes, no_effect),
    "steal": (events.steal_passes, no_effect),
}
"""Motion -> (on pass, on fail); both get the motion's subject and origin."""


def voting_suspended(ctx: Context, s: SLState) -> bool:
    return len(alive_seats(s)) <= 2


def put_to_vote(ctx: Context, s: SLState, task: PutToVote) -> None:
    """Ask the other players about the motion; it passes at once when voting is suspended."""
    motion, subject, origin = task.motion, task.subject, task.origin
    if voting_suspended(ctx, s):
        MOTIONS[motion][0](ctx, s, subject, origin)
        return
    me = ctx.seat_of(s.cur)
    order = [(me + i) % ctx.players for i in range(1, ctx.players)]
    voters = [k for k in order if k in alive_seats(s)]
    s.vote = {"kind": motion, "a": subject, "b": origin, "voters": voters, "votes": [-1] * ctx.players}
    s.stack.append(VoteEnd())
    for k in reversed(voters):
        s.stack.append(Vote(k))


def vote_legal(ctx: Context, s: SLState, task: Vote) -> list[int]:
    return [DONE, YES]


def cast_vote(ctx: Context, s: SLState, task: Vote, action: int) -> None:
    assert s.vote is not None
    s.vote["votes"][task.seat] = 1 if action == YES else 0


def end_vote(ctx: Context, s: SLState, task: VoteEnd) -> None:
    vote = s.vote
    s.vote = None
    if vote is None:
        return
    yes = [k for k, v in enumerate(vote["votes"]) if v == 1]
    passed = bool(yes)
    note(s, "vote", f"vote on {vote['kind']}: {'passed' if passed else 'failed'} (yes: {yes})")
    MOTIONS[vote["kind"]][0 if passed else 1](ctx, s, vote["a"], vote["b"])


RULES: dict[type[Task], Handler] = {
    PutToVote: Automatic(put_to_vote),
    Vote: Decision(
        decider,
        vote_legal,
        cast_vote,
        "Vote, secretly, on the motion before the table: one yes passes it",
        rule="vote",
        ready=always,
    ),
    VoteEnd: Automatic(end_vote),
}
"""The rules of votes, by task type (gathered into ``RULEBOOK``)."""
