"""Saved games of people playing: where they live, fresh names, listing them.

A save is a game record (JSON) in the per-user data folder (``platformdirs``; the environment
variable ``SHADOWTABLE_DATA_DIR`` overrides it), named after the game, the player count and the
date and time the game started: ``shadow-planet-4p-2026-11-30-1705.json``.  A new save never
replaces an existing file; only the game that owns a save file writes it again.

Each save is sealed: its ``seal`` field is an HMAC-SHA256 of the rest of the record (canonical
JSON), keyed with a secret of this user's, ``save-key`` in the data folder (made on first use,
readable by its owner only).  :func:`read_save` refuses a save whose seal does not match (an
edited draw, action or seat) unless told to trust it, and loads one without a seal (made before
seals, or where the key could not be made) with a warning.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
import shlex
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from shadowtable.core.errors import RecordError, ShadowTableError
from shadowtable.core.record import GameRecord, parse_json
from shadowtable.core.wording import counted

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


KEY_NAME = "save-key"
"""The file in the data folder holding this user's secret that seals saves."""
SEAL_FIELD = "seal"
"""The field of a saved record that holds its seal."""
SEAL_SCHEME = "hmac-sha256:"


def key_path() -> Path:
    """Where this user's save key lives: ``save-key`` in :func:`data_dir`."""
    return data_dir() / KEY_NAME


def save_key(*, create: bool) -> bytes | None:
    """This user's save key; ``None`` when there is none yet and ``create`` is false.  A new key
    is 32 random bytes, written as hex to a file only its owner can read or write (0600)."""
    path = key_path()
    for _ in range(2):
        try:
            text = path.read_text(encoding="ascii").strip()
        except FileNotFoundError:
            if not create:
                return None
            path.parent.mkdir(parents=True, exist_ok=True)
            try:
                descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            except FileExistsError:
                continue  # made a moment ago by another game: read that one
            with os.fdopen(descriptor, "w", encoding="ascii") as file:
                file.write(secrets.token_hex(32) + "\n")
            continue
        except (OSError, UnicodeDecodeError) as exc:
            raise SaveError(f"cannot read the save key {path}: {exc}") from exc
        try:
            key = bytes.fromhex(text)
        except ValueError:
            key = b""
        if len(key) < 16:
            raise SaveError(f"the save key {path} is damaged; delete it to make a new one")
        return key
    raise SaveError(f"cannot make the save key {path}")


def seal_of(data: dict[str, object], key: bytes) -> str:
    """The seal of a record's JSON data (without its seal): HMAC-SHA256 of its canonical JSON."""
    canonical = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return SEAL_SCHEME + hmac.new(key, canonical.encode("ascii"), hashlib.sha256).hexdigest()


def save_text(record: GameRecord) -> str:
    """The text of a save of ``record``: one JSON line, sealed with this user's key (made on first
    use).  Where the key cannot be made or read, the save is written unsealed rather than lost."""
    data = record.to_json()
    try:
        key = save_key(create=True)
    except (OSError, SaveError):
        key = None
    if key is not None:
        data[SEAL_FIELD] = seal_of(data, key)
    return json.dumps(data, separators=(",", ":")) + "\n"


@dataclass(frozen=True)
class LoadedSave:
    """A save read back: its record, and a warning to show (``""``: none)."""

    record: GameRecord
    warning: str = ""


def read_save(path: Path, *, trust_edited: bool = False) -> LoadedSave:
    """The game saved at ``path``, its seal checked.

    Raises :class:`RecordError` for a file that is not a record, and :class:`SaveError` for a
    seal that does not match (the file changed after it was saved, or was sealed with another
    user's key) unless ``trust_edited``; an unsealed save, or a mismatched one trusted, loads
    with a warning."""
    from shadowtable.core.records_io import read_text

    text = read_text(path).strip()
    if not text.startswith(("[", "{\n")):
        text = text.split("\n", 1)[0]  # JSON lines: the first record, as `replay` reads it
    data = parse_json(text, f"{path}")
    if isinstance(data, list) and data:
        data = data[0]
    try:
        record = GameRecord.from_json(data)
    except RecordError as exc:
        raise RecordError(f"{path}: {exc}") from exc
    assert isinstance(data, dict)  # from_json refuses anything else
    seal = data.get(SEAL_FIELD)
    if seal is None:
        return LoadedSave(record, f"{path} has no seal (saved by an older version): changes to it cannot be detected")
    body = {name: value for name, value in data.items() if name != SEAL_FIELD}
    key = save_key(create=False)
    if key is not None and isinstance(seal, str) and hmac.compare_digest(seal, seal_of(body, key)):
        return LoadedSave(record)
    if trust_edited:
        return LoadedSave(record, f"{path} was changed after it was saved (or saved by another user); loaded anyway")
    raise SaveError(
        f"{path} was changed after it was saved, or saved by another user (its seal does not match "
        f"{key_path()}); pass --trust-edited to load it anyway"
    )


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
    text = save_text(record)
    with path.open("x", encoding="utf-8") as file:
        file.write(text)


def overwrite_save(path: Path, record: GameRecord) -> None:
    """Replace this game's own save at ``path`` in one step (a crash leaves the old or the new)."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    temporary.write_text(save_text(record), encoding="utf-8")
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
        lines.append(f"  ... and {counted(len(saves) - limit, 'older save')} in {folder}")
    return "\n".join(lines)
