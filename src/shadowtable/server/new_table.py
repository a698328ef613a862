"""What a new table is made of, checked: its game, seats and clock, and the names players take.

Every check raises :class:`~shadowtable.server.errors.ServiceError` with what was wrong; nothing
here touches the database.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from shadowtable.core.errors import ShadowTableError
from shadowtable.core.game import Game
from shadowtable.core.registry import game_class, make
from shadowtable.server.bot_levels import check_seat_bot
from shadowtable.server.errors import ServiceError
from shadowtable.server.names import default_name
from shadowtable.server.table import BOT_PACES, REALTIME, TURN_BASED, Seat, StoredClock, TurnRules

NAME_LIMIT = 32
TIMEOUT_POLICIES = ("bot", "skip")
MODES = (REALTIME, TURN_BASED)
HOUR_S, DAY_S = 3600, 86400
MOVE_S = (HOUR_S, 14 * DAY_S)
"""The least and most time a turn-based decision may have (whole seconds)."""
RESERVE_S = (0, 30 * DAY_S)
"""The least and most reserve a turn-based seat may have (whole seconds)."""
VACATION_DAYS = (0, 30)
"""The least and most days of vacation a turn-based table may allow each seat."""
SERVER_REFUSED_OPTIONS = frozenset({"content"})
"""Options naming a file on the server's own disk: never accepted from a client."""


@dataclass(frozen=True)
class NewTable:
    """What a table is created with (validated by :meth:`TableService.create`)."""

    game: str
    players: int
    options: dict[str, Any]
    seats: list[str]
    """Per seat: ``"human"`` or ``"bot:<level>"`` (e.g. ``"bot:heuristic"``; see ``bot_levels``)."""
    clock: Mapping[str, object] | None = None
    """``initial_s``, ``bonus_s`` (whole seconds) and ``on_timeout``, as a client gives them."""
    listed: bool = True
    pace: str | None = None
    """The bots' pace (a key of ``BOT_PACES``); ``None``: the server's default delay."""
    undo: bool = False
    """Whether a seat may take back its last decisions while they revealed nothing (the table is
    then never rated)."""
    mode: str = REALTIME
    """``realtime`` or ``turn-based`` (then ``turn`` holds its rules)."""
    turn: Mapping[str, object] | None = None
    """A turn-based table's ``move_s``, ``reserve_s`` (whole seconds), ``on_timeout`` and
    ``vacation_days``, as a client gives them."""


def refuse_server_options(options: dict[str, Any]) -> None:
    """Refuse an option naming a file on the server's disk (:data:`SERVER_REFUSED_OPTIONS`)."""
    refused = sorted(name for name in SERVER_REFUSED_OPTIONS & set(options) if options[name] is not None)
    if refused:
        raise ServiceError(f"option {refused[0]!r} is not accepted by the server (it names a file on its disk)")


def new_game(game_id: str, players: int, options: dict[str, Any]) -> Game[Any]:
    """The game a new table plays, each option left unset at its default where people play
    (Shadowlord!'s turn cap: none); :class:`ServiceError` for an unknown game, player count or
    option (``players`` is the table's own field, never an option)."""
    if "players" in options:
        raise ServiceError("options: 'players' is not a game option (the player count is the table's 'players')")
    try:
        return make(game_id, players=players, **game_class(game_id).SPEC.people_options(options))
    except ShadowTableError as exc:
        raise ServiceError(str(exc)) from exc
    except (TypeError, ValueError) as exc:
        raise ServiceError(f"options: not accepted by {game_id}: {str(exc)[:200]}") from exc


def new_seats(specs: list[str], game: Game[Any], default_bot: str | None = None) -> list[Seat]:
    """The seats of a new table: ``human`` or ``bot:<level>`` (``default_bot``, if given, too);
    nothing is loaded to check a bot (its level says what it plays)."""
    players = game.players
    if len(specs) != players:
        raise ServiceError(f"seats: expected {players} entries (human or bot:<level>), got {len(specs)}")
    seats = []
    for i, spec in enumerate(specs):
        if spec == "human":
            seats.append(Seat("human", None, None, None))
            continue
        kind, _, bot = spec.partition(":")
        if kind != "bot" or not bot:
            raise ServiceError(f"seats[{i}]: expected 'human' or 'bot:<level>', got {spec[:40]!r}")
        if bot != default_bot:
            try:
                check_seat_bot(bot, game.spec.id, players, game.options)  # refused now, not at its first decision
            except ShadowTableError as exc:
                raise ServiceError(f"seats[{i}]: {exc}") from exc
        seats.append(Seat("bot", bot, None, None))
    return seats


def new_clock(clock: Mapping[str, object] | None) -> StoredClock | None:
    """A client's clock (whole seconds and a timeout policy) as stored (milliseconds)."""
    if clock is None:
        return None
    initial, bonus, policy = clock.get("initial_s"), clock.get("bonus_s", 0), clock.get("on_timeout", "bot")
    for name, value, low in (("initial_s", initial, 1), ("bonus_s", bonus, 0)):
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= 7 * 24 * 3600:
            raise ServiceError(f"clock.{name}: expected whole seconds from {low} to 604800")
    if policy not in TIMEOUT_POLICIES:
        raise ServiceError(f"clock.on_timeout: expected one of {', '.join(TIMEOUT_POLICIES)}")
    assert isinstance(initial, int) and isinstance(bonus, int)
    return StoredClock(initial_ms=initial * 1000, bonus_ms=bonus * 1000, on_timeout=str(policy))


def whole(name: str, value: object, low: int, high: int) -> int:
    """``value`` if it is a whole number from ``low`` to ``high``; :class:`ServiceError` naming ``name``."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ServiceError(f"{name}: expected a whole number from {low} to {high}")
    return value


def new_turn(mode: str, turn: Mapping[str, object] | None, clock: object) -> TurnRules | None:
    """A turn-based table's rules, checked (``None`` for a real-time table); a turn-based table has
    no real-time clock."""
    if mode not in MODES:
        raise ServiceError(f"mode: expected one of {', '.join(MODES)}")
    if mode == REALTIME:
        if turn is not None:
            raise ServiceError("turn: only a turn-based table (mode: turn-based) has turn rules")
        return None
    if clock is not None:
        raise ServiceError("clock: a turn-based table has a time per move (turn), not a real-time clock")
    given = turn or {}
    unknown = sorted(set(given) - set(TurnRules.__annotations__))
    if unknown:
        raise ServiceError(f"turn: unknown field {unknown[0][:40]!r}")
    policy = given.get("on_timeout", "bot")
    if policy not in TIMEOUT_POLICIES:
        raise ServiceError(f"turn.on_timeout: expected one of {', '.join(TIMEOUT_POLICIES)}")
    return TurnRules(
        move_s=whole("turn.move_s", given.get("move_s", DAY_S), *MOVE_S),
        reserve_s=whole("turn.reserve_s", given.get("reserve_s", 3 * DAY_S), *RESERVE_S),
        on_timeout=str(policy),
        vacation_days=whole("turn.vacation_days", given.get("vacation_days", 0), *VACATION_DAYS),
    )


def new_pace(pace: str | None) -> str | None:
    """A client's bot pace, checked (``None``: the server's default delay)."""
    if pace is not None and pace not in BOT_PACES:
        raise ServiceError(f"pace: expected one of {', '.join(BOT_PACES)}")
    return pace


def display_name(name: str | None, seat: int) -> str:
    """The name shown for a player (``Player N`` when none is given); :class:`ServiceError` if unfit."""
    shown = " ".join((name or "").split())
    if not shown:
        return default_name(seat)
    if len(shown) > NAME_LIMIT or not shown.isprintable():
        raise ServiceError(f"name: 1 to {NAME_LIMIT} printable characters")
    return shown
