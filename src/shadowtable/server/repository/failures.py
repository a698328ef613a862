"""The store's failures as the server's errors, written once."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from shadowtable.server.errors import Stale, Unavailable
from shadowtable.server.store import StoreConflict, StoreError


@contextlib.contextmanager
def store_failures(*, conflict: bool = True) -> Iterator[None]:
    """Raise the store's failures as the service's errors: a write another process won first
    (``conflict``: a table's write) as :class:`Stale`, anything else as :class:`Unavailable`."""
    try:
        yield
    except StoreConflict as exc:
        if not conflict:
            raise Unavailable(str(exc)) from exc
        raise Stale("another server process changed this table first") from exc
    except StoreError as exc:
        raise Unavailable(str(exc)) from exc
