"""The pages' forms read into typed values: the table creation form (game, players, options, seats,
clock) and any form's text fields.  Text that is not what a field takes is refused with a
:class:`~shadowtable.server.errors.ServiceError` naming the field."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from starlette.requests import Request

from shadowtable.bots import ladder
from shadowtable.bots.ladder import LADDER, LevelRating
from shadowtable.core.errors import ShadowTableError
from shadowtable.core.registry import available_games, game_class, make
from shadowtable.core.spec import GameSpec, OptionSpec
from shadowtable.core.wording import bot_first_name
from shadowtable.server.bot_levels import (
    LEVELS,
    levels_for,
    offered_levels,
    rating,
    typical_seconds,
    withheld_levels,
)
from shadowtable.server.errors import ServiceError
from shadowtable.server.service import SERVER_REFUSED_OPTIONS, NewTable
from shadowtable.server.table import REALTIME, TURN_BASED
from shadowtable.web.option_words import option_words

BOT_LEVELS = {name: level.description for name, level in LEVELS.items()}
PACES = {"instant": "Instant", "quick": "Quick (about 0.15 s)", "relaxed": "Relaxed (about 0.8 s)"}
"""The bot paces the lobby offers (``quick`` first: the default), with their words."""
CLOCKS = {"": "No clock", "300": "5 minutes each", "900": "15 minutes each", "1800": "30 minutes each"}
MODES = {REALTIME: "Real-time (everyone plays now)", TURN_BASED: "Turn-based (over days: each move has hours or days)"}
MOVE_TIMES = {"3600": "1 hour", "43200": "12 hours", "86400": "1 day", "172800": "2 days", "259200": "3 days"}
"""The time per move a turn-based table may have (seconds), with their words (``1 day`` is the default)."""
RESERVES = {"0": "No reserve", "86400": "1 day", "259200": "3 days", "604800": "7 days"}
"""The reserve each seat of a turn-based table may have (seconds), used once a move's own time is spent."""
VACATIONS = {"0": "No vacation", "3": "3 days", "7": "7 days", "14": "14 days"}
"""The most days of vacation each seat of a turn-based table may take."""


async def form_of(request: Request) -> dict[str, str]:
    """The text fields of a posted form (files are ignored)."""
    return {key: value for key, value in (await request.form()).items() if isinstance(value, str)}


def game_specs() -> list[GameSpec]:
    return [game_class(game_id).SPEC for game_id in available_games()]


def offered_options(spec: GameSpec) -> list[OptionSpec]:
    """The options a player may set from the browser (never one naming a server file)."""
    return [option for option in spec.options if option.name not in SERVER_REFUSED_OPTIONS]


def parse_option(option: OptionSpec, raw: str) -> Any:
    """One option's form text, typed."""
    if option.type is bool:
        if raw not in {"yes", "no"}:
            raise ServiceError(f"option {option.name}: expected yes or no")
        return raw == "yes"
    if option.type is int:
        try:
            return int(raw)
        except ValueError:
            raise ServiceError(f"option {option.name}: expected a whole number") from None
    return raw


def parse_options(spec: GameSpec, form: dict[str, str]) -> dict[str, Any]:
    """The game options of a creation form (``opt_<name>`` fields), typed; unknown text refused."""
    options: dict[str, Any] = {}
    for option in offered_options(spec):
        raw = form.get(f"opt_{option.name}")
        if raw:
            options[option.name] = parse_option(option, raw)
    return options


def parse_clock(form: dict[str, str]) -> dict[str, Any] | None:
    initial = form.get("clock", "")
    if initial == "":
        return None
    try:
        initial_s, bonus_s = int(initial), int(form.get("clock_bonus", "0") or 0)
    except ValueError:
        raise ServiceError("clock: expected whole seconds") from None
    return {"initial_s": initial_s, "bonus_s": bonus_s, "on_timeout": form.get("on_timeout", "bot")}


def parse_mode(form: dict[str, str]) -> str:
    """The table's mode (real-time unless the form says turn-based)."""
    mode = form.get("mode", REALTIME) or REALTIME
    if mode not in MODES:
        raise ServiceError(f"mode: expected one of {', '.join(MODES)}")
    return mode


def parse_turn(form: dict[str, str]) -> dict[str, Any] | None:
    """A turn-based table's times from the form (``None``: a real-time table); each a whole number."""
    if parse_mode(form) != TURN_BASED:
        return None
    fields = {"move_s": ("move", "86400"), "reserve_s": ("reserve", "259200"), "vacation_days": ("vacation", "0")}
    turn: dict[str, Any] = {}
    for name, (field, default) in fields.items():
        raw = form.get(field, default) or default
        if not (raw.isascii() and raw.isdigit() and len(raw) <= 9):
            raise ServiceError(f"{field}: expected a whole number")
        turn[name] = int(raw)
    turn["on_timeout"] = form.get("turn_on_timeout", "bot")
    return turn


def bots_offered(game: str, players: int, options: dict[str, Any] | None = None) -> list[str]:
    """The bot levels the lobby offers for ``game`` with ``players`` players and ``options`` (default
    options when ``None``): those that play it here and, above level 1, are shown stronger than the
    level below by the ladder's results for that configuration."""
    return offered_levels(game, players, options=options)


def seconds_words(seconds: float | None) -> str | None:
    """A typical time per move in words (``0.4 s``, ``under 0.01 s``), or ``None`` if unmeasured."""
    if seconds is None:
        return None
    return "under 0.01 s" if seconds < 0.01 else f"{seconds:.2g} s"


def rating_words(rated: LevelRating | None) -> str | None:
    """A level's rating in words (``rated 29.7 (conservatively 21.3), rank 1 of 3``; a rating too
    uncertain to rank: ``rated 29.3 ± 7.1 from 3 games, too few to rank``), or ``None``."""
    if rated is None:
        return None
    if not rated.settled:
        games = "" if rated.seat_games is None else f" from {rated.seat_games} game{'s' * (rated.seat_games != 1)}"
        return f"rated {rated.mu:.1f} ± {rated.sigma:.1f}{games}, too few to rank"
    return f"rated {rated.mu:.1f} (conservatively {rated.ordinal:.1f}), rank {rated.rank} of {rated.rated}"


def bot_details(game: str, players: int, options: dict[str, Any] | None = None) -> dict[str, str | None]:
    """What the lobby says of each level beside its name with ``options``: its typical time per move
    and its rating, each only where measured (``None``: nothing to say)."""
    details: dict[str, str | None] = {}
    for level in LEVELS:
        seconds = seconds_words(typical_seconds(level, game, players, options=options))
        rated = rating(level, game, players, options=options)
        parts = [f"typically {seconds} a move" if seconds else None, rating_words(rated)]
        details[level] = "; ".join(part for part in parts if part) or None
    return details


def _short(level: str) -> str:
    """A level's name without its description (``Heuristic``)."""
    return BOT_LEVELS[level].split(" (")[0]


def _pct(rate: float, digits: int = 0) -> str:
    return f"{100 * rate:.{digits}f}%"


def _pcts(first: float, second: float) -> tuple[str, str]:
    """Two rates set against each other, in whole percents unless those read the same while the
    rates differ (``44.5%`` and ``43.8%``, not ``44%`` and ``44%``); rates that read the same at
    every precision are the same rate, in whole percents (``23%`` and ``23%``)."""
    for digits in (0, 1, 2):
        words = (_pct(first, digits), _pct(second, digits))
        if words[0] != words[1]:
            return words
    return _pct(first, 0), _pct(second, 0)


def evidence_words(level: str, game: str, players: int, options: dict[str, Any] | None = None) -> str | None:
    """The measured games that put ``level`` above the level below in the lobby, in words (``won 80%
    of 30 measured games against Heuristic bots (they won 20% of theirs)``), or ``None`` where no
    result is needed (levels 0 and 1) or shown."""
    result = ladder.shown_result(level, ladder.config_name(game, players, options))
    below = LADDER[level].below if level in LADDER else None
    if result is None or below is None:
        return None
    upper, lower = result["upper"], result["lower"]
    won, games, they_won = upper.get("win_rate"), upper.get("seat_games"), lower.get("win_rate")
    if not (isinstance(won, float | int) and isinstance(games, int) and isinstance(they_won, float | int)):
        return None
    against = f"against {_short(below)} bots"
    return f"won {_pct(won)} of {games:,} measured games {against} (they won {_pct(they_won)} of theirs)"


def _head_to_head_words(names: tuple[str, str], unseparated: tuple[float, float, int] | None) -> str:
    """What the head-to-head of two levels (``names``, as shown) showed, where it decided nothing (or
    that there is none)."""
    if unseparated is None:
        return f"it has not been measured against {names[1]} for this game and player count"
    first, second, games = unseparated
    first_words, second_words = _pcts(first, second)
    return (
        f"measured against each other over {games:,} games {names[0]} won {first_words} of its games and "
        f"{names[1]} {second_words} of theirs, too close to tell apart"
    )


def order_notes(game: str, players: int, offered: list[str], options: dict[str, Any] | None = None) -> list[str]:
    """A sentence for each pair of neighbouring offered levels set against the same level below (level
    2 and the policy): the head-to-head that puts the one above the other (the lobby offers both
    only where there is one, :func:`ladder.offered_ladder`)."""
    config = ladder.config_name(game, players, options)
    notes = []
    for lower, upper in zip(offered, offered[1:], strict=False):
        below = LADDER[upper].below
        if below is None or below != LADDER[lower].below:
            continue
        why = ladder.compare(upper, lower, config)
        if why.basis == "head-to-head" and why.rates is not None and why.games is not None:
            won, lost = _pcts(*why.rates)
            notes.append(
                f"{_short(upper)} is listed above {_short(lower)}: it beat it head to head; over "
                f"{why.games:,} measured games {_short(upper)} won {won} of its games and {_short(lower)} {lost} "
                "of theirs."
            )
    return notes


def withheld_notes(withheld: Sequence[ladder.Withheld]) -> list[str]:
    """A sentence for each level shown stronger than the level below that is still not offered
    (``withheld``, :func:`withheld_levels`): it was not told apart from the other level set against
    the same level below, the quicker of the two, which is offered in its place."""
    notes = []
    for left_out in withheld:
        name, beside = _short(left_out.name), _short(left_out.beside)
        below = LADDER[left_out.name].below or ""
        measured = _head_to_head_words((name, beside), left_out.comparison.unseparated)
        notes.append(
            f"Not offered here: {BOT_LEVELS[left_out.name]}. It beat {_short(below)} bots, but {measured}, "
            f"and a level is offered only where measured games have shown it stronger than the level listed "
            f"below it; {beside}, the quicker of the two, is offered."
        )
    return notes


def rank_notes(game: str, players: int, offered: list[str], options: dict[str, Any] | None = None) -> list[str]:
    """A sentence for each offered level ranked below a level it was shown to beat (the level below
    it, or a level it beat head to head): the ladder sets it one seat against the rest, the rating
    puts every level at mixed tables, and the two measures can disagree (a level's claim is the
    ladder's; the rating is how it fares mixed), or the level played fewer mixed games and ranks
    lower only for the less certain rating."""
    notes = []
    for level in offered:
        for beaten in _shown_beaten(level, game, players, offered, options):
            upper, lower = (rating(name, game, players, options=options) for name in (level, beaten))
            if upper is None or lower is None or not (upper.settled and lower.settled) or upper.rank <= lower.rank:
                continue
            upper_name, lower_name = (BOT_LEVELS[name].split(" (")[0] for name in (level, beaten))
            notes.append(_rank_note((upper_name, lower_name), upper, lower))
    return notes


def _shown_beaten(
    level: str, game: str, players: int, offered: list[str], options: dict[str, Any] | None = None
) -> list[str]:
    """The offered levels ``level`` was shown to beat here: the level below it, then those it beat
    head to head."""
    if level not in LADDER:
        return []
    below = LADDER[level].below
    config = ladder.config_name(game, players, options)
    beaten = [below] if below in offered else []
    for other in offered:
        if other in (level, below) or other not in LADDER:
            continue
        why = ladder.compare(level, other, config)
        if why.stronger and why.basis == "head-to-head":
            beaten.append(other)
    return beaten


def _in_a_sentence(name: str) -> str:
    """A level's name inside a sentence: lower case, but an acronym as it is ("ISMCTS")."""
    return " ".join(word if word.isupper() else word.lower() for word in name.split())


def _rank_note(names: tuple[str, str], upper: LevelRating, lower: LevelRating) -> str:
    """Why the upper level ranks below the lower one at mixed tables: rated weaker there, or rated
    higher but from fewer games, so that its conservative estimate (mu - 3 sigma) is the lower."""
    upper_name, lower_name = names
    if upper.mu <= lower.mu:
        return (
            f"{upper_name} beat {lower_name} in measured games with one {_in_a_sentence(upper_name)} seat "
            f"against the rest, but rates below {_in_a_sentence(lower_name)} at tables that mix every level: it "
            f"is stronger against {_in_a_sentence(lower_name)} bots, not at every table."
        )
    games = (
        f" ({upper.seat_games} against {lower.seat_games})"
        if upper.seat_games is not None and lower.seat_games is not None
        else ""
    )
    return (
        f"{upper_name} is ranked below {lower_name} only by the conservative estimate: at tables that mix "
        f"every level it is rated higher ({upper.mu:.1f} against {lower.mu:.1f}), but from fewer games{games}, "
        "so less surely."
    )


def parse_seats(form: dict[str, str], game: str, players: int, options: dict[str, Any] | None = None) -> list[str]:
    """Seat 0 is the creator's; every other seat is ``human`` or ``bot:<name>``, a level offered for
    the game, player count and ``options``."""
    seats = ["human"]
    offered = bots_offered(game, players, options)
    for i in range(1, players):
        choice = form.get(f"seat_{i}", "human")
        level = choice.removeprefix("bot:")
        if choice != "human" and level not in offered:
            if options and level in bots_offered(game, players):
                raise ServiceError(
                    f"Player {i + 1}: {BOT_LEVELS[level]} is not offered with these options "
                    "(it has not been shown stronger than the level below there)"
                )
            if level in levels_for(game, players, options):
                raise ServiceError(
                    f"Player {i + 1}: {BOT_LEVELS[level]} is not offered for this game and player count "
                    "(About the bot levels says why); choose one of the bots listed"
                )
            raise ServiceError(f"Player {i + 1}: expected human or one of the bots")
        seats.append(choice)
    return seats


def parse_players(spec: GameSpec, raw: str | None) -> int:
    try:
        players = int(raw or spec.min_players)
    except ValueError:
        raise ServiceError("players: expected a number") from None
    if not spec.min_players <= players <= spec.max_players:
        raise ServiceError(f"players: {spec.name} takes {spec.min_players} to {spec.max_players}")
    return players


def parse_seat_number(raw: str) -> int | None:
    """The seat a join form asks for (``None``: the first free one)."""
    try:
        return int(raw) if raw != "" else None
    except ValueError:
        raise ServiceError("seat: expected a number") from None


def spec_of(game_id: str | None) -> GameSpec:
    for spec in game_specs():
        if spec.id == game_id:
            return spec
    raise ServiceError("game: choose one of " + ", ".join(s.id for s in game_specs()))


def new_table(spec: GameSpec, players: int, form: dict[str, str]) -> NewTable:
    """The table of ``spec`` for ``players`` a creation form asks for (seat 0 is the creator's)."""
    options = parse_options(spec, form)
    return NewTable(
        spec.id,
        players,
        options,
        parse_seats(form, spec.id, players, options),
        None if parse_mode(form) == TURN_BASED else parse_clock(form),
        form.get("listed", "yes") == "yes",
        form.get("pace") or None,
        form.get("undo", "no") == "yes",
        parse_mode(form),
        parse_turn(form),
    )


def setup_fields(spec: GameSpec, players: int, query: Mapping[str, str]) -> dict[str, str]:
    """The seat and option fields of a request for the form's game-dependent part (others ignored,
    each value at most 40 characters: a seat is ``human`` or ``bot:<level>``, an option short text)."""
    names = [f"seat_{i}" for i in range(1, players)] + [f"opt_{o.name}" for o in offered_options(spec)]
    return {name: query[name] for name in names if name in query and len(query[name]) <= 40}


def setup_options(spec: GameSpec, players: int, chosen: Mapping[str, str]) -> dict[str, Any]:
    """The options ``chosen`` (the form's ``opt_`` fields) if the game takes them with ``players``
    players; else none (the default options: the form refuses them in words when it is sent)."""
    try:
        options = parse_options(spec, dict(chosen))
        make(spec.id, players=players, **options)
    except (ShadowTableError, ValueError):
        return {}
    return options


def _away_from_default(option: OptionSpec, raw: str) -> bool:
    """Whether the form text ``raw`` sets ``option`` to something other than its default (text
    that is not a value counts: the form shows it open, to be corrected)."""
    if not raw:
        return False
    try:
        return not option.is_standard(parse_option(option, raw))
    except ServiceError:
        return True


def setup_context(
    spec: GameSpec, players: int, options: dict[str, Any] | None = None, chosen: dict[str, str] | None = None
) -> dict[str, Any]:
    """What the game-dependent part of the creation form shows (each option in words) with
    ``options`` (the levels offered, their ratings and evidence are those of that configuration);
    ``chosen``: the form's seat and option fields as they were, kept where they still fit."""
    shown_options = offered_options(spec)
    offered = bots_offered(spec.id, players, options)
    withheld = withheld_levels(spec.id, players, options=options)
    left_out = {level.name for level in withheld}
    return {
        "spec": spec,
        "players": players,
        "options": shown_options,
        "words": {option.name: option_words(spec.id, option) for option in shown_options},
        "bots": BOT_LEVELS,
        "bots_here": offered,
        "bots_not_shown": [
            level for level in levels_for(spec.id, players, options) if level not in offered and level not in left_out
        ],
        "withheld_notes": withheld_notes(withheld),
        "bot_details": bot_details(spec.id, players, options),
        "rank_notes": rank_notes(spec.id, players, offered, options),
        "evidence": {level: evidence_words(level, spec.id, players, options) for level in offered},
        "order_notes": order_notes(spec.id, players, offered, options),
        "bot_names": {seat: bot_first_name(seat) for seat in range(players)},
        "chosen": chosen or {},
        "options_set": ladder.config_name(spec.id, players, options) != ladder.config_name(spec.id, players),
        "options_open": any(_away_from_default(o, (chosen or {}).get(f"opt_{o.name}", "")) for o in shown_options),
    }
