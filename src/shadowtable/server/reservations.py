"""Rematch reservations: a rematch keeps each seat for the player who held it in the finished game.

A reservation names that player twice, so either proves it: the SHA-256 of the key of their old
seat (the token a guest's browser keeps for the finished table) and their account, if they played
signed in.  Until it ends (:attr:`Reservation.until`), or they take the seat or decline it, nobody
else may take the seat; bots never hold one (a bot's seat is a bot again at the rematch).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from shadowtable.server.tokens import SeatClaim, matches


@dataclass(frozen=True)
class Reservation:
    """A seat kept for its former holder: their old seat key's hash, their account, and until when
    (``time.time()`` seconds)."""

    key_hash: str | None
    account_id: str | None
    until: float

    def live(self, now: float) -> bool:
        """Whether the seat is still kept at ``now``."""
        return now < self.until

    def held_by(self, account_id: str | None, claims: Iterable[SeatClaim]) -> bool:
        """Whether the signed-in ``account_id`` or one of the seat ``claims`` (tokens of other tables
        the asker holds) is the former holder's."""
        if self.account_id is not None and account_id == self.account_id:
            return True
        return self.key_hash is not None and any(matches(claim, self.key_hash) for claim in claims)


def former_holder(key_hash: str | None, account_id: str | None, until: float) -> Reservation | None:
    """The reservation for a seat's holder in a finished game (``None``: nobody held it)."""
    if key_hash is None and account_id is None:
        return None
    return Reservation(key_hash, account_id, until)
