"""The turn trigger: which seats a stored move hands the decision to, and the notifications it queues.

:func:`notify_turn` is called by :meth:`TableService.persist` with the steps about to be stored;
the statements it returns go into the same transaction, so a notification exists exactly when its
move does, and never before.  What a notification holds are the table's public facts only
(:class:`TurnFacts`: the game's title, the table, the seats' names and whose turn it is), never a
seat's view or the true state.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from shadowtable.core.game import CHANCE, Game
from shadowtable.server.config import ServerConfig
from shadowtable.server.live import Step
from shadowtable.server.repository.notifications import queue_turn
from shadowtable.server.store import Statement
from shadowtable.server.table import TURN_BASED, Table, seat_name

TURN_KINDS = ("turn_email", "turn_webhook")


@dataclass(frozen=True)
class TurnFacts:
    """What a turn notification says: public facts every seat and spectator knows."""

    game: str
    """The game's title (``Shadowlord!``)."""
    table: str
    """The table's id."""
    players: list[str]
    """Every seat's shown name, in seat order."""
    to_decide: list[str]
    """The names of the seats whose turn it is now."""

    def json(self) -> str:
        return json.dumps(asdict(self), sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> TurnFacts:
        data = json.loads(text)
        return cls(str(data["game"]), str(data["table"]), list(data["players"]), list(data["to_decide"]))


def queued_kinds(config: ServerConfig) -> list[str]:
    """The turn notifications this server queues: mail only with a mail server, webhooks only with
    a base URL for the links."""
    kinds = []
    if config.mail_problem() is None:
        kinds.append("turn_email")
    if config.base_url:
        kinds.append("turn_webhook")
    return kinds


def wants_notifications(table: Table) -> bool:
    """Whether turn changes at ``table`` are notified: at a turn-based table in play or about to
    start (at a real-time table the players are at the page)."""
    return table.stored.mode == TURN_BASED and table.status in ("open", "playing")


def seats_to_decide(table: Table, steps: Sequence[Step]) -> list[int]:
    """The seats ``steps`` hand the decision to (:func:`deciders` of the table before and after them)."""
    if not steps:
        return []
    before = table.live.state if table.status == "playing" else None
    return deciders(table.game, before, steps[-1].after, steps[0].seat)


def deciders(game: Game[Any], before: Any, after: Any, mover: int) -> list[int]:
    """The seats that decide in state ``after`` and did not in ``before`` (``None``: the game had
    not started), less ``mover`` (the seat that just moved); none once the game is over.  Only
    ``current_player`` and ``is_terminal`` are read: whose turn it is, which every seat knows."""
    if game.is_terminal(after):
        return []
    seat = game.current_player(after)
    previous = None if before is None else game.current_player(before)
    if seat < 0 or seat in (CHANCE, previous, mover):
        return []
    return [seat]


def person_seat(table: Table, seat: int) -> bool:
    """Whether a person holds ``seat`` (not a bot, nor a bot playing for an away player)."""
    held = table.seats[seat]
    return held.kind == "human" and not held.zombie and held.key_hash is not None


def turn_facts(table: Table, seats: Sequence[int]) -> TurnFacts:
    """The public facts of a turn at ``table`` for ``seats``."""
    names = [seat_name(i, seat) for i, seat in enumerate(table.seats)]
    return TurnFacts(table.game.spec.name, table.id, names, [names[seat] for seat in seats])


def notify_turn(
    table: Table, steps: Sequence[Step], kinds: Sequence[str], *, per_account: int, now: float | None = None
) -> list[Statement]:
    """The statements queueing the ``kinds`` of notification (``turn_email``, ``turn_webhook``)
    ``steps`` cause, for the person seats they hand the decision to; to store with the steps."""
    if not kinds or not wants_notifications(table):
        return []
    seats = [seat for seat in seats_to_decide(table, steps) if person_seat(table, seat)]
    at = time.time() if now is None else now
    version = table.steps + len(steps)
    statements: list[Statement] = []
    for seat in seats:
        payload = turn_facts(table, [seat]).json()
        statements.extend(
            queue_turn(table.id, seat, version, kind, payload, at, per_account=per_account) for kind in kinds
        )
    return statements
