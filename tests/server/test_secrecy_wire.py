"""Secrecy on the wire: what a seat (or a spectator) is sent depends only on what it knows.

Two states that one reader cannot tell apart (``determinize`` of its observation) must produce
byte-identical ``view`` messages to that reader, over whole games of both titles; and a real
table, driven through the WebSocket protocol, sends each connection only the allowed frames,
each holding that reader's observation of the table's true state.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

from shadowtable.bots.registry import make_bot
from shadowtable.core.game import CHANCE, Game
from shadowtable.core.record import GameRecord, replay_states
from shadowtable.core.registry import make
from shadowtable.server.live import CHANCE_SEAT, LiveTable, Step, plan
from shadowtable.server.views import encode, legal_words, seat_view

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient  # noqa: E402

from server.conftest import config_for  # noqa: E402
from server.wire import BROWSER, Seat, create, play_out  # noqa: E402
from shadowtable.server.app import create_app  # noqa: E402

ViewBuilder = Callable[..., dict[str, Any]]

CONFIGS = [("shadow-planet", p) for p in (3, 4, 5)] + [("shadowlord", p) for p in (2, 3, 4)]
FULL_SEEDS = (0,)
"""Seeds checked at every step, for every reader."""
SAMPLED_SEEDS = (1, 2)
"""Seeds checked at every ``SAMPLE_EVERY``-th step (and the last), to cover more games in the time."""
SAMPLE_EVERY = 7

VIEW_KEYS = {
    *("t", "v", "after", "obs", "pending", "legal", "groups", "turn", "events", "clock", "presence"),
    *("results", "yours", "out", "clocks", "fast_forward", "undo"),
}
FRAME_KEYS = {
    "welcome": {"t", "seat", "table", "chat"},
    "view": VIEW_KEYS,
    "ack": {"t", "id"},
    "reject": {"t", "id", "why"},
    "presence": {"t", "presence"},
    "notice": {"t", "text"},
    "chat": {"t", "seat", "name", "text", "at"},
    "pong": {"t"},
}
SECRET_KEYS = {"seed", "actions", "state", "current_player", "record", "history"}


# -- the twin-state check -----------------------------------------------------------------------------
@dataclass
class Findings:
    """What one game's check saw: mismatches (leaks), how many views were compared, and how many
    twins were really another state (so the comparison was not vacuous)."""

    mismatches: list[str] = field(default_factory=list)
    compared: int = 0
    other_states: int = 0


def _presence(game: Game[Any]) -> list[dict[str, Any]]:
    return [
        {"seat": i, "name": f"Player {i + 1}", "kind": "human", "here": True, "bot_playing": False}
        for i in range(game.players)
    ]


def _differing_fields(one: dict[str, Any], other: dict[str, Any]) -> list[str]:
    fields = []
    for key in sorted(set(one) | set(other)):
        if encode({"x": one.get(key)}) == encode({"x": other.get(key)}):
            continue
        if key == "obs" and isinstance(one.get(key), dict) and isinstance(other.get(key), dict):
            inner = _differing_fields(one[key], other[key])
            fields += [f"obs.{name}" for name in inner]
        else:
            fields.append(key)
    return fields


def _played(game: Game[Any], seed: int) -> Iterator[tuple[int, LiveTable]]:
    """Play one game with seeded random bots on a :class:`LiveTable`, one committed step at a
    time (as the server does); yields ``(step, table)`` at the start and after every step."""
    rng = random.Random(seed)
    bot = make_bot("random")
    live = LiveTable.new(game)
    index = 0
    yield index, live
    steps = plan(game, live.state, None, None, rng)
    while True:
        for step in steps:
            live.commit([step])
            index += 1
            yield index, live
        if game.is_terminal(live.state):
            return
        seat = game.current_player(live.state)
        action = bot.choose(game, seat, game.observe(live.state, seat), game.legal_actions(live.state), rng)
        steps = plan(game, live.state, seat, action, rng)


def check_twins(title: str, players: int, seed: int, *, every: int = 1, build: ViewBuilder = seat_view) -> Findings:
    """At each ``every``-th step of a seeded game (and the last), for each seat and a spectator:
    the message built from the true state and from a twin the reader cannot tell apart, with the
    same version, events, turn, clock and presence, must be the same bytes."""
    game = make(title, players=players)
    found = Findings()
    for index, live in _played(game, seed):
        if index % every and not game.is_terminal(live.state):
            continue
        state = live.state
        for seat in live.audiences():
            channel = live.channels[seat]
            kwargs: dict[str, Any] = {
                "v": channel.v,
                "events": channel.since(channel.v - 1),
                "turn": None if seat is None else live.decisions(seat),
                "clock": None if seat is None else {"ms_left": 60_000, "running": False},
                "presence": _presence(game),
            }
            twin = game.determinize(game.observe(state, seat), random.Random(f"{seed}/{index}/{seat}"))
            true_view = build(game, state, seat, **kwargs)
            twin_view = build(game, twin, seat, **kwargs)
            found.compared += 1
            if game.state_to_json(twin) != game.state_to_json(state):
                found.other_states += 1
            deciding = seat is not None and game.current_player(state) == seat
            for name, view in (("true", true_view), ("twin", twin_view)):
                if deciding != bool(view["legal"]) or deciding != (view["groups"] is not None):
                    found.mismatches.append(f"step {index} seat {seat} ({name}): legal/groups to a non-decider")
            if encode(true_view) != encode(twin_view):
                where = f"{title} players={players} seed={seed} step={index} seat={seat}"
                found.mismatches.append(f"{where}: differs in {_differing_fields(true_view, twin_view)}")
    return found


CASES = [(title, players, seed, 1) for title, players in CONFIGS for seed in FULL_SEEDS] + [
    (title, players, seed, SAMPLE_EVERY) for title, players in CONFIGS for seed in SAMPLED_SEEDS
]


@pytest.mark.parametrize(("title", "players", "seed", "every"), CASES)
def test_readers_get_the_same_bytes_from_states_they_cannot_tell_apart(
    title: str, players: int, seed: int, every: int
) -> None:
    """Every seat and the spectator: the true state and a determinized twin give the same view."""
    found = check_twins(title, players, seed, every=every)
    assert found.mismatches == []
    assert found.compared > 50 * (players + 1) // every
    assert found.other_states > found.compared // 4, "twins were rarely another state: the check proves little"


def _leaky_everything(game: Game[Any], state: Any, seat: int | None, **kwargs: Any) -> dict[str, Any]:
    return {**seat_view(game, state, seat, **kwargs), "state": game.state_to_json(state)}


def _leaky_legal(game: Game[Any], state: Any, seat: int | None, **kwargs: Any) -> dict[str, Any]:
    """The decider's legal actions sent to every reader (they depend on the decider's hand)."""
    view = seat_view(game, state, seat, **kwargs)
    if game.current_player(state) >= 0:
        view["legal"] = view["legal"] or legal_words(game, state)
    return view


@pytest.mark.parametrize("title, players", [("shadow-planet", 3), ("shadowlord", 2)])
@pytest.mark.parametrize("leaky", [_leaky_everything, _leaky_legal])
def test_the_twin_check_catches_a_leaky_view(title: str, players: int, leaky: ViewBuilder) -> None:
    """A view with a field built from the true state differs between the state and its twin."""
    found = check_twins(title, players, 0, every=5, build=leaky)
    assert found.mismatches
    if leaky is _leaky_legal:
        assert any("legal" in m for m in found.mismatches)


# -- the wire check -----------------------------------------------------------------------------------
def _nested_keys(value: Any, path: str = "") -> Iterator[str]:
    """Every key in ``value``, at any depth, except ``actions`` in ``groups``: the protocol's
    name for the legal action ids of each choice group, sent only to the seat that decides (and
    checked against ``legal`` in :func:`view_problems`)."""
    if isinstance(value, dict):
        for key, inner in value.items():
            if not (path == "groups[]" and key == "actions"):
                yield key
            yield from _nested_keys(inner, key if not path else f"{path}.{key}")
    elif isinstance(value, list):
        for inner in value:
            yield from _nested_keys(inner, f"{path}[]")


def frame_problems(frames: list[dict[str, Any]]) -> list[str]:
    """What is wrong with the frames a connection received before ``over``: unknown types, wrong
    key sets, keys that would carry secrets (anywhere in the frame)."""
    problems = []
    for i, frame in enumerate(frames):
        kind = frame.get("t")
        if kind not in FRAME_KEYS:
            problems.append(f"frame {i}: type {kind!r} is not allowed before 'over'")
            continue
        keys = set(frame)
        if keys != FRAME_KEYS[kind] and not (kind == "notice" and FRAME_KEYS[kind] < keys):
            problems.append(f"frame {i}: {kind} has keys {sorted(keys)}, expected {sorted(FRAME_KEYS[kind])}")
        secret = SECRET_KEYS & set(_nested_keys(frame))
        if secret:
            problems.append(f"frame {i}: {kind} holds {sorted(secret)}")
    return problems


@dataclass
class Version:
    """What one reader knew at one of its versions: the observation and the states it held at."""

    obs: Any
    states: list[tuple[int, Any]] = field(default_factory=list)
    """``(decisions made by the reader, state)`` of each decision point at this version."""


def versions(record: GameRecord) -> tuple[Game[Any], dict[int | None, dict[int, Version]], LiveTable]:
    """Replay ``record`` as the server does (one step at a time on a :class:`LiveTable`): for each
    reader, what it knew at each of its versions."""
    states = [state for _, state in replay_states(record)]
    game = make(record.game, players=record.players, **record.options)
    live = LiveTable.new(game)
    known: dict[int | None, dict[int, Version]] = {a: {} for a in live.audiences()}

    def note() -> None:
        for seat in live.audiences():
            v = live.channels[seat].v
            version = known[seat].setdefault(v, Version(json.loads(encode(game.observe(live.state, seat)))))
            if game.current_player(live.state) != CHANCE:
                version.states.append((0 if seat is None else live.decisions(seat), live.state))

    note()
    for index, action in enumerate(record.actions):
        before = states[index]
        after, events = game.apply_recorded(before, action, checked=False)
        seat = game.current_player(before)
        live.commit([Step(CHANCE_SEAT if seat == CHANCE else seat, action, before, after, events)])
        note()
    return game, known, live


def view_problems(
    game: Game[Any], seat: int | None, frames: list[dict[str, Any]], known: dict[int, Version], live: LiveTable
) -> list[str]:
    """What is wrong with the views one connection received: the observation must be the reader's
    observation of the true state at that version, ``legal``/``turn`` only when it decides, and
    ``v`` must strictly increase; the events told add up to the reader's log."""
    problems = []
    last_v = -1
    told: list[dict[str, Any]] = []
    for i, view in enumerate(f for f in frames if f["t"] == "view"):
        v = view["v"]
        if v <= last_v:
            problems.append(f"view {i}: v {v} after v {last_v}")
        last_v = v
        told += view["events"]
        version = known.get(v)
        if version is None:
            problems.append(f"view {i}: v {v} is not a version of reader {seat}")
            continue
        if view["obs"] != version.obs or view["pending"] != version.obs.get("pending"):
            problems.append(f"view {i}: obs is not the reader's observation at v {v}")
        ended = any(game.is_terminal(s) for _, s in version.states)
        if (view["results"] is not None or view["yours"] is not None) != ended:
            problems.append(f"view {i}: results {'missing at' if ended else 'sent before'} the end")
        if view["out"] != game.words.out_of_game(version.states[-1][1], seat, view["events"]):
            problems.append(f"view {i}: 'out' is not what the seat's own view and events say")
        if view["legal"] is None:
            if view["turn"] is not None or view["groups"] is not None:
                problems.append(f"view {i}: turn or groups without legal actions")
            if seat is not None and not any(game.current_player(s) != seat for _, s in version.states):
                problems.append(f"view {i}: no legal actions, yet seat {seat} decides at v {v}")
            continue
        deciding = [(turn, s) for turn, s in version.states if seat is not None and game.current_player(s) == seat]
        if not any(
            view["turn"] == turn and view["legal"] == json.loads(encode({"x": legal_words(game, s)}))["x"]
            for turn, s in deciding
        ):
            problems.append(f"view {i}: legal/turn sent to reader {seat}, who does not decide so at v {v}")
        grouped = [action for group in view["groups"] or [] for action in group["actions"]]
        if sorted(grouped) != sorted(action for action, _ in view["legal"]):
            problems.append(f"view {i}: the groups' actions are not the legal actions")
    if told != live.channels[seat].since(0):
        problems.append(f"the events told to reader {seat} are not its log")
    return problems


def _play_table(client: TestClient, title: str, players: int) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """A whole game at a real table (seat 0 human, taking the first legal action; bots elsewhere)
    watched by a spectator; the frames each connection received, ``over`` last."""
    answer = create(client, game=title, players=players, seats=["human", *["bot:random"] * (players - 1)])
    client.cookies.clear()  # the seat's cookie would make the spectator's socket the seat's
    table_id = answer["table"]["id"]
    with client.websocket_connect(f"/ws/{table_id}") as seat_ws, client.websocket_connect(f"/ws/{table_id}") as watch:
        seat, watcher = Seat(seat_ws), Seat(watch)
        assert seat.hello(answer["token"])["seat"] == 0
        assert watcher.hello()["seat"] is None
        seat.send({"t": "ping"})
        play_out(seat)
        watcher.until("over")
    return seat.received, watcher.received


@pytest.mark.parametrize(("title", "players"), [("shadow-planet", 3), ("shadowlord", 2)])
def test_a_real_table_sends_each_reader_only_its_own_view(sqlite_database: str, title: str, players: int) -> None:
    """Every frame before ``over``, to the human seat and a spectator, is of an allowed type with
    its exact keys and no secret-bearing key; each view is the reader's view of the true state."""
    with TestClient(create_app(config_for(sqlite_database)), headers=BROWSER) as client:
        frames = dict(zip((0, None), _play_table(client, title, players), strict=True))
    over = frames[0][-1]
    assert over["t"] == "over" and frames[None][-1]["t"] == "over"
    game, known, live = versions(GameRecord.from_json(over["record"]))
    assert game.is_terminal(live.state)
    for seat, received in frames.items():
        before = received[:-1]
        assert frame_problems(before) == []
        assert view_problems(game, seat, before, known[seat], live) == []
        assert sum(f["t"] == "view" for f in before) > 10
    assert any(f["t"] == "pong" for f in frames[0])
    seat_vs = [f["v"] for f in frames[0] if f["t"] == "view"]
    watcher_vs = [f["v"] for f in frames[None] if f["t"] == "view"]
    # Each reader's versions are its own channel's (every step of these games tells every reader
    # a line, so the counts happen to agree between readers here).
    assert seat_vs[-1] == live.channels[0].v and watcher_vs[-1] == live.channels[None].v


def test_the_wire_checks_catch_a_leaky_frame() -> None:
    """The frame and view checks find a secret key, a stray key, and another reader's observation."""
    game = make("shadowlord", players=2)
    live = LiveTable.new(game)
    live.commit(plan(game, live.state, None, None, random.Random(0)))
    known = {
        live.channels[0].v: Version(json.loads(encode(game.observe(live.state, 0))), [(live.decisions(0), live.state)])
    }
    view = json.loads(encode(seat_view(game, live.state, 0, v=live.channels[0].v, events=[], turn=0)))
    view["events"] = live.channels[0].since(0)
    view.update(results=None, yours=None, out=None, clocks=None, fast_forward=False, undo=0)  # the server's additions
    assert frame_problems([view]) == []
    assert view_problems(game, 0, [view], known, live) == []
    nested = {**view, "presence": [{"seat": 0, "state": {}}]}
    assert frame_problems([nested]) and frame_problems([{**view, "extra": 1}])
    assert frame_problems([{"t": "over", "record": {}}])
    other = {**view, "obs": json.loads(encode(game.observe(live.state, 1)))}
    assert view_problems(game, 0, [other], known, live)
    early = [{"seat": 0, "name": "Ada", "result": "won", "why": "x"}]
    assert view_problems(game, 0, [{**view, "results": early}], known, live)
    assert view_problems(game, 0, [{**view, "out": "You are out of the game"}], known, live)
    deciding = game.current_player(live.state) == 0
    flipped = {**view, "legal": None, "groups": None, "turn": None} if deciding else {**view, "legal": [[0, "x"]]}
    assert view_problems(game, 0, [flipped], known, live)
