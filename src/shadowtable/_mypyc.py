"""What the compiled build needs of the engines' classes (docs/performance.md).

``mypyc_attr``: mypyc reads ``@mypyc_attr(...)`` while compiling the engines (setup.py); at run
time it is a decorator that returns the class unchanged.  ``mypy_extensions`` (installed with
mypy) provides it; where that is not installed, a stand-in does the same, so the engines still
need nothing outside the standard library.

:func:`by_constructor`: the ``__reduce__`` of a frozen dataclass, which the compiled build can
neither copy nor pickle otherwise.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields
from typing import Any, TypeVar

T = TypeVar("T")

try:
    from mypy_extensions import mypyc_attr as mypyc_attr
except ImportError:

    def mypyc_attr(*attrs: str, **kwattrs: object) -> Callable[[T], T]:
        return lambda cls: cls


def by_constructor(instance: Any) -> tuple[type[Any], tuple[Any, ...]]:
    """``__reduce__`` for a frozen dataclass: copies and pickles made by calling its class with
    its fields.  A compiled frozen dataclass needs it: the default rebuilds an empty instance and
    sets its fields one by one, which its frozen ``__setattr__`` refuses (``FrozenInstanceError``)."""
    return type(instance), tuple(getattr(instance, f.name) for f in fields(instance))
