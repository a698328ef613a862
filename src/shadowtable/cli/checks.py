"""Checks shared by several commands, each raising a typed error before any work is done."""

from __future__ import annotations

import importlib
import json
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from shadowtable.bots.registry import make_bot
from shadowtable.cli.errors import CliError
from shadowtable.core.errors import InvalidSeatError, RecordError
from shadowtable.core.game import Game
from shadowtable.core.record import GameRecord, replay_final
from shadowtable.sim.batch import line_up


def shown(text: str) -> str:
    """``repr(text)``, cut to 60 characters."""
    return repr(text) if len(text) <= 58 else repr(text[:55] + "...")


def read_json_file(path: Path, what: str = "") -> Any:
    """The JSON data in ``path``; :class:`CliError` naming it if unreadable, not UTF-8, not JSON or too deep."""
    try:
        text = path.read_bytes().decode("utf-8")
    except OSError as exc:
        raise CliError(f"{what}{path}: cannot read: {exc.strerror or exc}") from exc
    except UnicodeDecodeError as exc:
        raise CliError(f"{what}{path}: not UTF-8 text (byte {exc.start}: {exc.reason})") from exc
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise CliError(f"{what}{path}: not valid JSON: {exc}") from exc
    except RecursionError as exc:
        raise CliError(f"{what}{path}: not readable JSON: it is nested too deeply") from exc


def check_output(path: Path | None, option: str, *, force: bool, resume: bool | None = None) -> None:
    """Refuse, before any work, an output that cannot be written or would replace a file.

    An existing file needs ``--force``, or ``--resume`` where the command can continue it
    (``resume`` is not ``None``).
    """
    if path is None:
        return
    if path.is_dir():
        raise CliError(f"{option} {path} is a folder; name a file")
    folder = path.parent
    if not folder.is_dir():
        raise CliError(f"{option} {path}: the folder {folder} does not exist")
    if path.exists():
        if not (force or resume):
            remedy = "--force to replace it" + (" or --resume to continue it" if resume is not None else "")
            raise CliError(f"{option} {path} already exists; pass {remedy}")
        if not os.access(path, os.W_OK):
            raise CliError(f"{option} {path} is not writable")
    elif not os.access(folder, os.W_OK | os.X_OK):
        raise CliError(f"{option} {path}: cannot create a file in {folder}")


def same_path(one: Path, other: Path) -> bool:
    """Whether two paths name one file (existing or not); never raises."""
    try:
        return one.resolve() == other.resolve() or (one.exists() and other.exists() and one.samefile(other))
    except OSError:
        return False


def check_seat(seat: int | None, players: int, option: str = "--seat", where: str = "") -> None:
    """Refuse a seat that is not one of ``players`` seats (``None``, a spectator, is fine)."""
    if seat is not None and not 0 <= seat < players:
        raise InvalidSeatError(
            f"{where}{option} {seat}: seats must be between 0 and {players - 1} for {players} players"
        )


def import_plugins(names: Iterable[str]) -> None:
    """Import each ``--plugin`` module; :class:`CliError` for one that does not import."""
    for name in names:
        if not name.strip():
            raise CliError("--plugin needs a module name, e.g. --plugin mypackage.games")
        try:
            importlib.import_module(name)
        except (ImportError, ValueError, TypeError) as exc:
            raise CliError(f"--plugin {shown(name)}: cannot import it: {exc}") from exc


def check_bots(bot_specs: Iterable[str], players: int) -> None:
    """Refuse a line-up that does not fit ``players`` seats, or a bot spec that makes no bot."""
    specs = tuple(bot_specs)
    line_up(specs, players)
    for spec in set(specs):
        make_bot(spec)


def replayed(record: GameRecord, label: str) -> tuple[Game[Any], Any]:
    """Replay ``record``; errors (``label`` first) when it does not replay or reproduce its recorded returns."""
    try:
        game, state = replay_final(record)
    except RecordError as exc:
        raise RecordError(f"{label}: {exc}") from exc
    if record.returns is not None:
        returns = game.returns(state) if game.is_terminal(state) else None
        if returns != record.returns:
            raise CliError(f"{label}: replayed returns {returns} differ from recorded {record.returns}")
    return game, state
