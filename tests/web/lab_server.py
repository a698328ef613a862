"""A server for the lab's browser test and screenshots: every signed-in account may use the lab,
one background worker at full speed (``python lab_server.py PORT DATABASE``)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

LAB = {
    "lab_accounts": ["*"],
    "analysis_workers": 1,
    "analysis_poll_s": 0.2,
    "analysis_nice": 0,
    "lab_chunk": 20,
    "rate_lab_reads": "100000/second",
}


def main(port: int, database: str) -> None:
    import uvicorn

    from server.conftest import config_for
    from shadowtable.server.app import create_app

    uvicorn.run(create_app(config_for(database, **LAB)), host="127.0.0.1", port=port, log_level="warning")


if __name__ == "__main__":
    main(int(sys.argv[1]), sys.argv[2])
