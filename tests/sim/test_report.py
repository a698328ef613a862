"""Balance statistics and the HTML report."""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path

import pytest

pytest.importorskip("matplotlib")

from shadowtable.cli import main  # noqa: E402
from shadowtable.sim.balance import group_records  # noqa: E402
from shadowtable.sim.parallel import BatchJob, run_batch  # noqa: E402
from shadowtable.sim.report import SECTIONS, build_report  # noqa: E402

VOID = {"meta", "img", "br", "hr", "link", "input"}


class TagChecker(HTMLParser):
    """Checks that every opened tag is closed in order and collects ids and images."""

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[str] = []
        self.ids: set[str] = set()
        self.images = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        if attributes.get("id"):
            self.ids.add(str(attributes["id"]))
        if tag == "img":
            assert str(attributes["src"]).startswith("data:image/png;base64,")
            self.images += 1
        if tag not in VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag: str) -> None:
        assert self.stack and self.stack[-1] == tag, f"</{tag}> closes <{self.stack[-1] if self.stack else None}>"
        self.stack.pop()


def _records() -> list:  # type: ignore[type-arg]
    two = run_batch(BatchJob("tiny-showdown", 2, ("random",), 40, 1))
    three = run_batch(BatchJob("tiny-showdown", 3, ("ismcts:iterations=10", "random", "random"), 20, 2))
    return two + three


def test_balance_counts_match_the_records() -> None:
    records = _records()
    groups = group_records(records)
    assert [(g.game, g.players, g.games) for g in groups] == [("tiny-showdown", 2, 40), ("tiny-showdown", 3, 20)]
    two = groups[0]
    seat0_wins = sum(1 for r in records[:40] if r.returns and r.returns[0] == 1.0)
    assert two.by_seat[0].wins == seat0_wins
    high_wins = sum(
        1 for r in records[:40] for s, role in enumerate(r.metadata["roles"]) if role == "high" and r.returns[s] == 1.0
    )
    assert two.by_role["high"].wins == high_wins
    assert sum(two.endings.values()) == 40
    assert len(two.mean_trajectory("raises")) == 2


def test_report_is_valid_html_with_every_section(tmp_path: Path) -> None:
    page = build_report(_records())
    checker = TagChecker()
    checker.feed(page)
    assert checker.stack == []
    assert {key for key, _ in SECTIONS} <= checker.ids
    assert checker.images >= 5
    assert "ismcts:iterations=10" in page  # ratings name both bots


def test_report_command(tmp_path: Path) -> None:
    records = tmp_path / "games.jsonl"
    assert main(["simulate", "tiny-showdown", "--players", "3", "--games", "30", "--out", str(records)]) == 0
    out = tmp_path / "report.html"
    assert main(["report", str(records), "--out", str(out)]) == 0
    assert '<section id="roles">' in out.read_text()


def test_roles_and_trajectories_in_either_summary_form() -> None:
    from shadowtable.core import GameRecord
    from shadowtable.sim.summaries import record_roles, record_trajectories

    base = {"game": "tiny-showdown", "version": "1", "players": 2, "options": {}, "seats": ["a", "b"], "actions": []}
    listed = GameRecord.from_json({**base, "metadata": {"roles": ["x", "y"], "trajectories": {"t": [1, 2]}}})
    nested = GameRecord.from_json(
        {**base, "metadata": {"seats": [{"objective": "x"}, {"objective": "y"}], "trajectory": [{"t": 1}, {"t": 2}]}}
    )
    for record in (listed, nested):
        assert record_roles(record) == ["x", "y"]
        assert record_trajectories(record) == {"t": [1.0, 2.0]}
    assert record_roles(GameRecord.from_json({**base, "metadata": {}})) is None


def test_the_report_names_how_games_ended_in_the_games_words(tmp_path: Path) -> None:
    """The endings table said "truncated" and "countdown"; it gives the game's words and the code."""
    records = tmp_path / "games.jsonl"
    argv = ["--players", "2", "--games", "3", "--option", "turn_cap=3", "--out", str(records), "--workers", "1"]
    assert main(["simulate", "shadowlord", *argv]) == 0
    out = tmp_path / "report.html"
    assert main(["report", str(records), "--out", str(out)]) == 0
    assert "<td>the turn limit: nobody wins (truncated)</td>" in out.read_text()
