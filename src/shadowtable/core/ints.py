"""Integers as text, safely on the compiled build.

mypyc's ``str()`` of a value typed ``int`` (an f-string or ``%d`` too) keeps a reference to an
integer of more than 62 bits that it never releases, so every such integer stringified by a
compiled module lives for good: a bitmask serialised at every step grows a process's memory
without bound.  :func:`int_text` takes an ``object``, so the integer is boxed with its count
kept right, and this module stays pure Python (it is not in ``setup.py``'s ``COMPILED``).
"""

from __future__ import annotations


def int_text(number: object) -> str:
    """``str(number)``: the decimal digits of an integer of any size (see the module's notes)."""
    return str(number)
