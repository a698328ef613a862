"""The accounts' JSON API: sign up, log in and out, the leaderboard and a player's games."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import FastAPI, Path, Query, Request, Response
from pydantic import BaseModel, ConfigDict, Field

from shadowtable.server.accounts import Accounts, clear_cookie
from shadowtable.server.limits import limits_of
from shadowtable.server.ratings import Ratings


class Problem(BaseModel):
    error: str


class Credentials(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(max_length=128, description="3 to 32 printable characters (unique, whatever the case)")
    password: str = Field(max_length=1024, description="8 to 256 characters")


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


def _errors(*codes: int) -> dict[int | str, dict[str, Any]]:
    return {code: {"model": Problem} for code in codes}


def add_account_api(app: FastAPI, accounts: Accounts, ratings: Ratings) -> None:
    """The ``/api/accounts``, ``/api/session``, ``/api/leaderboard`` and ``/api/players`` routes."""

    @app.post("/api/accounts", response_model=AccountOut, status_code=201, responses=_errors(400, 409, 429, 503))
    async def sign_up(body: Credentials, request: Request, response: Response) -> dict[str, Any]:
        """Make an account and sign in (the answer sets the HttpOnly cookie ``shadowtable_account``)."""
        account = await limits_of(request).sign_up(request, lambda: accounts.sign_up(body.name, body.password))
        accounts.set_cookie(response, account)
        return {"name": account.name}

    @app.post("/api/session", response_model=AccountOut, responses=_errors(400, 403, 429, 503))
    async def log_in(body: Credentials, request: Request, response: Response) -> dict[str, Any]:
        """Sign in: seats you join from now on are rated under this account (a client's attempts,
        and wrong passwords for one name, are limited: 429)."""
        account = await limits_of(request).log_in(request, body.name, lambda: accounts.log_in(body.name, body.password))
        accounts.set_cookie(response, account)
        return {"name": account.name}

    @app.delete("/api/session", status_code=204, response_class=Response)
    async def log_out() -> Response:
        """Sign out (the cookie is cleared)."""
        response = Response(status_code=204)
        clear_cookie(response)
        return response

    @app.get("/api/leaderboard", response_model=Board, responses=_errors(503))
    async def leaderboard(
        game: Annotated[str, Query(max_length=64)], players: Annotated[int, Query(ge=1, le=16)]
    ) -> dict[str, Any]:
        """The rated players of a game at a player count, best first (by ``mu - 3 sigma``)."""
        board = await ratings.leaderboard(game, players)
        return {
            "game": game,
            "players": players,
            "ratings": [{"rank": i + 1, **rated.to_json()} for i, rated in enumerate(board)],
        }

    @app.get("/api/players/{name}/games", response_model=PlayerGames, responses=_errors(404, 503))
    async def player_games(name: Annotated[str, Path(max_length=128)]) -> dict[str, Any]:
        """A player's finished games, newest first."""
        account = await accounts.by_name(name)
        games = await ratings.history(account.id)
        return {
            "name": account.name,
            "games": [
                {key: value for key, value in played.items() if key in GamePlayed.model_fields}
                | {"replay": f"/replay/{played['table']}?seat={played['seat']}"}
                for played in games
            ],
        }
