"""The replay page's analysis: the view data made from a stored result (real analyses of tiny
finished games, real deductions of short games of each title), and the page over HTTP: the
Analyse form, marks, words, graph, deduction panel, the reveal, bad parameters, a running table."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient  # noqa: E402

from server.conftest import config_for  # noqa: E402
from server.test_analysis_jobs import TINY, analysis_done, finished_table, running_table, wait_for  # noqa: E402
from server.wire import BROWSER  # noqa: E402
from shadowtable.analysis import AnalysisSettings  # noqa: E402
from shadowtable.analysis.calibration import calibration_words  # noqa: E402
from shadowtable.bots.registry import make_bot  # noqa: E402
from shadowtable.core.registry import make  # noqa: E402
from shadowtable.core.runner import play_game  # noqa: E402
from shadowtable.server import analysis_work as work  # noqa: E402
from shadowtable.server.app import create_app  # noqa: E402
from shadowtable.web import replay_analysis as view  # noqa: E402
from web.driver import squeeze, text_of  # noqa: E402

NAMES = ["Ada", "Brook", "Cy"]
SETTINGS = AnalysisSettings(seat=None, rollouts=8, policy="random")


def stored_result(seed: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """A tiny two-seat game of random bots and its stored analysis result, made as a worker makes it."""
    game = make("tiny-showdown", players=2)
    record = play_game(game, [make_bot("random"), make_bot("random")], seed).to_json()
    pieces = [work.analyse_seat(record, SETTINGS, seat) for seat in range(2)]
    return record, work.result(work.merged(SETTINGS, pieces), "tiny-showdown", {})


def labelled_result() -> tuple[dict[str, Any], dict[str, Any]]:
    """The first seeded tiny game whose analysis labels at least one decision."""
    for seed in range(40):
        record, result = stored_result(seed)
        if any(d["label"] for d in result["analysis"]["decisions"]):
            return record, result
    raise AssertionError("no labelled decision in 40 tiny games")


def test_marks_words_graph_and_accuracy_come_from_the_stored_decisions() -> None:
    record, result = labelled_result()
    decisions = result["analysis"]["decisions"]
    last = len(record["actions"])
    labelled = [d for d in decisions if d["label"]]
    marks = view.timeline_marks(result, NAMES)
    assert [(m.step, m.seat, m.label) for m in marks] == [(d["ply"], d["seat"], d["label"]) for d in labelled]
    for m, d in zip(marks, labelled, strict=True):
        assert m.symbol == {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}[d["label"]]
        assert m.name == NAMES[d["seat"]] and m.lost == round(100 * d["lost"])
    assert all(m.seat == 0 for m in view.timeline_marks(result, NAMES, seat=0))
    # the decision at its step, in words, for its own seat and for a spectator
    first = labelled[0]
    mine = view.shown_decisions(result, NAMES, first["ply"], first["seat"])
    assert len(mine) == 1 and mine[0].label == first["label"]
    before, after = round(100 * first["chance_before"]), round(100 * first["chance_after"])
    assert mine[0].words == (
        f"Choosing “{first['text']}” cut your chance of winning from {before}% to {after}%; "
        f"“{first['best']['text']}” would have kept it at {round(100 * first['best']['chance'])}%."
    )
    assert [c.text for c in mine[0].choices] == [a["text"] for a in first["alternatives"]]
    assert [c.chosen for c in mine[0].choices] == [a["action"] == first["action"] for a in first["alternatives"]]
    watched = view.shown_decisions(result, NAMES, first["ply"], None)
    assert watched[0].words.startswith(f"Choosing “{first['text']}” cut {NAMES[first['seat']]}'s chance")
    other = 1 - first["seat"]
    assert view.shown_decisions(result, NAMES, first["ply"], other) == []
    # the graph: two points per decision of each seat (before, after), inside the plot
    graph = view.chance_graph(result, NAMES, last, first["ply"])
    assert graph is not None and graph.cursor == view.x_of(first["ply"], last)
    for series in graph.series:
        own = [d for d in decisions if d["seat"] == series.seat]
        assert len(series.points.split()) == 2 * len(own)
        assert [p.chance for p in series.dots] == [d["chance_after"] for d in own]
        assert all(graph.top <= p.y <= graph.bottom and graph.left <= p.x <= graph.right for p in series.dots)
        assert len(series.marks) == sum(1 for d in own if d["label"])
    assert len({s.dash for s in graph.series}) == len(graph.series), "seats differ by line pattern, not colour only"
    seen_from = view.chance_graph(result, NAMES, last, None, seat=0)
    assert seen_from is not None and [s.viewer for s in seen_from.series] == [False, True], "the viewer's line last"
    rows = view.chance_rows(result, NAMES)
    assert [(r.step, r.name) for r in rows] == [(d["ply"], NAMES[d["seat"]]) for d in decisions]
    accuracy = view.accuracy_rows(result, NAMES)
    assert [(a.seat, a.accuracy, a.blunders) for a in accuracy] == [
        (s["seat"], f"{s['accuracy']:.0f}", s["blunders"]) for s in result["analysis"]["seats"]
    ]
    # stepping between a seat's decisions
    steps = view.decision_steps(result, 0)
    assert steps == sorted(d["ply"] for d in decisions if d["seat"] == 0)
    assert view.neighbours(steps, steps[0]) == (None, steps[1] if len(steps) > 1 else None)


def test_optional_fields_of_later_analyses_are_read_with_defaults() -> None:
    _record, result = stored_result(1)
    assert not view.is_partial(result)
    decisions = result["analysis"]["decisions"]
    decisions[0] |= {"samples": 3, "noise": 0.12, "cut_short": True, "raw_chance": 0.4}
    decisions[1] |= {"unanalysed": True, "label": "blunder"}
    result["analysis"]["complete"] = False
    assert view.is_partial(result)
    shown = view.shown_decisions(result, NAMES, decisions[0]["ply"], decisions[0]["seat"])[0]
    assert "3 sampled deals per choice" in shown.notes and "about ±12 points of sampling noise" in shown.notes
    assert "cut short: partly analysed" in shown.notes
    assert shown.rough.startswith("A rough estimate: only 3 sampled deals per choice")
    assert view.shown_decisions(result, NAMES, decisions[2]["ply"], None)[0].rough == "", "8 samples are not rough"
    assert decisions[1]["ply"] not in [m.step for m in view.timeline_marks(result, NAMES)]
    assert "not analysed" in view.shown_decisions(result, NAMES, decisions[1]["ply"], None)[0].words
    # a result with nothing in it
    empty = view.analysis_view({"status": "done"}, {"format": "x"}, NAMES, 0, 0, 5)
    assert empty["ready"] and empty["graph"] is None and empty["marks"] == [] and empty["accuracy"] == []
    waiting = view.analysis_view({"status": "running", "progress": 0.25}, None, NAMES, 0, 0, 5)
    assert not waiting["ready"] and waiting["words"] == "Analysing… 25% done."


def deduced(game_id: str, steps: list[int]) -> tuple[Any, dict[str, Any]]:
    game = make(game_id, players=3)
    record = play_game(game, [make_bot("heuristic")] * 3, 3, max_steps=max(steps) + 1).to_json()
    entries = work.deduce_seat(record, 0, steps)
    empty = {"decisions": [], "seats": []}
    return game, work.result(empty, game_id, {0: entries})


def test_the_shadow_planet_panel_gives_each_other_seats_objective_chances() -> None:
    game, result = deduced("shadow-planet", [20, 50])
    names = view.objective_names_of("shadow-planet", game)
    assert len(names) == 5 and "Alien" in names
    assert view.deduction_panel(result, 0, 19, NAMES, names) is None, "nothing before the first belief"
    assert view.deduction_panel(result, None, 50, NAMES, names) is None, "a spectator has no panel"
    panel = view.deduction_panel(result, 0, 49, NAMES, names)
    assert panel is not None and panel.step == 20 and panel.columns == names
    belief = result["deduction"]["seats"]["0"][0]["belief"]["objectives"]
    assert [name for name, _ in panel.rows] == ["Brook", "Cy"]
    assert [cells for _, cells in panel.rows] == [[view.percent(p) for p in belief[s]] for s in (1, 2)]
    assert view.deduction_panel(result, 0, 80, NAMES, names).step == 50  # type: ignore[union-attr]


def test_the_shadowlord_panel_gives_the_worth_of_each_opponents_hidden_cards() -> None:
    _game, result = deduced("shadowlord", [40])
    panel = view.deduction_panel(result, 0, 40, NAMES)
    assert panel is not None and panel.columns == ["Hidden cards", "Expected worth", "Likeliest totals"]
    opponents = result["deduction"]["seats"]["0"][0]["belief"]["opponents"]
    assert [name for name, _ in panel.rows] == [NAMES[o["seat"]] for o in opponents]
    for (_, cells), o in zip(panel.rows, opponents, strict=True):
        assert cells[0] == str(o["hidden_cards"]) and cells[1] == f"{o['expected_total']:.1f}"
        top = min(o["total_distribution"], key=lambda tp: (-tp[1], tp[0]))  # the likeliest (ties: the least)
        assert cells[2].startswith(f"{top[0]} (")


def test_rough_decisions_are_not_judged_nor_drawn_and_the_costliest_mark_is_named() -> None:
    _record, result = stored_result(1)
    decisions = result["analysis"]["decisions"]
    rough = decisions[0]
    rough |= {"samples": 1, "chance_before": 1.0, "chance_after": 0.0, "lost": 1.0, "label": None}
    rough["best"] = {**rough["best"], "action": -1, "chance": 1.0, "text": "the other"}
    words = view.decision_words(rough, "your")
    assert "could not be judged" in words and "cut" not in words
    assert "left your chance of winning at 0%, against 100% for “the other”" in words
    graph = view.chance_graph(result, NAMES, 20)
    assert graph is not None
    drawn = sum(len(s.points.split()) for s in graph.series)
    assert drawn == 2 * (len(decisions) - 1), "the rough decision is left out of the lines"
    assert [r.step for r in view.chance_rows(result, NAMES)].count(rough["ply"]) >= 1, "but kept in the table"
    decisions[1] |= {"label": "mistake", "lost": 0.12, "seat": 0}
    decisions[2] |= {"label": "blunder", "lost": 0.30, "seat": 0}
    costliest = view.costliest_mark(result, NAMES, 0)
    assert costliest is not None and (costliest.step, costliest.label, costliest.lost) == (
        decisions[2]["ply"],
        "blunder",
        30,
    )
    assert view.analysis_view({"status": "done"}, result, NAMES, None, 0, 20)["costliest"] is None


def test_an_unfinished_deduction_is_called_partly_analysed() -> None:
    game = make("shadowlord", players=3)
    record = play_game(game, [make_bot("heuristic")] * 3, 3, max_steps=60).to_json()
    steps = work.belief_steps(work.decision_steps(record)[0], len(record["actions"]))
    whole = work.deduce_seat(record, 0, steps)
    cut = work.SeatDeduction(whole.entries[:2], len(steps) - 2)
    empty = {"decisions": [], "seats": []}
    finished = work.result(empty, "shadowlord", {0: whole})
    stopped = work.result(empty, "shadowlord", {0: cut, 1: work.SeatDeduction([], 0)})
    assert not view.is_partial(finished) and view.partial_words(finished) == ""
    assert view.is_partial(stopped) and stopped["deduction"]["complete"] is False
    assert view.partial_words(stopped) == (
        "The analysis's time ran out: the deduction stops before the end of the game,"
        " so some figures are rougher or missing."
    )
    last = cut.entries[-1]["step"]
    assert view.deduction_panel(stopped, 0, last, NAMES).partial == "", "up to where it stopped it is whole"  # type: ignore[union-attr]
    later = view.deduction_panel(stopped, 0, last + 5, NAMES)
    assert later is not None and later.step == last
    assert later.partial.startswith(f"Partly analysed: the analysis's time ran out at step {last}")
    assert view.deduction_panel(stopped, 1, last + 5, NAMES) is None
    assert view.deduction_panel(finished, 0, last + 5, NAMES).partial == ""  # type: ignore[union-attr]
    nothing = work.result(empty, "shadowlord", {0: work.SeatDeduction([], len(steps))})
    shown = view.analysis_view({"status": "done"}, nothing, NAMES, 0, 5, 60)
    assert shown["deduction"] is None and shown["deduction_partial"].startswith("Partly analysed")
    assert shown["words"] == "Analysed in part (below: what was left out)."  # not "Analysed." above it
    assert view.analysis_view({"status": "done"}, finished, NAMES, 0, 5, 60)["words"] == "Analysed."


# -- over HTTP ----------------------------------------------------------------------------------------
@pytest.fixture
def served(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(config_for(f"sqlite:///{tmp_path / 'replay.db'}", **{**TINY, "analysis_rollouts": 8}))
    with TestClient(app, base_url="http://testserver", headers=BROWSER) as client:
        yield client


def test_the_replay_page_asks_for_the_analysis_and_shows_it(served: TestClient) -> None:
    table_id = finished_table(served)
    page = served.get(f"/replay/{table_id}", params={"seat": "0"})
    assert page.status_code == 200 and 'id="analyse"' in page.text and "Not analysed yet." in page.text
    asked = served.post(f"/replay/{table_id}/analyse", data={"seat": "0", "step": "3"}, follow_redirects=False)
    assert asked.status_code == 303 and asked.headers["location"] == f"/replay/{table_id}?seat=0&step=3#analysis"
    result = analysis_done(served, table_id)["result"]
    decisions = result["analysis"]["decisions"]
    mine = next(d for d in decisions if d["seat"] == 0)
    page = served.get(f"/replay/{table_id}", params={"seat": "0", "step": str(mine["ply"])})
    text = text_of(page.text)
    assert 'id="analyse"' not in page.text and "Analysed." in text
    assert squeeze(view.decision_words(mine, "your")) in text
    assert '<svg viewBox="0 0 640 220" role="img" aria-labelledby="graph-t graph-d">' in page.text
    assert '<title id="graph-t">' in page.text and '<desc id="graph-d">' in page.text
    assert page.text.count('data-graph-seat="') == 2 and 'class="board chance-table"' in page.text
    for seat in result["analysis"]["seats"]:
        assert f'data-accuracy-seat="{seat["seat"]}"' in page.text
    for mark in view.timeline_marks(result, ["x", "y"], 0):
        assert f"Step{mark.step}:" in text and f"{mark.symbol}{mark.label}" in text
    assert "Thisgamehasnodeductionmodel." in text
    played = result["analysis"]
    said = calibration_words(played["game"], played["players"], played["settings"]["policy"])
    assert "not yet checked" in said and squeeze(said) in text
    # a spectator sees every seat's decisions, named
    watched = text_of(served.get(f"/replay/{table_id}", params={"step": str(mine["ply"])}).text)
    assert "Chooseaseatabovetoseewhatitcoulddeduce" in watched
    assert re.search(rf"Choosing“{re.escape(mine['text'])}”(kept|cut)\S+'schance", watched)


def test_the_reveal_shows_every_seat_and_says_what_it_cannot(served: TestClient) -> None:
    table_id = finished_table(served)
    plain = served.get(f"/replay/{table_id}", params={"seat": "0", "step": "2"})
    assert (
        "data-reveal-view" not in plain.text
        and f'href="/replay/{table_id}?seat=0&amp;step=2&amp;reveal=1"' in plain.text
    )
    shown = served.get(f"/replay/{table_id}", params={"seat": "0", "step": "2", "reveal": "1"})
    assert shown.status_code == 200
    assert re.findall(r'data-reveal-view="(\d)"', shown.text) == ["0", "1"]
    assert "cards nobody had seen yet, such as the order of the decks" in shown.text
    assert f'/replay/{table_id}?seat=0&amp;step=3&amp;reveal=1"' in shown.text, "stepping keeps the reveal"
    assert f'value="/replay/{table_id}?seat=0&amp;step=2&amp;reveal=1"' in shown.text, "the shared link carries it"


@pytest.mark.parametrize(
    ("params", "words"),
    [
        ({"reveal": "yes"}, "reveal: 1"),
        ({"reveal": "2"}, "reveal: 1"),
        ({"seat": "7"}, "seat: a number"),
        ({"step": "-1"}, "step: a number"),
        ({"step": "99999"}, "step: a number"),
    ],
)
def test_bad_replay_parameters_are_400(served: TestClient, params: dict[str, str], words: str) -> None:
    table_id = finished_table(served)
    answer = served.get(f"/replay/{table_id}", params=params)
    assert answer.status_code == 400 and f"error: {words}" in answer.text


def test_a_running_table_has_no_replay_reveal_or_analysis(served: TestClient) -> None:
    table_id = running_table(served)
    served.cookies.clear()  # a spectator
    for params in ({}, {"reveal": "1"}, {"seat": "1", "reveal": "1"}):
        answer = served.get(f"/replay/{table_id}", params=params)
        assert answer.status_code == 409 and "once the game is over" in answer.text
        assert "data-reveal-view" not in answer.text and "Analyse this game" not in answer.text
    assert served.post(f"/replay/{table_id}/analyse", data={"step": "0"}).status_code == 409
    assert served.get(f"/api/tables/{table_id}/analysis").status_code == 409
    assert served.post(f"/api/tables/{table_id}/analysis").status_code == 409
    table = served.get(f"/t/{table_id}")
    assert 'id="end-banner" class="card end-banner" hidden' in table.text


def test_the_analysis_says_how_far_its_chances_were_checked() -> None:
    _, result = stored_result(3)
    checked = {**result, "analysis": {**result["analysis"], "game": "shadow-planet", "players": 4}}
    checked["analysis"]["settings"] = {**checked["analysis"]["settings"], "policy": "heuristic"}
    words = view.analysis_view({"status": "done"}, checked, NAMES, 0, 0, 5)["calibration"]
    assert words.startswith("Checked on 500 bot games kept apart")
    raw = view.analysis_view({"status": "done"}, result, NAMES, 0, 0, 5)["calibration"]
    assert "not yet checked against real results with games played out by the random bot" in raw


def test_decisions_too_rough_to_mark_are_counted_and_no_accuracy_rests_on_them() -> None:
    _record, result = stored_result(1)
    seats = result["analysis"]["seats"]
    assert view.unmarked_words(result, NAMES, 0) == "No inaccuracy, mistake or blunder."
    assert view.judged_note(result, NAMES, 0) == "" and view.judged_note(result, NAMES, None) == ""
    full = view.accuracy_rows(result, NAMES)
    assert [a.judged for a in full] == [a.decisions for a in full] == [s["decisions"] for s in seats]
    mine = [d for d in result["analysis"]["decisions"] if d["seat"] == 0]
    for d in mine:  # every decision of seat 0 cut short at 2 samples, and 3 more left out
        d["samples"] = 2
    seats[0]["unanalysed"] = 3
    total = len(mine) + 3
    rows = view.accuracy_rows(result, NAMES)
    assert (rows[0].judged, rows[0].decisions, rows[0].accuracy) == (0, total, "—")
    assert rows[1].accuracy == f"{seats[1]['accuracy']:.0f}" and rows[1].judged == rows[1].decisions
    assert view.unmarked_words(result, NAMES, 0) == "Nothing is marked: no decision could be judged."
    assert view.judged_note(result, NAMES, 0).startswith(f"0 of Ada's {total} decisions could be judged: ")
    mine[0]["samples"] = 5  # put in words as an estimate, but too few samples to be marked: not judged
    assert view.accuracy_rows(result, NAMES)[0].judged == 0 and not view.is_rough(mine[0])
    mine[0]["samples"] = 8  # one judged: the list says "among those judged", the accuracy stays out
    assert view.unmarked_words(result, NAMES, 0) == "No inaccuracy, mistake or blunder among the decisions judged."
    assert view.accuracy_rows(result, NAMES)[0].accuracy == "—"
    everyone = rows[1].decisions + total
    assert view.judged_note(result, NAMES, None).startswith(f"{rows[1].decisions + 1} of the {everyone} decisions")


def test_a_decisions_choices_name_the_seats_they_mention() -> None:
    _record, result = stored_result(1)
    d = result["analysis"]["decisions"][0]
    d["text"] = "make offer to seat 1"
    d["alternatives"][0]["text"] = "make offer to seat 1"
    d["best"] = {**d["alternatives"][-1], "text": "target seat 0"}
    shown = view.shown_decisions(result, NAMES, d["ply"], None)[0]
    assert shown.choices[0].text == "make offer to Brook" and "seat 1" not in shown.words
    assert "“make offer to Brook”" in shown.words


def test_a_decision_where_only_some_choices_were_compared_says_so() -> None:
    """Where the analysis compared 2 of a decision's 5 choices, its best is the best of those:
    the words say so, and the notes say how many were compared and which."""
    _record, result = stored_result(1)
    decision = result["analysis"]["decisions"][0]
    kept = [a for a in decision["alternatives"] if a["action"] == decision["action"]]
    decision |= {"alternatives": kept, "best": kept[0], "chance_before": kept[0]["chance"], "choices": 5}
    shown = view.shown_decisions(result, NAMES, decision["ply"], decision["seat"])[0]
    assert shown.words.endswith("(the best of the choices compared).")
    assert (
        "1 of its 5 choices compared: the one made, the one the analysis's bot would make, and others drawn at random"
        in shown.notes
    )
    decision["choices"] = 1
    shown = view.shown_decisions(result, NAMES, decision["ply"], decision["seat"])[0]
    assert shown.words.endswith("(the best choice).") and not any("compared" in note for note in shown.notes)


def test_a_shadowlord_analysis_cuts_its_rollouts_off_and_the_page_says_how(tmp_path: Path) -> None:
    """Shadowlord!'s rollouts to the end are long: the server's analysis plays each choice 60 steps
    on and scores the material, comparing at most 4 choices, and the page says so."""
    config = config_for(f"sqlite:///{tmp_path / 'sl.db'}", **TINY)
    with TestClient(create_app(config), base_url="http://testserver", headers=BROWSER) as client:
        seats = ["bot:random", "bot:random"]
        made = client.post(
            "/api/tables", json={"game": "shadowlord", "players": 2, "seats": seats, "options": {"turn_cap": 4}}
        )
        assert made.status_code == 201, made.text
        table_id = made.json()["table"]["id"]
        wait_for(lambda: client.get(f"/api/tables/{table_id}").json()["status"] == "over", 20)
        asked = client.post(f"/replay/{table_id}/analyse", data={"seat": "0", "step": "0"}, follow_redirects=False)
        assert asked.status_code == 303
        analysis = analysis_done(client, table_id, 120)["result"]["analysis"]
        assert (analysis["settings"]["horizon"], analysis["settings"]["most_choices"]) == (60, 4)
        assert analysis["variant"] == "turn_cap-4-cut-60"
        assert analysis["decisions"] and all(len(d["alternatives"]) <= 4 for d in analysis["decisions"])
        text = text_of(client.get(f"/replay/{table_id}", params={"seat": "0"}).text)
    assert (
        squeeze("by playing each choice on for 60 steps many times, with every seat played by the random bot") in text
    )
    assert squeeze("by each seat's share of what it holds on the table") in text


def test_a_choice_as_good_as_the_best_to_the_percent_is_not_said_to_cut_the_chance() -> None:
    """The page said "cut your chance of winning from 49% to 49%" where the best was 0.4 points better."""
    _record, result = stored_result(1)
    decision = result["analysis"]["decisions"][0]
    best = {"action": decision["action"] + 1, "text": "another", "chance": 0.492}
    decision |= {"chance_after": 0.488, "chance_before": 0.492, "best": best, "noise": 0.004}
    shown = view.shown_decisions(result, NAMES, decision["ply"], decision["seat"])[0]
    assert shown.words.endswith("kept your chance of winning at 49% (as good as the best choice, to the percent).")
    assert "under 1 point of sampling noise" in shown.notes
    decision["chance_after"] = 0.47
    shown = view.shown_decisions(result, NAMES, decision["ply"], decision["seat"])[0]
    assert "cut your chance of winning from 49% to 47%" in shown.words
