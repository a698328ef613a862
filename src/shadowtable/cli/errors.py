"""The command line's own error, and the Click errors it turns into one line, found by type."""

from __future__ import annotations

import sys
from typing import Any

import typer

from shadowtable.core.errors import ShadowTableError


class CliError(ShadowTableError):
    """A bad command-line argument."""


def web_extra_missing(what: str, exc: ImportError) -> CliError:
    """The error for a command whose server libraries (the [web] extra) are not installed."""
    return CliError(f"{what} the [web] extra ({exc.name} is missing): pip install 'shadowtable[web]'")


class _NeverRaised(Exception):
    """Stands in for a Click error class that this Click does not have."""


_CLICK_ERRORS: Any = sys.modules[typer.BadParameter.__module__]
"""The exceptions module of the Click that Typer runs on (its own bundled copy, or the ``click`` package)."""

ClickError: type[Exception] = _CLICK_ERRORS.ClickException
"""Click's usage errors: a missing argument, an unknown option, a value of the wrong type."""

BareGroupError: type[Exception] = getattr(_CLICK_ERRORS, "NoArgsIsHelpError", _NeverRaised)
"""A command group named without a command (``shadowtable account``): its help, not an error."""


def usage_message(exc: Any) -> str:
    """A Click error as one line, with where to find the command's help."""
    message = " ".join(str(exc.format_message()).split())
    ctx = getattr(exc, "ctx", None)
    if ctx is None:
        return message
    root = ctx.find_root().info_name or ""
    command = "shadowtable" + ctx.command_path[len(root) :] if ctx.command_path.startswith(root) else ctx.command_path
    return f"{message} (see '{command} --help')"
