"""``shadowtable account reset-password``: a single-use link to set a player's new password."""

from __future__ import annotations

import asyncio
import datetime
import os
from dataclasses import dataclass
from typing import Annotated

import typer

from shadowtable.cli.errors import CliError, web_extra_missing

account_app = typer.Typer(help="Look after the game server's player accounts.", no_args_is_help=True)


@dataclass(frozen=True)
class ResetPasswordSettings:
    """Whose password, in which server database, and the link's address and lifetime."""

    name: str
    database: str = ""
    url: str = ""
    valid_for_minutes: float = 60.0


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
    reset_password(ResetPasswordSettings(name, database, url, valid_for))


def reset_password(settings: ResetPasswordSettings) -> None:
    """Make a reset code (:func:`shadowtable.server.accounts.reset_code_in`) and print its link."""
    try:
        from shadowtable.server.accounts import reset_code_in
        from shadowtable.server.config import ServerConfig
        from shadowtable.server.store import sqlite_file
    except ImportError as exc:
        raise web_extra_missing("accounts need", exc) from exc
    target = ServerConfig(database=settings.database).database_url()
    path = sqlite_file(target)
    if path is not None and not path.is_file():
        raise CliError(f"no server database at {path}: pass the server's --database")
    account, code, expires = asyncio.run(reset_code_in(target, settings.name, settings.valid_for_minutes * 60))
    host, port = os.environ.get("SHADOWTABLE_HOST", "127.0.0.1"), os.environ.get("SHADOWTABLE_PORT", "8000")
    base = settings.url or f"http://{host}:{port}"
    until = datetime.datetime.fromtimestamp(expires, tz=datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    typer.echo(f"Password reset link for {account.name} (works once, until {until}):")
    typer.echo(f"{base.rstrip('/')}/account/reset/{code}")
