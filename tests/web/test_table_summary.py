"""The "since your last decision" summary and the log of the table page.

Seeded games of both titles: what the table keeps as a seat's view at its last decision is that
seat's own observation then, the events since are exactly those told to that seat, and the page's
summary holds only those events and the changes between the two views; the log tells each
Messages reveal once, groups lines by turn or round and marks the reader's own."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from shadowtable.bots.registry import make_bot
from shadowtable.core.game import Game
from shadowtable.core.registry import make
from shadowtable.core.table import Table, Told
from shadowtable.core.views import typed_view
from shadowtable.core.wording import DEFAULT_NAMES
from shadowtable.web.render import SeatMessage, log_entries, summary, view_changes, view_fragments

CONFIGS = [("shadow-planet", 3), ("shadowlord", 3)]
EVERY = 25
NAMES = ["Ada", "Bob", "Cy"]


def _played(title: str, players: int, seed: int) -> Iterator[Table]:
    game = make(title, players=players)
    table = Table(game, [make_bot("random") for _ in range(players)], seed)
    table.tell()
    while not table.is_over() and len(table.actions) < 600:
        table.step()
        if len(table.actions) % EVERY == 0:
            yield table


def _message(table: Table, seat: int) -> dict[str, Any]:
    message = table.view(seat).to_json(presence=[{"seat": s, "name": n} for s, n in enumerate(NAMES)])
    found = table.since_decision(seat)
    message["since"] = None if found is None else {"obs": found[0], "events": found[1]}
    return message


def _replayed_since(game: Game[Any], table: Table, seat: int) -> tuple[Any, list[str]] | None:
    """The seat's observation before its last action and what it was told from then, worked out
    again from the actions alone."""
    last = max((i for i, s in enumerate(table.seats) if s == seat), default=None)
    if last is None:
        return None
    state, seen, told = game.initial_state(), None, []
    for index, action in enumerate(table.actions):
        if index == last:
            seen = game.observe(state, seat)
        after, events = game.apply_recorded(state, action, checked=False)
        if index >= last:
            told += [event["text"] for event in game.words.told(state, action, events, seat)]
        state = after
    return seen, told


@pytest.mark.parametrize(("title", "players"), CONFIGS)
def test_the_view_at_the_last_decision_is_the_seats_own(title: str, players: int) -> None:
    checked = 0
    for table in _played(title, players, seed=21):
        for seat in range(players):
            found = table.since_decision(seat)
            again = _replayed_since(table.game, table, seat)
            if again is None:
                assert found is None
                continue
            assert found is not None
            assert found[0] == again[0]
            assert [event["text"] for event in found[1]] == again[1]
            checked += 1
    assert checked > 10


@pytest.mark.parametrize(("title", "players"), CONFIGS)
def test_the_summary_holds_only_what_the_seat_was_told_and_sees(title: str, players: int) -> None:
    shown = 0
    for table in _played(title, players, seed=5):
        for seat in range(players):
            message = _message(table, seat)
            read = summary(table.game, SeatMessage.from_json(message))
            if message["since"] is None:
                assert read is None
                continue
            assert read is not None
            told = {DEFAULT_NAMES.shown(event["text"]) for event in table.channels[seat].since(0)}  # as shown
            assert set(read.told) <= told
            before, now = message["since"]["obs"], message["obs"]
            expected = [change.text for change in view_changes(table.game, before, now, NAMES)]
            assert [change.text for change in read.changes] == expected
            shown += len(expected)
    assert shown > 0, "no change was ever summarised"


@pytest.mark.parametrize(("title", "players"), CONFIGS)
def test_the_summary_fragment_names_changes_and_marks_the_board(title: str, players: int) -> None:
    for table in _played(title, players, seed=8):
        message = _message(table, 0)
        found = summary(table.game, SeatMessage.from_json(message))
        if found and found.marks:
            html = view_fragments(table.game, message, {"status": "playing", "seats": []})["summary"]
            assert "Since your last decision" in html and 'data-marks="' in html
            assert all(change.text.replace(">", "&gt;") in html for change in found.changes)
            return
    pytest.fail("no summary marked a board element")


def test_a_threat_change_reads_in_the_summary() -> None:
    for table in _played("shadow-planet", 3, seed=3):
        message = _message(table, 1)
        found = summary(table.game, SeatMessage.from_json(message))
        threat = [change.text for change in found.changes] if found else []
        moved = [text for text in threat if text.startswith("Threat ")]
        if moved:
            assert re.fullmatch(r"Threat \d+ -> \d+", moved[0])
            before, now = message["since"]["obs"], message["obs"]
            assert moved[0] == f"Threat {_threat(before)} -> {_threat(now)}"
            return
    pytest.fail("the Threat never moved between two decisions")


def _threat(observation: dict[str, Any]) -> int:
    return int(typed_view(make("shadow-planet", players=3), observation).public.threat)


def test_each_messages_reveal_is_told_once() -> None:
    game = make("shadow-planet", players=3)
    table = Table(game, [make_bot("random") for _ in range(3)], 4)
    table.tell()
    table.run()
    for audience in table.audiences():
        texts = [event["text"] for event in table.channels[audience].since(0)]
        reveals = [text for text in texts if text.startswith("Message ") and " revealed from the " in text]
        assert reveals, "no Messages reveal in a whole game"
        assert not [text for text in texts if text.startswith("reveal Messages:")]


def test_log_lines_are_grouped_and_the_readers_own_marked() -> None:
    events = [
        Told("turn", "turn 3: red (seat 0); Power Stone Timer 6"),
        Told("action", "you: end turn"),
        Told("round", "round 2 ends: Countdown 9, Repair 6, Threat 3"),
        Told("action", "seat 1: done"),
    ]
    entries = log_entries(make("shadowlord", players=3), events)
    assert entries[0]["start"] == "Turn 3: red (Player 1)"
    assert entries[1]["mine"] == "1" and not entries[3]["mine"]
    assert entries[2]["end"] == "Round 3"
    assert not entries[3]["start"] and not entries[3]["end"]
