"""The ``shadowtable`` command line: thin wrappers over library functions."""

from __future__ import annotations

import importlib
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Annotated, Any

import typer

from shadowtable.bots.base import check_bot_fits
from shadowtable.bots.registry import make_bot
from shadowtable.core.errors import InvalidSeatError, RecordError, ShadowTableError
from shadowtable.core.game import Game
from shadowtable.core.record import SEED_RANGE, GameRecord, is_seed, replay_final
from shadowtable.core.records_io import iter_records
from shadowtable.core.registry import available_games, game_class, make
from shadowtable.sim.batch import line_up
from shadowtable.sim.parallel import BACKENDS, BatchJob, default_workers, run_batch
from shadowtable.sim.progress import batch_progress
from shadowtable.sim.summary import format_summary, summarize

app = typer.Typer(
    help="ShadowTable: The Shadow Planet and Shadowlord! rules engines, bots and tools.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)
content_app = typer.Typer(help="Validate content (card and board data) files.", no_args_is_help=True)
app.add_typer(content_app, name="content")
account_app = typer.Typer(help="Look after the game server's player accounts.", no_args_is_help=True)
app.add_typer(account_app, name="account")


class CliError(ShadowTableError):
    """A bad command-line argument."""


def parse_options(pairs: list[str]) -> dict[str, Any]:
    """``["key=value", ...]`` to a dict; values are read as JSON when they parse, else as text."""
    options: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise CliError(f"bad --option {pair!r}; expected key=value")
        try:
            options[key] = json.loads(value)
        except json.JSONDecodeError:
            options[key] = value
        except RecursionError as exc:
            raise CliError(f"bad --option {key}: the value is nested too deeply") from exc
    content = options.get("content")
    if isinstance(content, str) and content.endswith(".json") and os.path.isfile(content):
        _read_json_file(Path(content), "--option content=")
    return options


def _read_json_file(path: Path, what: str = "") -> Any:
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


def _check_output(path: Path | None, option: str, *, force: bool, resume: bool | None = None) -> None:
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


def _same_path(one: Path, other: Path) -> bool:
    return one.resolve() == other.resolve() or (one.exists() and other.exists() and one.samefile(other))


def _shown(text: str) -> str:
    """``repr(text)``, cut to 60 characters."""
    return repr(text) if len(text) <= 58 else repr(text[:55] + "...")


def _check_seat(seat: int | None, players: int, option: str = "--seat", where: str = "") -> None:
    """Refuse a seat that is not one of ``players`` seats (``None``, a spectator, is fine)."""
    if seat is not None and not 0 <= seat < players:
        raise InvalidSeatError(
            f"{where}{option} {seat}: seats must be between 0 and {players - 1} for {players} players"
        )


def _hotseat_seats(text: str, players: int) -> list[int]:
    """The seats of ``--hotseat`` (``"0,2"``), each checked against the player count."""
    parts = [part.strip() for part in text.split(",") if part.strip()]
    try:
        seats = [int(part) for part in parts]
    except ValueError as exc:
        raise CliError(f"--hotseat {_shown(text)}: expected seat numbers separated by commas, e.g. 0,2") from exc
    if not seats:
        raise CliError(f"--hotseat {_shown(text)} names no seat; expected seat numbers separated by commas, e.g. 0,2")
    for seat in seats:
        if not 0 <= seat < players:
            raise InvalidSeatError(
                f"--hotseat {_shown(text)}: seats must be between 0 and {players - 1} for {players} players"
            )
    return sorted(set(seats))


def _check_play_seats(game_id: str, players: int, seat: int, hotseat: str | None, watch: bool) -> None:
    """Check ``play``'s game and player count first, then its seats, so each error names the right range."""
    game_class(game_id).SPEC.check_players(players)
    if hotseat is not None:
        _hotseat_seats(hotseat, players)
    elif not watch:
        _check_seat(seat, players)


def _import_plugins(names: list[str] | None) -> tuple[str, ...]:
    """Import each ``--plugin`` module; :class:`CliError` for one that does not import."""
    for name in names or []:
        if not name.strip():
            raise CliError("--plugin needs a module name, e.g. --plugin mypackage.games")
        try:
            importlib.import_module(name)
        except (ImportError, ValueError, TypeError) as exc:
            raise CliError(f"--plugin {_shown(name)}: cannot import it: {exc}") from exc
    return tuple(names or [])


def _check_bots(bot_specs: tuple[str, ...] | list[str], players: int) -> None:
    line_up(bot_specs, players)
    for spec in set(bot_specs):
        make_bot(spec)


def _replayed(record: GameRecord, label: str) -> tuple[Game[Any], Any]:
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


def _print_version(value: bool) -> None:
    if value:
        import shadowtable

        typer.echo(f"shadowtable {shadowtable.__version__}, {shadowtable.build()}, Python {sys.version.split()[0]}")
        raise typer.Exit()


@app.callback()
def _main(
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_print_version, is_eager=True, help="Print the version and the build, and exit."
        ),
    ] = False,
) -> None:
    """ShadowTable: The Shadow Planet and Shadowlord! rules engines, bots and tools."""


@app.command()
def games() -> None:
    """List the available games with their player counts and options."""
    for game_id in available_games():
        spec = game_class(game_id).SPEC
        typer.echo(f"{spec.id:<16} {spec.name} v{spec.version}, {spec.min_players}-{spec.max_players} players")
        for opt in spec.options:
            typer.echo(f"    --option {opt.name}=<{opt.type.__name__}> (default {opt.default!r}): {opt.doc}")


@app.command()
def simulate(
    game: Annotated[str, typer.Argument(help="game id, see `shadowtable games`")],
    players: Annotated[int, typer.Option(help="number of players")],
    games: Annotated[int, typer.Option("--games", help="number of games", min=1)] = 100,
    seed: Annotated[int, typer.Option(help="master seed; every game's seed derives from it")] = 0,
    bots: Annotated[str, typer.Option(help="one bot for every seat, or one per seat, comma-separated")] = "random",
    out: Annotated[Path | None, typer.Option(help="stream every game record as JSON lines here")] = None,
    option: Annotated[list[str] | None, typer.Option(help="game option key=value (repeatable)")] = None,
    workers: Annotated[int, typer.Option(help="worker processes (0: all cores)", min=0)] = 0,
    resume: Annotated[bool, typer.Option(help="keep the games already in --out and play the rest")] = False,
    force: Annotated[bool, typer.Option(help="replace an existing --out file")] = False,
    backend: Annotated[str, typer.Option(help="local (process pool) or ray")] = "local",
    address: Annotated[str | None, typer.Option(help="Ray cluster address (with --backend ray)")] = None,
    progress: Annotated[bool, typer.Option(help="show a progress bar")] = True,
    plugin: Annotated[
        list[str] | None, typer.Option(help="module to import first, e.g. one registering a game")
    ] = None,
) -> None:
    """Play seeded games between bots and print win rate by seat and game length."""
    if resume and out is None:
        raise CliError("--resume needs --out")
    _check_output(out, "--out", force=force, resume=resume)
    if backend not in BACKENDS:
        raise CliError(f"--backend {_shown(backend)}: use {' or '.join(BACKENDS)}")
    if backend == "ray":
        from shadowtable.sim.ray_backend import require_ray

        require_ray()
    plugins = _import_plugins(plugin)
    job = BatchJob(game, players, tuple(bots.split(",")), games, seed, parse_options(option or []), plugins)
    make(job.game, players=job.players, **job.options)  # fail fast on a bad game, count or option
    _check_bots(job.bot_specs, job.players)
    with batch_progress(games, enabled=progress) as bar:
        records = run_batch(
            job,
            out=out,
            resume=resume,
            workers=workers or default_workers(),
            backend=backend,
            address=address,
            progress=bar.advance,
            on_start=bar.start,
        )
    typer.echo(format_summary(summarize(records)))
    if out:
        typer.echo(f"{len(records)} records in {out}")


@app.command()
def tournament(
    game: Annotated[str, typer.Argument(help="game id, see `shadowtable games`")],
    players: Annotated[int, typer.Option(help="number of players")],
    bots: Annotated[
        str,
        typer.Option(help="bot specs, comma-separated; SPEC*K gives a bot K places, e.g. ismcts,heuristic*3"),
    ],
    games: Annotated[int, typer.Option("--games", help="number of games (with --resume: in all)", min=1)] = 100,
    seed: Annotated[int, typer.Option(help="master seed")] = 0,
    out: Annotated[Path | None, typer.Option(help="write the result as JSON here")] = None,
    records: Annotated[
        Path | None, typer.Option(help="write every game record as JSON lines here, flushed after each game")
    ] = None,
    option: Annotated[list[str] | None, typer.Option(help="game option key=value (repeatable)")] = None,
    workers: Annotated[int, typer.Option(help="worker processes (0: all cores)", min=0)] = 1,
    resume: Annotated[
        bool,
        typer.Option(help="count the games already in --records, play the rest up to --games (and rewrite --out)"),
    ] = False,
    force: Annotated[bool, typer.Option(help="replace an existing --out or --records file")] = False,
    progress: Annotated[bool, typer.Option(help="show the games done, time elapsed and time left")] = True,
) -> None:
    """Seats rotated fairly; win rates by bot, seat and role with 95% intervals; openskill ratings."""
    from shadowtable.sim.tournament import format_table, run_tournament

    if resume and records is None:
        raise CliError("--resume needs --records, the records file of the run to resume")
    if out is not None and records is not None and _same_path(out, records):
        raise CliError("--out and --records must be different files")
    _check_output(records, "--records", force=force, resume=resume)
    _check_output(out, "--out", force=force, resume=resume)
    with batch_progress(games, enabled=progress) as bar:
        result = run_tournament(
            game,
            players,
            [b for b in bots.split(",") if b.strip()],
            games,
            seed,
            parse_options(option or []),
            lambda done, total: bar.update(done),
            records_path=records,
            workers=workers or default_workers(),
            resume=resume,
            on_start=lambda done, total: bar.start(done),
        )
    typer.echo(format_table(result))
    if out is not None:
        out.write_text(result.dumps() + "\n", encoding="utf-8")
        typer.echo(f"result written to {out}")


@app.command()
def report(
    files: Annotated[list[Path], typer.Argument(help="record files (JSON lines) to include")],
    out: Annotated[Path, typer.Option(help="the HTML report to write")] = Path("report.html"),
    title: Annotated[str, typer.Option(help="the report's title")] = "ShadowTable balance report",
    force: Annotated[bool, typer.Option(help="replace an existing --out file")] = False,
) -> None:
    """Build a self-contained HTML balance report (plots embedded) from game records."""
    from shadowtable.sim.report import require_matplotlib, write_report

    _check_output(out, "--out", force=force)
    require_matplotlib()
    records = [record for file in files for record in iter_records(file)]
    write_report(records, out, title=title)
    typer.echo(f"report of {len(records)} games written to {out}")


@app.command()
def sweep(
    game: Annotated[str, typer.Argument(help="game id")],
    players: Annotated[int, typer.Option(help="number of players")],
    set_: Annotated[list[str], typer.Option("--set", help="option=value1,value2,... (repeatable: a grid)")],
    games: Annotated[int, typer.Option("--games", help="games per grid point", min=1)] = 200,
    seed: Annotated[int, typer.Option(help="master seed, shared by every grid point")] = 0,
    bots: Annotated[str, typer.Option(help="bot specs, comma-separated")] = "random",
    workers: Annotated[int, typer.Option(help="worker processes (0: all cores)", min=0)] = 0,
    out: Annotated[Path | None, typer.Option(help="write the sweep as JSON here")] = None,
    force: Annotated[bool, typer.Option(help="replace an existing --out file")] = False,
) -> None:
    """Run a grid over game options and report how each point changes the balance."""
    from shadowtable.sim.sweep import format_sweep, grid_points, parse_grid, point_options, run_sweep

    try:
        grid = parse_grid(set_)
    except ValueError as exc:
        raise CliError(str(exc)) from exc
    _check_output(out, "--out", force=force)
    with tempfile.TemporaryDirectory(prefix="shadowtable-sweep-check-") as folder:
        for point in grid_points(grid):  # fail fast on a bad game, count or grid point
            make(game, players=players, **point_options(game, point, {}, Path(folder)))
    _check_bots(bots.split(","), players)
    points = run_sweep(game, players, bots.split(","), games, seed, grid, workers=workers or default_workers())
    typer.echo(format_sweep(points))
    if out is not None:
        out.write_text(json.dumps([p.to_json() for p in points], indent=2) + "\n", encoding="utf-8")


@app.command()
def export(
    files: Annotated[list[Path], typer.Argument(help="record files (JSON lines)")],
    out: Annotated[Path, typer.Option(help="output file: .csv or .parquet")],
    force: Annotated[bool, typer.Option(help="replace an existing --out file")] = False,
) -> None:
    """Flatten records to one row per game and seat, as CSV or Parquet (with pyarrow)."""
    from shadowtable.sim.export import require_pyarrow, write_csv, write_parquet

    if out.suffix not in (".csv", ".parquet"):
        raise CliError(f"--out must end in .csv or .parquet, got {out.name!r}")
    _check_output(out, "--out", force=force)
    if out.suffix == ".parquet":
        require_pyarrow()
    records = [record for file in files for record in iter_records(file)]
    count = write_csv(records, out) if out.suffix == ".csv" else write_parquet(records, out)
    typer.echo(f"{count} rows written to {out}")


@app.command()
def replay(
    file: Annotated[Path, typer.Argument(help="a record file: JSON lines or one JSON record")],
    seat: Annotated[int | None, typer.Option(help="show the final position from this seat's view")] = None,
    show: Annotated[bool, typer.Option(help="print the final position")] = False,
) -> None:
    """Replay every record of FILE, check it reproduces its result, and report it."""
    records = list(iter_records(file))
    for number, record in enumerate(records, start=1):
        _check_seat(seat, record.players, where=f"record {number}: " if len(records) > 1 else "")
    count = 0
    for number, record in enumerate(records, start=1):
        game, state = _replayed(record, f"{file}: record {number}")
        terminal = game.is_terminal(state)
        status = f"returns {game.returns(state)}" if terminal else "unfinished"
        typer.echo(
            f"record {number}: {record.game} v{record.version}, {record.players} players, "
            f"{len(record.actions)} actions, {status}"
        )
        if show or seat is not None:
            typer.echo(game.render(game.observe(state, seat)))
        count += 1
    typer.echo(f"{count} record(s) replayed identically")


@app.command()
def play(
    names: Annotated[
        list[str] | None,
        typer.Argument(
            metavar="GAME|FILE",
            help="the game id (see `shadowtable games`); with --load: the save FILE to resume",
            show_default=False,
        ),
    ] = None,
    players: Annotated[int, typer.Option(help="number of players")] = 4,
    seat: Annotated[int, typer.Option(help="your seat")] = 0,
    bots: Annotated[str, typer.Option(help="bots for the other seats: one for all, or one per bot seat")] = "random",
    seed: Annotated[
        int | None,
        typer.Option(
            help="testing and demos only: a master seed that fixes every shuffle and roll. The save then holds it, "
            "so anyone who opens the save can compute every future draw. Default: the operating system's "
            "randomness, never saved"
        ),
    ] = None,
    hotseat: Annotated[str | None, typer.Option(help="several people at one screen: their seats, e.g. 0,2")] = None,
    watch: Annotated[bool, typer.Option(help="watch bots play every seat")] = False,
    speed: Annotated[float, typer.Option(help="seconds per step when watching")] = 0.3,
    load: Annotated[
        bool,
        typer.Option("--load", help="resume a saved game: --load FILE; --load alone lists your recent saves"),
    ] = False,
    save: Annotated[
        Path | None,
        typer.Option(
            help="where to save (default: a new file in the saves folder, see docs/play.md); "
            "an existing file is refused unless it is the save being resumed"
        ),
    ] = None,
    option: Annotated[list[str] | None, typer.Option(help="game option key=value (repeatable)")] = None,
    trust_edited: Annotated[
        bool,
        typer.Option(
            "--trust-edited",
            help="with --load: resume a save that was changed after it was saved (or saved by another user); "
            "whoever changed it may have chosen its draws",
        ),
    ] = False,
) -> None:
    """Play in the terminal against bots, with friends at one screen, or watch bots play.

    Quitting (q) saves a game in progress and prints the command that resumes it.
    """
    from shadowtable.saves import format_saves

    args = list(names or [])
    if load and not args:
        typer.echo(format_saves())
        return
    if load:
        if len(args) > 2:
            raise CliError("--load takes one save file (optionally after the game id): shadowtable play --load FILE")
        if seed is not None:
            raise CliError("--seed cannot be used with --load: a resumed game keeps its own randomness")
        load_file: Path | None = Path(args[-1])
        game_id = args[0] if len(args) == 2 else ""
    else:
        if len(args) != 1:
            raise CliError(
                "name one game, e.g. shadowtable play shadow-planet (see `shadowtable games`); "
                "to resume a save: shadowtable play --load FILE"
            )
        load_file, game_id = None, args[0]
        _check_play_seats(game_id, players, seat, hotseat, watch)
        if not is_seed(seed):
            raise CliError(f"--seed must be {SEED_RANGE}, got {seed}")
    if save is not None and save.exists() and not (load_file is not None and _same_file(save, load_file)):
        raise CliError(
            f"{save} already exists; a save never replaces another file. "
            f"Choose a new --save path, or resume that game with: shadowtable play --load {save}"
        )
    if trust_edited and load_file is None:
        raise CliError("--trust-edited goes with --load FILE")
    app_cls, table = _tui_table(
        game_id, players, seat, bots, seed, hotseat, watch, load_file, option or [], trust_edited
    )
    play_app = app_cls(
        table,
        save_path=save,
        resumed_from=load_file,
        hotseat=hotseat is not None,
        watch_delay=speed if watch else None,
    )
    try:
        play_app.run()
    except BaseException as exc:  # the app itself failed to run or was interrupted: save first
        if not play_app.crashed:
            typer.echo(play_app.rescue(exc), err=True)
        raise
    if play_app.exit_report:
        typer.echo(play_app.exit_report, err=play_app.crashed)
    if play_app.crashed:
        raise typer.Exit(1)


def _same_file(one: Path, other: Path) -> bool:
    try:
        return one.resolve() == other.resolve() or one.samefile(other)
    except OSError:
        return False


def _tui_table(
    game_id: str,
    players: int,
    seat: int,
    bots: str,
    seed: int | None,
    hotseat: str | None,
    watch: bool,
    load: Path | None,
    options: list[str],
    trust_edited: bool = False,
) -> tuple[Any, Any]:
    """The app class and the table: a new game (no seed: system randomness), or the save ``load``.

    With ``load``, ``game_id`` may be empty; when given it must be the save's game.
    """
    try:
        from shadowtable.tui.app import PlayApp
        from shadowtable.tui.table import Table, parse_seats, seat_bots
    except ImportError as exc:
        raise CliError("the terminal game needs the [tui] extra: pip install 'shadowtable[tui]'") from exc
    from shadowtable.core.runner import Session
    from shadowtable.saves import read_save

    if load is not None:
        if not load.is_file():
            raise CliError(f"no save file {load}; `shadowtable play --load` lists your saves")
        loaded = read_save(load, trust_edited=trust_edited)
        record = loaded.record
        if game_id and game_id != record.game:
            raise CliError(f"{load} is a saved game of {record.game}, not {game_id}")
        humans = [i for i, name in enumerate(record.seats) if name == "human"]
        session = Session.resume(record, [None if i in humans else make_bot(n) for i, n in enumerate(record.seats)])
        if loaded.warning:  # last: a save refused for another reason prints its one error line only
            typer.echo(f"warning: {loaded.warning}", err=True)
        return PlayApp, Table(session, humans)
    humans = [] if watch else parse_seats(hotseat, players) if hotseat else parse_seats(str(seat), players)
    specs = seat_bots(humans, players, bots.split(","))
    game = make(game_id, players=players, **parse_options(options))
    seat_list = [None if spec is None else make_bot(spec) for spec in specs]
    for bot in seat_list:
        if bot is not None:
            check_bot_fits(bot, game)  # a bot that cannot play this game is refused before the app starts
    names = ["human" if spec is None else spec for spec in specs]
    return PlayApp, Table(Session(game, seat_list, seed, seat_names=names), humans)


@app.command()
def view(
    file: Annotated[Path, typer.Argument(help="a record file (the first record is shown unless --index)")],
    seat: Annotated[int | None, typer.Option(help="whose view (default: spectator)")] = None,
    index: Annotated[int, typer.Option(help="which record of the file, from 0")] = 0,
) -> None:
    """Step through a recorded game in the terminal from one seat's view or a spectator's."""
    try:
        from shadowtable.tui.replay_view import ReplayApp
    except ImportError as exc:
        raise CliError("the replay viewer needs the [tui] extra: pip install 'shadowtable[tui]'") from exc
    records = list(iter_records(file))
    if not 0 <= index < len(records):
        raise CliError(f"{file} has {len(records)} record(s); --index {index} is out of range")
    record = records[index]
    _check_seat(seat, record.players)
    _replayed(record, f"{file}: record {index}")  # a record that does not replay is refused before the viewer starts
    ReplayApp(record, seat).run()


@app.command()
def serve(
    host: Annotated[str, typer.Option(envvar="SHADOWTABLE_HOST", help="address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option(envvar="SHADOWTABLE_PORT", help="port to listen on", min=0, max=65535)] = 8000,
    database: Annotated[
        str,
        typer.Option(
            envvar="SHADOWTABLE_DATABASE",
            help="a SQLite file or URL, or postgresql://user@host/db (default: server.db in the data folder)",
        ),
    ] = "",
    allowed_origin: Annotated[
        list[str] | None,
        typer.Option(envvar="SHADOWTABLE_ALLOWED_ORIGINS", help="another origin whose pages may connect (repeatable)"),
    ] = None,
    grace: Annotated[
        float,
        typer.Option(envvar="SHADOWTABLE_GRACE", help="seconds a player may be away before a bot takes over", min=0),
    ] = 60.0,
    bot_budget: Annotated[
        float, typer.Option(envvar="SHADOWTABLE_BOT_BUDGET", help="seconds a bot may think per move", min=0.01)
    ] = 5.0,
    bot_workers: Annotated[
        int | None,
        typer.Option(
            envvar="SHADOWTABLE_BOT_WORKERS",
            help="processes that run bots (default: the cores less one, at least 2; 0: a thread)",
            min=0,
        ),
    ] = None,
    bot_delay: Annotated[
        float,
        typer.Option(
            envvar="SHADOWTABLE_BOT_DELAY", help="seconds a bot waits before moving, so people can follow", min=0
        ),
    ] = 0.5,
    default_bot: Annotated[
        str,
        typer.Option(
            envvar="SHADOWTABLE_DEFAULT_BOT", help="the bot that takes over a seat: a bot level, or any bot spec"
        ),
    ] = "heuristic",
    sqlite_sync: Annotated[
        str, typer.Option(envvar="SHADOWTABLE_SQLITE_SYNC", help="SQLite synchronous: NORMAL or FULL")
    ] = "NORMAL",
    log_level: Annotated[
        str, typer.Option(envvar="SHADOWTABLE_LOG_LEVEL", help="debug, info, warning or error")
    ] = "info",
    redis: Annotated[
        str,
        typer.Option(
            envvar="SHADOWTABLE_REDIS",
            help="redis://host:port/db joining several server processes on one PostgreSQL database",
        ),
    ] = "",
    lease: Annotated[
        float,
        typer.Option(
            envvar="SHADOWTABLE_LEASE", help="seconds a process owns a table without renewing (failover time)", min=1
        ),
    ] = 10.0,
    ws_frame_rate: Annotated[
        str,
        typer.Option(
            envvar="SHADOWTABLE_WS_FRAME_RATE",
            help="frames one WebSocket may send, e.g. 20/2seconds (more are refused; 3x: closed)",
        ),
    ] = "20/2seconds",
    chat_rate: Annotated[
        str, typer.Option(envvar="SHADOWTABLE_CHAT_RATE", help="chat lines one seat may send, e.g. 5/10seconds")
    ] = "5/10seconds",
    sockets_per_client: Annotated[
        int,
        typer.Option(envvar="SHADOWTABLE_SOCKETS_PER_CLIENT", help="open WebSockets per client address", min=1),
    ] = 32,
    max_body: Annotated[
        int | None, typer.Option(envvar="SHADOWTABLE_MAX_BODY", help="largest request body, bytes [65536]", min=0)
    ] = None,
    max_header: Annotated[
        int | None, typer.Option(envvar="SHADOWTABLE_MAX_HEADER", help="largest request head, bytes [16384]", min=0)
    ] = None,
    max_open_tables: Annotated[
        int | None,
        typer.Option(envvar="SHADOWTABLE_MAX_OPEN_TABLES", help="not started tables one client may create [5]", min=0),
    ] = None,
    max_free_seats: Annotated[
        int | None,
        typer.Option(
            envvar="SHADOWTABLE_MAX_FREE_SEATS", help="seats one client may take at not started tables [8]", min=0
        ),
    ] = None,
    rate_tables: Annotated[
        str | None, typer.Option(envvar="SHADOWTABLE_RATE_TABLES", help="tables per client [20/minute;200/hour]")
    ] = None,
    rate_joins: Annotated[
        str | None, typer.Option(envvar="SHADOWTABLE_RATE_JOINS", help="joins per client [30/minute]")
    ] = None,
    rate_replays: Annotated[
        str | None, typer.Option(envvar="SHADOWTABLE_RATE_REPLAYS", help="replays and records per client [120/minute]")
    ] = None,
    rate_logins: Annotated[
        str | None, typer.Option(envvar="SHADOWTABLE_RATE_LOGINS", help="log-in attempts per client [10/minute]")
    ] = None,
    rate_signups: Annotated[
        str | None, typer.Option(envvar="SHADOWTABLE_RATE_SIGNUPS", help="accounts made per client [5/hour]")
    ] = None,
    rate_login_failures: Annotated[
        str | None,
        typer.Option(envvar="SHADOWTABLE_RATE_LOGIN_FAILURES", help="wrong passwords per account name [5/15minutes]"),
    ] = None,
    secure_cookies: Annotated[
        str,
        typer.Option(
            envvar="SHADOWTABLE_SECURE_COOKIES",
            help="Secure cookies: auto (when served over TLS), always or never",
        ),
    ] = "auto",
    api_docs: Annotated[
        bool, typer.Option(envvar="SHADOWTABLE_API_DOCS", help="serve the interactive API documentation at /docs")
    ] = False,
) -> None:
    """Run the game server: tables, seats and bots over HTTP and WebSockets (needs the [web] extra).

    The token signing key comes from $SHADOWTABLE_SECRET, else a file kept in the data folder."""
    try:
        from shadowtable.server.run import ServeOptions
        from shadowtable.server.run import serve as run_server
    except ImportError as exc:
        raise CliError(
            f"the server needs the [web] extra ({exc.name} is missing): pip install 'shadowtable[web]'"
        ) from exc
    run_server(
        ServeOptions(
            host=host,
            port=port,
            database=database,
            allowed_origins=list(allowed_origin or []),
            grace_s=grace,
            bot_budget_s=bot_budget,
            bot_workers=bot_workers,
            bot_delay_s=bot_delay,
            default_bot=default_bot,
            sqlite_synchronous=sqlite_sync,
            log_level=log_level,
            redis_url=redis,
            lease_s=lease,
            ws_frame_rate=ws_frame_rate,
            chat_rate=chat_rate,
            sockets_per_client=sockets_per_client,
            limits={
                name: value
                for name, value in {
                    "max_body": max_body,
                    "max_header": max_header,
                    "max_open_tables": max_open_tables,
                    "max_free_seats": max_free_seats,
                    "rate_tables": rate_tables,
                    "rate_joins": rate_joins,
                    "rate_replays": rate_replays,
                    "rate_logins": rate_logins,
                    "rate_signups": rate_signups,
                    "rate_login_failures": rate_login_failures,
                }.items()
                if value is not None
            },
            secure_cookies=secure_cookies,
            api_docs=api_docs,
        )
    )


@account_app.command("reset-password")
def account_reset_password(
    name: Annotated[str, typer.Argument(help="the account's name (any case)")],
    database: Annotated[
        str,
        typer.Option(
            envvar="SHADOWTABLE_DATABASE",
            help="the server's database: a SQLite file or URL, or postgresql://... (default: the server's default)",
        ),
    ] = "",
    url: Annotated[
        str,
        typer.Option(
            envvar="SHADOWTABLE_PUBLIC_URL",
            help="the server's address the link starts with (default: http://$SHADOWTABLE_HOST:$SHADOWTABLE_PORT)",
        ),
    ] = "",
    valid_for: Annotated[
        float, typer.Option(help="minutes the link works", min=1, max=7 * 24 * 60, envvar="SHADOWTABLE_RESET_MINUTES")
    ] = 60.0,
) -> None:
    """Print a single-use link with which the player NAME sets a new password (see docs/deploy.md)."""
    import asyncio
    import datetime

    try:
        from shadowtable.server.accounts import reset_code_in
        from shadowtable.server.config import ServerConfig
        from shadowtable.server.store import sqlite_file
    except ImportError as exc:
        raise CliError(
            f"accounts need the [web] extra ({exc.name} is missing): pip install 'shadowtable[web]'"
        ) from exc
    target = ServerConfig(database=database).database_url()
    path = sqlite_file(target)
    if path is not None and not path.is_file():
        raise CliError(f"no server database at {path}: pass the server's --database")
    account, code, expires = asyncio.run(reset_code_in(target, name, valid_for * 60))
    host, port = os.environ.get("SHADOWTABLE_HOST", "127.0.0.1"), os.environ.get("SHADOWTABLE_PORT", "8000")
    base = url or f"http://{host}:{port}"
    until = datetime.datetime.fromtimestamp(expires, tz=datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    typer.echo(f"Password reset link for {account.name} (works once, until {until}):")
    typer.echo(f"{base.rstrip('/')}/account/reset/{code}")


@content_app.command("check")
def content_check(
    file: Annotated[Path, typer.Argument(help="a content JSON file")],
    game: Annotated[str | None, typer.Option(help="game id (default: the file's 'game' field)")] = None,
) -> None:
    """Validate a content file; errors name the file, the card and the field."""
    data = _read_json_file(file)
    game_id = game or _content_game(file, data)
    package = importlib.import_module(game_class(game_id).__module__.rsplit(".", 1)[0])
    checker = getattr(package, "check_content_file", None)
    if checker is None:
        raise CliError(f"game {game_id!r} has no content files to check")
    for line in checker(str(file)):
        typer.echo(line)
    typer.echo(f"{file}: OK")


@app.command()
def train(
    game: Annotated[str, typer.Argument(help="game id, see `shadowtable games`")],
    players: Annotated[int, typer.Option(help="number of players")],
    out: Annotated[Path, typer.Option(help="folder for the checkpoint, policy.pt and progress.csv")],
    iterations: Annotated[int, typer.Option(help="iterations in all (with --resume: up to this many)", min=1)] = 100,
    games: Annotated[int, typer.Option("--games", help="games per iteration", min=1)] = 64,
    seed: Annotated[int, typer.Option(help="seed of the run (networks, games, evaluations)")] = 0,
    device: Annotated[str, typer.Option(help="auto (CUDA where available), cpu or cuda")] = "auto",
    threads: Annotated[int, typer.Option(help="CPU threads for PyTorch (1 is fastest for small batches)", min=1)] = 1,
    hidden: Annotated[str, typer.Option(help="hidden layer sizes, comma-separated")] = "256,256",
    lr: Annotated[float, typer.Option(help="Adam learning rate", min=0.0)] = 3e-4,
    self_play: Annotated[
        float, typer.Option(help="share of games with the learner in every seat", min=0.0, max=1.0)
    ] = 0.5,
    league: Annotated[
        str, typer.Option(help="opponents of the other games with weights: bot specs and past (a past self)")
    ] = "heuristic=0.4,past=0.4,random=0.2",
    snapshot_every: Annotated[int, typer.Option(help="iterations between past selves joining the league", min=1)] = 5,
    eval_every: Annotated[int, typer.Option(help="iterations between evaluations (0: none)", min=0)] = 5,
    eval_games: Annotated[
        int, typer.Option(help="games per evaluation, against each of heuristic and random", min=1)
    ] = 50,
    shaping: Annotated[float, typer.Option(help="weight of potential-based reward shaping (0: off)", min=0.0)] = 0.0,
    imitate: Annotated[str, typer.Option(help="bot spec to copy before self-play starts (a warm start)")] = "",
    imitate_games: Annotated[int, typer.Option(help="games of --imitate in every seat to copy from", min=1)] = 200,
    imitate_epochs: Annotated[int, typer.Option(help="passes over those games' choices", min=1)] = 5,
    option: Annotated[list[str] | None, typer.Option(help="game option key=value (repeatable)")] = None,
    resume: Annotated[bool, typer.Option(help="go on with the run saved in --out")] = False,
    force: Annotated[bool, typer.Option(help="start over in a non-empty --out")] = False,
    progress: Annotated[bool, typer.Option(help="show a progress bar")] = True,
    plugin: Annotated[
        list[str] | None, typer.Option(help="module to import first, e.g. one registering a game")
    ] = None,
) -> None:
    """Train a policy by self-play PPO; play it with the bot spec policy:path=OUT/policy.pt.

    With --resume, a run goes on with its saved settings; only --iterations may grow.
    """
    try:
        from shadowtable.learn import trainer
    except ImportError:
        raise CliError("shadowtable train needs PyTorch: pip install -e '.[train]'") from None
    _import_plugins(plugin)
    trainer.use_threads(threads)
    settings = trainer.TrainSettings(
        game=game,
        players=players,
        options=parse_options(option or []),
        iterations=iterations,
        games=games,
        hidden=_sizes(hidden),
        lr=lr,
        self_play=self_play,
        league=_league(league),
        snapshot_every=snapshot_every,
        eval_every=eval_every,
        eval_games=eval_games,
        shaping=shaping,
        imitate=imitate,
        imitate_games=imitate_games,
        imitate_epochs=imitate_epochs,
        seed=seed,
        device=device,
    )
    make(game, players=players, **settings.options)  # fail fast on a bad game, count or option
    for kind, _ in settings.league:
        if kind != "past":
            _check_bots([kind], players)
    if imitate:
        _check_bots([imitate], players)
    try:
        run = trainer.start(settings, out, resume=resume, force=force)
        run.settings = trainer.TrainSettings.from_json({**run.settings.to_json(), "iterations": iterations})
    except ValueError as exc:
        raise CliError(str(exc)) from None
    typer.echo(f"training {game} ({players} players) on {run.device}, iteration {run.iteration} of {iterations}")
    with batch_progress(iterations, enabled=progress) as bar:
        bar.start(run.iteration)

        def report(row: dict[str, Any]) -> None:
            bar.advance(1)
            rates = [
                f"{row[f'win_vs_{b}']:.2f} against {b}" for b in run.settings.eval_against if row[f"win_vs_{b}"] != ""
            ]
            if rates:
                typer.echo(f"iteration {row['iteration']}: win rate {', '.join(rates)}")

        def warmed(stats: dict[str, Any]) -> None:
            typer.echo(
                f"warm start: copied {stats['bot']} from {stats['decisions']} choices in {stats['games']} games, "
                f"{stats['accuracy']:.0%} of them ranked first"
            )

        try:
            trainer.train(run, out, iterations, report, warmed)
        except KeyboardInterrupt:
            typer.echo(
                f"interrupted: {run.iteration} iterations are saved in {out}; go on with the same command and --resume",
                err=True,
            )
            raise typer.Exit(130) from None
    typer.echo(f"policy in {out / trainer.POLICY}; play it with --bots policy:path={out / trainer.POLICY}")


def _sizes(text: str) -> tuple[int, ...]:
    try:
        sizes = tuple(int(part) for part in text.split(","))
    except ValueError:
        raise CliError(f"--hidden {_shown(text)}: expected sizes such as 256,256") from None
    if not sizes or any(size < 1 for size in sizes):
        raise CliError(f"--hidden {_shown(text)}: expected sizes such as 256,256")
    return sizes


def _league(text: str) -> tuple[tuple[str, float], ...]:
    out: list[tuple[str, float]] = []
    for part in text.split(","):
        kind, sep, weight = part.strip().rpartition("=")
        try:
            value = float(weight)
        except ValueError:
            value = -1.0
        if not sep or not kind or value < 0:
            raise CliError(f"--league {_shown(text)}: expected kind=weight pairs, e.g. heuristic=0.5,past=0.5")
        out.append((kind, value))
    if sum(w for _, w in out) <= 0:
        raise CliError("--league: the weights must not all be 0")
    return tuple(out)


def _content_game(file: Path, data: Any) -> str:
    if isinstance(data, dict) and isinstance(data.get("game"), str):
        return str(data["game"])
    fmt = data.get("format") if isinstance(data, dict) else None
    if isinstance(fmt, str) and "-content/" in fmt:
        return fmt.split("-content/")[0]
    raise CliError(f"{file}: no 'game' or 'format' field naming the game; pass --game")


def main(argv: list[str] | None = None) -> int:
    """Run the CLI; typed errors become a one-line message and exit status 2."""
    try:
        result = app(args=argv, standalone_mode=False)  # a command's typer.Exit(code) comes back as its code
    except ShadowTableError as exc:
        typer.echo(f"error: {exc}", err=True)
        return 2
    except OSError as exc:
        typer.echo(f"error: {exc}", err=True)
        return 2
    except typer.Abort:
        typer.echo("aborted", err=True)
        return 130
    except typer.Exit as exc:
        return int(exc.exit_code)
    except Exception as exc:
        if type(exc).__name__ == "NoArgsIsHelpError":  # a bare command group: its help, not an error
            exc.show()  # type: ignore[attr-defined]
            return int(exc.exit_code)  # type: ignore[attr-defined]
        if _is_usage_error(exc):
            typer.echo(f"error: {_usage_message(exc)}", err=True)
            return 2
        raise
    return result if isinstance(result, int) and not isinstance(result, bool) else 0


def _is_usage_error(exc: Exception) -> bool:
    """Click's usage errors (Typer bundles its own Click) carry ``show`` and ``exit_code``."""
    return any(cls.__name__ == "ClickException" for cls in type(exc).__mro__)


def _usage_message(exc: Exception) -> str:
    """A Click error as one line, with where to find the command's help."""
    message = " ".join(str(exc.format_message()).split())  # type: ignore[attr-defined]
    ctx = getattr(exc, "ctx", None)
    if ctx is None:
        return message
    root = ctx.find_root().info_name or ""
    command = "shadowtable" + ctx.command_path[len(root) :] if ctx.command_path.startswith(root) else ctx.command_path
    return f"{message} (see '{command} --help')"


def run() -> None:
    """Console-script entry point."""
    sys.exit(main())


if __name__ == "__main__":
    run()
