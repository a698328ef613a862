"""A lab run's specification (game, variants, bots, games, seed, probes) and its whole check.

:func:`check_spec` refuses a bad specification before any game is played, with a
:class:`LabSpecError` that names the field (a dotted path such as
``variants[1].options.repair_start``).
"""

from __future__ import annotations

import importlib
import json
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from shadowtable.core.errors import ShadowTableError

MAX_GAMES = 20000
"""Games per arm at most."""

MAX_VARIANTS = 4
"""Variants at most, the baseline included."""

MAX_PROBES = 6
"""Restricted-play probes at most."""

MAX_CONTENT_BYTES = 512 * 1024
"""The largest edited content document (as compact JSON, UTF-8)."""

MAX_NAME_CHARS = 60
"""The longest variant name."""

MAX_SEED = 2**63 - 1
"""Seeds are 0 to this."""

SEAT_ROLE_PREFIX = "seat "
"""A probe's role ``"seat N"`` restricts seat ``N`` in every game (for games without roles too)."""

SPEC_KEYS = ("game", "players", "variants", "bots", "games", "seed", "probes")
"""The fields of a specification."""


class LabSpecError(ShadowTableError, ValueError):
    """A bad lab specification; ``field`` is the dotted path of the bad value."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


@dataclass(frozen=True)
class Variant:
    """One set of rules to test: game options and, optionally, a whole edited content document."""

    name: str
    options: dict[str, Any] = field(default_factory=dict)
    content: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "options": dict(self.options), "content": self.content}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Variant:
        return cls(str(data["name"]), dict(data.get("options") or {}), data.get("content"))


@dataclass(frozen=True)
class Probe:
    """Restricted play: seats holding ``role`` never take an action of ``kind`` while another is legal."""

    role: str
    kind: str

    def to_json(self) -> dict[str, Any]:
        return {"role": self.role, "kind": self.kind}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Probe:
        return cls(str(data["role"]), str(data["kind"]))

    @property
    def label(self) -> str:
        """The probe in words."""
        return f"{self.role}: never {self.kind}"


@dataclass(frozen=True)
class LabSpec:
    """A lab run: every arm plays ``games`` games of ``game`` for ``players`` with the same seeds."""

    game: str
    players: int
    variants: tuple[Variant, ...]
    """The first is the baseline."""
    bots: tuple[str, ...]
    """One ladder level or bot spec for every seat, or one per seat."""
    games: int
    seed: int
    probes: tuple[Probe, ...] = ()
    """Each an extra arm, played on the baseline variant."""

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "players": self.players,
            "variants": [v.to_json() for v in self.variants],
            "bots": list(self.bots),
            "games": self.games,
            "seed": self.seed,
            "probes": [p.to_json() for p in self.probes],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> LabSpec:
        """The specification ``data`` describes, unchecked (see :func:`check_spec`)."""
        return cls(
            game=str(data["game"]),
            players=int(data["players"]),
            variants=tuple(Variant.from_json(v) for v in data["variants"]),
            bots=tuple(str(b) for b in data["bots"]),
            games=int(data["games"]),
            seed=int(data["seed"]),
            probes=tuple(Probe.from_json(p) for p in data.get("probes") or ()),
        )


def check_spec(data: Mapping[str, Any]) -> LabSpec:
    """The specification ``data`` describes, checked whole before any game is played.

    Checks the game, the player count, every variant's options (through the game's own option
    specs and by building the game) and content (through the game's content checker), the bots
    (ladder levels resolved), the game count, the seed and every probe's role and kind.
    """
    if not isinstance(data, Mapping):
        raise LabSpecError("spec", "must be a JSON object")
    for key in data:
        if key not in SPEC_KEYS:
            raise LabSpecError(str(key)[:40], f"unknown field; fields: {', '.join(SPEC_KEYS)}")
    for key in SPEC_KEYS[:-1]:
        if key not in data:
            raise LabSpecError(key, "is missing")
    game = _check_game(data["game"])
    players = _check_players(game, data["players"])
    variants = _check_variants(game, players, data["variants"])
    bots = _check_bots(game, players, data["bots"])
    games = _check_int("games", data["games"], 1, MAX_GAMES)
    seed = _check_int("seed", data["seed"], 0, MAX_SEED)
    probes = _check_probes(game, players, data.get("probes", []))
    return LabSpec(game, players, variants, bots, games, seed, probes)


def _check_int(name: str, value: Any, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise LabSpecError(name, f"must be a whole number, got {_shown(value)}")
    if not low <= value <= high:
        raise LabSpecError(name, f"must be {low} to {high}, got {value}")
    return value


def _shown(value: Any) -> str:
    text = json.dumps(value) if not isinstance(value, str) else repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _check_game(value: Any) -> str:
    from shadowtable.core.registry import available_games

    if not isinstance(value, str) or value not in available_games():
        raise LabSpecError("game", f"unknown game {_shown(value)}; games: {', '.join(available_games())}")
    return value


def _check_players(game: str, value: Any) -> int:
    from shadowtable.core.registry import game_class

    spec = game_class(game).SPEC
    return _check_int("players", value, spec.min_players, spec.max_players)


def _check_variants(game: str, players: int, value: Any) -> tuple[Variant, ...]:
    if not isinstance(value, list) or not 1 <= len(value) <= MAX_VARIANTS:
        raise LabSpecError("variants", f"must be a list of 1 to {MAX_VARIANTS} variants (the first is the baseline)")
    variants = tuple(_check_variant(game, players, item, f"variants[{i}]") for i, item in enumerate(value))
    names = [v.name for v in variants]
    for i, name in enumerate(names):
        if name in names[:i]:
            raise LabSpecError(f"variants[{i}].name", f"{name!r} names another variant too")
    return variants


def _check_variant(game: str, players: int, item: Any, where: str) -> Variant:
    if not isinstance(item, Mapping):
        raise LabSpecError(where, "must be an object with name, options and content")
    for key in item:
        if key not in ("name", "options", "content"):
            raise LabSpecError(f"{where}.{str(key)[:40]}", "unknown field; fields: name, options, content")
    name = item.get("name")
    if not isinstance(name, str) or not name.strip() or len(name) > MAX_NAME_CHARS:
        raise LabSpecError(f"{where}.name", f"must be a name of 1 to {MAX_NAME_CHARS} characters")
    options = _check_options(game, item.get("options") or {}, f"{where}.options")
    content = item.get("content")
    if content is not None:
        _check_content(game, content, f"{where}.content")
    _check_whole_variant(game, players, options, content, where)
    return Variant(name, options, content)


def _check_options(game: str, options: Any, where: str) -> dict[str, Any]:
    from shadowtable.core.registry import game_class

    if not isinstance(options, Mapping):
        raise LabSpecError(where, "must be an object of option name to value")
    spec = game_class(game).SPEC
    known = {option.name: option for option in spec.options}
    checked: dict[str, Any] = {}
    for name, value in options.items():
        if name == "content":
            raise LabSpecError(f"{where}.content", "give edited content as the variant's content document, not a path")
        if name not in known:
            raise LabSpecError(
                f"{where}.{str(name)[:40]}", f"no such option; options: {', '.join(sorted(set(known) - {'content'}))}"
            )
        try:
            checked[name] = known[name].validate(value)
        except ShadowTableError as exc:
            raise LabSpecError(f"{where}.{name}", str(exc)) from exc
    return checked


def content_bytes(content: Mapping[str, Any]) -> bytes:
    """The content document as the compact, key-sorted JSON it is stored and named by."""
    return json.dumps(content, sort_keys=True, separators=(",", ":")).encode("utf-8")


def content_checker(game: str) -> Callable[[str], Sequence[str]] | None:
    """The game package's ``check_content_file``, or ``None`` for a game without content files."""
    from shadowtable.core.registry import game_class

    package = importlib.import_module(game_class(game).__module__.rsplit(".", 1)[0])
    checker = getattr(package, "check_content_file", None)
    return checker if callable(checker) else None


def _check_content(game: str, content: Any, where: str) -> None:
    if not isinstance(content, Mapping):
        raise LabSpecError(where, "must be a whole content document (a JSON object)")
    checker = content_checker(game)
    if checker is None:
        raise LabSpecError(where, f"game {game!r} has no content files")
    try:
        data = content_bytes(content)
    except (TypeError, ValueError, RecursionError) as exc:
        raise LabSpecError(where, f"not a JSON document: {exc}") from exc
    if len(data) > MAX_CONTENT_BYTES:
        raise LabSpecError(where, f"is {len(data)} bytes; at most {MAX_CONTENT_BYTES}")
    with tempfile.TemporaryDirectory(prefix="shadowtable-lab-check-") as folder:
        path = Path(folder) / "content.json"
        path.write_bytes(data)
        try:
            checker(str(path))
        except ShadowTableError as exc:
            raise LabSpecError(where, str(exc).replace(str(path), "content")) from exc


def _check_whole_variant(
    game: str, players: int, options: Mapping[str, Any], content: Mapping[str, Any] | None, where: str
) -> None:
    """Build the game once: options that are fine alone but not together (or with this content) fail here."""
    from shadowtable.core.registry import make

    with tempfile.TemporaryDirectory(prefix="shadowtable-lab-check-") as folder:
        extra = {}
        if content is not None:
            path = Path(folder) / "content.json"
            path.write_bytes(content_bytes(content))
            extra["content"] = str(path)
        try:
            make(game, players=players, **options, **extra)
        except ShadowTableError as exc:
            raise LabSpecError(f"{where}.options", str(exc).replace(extra.get("content", "\0"), "content")) from exc


def _check_bots(game: str, players: int, value: Any) -> tuple[str, ...]:
    from shadowtable.bots.base import check_bot_fits
    from shadowtable.bots.ladder import resolve_spec
    from shadowtable.bots.registry import make_bot
    from shadowtable.core.registry import make

    if not isinstance(value, list) or len(value) not in (1, players):
        raise LabSpecError("bots", f"must be a list of 1 or {players} bots (a ladder level or a bot spec)")
    sample = make(game, players=players)
    for i, text in enumerate(value):
        if not isinstance(text, str) or not text.strip() or len(text) > 200:
            raise LabSpecError(f"bots[{i}]", "must be a ladder level (level0, level1...) or a bot spec")
        try:
            check_bot_fits(make_bot(resolve_spec(text, game)), sample)
        except ShadowTableError as exc:
            raise LabSpecError(f"bots[{i}]", str(exc)) from exc
    return tuple(value)


def probe_roles(game: str, players: int) -> list[str]:
    """The roles a probe may restrict: the game's own roles, then ``seat 0`` to ``seat N-1``."""
    from shadowtable.lab.kinds import game_kinds

    kinds = game_kinds(game)
    own = kinds.role_names(_sample_game(game, players)) if kinds is not None else []
    return [*own, *(f"{SEAT_ROLE_PREFIX}{seat}" for seat in range(players))]


def _sample_game(game: str, players: int) -> Any:
    from shadowtable.core.registry import make

    return make(game, players=players)


def _check_probes(game: str, players: int, value: Any) -> tuple[Probe, ...]:
    from shadowtable.lab.kinds import action_kinds

    if not isinstance(value, list) or len(value) > MAX_PROBES:
        raise LabSpecError("probes", f"must be a list of at most {MAX_PROBES} probes")
    probes = []
    roles, kinds = probe_roles(game, players), action_kinds(game)
    for i, item in enumerate(value):
        where = f"probes[{i}]"
        if not isinstance(item, Mapping) or set(item) != {"role", "kind"}:
            raise LabSpecError(where, "must be an object with role and kind")
        if item["role"] not in roles:
            raise LabSpecError(f"{where}.role", f"unknown role {_shown(item['role'])}; roles: {', '.join(roles)}")
        if not kinds:
            raise LabSpecError(f"{where}.kind", f"game {game!r} names no kinds of action")
        if item["kind"] not in kinds:
            raise LabSpecError(f"{where}.kind", f"unknown kind {_shown(item['kind'])}; kinds: {', '.join(kinds)}")
        probe = Probe(str(item["role"]), str(item["kind"]))
        if probe in probes:
            raise LabSpecError(where, "repeats another probe")
        probes.append(probe)
    return tuple(probes)
