"""``ShadowPlanetWording``: The Shadow Planet in words (notation, log lines, rendering, rules
help, choices and previews, the printed reference), each delegating to a module of the game."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from shadowtable.core.events import Event
from shadowtable.core.game import CHANCE, Observation
from shadowtable.core.wording import SeatResult, Wording
from shadowtable.games.shadow_planet import narration, notation, reference, render
from shadowtable.games.shadow_planet.rules import current_player, movement
from shadowtable.games.shadow_planet.rules.endgame import outcome
from shadowtable.games.shadow_planet.state import State
from shadowtable.games.shadow_planet.tasks import PlayMoveCards

if TYPE_CHECKING:
    from shadowtable.games.shadow_planet.game import ShadowPlanetGame


def seat_match(why: str) -> str:
    """A seat's outcome line without its verdict ("Sergeant (astronaut) matched Rachel Robinson"):
    the result shown beside it already says won or lost, and the game's reason which side won."""
    return why.split("; the ", 1)[0]


def without_verdict(why: str) -> str:
    """A seat's outcome line without "so this seat wins/loses", for a row that says won or lost
    beside it ("Sergeant (astronaut) matched Rachel Robinson; the guardian side won")."""
    return why.split(", so this seat ", 1)[0]


class ShadowPlanetWording(Wording[State]):
    """The words of one configured Shadow Planet game."""

    game: ShadowPlanetGame

    def __init__(self, game: ShadowPlanetGame) -> None:
        super().__init__(game)
        self.ctx = game.ctx

    def action_to_str(self, state: State, action: int) -> str:
        if current_player(state) == CHANCE:
            return notation.chance_to_str(self.ctx, state, action)
        return notation.decision_to_str(self.ctx, state, action)

    def action_from_str(self, state: State, text: str) -> int | None:
        if current_player(state) == CHANCE:
            return None
        return notation.decision_from_str(self.ctx, text)

    def results(self, state: State, public_events: Sequence[Mapping[str, object]] = ()) -> tuple[SeatResult, ...]:
        """Each seat's line of the game's outcome: won or lost, its Objective's match and why."""
        if state.stack:
            return ()
        facts = outcome(self.ctx, state)
        return tuple(
            SeatResult(row["seat"], "won" if row["won"] else "lost", f"{facts['why']}; {seat_match(row['why'])}")
            for row in facts["seats"]
        )

    def event_text(self, state: State, action: int, seat: int | None) -> str | None:
        after = self.game.apply_unchecked(state, action)
        return narration.event_text(self.ctx, state, after, action, self.game.check_seat(seat))

    def told(self, state: State, action: int, events: Sequence[Event], seat: int | None) -> list[dict[str, Any]]:
        """As :meth:`Wording.told`, except that a Messages card revealed by chance is told once:
        by the rules' ``reveal`` event (its number and the counts so far), not also by the draw."""
        told = super().told(state, action, events, seat)
        restated = told and told[0]["kind"] == "action" and any(event["kind"] == "reveal" for event in told[1:])
        return told[1:] if restated and current_player(state) == CHANCE else told

    def render(self, observation: Observation) -> str:
        return render.render(self.ctx, observation)

    def rules_help(self, observation: Observation) -> str:
        pending = observation.get("pending")
        return narration.rules_help(str(pending.get("rule", ""))) if isinstance(pending, dict) else ""

    def build_reference(self) -> dict[str, Any]:
        return reference.reference(self.ctx)

    def action_group(self, state: State, action: int) -> str | None:
        return None if current_player(state) == CHANCE else notation.action_group(action)

    def preview_details(self, after: State) -> dict[str, Any]:
        """During step I, Move: where the points played so far could take the Character on foot."""
        top = after.stack[-1]
        if isinstance(top, PlayMoveCards) and top.drive < 0 and top.total > 0:
            return {"reach": movement.reachable(self.ctx, after, top.total)}
        return {}
