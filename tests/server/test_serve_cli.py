"""``shadowtable serve``: the address it prints, /healthz, and one error line for a bad setting."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from shadowtable.cli import main


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_serve_prints_the_address_and_answers_health_checks(tmp_path: Path) -> None:
    port = _free_port()
    env = {**os.environ, "SHADOWTABLE_DATA_DIR": str(tmp_path), "PYTHONPATH": os.pathsep.join(sys.path)}
    command = [sys.executable, "-c", "from shadowtable.cli import run; run()", "serve", "--port", str(port)]
    server = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None
        assert server.stdout.readline().startswith("ShadowTable server: starting")
        first = server.stdout.readline()  # once it answers
        assert first.startswith(f"ShadowTable server: open http://127.0.0.1:{port}/")
        assert str(tmp_path / "server.db") in first  # the default database: SQLite in the data folder
        for _ in range(100):
            try:
                health = httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1)
                break
            except httpx.TransportError:
                time.sleep(0.1)
        assert health.status_code == 200 and health.json()["ok"] is True
        assert (tmp_path / "server-secret").stat().st_mode & 0o077 == 0  # the signing key is private
    finally:
        server.terminate()
        _, errors = server.communicate(timeout=20)
    assert server.returncode in (0, -15)  # uvicorn re-raises SIGTERM once it has shut down
    assert '"message": "server stopped"' in errors  # a graceful shutdown, logged as JSON


@pytest.mark.parametrize(
    "args, words",
    [
        (["--sqlite-sync", "sometimes"], "--sqlite-sync must be NORMAL or FULL"),
        (["--log-level", "loud"], "--log-level must be one of"),
        (["--default-bot", "nobody"], "unknown bot 'nobody'"),
        (["--database", "postgresql://nobody@127.0.0.1:1/none"], "cannot open the database postgresql://nobody@"),
        (["--database", "mysql://x/y"], "unsupported database 'mysql'"),
        (["--rate-tables", "lots"], "--rate-tables: a rate is count/period"),
    ],
)
def test_a_bad_setting_is_one_error_line(args: list[str], words: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and words in err and err.count("\n") == 1


def test_a_taken_port_is_one_error_line(capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["serve", "--port", str(port)]) == 2
    err = capsys.readouterr().err
    assert err == f"error: cannot listen on 127.0.0.1:{port}: it is in use (choose another with --port)\n"


def test_limit_flags_reach_the_configuration() -> None:
    from shadowtable.server.run import ServeOptions, config_from

    config = config_from(ServeOptions(limits={"max_body": 1000, "rate_logins": "3/minute", "max_free_seats": 0}))
    assert (config.max_body, config.rate_logins, config.max_free_seats) == (1000, "3/minute", 0)
    assert config_from(ServeOptions()).max_open_tables == 5, "unset: the default"


def test_lab_accounts_reach_the_configuration_from_the_command_line(monkeypatch: pytest.MonkeyPatch) -> None:
    from shadowtable.server.run import ServeOptions, config_from

    given: list[ServeOptions] = []
    monkeypatch.setattr("shadowtable.server.run.serve", given.append)
    args = ["serve", "--lab-account", "Ann", "--lab-account", "bob", "--lab-max-games", "300"]
    main(args)
    config = config_from(given[0])
    assert config.lab_accounts == ["Ann", "bob"] and config.lab_max_games == 300
    assert config.lab_allows("ann") and config.lab_allows("Bob") and not config.lab_allows("cy")
    assert not config.lab_allows(None)
    nobody = config_from(ServeOptions())
    assert nobody.lab_accounts == [] and not nobody.lab_allows("ann")
    assert config_from(ServeOptions(lab_accounts=["*"])).lab_allows("anyone")


def test_a_ladder_alias_names_the_level_as_default_bot(monkeypatch: pytest.MonkeyPatch) -> None:
    import shadowtable.server.run as run

    given: list[Any] = []
    monkeypatch.setattr(run, "serve", given.append)
    assert main(["serve", "--default-bot", "level2"]) in (0, None)
    assert given[0].default_bot == "ismcts"  # the level, so a takeover plays the strongest level that fits
    assert main(["serve", "--default-bot", "ismcts:iterations=5"]) in (0, None)
    assert given[1].default_bot == "ismcts:iterations=5"  # an operator's own spec is kept as it is
