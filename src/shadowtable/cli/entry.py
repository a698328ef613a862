"""The entry points: run the Typer app and turn each kind of error, by its type, into an exit status."""

from __future__ import annotations

import sys

import typer

from shadowtable.cli.application import app
from shadowtable.cli.errors import BareGroupError, ClickError, usage_message
from shadowtable.core.errors import ShadowTableError


def _fail(message: str) -> int:
    typer.echo(f"error: {message}", err=True)
    return 2


def main(argv: list[str] | None = None) -> int:
    """Run the CLI; typed errors and bad usage become one ``error:`` line and exit status 2.

    Any other exception is a crash and propagates with its traceback (``play`` saves the game first).
    """
    try:
        result = app(args=argv, standalone_mode=False)  # a command's typer.Exit(code) comes back as its code
    except (ShadowTableError, OSError) as exc:
        return _fail(str(exc))
    except typer.Abort:
        typer.echo("aborted", err=True)
        return 130
    except typer.Exit as exc:
        return int(exc.exit_code)
    except BareGroupError as exc:
        exc.show()  # type: ignore[attr-defined]
        return int(exc.exit_code)  # type: ignore[attr-defined]
    except ClickError as exc:
        return _fail(usage_message(exc))
    return result if isinstance(result, int) and not isinstance(result, bool) else 0


def run() -> None:
    """Console-script entry point."""
    sys.exit(main())
