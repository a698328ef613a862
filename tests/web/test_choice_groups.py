"""The choices fragment shows a decision's first group of choices open, so a newcomer sees
buttons without opening anything; a group too long to read at a glance stays closed."""

from __future__ import annotations

import re

from shadowtable.web.templating import render


def group(label: str, count: int, start: int) -> dict[str, object]:
    return {"label": label, "actions": [{"id": start + k, "text": f"{label} {k}", "effect": ""} for k in range(count)]}


def details_tags(groups: list[dict[str, object]]) -> list[str]:
    return re.findall(r"<details[^>]*>", render("fragments/actions.html", groups=groups, turn=True))


def test_the_first_group_is_open_and_the_others_closed() -> None:
    assert details_tags([group("ship to", 3, 0), group("offer", 2, 10)]) == ["<details open>", "<details>"]


def test_a_first_group_too_long_to_read_at_a_glance_stays_closed() -> None:
    assert details_tags([group("move", 13, 0), group("offer", 2, 20)]) == ["<details>", "<details>"]
    assert details_tags([group("move", 12, 0)]) == ["<details open>"]
