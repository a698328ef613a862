"""``start.sh``, the README's first command: it sets up on the first run, saying what it does,
and then starts ``shadowtable serve`` with the options given (Python and pip stubbed here)."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

SHADOWTABLE_STUB = """#!/usr/bin/env bash
if [ "$1" = "--version" ]; then echo "shadowtable 0 (stub)"; exit 0; fi
echo "serve called with: $*"
"""

VENV_PYTHON_STUB = f"""#!/usr/bin/env bash
echo "$*" >> "$(dirname "$0")/../../pip-calls"
if [ "$3" = "install" ] && [ "$4" = "-q" ] && [ "$5" = "-e" ]; then
  [ -n "${{FAIL_INSTALL:-}}" ] && {{ echo "compiler exploded" >&2; exit 1; }}
  cat > "$(dirname "$0")/shadowtable" <<'STUB'
{SHADOWTABLE_STUB}STUB
  chmod +x "$(dirname "$0")/shadowtable"
fi
"""

PYTHON3_STUB = """#!/usr/bin/env bash
mkdir -p .venv/bin && cp "$STUB_PYTHON" .venv/bin/python && chmod +x .venv/bin/python
"""


def executable(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


def run_start(tmp_path: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    checkout = tmp_path / "checkout"
    checkout.mkdir(exist_ok=True)
    shutil.copy(ROOT / "start.sh", checkout / "start.sh")
    if not (checkout / "pyproject.toml").exists():
        shutil.copy(ROOT / "pyproject.toml", checkout / "pyproject.toml")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    executable(bin_dir / "python3", PYTHON3_STUB)
    stub_python = executable(tmp_path / "venv-python", VENV_PYTHON_STUB)
    environment = {**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}", "STUB_PYTHON": str(stub_python), **env}
    return subprocess.run(
        ["bash", str(checkout / "start.sh"), *args], capture_output=True, text=True, env=environment, timeout=120
    )


def test_the_first_run_says_what_it_does_then_serves_with_the_options_given(tmp_path: Path) -> None:
    done = run_start(tmp_path, "--port", "8080")
    assert done.returncode == 0, done.stderr
    assert "setting up: a Python virtual environment" in done.stdout
    assert "compiling the game engines" in done.stdout
    assert "installed: shadowtable 0 (stub)" in done.stdout
    assert done.stdout.rstrip().endswith("serve called with: serve --lab-account * --port 8080")
    assert "-m pip install -q -e .[web]" in (tmp_path / "checkout" / "pip-calls").read_text()


def test_a_later_run_serves_at_once(tmp_path: Path) -> None:
    run_start(tmp_path)
    done = run_start(tmp_path)
    assert done.returncode == 0
    assert done.stdout.strip() == "serve called with: serve --lab-account *"


def test_the_local_server_opens_the_lab_to_every_account_but_not_with_a_host(tmp_path: Path) -> None:
    run_start(tmp_path)
    served = run_start(tmp_path, "--port", "9000").stdout.strip()
    assert served == "serve called with: serve --lab-account * --port 9000"
    for host in (["--host", "0.0.0.0"], ["--host=0.0.0.0"]):
        assert run_start(tmp_path, *host).stdout.strip() == f"serve called with: serve {' '.join(host)}"


def test_a_failed_installation_shows_its_log_and_one_error_line(tmp_path: Path) -> None:
    done = run_start(tmp_path, FAIL_INSTALL="1")
    assert done.returncode == 2
    assert "compiler exploded" in done.stderr
    assert done.stderr.strip().splitlines()[-1].startswith("error: the installation failed")
    assert "serve called" not in done.stdout


def test_a_run_after_pyproject_changed_installs_again(tmp_path: Path) -> None:
    run_start(tmp_path)
    pyproject = tmp_path / "checkout" / "pyproject.toml"
    pyproject.write_text(pyproject.read_text(encoding="utf-8") + "\n# a new dependency\n", encoding="utf-8")
    done = run_start(tmp_path)
    assert done.returncode == 0, done.stderr
    assert "updating .venv: pyproject.toml changed" in done.stdout
    assert done.stdout.rstrip().endswith("serve called with: serve --lab-account *")
    assert (tmp_path / "checkout" / "pip-calls").read_text().count("install -q -e .[web]") == 2
    assert run_start(tmp_path).stdout.strip() == "serve called with: serve --lab-account *"
