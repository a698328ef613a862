"""An upper bound on the length of a game of Shadowlord! (its decisions and chance outcomes):
OpenSpiel's ``max_game_length`` (through the manifest).  ``SPEC.max_game_length`` stays as it
is: other code relies on it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from shadowtable.games.shadowlord.rules.turn import TURN_STEP_LIMIT

if TYPE_CHECKING:
    from shadowtable.games.shadowlord.game import ShadowlordGame


def max_game_length(game: ShadowlordGame) -> int:
    """The bound the engine enforces (none worked out from the rules alone is known).

    Every step counts towards the turn's steps (``turn.count_step``), reset as each turn starts;
    the step that takes them past ``TURN_STEP_LIMIT`` ends the game.  The setup and at most
    ``turn_cap`` turns (the turn cap ends the game before the next) make ``turn_cap + 1``
    stretches of ``TURN_STEP_LIMIT`` steps at most, and the game may end on one step more.
    """
    return (int(game.options["turn_cap"]) + 1) * TURN_STEP_LIMIT + 1
