"""The API's request and answer models (its OpenAPI schema), and the refusals each route documents."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from shadowtable.server.bot_levels import SEAT_VALUES


class Problem(BaseModel):
    """An error: what was wrong, in words."""

    error: str


class ClockSettings(BaseModel):
    model_config = ConfigDict(extra="forbid")
    initial_s: int = Field(ge=1, le=604800, description="time each seat starts with")
    bonus_s: int = Field(0, ge=0, le=604800, description="time added after each of the seat's moves")
    on_timeout: Literal["bot", "skip"] = Field(
        "bot", description="bot: a bot takes the seat over; skip: a bot makes that one move"
    )


class TurnSettings(BaseModel):
    model_config = ConfigDict(extra="forbid")
    move_s: int = Field(86400, ge=3600, le=14 * 86400, description="time for each decision (an hour to 14 days)")
    reserve_s: int = Field(
        3 * 86400, ge=0, le=30 * 86400, description="each seat's reserve, used once a decision's own time is spent"
    )
    on_timeout: Literal["bot", "skip"] = Field(
        "bot",
        description="when time and reserve are spent: bot: a bot plays the seat until its player is back;"
        " skip: a bot makes that one move (neither game has a pass)",
    )
    vacation_days: int = Field(0, ge=0, le=30, description="days of vacation each seat may take (0: none)")


class AwaySettings(BaseModel):
    model_config = ConfigDict(extra="forbid")
    days: int = Field(ge=0, le=30, description="days of vacation to take (0: end the vacation now)")


class CreateTable(BaseModel):
    model_config = ConfigDict(extra="forbid")
    game: str = Field(max_length=64, description="game id, e.g. shadow-planet or shadowlord")
    players: int = Field(ge=1, le=16)
    options: dict[str, Any] = Field(default_factory=dict, max_length=32)
    seats: list[Annotated[str, Field(max_length=200, json_schema_extra={"enum": SEAT_VALUES})]] | None = Field(
        None,
        max_length=16,
        description="per seat: human or bot:<level> (a level of GET /api/games); default: every seat human",
    )
    clock: ClockSettings | None = None
    mode: Literal["realtime", "turn-based"] = Field(
        "realtime", description="realtime: played in one sitting; turn-based: over days, with turn"
    )
    turn: TurnSettings | None = Field(None, description="a turn-based table's times (default: a day a move)")
    listed: bool = Field(True, description="shown in the lobby")
    pace: Literal["instant", "quick", "relaxed"] | None = Field(
        None, description="how long bots wait before each move (instant, quick, relaxed); default: the server's"
    )
    undo: bool = Field(
        False, description="a seat may take back its last decisions while they revealed nothing (never rated)"
    )
    name: str | None = Field(None, max_length=64, description="your name, if you sit at the table")
    sit: bool = Field(True, description="take the first human seat (the answer holds its token)")


class JoinTable(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str | None = Field(None, max_length=64)
    seat: int | None = Field(None, ge=0, le=15, description="the seat wanted; default: the first free one")
    move: bool = Field(
        False, description="you hold a seat of this table (Bearer token): give it up for this one (before the start)"
    )
    invite: str | None = Field(
        None, min_length=1, max_length=64, description="an invite code from the host: sit at the seat it names"
    )


class InviteSeat(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seat: int = Field(ge=0, le=15, description="a seat a bot plays since its player left it")


class Invite(BaseModel):
    seat: int
    code: str = Field(description="single use; give it only to the player invited")
    url: str = Field(description="the page that seats the invited player (path on this server)")
    expires_at: float


class SeatOut(BaseModel):
    seat: int
    kind: str
    bot: str | None
    name: str
    taken: bool
    bot_playing: bool
    vacated: bool = Field(description="left by its player in play: only they, or someone the host invites, take it")
    reserved_until: float | None = Field(
        None, description="a rematch keeps this seat for its player from the finished game until then (Unix time)"
    )


class TableOut(BaseModel):
    id: str
    game: str
    version: str
    players: int
    options: dict[str, Any]
    status: Literal["open", "playing", "over"]
    listed: bool
    clock: ClockSettings | None
    seats: list[SeatOut]
    created_at: float
    returns: list[float] | None
    rematch: str | None
    host_seat: int | None = Field(description="the creator's seat: its holder may invite to vacated seats")
    pace: str | None = Field(None, description="the bots' pace (null: the server's default delay)")
    undo: bool = Field(False, description="whether seats may take back their last decisions")
    mode: Literal["realtime", "turn-based"] = "realtime"
    turn: TurnSettings | None = None


class Seated(BaseModel):
    table: TableOut
    seat: int | None = Field(description="your seat (null: you did not sit)")
    token: str | None = Field(description="your seat token: send it in hello; keep it secret")


class GameOut(BaseModel):
    id: str
    name: str
    min_players: int
    max_players: int
    options: dict[str, Any]


class BotLevelOut(BaseModel):
    name: str = Field(description="seat it as bot:<name>")
    description: str
    plays: dict[str, list[int]] = Field(description="the games it plays here, each with its player counts")


class Catalogue(BaseModel):
    games: list[GameOut]
    bots: list[str] = Field(description="the bot levels a seat may be given")
    levels: list[BotLevelOut]


class Health(BaseModel):
    ok: bool
    database: bool
    version: str
    tables_in_memory: int


def refusals(*codes: int) -> dict[int | str, dict[str, Any]]:
    """The ``responses`` of a route answering ``codes`` with :class:`Problem`."""
    return {code: {"model": Problem} for code in codes}


ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"model": Problem},
    403: {"model": Problem},
    404: {"model": Problem},
    409: {"model": Problem},
    503: {"model": Problem},
}
UNAVAILABLE: dict[int | str, dict[str, Any]] = {503: {"model": Problem}}
LIMITED: dict[int | str, dict[str, Any]] = {**ERRORS, 429: {"model": Problem, "description": "over a limit"}}


class AnalysisStatus(BaseModel):
    status: Literal["none", "queued", "running", "done", "failed"] = Field(
        description="none: never asked for; queued, running: under way; done: the result is stored; failed: see error"
    )
    progress: float = Field(ge=0.0, le=1.0, description="the share of the work done (decisions and beliefs)")
    error: str | None = Field(description="why it failed, in words")


class AnalysisOut(AnalysisStatus):
    result: dict[str, Any] | None = Field(
        description="once done: {format, analysis (every seat's decisions), deduction} (docs/analysis.md)"
    )
