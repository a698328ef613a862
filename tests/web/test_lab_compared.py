"""The run page's comparison table says whether a probe's restriction ever applied, and the page
names seats and endings one way throughout."""

from __future__ import annotations

from typing import Any

from shadowtable.lab.figures import lab_figures
from shadowtable.lab.run import play_rows
from shadowtable.lab.spec import check_spec
from shadowtable.web.lab_form import game_form
from shadowtable.web.lab_plots import comparison_rows, figure_view, role_words

PROBE = {"arm": 1, "label": "baseline, alien: never move", "role": "alien", "baseline": 0.3, "rate": 0.3}


def test_a_probe_that_never_applied_says_so_and_one_that_did_counts_its_decisions() -> None:
    labels = ["baseline", "baseline, alien: never move"]
    never = comparison_rows({"probes": [{**PROBE, "restricted_decisions": 0, "restricted_games": 0}]}, labels)
    applied = comparison_rows({"probes": [{**PROBE, "restricted_decisions": 12, "restricted_games": 5}]}, labels)
    assert "never applied" in never[0][0]
    assert "changed 12 decisions in 5 games" in applied[0][0]


def _figures() -> dict[str, Any]:
    """A small Shadowlord! run: a variant with a turn limit short enough to end games, and a probe on seat 0."""
    spec = check_spec(
        {
            "game": "shadowlord",
            "players": 2,
            "variants": [{"name": "baseline", "options": {}}, {"name": "seat 0 short", "options": {"turn_cap": 3}}],
            "bots": ["level0"],
            "games": 3,
            "seed": 5,
            "probes": [{"role": "seat 0", "kind": "propose a Truce"}],
        }
    )
    rows = {arm: play_rows(spec.to_json(), arm, 0, spec.games) for arm in range(3)}
    return lab_figures(spec, rows)


def test_the_run_page_counts_seats_from_1_everywhere_and_names_how_games_ended() -> None:
    """The bot menus and the seat chart said "seat 1" and "seat 2", the comparison table and the
    probe "seat 0" and "seat 1" for the same seats; the endings were codes ("truncated")."""
    view = figure_view(_figures())
    assert view["labels"] == ["baseline", "seat 0 short", "baseline, seat 1: never propose a Truce"]
    compared = {(row[0].split(" (")[0], row[1]) for row in view["compared"]}
    assert compared == {
        ("seat 0 short", "seat 1"),  # a variant's own name is kept as it was typed
        ("seat 0 short", "seat 2"),
        ("baseline, seat 1: never propose a Truce", "seat 1"),
    }
    seats = {row[0] for chart in view["charts"] for row in chart.rows}
    assert seats == {"seat 1", "seat 2"}
    endings = {(arm, end) for arm, end, *_ in view["endings"]}
    assert ("seat 0 short", "the turn limit: nobody wins (truncated)") in endings
    assert all(" (" in end for _, end in endings), endings


def test_the_probe_form_offers_seats_counted_from_1_and_sends_the_runs_own_names() -> None:
    form = game_form("shadowlord", 2)
    assert ("seat 0", "seat 1") in form.roles and ("seat 1", "seat 2") in form.roles
    assert role_words("alien") == "alien" and role_words("seat 3") == "seat 4"
