"""Game records: everything needed to replay a game exactly, and :func:`replay`."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from shadowtable.core.errors import RecordError, ShadowTableError
from shadowtable.core.game import Game
from shadowtable.core.registry import make

RECORD_FORMAT = "shadowtable-record/1"

SEED_LIMIT = 2**53
"""Seeds are whole numbers from 0 to ``SEED_LIMIT - 1``: what every JSON reader holds exactly
(:func:`~shadowtable.core.rng.derive_seed` makes seeds of this size)."""


@dataclass(frozen=True)
class GameRecord:
    """A finished (or interrupted) game: game id and version, options, seat map, every action.

    ``actions`` holds decisions and chance outcomes alike, in order, so :func:`replay` needs no
    random numbers.
    """

    game: str
    version: str
    players: int
    options: dict[str, Any]
    seats: list[str]
    actions: list[int]
    seed: int | None = None
    returns: list[float] | None = None
    truncated: bool = False
    metadata: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The record as JSON data."""
        return {
            "format": RECORD_FORMAT,
            "game": self.game,
            "version": self.version,
            "players": self.players,
            "options": self.options,
            "seats": self.seats,
            "seed": self.seed,
            "actions": self.actions,
            "returns": self.returns,
            "truncated": self.truncated,
            "metadata": self.metadata,
        }

    def dumps(self) -> str:
        """The record as one line of JSON."""
        return json.dumps(self.to_json(), separators=(",", ":"))

    @classmethod
    def from_json(cls, data: Any) -> GameRecord:
        """Parse a record, raising :class:`RecordError` that names the first bad field."""
        if not isinstance(data, Mapping):
            raise RecordError(f"record must be a JSON object, got {type(data).__name__}")
        if data.get("format", RECORD_FORMAT) != RECORD_FORMAT:
            raise RecordError(f"record field 'format': expected {RECORD_FORMAT!r}, got {_shown(data['format'])}")
        game = _field(data, "game", str)
        version = _field(data, "version", str)
        players = _field(data, "players", int)
        options = _field(data, "options", dict)
        seats = _field(data, "seats", list)
        actions = _field(data, "actions", list)
        for i, action in enumerate(actions):
            if isinstance(action, bool) or not isinstance(action, int):
                raise RecordError(f"record field 'actions[{i}]': expected an int, got {_shown(action)}")
        if len(seats) != players or not all(isinstance(s, str) for s in seats):
            raise RecordError(f"record field 'seats': expected {players} names, got {_shown(seats)}")
        seed = data.get("seed")
        if not is_seed(seed):
            raise RecordError(f"record field 'seed': expected null or {SEED_RANGE}, got {_shown(seed)}")
        returns = data.get("returns")
        if returns is not None and (not isinstance(returns, list) or not all(_is_number(r) for r in returns)):
            raise RecordError(f"record field 'returns': expected a list of numbers or null, got {_shown(returns)}")
        if returns is not None and len(returns) != players:
            raise RecordError(f"record field 'returns': expected {players} numbers, one per seat, got {len(returns)}")
        truncated = data.get("truncated", False)
        if not isinstance(truncated, bool):
            raise RecordError(f"record field 'truncated': expected true or false, got {_shown(truncated)}")
        metadata = data.get("metadata", {})
        if not isinstance(metadata, dict):
            raise RecordError(f"record field 'metadata': expected an object, got {_shown(metadata)}")
        return cls(
            game=game,
            version=version,
            players=players,
            options=dict(options),
            seats=list(seats),
            actions=list(actions),
            seed=seed,
            returns=None if returns is None else [float(r) for r in returns],
            truncated=truncated,
            metadata=dict(metadata),
        )

    @classmethod
    def loads(cls, text: str) -> GameRecord:
        """Parse a record from JSON text."""
        return cls.from_json(parse_json(text, "record"))


def parse_json(text: str, what: str) -> Any:
    """``json.loads(text)``, raising :class:`RecordError` (naming ``what``) for bad or too deeply nested JSON."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(f"{what} is not valid JSON: {exc}") from exc
    except RecursionError as exc:
        raise RecordError(f"{what} is not readable JSON: it is nested too deeply") from exc
    except ValueError as exc:  # a number of more than 4,300 digits
        raise RecordError(f"{what} is not readable JSON: a number has too many digits") from exc


SEED_RANGE = f"a whole number from 0 to {SEED_LIMIT - 1}"


def is_seed(value: object) -> bool:
    """Whether ``value`` is ``None`` (no seed: the operating system's randomness) or a seed, a
    whole number from 0 to ``SEED_LIMIT - 1``."""
    return value is None or _is_int(value) and 0 <= value < SEED_LIMIT  # type: ignore[operator]


def check_seed(seed: object) -> int | None:
    """``seed`` if it is ``None`` or a seed (:func:`is_seed`); else :class:`RecordError`, since a
    record could not hold it."""
    if not is_seed(seed):
        raise RecordError(f"seed must be null or {SEED_RANGE}, got {_shown(seed)}")
    return seed  # type: ignore[return-value]


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _shown(value: Any) -> str:
    """``repr(value)``, cut to 80 characters."""
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def _field(data: Mapping[str, Any], name: str, kind: type) -> Any:
    if name not in data:
        raise RecordError(f"record field {name!r} is missing")
    value = data[name]
    if isinstance(value, bool) and kind is int or not isinstance(value, kind):
        raise RecordError(f"record field {name!r}: expected {kind.__name__}, got {_shown(value)}")
    return value


def game_for_record(record: GameRecord) -> Game[Any]:
    """The configured game a record was played with; checks id, options and version (a record
    replays on any version with the same rules and action ids: :meth:`GameSpec.replays`)."""
    try:
        game = make(record.game, players=record.players, **record.options)
    except ShadowTableError as exc:
        raise RecordError(f"record cannot be replayed: {exc}") from exc
    if not game.spec.replays(record.version):
        raise RecordError(
            f"record field 'version': {record.version!r} does not match {record.game} version {game.spec.version!r}"
        )
    return game


def replay_states(record: GameRecord) -> Iterator[tuple[Game[Any], Any]]:
    """Yield ``(game, state)`` for the initial state and after every action of ``record``."""
    game = game_for_record(record)
    state = game.initial_state()
    yield game, state
    for index, action in enumerate(record.actions):
        try:
            state = game.apply(state, action)
        except ShadowTableError as exc:
            raise RecordError(f"record action #{index} ({action}) does not replay: {exc}") from exc
        yield game, state


def replay_final(record: GameRecord) -> tuple[Game[Any], Any]:
    """The configured game and the final state of ``record``."""
    final: tuple[Game[Any], Any] | None = None
    for step in replay_states(record):
        final = step
    assert final is not None  # replay_states always yields the initial state
    return final


def replay(record: GameRecord) -> Any:
    """The final state of ``record``, rebuilt by applying every action in order."""
    return replay_final(record)[1]
