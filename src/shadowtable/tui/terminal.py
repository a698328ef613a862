"""The terminal apps need a terminal: started with input or output piped or redirected, they would
draw escape codes into a file and wait for keys that never come, so they refuse to start."""

from __future__ import annotations

import sys
from typing import Any

from shadowtable.core.errors import ShadowTableError


class NoTerminal(ShadowTableError):
    """A terminal app was started where its input or output is not a terminal."""


def need_terminal(command: str, options: dict[str, Any]) -> None:
    """Raise :class:`NoTerminal` unless input and output are terminals (a headless run, as tests
    drive the apps, needs none)."""
    if options.get("headless") or (sys.stdin.isatty() and sys.stdout.isatty()):
        return
    raise NoTerminal(
        f"{command} needs a terminal: its input or output is piped or redirected here; run it in a terminal window"
    )
