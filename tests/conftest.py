"""Test configuration: registers the tiny test game and the conformance options."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

sys.path.insert(0, str(Path(__file__).parent))

from shadowtable.core import register  # noqa: E402
from tiny_game import TinyGame  # noqa: E402

register(TinyGame)


@pytest.fixture(autouse=True)
def private_data_folder(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Saves made by any test go to a temporary folder, never the user's own data folder."""
    monkeypatch.setenv("SHADOWTABLE_DATA_DIR", str(tmp_path_factory.mktemp("data")))


@pytest.fixture
def hide_shipped_policy(monkeypatch: pytest.MonkeyPatch) -> Callable[[str, int], None]:
    """``hide_shipped_policy(game, players)``: from then on, the configuration's shipped policy is
    not found, as if none shipped for it (the bot, the lobby and new tables all ask the same way)."""

    def hide(game: str, players: int) -> None:
        from shadowtable.bots import policy_bot
        from shadowtable.server import bot_levels

        real = policy_bot.shipped_policy

        def shipped(asked: str, count: int, options: Mapping[str, Any] | None = None) -> Path | None:
            return None if (asked, count) == (game, players) else real(asked, count, options)

        monkeypatch.setattr(policy_bot, "shipped_policy", shipped)
        monkeypatch.setattr(bot_levels, "shipped_policy", shipped)

    return hide


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--conformance-games",
        type=int,
        default=int(os.environ.get("SHADOWTABLE_CONFORMANCE_GAMES", "0")) or None,
        help="random games per game configuration in the conformance suite (default: per game)",
    )


def pytest_sessionstart(session: pytest.Session) -> None:
    """Print which build the tests run on (docs/performance.md), ``compiled: True`` or
    ``compiled: False``, even with ``-q`` (which hides the report header)."""
    import shadowtable

    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None:
        where = Path(shadowtable.__file__).parent
        reporter.write_line(f"shadowtable {shadowtable.build()} from {where}; compiled: {shadowtable.compiled()}")


# Property tests check behaviour, never speed: no per-example deadline (a loaded machine is slow).
settings.register_profile("shadowtable", deadline=None)
settings.load_profile("shadowtable")
