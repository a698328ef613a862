"""``main`` maps errors by their type: typed errors and bad usage are one ``error:`` line and exit 2;
anything else is a crash and propagates, whatever its class is called."""

from __future__ import annotations

import inspect

import pytest
import typer

from shadowtable.cli import entry, main
from shadowtable.cli import games as games_command
from shadowtable.core.errors import ShadowTableError


class OddError(ShadowTableError):
    """A ShadowTable error main has never heard of."""


class ClickException(Exception):
    """Not Click's: only the name is the same."""


class NoArgsIsHelpError(Exception):
    """Not Click's: only the name is the same."""


def _games_raising(monkeypatch: pytest.MonkeyPatch, exc: BaseException) -> None:
    def failing() -> list[str]:
        raise exc

    monkeypatch.setattr(games_command, "available_games", failing)


@pytest.mark.parametrize(
    "exc", [OddError("the odd thing"), OSError(28, "No space left on device"), FileNotFoundError("gone")]
)
def test_typed_errors_are_one_line_and_exit_2(
    exc: Exception, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _games_raising(monkeypatch, exc)
    assert main(["games"]) == 2
    captured = capsys.readouterr()
    assert captured.err == f"error: {exc}\n" and "Traceback" not in captured.err


@pytest.mark.parametrize(
    "exc", [ClickException("named like Click's"), NoArgsIsHelpError("named like Click's"), RuntimeError("a bug")]
)
def test_other_errors_propagate_whatever_their_name(exc: Exception, monkeypatch: pytest.MonkeyPatch) -> None:
    _games_raising(monkeypatch, exc)
    with pytest.raises(type(exc)):
        main(["games"])


def test_an_interrupt_is_aborted_with_status_130(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _games_raising(monkeypatch, KeyboardInterrupt())
    assert main(["games"]) == 130
    assert "Traceback" not in capsys.readouterr().err


def test_an_exit_keeps_its_status_and_an_abort_is_130(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _games_raising(monkeypatch, typer.Exit(3))
    assert main(["games"]) == 3
    _games_raising(monkeypatch, typer.Abort())
    assert main(["games"]) == 130
    assert capsys.readouterr().err == "aborted\n"


def test_bad_usage_is_one_line_naming_the_commands_help(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "tiny-showdown", "--players", "x"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and err.rstrip().endswith("(see 'shadowtable simulate --help')")
    assert len(err.splitlines()) == 1


def test_a_bare_command_group_shows_its_help(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["account"])
    captured = capsys.readouterr()
    assert code != 0 and "reset-password" in captured.out + captured.err and "error:" not in captured.err


def test_main_names_no_error_class_by_its_name() -> None:
    source = inspect.getsource(entry)
    assert "__name__" not in source and "__mro__" not in source


def test_click_errors_are_the_ones_typer_raises() -> None:
    from shadowtable.cli.errors import BareGroupError, ClickError

    assert issubclass(typer.BadParameter, ClickError)
    assert issubclass(BareGroupError, ClickError)
