"""The figures on planted rows: counts, Wilson intervals, the two-proportion test, odd games."""

from __future__ import annotations

import math
from typing import Any

import pytest
from tests.lab.helpers import planet_spec

from shadowtable.lab.figures import MAX_ODD_GAMES, difference, lab_figures, odd_games
from shadowtable.lab.spec import check_spec
from shadowtable.sim.stats import wilson_interval


def row(
    arm: int, index: int, winner: int, *, rounds: int = 8, end: str = "countdown", returns: Any = None
) -> dict[str, Any]:
    wins = [seat == winner for seat in range(3)]
    return {
        "arm": arm, "index": index, "seed": 0, "bots": ["random"] * 3,
        "roles": ["guardian", "astronaut", "alien"], "objectives": ["Guardian", "Sergeant", "Alien"],
        "wins": wins, "returns": returns or [float(w) for w in wins],
        "end_reason": end, "rounds": rounds, "actions": rounds * 40, "truncated": False,
    }  # fmt: skip


SPEC = check_spec(
    planet_spec(
        games=100,
        variants=[{"name": "baseline"}, {"name": "b", "options": {"alien_threat_clamp": False}}],
        probes=[{"role": "alien", "kind": "play a card from your hand"}],
    )
)


def planted() -> dict[int, list[dict[str, Any]]]:
    """Baseline: the guardian wins 30 of 100; variant: 50 of 100; probe: the alien wins 10 of 100."""
    baseline = [row(0, i, 0 if i < 30 else 2, rounds=5 + i % 7) for i in range(100)]
    baseline[57] = row(0, 57, 2, rounds=9, end="repair")  # 1% of the arm: unusual
    variant = [row(1, i, 0 if i < 50 else 1) for i in range(100)]
    probe = [row(2, i, 2 if i < 10 else 0) for i in range(100)]
    return {0: baseline[::-1], 1: variant, 2: probe}


def test_win_rates_carry_their_wilson_intervals() -> None:
    figures = lab_figures(SPEC, planted())
    guardian = figures["arms"][0]["by_role"]["guardian"]
    assert (guardian["games"], guardian["wins"]) == (100, 30)
    assert guardian["win_rate_ci95"] == list(wilson_interval(30, 100))
    assert guardian["win_rate_ci95"] == pytest.approx([0.2189, 0.3958], abs=1e-4)
    assert figures["arms"][0]["by_seat"]["0"]["wins"] == 30
    assert figures["arms"][0]["by_objective"]["Alien"]["wins"] == 70


def test_a_variant_is_compared_by_a_two_proportion_z_test() -> None:
    figures = lab_figures(SPEC, planted())
    guardian = figures["variants"][0]["win_rates"]["guardian"]
    assert guardian["difference"] == pytest.approx(0.2)
    assert guardian["z"] == pytest.approx(0.2 / math.sqrt(0.4 * 0.6 * 0.02))
    assert guardian["p_value"] == pytest.approx(0.003892, abs=1e-5)
    assert guardian["ci95"] == pytest.approx(
        [0.2 - 1.959964 * math.sqrt(0.21 / 100 + 0.25 / 100), 0.2 + 1.959964 * math.sqrt(0.46 / 100)], abs=1e-5
    )


def test_a_probe_reports_its_roles_change() -> None:
    probe = lab_figures(SPEC, planted())["probes"][0]
    assert (probe["role"], probe["baseline"], probe["rate"]) == ("alien", 0.70, 0.10)
    assert probe["difference"] == pytest.approx(-0.6) and probe["p_value"] < 1e-9


def test_no_difference_gives_p_one_and_no_games_give_none() -> None:
    assert difference(0, 10, 0, 10)["p_value"] == 1.0
    assert difference(3, 0, 1, 10)["difference"] is None


def test_odd_games_find_the_planted_extremes_and_the_unusual_end() -> None:
    found = {(g["arm"], g["index"]): g["why"] for g in odd_games(SPEC, planted())}
    assert found[(0, 0)].startswith("shortest: 5 rounds")  # rounds 5 first at index 0, 7, 14...
    assert found[(0, 6)].startswith("longest: 11 rounds")
    assert (
        "unusual end: the Repair Indicator reached its end: the Alien and the Astronauts settle it (repair)"
        in (found[(0, 57)])
    )
    assert not any("unusual" in why for (arm, _), why in found.items() if arm != 0)


def test_the_most_lopsided_game_has_the_widest_return_gap() -> None:
    rows = planted()
    rows[1][40] = row(1, 40, 0, returns=[3.0, 0.0, 0.0])
    found = {(g["arm"], g["index"]): g["why"] for g in odd_games(SPEC, rows)}
    assert found[(1, 40)] == "most lopsided: 1 winner, the best return 3.00 above the others' mean"


def test_odd_games_are_capped() -> None:
    rows = planted()
    rows[2] = [row(2, i, 0, end=f"reason {i}") for i in range(100)]
    assert len(odd_games(SPEC, rows)) == MAX_ODD_GAMES


def test_figures_do_not_depend_on_row_order() -> None:
    rows = planted()
    assert lab_figures(SPEC, rows) == lab_figures(SPEC, {arm: list(reversed(r)) for arm, r in rows.items()})
