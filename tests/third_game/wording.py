"""``TinyStackWording``: Tiny Stack in words, each method delegating to the template's modules."""

from __future__ import annotations

from typing import TYPE_CHECKING

from shadowtable.core import Observation
from shadowtable.core.wording import Wording
from third_game import narration, notation, render
from third_game.state import State

if TYPE_CHECKING:
    from third_game.game import TinyStackGame


class TinyStackWording(Wording[State]):
    """Notation, log lines, rules help and a text rendering."""

    game: TinyStackGame

    def action_to_str(self, state: State, action: int) -> str:
        return notation.action_to_str(self.game.kernel.top(state), action)

    def action_from_str(self, state: State, text: str) -> int | None:
        return notation.action_from_str(self.game.kernel.top(state), text)

    def event_text(self, state: State, action: int, seat: int | None) -> str | None:
        return narration.event_text(self.game.kernel.top(state), action, self.game.check_seat(seat))

    def render(self, observation: Observation) -> str:
        return render.render(observation)

    def rules_help(self, observation: Observation) -> str:
        return narration.rules_help(str(observation["pending"]["rule"]))
