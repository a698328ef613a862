"""``mypyc_attr``: marks on classes that only the compiled build reads (docs/performance.md).

mypyc reads ``@mypyc_attr(...)`` while compiling the engines (setup.py); at run time it is a
decorator that returns the class unchanged.  ``mypy_extensions`` (installed with mypy) provides
it; where that is not installed, a stand-in does the same, so the engines still need nothing
outside the standard library.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

try:
    from mypy_extensions import mypyc_attr as mypyc_attr
except ImportError:

    def mypyc_attr(*attrs: str, **kwattrs: object) -> Callable[[T], T]:
        return lambda cls: cls
