"""The one Jinja2 environment of the pages: templates ship inside the package, autoescaped.

A page's template is a path under ``shadowtable/web/templates``; a game's board keeps its
templates in its own package, named ``<package>:<file>`` (``shadowtable.games.shadowlord.boards:
board.html`` is ``templates/board.html`` inside that package).
"""

from __future__ import annotations

from importlib import resources
from typing import Any

from jinja2 import ChoiceLoader, Environment, FunctionLoader, PackageLoader, StrictUndefined, select_autoescape

from shadowtable.web.rules_page import quoted_rule_href


def package_template(name: str) -> str | None:
    """The source of ``<package>:<file>``: ``templates/<file>`` inside ``package`` (else none)."""
    package, colon, file = name.partition(":")
    if not colon:
        return None
    try:
        found = resources.files(package).joinpath("templates", *file.split("/"))
    except ModuleNotFoundError:
        return None
    return found.read_text(encoding="utf-8") if found.is_file() else None


PAGE_TEMPLATES = PackageLoader("shadowtable.web", "templates")
ENV = Environment(
    loader=ChoiceLoader([PAGE_TEMPLATES, FunctionLoader(package_template)]),
    autoescape=select_autoescape(default=True, default_for_string=True),
    undefined=StrictUndefined,
    trim_blocks=True,
    lstrip_blocks=True,
)
ENV.globals["rule_href"] = quoted_rule_href  # the rules page's place of a quoted rule (the rule box's link)


def render(template: str, **context: Any) -> str:
    """``template`` (a page's path under ``shadowtable/web/templates``, or a board's
    ``<package>:<file>``) rendered with ``context``."""
    return ENV.get_template(template).render(**context)


def compile_templates(packages: list[str]) -> int:
    """Compile every page template and every template of ``packages`` (a game board's) now, and
    keep them: Jinja compiles a template on its first use, which would otherwise stall the first
    request or socket frame that needs it.  The number compiled."""
    names = [name for name in PAGE_TEMPLATES.list_templates() if name.endswith(".html")]
    for package in packages:
        folder = resources.files(package).joinpath("templates")
        if folder.is_dir():
            names += [f"{package}:{entry.name}" for entry in folder.iterdir() if entry.name.endswith(".html")]
    for name in names:
        ENV.get_template(name)
    return len(names)
