"""The learning tests need PyTorch (the ``[train]`` extra) and the tiny game's encoder."""

from __future__ import annotations

import os

import pytest

if os.environ.get("SHADOWTABLE_REQUIRE_TORCH", "") in ("", "0"):
    pytest.importorskip("torch")
pytest.importorskip("numpy")

import rl.conftest  # noqa: E402,F401  (registers the tiny game's encoder)
