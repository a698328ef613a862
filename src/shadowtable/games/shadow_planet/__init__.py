"""The Shadow Planet: the rules engine, its content and its content checker."""

from shadowtable.games.shadow_planet.content import check_content_file, load_content

__all__ = ["check_content_file", "load_content"]
