"""A view message read into the seat view's types, as the page fragments and the boards read it."""

from __future__ import annotations

from shadowtable.bots.registry import make_bot
from shadowtable.core.registry import make
from shadowtable.core.table import Choice, ChoiceGroup, Decision, Table, Told
from shadowtable.web.render import SeatMessage


def test_a_deciding_seats_message_reads_back_as_its_seat_view() -> None:
    game = make("shadow-planet", players=3)
    table = Table(game, [make_bot("random") for _ in range(3)], 5)
    table.tell()
    while len(table.actions) < 20 or game.current_player(table.state) < 0:
        table.step()
    seat = game.current_player(table.state)
    view = table.view(seat)
    read = SeatMessage.from_json(view.to_json(presence=[{"seat": 1, "name": "Ann"}]))
    assert read.obs == view.observation
    assert read.decision == view.decision
    assert read.choices == view.choices and read.choices
    assert read.groups == view.groups
    assert read.turn == view.turn
    assert read.events and read.events == tuple(Told(e.kind, e.text, e.rule, private=e.private) for e in view.events)
    assert read.names == {1: "Ann"}
    assert read.legal == {choice.action: choice.text for choice in view.choices or ()}


def test_a_message_without_groups_offers_one_group_per_choice_and_none_to_a_watcher() -> None:
    message = {"obs": {}, "pending": {}, "legal": [[4, "four"], [7, "seven"]], "groups": None}
    read = SeatMessage.from_json(message)
    assert read.decision is None
    assert read.groups == (ChoiceGroup("four", (Choice(4, "four"),)), ChoiceGroup("seven", (Choice(7, "seven"),)))
    watcher = SeatMessage.from_json({"obs": {}, "pending": {"seat": 2, "kind": "k", "prompt": "p"}, "legal": None})
    assert watcher.choices is None and watcher.groups == () and watcher.legal == {}
    assert watcher.decision == Decision(2, "k", "p")
