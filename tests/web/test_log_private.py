"""The log tells a seat which of its lines were told on the public channel (every player saw
them) and which were told to it alone: decided by the channel each event was sent on, never by
the state; a private line carries a visible "private" tag and the public filter can hide it."""

from __future__ import annotations

import pytest

from shadowtable.bots.registry import make_bot
from shadowtable.core.game import Game
from shadowtable.core.registry import make
from shadowtable.core.table import Table, Told, marked_private
from shadowtable.web.render import SeatMessage, log_entries, log_html, view_fragments

CONFIGS = [("shadow-planet", 3), ("shadowlord", 3)]
NAMES = ["Ada", "Bob", "Cy"]


def _played(title: str, players: int, seed: int, steps: int = 300) -> Table:
    game = make(title, players=players)
    table = Table(game, [make_bot("random") for _ in range(players)], seed)
    table.tell()
    table.run(max_steps=steps)
    return table


def _told_per_step(game: Game[object], table: Table, audience: int | None) -> list[list[dict[str, object]]]:
    """What ``audience`` is told at each step, worked out again from the actions alone."""
    state, per_step = game.initial_state(), []
    for action in table.actions:
        after, events = game.apply_recorded(state, action, checked=False)
        per_step.append(game.words.told(state, action, events, audience))
        state = after
    return per_step


@pytest.mark.parametrize(("title", "players"), CONFIGS)
def test_a_seats_line_is_private_exactly_when_the_public_channel_was_not_told_it(title: str, players: int) -> None:
    table = _played(title, players, seed=7)
    public = _told_per_step(table.game, table, None)
    assert not any(event.get("private") for event in table.channels[None].since(0)), "spectators see public lines only"
    private_lines = 0
    for seat in range(players):
        told = _told_per_step(table.game, table, seat)
        expected = [event for step, events in enumerate(told) for event in marked_private(events, public[step], seat)]
        got = table.channels[seat].since(0)
        assert got == expected
        for event in got:
            if event.get("private"):
                private_lines += 1
                plain = {key: value for key, value in event.items() if key != "private"}
                assert all(plain not in step for step in public), "a private line was also told publicly"
    assert private_lines > 0, "some seat was told something on its own: the check has something to find"


def test_the_seats_own_public_action_is_not_private_and_a_hidden_card_is() -> None:
    public = [{"kind": "action", "text": "seat 1: end turn", "rule": "", "data": {}}]
    mine = [{"kind": "action", "text": "you: end turn", "rule": "", "data": {}}]
    assert marked_private(mine, public, 1) == mine
    assert marked_private(mine, public, 2)[0]["private"] is True  # seat 1's action is not seat 2's
    drawn = [{"kind": "action", "text": "you draw Power Card: 7", "rule": "", "data": {}}]
    said = [{"kind": "action", "text": "seat 1 draws a Power Card", "rule": "", "data": {}}]
    assert marked_private(drawn, said, 1)[0]["private"] is True


def test_a_private_line_is_tagged_in_the_page_and_a_public_one_is_not() -> None:
    game = make("shadowlord", players=3)
    events = [Told("action", "seat 1 draws a Power Card"), Told("action", "you draw Power Card: 7", private=True)]
    entries = log_entries(game, events)
    assert [entry["private"] for entry in entries] == ["", "1"]
    html = log_html(game, events)
    public_line, private_line = html.split("</li>")[:2]
    assert "data-private" not in public_line and "private</span>" not in public_line
    assert 'data-private="1"' in private_line and '<span class="tag-private"' in private_line
    assert ">private</span> you draw Power Card: 7" in private_line


@pytest.mark.parametrize(("title", "players"), CONFIGS)
def test_the_seats_page_log_tags_its_private_lines_and_the_spectators_has_none(title: str, players: int) -> None:
    table = _played(title, players, seed=11)
    presence = [{"seat": seat, "name": name} for seat, name in enumerate(NAMES)]
    page = {"status": "playing", "seats": []}
    tagged = 0
    for seat in range(players):
        message = table.view(seat).to_json(presence=presence)
        log = view_fragments(table.game, message, page)["log"]
        private = [event for event in SeatMessage.from_json(message).events if event.private]
        assert log.count('data-private="1"') == len(private) == log.count('class="tag-private"')
        tagged += len(private)
    spectators = view_fragments(table.game, table.view(None).to_json(presence=presence), page)["log"]
    assert "data-private" not in spectators and "tag-private" not in spectators
    assert tagged > 0
