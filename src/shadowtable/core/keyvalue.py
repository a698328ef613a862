"""``key=value`` text, read one way for game options, bot parameters and sweep grids.

A value is read as JSON where it parses (``3``, ``0.5``, ``true``, ``null``, ``[1, 2]``), else it
is the text itself (``heuristic``, ``/path/policy.pt``).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from shadowtable.core.errors import InvalidOptionError, ShadowTableError


def read_value(text: str, *, what: str = "value", error: type[ShadowTableError] = InvalidOptionError) -> Any:
    """The JSON value ``text`` spells, else ``text``; ``error`` for JSON nested too deeply to read."""
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text
    except RecursionError as exc:
        raise error(f"bad {what}: the value is nested too deeply") from exc


def split_pair(
    pair: str,
    *,
    what: str,
    expected: str = "key=value",
    context: str = "",
    error: type[ShadowTableError] = InvalidOptionError,
) -> tuple[str, str]:
    """``"key=value"`` to ``("key", "value")``; ``error`` naming ``what`` when there is no key or ``=``."""
    key, sep, value = pair.partition("=")
    if not sep or not key:
        raise error(f"bad {what} {pair!r}{context}; expected {expected}")
    return key, value


def parse_pairs(
    pairs: Iterable[str], *, what: str, context: str = "", error: type[ShadowTableError] = InvalidOptionError
) -> dict[str, Any]:
    """``["key=value", ...]`` to ``{key: value}``, each value read by :func:`read_value`.

    ``what`` names the pairs in errors (``"--option"``, ``"bot parameter"``); ``context`` follows
    the bad pair (``" in 'ismcts:x'"``); ``error`` is the typed error raised.
    """
    values: dict[str, Any] = {}
    for pair in pairs:
        key, text = split_pair(pair, what=what, context=context, error=error)
        values[key] = read_value(text, what=f"{what} {key}", error=error)
    return values
