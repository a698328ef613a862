"""What a route needs, as FastAPI dependencies: the parts of the server kept on ``app.state``
(set by :func:`shadowtable.server.app.create_app` and its lifespan), the signed-in account and
the seat token a request carries.  Each works for HTTP requests and WebSockets alike."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Header, Path
from starlette.requests import HTTPConnection

from shadowtable.server.accounts import Account, Accounts
from shadowtable.server.config import ServerConfig
from shadowtable.server.cookies import request_token
from shadowtable.server.errors import Unavailable
from shadowtable.server.limits import ClientLimits, limits_of
from shadowtable.server.notify_settings import Notifications
from shadowtable.server.ratings import Ratings
from shadowtable.server.replays import FinishedTables
from shadowtable.server.service import TableService
from shadowtable.server.throttle import SocketCount

TABLE_ID = r"^[A-Za-z0-9_-]{1,32}$"
TableId = Annotated[str, Path(pattern=TABLE_ID, max_length=32)]
"""A table id in an API path (a page's path takes any text: an unknown table is its error page)."""


def config_of(connection: HTTPConnection) -> ServerConfig:
    config: ServerConfig = connection.app.state.config
    return config


def service_of(connection: HTTPConnection) -> TableService:
    """The table service (:class:`Unavailable` until the server has started)."""
    service: TableService | None = getattr(connection.app.state, "service", None)
    if service is None:
        raise Unavailable("the server is starting: try again in a moment")
    return service


def accounts_of(connection: HTTPConnection) -> Accounts:
    accounts: Accounts = connection.app.state.accounts
    return accounts


def notifications_of(connection: HTTPConnection) -> Notifications:
    notifications: Notifications = connection.app.state.notifications
    return notifications


def ratings_of(connection: HTTPConnection) -> Ratings:
    ratings: Ratings = connection.app.state.ratings
    return ratings


def finished_of(connection: HTTPConnection) -> FinishedTables:
    finished: FinishedTables = connection.app.state.finished
    return finished


def sockets_of(connection: HTTPConnection) -> SocketCount:
    sockets: SocketCount = connection.app.state.sockets
    return sockets


def current_account(connection: HTTPConnection) -> Account | None:
    """The account signed in on this request (``None``: a guest)."""
    return accounts_of(connection).current(connection)


def seat_token(
    connection: HTTPConnection, table_id: TableId, authorization: Annotated[str | None, Header()] = None
) -> str | None:
    """The seat token of ``table_id`` an API request carries: ``Authorization: Bearer ...``, else the
    browser's seat cookie."""
    return request_token(connection, table_id, authorization)


def held_token(
    connection: HTTPConnection, table_id: TableId, authorization: Annotated[str | None, Header()] = None
) -> str | None:
    """The seat a join says it holds: asked only with an ``Authorization`` header (a browser joining
    through the API with its cookie alone holds nothing)."""
    return request_token(connection, table_id, authorization) if authorization else None


def cookie_token(connection: HTTPConnection, table_id: str) -> str | None:
    """The seat token of ``table_id`` in the browser's seat cookie (the pages)."""
    return request_token(connection, table_id)


def sitting_as(account: Account | None, name: str | None) -> tuple[str | None, str | None]:
    """The name and account a seat is taken with: a signed-in account's, else ``name`` as a guest."""
    return (account.name, account.id) if account is not None else (name, None)


ConfigDep = Annotated[ServerConfig, Depends(config_of)]
ServiceDep = Annotated[TableService, Depends(service_of)]
AccountsDep = Annotated[Accounts, Depends(accounts_of)]
RatingsDep = Annotated[Ratings, Depends(ratings_of)]
NotificationsDep = Annotated[Notifications, Depends(notifications_of)]
LimitsDep = Annotated[ClientLimits, Depends(limits_of)]
FinishedDep = Annotated[FinishedTables, Depends(finished_of)]
SocketsDep = Annotated[SocketCount, Depends(sockets_of)]
CurrentAccount = Annotated[Account | None, Depends(current_account)]
SeatToken = Annotated[str | None, Depends(seat_token)]
HeldToken = Annotated[str | None, Depends(held_token)]
CookieToken = Annotated[str | None, Depends(cookie_token)]
