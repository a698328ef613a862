"""The encoded views of one table at its current version, built once and reused: answering a
``sync`` (or sending the same view to many sockets) costs a dictionary look-up, not a render."""

from __future__ import annotations

from typing import Any

from shadowtable.core.wording import NamedResult

VIEW_CACHE = 64
"""Encoded views (and as many sets of HTML fragments) kept per table for its current version."""


class ViewCache:
    """What was built for a table at ``version`` (its number of stored steps); a new version
    drops it all."""

    def __init__(self, limit: int = VIEW_CACHE) -> None:
        self.limit = limit
        self.version = -1
        self.parts: dict[int | None, dict[str, str]] = {}
        """Per audience: the encoded parts that depend only on the state (obs, legal, ...)."""
        self.texts: dict[tuple[Any, ...], str] = {}
        """Whole encoded view messages, per audience, version followed and what else they show."""
        self.fragments: dict[tuple[Any, ...], str] = {}
        """Encoded HTML fragments, per audience, version followed, presence and table description."""
        self.over: str | None = None
        """The encoded ``over`` message of a finished table."""
        self.results: list[NamedResult] | None = None
        """Each seat's result at this version (empty while the game runs)."""
        self.builds = 0
        """How many view messages were built (not reused), for tests and diagnostics."""

    def at(self, version: int) -> None:
        """Start over if the table moved to another ``version``."""
        if version != self.version:
            self.version = version
            self.parts.clear()
            self.texts.clear()
            self.fragments.clear()
            self.over = None
            self.results = None

    @staticmethod
    def keep(store: dict[tuple[Any, ...], str], key: tuple[Any, ...], text: str, limit: int) -> None:
        """Keep ``text`` under ``key``; a full store starts over (a client cycling through versions
        cannot grow it)."""
        if len(store) >= limit:
            store.clear()
        store[key] = text
