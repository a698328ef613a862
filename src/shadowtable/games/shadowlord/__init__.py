"""Shadowlord!: the rules engine (game id ``"shadowlord"``)."""

from __future__ import annotations

from shadowtable.games.shadowlord.content import content_summary, load_content


def check_content_file(path: str) -> list[str]:
    """Validate a content file; returns summary lines, raises ContentError naming file and field."""
    return content_summary(load_content(path))


__all__ = ["check_content_file"]
