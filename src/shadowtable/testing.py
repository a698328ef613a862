"""Generic conformance checks that every registered game must pass.

The test suite (``tests/conformance``) runs these over every game and player count; a game
author can call them directly.  Each check raises :class:`ConformanceFailure` with a message
naming the seed, step and what went wrong.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

from shadowtable.bots.random_bot import RandomBot
from shadowtable.core.errors import (
    BotError,
    IllegalActionError,
    InvalidActionError,
    InvalidSeatError,
    ShadowTableError,
    StateFormatError,
)
from shadowtable.core.game import CHANCE, TERMINAL, Game, normalise_notation
from shadowtable.core.kernel import CHANCE_SEAT
from shadowtable.core.record import GameRecord, replay
from shadowtable.core.rng import derived_rng, sample_outcome
from shadowtable.core.runner import Session, play_game


class ConformanceFailure(AssertionError):
    """A game broke the protocol."""


@dataclass
class PlayoutStats:
    """What a checked random playout saw."""

    steps: int
    decisions: int
    chance_nodes: int
    returns: list[float]


def random_move(game: Game[Any], state: Any, rng: random.Random) -> tuple[int, int]:
    """A move of a random game at ``state``: who makes it (a seat, or ``CHANCE_SEAT``) and the
    action, a chance outcome drawn by its odds or a uniformly chosen legal action."""
    player = game.current_player(state)
    if player < 0:
        outcomes = game.chance_outcomes(state)
        return CHANCE_SEAT, rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0]
    return player, rng.choice(game.legal_actions(state))


def choice_points(game: Game[Any], rng: random.Random, count: int, share: float = 0.2) -> list[tuple[Any, int]]:
    """``count`` states where a seat has several legal actions, with that seat: random playouts
    (a new game after each end) keep each such state with probability ``share``."""
    state = game.initial_state()
    found: list[tuple[Any, int]] = []
    while len(found) < count:
        player = game.current_player(state)
        if player == TERMINAL:
            state = game.initial_state()
            continue
        if player == CHANCE:
            state = game.apply(state, sample_outcome(game.chance_outcomes(state), rng))
            continue
        legal = game.legal_actions(state)
        if len(legal) > 1 and rng.random() < share:
            found.append((state, player))
        state = game.apply(state, legal[rng.randrange(len(legal))])
    return found


def _fail(where: str, message: str) -> None:
    raise ConformanceFailure(f"{where}: {message}")


def _canonical(data: Any) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


def check_step(game: Game[Any], state: Any, where: str) -> list[int]:
    """Per-step invariants of a non-terminal state; returns its legal actions."""
    player = game.current_player(state)
    spec = game.spec
    if player == TERMINAL or game.is_terminal(state):
        _fail(where, "check_step called on a terminal state")
    if player != CHANCE and not 0 <= player < game.players:
        _fail(where, f"current_player {player} is neither a seat, CHANCE nor TERMINAL")
    legal = game.legal_actions(state)
    if not legal:
        _fail(where, "no legal actions at a non-terminal state")
    if legal != sorted(set(legal)):
        _fail(where, f"legal actions not sorted and unique: {legal[:20]}")
    bound = spec.max_chance_outcomes if player == CHANCE else spec.num_distinct_actions
    if legal[0] < 0 or legal[-1] >= bound:
        _fail(where, f"legal action outside [0, {bound}): {legal[0]}..{legal[-1]}")
    outcomes = game.chance_outcomes(state)
    if player == CHANCE:
        total = sum(p for _, p in outcomes)
        if abs(total - 1.0) > 1e-9 or any(p <= 0 for _, p in outcomes):
            _fail(where, f"chance probabilities sum to {total} or include p <= 0")
        if [a for a, _ in outcomes] != legal:
            _fail(where, "chance outcomes differ from legal actions")
    elif outcomes:
        _fail(where, "chance_outcomes non-empty at a decision node")
    return legal


def check_illegal_rejected(game: Game[Any], state: Any, legal: list[int], where: str) -> None:
    """Actions outside ``legal`` raise :class:`IllegalActionError` and change nothing."""
    before = _canonical(game.state_to_json(state))
    bound = max(game.spec.num_distinct_actions, game.spec.max_chance_outcomes)
    candidates = [-1, bound, next((a for a in range(bound) if a not in set(legal)), None)]
    for action in candidates:
        if action is None:
            continue
        try:
            game.apply(state, action)
        except IllegalActionError:
            pass
        else:
            _fail(where, f"illegal action {action} was accepted")
    if _canonical(game.state_to_json(state)) != before:
        _fail(where, "a rejected action changed the state")


class _Index:
    """An integer of another type, as NumPy's are: it converts through ``__index__`` only."""

    def __init__(self, value: int) -> None:
        self.value = value

    def __index__(self) -> int:
        return self.value

    def __repr__(self) -> str:
        return f"_Index({self.value})"


def _numpy_probes(value: int) -> tuple[list[object], list[object]]:
    """NumPy's integer (taken as ``value``) and bool (refused), where NumPy is installed."""
    try:
        import numpy
    except ImportError:
        return [], []
    return [numpy.int64(value), numpy.uint8(value) if value < 256 else numpy.int32(value)], [numpy.bool_(True)]


def non_integer_actions(value: int) -> list[object]:
    """Actions that are not integers, each refused (:func:`~shadowtable.core.game.action_id`):
    ``value`` as text and as a float, both bools, ``None``, and NumPy's bool where installed."""
    return [str(value), float(value), True, False, None, [value], *_numpy_probes(value)[1]]


def integer_actions(value: int) -> list[object]:
    """``value`` as integers of other types, each taken as ``value``: an ``__index__`` object,
    and NumPy's integers where installed."""
    return [_Index(value), *_numpy_probes(value)[0]]


def check_action_types(game: Game[Any], state: Any, legal: list[int], where: str) -> None:
    """Actions that are not integers raise :class:`IllegalActionError` from every entry point
    (``apply``, ``apply_unchecked``, ``apply_in_place``, ``apply_recorded``, ``check_legal`` and
    the runner's :meth:`~shadowtable.core.runner.Session.apply`) and change nothing, on either
    build; a bot that chooses one is refused with :class:`BotError`; an integer of another type
    (NumPy's) is the action of its value through every entry point; a non-``str`` given to
    ``parse_action`` raises :class:`InvalidActionError`."""
    before = _canonical(game.state_to_json(state))
    value = legal[0]
    owned = _owned_copy(game, state)
    session = _session_at(game, state)
    for name, call in _entry_points(game, state, owned, session):
        for action in non_integer_actions(value):
            try:
                call(action)
            except IllegalActionError:
                continue
            except Exception as exc:  # noqa: BLE001 - any other outcome is the failure reported
                _fail(where, f"{name}({action!r}) raised {type(exc).__name__}, not IllegalActionError: {exc}")
            _fail(where, f"{name}({action!r}) was accepted: only an integer is an action")
    if _canonical(game.state_to_json(owned)) != before or session.state is not state or session.actions:
        _fail(where, "apply_in_place or the runner changed the state for an action of another type")
    _check_bot_action_types(game, state, value, where, session)
    _check_integer_types(game, state, value, where, session)
    for text in (value, None):
        try:
            game.words.parse_action(state, text)  # type: ignore[arg-type]
        except InvalidActionError:
            continue
        except Exception as exc:  # noqa: BLE001 - reported as the failure
            _fail(where, f"parse_action({text!r}) raised {type(exc).__name__}, not InvalidActionError")
        _fail(where, f"parse_action({text!r}) was accepted: notation is text")
    if _canonical(game.state_to_json(state)) != before:
        _fail(where, "an action of another type changed the state")


def _owned_copy(game: Game[Any], state: Any) -> Any:
    """A copy of ``state`` that only the caller holds (for ``apply_in_place``)."""
    return game.state_from_json(json.loads(json.dumps(game.state_to_json(state))))


def _session_at(game: Game[Any], state: Any) -> Session:
    """A runner's session (seeded, every seat decided from outside) standing at ``state``."""
    return _reset(Session(game, [None] * game.players, 0), state)


def _reset(session: Session, state: Any, bots: list[Any] | None = None) -> Session:
    """``session`` standing at ``state`` again with no action recorded (and ``bots``, if given)."""
    session.state, session.actions = state, []
    if bots is not None:
        session.bots = bots
    return session


def _entry_points(
    game: Game[Any], state: Any, owned: Any, session: Session
) -> list[tuple[str, Callable[[object], object]]]:
    """Every way to hand an action to ``game`` at ``state`` (``owned``: a copy for in-place use)."""
    return [
        ("apply", lambda a: game.apply(state, a)),
        ("apply_unchecked", lambda a: game.apply_unchecked(state, a)),
        ("apply_in_place", lambda a: game.apply_in_place(owned, a)),
        ("apply_recorded", lambda a: game.apply_recorded(state, a)),
        ("apply_recorded(checked=False)", lambda a: game.apply_recorded(state, a, checked=False)),
        ("check_legal", lambda a: game.check_legal(state, a)),
        ("Session.apply", lambda a: session.apply(a)),
        ("Session.apply(checked=False)", lambda a: session.apply(a, checked=False)),
    ]


class _ChoosingBot:
    """A bot that chooses ``action`` whatever it is offered."""

    name = "chooser"

    def __init__(self, action: object) -> None:
        self.action = action

    def choose(self, game: Game[Any], seat: int, observation: Any, legal: list[int], rng: random.Random) -> object:
        return self.action


def _check_bot_action_types(game: Game[Any], state: Any, value: int, where: str, session: Session) -> None:
    """The runner refuses a bot's choice that is not an integer with :class:`BotError`."""
    player = game.current_player(state)
    if player < 0:
        return
    for action in non_integer_actions(value):
        _reset(session, state, [_ChoosingBot(action)] * game.players)
        try:
            session.step()
        except BotError:
            if session.state is not state or session.actions:
                _fail(where, f"the runner changed the game for a bot's choice {action!r}")
            continue
        except Exception as exc:  # noqa: BLE001 - reported as the failure
            _fail(where, f"a bot's choice {action!r} raised {type(exc).__name__}, not BotError: {exc}")
        _fail(where, f"the runner took a bot's choice {action!r}: only an integer is an action")


def _check_integer_types(game: Game[Any], state: Any, value: int, where: str, session: Session) -> None:
    """An integer of another type is the action of its value through every entry point."""
    expected = _canonical(game.state_to_json(game.apply(state, value)))
    for action in integer_actions(value):
        _reset(session, state, [None] * game.players)
        for name, call in _integer_entry_points(game, state, session, action):
            try:
                after = _canonical(game.state_to_json(call()))
            except Exception as exc:  # noqa: BLE001 - reported as the failure
                _fail(where, f"{name}({action!r}) raised {type(exc).__name__}: {exc}; it is action {value}")
            if after != expected:
                _fail(where, f"{name}({action!r}) reached another state than apply({value})")
        if session.actions != [value] or type(session.actions[0]) is not int:
            _fail(where, f"the runner recorded {session.actions!r} for {action!r}, not the plain int {value}")


def _integer_entry_points(
    game: Game[Any], state: Any, session: Session, action: Any
) -> list[tuple[str, Callable[[], Any]]]:
    """Each entry point called with ``action``, returning the state it reached."""

    def through_session() -> Any:
        session.apply(action)
        return session.state

    return [
        ("apply", lambda: game.apply(state, action)),
        ("apply_unchecked", lambda: game.apply_unchecked(state, action)),
        ("apply_in_place", lambda: game.apply_in_place(_owned_copy(game, state), action)),
        ("apply_recorded", lambda: game.apply_recorded(state, action)[0]),
        ("Session.apply", through_session),
    ]


def check_json_roundtrip(game: Game[Any], state: Any, where: str) -> None:
    """State and observations survive JSON text round-trips unchanged."""
    data = game.state_to_json(state)
    text = json.dumps(data)
    rebuilt = game.state_from_json(json.loads(text))
    if _canonical(game.state_to_json(rebuilt)) != _canonical(data):
        _fail(where, "state JSON round-trip changed the state")
    for seat in [None, *range(game.players)]:
        obs = game.observe(state, seat)
        if json.loads(json.dumps(obs)) != obs:
            _fail(where, f"observation of seat {seat} is not JSON round-trippable")
        if game.observe(rebuilt, seat) != obs:
            _fail(where, f"observation of seat {seat} differs after state round-trip")
    if game.legal_actions(rebuilt) != game.legal_actions(state):
        _fail(where, "legal actions differ after state round-trip")


def check_apply_in_place(game: Game[Any], state: Any, action: int, after: Any, where: str) -> None:
    """``apply_in_place`` on an owned copy of ``state`` reaches the state ``apply`` built, with the
    same legal actions."""
    owned = game.state_from_json(json.loads(json.dumps(game.state_to_json(state))))
    changed = game.apply_in_place(owned, action)
    if _canonical(game.state_to_json(changed)) != _canonical(game.state_to_json(after)):
        _fail(where, f"apply_in_place({action}) reached another state than apply")
    if game.legal_actions(changed) != game.legal_actions(after):
        _fail(where, f"apply_in_place({action}) left other legal actions than apply")


def check_notation(game: Game[Any], state: Any, legal: list[int], where: str) -> None:
    """Every legal action has distinct notation that parses back to it."""
    seen: dict[str, int] = {}
    for action in legal:
        text = game.words.action_to_str(state, action)
        key = normalise_notation(text)
        if key in seen:
            _fail(where, f"actions {seen[key]} and {action} share notation {text!r}")
        seen[key] = action
        parsed = game.words.parse_action(state, text)
        if parsed != action:
            _fail(where, f"parse_action({text!r}) gave {parsed}, expected {action}")


def check_determinize(game: Game[Any], state: Any, where: str, samples: int = 2) -> None:
    """``observe(determinize(observe(s, p)), p) == observe(s, p)`` for each seat and a spectator."""
    for seat in [None, *range(game.players)]:
        obs = game.observe(state, seat)
        for k in range(samples):
            sampled = game.determinize(obs, random.Random(k))
            again = game.observe(sampled, seat)
            if again != obs:
                diff = sorted(key for key in set(obs) | set(again) if obs.get(key) != again.get(key))
                _fail(where, f"seat {seat}: observation of a determinized state differs in {diff}")
            if game.legal_actions(sampled) != game.legal_actions(state) and seat == game.current_player(state):
                _fail(where, f"seat {seat}: determinized state has different legal actions")


def check_event_text(game: Game[Any], state: Any, legal: list[int], where: str, limit: int = 40) -> None:
    """A log line may say only what its reader can see: two actions that leave a seat with the
    same observation must read the same to that seat."""
    player = game.current_player(state)
    options = legal[:limit]
    after = {action: game.apply(state, action) for action in options}
    for seat in [None, *range(game.players)]:
        if seat == player:
            continue
        texts: dict[str, tuple[int, str | None]] = {}
        for action in options:
            seen = _canonical(game.observe(after[action], seat))
            text = game.words.event_text(state, action, seat)
            if seen in texts and texts[seen][1] != text:
                _fail(where, f"seat {seat} reads {texts[seen][1]!r} and {text!r} for indistinguishable actions")
            texts.setdefault(seen, (action, text))


def check_observation_schemas(game: Game[Any], state: Any, where: str) -> None:
    """Every observation matches the game's shipped JSON Schema for its kind (an allow-list:
    a field the schema does not list fails) and, where the manifest names a typed view, reads
    into it and writes back unchanged.  Games that ship neither are not checked."""
    view = _typed_view(type(game))
    for seat in [None, *range(game.players)]:
        observation = game.observe(state, seat)
        validate = _validator(game, "spectator" if seat is None else "seat")
        problem = validate(observation) if validate is not None else None
        if problem is not None:
            _fail(where, f"seat {seat}: observation does not match its schema: {problem[:240]}")
        if view is not None:
            try:
                same = view.from_json(observation).to_json() == observation
            except StateFormatError as exc:
                _fail(where, f"seat {seat}: the observation does not read into its typed view: {exc}")
            if not same:
                _fail(where, f"seat {seat}: the typed view does not write back the observation it read")


def _typed_view(game_class: type[Any]) -> Any:
    """The typed observation class the game's manifest names (``None``: none)."""
    from shadowtable.core.manifest import load, manifest_of

    reference = manifest_of(game_class).view
    return load(reference) if reference is not None else None


Validate = Callable[[Any], str | None]
_VALIDATORS: dict[tuple[type[Any], str], Validate | None] = {}


def _validator(game: Game[Any], kind: str) -> Validate | None:
    """A compiled check of the game's schema for ``kind``, giving the first problem or ``None``.

    ``fastjsonschema`` (compiled to Python, tens of times faster) runs the schema translated to
    draft 7 (``prefixItems`` becomes a tuple ``items``); without it, ``jsonschema`` runs the
    2020-12 schema as written.  ``None``: the game ships no schema, or neither library is there
    (the [dev] extra brings both)."""
    key = (type(game), kind)
    if key not in _VALIDATORS:
        _VALIDATORS[key] = _compile(game.observation_schema(kind))
    return _VALIDATORS[key]


def _compile(schema: dict[str, Any] | None) -> Validate | None:
    if schema is None:
        return None
    fast = _compile_fast(schema)
    if fast is not None:
        return fast
    try:
        import jsonschema
    except ImportError:
        return None
    validator = jsonschema.Draft202012Validator(schema)

    def thorough(value: Any) -> str | None:
        error = next(iter(validator.iter_errors(value)), None)
        if error is None:
            return None
        return f"at '{'/'.join(str(p) for p in error.absolute_path)}': {error.message}"

    return thorough


def _compile_fast(schema: dict[str, Any]) -> Validate | None:
    try:
        import fastjsonschema
    except ImportError:
        return None
    check = fastjsonschema.compile(_draft7(schema))

    def fast(value: Any) -> str | None:
        try:
            check(value)
        except fastjsonschema.JsonSchemaException as exc:
            return str(exc)
        return None

    return fast


def _draft7(schema: Any) -> Any:
    """A 2020-12 schema in draft-7 words: tuple ``prefixItems`` (then ``items``) become ``items``
    (then ``additionalItems``); ``$schema`` is dropped; ``$defs`` stays (refs are pointers)."""
    if isinstance(schema, list):
        return [_draft7(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    out = {key: _draft7(value) for key, value in schema.items() if key != "$schema"}
    if "prefixItems" in out:
        rest = out.pop("items", None)
        out["items"] = out.pop("prefixItems")
        if rest is not None:
            out["additionalItems"] = rest
    return out


def check_seats_validated(game: Game[Any], state: Any, where: str) -> None:
    """Every entry point that takes a seat refuses a number that is not a seat with :class:`InvalidSeatError`."""
    last = game.players - 1
    action = (game.legal_actions(state) or [0])[0]
    for bad in (-1, -game.players, game.players, 10**30, True, "0", 0.0):
        for name, call in (
            ("observe", lambda seat: game.observe(state, seat)),
            ("event_text", lambda seat: game.words.event_text(state, action, seat)),
        ):
            try:
                call(bad)
            except InvalidSeatError:
                continue
            _fail(where, f"{name} accepted seat {bad!r} (seats are 0..{last} and None)")


def _outcome(call: Callable[[], Any]) -> str:
    """The result of ``call`` or its typed error, as text to compare between resampled states."""
    try:
        return repr(call())
    except ShadowTableError as exc:
        return f"{type(exc).__name__}: {exc}"


def _said_to_actor(game: Game[Any], state: Any, legal: list[int], probes: list[str]) -> list[str]:
    """Everything the seat to move is told when it decides: each legal action's words, how they
    are grouped, the previews of the first three, and the answer (action or typed error) to each
    probe text and to an action id that is not legal."""
    said = [game.words.action_to_str(state, a) for a in legal]
    said.append(_canonical(game.words.choice_groups(state)))
    said += [_canonical(game.words.preview(state, a)) for a in legal[:3]]
    said += [_outcome(partial(game.words.parse_action, state, text)) for text in probes]
    bound = game.spec.num_distinct_actions
    said.append(_outcome(lambda: game.apply(state, bound)))
    return said


def check_resampling(game: Game[Any], state: Any, action: int, where: str, samples: int = 2, limit: int = 200) -> None:
    """Every channel is decided from what its reader knows: states that one reader cannot tell
    apart (``determinize`` of its observation) must tell that reader byte-identical things.

    For each seat and a spectator, on ``samples`` resampled states: the observation, its render
    and rules help; for the seat to move, every legal action's words and the answer to bad
    input; and the events of the action just taken (``action`` in ``state``; its log line and
    what the rules noted, :meth:`Game.told`): any action of a resampled state that leaves the
    reader with the same observation must be told the same.
    """
    player = game.current_player(state)
    legal = game.legal_actions(state)
    after, events = game.apply_recorded(state, action)
    probes = ["no such action", *(game.words.action_to_str(state, a) for a in legal[:3])]
    illegal = next((a for a in range(game.spec.num_distinct_actions) if a not in set(legal)), None)
    if player >= 0 and illegal is not None:
        probes.append(game.words.action_to_str(state, illegal))
    for seat in [None, *range(game.players)]:
        obs = game.observe(state, seat)
        text = _canonical(obs)
        shown = game.words.render(obs)
        help_text = game.words.rules_help(obs)
        seen_after = _canonical(game.observe(after, seat))
        line = game.words.told(state, action, events, seat)
        told = _said_to_actor(game, state, legal, probes) if seat == player else []
        for k in range(samples):
            sampled = game.determinize(obs, random.Random(k))
            again = game.observe(sampled, seat)
            if _canonical(again) != text:
                _fail(where, f"seat {seat}: observation of a resampled state differs")
            if game.words.render(again) != shown or game.words.rules_help(again) != help_text:
                _fail(where, f"seat {seat}: render or rules help differs on a resampled state")
            if seat == player and _said_to_actor(game, sampled, game.legal_actions(sampled), probes) != told:
                _fail(where, f"seat {seat}: legal-action words or error messages differ on a resampled state")
            if game.current_player(sampled) != player:
                _fail(where, f"seat {seat}: a resampled state has another player to act")
            # The seat that decided knows its own choice; any other reader only what it saw.
            twins = [action] if seat == player else game.legal_actions(sampled)[:limit]
            for twin in twins:
                twin_after, twin_events = game.apply_recorded(sampled, twin, checked=seat == player)
                if _canonical(game.observe(twin_after, seat)) != seen_after:
                    continue
                other = game.words.told(sampled, twin, twin_events, seat)
                if other != line:
                    _fail(
                        where,
                        f"seat {seat} is told {line!r}, but {other!r} on a state it cannot tell apart: "
                        "a log line or event reveals what the reader does not know",
                    )


def checked_playout(game: Game[Any], seed: int, *, full_every: int = 1) -> PlayoutStats:
    """Play one random game from ``seed``, checking invariants at every step.

    The costlier checks (mutation, JSON, notation, determinize, illegal actions) run every
    ``full_every`` steps and at the last state.
    """
    rng = derived_rng(seed, "playout")
    state = game.initial_state()
    steps = decisions = chances = 0
    while not game.is_terminal(state):
        where = f"{game.spec.id} players={game.players} seed={seed} step={steps}"
        if steps > game.spec.max_game_length:
            _fail(where, f"longer than max_game_length {game.spec.max_game_length}")
        legal = check_step(game, state, where)
        for problem in game.conservation_errors(state):
            _fail(where, f"conservation: {problem}")
        player = game.current_player(state)
        if player == CHANCE:
            action = sample_outcome(game.chance_outcomes(state), rng)
            chances += 1
        else:
            action = legal[rng.randrange(len(legal))]
            decisions += 1
        full = steps % full_every == 0
        before = _canonical(game.state_to_json(state)) if full else ""
        if full:
            check_illegal_rejected(game, state, legal, where)
            check_json_roundtrip(game, state, where)
            check_notation(game, state, legal, where)
            check_determinize(game, state, where)
        next_state = game.apply(state, action)
        if full and _canonical(game.state_to_json(state)) != before:
            _fail(where, f"apply({action}) mutated its input state")
        if full:
            check_apply_in_place(game, state, action, next_state, where)
            check_action_types(game, state, legal, where)
            check_event_text(game, state, legal, where)
            check_resampling(game, state, action, where, samples=1)
            check_seats_validated(game, state, where)
            check_observation_schemas(game, state, where)
        state = next_state
        steps += 1
    where = f"{game.spec.id} players={game.players} seed={seed} end"
    check_terminal(game, state, where)
    check_json_roundtrip(game, state, where)
    check_determinize(game, state, where)
    check_observation_schemas(game, state, where)
    return PlayoutStats(steps, decisions, chances, list(game.returns(state)))


def check_terminal(game: Game[Any], state: Any, where: str) -> None:
    """A terminal state has no actions and returns inside the declared utility range."""
    if game.current_player(state) != TERMINAL or game.legal_actions(state):
        _fail(where, "terminal state reports a player to act or legal actions")
    returns = game.returns(state)
    if len(returns) != game.players:
        _fail(where, f"returns has {len(returns)} entries for {game.players} players")
    spec = game.spec
    if any(not spec.min_utility <= r <= spec.max_utility for r in returns):
        _fail(where, f"returns {returns} outside [{spec.min_utility}, {spec.max_utility}]")
    for problem in game.conservation_errors(state):
        _fail(where, f"conservation: {problem}")


def check_determinism(make_game: Callable[[], Game[Any]], seed: int) -> GameRecord:
    """The same seed gives the same record even after the global ``random`` is disturbed."""
    bots = [RandomBot() for _ in range(make_game().players)]
    random.seed(12345)
    first = play_game(make_game(), bots, seed)
    random.seed(54321)
    random.random()
    second = play_game(make_game(), bots, seed)
    if first.to_json() != second.to_json():
        _fail(f"seed={seed}", "two runs with the same seed produced different records")
    return first


def check_replay(game: Game[Any], seed: int) -> GameRecord:
    """A played record survives JSON and replays to the identical final state, twice."""
    bots = [RandomBot() for _ in range(game.players)]
    final_states: list[Any] = []

    def keep(g: Game[Any], state: Any, player: int, action: int) -> None:
        final_states[:] = [g.apply(state, action)]

    record = play_game(game, bots, seed, on_step=keep)
    text = record.dumps()
    parsed = GameRecord.loads(text)
    if parsed.to_json() != record.to_json():
        _fail(f"seed={seed}", "record JSON round-trip changed the record")
    try:
        replayed = replay(parsed)
        replayed_again = replay(parsed)
    except ShadowTableError as exc:
        raise ConformanceFailure(f"seed={seed}: record does not replay: {exc}") from exc
    original = _canonical(game.state_to_json(final_states[0] if final_states else game.initial_state()))
    for state in (replayed, replayed_again):
        if _canonical(game.state_to_json(state)) != original:
            _fail(f"seed={seed}", "replay does not reach the identical final state")
    return record


def check_game(make_game: Callable[[], Game[Any]], seeds: range, *, full_every: int = 1) -> list[PlayoutStats]:
    """Run every conformance check on fresh games from ``make_game`` over ``seeds``."""
    stats = [checked_playout(make_game(), seed, full_every=full_every) for seed in seeds]
    check_determinism(make_game, seeds.start)
    check_replay(make_game(), seeds.start)
    return stats
