"""Checking many edited content documents keeps a bounded number loaded."""

from __future__ import annotations

from tests.lab.helpers import builtin_content

from shadowtable.games.shadowlord.content import CONTENT_CACHE, cached_content
from shadowtable.lab.spec import check_spec


def test_checked_content_documents_do_not_pile_up() -> None:
    for notches in range(CONTENT_CACHE + 4):
        content = builtin_content("shadowlord")
        content["timer"]["notches"] = 3 + notches
        check_spec(
            {
                "game": "shadowlord",
                "players": 2,
                "variants": [{"name": "timer", "options": {}, "content": content}],
                "bots": ["level0"],
                "games": 1,
                "seed": 0,
            }
        )
    assert cached_content.cache_info().currsize <= CONTENT_CACHE
