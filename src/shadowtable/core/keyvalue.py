"""``key=value`` text, read one way for game options, bot parameters and sweep grids.

A value is read as JSON where it parses (``3``, ``0.5``, ``true``, ``null``, ``[1, 2]``), else as
a number where Python writes it as one (``.5``, ``+1``, ``007``), else it is the text itself
(``heuristic``, ``/path/policy.pt``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Any

from shadowtable.core.errors import InvalidOptionError, ShadowTableError

_INTEGER = re.compile(r"\s*[+-]?[0-9]+\s*")
_DECIMAL = re.compile(r"\s*[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?\s*")


def read_value(text: str, *, what: str = "value", error: type[ShadowTableError] = InvalidOptionError) -> Any:
    """The JSON value ``text`` spells, else the number, else ``text``; ``error`` for JSON nested too deeply."""
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return _number(text)
    except RecursionError as exc:
        raise error(f"bad {what}: the value is nested too deeply") from exc


def _number(text: str) -> Any:
    """``text`` as an int or a float where it is a plain decimal number, else ``text``."""
    if _INTEGER.fullmatch(text):
        return int(text)
    if _DECIMAL.fullmatch(text):
        return float(text)
    return text


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
