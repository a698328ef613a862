"""A live table in memory: the core table (:mod:`shadowtable.core.table`) as the server holds it.

Changes come in two halves so that nothing is acknowledged before it is stored:
:meth:`LiveTable.plan` works out the steps an action leads to (the action, then any chance outcomes drawn from the
operating system) without changing the table; the caller persists them, then
:meth:`LiveTable.commit` makes them the table's own.  A bot's move is planned the same way:
:meth:`LiveTable.turn` is what the bot is asked, :meth:`LiveTable.plan_turn` the steps of its
choice.
"""

from __future__ import annotations

from shadowtable.core.table import CHANCE_SEAT, Channel, Step, Turn, plan, replayed
from shadowtable.core.table import Table as LiveTable

__all__ = ["CHANCE_SEAT", "Channel", "LiveTable", "Step", "Turn", "plan", "replayed"]
