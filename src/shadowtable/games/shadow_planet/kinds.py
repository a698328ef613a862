"""The Shadow Planet's decisions sorted into kinds (the designer's lab's restricted play).

Grouped choices keep the table page's words (:data:`notation.GROUPS`); the rest are named here.
A seat's role is its Objective's, once its own Objective is dealt to it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from shadowtable.core.action_kinds import ActionKinds
from shadowtable.core.game import Game, Observation
from shadowtable.games.shadow_planet import actions as A
from shadowtable.games.shadow_planet.notation import GROUPS

SINGLE_KINDS = (
    (A.PICK, A.PLAY, "take a Character in the draft"),
    (A.DONE, A.GOTO, "end the step or stop moving"),
    (A.RIDE, A.STAY, "accept a ride"),
    (A.STAY, A.CANCEL, "refuse a ride"),
    (A.CANCEL, A.SEAT, "cancel an ability"),
    (A.USE, A.SKIP, "use an optional ability"),
    (A.SKIP, A.RESOLVE, "decline an optional ability"),
    (A.RESOLVE, A.LEAVE, "apply a Section effect"),
    (A.LEAVE, A.ADVANCE, "leave a Section effect unapplied"),
    (A.ADVANCE, A.MOVE_BACK, "advance the Countdown Indicator"),
    (A.MOVE_BACK, A.DECK, "move the Countdown Indicator back"),
    (A.IDENTITY, A.NUM_ACTIONS, "choose an identity on a tie"),
)
"""Id ranges the table page shows one by one, named as a kind."""


def objective_roles(game: Game[Any]) -> Sequence[str]:
    """The role of every Objective (the printed material's ``objectives``)."""
    return [str(objective["role"]) for objective in game.words.reference()["objectives"]]


def seat_role(game: Game[Any], observation: Observation, seat: int) -> str | None:
    """The role of the Objective ``seat`` sees dealt to itself, or ``None`` before the deal."""
    shown = observation.get("public", {}).get("objectives") or []
    objective = shown[seat] if seat < len(shown) else None
    if not isinstance(objective, int) or isinstance(objective, bool) or objective < 0:
        return None
    roles = objective_roles(game)
    return roles[objective] if objective < len(roles) else None


ACTION_KINDS = ActionKinds(
    ranges=tuple(sorted((*GROUPS, *SINGLE_KINDS))),
    size=A.NUM_ACTIONS,
    seat_role=seat_role,
    roles=objective_roles,
)
