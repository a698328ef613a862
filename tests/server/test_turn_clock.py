"""A turn-based seat's clock worked out from wall-clock times (pure functions, no server)."""

from __future__ import annotations

import pytest

from shadowtable.server.errors import Conflict, ServiceError
from shadowtable.server.table import Seat, TurnRules
from shadowtable.server.turn_clock import (
    DAY_S,
    apply,
    ms_left,
    new_deadline,
    reserve_after,
    vacation,
    vacation_left_days,
)

RULES = TurnRules(move_s=DAY_S, reserve_s=2 * DAY_S, on_timeout="bot", vacation_days=3)
T0 = 1_900_000_000.0


def seat(reserve_days: float = 2) -> Seat:
    human = Seat("human", None, "Ada", "hash")
    human.reserve_ms = int(reserve_days * DAY_S * 1000)
    return human


def test_a_decision_runs_out_after_its_own_time_and_the_reserve() -> None:
    ada = seat()
    ada.deadline = new_deadline(RULES, ada, T0)
    assert ada.deadline == T0 + 3 * DAY_S
    assert ms_left(RULES, ada, T0 + DAY_S) == 2 * DAY_S * 1000


@pytest.mark.parametrize(
    ("taken_s", "reserve_left_days"), [(3600, 2), (DAY_S, 2), (DAY_S * 1.5, 1.5), (DAY_S * 3, 0), (DAY_S * 9, 0)]
)
def test_only_the_time_past_a_moves_own_time_comes_off_the_reserve(taken_s: float, reserve_left_days: float) -> None:
    ada = seat()
    ada.deadline = new_deadline(RULES, ada, T0)
    assert reserve_after(RULES, ada, T0 + taken_s) == int(reserve_left_days * DAY_S * 1000)


def test_a_decision_that_starts_on_vacation_starts_when_it_ends() -> None:
    ada = seat()
    ada.away_until = T0 + 2 * DAY_S
    assert new_deadline(RULES, ada, T0) == T0 + 5 * DAY_S
    ada.deadline = T0 + 5 * DAY_S
    assert ms_left(RULES, ada, T0 + DAY_S) == 3 * DAY_S * 1000  # the clock waits while away
    assert reserve_after(RULES, ada, T0 + DAY_S) == ada.reserve_ms  # a move made while away costs nothing


def test_vacation_moves_a_running_deadline_and_is_bounded() -> None:
    ada = seat()
    ada.deadline = T0 + 3 * DAY_S
    changes = vacation(RULES, ada, 2, T0)
    assert changes == {"away_until": T0 + 2 * DAY_S, "away_used_s": 2.0 * DAY_S, "deadline": T0 + 5 * DAY_S}
    apply(ada, changes)
    assert vacation_left_days(RULES, ada) == 1
    with pytest.raises(Conflict, match="1 left"):
        vacation(RULES, ada, 2, T0)
    assert vacation(RULES, ada, 0, T0 + DAY_S) == {"away_until": T0 + DAY_S}  # ends now; days stay taken
    for bad in (-1, True, "2", 1.5):
        with pytest.raises(ServiceError):
            vacation(RULES, ada, bad, T0)


def test_no_vacation_where_the_table_allows_none() -> None:
    with pytest.raises(Conflict, match="no vacation"):
        vacation(TurnRules(move_s=DAY_S, reserve_s=0, on_timeout="skip", vacation_days=0), seat(), 1, T0)
