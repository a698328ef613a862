"""Helpers for tests that run ``shadowtable serve`` in a subprocess."""

from __future__ import annotations

import os
import subprocess
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path

import shadowtable


def source_path() -> str:
    """``PYTHONPATH`` for a subprocess that must run the ``shadowtable`` these tests import (a
    worktree's ``src``, not the one the virtual environment was installed from)."""
    here = str(Path(shadowtable.__file__).resolve().parents[1])
    return os.pathsep.join(p for p in (here, os.environ.get("PYTHONPATH", "")) if p)


def wait_healthy(url: str, process: subprocess.Popen[bytes], log_text: Callable[[], str]) -> None:
    """Wait until ``url``/healthz answers 200; :class:`RuntimeError` with the log's end if the
    server exits first or has not answered in 120 s (a guard: a loaded machine only waits longer)."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server exited: {log_text()[-2000:]}")
        try:
            with urllib.request.urlopen(url + "/healthz", timeout=1) as answer:
                if answer.status == 200:
                    return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"the server did not answer within 120 s: {log_text()[-2000:]}")
