"""End of the game: identity matching, the missing Guardian, and the three victory checks."""

from __future__ import annotations

from typing import Any

from shadowtable.core.events import note
from shadowtable.games.shadow_planet import actions as A
from shadowtable.games.shadow_planet.board import hand
from shadowtable.games.shadow_planet.context import Context
from shadowtable.games.shadow_planet.rules.effects import COLOURS
from shadowtable.games.shadow_planet.state import (
    END_COUNTDOWN,
    END_REPAIR,
    END_THREAT,
    State,
)
from shadowtable.games.shadow_planet.tasks import ChooseIdentity, MatchIdentities

REASONS = {END_THREAT: "threat", END_REPAIR: "repair", END_COUNTDOWN: "countdown"}


def end_reason(s: State) -> str:
    """The highest-priority latched end condition."""
    for bit in (END_THREAT, END_REPAIR, END_COUNTDOWN):
        if s.latched & bit:
            return REASONS[bit]
    return "none"


def priority_order(s: State) -> list[int]:
    """Seats in the order their Objectives are matched (Alien, Commander, ... Guardian)."""
    return sorted(range(s.n), key=lambda seat: s.objectives[seat])


def identity_choices(r: Context, s: State, seat: int) -> list[int]:
    """Unmatched Characters of which ``seat`` has the fewest Markers (the Robot is ignored)."""
    taken = set(s.identity)
    free = [ch for ch in range(6) if ch != r.robot and ch not in taken]
    counts = {ch: s.sheets[seat * 5 + r.content.char_colour[ch]] for ch in free}
    best = min(counts.values())
    return [ch for ch in free if counts[ch] == best]


def match_identities(ctx: Context, s: State, task: MatchIdentities) -> None:
    """Match players in priority order; stop to ask a player who has a tie."""
    order = priority_order(s)
    position = task.next
    while position < s.n:
        seat = order[position]
        choices = identity_choices(ctx, s, seat)
        if len(choices) > 1 and ctx.options["identity_ties"] == "choose":
            s.stack.append(MatchIdentities(position + 1))
            s.stack.append(ChooseIdentity(seat))
            return
        s.identity[seat] = choices[0]
        if s.journal is not None:
            note_identity(ctx, s, seat, choices)
        position += 1
    if s.journal is not None:
        note_outcome(ctx, s)


def identity_options(ctx: Context, s: State, task: ChooseIdentity) -> list[int]:
    return [A.IDENTITY + ch for ch in identity_choices(ctx, s, task.seat)]


def choose_identity(ctx: Context, s: State, task: ChooseIdentity, action: int) -> None:
    """The tied player picks the Character they prefer."""
    choices = identity_choices(ctx, s, task.seat) if s.journal is not None else []
    s.identity[task.seat] = action - A.IDENTITY
    if s.journal is not None:
        note_identity(ctx, s, task.seat, choices)


def objective_words(objective: str, role: str) -> str:
    """An Objective with its side where the name does not say it: ``Alien``, ``Guardian``,
    ``Commander, an Astronaut``."""
    return objective if objective.lower() == role else f"{objective}, an {role.capitalize()}"


def note_identity(r: Context, s: State, seat: int, choices: list[int]) -> None:
    """Note who ``seat`` turns out to be, and why (its fewest Markers; a tie it chose or that
    went to the lowest Initiative)."""
    ch = s.identity[seat]
    objective = r.content.objective_names[s.objectives[seat]]
    role = r.content.objective_role[s.objectives[seat]]
    colour = r.content.char_colour[ch]
    count = s.sheets[seat * 5 + colour]
    why = f"fewest Markers: {count} {COLOURS[colour]}"
    if len(choices) > 1:
        tied = ", ".join(r.content.char_names[c] for c in choices)
        how = "chosen" if r.options["identity_ties"] == "choose" else "lowest Initiative"
        why += f" (tied among {tied}: {how})"
    note(
        s,
        "identity",
        f"seat {seat} ({objective_words(objective, role)}) is {r.content.char_names[ch]}: {why}",
        rule="identity",
        seat=seat,
        objective=objective,
        role=role,
        character=r.content.char_names[ch],
        colour=COLOURS[colour],
        markers=count,
        sheet=dict(zip(COLOURS, s.sheets[seat * 5 : seat * 5 + 5], strict=True)),
        tied=[r.content.char_names[c] for c in choices] if len(choices) > 1 else [],
    )


def note_outcome(r: Context, s: State) -> None:
    """Note who wins and why (the checks of the end condition, with their numbers), then each
    seat's result."""
    facts = outcome(r, s)
    if facts["phantom_guardian"] is not None:
        note(
            s,
            "identity",
            f"no player holds the Guardian: {facts['phantom_guardian']} is the Guardian (highest Initiative unmatched)",
            rule="identity",
            seat=-1,
            role="guardian",
            character=facts["phantom_guardian"],
        )
    data = {k: v for k, v in facts.items() if k != "seats"}
    winners = ", ".join(f"seat {seat}" for seat in facts["winners"]) or "nobody"
    note(s, "outcome", f"{facts['why']}; winners: {winners}", rule="identity", **data)
    for line in facts["seats"]:
        note(s, "result", f"seat {line['seat']}: {line['why']}", rule="identity", **line)


def _count(r: Context, s: State, ch: int, card_type: int, role: str) -> int:
    total = 0
    for card in hand(s, ch):
        if r.card_type[card] != card_type:
            continue
        weight = 1
        for who, t, count in r.endgame[card]:
            if who == role and t == card_type:
                weight = count
        total += weight
    return total


def outcome(r: Context, s: State) -> dict[str, Any]:
    """Who won and why, from a finished state (JSON data)."""
    roles = {s.identity[seat]: r.content.objective_role[s.objectives[seat]] for seat in range(s.n)}
    phantom = -1
    if 4 not in s.objectives:
        free = [ch for ch in range(6) if ch != r.robot and ch not in roles]
        phantom = max(free)
        roles[phantom] = "guardian"
        for ch in free:
            roles.setdefault(ch, "astronaut")
    astronauts = sorted(ch for ch, role in roles.items() if role == "astronaut")
    alien = next(ch for ch, role in roles.items() if role == "alien")
    reason = end_reason(s)
    facts: dict[str, Any] = {
        "reason": reason,
        "indicators": {"countdown": s.countdown, "repair": s.repair, "threat": s.threat},
        "roles": {r.content.char_names[ch]: role for ch, role in sorted(roles.items())},
        "phantom_guardian": r.content.char_names[phantom] if phantom >= 0 else None,
    }
    if reason == "threat":
        winner = "guardian"
        facts["why"] = "the Threat Indicator reached its end: the Guardian wins"
    else:
        winner = _contest(r, s, reason, alien, astronauts, facts)
    facts["winning_role"] = winner
    winners = [seat for seat in range(s.n) if roles[s.identity[seat]] == winner]
    if winner == "guardian" and phantom >= 0:
        winners = []
        facts["why"] += " (the Guardian is unmatched: every player loses)"
    facts["winners"] = winners
    facts["seats"] = [_seat_facts(r, s, seat, roles, winner, seat in winners) for seat in range(s.n)]
    return facts


def _seat_facts(r: Context, s: State, seat: int, roles: dict[int, str], winner: str, won: bool) -> dict[str, Any]:
    """One seat's line of the outcome: Objective, identity, Markers and why it won or lost."""
    role = roles[s.identity[seat]]
    objective, identity = r.content.objective_names[s.objectives[seat]], r.content.char_names[s.identity[seat]]
    verdict = "wins" if won else "loses"
    return {
        "seat": seat,
        "objective": objective,
        "role": role,
        "identity": identity,
        "markers": s.sheets[seat * 5 : seat * 5 + 5],
        "won": won,
        "why": f"{objective} ({role}) matched {identity}; the {winner} side won, so this seat {verdict}",
    }


def _contest(r: Context, s: State, reason: str, alien: int, astronauts: list[int], facts: dict[str, Any]) -> str:
    """Repair check (Countdown end only), then the Alien against the Astronauts."""
    if reason == "countdown":
        repairs = sum(_count(r, s, ch, 3, "astronaut") for ch in astronauts)
        facts["astronaut_repair"] = repairs
        if repairs < s.repair:
            facts["why"] = f"Astronauts hold {repairs} Repair < Repair Indicator {s.repair}: the Guardian wins"
            return "guardian"
    gets, attacks = _count(r, s, alien, 2, "alien"), _count(r, s, alien, 4, "alien")
    threat = s.threat + gets - attacks
    if r.options["alien_threat_clamp"]:
        threat = max(0, min(r.content.threat_max, threat))
    astro_attack = sum(_count(r, s, ch, 4, "astronaut") for ch in astronauts)
    facts.update({"alien_get": gets, "alien_attack": attacks, "final_threat": threat, "astronaut_attack": astro_attack})
    prefix = "the Guardian loses; " if reason == "repair" else "Astronauts reach the Repair Indicator; "
    if astro_attack >= threat:
        facts["why"] = prefix + f"Astronaut Attack {astro_attack} >= Threat {threat}: the Astronauts win"
        return "astronaut"
    facts["why"] = prefix + f"Astronaut Attack {astro_attack} < Threat {threat}: the Alien wins"
    return "alien"
