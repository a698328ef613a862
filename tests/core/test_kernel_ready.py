"""core.kernel: a decision or chance node with nothing to choose is skipped; ``ready`` tests that
cheaply instead of listing the choices."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from shadowtable.core.kernel import Chance, Decision, Kernel, Rulebook, Task, always


@dataclass(frozen=True, slots=True)
class Pick(Task):
    seat: int
    options: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Roll(Task):
    sides: int


@dataclass
class Board:
    stack: list[Task] = field(default_factory=list)
    listed: int = 0
    chosen: list[int] = field(default_factory=list)
    legal: list[int] | None = None

    def copy(self) -> Board:
        return Board(self.stack[:], self.listed, self.chosen[:])


def _options(ctx: Any, state: Board, task: Pick) -> list[int]:
    state.listed += 1
    return list(task.options)


def _choose(ctx: Any, state: Board, task: Pick, action: int) -> None:
    state.chosen.append(action)


def _sides(ctx: Any, state: Board, task: Roll) -> list[tuple[int, float]]:
    state.listed += 1
    return [(k, 1 / task.sides) for k in range(task.sides)]


def _book(ready: Any) -> Rulebook:
    return Rulebook(
        {
            Pick: Decision(lambda task: task.seat, _options, _choose, "pick one", ready=ready),
            Roll: Chance(_sides, _choose, ready=ready),
        }
    )


def test_without_ready_an_empty_decision_is_skipped_by_listing_its_actions() -> None:
    kernel: Kernel[None, Board] = Kernel(_book(None))
    board = Board([Pick(1, (3, 4)), Pick(0, ())])
    kernel.advance(None, board)
    assert board.stack == [Pick(1, (3, 4))] and board.listed == 2
    assert kernel.current_player(board) == 1 and kernel.legal_actions(None, board) == [3, 4]


def test_ready_decides_without_listing() -> None:
    kernel: Kernel[None, Board] = Kernel(_book(always))
    board = Board([Roll(2), Pick(0, (5,))])
    kernel.advance(None, board)
    assert board.listed == 0 and kernel.current_player(board) == 0
    after = kernel.apply(None, board, 5)
    assert after.chosen == [5] and kernel.current_player(after) == -1 and board.chosen == []
    assert kernel.chance_outcomes(None, after) == [(0, 0.5), (1, 0.5)]
    assert kernel.current_player(kernel.apply(None, after, 1)) is None  # the stack is empty: over
