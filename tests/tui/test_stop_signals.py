"""``shadowtable play`` in a real pseudo-terminal, stopped by a signal (SIGTERM, or SIGHUP as when
the terminal window is closed) after a move: the game is saved, the app ends, and the resume
command is printed, as ``q`` does."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from shadowtable.core.record import GameRecord

pytest.importorskip("textual")

SHADOWTABLE = Path(sys.executable).with_name("shadowtable")


def _read_all(fd: int, into: list[bytes]) -> None:
    """Everything the app writes to the terminal (read, or its writes would block)."""
    while True:
        try:
            data = os.read(fd, 65536)
        except OSError:
            return
        if not data:
            return
        into.append(data)


def _wait_for(shown: list[bytes], words: bytes, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while words not in b"".join(shown):
        assert time.monotonic() < deadline, f"{words!r} never appeared"
        time.sleep(0.1)


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGHUP])
def test_a_stopped_game_is_saved_with_its_moves_and_says_how_to_resume(tmp_path: Path, stop: int) -> None:
    save = tmp_path / "game.json"
    master, slave = os.openpty()
    env = {**os.environ, "TERM": "xterm-256color", "SHADOWTABLE_DATA_DIR": str(tmp_path / "data")}
    command = [str(SHADOWTABLE), "play", "shadowlord", "--players", "2", "--save", str(save)]
    process = subprocess.Popen(command, stdin=slave, stdout=slave, stderr=slave, env=env, start_new_session=True)
    os.close(slave)
    shown: list[bytes] = []
    threading.Thread(target=_read_all, args=(master, shown), daemon=True).start()
    try:
        _wait_for(shown, b"Shadowlord!", 60)
        time.sleep(1.0)  # the first decision drawn
        os.write(master, b"\r")  # take the highlighted choice
        time.sleep(2.0)
        process.send_signal(stop)
        assert process.wait(timeout=30) == 0, "the app ends"
        assert save.exists(), "saved before it ended"
    finally:
        if process.poll() is None:
            process.kill()
        os.close(master)
    record = GameRecord.loads(save.read_text())
    assert record.game == "shadowlord" and record.truncated and len(record.actions) > 0
    told = b"".join(shown).decode("utf-8", "replace")
    if stop == signal.SIGTERM:  # after SIGHUP nobody reads the terminal, but the save is there
        assert f"Stopped by SIGTERM. Game saved to {save}" in told and f"shadowtable play --load {save}" in told
