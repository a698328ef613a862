"""Votes (3-4 player games): every other player votes in turn order, secretly; one 'yes'
passes.  With two players left (or in a 2-player game) voting is suspended: the motion passes.

The motions and what passing or failing does are one explicit table, :data:`MOTIONS`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from shadowtable.core.events import note
from shadowtable.core.kernel import Automatic, Decision, Handler, Task, always
from shadowtable.core.wording import listed
from shadowtable.games.shadowlord.actions import DONE, YES
from shadowtable.games.shadowlord.context import Context
from shadowtable.games.shadowlord.render import motion_text
from shadowtable.games.shadowlord.rules import events, movement, recruit
from shadowtable.games.shadowlord.rules.alliances import alive_seats
from shadowtable.games.shadowlord.state import NOBODY, Ballot, State
from shadowtable.games.shadowlord.tasks import EndVote, PutToVote, Vote, decider

Effect = Callable[[Context, State, int, int], None]


def voting_seats(voters: list[int]) -> str:
    """``seat 1 votes``, ``seat 1, seat 2 and seat 3 vote`` (each seat worded as the log words one)."""
    return listed([f"seat {k}" for k in voters]) + (" votes" if len(voters) == 1 else " vote")


def no_effect(ctx: Context, s: State, subject: int, origin: int) -> None:
    return None


MOTIONS: dict[str, tuple[Effect, Effect]] = {
    "defect": (recruit.defect_passes, no_effect),
    "place_shadow": (recruit.shadow_stays, recruit.shadow_removed),
    "move_shadow": (movement.shadow_moved, movement.shadow_back),
    "storm": (events.storm_passes, no_effect),
    "steal": (events.steal_passes, no_effect),
}
"""Motion -> (on pass, on fail); both get the motion's subject and origin."""


FIGURE_MOTIONS = frozenset({"defect", "place_shadow", "move_shadow"})
"""Motions about a figure (the others name a seat)."""


def motion_words(ctx: Context, s: State, motion: str, subject: int, origin: int) -> str:
    """What a motion asks, in words."""
    return motion_text(ctx.content, s.cur, s.loc, motion, subject, origin)


def voting_suspended(ctx: Context, s: State) -> bool:
    return len(alive_seats(s)) <= 2


def put_to_vote(ctx: Context, s: State, task: PutToVote) -> None:
    """Ask the other players about the motion; it passes at once when voting is suspended."""
    motion, subject, origin = task.motion, task.subject, task.origin
    words = motion_words(ctx, s, motion, subject, origin) if s.journal is not None else ""
    if voting_suspended(ctx, s):
        note(
            s,
            "vote",
            f"no Vote needed (two players or fewer): {words}",
            rule="vote",
            motion=motion,
            subject=subject,
            origin=origin,
            voters=[],
            passed=True,
        )
        MOTIONS[motion][0](ctx, s, subject, origin)
        return
    me = ctx.seat_of(s.cur)
    order = [(me + i) % ctx.players for i in range(1, ctx.players)]
    voters = [k for k in order if k in alive_seats(s)]
    note(
        s,
        "vote",
        f"Vote: {words}? {voting_seats(voters)} secretly; one yes passes it",
        rule="vote",
        motion=motion,
        subject=subject,
        origin=origin,
        voters=voters,
    )
    s.vote = Ballot(motion, subject, origin, voters, [-1] * ctx.players)
    s.stack.append(EndVote())
    for k in reversed(voters):
        s.stack.append(Vote(k))


def vote_legal(ctx: Context, s: State, task: Vote) -> list[int]:
    return [DONE, YES]


def cast_vote(ctx: Context, s: State, task: Vote, action: int) -> None:
    assert s.vote is not None
    s.vote.votes[task.seat] = 1 if action == YES else 0


def closed_vote(ctx: Context, s: State, vote: Ballot, passed: bool) -> dict[str, Any]:
    """The vote as it closed: the motion, who put it (``cur``), where its subject stood
    (``at``; -1 for a seat), the voters, every cast vote and the result."""
    motion, subject = vote.motion, vote.subject
    at = s.loc[subject] if motion in FIGURE_MOTIONS else NOBODY
    return {
        "kind": motion,
        "a": subject,
        "b": vote.origin,
        "cur": s.cur,
        "at": at,
        "voters": list(vote.voters),
        "votes": list(vote.votes),
        "passed": passed,
    }


def end_vote(ctx: Context, s: State, task: EndVote) -> None:
    vote = s.vote
    s.vote = None
    if vote is None:
        return
    passed = any(v == 1 for v in vote.votes)
    # The votes stay secret (cast votes are owner-only information): only the result is told,
    # which the table sees anyway from its consequence.  The closed vote is kept so that each
    # voter can still read what he voted (the observation shows him his own vote only).
    motion = vote.motion
    s.last_vote = closed_vote(ctx, s, vote, passed)
    if s.journal is not None:
        words = motion_words(ctx, s, motion, vote.subject, vote.origin)
        result = "passes: at least one yes" if passed else "fails: nobody voted yes"
        note(
            s,
            "vote",
            f"the Vote {result}; {words}: {'so it happens' if passed else 'so it does not happen'}",
            rule="vote",
            motion=motion,
            subject=vote.subject,
            origin=vote.origin,
            voters=list(vote.voters),
            passed=passed,
        )
    MOTIONS[vote.motion][0 if passed else 1](ctx, s, vote.subject, vote.origin)


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
    EndVote: Automatic(end_vote),
}
"""The rules of votes, by task type (gathered into ``RULEBOOK``)."""
