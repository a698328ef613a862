"""Game records: JSON round-trips, clear errors for malformed records, replay."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from shadowtable.bots import RandomBot
from shadowtable.core import GameRecord, RecordError, make, play_game, replay
from shadowtable.core.records_io import iter_records, write_records


def _record(seed: int = 1) -> GameRecord:
    game = make("tiny-showdown", players=3)
    return play_game(game, [RandomBot()] * 3, seed)


def test_record_round_trips_through_json() -> None:
    record = _record()
    assert GameRecord.loads(record.dumps()) == record


def test_replay_reaches_the_recorded_returns() -> None:
    record = _record(5)
    game = make("tiny-showdown", players=3)
    assert game.returns(replay(record)) == record.returns


@pytest.mark.parametrize(
    ("mutation", "named"),
    [
        (lambda d: d.pop("game"), "'game' is missing"),
        (lambda d: d.update(players="three"), "'players'"),
        (lambda d: d.update(actions=[0, "x"]), r"actions\[1\]"),
        (lambda d: d.update(seats=["a"]), "'seats'"),
        (lambda d: d.update(seed=1.5), "'seed'"),
        (lambda d: d.update(format="other/9"), "'format'"),
        (lambda d: d.update(returns="win"), "'returns'"),
    ],
)
def test_malformed_record_names_the_bad_field(mutation, named) -> None:  # type: ignore[no-untyped-def]
    data = _record().to_json()
    mutation(data)
    with pytest.raises(RecordError, match=named):
        GameRecord.from_json(data)


def test_record_that_is_not_json_or_not_an_object() -> None:
    with pytest.raises(RecordError, match="not valid JSON"):
        GameRecord.loads("{nope")
    with pytest.raises(RecordError, match="JSON object"):
        GameRecord.from_json([1, 2])


def test_illegal_action_in_record_names_its_index() -> None:
    data = _record().to_json()
    data["actions"][4] = 7
    with pytest.raises(RecordError, match="action #4"):
        replay(GameRecord.from_json(data))


def test_version_mismatch_is_refused() -> None:
    data = _record().to_json()
    data["version"] = "0-old"
    with pytest.raises(RecordError, match="version"):
        replay(GameRecord.from_json(data))


def test_a_record_replays_on_any_version_with_the_same_rules() -> None:
    spec = make("shadowlord", players=2).spec
    assert spec.replays(spec.version)
    major, minor, patch = spec.version.split(".")
    assert spec.replays(f"{major}.{minor}.{int(patch) + 1}") and spec.replays(f"{major}.{minor}.0")
    assert not spec.replays(f"{major}.{int(minor) + 1}.0") and not spec.replays(f"{int(major) + 1}.{minor}.{patch}")
    assert not spec.replays(major) and not spec.replays(f"{major}.{minor}0.{patch}")


def test_a_golden_record_of_an_earlier_patch_replays_and_one_of_other_rules_is_refused() -> None:
    path = Path(__file__).parents[1] / "games" / "shadowlord" / "golden" / "2p-seed7.json"
    data = json.loads(path.read_text())
    game = make("shadowlord", players=2)
    major, minor, _ = game.spec.version.split(".")
    data["version"] = f"{major}.{minor}.0"  # the golden records were made with 2.1.0, before 2.1.1
    assert game.returns(replay(GameRecord.from_json(data))) == data["returns"]
    data["version"] = f"{major}.{int(minor) - 1}.0"
    with pytest.raises(RecordError, match=f"'{major}.{int(minor) - 1}.0' does not match shadowlord version"):
        replay(GameRecord.from_json(data))


def test_unknown_game_or_option_in_record() -> None:
    data = _record().to_json()
    data["options"] = {"colour": "red"}
    with pytest.raises(RecordError, match="no option 'colour'"):
        replay(GameRecord.from_json(data))
    data = _record().to_json()
    data["game"] = "chess"
    with pytest.raises(RecordError, match="unknown game 'chess'"):
        replay(GameRecord.from_json(data))


def test_json_lines_files_round_trip_and_name_the_bad_line(tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "games.jsonl"
    records = [_record(s) for s in range(3)]
    assert write_records(path, records) == 3
    assert list(iter_records(path)) == records
    lines = path.read_text().splitlines()
    lines[1] = json.dumps({"game": "tiny-showdown"})
    path.write_text("\n".join(lines))
    with pytest.raises(RecordError, match=r"games.jsonl:2: record field 'version' is missing"):
        list(iter_records(path))


def test_a_single_json_document_is_read_too(tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "one.json"
    record = _record()
    path.write_text(json.dumps(record.to_json(), indent=2))
    assert list(iter_records(path)) == [record]


@pytest.mark.parametrize(
    ("field", "value", "expected"),
    [
        ("truncated", "no", "true or false"),
        ("truncated", "false", "true or false"),
        ("truncated", 0, "true or false"),
        ("truncated", None, "true or false"),
        ("metadata", [1, 2], "an object"),
        ("metadata", "roles", "an object"),
        ("metadata", None, "an object"),
        ("metadata", 3, "an object"),
        ("options", ["rounds", 2], "expected dict"),
        ("options", None, "expected dict"),
        ("seed", "7", "expected null or a whole number from 0 to 9007199254740991"),
        ("seed", True, "expected null or a whole number"),
        ("seed", 7.0, "expected null or a whole number"),
        ("seed", -1, "expected null or a whole number from 0 to"),
        ("seed", 2**53, "expected null or a whole number from 0 to"),
        ("seed", 10**30, "expected null or a whole number from 0 to"),
        ("returns", "win", "a list of numbers or null"),
        ("returns", [True, False, False], "a list of numbers or null"),
        ("returns", ["1", 0, 0], "a list of numbers or null"),
        ("returns", {"0": 1}, "a list of numbers or null"),
        ("returns", [1.0], "expected 3 numbers"),
        ("players", 3.0, "expected int"),
        ("players", True, "expected int"),
        ("game", 5, "expected str"),
        ("version", None, "expected str"),
        ("seats", "a,b,c", "expected list"),
        ("actions", "0,1", "expected list"),
    ],
)
def test_every_field_has_its_json_type_checked_strictly(field: str, value: object, expected: str) -> None:
    """A value of the wrong JSON type is refused, never coerced (``"no"`` is not true)."""
    data = _record().to_json()
    data[field] = value
    with pytest.raises(RecordError, match=f"record field '{field}': .*{expected}"):
        GameRecord.from_json(data)


def test_optional_fields_may_be_left_out_or_null() -> None:
    data = _record().to_json()
    for name in ("seed", "returns", "truncated", "metadata"):
        del data[name]
    record = GameRecord.from_json(data)
    assert (record.seed, record.returns, record.truncated, record.metadata) == (None, None, False, {})
    assert GameRecord.from_json({**data, "seed": None, "returns": None}).seed is None


@pytest.mark.parametrize(
    "text",
    [
        "[" * 100_000,
        '{"game": ' + "[" * 100_000 + "]" * 100_000 + "}",
        '{"metadata": {"a": ' + "[" * 100_000 + "]" * 100_000 + "}}",
    ],
)
def test_deeply_nested_json_is_a_record_error_not_a_recursion_error(text: str, tmp_path) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(RecordError, match="nested too deeply"):
        GameRecord.loads(text)
    path = tmp_path / "deep.jsonl"
    path.write_text(text + "\n")
    with pytest.raises(RecordError, match="deep.jsonl.*nested too deeply"):
        list(iter_records(path))


def test_a_file_that_is_not_utf8_names_the_file_and_line(tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "latin1.jsonl"
    path.write_bytes(_record().dumps().encode() + b'\n{"game": "caf\xe9"}\n')
    with pytest.raises(RecordError, match=r"latin1.jsonl:2: not UTF-8"):
        list(iter_records(path))
