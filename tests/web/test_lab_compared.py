"""The run page's comparison table says whether a probe's restriction ever applied."""

from __future__ import annotations

from shadowtable.web.lab_plots import comparison_rows

PROBE = {"label": "baseline, alien: never move", "role": "alien", "baseline": 0.3, "rate": 0.3, "difference": 0.0}


def test_a_probe_that_never_applied_says_so_and_one_that_did_counts_its_decisions() -> None:
    never = comparison_rows({"probes": [{**PROBE, "restricted_decisions": 0, "restricted_games": 0}]})
    applied = comparison_rows({"probes": [{**PROBE, "restricted_decisions": 12, "restricted_games": 5}]})
    assert "never applied" in never[0][0]
    assert "changed 12 decisions in 5 games" in applied[0][0]
