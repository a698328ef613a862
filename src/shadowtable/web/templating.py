"""The one Jinja2 environment of the pages: templates ship inside the package, autoescaped."""

from __future__ import annotations

from typing import Any

from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape

ENV = Environment(
    loader=PackageLoader("shadowtable.web", "templates"),
    autoescape=select_autoescape(default=True, default_for_string=True),
    undefined=StrictUndefined,
    trim_blocks=True,
    lstrip_blocks=True,
)


def render(template: str, **context: Any) -> str:
    """``template`` (a path under ``shadowtable/web/templates``) rendered with ``context``."""
    return ENV.get_template(template).render(**context)
