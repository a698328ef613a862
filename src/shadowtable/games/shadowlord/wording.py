"""``ShadowlordWording``: Shadowlord! in words (notation, log lines, rendering, rules help,
choices, the printed reference), each delegating to a module of the game."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from shadowtable.core.game import Observation
from shadowtable.core.wording import SeatResult, Wording
from shadowtable.games.shadowlord import narration, notation, reference, render, results
from shadowtable.games.shadowlord.state import State

if TYPE_CHECKING:
    from shadowtable.games.shadowlord.game import ShadowlordGame


class ShadowlordWording(Wording[State]):
    """The words of one configured Shadowlord! game."""

    game: ShadowlordGame

    def __init__(self, game: ShadowlordGame) -> None:
        super().__init__(game)
        self.ctx = game.ctx

    def action_to_str(self, state: State, action: int) -> str:
        return notation.action_to_str(self.ctx, state, action)

    def action_from_str(self, state: State, text: str) -> int | None:
        return notation.action_from_str(self.ctx, state, text)

    def event_text(self, state: State, action: int, seat: int | None) -> str | None:
        return narration.event_text(self.ctx, state, action, self.game.check_seat(seat))

    def results(self, state: State, public_events: Sequence[Mapping[str, object]] = ()) -> tuple[SeatResult, ...]:
        return results.results(self.ctx, state, public_events) if state.end else ()

    def out_of_game(self, state: State, seat: int | None, told: Sequence[Mapping[str, object]] = ()) -> str | None:
        return None if seat is None else results.out_of_game(self.ctx, state, seat, told)

    def render(self, observation: Observation) -> str:
        return render.render(self.ctx, observation)

    def rules_help(self, observation: Observation) -> str:
        return narration.rules_help(observation)

    def build_reference(self) -> dict[str, Any]:
        return reference.reference(self.ctx)

    def action_group(self, state: State, action: int) -> str | None:
        return notation.action_group(self.ctx, state, action)
