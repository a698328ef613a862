"""Game specifications and option validation."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from shadowtable.core.errors import InvalidOptionError, InvalidPlayersError, UnknownOptionError


@dataclass(frozen=True)
class OptionSpec:
    """One game option: its name, type, default, allowed values and documentation."""

    name: str
    type: type
    default: Any
    doc: str
    choices: tuple[Any, ...] | None = None
    minimum: float | None = None
    maximum: float | None = None
    nullable: bool = False
    people_default: Any = None
    """The value where people play (a table on the server, ``shadowtable play``) and set none, if it
    differs from ``default`` (the one of simulations); ``None``: ``default``.  Either value is the
    game's standard configuration (its ladder results, shipped policy and calibration maps)."""

    def is_standard(self, value: Any) -> bool:
        """Whether ``value`` is this option's default, in simulations or where people play."""
        return bool(value == self.default or self.people_default is not None and value == self.people_default)

    def validate(self, value: Any) -> Any:
        """Return ``value`` if allowed, else raise :class:`InvalidOptionError`."""
        if value is None and self.nullable:
            return None
        if self.type is int and isinstance(value, bool) or not isinstance(value, self.type):
            raise InvalidOptionError(f"option {self.name!r} must be {self.type.__name__}, got {value!r}")
        if self.choices is not None and value not in self.choices:
            raise InvalidOptionError(f"option {self.name!r} must be one of {list(self.choices)}, got {value!r}")
        number: Any = value
        if self.minimum is not None and number < self.minimum:
            raise InvalidOptionError(f"option {self.name!r} must be >= {self.minimum}, got {value!r}")
        if self.maximum is not None and number > self.maximum:
            raise InvalidOptionError(f"option {self.name!r} must be <= {self.maximum}, got {value!r}")
        return value

    def to_json(self) -> dict[str, Any]:
        """A JSON description of the option, for docs and front ends."""
        return {
            "name": self.name,
            "type": self.type.__name__,
            "default": self.default,
            "doc": self.doc,
            "choices": list(self.choices) if self.choices is not None else None,
            **({"people_default": self.people_default} if self.people_default is not None else {}),
        }


@dataclass(frozen=True)
class GameSpec:
    """What a game declares about itself; generic tests check every game against it."""

    id: str
    name: str
    version: str
    min_players: int
    max_players: int
    num_distinct_actions: int
    max_chance_outcomes: int
    max_game_length: int
    min_utility: float
    max_utility: float
    options: tuple[OptionSpec, ...] = field(default_factory=tuple)

    def replays(self, version: str) -> bool:
        """Whether a record made with ``version`` of this game replays on this one: the same
        ``MAJOR.MINOR`` (the rules and the action ids).  The ``PATCH`` number moves for changes
        that leave every record replaying identically, such as names on the wire."""
        return rules_version(version) == rules_version(self.version)

    def option(self, name: str) -> OptionSpec:
        """The declared option called ``name``."""
        for opt in self.options:
            if opt.name == name:
                return opt
        raise UnknownOptionError(
            f"game {self.id!r} has no option {name!r}; options: {sorted(o.name for o in self.options)}"
        )

    def check_players(self, players: int) -> int:
        """Return ``players`` if supported, else raise :class:`InvalidPlayersError`."""
        if isinstance(players, bool) or not isinstance(players, int):
            raise InvalidPlayersError(f"players must be an int, got {players!r}")
        if not self.min_players <= players <= self.max_players:
            raise InvalidPlayersError(
                f"{self.id} is for {self.min_players} to {self.max_players} players, got {players}"
            )
        return players

    def resolve_options(self, given: Mapping[str, Any]) -> dict[str, Any]:
        """Validate ``given`` and fill in defaults; unknown names raise :class:`UnknownOptionError`."""
        resolved = {opt.name: opt.default for opt in self.options}
        for name, value in given.items():
            resolved[name] = self.option(name).validate(value)
        return resolved

    def people_options(self, given: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """``given`` with every option a person left unset at its :attr:`OptionSpec.people_default`
        (what a table or ``shadowtable play`` passes to the game)."""
        chosen = {opt.name: opt.people_default for opt in self.options if opt.people_default is not None}
        return {**chosen, **(given or {})}

    def to_json(self) -> dict[str, Any]:
        """A JSON description of the spec."""
        return {
            "id": self.id,
            "name": self.name,
            "version": self.version,
            "min_players": self.min_players,
            "max_players": self.max_players,
            "num_distinct_actions": self.num_distinct_actions,
            "max_chance_outcomes": self.max_chance_outcomes,
            "max_game_length": self.max_game_length,
            "utility": [self.min_utility, self.max_utility],
            "options": [o.to_json() for o in self.options],
        }


def rules_version(version: str) -> tuple[str, ...]:
    """The ``MAJOR.MINOR`` part of a ``MAJOR.MINOR.PATCH`` version (all of a shorter one), the
    part that names the rules and the action ids."""
    return tuple(version.split(".")[:2])


@dataclass(frozen=True)
class OptionWords:
    """A game option in plain words for people choosing it: a label, what it does, and what each
    allowed value means (by the value as text)."""

    label: str
    description: str
    choices: dict[str, str] = field(default_factory=dict)
