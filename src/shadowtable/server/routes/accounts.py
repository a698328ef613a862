"""The accounts' JSON API: sign up, log in and out, change the password, the notification
settings, the leaderboard and a player's games."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Query, Request, Response
from pydantic import BaseModel, ConfigDict, Field

from shadowtable.server.dependencies import AccountsDep, CurrentAccount, LimitsDep, NotificationsDep, RatingsDep
from shadowtable.server.errors import Unauthorized
from shadowtable.server.routes.models import refusals

router = APIRouter()


class Credentials(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(max_length=128, description="3 to 32 printable characters (unique, whatever the case)")
    password: str = Field(max_length=1024, description="8 to 256 characters")


class NewPassword(BaseModel):
    model_config = ConfigDict(extra="forbid")
    current_password: str = Field(max_length=1024, description="the account's password now")
    new_password: str = Field(
        max_length=1024,
        description="8 to 256 characters, not a common password, not containing the account's name",
    )


class AccountOut(BaseModel):
    name: str


class RatingOut(BaseModel):
    rank: int
    name: str
    mu: float
    sigma: float
    ordinal: float = Field(description="mu - 3 sigma: what the board is sorted by")
    games: int


class Board(BaseModel):
    game: str
    players: int
    ratings: list[RatingOut]


class GamePlayed(BaseModel):
    table: str
    game: str
    players: int
    finished_at: float | None
    seat: int
    result: str
    rated: bool
    replay: str = Field(description="the replay page of the game")


class PlayerGames(BaseModel):
    name: str
    games: list[GamePlayed]


@router.post("/api/accounts", response_model=AccountOut, status_code=201, responses=refusals(400, 409, 429, 503))
async def sign_up(
    body: Credentials, request: Request, response: Response, accounts: AccountsDep, limits: LimitsDep
) -> dict[str, Any]:
    """Make an account and sign in (the answer sets the HttpOnly cookie ``shadowtable_account``)."""
    account = await limits.sign_up(request, lambda: accounts.sign_up(body.name, body.password))
    await accounts.sign_in(response, account, request)
    return {"name": account.name}


@router.post("/api/session", response_model=AccountOut, responses=refusals(400, 403, 429, 503))
async def log_in(
    body: Credentials, request: Request, response: Response, accounts: AccountsDep, limits: LimitsDep
) -> dict[str, Any]:
    """Sign in: seats you join from now on are rated under this account (a client's attempts,
    and wrong passwords for one name, are limited: 429)."""
    account = await limits.log_in(request, body.name, lambda: accounts.log_in(body.name, body.password))
    await accounts.sign_in(response, account, request)
    return {"name": account.name}


@router.get("/api/session", response_model=AccountOut, responses=refusals(401))
async def who(account: CurrentAccount) -> dict[str, Any]:
    """The account this browser is signed in as (401 when none: no cookie, or a revoked one)."""
    if account is None:
        raise Unauthorized("nobody is signed in")
    return {"name": account.name}


@router.delete("/api/session", status_code=204, response_class=Response, responses=refusals(503))
async def log_out(request: Request, accounts: AccountsDep) -> Response:
    """Sign out: the session is revoked (its cookie no longer signs anyone in) and cleared."""
    response = Response(status_code=204)
    await accounts.sign_out(request, response)
    return response


@router.post("/api/account/password", response_model=AccountOut, responses=refusals(400, 401, 403, 503))
async def change_password(
    body: NewPassword, request: Request, response: Response, accounts: AccountsDep, account: CurrentAccount
) -> dict[str, Any]:
    """Change the signed-in account's password (the current one is needed): every session of the
    account is revoked, and this browser gets a new one."""
    changed = await accounts.change_password(account, body.current_password, body.new_password)
    await accounts.sign_in(response, changed, request)
    return {"name": changed.name}


class NotificationsOut(BaseModel):
    email: str | None = Field(description="the address turn mails go to once confirmed")
    email_confirmed: bool
    email_on: bool = Field(description="mail me when it is my turn (only with a confirmed address)")
    webhook: str | None = Field(description="an address posted JSON when it is my turn")
    mail_available: bool = Field(description="whether this server sends e-mail at all")


class NotificationsIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    email: str | None = Field(
        default=None, max_length=254, description="a new address (a confirmation link is mailed to it); null: none"
    )
    email_on: bool | None = Field(default=None, description="mail me when it is my turn")
    webhook: str | None = Field(
        default=None, max_length=500, description="https:// (or http://127.0.0.1) address; null: none"
    )


class ConfirmIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    token: str = Field(max_length=512, description="the token of the confirmation link")


def settings_out(notifications: Any, settings: Any) -> dict[str, Any]:
    return {
        "email": settings.email,
        "email_confirmed": settings.email_confirmed,
        "email_on": settings.email_on,
        "webhook": settings.webhook,
        "mail_available": notifications.config.mail_problem() is None,
    }


@router.get("/api/account/notifications", response_model=NotificationsOut, responses=refusals(401, 503))
async def notification_settings(account: CurrentAccount, notifications: NotificationsDep) -> dict[str, Any]:
    """The signed-in account's notification settings (guests have none: nothing is sent to them)."""
    if account is None:
        raise Unauthorized("sign in first: notifications are for accounts")
    return settings_out(notifications, await notifications.settings(account.id))


@router.patch("/api/account/notifications", response_model=NotificationsOut, responses=refusals(400, 401, 503))
async def change_notifications(
    body: NotificationsIn, account: CurrentAccount, notifications: NotificationsDep
) -> dict[str, Any]:
    """Change the fields given: a new ``email`` is unconfirmed until its mailed link is followed
    (``email_on`` turns on then); ``email_on`` true needs a confirmed address."""
    given = {name: getattr(body, name) for name in body.model_fields_set}
    if "email_on" in given and given["email_on"] is None:
        del given["email_on"]
    settings = await notifications.change(account.id if account else None, **given)
    return settings_out(notifications, settings)


@router.post("/api/account/email/confirm", response_model=NotificationsOut, responses=refusals(400, 409, 503))
async def confirm_email(body: ConfirmIn, notifications: NotificationsDep) -> dict[str, Any]:
    """Confirm an address with the token of the link mailed to it (e-mail on my turn turns on)."""
    claim = await notifications.confirm(body.token)
    return settings_out(notifications, await notifications.settings(claim.account_id))


@router.get("/api/leaderboard", response_model=Board, responses=refusals(503))
async def leaderboard(
    game: Annotated[str, Query(max_length=64)], players: Annotated[int, Query(ge=1, le=16)], ratings: RatingsDep
) -> dict[str, Any]:
    """The rated players of a game at a player count, best first (by ``mu - 3 sigma``)."""
    board = await ratings.leaderboard(game, players)
    return {
        "game": game,
        "players": players,
        "ratings": [{"rank": i + 1, **rated.to_json()} for i, rated in enumerate(board)],
    }


def game_played(played: dict[str, Any]) -> dict[str, Any]:
    """One game of a player's history as the API shows it, with its replay page."""
    shown = {key: value for key, value in played.items() if key in GamePlayed.model_fields}
    return shown | {"replay": f"/replay/{played['table']}?seat={played['seat']}"}


@router.get("/api/players/{name}/games", response_model=PlayerGames, responses=refusals(404, 503))
async def player_games(
    name: Annotated[str, Path(max_length=128)], accounts: AccountsDep, ratings: RatingsDep
) -> dict[str, Any]:
    """A player's finished games, newest first."""
    account = await accounts.by_name(name)
    return {"name": account.name, "games": [game_played(played) for played in await ratings.history(account.id)]}
