"""A server for the replay browser tests and screenshots: the tiny test game registered, and
analyses small enough to finish in a second or two (``python replay_server.py PORT DATABASE``)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

ANALYSIS = {
    "analysis_workers": 1,
    "analysis_rollouts": 8,
    "analysis_budget_s": 20.0,
    "analysis_policy": "random",
    "analysis_poll_s": 0.2,
    "analysis_nice": 0,
}
"""Analyses of the tiny game in well under a second (a Shadow Planet one within the budget)."""


def main(port: int, database: str) -> None:
    import uvicorn

    import tiny_plugin  # noqa: F401 - registers the tiny game
    from server.conftest import config_for
    from shadowtable.server.app import create_app

    config = config_for(database, rate_analysis_reads="100000/second", **ANALYSIS)
    uvicorn.run(create_app(config), host="127.0.0.1", port=port, log_level="warning")


if __name__ == "__main__":
    main(int(sys.argv[1]), sys.argv[2])
