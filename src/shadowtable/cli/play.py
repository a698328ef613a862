"""``shadowtable play``: a game in the terminal against bots, at one screen, or watched.

A crash inside the app saves the game and prints how to resume it (exit status 1); a crash or an
interrupt around the app saves first, then propagates.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Annotated, Any

import typer

from shadowtable.bots.base import check_bot_fits
from shadowtable.bots.registry import make_bot
from shadowtable.cli.checks import check_seat, same_path, shown
from shadowtable.cli.errors import CliError
from shadowtable.cli.options import game_options
from shadowtable.cli.params import GameOptions
from shadowtable.core.errors import InvalidSeatError
from shadowtable.core.record import SEED_RANGE, is_seed
from shadowtable.core.registry import game_class, make
from shadowtable.tui.terminal import NoTerminal

Names = Annotated[
    list[str] | None,
    typer.Argument(
        metavar="GAME|FILE",
        help="the game id (see `shadowtable games`); with --load: the save FILE to resume",
        show_default=False,
    ),
]
Seed = Annotated[
    int | None,
    typer.Option(
        help="testing and demos only: a master seed that fixes every shuffle and roll. The save then holds it, "
        "so anyone who opens the save can compute every future draw. Default: the operating system's "
        "randomness, never saved"
    ),
]
Load = Annotated[
    bool, typer.Option("--load", help="resume a saved game: --load FILE; --load alone lists your recent saves")
]
Save = Annotated[
    Path | None,
    typer.Option(
        help="where to save (default: a new file in the saves folder, see docs/play.md); "
        "an existing file is refused unless it is the save being resumed"
    ),
]
TrustEdited = Annotated[
    bool,
    typer.Option(
        "--trust-edited",
        help="with --load: resume a save that was changed after it was saved (or saved by another user); "
        "whoever changed it may have chosen its draws",
    ),
]


@dataclass(frozen=True)
class PlaySettings:
    """A new game (``load`` is ``None``) or a save to resume, and how the terminal app runs it."""

    game: str
    players: int = 4
    seat: int = 0
    bots: tuple[str, ...] = ()
    """The bots named for the other seats (none: :func:`~shadowtable.bots.ladder.default_level`)."""
    seed: int | None = None
    hotseat: str | None = None
    watch: bool = False
    speed: float = 0.3
    load: Path | None = None
    save: Path | None = None
    options: dict[str, Any] = field(default_factory=dict)
    trust_edited: bool = False


def play(
    names: Names = None,
    players: Annotated[int, typer.Option(help="number of players")] = 4,
    seat: Annotated[int, typer.Option(help="your seat")] = 0,
    bots: Annotated[
        str,
        typer.Option(
            help="bots for the other seats: one for all, or one per bot seat; a spec or a ladder level "
            "(level0..level2, policy); if not given, the heuristic (level 1), or random where no heuristic plays"
        ),
    ] = "",
    seed: Seed = None,
    hotseat: Annotated[str | None, typer.Option(help="several people at one screen: their seats, e.g. 0,2")] = None,
    watch: Annotated[bool, typer.Option(help="watch bots play every seat")] = False,
    speed: Annotated[float, typer.Option(help="seconds per step when watching")] = 0.3,
    load: Load = False,
    save: Save = None,
    option: GameOptions = None,
    trust_edited: TrustEdited = False,
) -> None:
    """Play in the terminal against bots, with friends at one screen, or watch bots play.

    Quitting (q) saves a game in progress and prints the command that resumes it.
    """
    if load and not names:
        from shadowtable.saves import format_saves

        typer.echo(format_saves())
        return
    game, load_file = game_and_save(names or [], load=load, seed=seed)
    options = game_options(option)
    settings = PlaySettings(
        game,
        players,
        seat,
        tuple(bot.strip() for bot in bots.split(",") if bot.strip()),
        seed,
        hotseat,
        watch,
        speed,
        load_file,
        save,
        options,
        trust_edited,
    )
    play_game(settings)


def game_and_save(args: list[str], *, load: bool, seed: int | None) -> tuple[str, Path | None]:
    """The game id (``""``: the save's) and the save to resume, from ``play``'s positional arguments."""
    if not load:
        if len(args) != 1:
            raise CliError(
                "name one game, e.g. shadowtable play shadow-planet (see `shadowtable games`); "
                "to resume a save: shadowtable play --load FILE"
            )
        return args[0], None
    if len(args) > 2:
        raise CliError("--load takes one save file (optionally after the game id): shadowtable play --load FILE")
    if seed is not None:
        raise CliError("--seed cannot be used with --load: a resumed game keeps its own randomness")
    return (args[0] if len(args) == 2 else ""), Path(args[-1])


def hotseat_seats(text: str, players: int) -> list[int]:
    """The seats of ``--hotseat`` (``"0,2"``), each checked against the player count."""
    parts = [part.strip() for part in text.split(",") if part.strip()]
    try:
        seats = [int(part) for part in parts]
    except ValueError as exc:
        raise CliError(f"--hotseat {shown(text)}: expected seat numbers separated by commas, e.g. 0,2") from exc
    if not seats:
        raise CliError(f"--hotseat {shown(text)} names no seat; expected seat numbers separated by commas, e.g. 0,2")
    for seat in seats:
        if not 0 <= seat < players:
            raise InvalidSeatError(
                f"--hotseat {shown(text)}: seats must be between 0 and {players - 1} for {players} players"
            )
    return sorted(set(seats))


def human_seats(settings: PlaySettings) -> list[int]:
    """The people's seats of a new game, checked in order: the game and player count, then the seats."""
    game_class(settings.game).SPEC.check_players(settings.players)
    hotseat = None if settings.hotseat is None else hotseat_seats(settings.hotseat, settings.players)
    if settings.watch:
        return []
    if hotseat is not None:
        return hotseat
    check_seat(settings.seat, settings.players)
    return [settings.seat]


def check_play(settings: PlaySettings) -> None:
    """Refuse, before the app starts, a bad seed, a save path that would replace a file, a stray flag."""
    if settings.load is None and not is_seed(settings.seed):
        raise CliError(f"--seed must be {SEED_RANGE}, got {settings.seed}")
    save, load = settings.save, settings.load
    if save is not None and save.exists() and not (load is not None and same_path(save, load)):
        raise CliError(
            f"{save} already exists; a save never replaces another file. "
            f"Choose a new --save path, or resume that game with: shadowtable play --load {save}"
        )
    if settings.trust_edited and load is None:
        raise CliError("--trust-edited goes with --load FILE")


def _tui() -> tuple[ModuleType, ModuleType]:
    """The terminal app's modules; :class:`CliError` without the [tui] extra."""
    try:
        from shadowtable.tui import app, table
    except ImportError as exc:
        raise CliError("the terminal game needs the [tui] extra: pip install 'shadowtable[tui]'") from exc
    return app, table


def new_table(settings: PlaySettings, humans: list[int]) -> Any:
    """A table for a new game (no seed: the system's randomness), its bots checked to fit the game."""
    from shadowtable.core.runner import Session

    table = _tui()[1]
    from shadowtable.bots.ladder import default_level, resolve_spec

    named = settings.bots or (default_level(settings.game),)
    bots = [resolve_spec(bot, settings.game) for bot in named]  # a level name plays its spec
    specs = table.seat_bots(humans, settings.players, bots)
    options = game_class(settings.game).SPEC.people_options(settings.options)  # Shadowlord!: no turn cap
    game = make(settings.game, players=settings.players, **options)
    seat_list = [None if spec is None else make_bot(spec) for spec in specs]
    for bot in seat_list:
        if bot is not None:
            check_bot_fits(bot, game)  # a bot that cannot play this game is refused before the app starts
    names = ["human" if spec is None else spec for spec in specs]
    return table.Table(Session(game, seat_list, settings.seed, seat_names=names), humans)


def resumed_table(settings: PlaySettings, load: Path) -> Any:
    """A table for the save ``load``; ``settings.game``, when given, must be the save's game."""
    from shadowtable.core.runner import Session
    from shadowtable.saves import read_save

    table = _tui()[1]
    if not load.is_file():
        raise CliError(f"no save file {load}; `shadowtable play --load` lists your saves")
    loaded = read_save(load, trust_edited=settings.trust_edited)
    record = loaded.record
    if settings.game and settings.game != record.game:
        raise CliError(f"{load} is a saved game of {record.game}, not {settings.game}")
    humans = [i for i, name in enumerate(record.seats) if name == "human"]
    session = Session.resume(record, [None if i in humans else make_bot(n) for i, n in enumerate(record.seats)])
    if loaded.warning:  # last: a save refused for another reason prints its one error line only
        typer.echo(f"warning: {loaded.warning}", err=True)
    return table.Table(session, humans)


def play_game(settings: PlaySettings) -> None:
    """Check the settings, build the table, and run the terminal app (:class:`~shadowtable.tui.app.PlayApp`)."""
    humans = human_seats(settings) if settings.load is None else []
    check_play(settings)
    table = new_table(settings, humans) if settings.load is None else resumed_table(settings, settings.load)
    play_app = _tui()[0].PlayApp(
        table,
        save_path=settings.save,
        resumed_from=settings.load,
        hotseat=settings.hotseat is not None,
        watch_delay=settings.speed if settings.watch else None,
    )
    try:
        play_app.run()
    except NoTerminal:  # refused before it started: nothing to save
        raise
    except BaseException as exc:  # the app itself failed to run or was interrupted: save first
        if not play_app.crashed:
            typer.echo(play_app.rescue(exc), err=True)
        raise
    if play_app.exit_report:
        typer.echo(play_app.exit_report, err=play_app.crashed)
    if play_app.crashed:
        raise typer.Exit(1)
