#!/usr/bin/env bash
# Set up ShadowTable's game server on its first run (a virtual environment in .venv, the server
# installed, the game engines compiled) and start it; later runs start it at once, unless
# pyproject.toml changed since (a new dependency after a git pull): then it installs again.
#   bash start.sh [shadowtable serve options]      e.g. bash start.sh --port 8080
# Listening on this machine only, it lets every signed-in account use the designer's lab (/lab).
set -euo pipefail
cd "$(dirname "$0")"
stamp=.venv/.shadowtable-installed
wanted=$(sha256sum pyproject.toml | cut -d' ' -f1)
if ! .venv/bin/shadowtable --version >/dev/null 2>&1 || [ "$(cat "$stamp" 2>/dev/null)" != "$wanted" ]; then
  if [ -x .venv/bin/python ]; then
    echo "updating .venv: pyproject.toml changed since the last install"
  else
    echo "setting up: a Python virtual environment in .venv"
    python3 -m venv .venv
  fi
  .venv/bin/python -m pip install -q --upgrade pip
  echo "installing the server and compiling the game engines with mypyc: 2-4 minutes, once"
  echo "  (SHADOWTABLE_PURE=1 bash start.sh skips compiling: quicker to install, slower bots)"
  log=$(mktemp)
  .venv/bin/python -m pip install -q -e ".[web]" >"$log" 2>&1 &
  pip_pid=$!
  started=$SECONDS
  while kill -0 "$pip_pid" 2>/dev/null; do
    sleep 1
    if (((SECONDS - started) % 15 == 0)) && kill -0 "$pip_pid" 2>/dev/null; then
      echo "  still installing and compiling ($((SECONDS - started)) s)"
    fi
  done
  if ! wait "$pip_pid"; then
    tail -n 30 "$log" >&2
    echo "error: the installation failed (the full log: $log)" >&2
    exit 2
  fi
  rm -f "$log"
  echo "$wanted" >"$stamp"
  echo "installed: $(.venv/bin/shadowtable --version)"
fi
# the server listens on this machine only (unless --host is given): there every signed-in account
# may use the designer's lab
lab=(--lab-account "*")
for arg in "$@"; do
  case "$arg" in --host | --host=*) lab=() ;; esac
done
exec .venv/bin/shadowtable serve "${lab[@]}" "$@"
