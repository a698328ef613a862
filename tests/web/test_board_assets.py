"""Each game's browser board keeps its templates and stylesheet in the game's own package."""

from __future__ import annotations

from importlib import resources
from typing import Any

import pytest
from jinja2 import TemplateNotFound

from shadowtable.core.registry import game_class
from shadowtable.web.render import board_stylesheet
from shadowtable.web.templating import ENV

BOARDS = [("shadow-planet", "shadow_planet"), ("shadowlord", "shadowlord")]


@pytest.mark.parametrize(("game_id", "package"), BOARDS)
def test_a_board_stylesheet_is_linked_and_served_from_the_game_package(client: Any, game_id: str, package: str) -> None:
    path = board_stylesheet(game_class(game_id))
    assert path == f"boards/{package}.css"
    served = client.get(f"/static/{path}")
    assert served.status_code == 200
    assert served.headers["content-type"].startswith("text/css")
    css = resources.files(f"shadowtable.games.{package}.boards").joinpath("web.css").read_text(encoding="utf-8")
    assert served.text == css


def test_an_unknown_board_stylesheet_is_not_found(client: Any) -> None:
    assert client.get("/static/boards/nothing.css").status_code == 404
    assert client.get("/static/style.css").status_code == 200  # the page's own files still come from /static


@pytest.mark.parametrize(("game_id", "package"), BOARDS)
def test_board_templates_load_by_package_name(game_id: str, package: str) -> None:
    for name in ("board.html", "panel.html"):
        template = ENV.get_template(f"shadowtable.games.{package}.boards:{name}")
        assert template.name == f"shadowtable.games.{package}.boards:{name}"
    with pytest.raises(TemplateNotFound):
        ENV.get_template(f"shadowtable.games.{package}.boards:missing.html")
    with pytest.raises(TemplateNotFound):
        ENV.get_template(f"boards/{package}/board.html")  # no copy is left among the page templates
