"""The Typer app: the ``--version`` option and every command, in the order ``--help`` lists them."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from shadowtable.cli.account import account_app
from shadowtable.cli.analyse import analyse
from shadowtable.cli.content import content_app
from shadowtable.cli.export import export
from shadowtable.cli.games import games
from shadowtable.cli.lab import lab_app
from shadowtable.cli.play import play
from shadowtable.cli.replay import replay
from shadowtable.cli.report import report
from shadowtable.cli.serve import serve
from shadowtable.cli.simulate import simulate
from shadowtable.cli.sweep import sweep
from shadowtable.cli.tournament import tournament
from shadowtable.cli.train import train
from shadowtable.cli.view import view

app = typer.Typer(
    help="ShadowTable: The Shadow Planet and Shadowlord! rules engines, bots and tools.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)
app.add_typer(content_app, name="content")
app.add_typer(account_app, name="account")
app.add_typer(lab_app, name="lab")


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


for command in (games, simulate, tournament, report, sweep, export, replay, analyse, play, view, serve, train):
    app.command()(command)
