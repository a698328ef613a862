"""One choice per text as a person reads it: the one helper the browser, the terminal app, the
coach and ``SeatNames.choices`` share."""

from __future__ import annotations

from shadowtable.core.wording import SeatNames, first_per_reading, without_card_ids


def test_the_first_of_the_items_that_read_the_same_is_kept_in_order() -> None:
    choices = [(3, "play Move (Move 1) #92"), (4, "play Move (Move 1) #93"), (5, "done"), (6, "play Move (Move 1) #94")]
    first = first_per_reading(choices, lambda choice: without_card_ids(choice[1]))
    assert list(first) == ["play Move (Move 1)", "done"]
    assert [action for action, _ in first.values()] == [3, 5]


def test_seat_names_offer_one_choice_per_shown_text() -> None:
    names = SeatNames.of(["Ada", "Brook"])
    offered = names.choices([(0, "target seat 1"), (1, "target seat 1"), (2, "target seat 0")])
    assert offered == [(0, "target Brook"), (2, "target Ada")]
