"""The lobby offers a level above 1 only where the ladder's results show it stronger than the one below."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from shadowtable.bots import ladder
from shadowtable.core.registry import game_class
from shadowtable.server.bot_levels import has_numpy, levels_for
from shadowtable.web.forms import BOT_LEVELS, rating_words

GAMES = ("shadow-planet", "shadowlord")


def _result(
    folder: Path, config: str, upper: str, lower: str, up: list[float], low: list[float], s: float, spec: str = ""
) -> None:
    game = "shadow-planet" if config.startswith("shadow-planet") else "shadowlord"
    spec = spec or ladder.LADDER[upper].spec_for(game)
    data = {
        "upper": {"level": upper, "spec": spec, "interval": up, "median_decision_s": s},
        "lower": {"level": lower, "interval": low},
        "separated": up[0] > low[1],
    }
    ladder.result_path(folder, config, upper, lower).write_text(json.dumps(data), encoding="utf-8")


@pytest.fixture
def results(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, set[str]]:
    """A tiny fake results folder; the levels above 1 it shows, by configuration."""
    folder = _empty_results(tmp_path, monkeypatch)
    _result(folder, "shadow-planet-3p", "ismcts", "heuristic", [0.5, 0.7], [0.2, 0.4], 0.42)  # separated
    _result(folder, "shadow-planet-4p", "ismcts", "heuristic", [0.3, 0.5], [0.25, 0.4], 0.5)  # overlapping
    _result(folder, "shadow-planet-4p", "policy", "heuristic", [0.42, 0.48], [0.33, 0.36], 0.003)  # separated
    _result(folder, "shadowlord-2p-modified", "ismcts", "heuristic", [0.6, 0.9], [0.1, 0.4], 0.8)  # options set
    stale = "ismcts:rollout=heuristic:prior=heuristic:iterations=48:time=2.000"  # before Shadowlord!'s width
    _result(folder, "shadowlord-4p", "ismcts", "heuristic", [0.6, 0.9], [0.1, 0.4], 0.8, spec=stale)  # separated, stale
    (folder / "shadowlord-3p-ismcts-vs-heuristic.json").write_text("{not json", encoding="utf-8")
    return {"shadow-planet-3p": {"ismcts"}, "shadow-planet-4p": {"policy"} if has_numpy() else set()}


def _offered(client: Any, game: str, players: int) -> tuple[set[str], str]:
    page = client.get("/lobby/setup", params={"game": game, "players": str(players)})
    assert page.status_code == 200
    return set(re.findall(r'value="bot:([a-z]+)"', page.text)), page.text


def test_the_lobby_offers_exactly_the_levels_whose_results_separate(client: Any, results: dict[str, set[str]]) -> None:
    for game in GAMES:
        spec = game_class(game).SPEC
        for players in range(spec.min_players, spec.max_players + 1):
            offered, text = _offered(client, game, players)
            playable = set(levels_for(game, players))
            expected = {"random", "heuristic"} | results.get(f"{game}-{players}p", set())
            assert offered == expected & playable, (game, players)
            if "ismcts" in offered:
                assert "typically 0.42 s a move" in text
    offered, _ = _offered(client, "shadowlord", 2)
    assert "ismcts" not in offered  # shown only with the modified option, which the lobby's default is not


def levels_panel(text: str) -> tuple[list[str], str]:
    """The lines of the form's "About the bot levels" panel, and its note on levels not offered."""
    found = re.search(r'<details class="levels">(.*?)</details>', text, re.S)
    assert found is not None, "no panel about the bot levels"
    items = [" ".join(item.split()) for item in re.findall(r"<li>(.*?)</li>", found.group(1), re.S)]
    hints = [" ".join(hint.split()) for hint in re.findall(r'<p class="hint">(.*?)</p>', found.group(1), re.S)]
    return items, next((hint for hint in hints if hint.startswith("Not offered here")), "")


def test_the_form_explains_each_offered_level_and_names_those_not_offered(
    client: Any, results: dict[str, set[str]]
) -> None:
    _, text = _offered(client, "shadow-planet", 3)  # level 2 separates here (the results fixture)
    items, note = levels_panel(text)
    assert len(items) == 3 and items[2].startswith(BOT_LEVELS["ismcts"]) and "typically 0.42 s a move" in items[2]
    assert items[0].startswith(BOT_LEVELS["random"]) and BOT_LEVELS["ismcts"] not in note
    if has_numpy():  # a policy ships for 3 players, but this folder has no result for it
        assert note.startswith("Not offered here: " + BOT_LEVELS["policy"]) and "not been shown yet" in note
    _, text = _offered(client, "shadow-planet", 5)  # no result: level 2 plays here but is not offered
    items, note = levels_panel(text)
    assert [item.split(":")[0] for item in items] == [
        BOT_LEVELS["random"].split(":")[0],
        BOT_LEVELS["heuristic"].split(":")[0],
    ]
    assert note.startswith("Not offered here: " + BOT_LEVELS["ismcts"]) and "not been shown yet" in note


def test_without_results_the_lobby_offers_levels_0_and_1_only(
    client: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(ladder.RESULTS_ENV, str(tmp_path / "none"))
    offered, _ = _offered(client, "shadow-planet", 4)
    assert offered == {"random", "heuristic"}
    form = {"game": "shadow-planet", "players": "4", "name": "Ada", "seat_2": "human", "seat_3": "human"}
    made = client.post("/tables", data={**form, "seat_1": "bot:heuristic"}, follow_redirects=False)
    assert made.status_code == 303
    refused = client.post("/tables", data={**form, "seat_1": "bot:ismcts"}, follow_redirects=False)
    assert refused.status_code != 303 and "is not offered for this game and player count" in refused.text
    unknown = client.post("/tables", data={**form, "seat_1": "bot:nope"}, follow_redirects=False)
    assert unknown.status_code != 303 and "expected human or one of the bots" in unknown.text


def _ratings(
    folder: Path,
    config: str,
    levels: dict[str, tuple[float, float, float | None]],
    seat_games: int | dict[str, int] = 300,
) -> None:
    """A rated ladder result: each level's mu, sigma and median seconds per decision (``seat_games``:
    every level's, or each level's by name)."""
    ordinals = {name: mu - 3 * sigma for name, (mu, sigma, _) in levels.items()}
    order = sorted(ordinals, key=lambda name: -ordinals[name])
    data = {
        "format": ladder.RATINGS_FORMAT,
        "config": config,
        "ratings": {
            name: {
                "mu": mu,
                "sigma": sigma,
                "ordinal": ordinals[name],
                "rank": order.index(name) + 1,
                "median_decision_s": seconds,
                "seat_games": seat_games if isinstance(seat_games, int) else seat_games[name],
            }
            for name, (mu, sigma, seconds) in levels.items()
        },
    }
    ladder.ratings_path(folder, config).write_text(json.dumps(data), encoding="utf-8")


def _option(text: str, level: str) -> str:
    found = re.search(rf'<option value="bot:{level}"[^>]*>([^<]*)</option>', text)
    assert found is not None, level
    return found.group(1)


def _empty_results(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty results folder the server reads from."""
    folder = tmp_path / "ladder"
    folder.mkdir()
    monkeypatch.setenv(ladder.RESULTS_ENV, str(folder))
    return folder


def test_the_lobby_shows_ratings_and_times_only_from_the_results_files(
    client: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = _empty_results(tmp_path, monkeypatch)
    _ratings(folder, "shadow-planet-3p", {"random": (18.25, 1.5, 0.00002), "heuristic": (31.5, 1.25, 0.0003)})
    _ratings(folder, "shadowlord-3p", {"random": (40.0, 1.0, 0.5)})  # another configuration's file
    (folder / "ratings-shadow-planet-5p.json").write_text("{not json", encoding="utf-8")
    _, text = _offered(client, "shadow-planet", 3)
    heuristic = _option(text, "heuristic")
    assert heuristic.endswith("(typically under 0.01 s a move; rated 31.5 (conservatively 27.8), rank 1 of 2)")
    assert "rated 18.2 (conservatively 13.8), rank 2 of 2" in _option(text, "random")
    _, text = _offered(client, "shadow-planet", 4)  # no ratings file: no rating, no time for level 0
    assert "rated" not in text and "typically" not in _option(text, "random")
    _, text = _offered(client, "shadow-planet", 5)  # an unreadable file: nothing
    assert "rated" not in text
    _, text = _offered(client, "shadowlord", 3)
    assert "rated 40.0" in _option(text, "random") and "rated" not in _option(text, "heuristic")


def test_a_rating_from_too_few_games_is_shown_with_its_uncertainty_and_not_ranked(
    client: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = _empty_results(tmp_path, monkeypatch)
    games = {"random": 3, "heuristic": 300}
    _ratings(folder, "shadow-planet-4p", {"random": (29.3, 7.08, None), "heuristic": (45.2, 2.28, None)}, games)
    _, text = _offered(client, "shadow-planet", 4)
    assert _option(text, "random").endswith("(rated 29.3 ± 7.1 from 3 games, too few to rank)")
    assert "rank 1" not in _option(text, "random") and "conservatively" not in _option(text, "random")
    assert _option(text, "heuristic").endswith("(rated 45.2 (conservatively 38.4), rank 1 of 1)")


def test_a_table_with_options_seats_only_the_levels_shown_stronger_with_those_options(
    client: Any, results: dict[str, set[str]]
) -> None:
    form = {"game": "shadowlord", "players": "2", "name": "Ada", "seat_1": "bot:ismcts"}
    modified = client.post("/tables", data={**form, "opt_modified": "yes"}, follow_redirects=False)
    assert modified.status_code == 303  # level 2 is shown stronger in the modified game
    standard = client.post("/tables", data=form, follow_redirects=False)
    assert standard.status_code != 303 and "is not offered for this game and player count" in standard.text
    standard = client.post("/tables", data={**form, "opt_modified": "no"}, follow_redirects=False)
    assert standard.status_code != 303 and "is not offered for this game and player count" in standard.text


def test_a_level_shown_stronger_only_without_the_options_asked_for_is_refused_in_words(
    client: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = _empty_results(tmp_path, monkeypatch)
    _result(folder, "shadowlord-2p", "ismcts", "heuristic", [0.6, 0.9], [0.1, 0.4], 0.8)  # the standard game only
    form = {"game": "shadowlord", "players": "2", "name": "Ada", "seat_1": "bot:ismcts"}
    assert client.post("/tables", data=form, follow_redirects=False).status_code == 303
    refused = client.post("/tables", data={**form, "opt_modified": "yes"}, follow_redirects=False)
    assert refused.status_code != 303
    assert "is not offered with these options" in refused.text and "ISMCTS" in refused.text
    assert client.post("/tables", data={**form, "opt_modified": "yes", "seat_1": "bot:heuristic"}).status_code == 200


def test_only_ratings_of_comparable_certainty_are_ranked_against_each_other(tmp_path: Path) -> None:
    levels = {"random": (3.2, 4.84, None), "heuristic": (43.0, 4.81, None), "ismcts": (35.7, 7.65, 0.4)}
    _ratings(tmp_path, "shadowlord-2p", levels, {"random": 184, "heuristic": 184, "ismcts": 4})
    random_level, heuristic, search = (ladder.level_rating(n, "shadowlord-2p", tmp_path) for n in levels)
    assert heuristic is not None and random_level is not None and search is not None
    assert (heuristic.settled, heuristic.rank, heuristic.rated) == (True, 1, 2)  # a sigma near 5 ranks beside its peers
    assert (random_level.settled, random_level.rank) == (True, 2)
    assert not search.settled and search.rank == 0  # its ordinal (12.7) would put it below levels it beat
    assert rating_words(search) == "rated 35.7 ± 7.7 from 4 games, too few to rank"


def test_a_level_that_loses_nearly_every_game_is_ranked_when_it_played_as_many(tmp_path: Path) -> None:
    levels = {"policy": (41.2, 3.0, None), "heuristic": (30.5, 2.96, None), "random": (0.1, 4.64, None)}
    levels["ismcts"] = (25.0, 7.75, 0.2)
    games = {"policy": 122, "heuristic": 123, "random": 124, "ismcts": 3}
    _ratings(tmp_path, "shadowlord-2p", levels, games)
    rated = {name: ladder.level_rating(name, "shadowlord-2p", tmp_path) for name in levels}
    assert all(r is not None for r in rated.values())
    random_level, search = rated["random"], rated["ismcts"]
    assert random_level is not None and (random_level.settled, random_level.rank, random_level.rated) == (True, 3, 3)
    assert search is not None and not search.settled  # 3 games: its large sigma is from too few games


def test_a_level_ahead_even_by_its_conservative_estimate_is_ranked_first_however_few_its_games(
    tmp_path: Path,
) -> None:
    levels = {"random": (1.1, 4.44, None), "heuristic": (31.8, 2.61, None), "policy": (36.0, 2.5, 0.001)}
    games = {"random": 168, "heuristic": 168, "policy": 168, "ismcts": 48}
    _ratings(tmp_path, "shadowlord-2p", {**levels, "ismcts": (46.1, 4.14, 0.37)}, games)  # 33.7 against 28.5
    search = ladder.level_rating("ismcts", "shadowlord-2p", tmp_path)
    policy = ladder.level_rating("policy", "shadowlord-2p", tmp_path)
    assert search is not None and policy is not None
    assert (search.settled, search.rank, search.rated, policy.rank) == (True, 1, 4, 2)
    assert rating_words(search) == "rated 46.1 (conservatively 33.7), rank 1 of 4"
    _ratings(tmp_path, "shadowlord-2p", {**levels, "ismcts": (40.5, 4.89, 0.37)}, games)  # 25.8: below the policy
    search = ladder.level_rating("ismcts", "shadowlord-2p", tmp_path)
    assert search is not None and not search.settled and search.rank == 0
    assert rating_words(search) == "rated 40.5 ± 4.9 from 48 games, too few to rank"


@pytest.fixture
def policy_results(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty results folder the server reads from, for a test that needs the policy level."""
    if not has_numpy():
        pytest.skip("the policy level needs NumPy")
    return _empty_results(tmp_path, monkeypatch)


def test_a_level_rated_below_the_level_it_beat_is_explained_in_the_panel(client: Any, policy_results: Path) -> None:
    folder = policy_results
    _result(folder, "shadow-planet-5p", "policy", "heuristic", [0.42, 0.48], [0.33, 0.36], 0.003)  # separated
    levels = {"random": (23.2, 2.0, None), "heuristic": (26.5, 2.0, None), "policy": (25.1, 2.0, 0.003)}
    _ratings(folder, "shadow-planet-5p", levels)
    _, text = _offered(client, "shadow-planet", 5)
    assert "Trained policy beat Heuristic in measured games with one trained policy seat against the rest" in text
    assert "rates below heuristic at tables that mix every level" in text
    _ratings(folder, "shadow-planet-5p", {**levels, "policy": (28.0, 2.0, 0.003)})  # ranked above: nothing to explain
    _, text = _offered(client, "shadow-planet", 5)
    assert "rates below" not in text and "conservative estimate:" not in text


def test_a_level_rated_higher_from_fewer_games_is_said_to_rank_lower_only_for_that(
    client: Any, policy_results: Path
) -> None:
    folder = policy_results
    _result(folder, "shadow-planet-5p", "policy", "heuristic", [0.42, 0.48], [0.33, 0.36], 0.003)  # separated
    levels = {"random": (23.2, 1.9, None), "heuristic": (24.9, 1.9, None), "policy": (25.9, 2.67, 0.003)}
    _ratings(folder, "shadow-planet-5p", levels, {"random": 246, "heuristic": 246, "policy": 66})
    _, text = _offered(client, "shadow-planet", 5)
    assert (
        "Trained policy is ranked below Heuristic only by the conservative estimate: at tables that mix every "
        "level it is rated higher (25.9 against 24.9), but from fewer games (66 against 246), so less surely."
    ) in text
    assert "rates below" not in text


def test_a_level_that_beat_another_head_to_head_but_ranks_below_it_is_explained(
    client: Any, policy_results: Path
) -> None:
    folder = policy_results
    _both_measured_against_the_heuristic(folder)
    _measured(folder, "ismcts", "policy", 0.42, 1000, 0.3)  # head to head, level 2 above
    levels = {
        "random": (22.4, 1.9, None),
        "heuristic": (24.9, 1.9, None),
        "policy": (25.8, 1.9, 0.007),
        "ismcts": (25.9, 2.67, 0.17),
    }
    _ratings(folder, "shadow-planet-3p", levels, {"random": 246, "heuristic": 246, "policy": 246, "ismcts": 66})
    _, text = _offered(client, "shadow-planet", 3)
    assert _listed(text) == ["random", "heuristic", "policy", "ismcts"]
    flat = " ".join(text.split())
    for lower, mu in (("Heuristic", "24.9"), ("Trained policy", "25.8")):
        assert (
            f"ISMCTS is ranked below {lower} only by the conservative estimate: at tables that mix every level it is "
            f"rated higher (25.9 against {mu}), but from fewer games (66 against 246), so less surely."
        ) in flat
    _measured(folder, "ismcts", "policy", 0.36, 60, 0.3)  # overlapping: the order rests on the rates, no claim
    _, text = _offered(client, "shadow-planet", 3)
    assert "ISMCTS is ranked below Trained policy" not in " ".join(text.split())


def _measured(folder: Path, upper: str, lower: str, won: float, games: int, they_won: float) -> None:
    """A ladder result for The Shadow Planet with 3 players as the benchmark writes it, both sides
    played as now (95% intervals of +-0.05 around each win rate)."""
    sides = {}
    for side, level, rate, seat_games in (("upper", upper, won, games), ("lower", lower, they_won, 2 * games)):
        spec = ladder.LADDER[level].spec_for("shadow-planet")
        sides[side] = {"level": level, "spec": spec, "win_rate": rate, "seat_games": seat_games}
        sides[side]["interval"] = [rate - 0.05, rate + 0.05]
    sides["upper"]["median_decision_s"] = 0.2
    data = {**sides, "games": games, "separated": won - 0.05 > they_won + 0.05}
    ladder.result_path(folder, "shadow-planet-3p", upper, lower).write_text(json.dumps(data), encoding="utf-8")


def _both_measured_against_the_heuristic(folder: Path) -> None:
    """Level 2 (60% of 200) and the policy (50% of 1,000) each measured against the heuristic."""
    _measured(folder, "ismcts", "heuristic", 0.6, 200, 0.3)
    _measured(folder, "policy", "heuristic", 0.5, 1000, 0.32)


def _listed(text: str) -> list[str]:
    """The levels the form lists for Player 2, in its order."""
    select = re.search(r'<select name="seat_1">.*?</select>', text, re.S)
    assert select is not None
    return re.findall(r'<option value="bot:([a-z]+)"', select.group(0))


def test_the_panel_says_what_each_level_beat_and_why_it_is_listed_above_another(
    client: Any, policy_results: Path
) -> None:
    folder = policy_results
    _both_measured_against_the_heuristic(folder)
    _measured(folder, "ismcts", "policy", 0.5, 80, 0.25)  # head to head, level 2 wholly above
    _, text = _offered(client, "shadow-planet", 3)
    assert _listed(text) == ["random", "heuristic", "policy", "ismcts"]
    items, note = levels_panel(text)
    assert items[3].endswith("; won 60% of 200 measured games against Heuristic bots (they won 30% of theirs)")
    assert items[2].endswith("; won 50% of 1,000 measured games against Heuristic bots (they won 32% of theirs)")
    assert "measured games" not in items[0] + items[1]  # level 1 against level 0: no result here
    flat = " ".join(text.split())
    assert (
        "ISMCTS is listed above Trained policy: it beat it head to head; over 80 measured games ISMCTS won 50% of "
        "its games and Trained policy 25% of theirs." in flat
    )
    assert note == ""
    _measured(folder, "policy", "ismcts", 0.7, 80, 0.3)  # the other way: the policy wholly above
    _, text = _offered(client, "shadow-planet", 3)
    assert _listed(text) == ["random", "heuristic", "ismcts", "policy"]
    flat = " ".join(text.split())
    assert (
        "Trained policy is listed above ISMCTS: it beat it head to head; over 80 measured games Trained policy won "
        "70% of its games and ISMCTS 30% of theirs." in flat
    )


def test_a_level_not_told_apart_from_the_other_above_the_heuristic_is_not_offered(
    client: Any, policy_results: Path
) -> None:
    folder = policy_results
    _both_measured_against_the_heuristic(folder)  # level 2 the higher rate against the heuristic, slower
    _, text = _offered(client, "shadow-planet", 3)
    assert _listed(text) == ["random", "heuristic", "policy"]  # never measured against each other
    _, note = levels_panel(text)
    assert note == (
        f"Not offered here: {BOT_LEVELS['ismcts']}. It beat Heuristic bots, but it has not been measured against "
        "Trained policy for this game and player count, and a level is offered only where measured games have "
        "shown it stronger than the level listed below it; Trained policy, the quicker of the two, is offered."
    )
    _measured(folder, "ismcts", "policy", 0.36, 60, 0.3)  # one level 2 seat against the rest: overlapping
    why = ladder.compare("ismcts", "policy", "shadow-planet-3p")
    assert (why.stronger, why.basis, why.unseparated) == (True, "rates", (0.36, 0.3, 60))
    _, text = _offered(client, "shadow-planet", 3)
    assert _listed(text) == ["random", "heuristic", "policy"]
    _, note = levels_panel(text)
    assert (
        "It beat Heuristic bots, but measured against each other over 60 games ISMCTS won 36% of its games and "
        "Trained policy 30% of theirs, too close to tell apart," in note
    )
    assert "is listed above" not in " ".join(text.split())
    made = client.post(
        "/tables",
        data={"game": "shadow-planet", "players": "3", "name": "Ada", "seat_1": "bot:ismcts", "seat_2": "human"},
        follow_redirects=False,
    )
    assert made.status_code != 303  # the form refuses it, in words
    assert "Player 2: ISMCTS (level 2" in made.text and "is not offered for this game and player count" in made.text


def test_two_rates_that_round_alike_are_told_apart_with_a_decimal(client: Any, policy_results: Path) -> None:
    _both_measured_against_the_heuristic(policy_results)
    _measured(policy_results, "ismcts", "policy", 0.445, 200, 0.438)
    _, text = _offered(client, "shadow-planet", 3)
    assert _listed(text) == ["random", "heuristic", "policy"]
    assert "ISMCTS won 44.5% of its games and Trained policy 43.8% of theirs" in text
    assert "won 44% of its games" not in text


def test_a_head_to_head_won_at_the_same_rate_reads_in_whole_percents(client: Any, policy_results: Path) -> None:
    _both_measured_against_the_heuristic(policy_results)
    _measured(policy_results, "ismcts", "policy", 0.23, 200, 0.23)  # the same rate: not told apart by decimals
    _, text = _offered(client, "shadow-planet", 3)
    flat = " ".join(text.split())
    said = "over 200 games ISMCTS won 23% of its games and Trained policy 23% of theirs, too close to tell apart"
    assert said in flat
    assert "23.00%" not in flat


def _selected(text: str, name: str) -> str:
    """The value selected in the form's select ``name``."""
    select = re.search(rf'<select name="{name}".*?</select>', text, re.S)
    assert select is not None, name
    chosen = re.findall(r'<option value="([^"]*)" selected', select.group(0))
    return chosen[0] if chosen else ""


def test_the_levels_follow_the_options_chosen_and_the_choices_are_kept(
    client: Any, results: dict[str, set[str]]
) -> None:
    query = {"game": "shadowlord", "players": "2", "seat_1": "bot:ismcts"}
    standard = client.get("/lobby/setup", params=query).text
    assert 'value="bot:ismcts"' not in standard and _selected(standard, "seat_1") == "bot:heuristic"
    modified = client.get("/lobby/setup", params={**query, "opt_modified": "yes"}).text
    assert 'value="bot:ismcts"' in modified  # shown stronger in the modified game only
    assert _selected(modified, "seat_1") == "bot:ismcts" and _selected(modified, "opt_modified") == "yes"
    assert 'name="opt_modified" hx-get="/lobby/setup"' in modified  # a change asks for the panel again
    assert "<details open>\n    <summary>Game options" in modified and "<details open>" not in standard
    defaults = client.get("/lobby/setup", params={**query, "opt_modified": "no", "opt_timer_mode": "reshuffle"}).text
    assert "<details open>" not in defaults  # the options as they start: the section stays folded
    timer = client.get("/lobby/setup", params={**query, "opt_modified": "yes", "opt_timer_mode": "every_turn"}).text
    assert 'value="bot:ismcts"' not in timer and _selected(timer, "opt_timer_mode") == "every_turn"
    assert "for this game and player count with these options." in timer
    for bad in ({"opt_modified": "maybe"}, {"players": "3", "opt_modified": "yes"}, {"seat_1": "bot:" + "x" * 50}):
        page = client.get("/lobby/setup", params={**query, **bad})
        assert page.status_code == 200 and 'value="bot:ismcts"' not in page.text  # the default options
        assert _selected(page.text, "seat_1") == "bot:heuristic"


def test_a_rank_note_keeps_an_acronym_and_lowers_other_names() -> None:
    from shadowtable.web.forms import _rank_note

    def rated(mu: float, rank: int) -> ladder.LevelRating:
        return ladder.LevelRating(mu, 1.0, mu - 3.0, rank, 3, 0.1, seat_games=400)

    note = _rank_note(("ISMCTS", "Heuristic"), rated(25.0, 2), rated(26.0, 1))
    assert "with one ISMCTS seat against the rest, but rates below heuristic at tables" in note
    note = _rank_note(("Trained policy", "Heuristic"), rated(25.0, 2), rated(26.0, 1))
    assert "with one trained policy seat against the rest" in note and "against heuristic bots" in note


def test_ranks_count_only_the_levels_offered(client: Any, policy_results: Path) -> None:
    folder = policy_results
    _both_measured_against_the_heuristic(folder)  # never measured against each other: level 2 not offered
    levels = {
        "random": (22.4, 1.9, None),
        "heuristic": (24.9, 1.9, None),
        "policy": (25.8, 1.9, 0.007),
        "ismcts": (31.0, 1.9, 0.17),  # rated first, but not offered
    }
    _ratings(folder, "shadow-planet-3p", levels)
    _, text = _offered(client, "shadow-planet", 3)
    assert _listed(text) == ["random", "heuristic", "policy"]
    assert "rated 25.8 (conservatively 20.1), rank 1 of 3" in _option(text, "policy")
    assert "rank 3 of 3" in _option(text, "random") and "of 4" not in text
    _measured(folder, "ismcts", "policy", 0.5, 80, 0.25)  # level 2 beat it head to head: offered, ranked first
    _, text = _offered(client, "shadow-planet", 3)
    assert "rank 1 of 4" in _option(text, "ismcts") and "rank 2 of 4" in _option(text, "policy")


def test_a_seats_menu_starts_with_the_bots_first_name_and_its_level(
    client: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A phone shows the first 35 or so characters of a closed menu: they named the bot twice
    ("Brook (heuristic bot): Heuristic (leve…") and cut off its level."""
    folder = _empty_results(tmp_path, monkeypatch)
    _ratings(folder, "shadowlord-3p", {"random": (20.8, 1.9, 0.00002), "heuristic": (24.1, 1.9, 0.0003)})
    _, text = _offered(client, "shadowlord", 3)
    assert _option(text, "heuristic").startswith("Brook: Heuristic (level 1")
    assert _option(text, "random").startswith("Brook: Random (level 0")
