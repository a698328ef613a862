"""The terminal app's table: the core table (:class:`~shadowtable.core.table.Table`) plus who
sits where and the log as each seat reads it.

Pure logic (no Textual), so it is tested directly.  What a seat is told comes from the core
table's channels, the same ones the server sends from; a seat's channel is kept from the first
time it is read.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from shadowtable.core.errors import BotError, IllegalActionError, InvalidPlayersError, UndoError
from shadowtable.core.game import Game, Observation
from shadowtable.core.manifest import manifest_of
from shadowtable.core.observation import Observation as TypedObservation
from shadowtable.core.table import Channel, ChoiceGroup, SeatView, Told, choices_of, groups_of
from shadowtable.core.table import Table as Session
from shadowtable.core.views import typed_view
from shadowtable.core.wording import without_card_ids


@dataclass
class Table:
    """A session with people at ``humans`` seats; bots sit at the others."""

    session: Session
    humans: list[int]
    history: list[tuple[Any, int]] = field(default_factory=list)
    """Every step so far as (state before it, action); rebuilt from the session's actions when empty."""
    _read: dict[int | None, tuple[Channel, int, list[list[Told]]]] = field(default_factory=dict, init=False, repr=False)
    """Per audience: the channel read, the version last read, and the events of each version up to it."""

    def __post_init__(self) -> None:
        if not self.history and self.session.actions:
            self.history = replay_history(self.game, self.session.actions)

    @property
    def game(self) -> Game[Any]:
        return self.session.game

    def viewer(self) -> int | None:
        """The seat whose view is shown: the person to act, else the first person, else a spectator."""
        player = self.session.current_player
        if player in self.humans:
            return player
        return self.humans[0] if self.humans else None

    def view(self, seat: int | None, since: int = 0) -> SeatView:
        """The core table's view of ``seat`` (see :meth:`shadowtable.core.table.Table.view`)."""
        return self.session.view(seat, since)

    def observation(self, seat: int | None) -> Observation:
        """The game's JSON observation of ``seat`` now."""
        return self.game.observe(self.session.state, seat)

    def typed(self, observation: Observation) -> TypedObservation[object, object, object] | None:
        """The typed view of ``observation`` (``None`` for a game whose manifest names none)."""
        if manifest_of(type(self.game)).view is None:
            return None
        return typed_view(self.game, observation)

    def choices(self) -> list[tuple[int, str]]:
        """The legal actions of the person to act, with their notation."""
        if not self.session.awaits_outside_decision():
            return []
        return [(choice.action, choice.text) for choice in choices_of(self.game, self.session.state)]

    def choice_groups(self) -> tuple[ChoiceGroup, ...]:
        """The person's legal actions grouped (:meth:`Game.choice_groups`); empty when no person decides."""
        if not self.session.awaits_outside_decision():
            return ()
        return groups_of(self.game, self.session.state)

    def step_automatic(self) -> bool:
        """Take one chance or bot step if one is due; returns whether it did."""
        if self.session.is_over() or self.session.awaits_outside_decision():
            return False
        state = self.session.state
        action = self.session.step()
        self.history.append((state, action))
        return True

    def run_automatic(self, limit: int = 100_000) -> int:
        """Take chance and bot steps until a person must decide or the game ends."""
        steps = 0
        while steps < limit and self.step_automatic():
            steps += 1
        return steps

    def play(self, action: int) -> None:
        """Apply a person's action; an illegal one raises and changes nothing."""
        state = self.session.state
        self.session.apply(action)
        self.history.append((state, action))

    def play_text(self, text: str) -> int:
        """Apply the action written in notation; raises a typed error and changes nothing if bad."""
        if not self.session.awaits_outside_decision():
            raise IllegalActionError("it is not a person's turn")
        action = self.game.words.parse_action(self.session.state, text)
        self.play(action)
        return action

    def undoable(self) -> int:
        """How many of the last person's decisions may be taken back now (0: none; see
        :meth:`shadowtable.core.table.Table.undoable`)."""
        seats = self.session.seats
        if not seats or seats[-1] not in self.humans:
            return 0
        return self.session.undoable(seats[-1])

    def undo(self) -> int:
        """Take back the last person's last decision; returns that seat.  Raises a typed error and
        changes nothing when it may not be taken back."""
        seats = self.session.seats
        if not seats or seats[-1] not in self.humans:
            raise UndoError("nothing to take back: the last decision was not a person's")
        seat = seats[-1]
        self.session.undo(seat, 1)
        del self.history[len(self.session.actions) :]
        return seat

    def log(self, seat: int | None, last: int | None = None) -> list[str]:
        """The game log as ``seat`` may read it, from the first step (``last``: only that many lines).

        One line per event ``seat`` is told (:meth:`events`), as a person reads it: card ids left out."""
        lines = [without_card_ids(event.text) for event in self.events(seat)]
        return lines if last is None else lines[-last:] if last > 0 else []

    def events(self, seat: int | None) -> list[Told]:
        """Every event of the game so far as ``seat`` is told it (:meth:`Game.told`), from the start."""
        return [event for version in self._versions(seat) for event in version]

    def recent(self, seat: int | None) -> list[Told]:
        """What happened while ``seat`` waited: the events since the last stretch of other seats'
        and chance steps began, with ``seat``'s own decisions after it (every event for a
        spectator, who never decides)."""
        players = self.session.seats
        index = len(players) - 1
        while index >= 0 and players[index] == seat:
            index -= 1
        while index >= 0 and players[index] != seat:
            index -= 1
        first = self._channel(seat).first_version_after(index)
        return [event for version in self._versions(seat)[first - 1 :] for event in version]

    def latest(self, seat: int | None, kinds: frozenset[str]) -> list[Told]:
        """The events of the last step that noted one of ``kinds`` (e.g. a Duel's breakdown)."""
        for version in reversed(self._versions(seat)):
            if any(event.kind in kinds for event in version):
                return [event for event in version if event.kind in kinds]
        return []

    def _channel(self, seat: int | None) -> Channel:
        self.game.check_seat(seat)
        self.session.tell(seat)
        return self.session.channels[seat]

    def _versions(self, seat: int | None) -> list[list[Told]]:
        """The events of each version of ``seat``'s channel, decoded once per version, so a long
        game is not decoded again on every redraw."""
        channel = self._channel(seat)
        kept, read, versions = self._read.get(seat, (channel, 0, []))
        if kept is not channel or read > channel.v:  # another session's channel: read it afresh
            read, versions = 0, []
        versions.extend(
            [Told.from_json(event) for event in channel.version_events(v)] for v in range(read + 1, channel.v + 1)
        )
        self._read[seat] = (channel, channel.v, versions)
        return versions


def replay_history(game: Game[Any], actions: Sequence[int]) -> list[tuple[Any, int]]:
    """The (state, action) steps of a game replayed from its start, as a resumed table's history."""
    history: list[tuple[Any, int]] = []
    state = game.initial_state()
    for action in actions:
        history.append((state, action))
        state = game.apply(state, action)
    return history


def parse_seats(text: str, players: int) -> list[int]:
    """``"0,2"`` to ``[0, 2]``, checked against the player count."""
    try:
        seats = sorted({int(part) for part in text.split(",") if part.strip()})
    except ValueError as exc:
        raise InvalidPlayersError(f"bad seat list {text!r}") from exc
    if any(not 0 <= s < players for s in seats):
        raise InvalidPlayersError(f"seats must be between 0 and {players - 1}, got {text!r}")
    return seats


def seat_bots(humans: Sequence[int], players: int, bot_specs: Sequence[str]) -> list[str | None]:
    """One entry per seat: ``None`` for a person, else a bot spec (one spec fills every bot seat)."""
    bot_seats = [s for s in range(players) if s not in humans]
    specs = [s for s in bot_specs if s.strip()] or ["random"]
    if len(specs) == 1:
        specs = specs * len(bot_seats)
    if len(specs) != len(bot_seats):
        raise BotError(f"need 1 or {len(bot_seats)} bots for the bot seats {bot_seats}, got {len(specs)}")
    by_seat = dict(zip(bot_seats, specs, strict=True))
    return [by_seat.get(seat) for seat in range(players)]
