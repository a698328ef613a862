"""Setup by chance: Objectives removed unseen and dealt, the Protagonist chosen."""

from __future__ import annotations

from shadowtable.games.shadow_planet.context import Context
from shadowtable.games.shadow_planet.rules.decks import uniform
from shadowtable.games.shadow_planet.state import State
from shadowtable.games.shadow_planet.tasks import ChooseProtagonist, DealObjective, RemoveObjective

ALIEN = 0


def removable(ctx: Context, s: State, task: RemoveObjective) -> list[tuple[int, float]]:
    """Objectives that may be removed: never the Alien, never one removed already."""
    return uniform([o for o in range(1, 5) if o != ALIEN and o not in s.removed_objectives])


def remove_objective(ctx: Context, s: State, task: RemoveObjective, objective: int) -> None:
    s.removed_objectives.append(objective)


def dealable(ctx: Context, s: State, task: DealObjective) -> list[tuple[int, float]]:
    """Objectives neither removed nor dealt."""
    dealt = set(s.removed_objectives) | {o for o in s.objectives if o >= 0}
    return uniform([o for o in range(5) if o not in dealt])


def deal_objective(ctx: Context, s: State, task: DealObjective, objective: int) -> None:
    s.objectives[task.seat] = objective


def protagonists(ctx: Context, s: State, task: ChooseProtagonist) -> list[tuple[int, float]]:
    return uniform(list(range(s.n)))


def choose_protagonist(ctx: Context, s: State, task: ChooseProtagonist, seat: int) -> None:
    s.protagonist = seat
