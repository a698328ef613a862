"""The table: one game in progress, as every front end sees it.

A :class:`Table` holds the state, every action so far and who took it, who decides for each
seat (a bot, or ``None``: a person or a remote client), where the randomness comes from, and,
once it keeps them (:meth:`Table.tell`), one :class:`Channel` per audience: what each seat and
the spectators have been told.  Its :meth:`Table.view` is what a reader sees: a typed, frozen
:class:`SeatView` whose :meth:`SeatView.to_json` is the server's ``view`` message.

Changes come in two halves so that a server can store them before acknowledging:
:meth:`Table.plan` works out the :class:`Step` list an action leads to (the action, then any
chance outcomes) without changing the table; :meth:`Table.commit` then makes them its own.  A
bot that decides elsewhere (a server's worker process) is asked :meth:`Table.turn` and its choice
planned by :meth:`Table.plan_turn`, checked as a bot's choice is checked here.
Simulations skip both: :meth:`Table.run` steps chance and bots in a tight loop.

Randomness: with a master ``seed``, the chance outcome of step ``n`` is drawn with
``derive_seed(seed, "chance", n)`` and a bot deciding at step ``n`` gets
``derive_seed(seed, "seat", seat, n)``, so a game resumed from its record continues as an
uninterrupted one would.  Without one, chance and bots draw from ``rng`` (default: the
operating system's randomness), and a record says nothing about the draws to come.
"""

from __future__ import annotations

import json
import random
import secrets
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, overload

from shadowtable.core.errors import BotError, IllegalActionError, RecordError, UndoError
from shadowtable.core.events import Event
from shadowtable.core.game import CHANCE, TERMINAL, Game, Observation, action_id
from shadowtable.core.record import GameRecord, check_seed, game_for_record
from shadowtable.core.rng import derive_seed, sample_outcome
from shadowtable.core.undo import MAX_UNDO, UNDO_SEAT, Undone, quiet, undo_event, undo_metadata, undo_refusal
from shadowtable.core.wording import SeatResult

CHANCE_SEAT = -1
"""The ``seat`` of a chance outcome in a table's log."""

StepHook = Callable[[Game[Any], Any, int, int], None]
"""Called as ``hook(game, state, player, action)`` before each automatic action is applied."""

_SYSTEM = secrets.SystemRandom()


def encode(message: Any) -> str:
    """A message (or any JSON value) as compact JSON text with sorted keys (the same value, the same
    bytes)."""
    return json.dumps(message, separators=(",", ":"), sort_keys=True, ensure_ascii=False)


def chance_rng(seed: int, step: int) -> random.Random:
    """The generator that samples the chance outcome of ``step``."""
    return random.Random(derive_seed(seed, "chance", step))


def bot_rng(seed: int, seat: int, step: int) -> random.Random:
    """The generator handed to the bot of ``seat`` deciding at ``step``."""
    return random.Random(derive_seed(seed, "seat", seat, step))


# -- steps ------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Step:
    """One action (``seat`` -1: a chance outcome) and the state it led to, with the events the
    rules noted (every audience's)."""

    seat: int
    action: int
    before: Any
    after: Any
    events: list[Event]


@dataclass(frozen=True)
class Turn:
    """The decision a seat makes now, as its bot is asked it: the ``seat``, the ``step`` it decides
    at (how many steps the log holds), what it observes and its legal actions."""

    seat: int
    step: int
    observation: Observation
    legal: list[int]
    logged: int = -1
    """How many rows the table's log held when asked (:attr:`Table.logged`; -1: not said): an undo
    and a new decision can bring ``step`` back to the same number, never this."""


def plan_steps(
    game: Game[Any], state: Any, seat: int | None, action: int | None, chance: Callable[[int], random.Random]
) -> list[Step]:
    """The steps ``action`` by ``seat`` leads to (checked: raises if illegal), then every chance
    step that follows, the ``k``-th drawn from ``chance(k)``.  With ``action`` ``None``, only the
    chance steps.  ``state`` is not changed."""
    steps: list[Step] = []
    if action is not None and seat is not None:
        after, events = game.apply_recorded(state, action)
        steps.append(Step(seat, action_id(action), state, after, events))
        state = after
    while game.current_player(state) == CHANCE:
        outcome = sample_outcome(game.chance_outcomes(state), chance(len(steps)))
        after, events = game.apply_recorded(state, outcome, checked=False)
        steps.append(Step(CHANCE_SEAT, outcome, state, after, events))
        state = after
    return steps


def plan(game: Game[Any], state: Any, seat: int | None, action: int | None, rng: random.Random = _SYSTEM) -> list[Step]:
    """:func:`plan_steps` with every chance outcome drawn from ``rng`` (the operating system's
    randomness by default)."""
    return plan_steps(game, state, seat, action, lambda _k: rng)


def replayed(game: Game[Any], rows: Iterable[tuple[int, int]], state: Any = None) -> list[Step]:
    """The steps of a stored log of ``(seat, action)`` rows, from ``state`` (default: the initial
    state)."""
    steps: list[Step] = []
    state = game.initial_state() if state is None else state
    for seat, action in rows:
        after, events = game.apply_recorded(state, action)
        steps.append(Step(seat, action, state, after, events))
        state = after
    return steps


# -- channels ---------------------------------------------------------------------------------------
@dataclass
class Channel:
    """What one audience (a seat, or ``None``: spectators) has been told: a version ``v`` that
    moves only when its view changes, and the events of each version.

    ``log[k]`` holds the events of version ``k + 1`` as encoded JSON without its brackets: a
    string per version instead of a dictionary per event keeps a long game's log out of the
    garbage collector's full passes, and the events after any version are one join away.
    ``at[k]`` is the index of the step that made version ``k + 1``."""

    v: int = 0
    last: str = ""
    log: list[str] = field(default_factory=list)
    at: list[int] = field(default_factory=list)

    def add(self, events: list[dict[str, Any]], step: int = -1) -> None:
        """A new version with ``events``, made by step ``step``."""
        self.v += 1
        self.log.append(encode(events)[1:-1])
        self.at.append(step)

    def since_text(self, v: int) -> str:
        """The events of every version after ``v`` as encoded JSON (all of them if ``v`` is not
        one this channel has reached)."""
        if not 0 <= v <= self.v:
            v = 0
        return "[" + ",".join(text for text in self.log[v:] if text) + "]"

    def through(self, v: int) -> list[dict[str, Any]]:
        """The events of the versions up to and including ``v`` (what a seat at version ``v`` had
        been told)."""
        events: list[dict[str, Any]] = json.loads("[" + ",".join(text for text in self.log[:v] if text) + "]")
        return events

    def since(self, v: int) -> list[dict[str, Any]]:
        """The events of every version after ``v`` (see :meth:`since_text`)."""
        events: list[dict[str, Any]] = json.loads(self.since_text(v))
        return events

    def version_events(self, v: int) -> list[dict[str, Any]]:
        """The events of version ``v`` alone (``1 <= v <= self.v``)."""
        events: list[dict[str, Any]] = json.loads("[" + self.log[v - 1] + "]")
        return events

    def first_version_after(self, step: int) -> int:
        """The first version made by a step after ``step`` (``v + 1`` when there is none)."""
        k = len(self.at)
        while k > 0 and self.at[k - 1] > step:
            k -= 1
        return k + 1


# -- the seat view ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Decision:
    """Who decides now and what about (an observation's ``pending``): ``seat`` (-1: chance;
    ``None``: not told to this reader), ``kind`` of decision, ``prompt`` in words, the rules-help
    entry and the decision's data."""

    seat: int | None
    kind: str
    prompt: str
    rule: str = ""
    data: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def from_pending(cls, pending: Any) -> Decision | None:
        """The decision an observation's ``pending`` names (``None``: none, e.g. once over)."""
        if not isinstance(pending, dict):
            return None
        return cls(
            None if pending.get("seat") is None else int(pending["seat"]),
            str(pending.get("kind", "")),
            str(pending.get("prompt", "")),
            str(pending.get("rule", "")),
            dict(pending.get("data") or {}),
        )


@dataclass(frozen=True)
class Choice:
    """One legal action of the reader who decides, with its notation."""

    action: int
    text: str

    def to_json(self) -> list[Any]:
        return [self.action, self.text]


@dataclass(frozen=True)
class ChoiceGroup:
    """Legal actions that differ only in a detail, offered as one choice (:meth:`Game.choice_groups`)."""

    label: str
    choices: tuple[Choice, ...]

    def to_json(self) -> dict[str, Any]:
        return {"label": self.label, "actions": [choice.action for choice in self.choices]}


@dataclass(frozen=True)
class Told:
    """One event as a reader is told it; ``private``: told to this seat and not on the public
    channel (:func:`marked_private`)."""

    kind: str
    text: str
    rule: str = ""
    data: dict[str, Any] = field(default_factory=dict)
    private: bool = False

    @classmethod
    def from_json(cls, event: dict[str, Any]) -> Told:
        return cls(
            event["kind"], event["text"], event.get("rule", ""), event.get("data", {}), event.get("private") is True
        )

    def to_json(self) -> dict[str, Any]:
        told = {"kind": self.kind, "text": self.text, "rule": self.rule, "data": self.data}
        return {**told, "private": True} if self.private else told


def marked_private(told: list[dict[str, Any]], public: list[dict[str, Any]], seat: int) -> list[dict[str, Any]]:
    """The events told to ``seat`` for one step, those not told on the public channel too
    (``public``: what spectators, and so every player, are told of the same step) marked
    ``private``: decided by the audience each event was sent to, never by the state.  The seat's
    own action, told to it as ``you: ...``, is public where the public channel tells the same words
    of ``seat N``."""
    return [event if _told_publicly(event, public, seat) else {**event, "private": True} for event in told]


def _told_publicly(event: dict[str, Any], public: list[dict[str, Any]], seat: int) -> bool:
    if event in public:
        return True
    text = str(event.get("text", ""))
    if event.get("kind") != "action" or not text.startswith(("you:", "you ")):
        return False
    as_others_read_it = f"seat {seat}{text[3:]}"
    return any(other.get("kind") == "action" and other.get("text") == as_others_read_it for other in public)


@dataclass(frozen=True)
class Changes:
    """What changed for a reader since the version it had: how many versions passed, and the
    events' lines in order (empty when nothing happened it may know of)."""

    versions: int
    lines: tuple[str, ...]

    @property
    def any(self) -> bool:
        return self.versions > 0


@dataclass(frozen=True)
class SeatView:
    """What ``seat`` (``None``: a spectator) sees at version ``v``: its observation, the decision
    pending, and, only when it is the one to decide, its legal choices, their groups and its
    ``turn`` (how many decisions it has made); the events of the versions after ``after``.

    Everything in it comes from ``game.observe(state, seat)``, the events told to ``seat`` and,
    for the decider, its own legal actions: nothing another seat keeps secret."""

    seat: int | None
    v: int
    after: int
    observation: Observation
    decision: Decision | None
    choices: tuple[Choice, ...] | None
    groups: tuple[ChoiceGroup, ...] | None
    turn: int | None
    events: tuple[Told, ...]
    changes: Changes

    @property
    def deciding(self) -> bool:
        """Whether this reader decides now."""
        return self.choices is not None

    def parts(self) -> dict[str, Any]:
        """The JSON parts that depend only on the state and the reader: ``obs``, ``pending``,
        ``legal``, ``groups`` and ``turn``."""
        return {
            "obs": self.observation,
            "pending": self.observation.get("pending"),
            "legal": None if self.choices is None else [choice.to_json() for choice in self.choices],
            "groups": None if self.groups is None else [group.to_json() for group in self.groups],
            "turn": self.turn,
        }

    def to_json(
        self, *, clock: Mapping[str, object] | None = None, presence: Sequence[Mapping[str, object]] | None = None
    ) -> dict[str, Any]:
        """The server's ``view`` message (with the server's ``clock`` and ``presence``)."""
        return {
            "t": "view",
            "v": self.v,
            "after": self.after,
            **self.parts(),
            "events": [event.to_json() for event in self.events],
            "clock": clock,
            "presence": presence or [],
        }


def choices_of(game: Game[Any], state: Any) -> tuple[Choice, ...]:
    """The legal actions of the seat to decide, with their notation."""
    return tuple(Choice(action, game.words.action_to_str(state, action)) for action in game.legal_actions(state))


def groups_of(game: Game[Any], state: Any) -> tuple[ChoiceGroup, ...]:
    """The legal actions grouped (:meth:`Game.choice_groups`)."""
    return tuple(
        ChoiceGroup(group["label"], tuple(Choice(a["id"], a["text"]) for a in group["actions"]))
        for group in game.words.choice_groups(state)
    )


def view_of(
    game: Game[Any],
    state: Any,
    seat: int | None,
    *,
    v: int,
    events: Sequence[dict[str, Any]],
    after: int = 0,
    turn: int | None,
) -> SeatView:
    """The view of ``seat`` at ``state``: ``events`` are those of the versions after ``after``;
    choices, groups and ``turn`` only for the seat that decides now."""
    observation = game.observe(state, seat)
    deciding = seat is not None and game.current_player(state) == seat
    told = tuple(Told.from_json(event) for event in events)
    return SeatView(
        seat=seat,
        v=v,
        after=after,
        observation=observation,
        decision=Decision.from_pending(observation.get("pending")),
        choices=choices_of(game, state) if deciding else None,
        groups=groups_of(game, state) if deciding else None,
        turn=turn if deciding else None,
        events=told,
        changes=Changes(v - after, tuple(event.text for event in told)),
    )


# -- the table --------------------------------------------------------------------------------------
class Rows(Sequence[tuple[int, int]]):
    """A table's log as ``(seat, action)`` rows (a live view of it, not a copy)."""

    def __init__(self, seats: list[int], actions: list[int]) -> None:
        self._seats, self._actions = seats, actions

    def __len__(self) -> int:
        return len(self._actions)

    @overload
    def __getitem__(self, index: int) -> tuple[int, int]: ...
    @overload
    def __getitem__(self, index: slice) -> list[tuple[int, int]]: ...
    def __getitem__(self, index: int | slice) -> tuple[int, int] | list[tuple[int, int]]:
        if isinstance(index, slice):
            return list(zip(self._seats[index], self._actions[index], strict=True))
        return self._seats[index], self._actions[index]

    def __iter__(self) -> Iterator[tuple[int, int]]:
        return zip(self._seats, self._actions, strict=True)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Sequence) and list(self) == list(other)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Rows({list(self)!r})"


class Table:
    """A game in progress: the state, every action and who took it, who decides for each seat,
    the randomness, and (once :meth:`tell` is called) what each audience has been told.

    ``bots[seat]`` is a bot, or ``None`` for a seat decided from outside (default: every seat).
    ``seed`` is a master seed (reproducible: simulations, tests), or ``None``: chance and bots
    draw from ``rng`` (default: the operating system's randomness)."""

    def __init__(
        self,
        game: Game[Any],
        bots: Sequence[Any | None] | None = None,
        seed: int | None = None,
        *,
        seat_names: Sequence[str] | None = None,
        rng: random.Random | None = None,
    ) -> None:
        bots = [None] * game.players if bots is None else list(bots)
        if len(bots) != game.players:
            raise BotError(
                f"{game.spec.id} with {game.players} players needs {game.players} bots (one per seat), got {len(bots)}"
            )
        self.game = game
        self.bots = bots
        self.seed = check_seed(seed)  # its record must be readable again
        self._system = secrets.SystemRandom() if rng is None else rng  # used only without a seed
        self.seat_names = list(seat_names) if seat_names is not None else [_seat_name(b) for b in bots]
        self.state = game.initial_state()
        self.actions: list[int] = []
        self.seats: list[int] = []
        """Who took each action (:data:`CHANCE_SEAT`: chance)."""
        self.channels: dict[int | None, Channel] = {}
        """What each audience has been told; empty until :meth:`tell`."""
        self.decided: dict[int, tuple[int, str]] = {}
        """Per seat with a channel: the step of its last decision and its observation then (encoded)."""
        self.undos: list[Undone] = []
        """Every undo so far, in order (the log stays append-only: see :attr:`logged`)."""
        self._undo_rows = 0  # rows of the stored log not in ``actions``: undone ones and undo rows
        self._run_seat: int | None = None  # the seat whose own decisions end the log
        self._run: list[Any] = []  # the state before each of those decisions
        self._quiet: dict[int, bool] = {}  # step index -> whether that decision revealed nothing

    @classmethod
    def new(cls, game: Game[Any]) -> Table:
        """A table at the start of ``game`` with every seat decided from outside, telling every
        audience."""
        table = cls(game)
        table.tell()
        return table

    # -- who decides ----------------------------------------------------------------------------
    @property
    def current_player(self) -> int:
        return self.game.current_player(self.state)

    def is_over(self) -> bool:
        return self.game.is_terminal(self.state)

    def awaits_outside_decision(self) -> bool:
        """Whether the next decision belongs to a seat without a bot."""
        player = self.current_player
        return player >= 0 and self.bots[player] is None

    def audiences(self) -> list[int | None]:
        """The spectators (``None``) and every seat."""
        return [None, *range(self.game.players)]

    @property
    def rows(self) -> Rows:
        """The log as ``(seat, action)`` rows."""
        return Rows(self.seats, self.actions)

    @property
    def logged(self) -> int:
        """How many rows the append-only log holds: every action taken, undone or not, and one
        row per undo (:data:`~shadowtable.core.undo.UNDO_SEAT`)."""
        return len(self.actions) + self._undo_rows

    def decisions(self, seat: int) -> int:
        """How many decisions ``seat`` has made: the ``turn`` of its next one."""
        return self.seats.count(seat)

    # -- randomness -----------------------------------------------------------------------------
    def _chance_rng(self, step: int) -> random.Random:
        return self._system if self.seed is None else chance_rng(self.seed, step)

    def _bot_rng(self, seat: int, step: int) -> random.Random:
        if self.seed is None:
            return random.Random(self._system.getrandbits(64))  # seeded by the OS, fast to draw from
        return bot_rng(self.seed, seat, step)

    # -- two-phase changes ----------------------------------------------------------------------
    def plan(self, seat: int | None, action: int | None) -> list[Step]:
        """The steps ``action`` by ``seat`` leads to, with the chance steps after it drawn as this
        table draws them; the table is not changed (:meth:`commit` makes them its own)."""
        base = len(self.actions)
        return plan_steps(self.game, self.state, seat, action, lambda k: self._chance_rng(base + k))

    def commit(self, steps: Sequence[Step]) -> None:
        """Make ``steps`` (planned from this table's state, now stored) the table's own."""
        for step in steps:
            if self.channels:
                self._note_decision(step.seat, len(self.actions), self.channels)
                self._tell(step, len(self.actions), self.channels)
            self._track(step.seat, step.before)
            self.seats.append(step.seat)
            self.actions.append(step.action)
            self.state = step.after

    def act(self, seat: int, action: int) -> list[Step]:
        """``seat``'s ``action`` and the chance steps after it, planned and committed at once."""
        if self.current_player != seat:
            raise IllegalActionError(f"it is not seat {seat}'s turn")
        steps = self.plan(seat, action)
        self.commit(steps)
        return steps

    # -- one action at a time -------------------------------------------------------------------
    def apply(self, action: int, *, checked: bool = True) -> None:
        """Apply a legal action (raises :class:`IllegalActionError` and changes nothing otherwise).
        ``checked=False`` skips the check, for an action just taken from ``legal_actions``; an
        action that is not an integer (:func:`~shadowtable.core.game.action_id`) is refused either way."""
        action = action_id(action)
        player = self.current_player
        self._advance(CHANCE_SEAT if player == CHANCE else player, action, checked)

    def _advance(self, seat: int, action: int, checked: bool) -> None:
        state = self.state
        if self.channels:
            after, events = self.game.apply_recorded(state, action, checked=checked)
            self._note_decision(seat, len(self.actions), self.channels)
            self._tell(Step(seat, action, state, after, events), len(self.actions), self.channels)
        elif checked:
            after = self.game.apply(state, action)
        else:
            after = self.game.apply_unchecked(state, action)
        self._track(seat, state)
        self.state = after
        self.seats.append(seat)
        self.actions.append(action)

    def next_automatic_action(self) -> int:
        """The chance outcome or bot choice for the current step."""
        return self._automatic(self.current_player)

    def _automatic(self, player: int) -> int:
        step = len(self.actions)
        if player == CHANCE:
            return sample_outcome(self.game.chance_outcomes(self.state), self._chance_rng(step))
        bot = self.bots[player] if player >= 0 else None
        if player == TERMINAL or bot is None:
            raise BotError("no automatic action: the game is over or a person decides now")
        turn = self.turn()
        action = bot.choose(self.game, player, turn.observation, turn.legal, self._bot_rng(player, step))
        return _chosen(turn, action, f"bot {_seat_name(bot)}")

    def turn(self) -> Turn:
        """The decision the seat to act makes now, as a bot deciding for it (here or elsewhere) is
        asked it; :class:`BotError` when chance acts next or the game is over."""
        player = self.current_player
        if player < 0:
            raise BotError("no seat decides now: chance acts next or the game is over")
        state = self.state
        observation, legal = self.game.observe(state, player), self.game.legal_actions(state)
        return Turn(player, len(self.actions), observation, legal, self.logged)

    def plan_turn(self, turn: Turn, action: int) -> list[Step]:
        """The steps of ``action``, chosen for ``turn`` (:meth:`turn`) by a bot or for a seat that
        did not decide in time, with the chance steps after it; the table is not changed
        (:meth:`commit` makes them its own).  :class:`BotError` when the table has moved on since
        ``turn`` or ``action`` is not one of its legal actions."""
        moved = turn.step != len(self.actions) or turn.logged not in (-1, self.logged)
        if moved or turn.seat != self.current_player:
            raise BotError(f"seat {turn.seat} was asked at step {turn.step}: the table has moved on")
        return self.plan(turn.seat, _chosen(turn, action, f"the bot of seat {turn.seat}"))

    def resolve_chance(self) -> int:
        """Draw every chance outcome due now, as this table draws them; returns the player then to
        act (or :data:`~shadowtable.core.game.TERMINAL`)."""
        player = self.game.current_player(self.state)
        while player == CHANCE:
            self._advance(CHANCE_SEAT, self._automatic(CHANCE), False)
            player = self.game.current_player(self.state)
        return player

    def step(self) -> int:
        """Take one chance or bot step; returns the action."""
        player = self.current_player
        action = self._automatic(player)
        self._advance(player, action, False)  # taken from the legal actions or the chance outcomes
        return action

    def run(self, *, max_steps: int | None = None, on_step: StepHook | None = None) -> None:
        """Step until the game ends, a person must decide, or ``max_steps`` actions are recorded."""
        limit = self.game.spec.max_game_length if max_steps is None else max_steps
        game, bots, actions = self.game, self.bots, self.actions
        while len(actions) < limit:
            player = game.current_player(self.state)
            if player == TERMINAL or (player >= 0 and bots[player] is None):
                break
            action = self._automatic(player)
            if on_step is not None:
                on_step(game, self.state, player, action)
            self._advance(player, action, False)  # taken from the legal actions or the chance outcomes

    # -- taking back a move -----------------------------------------------------------------------
    def _track(self, seat: int, before: Any) -> None:
        """Step number ``len(actions)`` by ``seat`` from ``before``: keep the states before the
        decisions that end the log (a chance step or another seat's decision starts afresh)."""
        if seat != self._run_seat or seat < 0:
            self._run_seat = seat if seat >= 0 else None
            self._run = []
            self._quiet = {}
        if seat >= 0:
            self._run.append(before)

    def undoable(self, seat: int) -> int:
        """How many of ``seat``'s last decisions it may take back now (0: none): those since the
        last chance step and the last decision of another seat, back to the first one that
        revealed anything to anyone (:func:`~shadowtable.core.undo.reveals`); none once the game is
        over."""
        if seat != self._run_seat or self.is_over():
            return 0
        run, first = self._run, len(self.actions) - len(self._run)
        count = 0
        for k in range(len(run) - 1, max(-1, len(run) - 1 - MAX_UNDO), -1):
            if not self._step_quiet(first + k, run[k]):
                break
            count += 1
        return count

    def _step_quiet(self, index: int, before: Any) -> bool:
        known = self._quiet.get(index)
        if known is None:
            known = self._quiet[index] = quiet(self.game, before, self.seats[index], self.actions[index], index)
        return known

    def undo(self, seat: int, count: int = 1) -> Undone:
        """``seat`` takes back its last ``count`` decisions: the state is the one before them, as
        replaying the log without them gives; every audience with a channel is told, in a new
        version.  :class:`IllegalActionError` (nothing changes) when :meth:`undoable` allows fewer."""
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            raise UndoError(f"an undo takes back at least one decision, not {count!r}")
        allowed = self.undoable(seat)
        if count > allowed:
            raise UndoError(undo_refusal(allowed, count))
        return self._take_back(seat, count)

    def _take_back(self, seat: int, count: int) -> Undone:
        """Undo ``seat``'s last ``count`` decisions (they end the log: checked by the caller)."""
        kept = len(self.actions) - count
        undone = Undone(seat, kept, tuple(self.actions[kept:]))
        self.state = self._run[len(self._run) - count]
        del self.actions[kept:], self.seats[kept:], self._run[len(self._run) - count :]
        self._quiet = {k: v for k, v in self._quiet.items() if k < kept}
        if not self._run:
            self._run_seat = None
        self._undo_rows += count + 1
        self.undos.append(undone)
        if self.channels:
            self._tell_undo(undone, self.channels)
        return undone

    def _tell_undo(self, undone: Undone, channels: dict[int | None, Channel]) -> None:
        """Tell each of ``channels`` of ``undone`` (a new version each): the undone decisions revealed
        nothing, so the view it goes back to tells nothing new."""
        last = len(self.actions) - 1
        event = undo_event(undone)
        for audience, channel in channels.items():
            channel.at = [min(at, last) for at in channel.at]  # the undone steps' versions count as the last one
            channel.add([event], last)
            channel.last = encode(self.game.observe(self.state, audience))
        seat = undone.seat
        if seat in channels:
            earlier = [k for k in range(len(self.seats)) if self.seats[k] == seat]
            if earlier:
                before = self._state_before(earlier[-1])
                self.decided[seat] = (earlier[-1], encode(self.game.observe(before, seat)))
            else:
                self.decided.pop(seat, None)

    def _state_before(self, index: int) -> Any:
        """The state before step ``index`` (replayed from the start unless it is one kept)."""
        first = len(self.actions) - len(self._run)
        if index >= first:
            return self._run[index - first]
        state = self.game.initial_state()
        for action in self.actions[:index]:
            state = self.game.apply_unchecked(state, action)
        return state

    def replay_log(self, rows: Iterable[tuple[int, int]]) -> None:
        """Carry on from a stored log's ``rows`` (after the rows held already): actions are taken,
        undo rows (:data:`~shadowtable.core.undo.UNDO_SEAT`) undone."""
        for seat, action in rows:
            if seat == UNDO_SEAT:
                run = len(self._run) if self._run_seat is not None else 0
                if not 0 < action <= run:
                    raise RecordError(f"an undo of {action} decisions after {run} decisions of one seat")
                self._take_back(self.seats[-1], action)
            else:
                self._advance(seat, action, True)

    # -- what each audience is told -------------------------------------------------------------
    def tell(self, *audiences: int | None) -> None:
        """Keep a channel for each of ``audiences`` (none named: every audience) from now on,
        first telling it the game so far (replayed).  Only audiences with a channel cost anything
        per step: a simulation keeps none, the terminal app those it shows, the server all."""
        wanted = audiences or tuple(self.audiences())
        new = {audience: Channel() for audience in wanted if audience not in self.channels}
        if not new:
            return
        for audience in new:
            self.game.check_seat(audience)
        game = self.game
        state = game.initial_state()
        for audience, channel in new.items():
            channel.last = encode(game.observe(state, audience))
        for index, (seat, action) in enumerate(zip(self.seats, self.actions, strict=True)):
            after, events = game.apply_recorded(state, action, checked=False)
            self._note_decision(seat, index, new)
            self._tell(Step(seat, action, state, after, events), index, new)
            state = after
        self.channels.update(new)

    def _tell(self, step: Step, index: int, channels: dict[int | None, Channel]) -> None:
        """Tell each of ``channels`` step number ``index``: a new version when its reader is told
        an event or sees a change; a seat's events not told on the public channel are marked
        private (:func:`marked_private`)."""
        words = self.game.words
        public = words.told(step.before, step.action, step.events, None)
        for audience, channel in channels.items():
            told = public if audience is None else words.told(step.before, step.action, step.events, audience)
            if audience is not None:
                told = marked_private(told, public, audience)
            seen = encode(self.game.observe(step.after, audience))
            if told or seen != channel.last:
                channel.add(told, index)
                channel.last = seen

    def _note_decision(self, seat: int, index: int, channels: dict[int | None, Channel]) -> None:
        """``seat`` decides at step ``index``: keep what it saw then (its channel's last view)."""
        if seat >= 0 and seat in channels:
            self.decided[seat] = (index, channels[seat].last)

    def since_decision(self, seat: int) -> tuple[Observation, list[dict[str, Any]]] | None:
        """What ``seat`` saw when it last decided and every event told to it since (its own
        decision's first): ``None`` before its first decision or without its channel."""
        found, channel = self.decided.get(seat), self.channels.get(seat)
        if found is None or channel is None:
            return None
        index, seen = found
        observation: Observation = json.loads(seen)
        return observation, channel.since(channel.first_version_after(index - 1) - 1)

    def view(self, seat: int | None, since: int = 0) -> SeatView:
        """What ``seat`` (``None``: a spectator) sees now, with the events after version ``since``
        (all of them when ``since`` is not a version its channel has reached)."""
        self.game.check_seat(seat)
        self.tell(seat)
        channel = self.channels[seat]
        after = since if 0 <= since <= channel.v else 0
        return view_of(
            self.game,
            self.state,
            seat,
            v=channel.v,
            after=after,
            events=channel.since(after),
            turn=None if seat is None else self.decisions(seat),
        )

    def results(self) -> tuple[SeatResult, ...]:
        """Each seat's result once the game is over (empty before), as the game words them from
        its outcome and the public log."""
        if not self.game.is_terminal(self.state):
            return ()
        self.tell(None)
        public = self.channels[None]
        return self.game.words.results(self.state, public.through(public.v))

    # -- records --------------------------------------------------------------------------------
    def record(self) -> GameRecord:
        """The record of the game so far (``truncated`` while unfinished)."""
        over = self.is_over()
        return GameRecord(
            game=self.game.spec.id,
            version=self.game.spec.version,
            players=self.game.players,
            options=dict(self.game.options),
            seats=list(self.seat_names),
            actions=list(self.actions),
            seed=self.seed,
            returns=list(self.game.returns(self.state)) if over else None,
            truncated=not over,
            metadata=dict(self.game.summary(self.state)) | undo_metadata(self.undos),
        )

    @classmethod
    def resume(cls, record: GameRecord, bots: Sequence[Any | None]) -> Table:
        """Continue a saved game: replays its actions, then carries on with the record's seed.

        A record without a seed (a game people play) carries on with the operating system's
        randomness.
        """
        table = cls(game_for_record(record), bots, record.seed, seat_names=record.seats)
        for index, action in enumerate(record.actions):
            try:
                table.apply(action)
            except IllegalActionError as exc:
                raise RecordError(f"saved game action #{index} does not replay: {exc}") from exc
        return table


def _chosen(turn: Turn, action: object, who: str) -> int:
    """``action`` as the number of one of ``turn``'s legal actions; :class:`BotError` otherwise."""
    try:
        number = action_id(action)
    except IllegalActionError:
        number = -1
    if number not in turn.legal:
        raise BotError(f"{who} at seat {turn.seat} chose illegal action {action!r}")
    return number


def _seat_name(bot: Any) -> str:
    return "human" if bot is None else str(getattr(bot, "name", type(bot).__name__))
