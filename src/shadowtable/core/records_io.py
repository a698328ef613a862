"""Reading and writing game records as JSON lines (or one JSON document)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TextIO

from shadowtable.core.errors import RecordError
from shadowtable.core.record import GameRecord, parse_json


def write_record(stream: TextIO, record: GameRecord) -> None:
    """Append one record as a JSON line and flush, so an interrupted run keeps it."""
    stream.write(record.dumps() + "\n")
    stream.flush()


def write_records(path: str | Path, records: Iterable[GameRecord]) -> int:
    """Write records to a JSON-lines file; returns how many were written."""
    count = 0
    with open(path, "w", encoding="utf-8") as stream:
        for record in records:
            write_record(stream, record)
            count += 1
    return count


def iter_records(path: str | Path) -> Iterator[GameRecord]:
    """Records from a JSON-lines file or a file holding one JSON record (or a list of them).

    Errors name the file and line of the bad record.
    """
    text = read_text(path)
    stripped = text.strip()
    if not stripped:
        raise RecordError(f"{path}: no records")
    if stripped.startswith("[") or ("\n" in stripped and stripped.startswith("{\n")):
        yield from _records_from_document(path, stripped)
        return
    for number, line in enumerate(text.splitlines(), start=1):
        if line.strip():
            yield _parse(path, number, line)


def read_text(path: str | Path) -> str:
    """The UTF-8 text of ``path``; :class:`RecordError` naming the file (and line) when unreadable."""
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise RecordError(f"{path}: cannot read: {exc.strerror or exc}") from exc
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise RecordError(f"{path}:{line}: not UTF-8 text (byte {exc.start}: {exc.reason})") from exc


def _records_from_document(path: str | Path, text: str) -> Iterator[GameRecord]:
    try:
        data = parse_json(text, "the document")
    except RecordError as exc:
        raise RecordError(f"{path}: {exc}") from exc
    for index, item in enumerate(data if isinstance(data, list) else [data]):
        try:
            yield GameRecord.from_json(item)
        except RecordError as exc:
            raise RecordError(f"{path}: record {index}: {exc}") from exc


def _parse(path: str | Path, number: int, line: str) -> GameRecord:
    try:
        return GameRecord.loads(line)
    except RecordError as exc:
        raise RecordError(f"{path}:{number}: {exc}") from exc
