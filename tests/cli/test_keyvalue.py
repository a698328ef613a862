"""One ``key=value`` reader for game options, bot parameters and sweep grids; bad text is a typed error."""

from __future__ import annotations

import pytest

from shadowtable.bots.registry import make_bot, parse_bot_spec
from shadowtable.cli import main
from shadowtable.core.errors import BotError, InvalidOptionError, ShadowTableError
from shadowtable.core.keyvalue import parse_pairs, read_value, split_pair
from shadowtable.sim.sweep import parse_grid

DEEP = "[" * 100_000 + "]" * 100_000


def test_values_are_json_where_they_parse_else_text() -> None:
    pairs = ["n=3", "x=0.5", "on=true", "none=null", "seats=[1, 2]", "bot=heuristic", "empty=", "path=a=b"]
    assert parse_pairs(pairs, what="--option") == {
        "n": 3,
        "x": 0.5,
        "on": True,
        "none": None,
        "seats": [1, 2],
        "bot": "heuristic",
        "empty": "",
        "path": "a=b",
    }
    assert read_value("1e3") == 1000.0 and read_value(".5") == 0.5 and read_value("+1") == 1 and read_value("007") == 7
    assert read_value("inf") == "inf" and read_value("1.2.3") == "1.2.3" and read_value(" a ") == " a "


@pytest.mark.parametrize("pair", ["oops", "=3", ""])
def test_a_pair_without_a_key_or_equals_sign_is_a_typed_error_naming_it(pair: str) -> None:
    with pytest.raises(InvalidOptionError, match=f"bad --option {pair!r}; expected key=value"):
        parse_pairs(["ok=1", pair], what="--option")
    with pytest.raises(BotError, match="bad bot parameter"):
        split_pair(pair, what="bot parameter", error=BotError)


def test_a_value_nested_too_deeply_is_a_typed_error_not_a_recursion_error() -> None:
    with pytest.raises(InvalidOptionError, match="nested too deeply"):
        parse_pairs([f"layout={DEEP}"], what="--option")
    with pytest.raises(BotError, match="nested too deeply"):
        parse_bot_spec(f"ismcts:iterations={DEEP}")


def test_bot_specs_read_their_parameters_the_same_way() -> None:
    assert parse_bot_spec("ismcts:iterations=400:time=4.000:rollout=heuristic") == (
        "ismcts",
        {"iterations": 400, "time": 4.0, "rollout": "heuristic"},
    )
    assert parse_bot_spec("random") == ("random", {})
    with pytest.raises(BotError, match="bad bot parameter 'iterations' in 'ismcts:iterations'; expected key=value"):
        make_bot("ismcts:iterations")


def test_sweep_grids_read_their_values_the_same_way() -> None:
    assert parse_grid(["rounds=1,2", "modified=true,false", "mode=a"]) == {
        "rounds": [1, 2],
        "modified": [True, False],
        "mode": ["a"],
    }
    for bad in ("rounds", "rounds=", "=1,2"):
        with pytest.raises(InvalidOptionError, match="bad --set"):
            parse_grid([bad])


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["simulate", "tiny-showdown", "--players", "2", "--option", "=2"], "bad --option '=2'"),
        (["simulate", "tiny-showdown", "--players", "2", "--option", f"rounds={DEEP}"], "nested too deeply"),
        (["sweep", "tiny-showdown", "--players", "2", "--set", "rounds="], "bad --set 'rounds='"),
        (["tournament", "tiny-showdown", "--players", "2", "--bots", "random:x", "--games", "1"], "bad bot parameter"),
    ],
)
def test_the_command_line_reports_bad_pairs_as_one_error_line(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and message in err and len(err.splitlines()) == 1


def test_the_errors_are_shadowtable_errors() -> None:
    assert issubclass(InvalidOptionError, ShadowTableError) and issubclass(BotError, ShadowTableError)
