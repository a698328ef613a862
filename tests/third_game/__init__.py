"""Tiny Stack: a third game built on the kernel, following the package template step by step.

``docs/architecture.md`` ("How to add a third game") walks through these modules;
``tests/core/test_third_game.py`` checks that the game passes the whole conformance suite.
"""

from third_game.game import TinyStackGame

__all__ = ["TinyStackGame"]
