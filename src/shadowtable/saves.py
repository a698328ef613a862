"""Saved games of people playing: where they live, fresh names, listing them.

A save is a game record (JSON) in the per-user data folder (``platformdirs``; the environment
variable ``SHADOWTABLE_DATA_DIR`` overrides it), named after the game, the player count and the
date and time the game started: ``shadow-planet-4p-2026-11-30-1705.json``.  A new save never
replaces an existing file; only the game that owns a save file writes it again.
"""

from __future__ import annotations

import os
import shlex
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from shadowtable.core.errors import RecordError, ShadowTableError
from shadowtable.core.record import GameRecord

DATA_DIR_ENV = "SHADOWTABLE_DATA_DIR"
"""Environment variable naming the data folder instead of the per-user default."""


class SaveError(ShadowTableError):
    """A save that would replace someone else's file, or a save folder that is not usable."""


def data_dir() -> Path:
    """The per-user data folder, or ``$SHADOWTABLE_DATA_DIR`` when set."""
    override = os.environ.get(DATA_DIR_ENV, "").strip()
    if override:
        return Path(override).expanduser()
    import platformdirs

    return Path(platformdirs.user_data_dir("shadowtable", appauthor=False))


def saves_dir() -> Path:
    """The folder saved games go to."""
    return data_dir() / "saves"


def resume_command(path: Path) -> str:
    """The exact command that resumes the game saved at ``path``."""
    return f"shadowtable play --load {shlex.quote(str(path))}"


def save_stem(record: GameRecord, started: datetime) -> str:
    """``shadow-planet-4p-2026-11-30-1705``: game, players, date and time the game started."""
    return f"{record.game}-{record.players}p-{started:%Y-%m-%d-%H%M}"


def create_new_save(record: GameRecord, started: datetime, folder: Path | None = None) -> Path:
    """Write ``record`` to a fresh file in ``folder`` (default :func:`saves_dir`); never replaces one."""
    folder = saves_dir() if folder is None else folder
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise SaveError(f"cannot create the save folder {folder}: {exc}") from exc
    stem = save_stem(record, started)
    for number in range(1, 10_000):
        path = folder / (f"{stem}.json" if number == 1 else f"{stem}-{number}.json")
        try:
            create_save_at(path, record)
        except FileExistsError:
            continue
        return path
    raise SaveError(f"{folder} already holds 9,999 saves named {stem}*.json")


def create_save_at(path: Path, record: GameRecord) -> None:
    """Write ``record`` to ``path``, which must not exist yet (raises :class:`FileExistsError`)."""
    with path.open("x", encoding="utf-8") as file:
        file.write(record.dumps() + "\n")


def overwrite_save(path: Path, record: GameRecord) -> None:
    """Replace this game's own save at ``path`` in one step (a crash leaves the old or the new)."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    temporary.write_text(record.dumps() + "\n", encoding="utf-8")
    os.replace(temporary, path)


@dataclass(frozen=True)
class SaveInfo:
    """One saved game as the list of saves shows it."""

    path: Path
    saved: datetime
    record: GameRecord | None
    problem: str = ""

    def progress(self) -> str:
        if self.record is None:
            return f"unreadable: {self.problem}"
        if not self.record.truncated:
            return f"finished after {len(self.record.actions)} actions"
        return f"in progress, {len(self.record.actions)} actions so far"

    def line(self) -> str:
        when = f"{self.saved:%Y-%m-%d %H:%M}"
        if self.record is None:
            return f"{when}  {self.path.name}  ({self.progress()})"
        humans = [str(seat) for seat, name in enumerate(self.record.seats) if name == "human"]
        people = f"you at seat {', '.join(humans)}" if humans else "bots only"
        return f"{when}  {self.record.game}, {self.record.players} players, {people}; {self.progress()}"


def iter_saves(folder: Path | None = None) -> Iterator[SaveInfo]:
    """Every ``*.json`` save in ``folder`` (default :func:`saves_dir`), newest first."""
    folder = saves_dir() if folder is None else folder
    try:
        paths = [p for p in folder.glob("*.json") if p.is_file()]
    except OSError:
        return
    stamped = []
    for path in paths:
        try:
            stamped.append((path.stat().st_mtime, path))
        except OSError:
            continue
    for mtime, path in sorted(stamped, key=lambda item: (item[0], item[1].name), reverse=True):
        saved = datetime.fromtimestamp(mtime)
        try:
            record = GameRecord.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, RecordError) as exc:
            yield SaveInfo(path, saved, None, str(exc)[:80])
            continue
        yield SaveInfo(path, saved, record)


def format_saves(folder: Path | None = None, limit: int = 20) -> str:
    """The recent saves, newest first, each with the command that resumes it."""
    folder = saves_dir() if folder is None else folder
    saves = list(iter_saves(folder))
    if not saves:
        return f"No saved games in {folder}.\nStart one with: shadowtable play GAME (see `shadowtable games`)."
    lines = [f"Saved games in {folder}, newest first:"]
    for info in saves[:limit]:
        lines.append(f"  {info.line()}")
        lines.append(f"      {resume_command(info.path)}")
    if len(saves) > limit:
        lines.append(f"  ... and {len(saves) - limit} older save(s) in {folder}")
    return "\n".join(lines)
