"""Tournaments: many seeded games between bot specs, with seats rotated fairly, and a report.

Seat rotation: the line-up is the bot specs, cycled to fill the seats when there are fewer specs
than players; ``spec*k`` puts one bot in ``k`` consecutive places of the line-up (counted as one
bot), so ``ismcts,heuristic*3`` seats one ISMCTS bot against three heuristic bots in every game.
Game ``i`` seats the line-up rotated by ``i`` (modulo its length ``n``, the *rotation period*),
taking the first ``players`` entries, so over every ``n`` games each spec sits in each seat
equally often.  Results are counted per *seat-game*: a spec that fills two seats of
one game is counted twice.

A win is a return equal to the game's ``max_utility``.  Ratings are openskill Plackett-Luce
ratings, one per spec, with the seats of each game ranked by return (ties share a rank); when a
spec fills several seats of one game its updated ratings are averaged.  Truncated games (no
returns) are counted but excluded from every statistic.

Games are counted in index order, so the result depends only on the arguments and the seed: it
is the same when the games are played by several worker processes, and when a run resumes from
the records file of an interrupted one (the games already complete there are read back and
counted instead of replayed; a record of another tournament is refused).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, TextIO

from openskill.models import PlackettLuce

from shadowtable.bots.registry import make_bot
from shadowtable.core.errors import BotError, RecordError
from shadowtable.core.game import Game
from shadowtable.core.record import GameRecord
from shadowtable.core.registry import make
from shadowtable.sim.batch import game_seed, play_indexed
from shadowtable.sim.parallel import chunks, completed_records, in_order, record_index
from shadowtable.sim.stats import WinTally
from shadowtable.sim.summaries import record_roles

RESULT_FORMAT = "shadowtable-tournament/1"
Progress = Callable[[int, int], None]
"""Called as ``progress(games_done, games_total)`` after each game."""


@dataclass(frozen=True)
class SkillRating:
    """An openskill rating: mean skill ``mu`` and uncertainty ``sigma``."""

    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """A conservative skill estimate, ``mu - 3 sigma``; sort by this."""
        return self.mu - 3.0 * self.sigma

    def to_json(self) -> dict[str, float]:
        """``mu``, ``sigma`` and the derived ``ordinal``."""
        return {"mu": self.mu, "sigma": self.sigma, "ordinal": self.ordinal}


@dataclass
class TournamentResult:
    """Everything a tournament measured; ``labels`` name the bots (specs, deduplicated)."""

    game: str
    players: int
    options: dict[str, Any]
    seed: int
    labels: list[str]
    games: int = 0
    truncated: int = 0
    bots: dict[str, WinTally] = field(default_factory=dict)
    bot_seats: dict[str, list[WinTally]] = field(default_factory=dict)
    seats: list[WinTally] = field(default_factory=list)
    roles: dict[str, dict[str, WinTally]] = field(default_factory=dict)
    ratings: dict[str, SkillRating] = field(default_factory=dict)
    lineup: list[str] = field(default_factory=list)
    """The line-up before rotation (labels, a bot repeated once per place); empty means ``labels``."""

    @property
    def rotation_period(self) -> int:
        """Games after which every bot has sat in every seat equally often."""
        return max(len(self.lineup or self.labels), self.players)

    def to_json(self) -> dict[str, Any]:
        """The result as JSON data."""
        return {
            "format": RESULT_FORMAT,
            "game": self.game,
            "players": self.players,
            "options": self.options,
            "seed": self.seed,
            "labels": self.labels,
            "lineup": self.lineup or self.labels,
            "games": self.games,
            "truncated": self.truncated,
            "bots": {label: tally.to_json() for label, tally in self.bots.items()},
            "bot_seats": {label: [t.to_json() for t in tallies] for label, tallies in self.bot_seats.items()},
            "seats": [tally.to_json() for tally in self.seats],
            "roles": {role: {k: t.to_json() for k, t in by.items()} for role, by in self.roles.items()},
            "ratings": {label: rating.to_json() for label, rating in self.ratings.items()},
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TournamentResult:
        """Rebuild a result from :meth:`to_json` output."""
        if data.get("format") != RESULT_FORMAT:
            raise ValueError(f"not a tournament result: format {data.get('format')!r}")
        return cls(
            game=str(data["game"]),
            players=int(data["players"]),
            options=dict(data["options"]),
            seed=int(data["seed"]),
            labels=[str(label) for label in data["labels"]],
            lineup=[str(label) for label in data.get("lineup", data["labels"])],
            games=int(data["games"]),
            truncated=int(data["truncated"]),
            bots={k: WinTally.from_json(v) for k, v in data["bots"].items()},
            bot_seats={k: [WinTally.from_json(t) for t in v] for k, v in data["bot_seats"].items()},
            seats=[WinTally.from_json(t) for t in data["seats"]],
            roles={r: {k: WinTally.from_json(t) for k, t in by.items()} for r, by in data["roles"].items()},
            ratings={k: SkillRating(float(v["mu"]), float(v["sigma"])) for k, v in data["ratings"].items()},
        )

    def dumps(self) -> str:
        """The result as JSON text."""
        return json.dumps(self.to_json(), indent=2)


@dataclass(frozen=True)
class TournamentJob:
    """What a worker needs to play any game of a tournament.

    ``specs[i]`` is the spec of ``labels[i]``; ``places`` is the line-up before rotation (labels,
    repeated for a bot given several places), by default ``labels``.
    """

    game: str
    players: int
    options: dict[str, Any]
    seed: int
    labels: tuple[str, ...]
    specs: tuple[str, ...]
    places: tuple[str, ...] = ()

    def lineup(self, index: int) -> list[str]:
        """The labels seated in game ``index``."""
        return seat_lineup(self.places or self.labels, self.players, index)


def run_tournament(
    game_id: str,
    players: int,
    bot_specs: Sequence[str],
    games: int,
    seed: int,
    options: Mapping[str, Any] | None = None,
    progress: Progress | None = None,
    *,
    records_path: str | Path | None = None,
    workers: int = 1,
    resume: bool = False,
    on_start: Progress | None = None,
) -> TournamentResult:
    """Play ``games`` games of ``game_id`` between ``bot_specs``; see the module docstring.

    Game ``i`` is played with seed ``derive_seed(seed, "game", i)``.  ``records_path``, if given,
    receives every game record as one JSON line, in game order, flushed after each game.
    ``workers`` > 1 plays the games in that many local processes (same result).  ``resume``
    counts the games already complete in ``records_path`` (see :func:`resumed_records`) and plays
    and appends only the rest; ``games`` is the total wanted.  ``on_start(done, games)`` is called
    once, when every argument (and the records resumed) has been checked and play starts.
    """
    specs, places = lineup_places(bot_specs)
    labels = unique_labels(specs)
    lineup = [labels[i] for i in places]
    path = _check_arguments(games, workers, resume, records_path)
    for spec in specs:
        make_bot(spec)  # fail fast on a bad spec
    game = make(game_id, players=players, **dict(options or {}))
    result = empty_result(game_id, players, dict(game.options), seed, labels, lineup)
    job = TournamentJob(game_id, players, dict(options or {}), seed, tuple(labels), tuple(specs), tuple(lineup))
    done = resumed_records(path, job, games) if resume and path is not None else []
    count = partial(_count, result, job, game.spec.max_utility, games, progress)
    if on_start is not None:
        on_start(len(done), games)
    for record in done:
        count(record)
    with _open_records(path, append=resume) as sink:
        for record in play_tournament(job, range(len(done), games), workers=workers):
            if sink is not None:
                sink.write(record.dumps() + "\n")
                sink.flush()
            count(record)
    return result


def _check_arguments(games: int, workers: int, resume: bool, records_path: str | Path | None) -> Path | None:
    """The records path; ``ValueError`` for a bad count of games or workers, or resume without records."""
    if games < 0:
        raise ValueError(f"games must be >= 0, got {games}")
    if workers < 1:
        raise ValueError(f"workers must be >= 1, got {workers}")
    if resume and records_path is None:
        raise ValueError("resume needs a records file to resume from")
    return None if records_path is None else Path(records_path)


def _count(
    result: TournamentResult,
    job: TournamentJob,
    max_utility: float,
    games: int,
    progress: Progress | None,
    record: GameRecord,
) -> None:
    """Count the next game (index ``result.games``) and report progress."""
    add_record(result, record, job.lineup(result.games), max_utility)
    if progress is not None:
        progress(result.games, games)


def play_tournament(job: TournamentJob, indices: Sequence[int], *, workers: int = 1) -> Iterator[GameRecord]:
    """The records of games ``indices`` of ``job``, in that order, played by ``workers`` processes.

    Each task is one game, so records come back (and can be saved) as soon as every earlier game
    is done.
    """
    for _, records in in_order(partial(play_games, job), chunks(indices, 1), workers=workers):
        yield from records


def play_games(job: TournamentJob, indices: Sequence[int]) -> list[GameRecord]:
    """Play games ``indices`` of ``job``, with bots built fresh from their specs for each game."""
    game = make(job.game, players=job.players, **job.options)
    spec_of = dict(zip(job.labels, job.specs, strict=True))
    records = []
    for index in indices:
        lineup = job.lineup(index)
        records.append(play_indexed(game, [spec_of[label] for label in lineup], job.seed, index, seat_names=lineup))
    return records


def resumed_records(path: Path, job: TournamentJob, games: int) -> list[GameRecord]:
    """Games ``0, 1, ...`` of ``job`` already complete in ``path``; a torn last line is cut off.

    Every record must be the game of this tournament at its position: same game, version,
    players, options, seed and seats, and its index in metadata.  Otherwise, or when the file
    holds more than ``games`` games, :class:`RecordError` is raised and the file is left unchanged.
    """
    game = make(job.game, players=job.players, **job.options)

    def check(position: int, record: GameRecord) -> None:
        if position >= games:
            raise RecordError(f"{path} holds more than the {games} games asked for; ask for at least as many")
        wrong = _differences(_record_fields(record), _expected_fields(game, job, position))
        if wrong:
            raise RecordError(
                f"{path}: line {position + 1} is not game {position} of this tournament ({wrong}); cannot resume"
            )

    return completed_records(path, check)


def _record_fields(record: GameRecord) -> dict[str, Any]:
    return {
        "game": record.game,
        "version": record.version,
        "players": record.players,
        "options": record.options,
        "seed": record.seed,
        "seats": record.seats,
        "index": record_index(record),
    }


def _expected_fields(game: Game[Any], job: TournamentJob, index: int) -> dict[str, Any]:
    return {
        "game": job.game,
        "version": game.spec.version,
        "players": job.players,
        "options": json.loads(json.dumps(dict(game.options))),
        "seed": game_seed(job.seed, index),
        "seats": job.lineup(index),
        "index": index,
    }


def _differences(found: Mapping[str, Any], expected: Mapping[str, Any]) -> str:
    """``"seed 3, expected 7; ..."`` for every field that differs, or ``""``."""
    return "; ".join(
        f"{key} {found[key]!r}, expected {value!r}" for key, value in expected.items() if found[key] != value
    )


def lineup_places(entries: Sequence[str]) -> tuple[list[str], list[int]]:
    """The bot specs of a line-up and, for each of its places, the index of the spec sitting there.

    An entry ``spec*k`` (``k`` a positive whole number) gives one bot ``k`` consecutive places;
    any other entry is one bot in one place.  A malformed count raises :class:`BotError`.
    """
    specs: list[str] = []
    places: list[int] = []
    for entry in entries:
        spec, star, count = entry.rpartition("*")
        if not star:
            spec, count = entry, "1"
        if not count.strip().isdigit() or int(count) < 1 or not spec.strip():
            raise BotError(f"line-up entry {entry!r}: expected SPEC or SPEC*COUNT with a count of at least 1")
        places += [len(specs)] * int(count)
        specs.append(spec.strip())
    return specs, places


def unique_labels(bot_specs: Sequence[str]) -> list[str]:
    """The specs as labels; a spec listed more than once becomes ``spec#1``, ``spec#2``, ..."""
    if not bot_specs:
        raise BotError("a tournament needs at least one bot spec")
    labels: list[str] = []
    seen: dict[str, int] = {}
    for spec in bot_specs:
        seen[spec] = seen.get(spec, 0) + 1
        labels.append(spec if bot_specs.count(spec) == 1 else f"{spec}#{seen[spec]}")
    return labels


def seat_lineup(labels: Sequence[str], players: int, game_index: int) -> list[str]:
    """Who sits where in game ``game_index``: the cycled line-up rotated by the game index."""
    period = max(len(labels), players)
    shift = game_index % period
    return [labels[(shift + seat) % period % len(labels)] for seat in range(players)]


def empty_result(
    game: str, players: int, options: dict[str, Any], seed: int, labels: list[str], lineup: Sequence[str] = ()
) -> TournamentResult:
    """A result with zeroed tallies and initial ratings for every label and seat; ``lineup`` defaults to ``labels``."""
    model = PlackettLuce()
    initial = model.rating()
    return TournamentResult(
        game=game,
        players=players,
        options=options,
        seed=seed,
        labels=list(labels),
        lineup=list(lineup or labels),
        bots={label: WinTally() for label in labels},
        bot_seats={label: [WinTally() for _ in range(players)] for label in labels},
        seats=[WinTally() for _ in range(players)],
        ratings={label: SkillRating(float(initial.mu), float(initial.sigma)) for label in labels},
    )


def add_record(result: TournamentResult, record: GameRecord, lineup: Sequence[str], max_utility: float) -> None:
    """Count one finished game into ``result`` (tallies, roles and ratings)."""
    result.games += 1
    if record.returns is None:
        result.truncated += 1
        return
    roles = _roles(record)
    for seat, (label, value) in enumerate(zip(lineup, record.returns, strict=True)):
        won = math.isclose(value, max_utility)
        result.bots[label].add(won, value)
        result.bot_seats[label][seat].add(won, value)
        result.seats[seat].add(won, value)
        if roles is not None:
            result.roles.setdefault(roles[seat], {}).setdefault(label, WinTally()).add(won, value)
    result.ratings.update(updated_ratings(result.ratings, lineup, record.returns))


def _roles(record: GameRecord) -> list[str] | None:
    return record_roles(record)


def rank_by_return(returns: Sequence[float]) -> list[int]:
    """Rank 1 for the highest return; equal returns share a rank."""
    return [1 + sum(1 for other in returns if other > value) for value in returns]


def updated_ratings(
    ratings: Mapping[str, SkillRating], lineup: Sequence[str], returns: Sequence[float]
) -> dict[str, SkillRating]:
    """New ratings for the labels in ``lineup`` after one game (Plackett-Luce, ranked by return)."""
    model = PlackettLuce()
    teams = [[model.rating(mu=ratings[label].mu, sigma=ratings[label].sigma)] for label in lineup]
    rated = model.rate(teams, ranks=[float(rank) for rank in rank_by_return(returns)])
    updates: dict[str, list[SkillRating]] = {}
    for label, team in zip(lineup, rated, strict=True):
        updates.setdefault(label, []).append(SkillRating(float(team[0].mu), float(team[0].sigma)))
    return {label: _average(ratings_for) for label, ratings_for in updates.items()}


def _average(ratings: Sequence[SkillRating]) -> SkillRating:
    if len(ratings) == 1:
        return ratings[0]
    return SkillRating(
        math.fsum(r.mu for r in ratings) / len(ratings), math.fsum(r.sigma for r in ratings) / len(ratings)
    )


@contextmanager
def _open_records(path: Path | None, *, append: bool) -> Iterator[TextIO | None]:
    """The JSON-lines file to write records to (emptied first unless ``append``), or ``None``."""
    if path is None:
        yield None
        return
    with path.open("a" if append else "w", encoding="utf-8") as handle:
        yield handle


# -- plain-text report -------------------------------------------------------------------------


def format_table(result: TournamentResult) -> str:
    """A plain-text report: per bot (sorted by rating), per seat, and per role when known."""
    lines = [_title(result), "", _text_table(_bot_header(), _bot_rows(result))]
    lines += ["", _text_table(_tally_header("seat"), _seat_rows(result))]
    if result.roles:
        lines += ["", _text_table(_tally_header("role / bot"), _role_rows(result))]
    return "\n".join(lines)


def _title(result: TournamentResult) -> str:
    title = f"{result.game}: {result.players} players, {result.games} games, seed {result.seed}"
    if result.truncated:
        title += f", {result.truncated} truncated (excluded)"
    if result.games % result.rotation_period:
        title += f"; seat rotation incomplete (period {result.rotation_period})"
    return title


def _tally_header(first: str) -> list[str]:
    return [first, "games", "wins", "win rate", "95% CI", "mean return"]


def _bot_header() -> list[str]:
    return [*_tally_header("bot"), "rating mu", "sigma", "ordinal"]


def _tally_cells(name: str, tally: WinTally) -> list[str]:
    low, high = tally.win_interval
    return [
        name,
        str(tally.games),
        str(tally.wins),
        f"{tally.win_rate:.1%}",
        f"{low:.1%} - {high:.1%}",
        f"{tally.mean_return:.3f}",
    ]


def _bot_rows(result: TournamentResult) -> list[list[str]]:
    order = sorted(result.labels, key=lambda label: -result.ratings[label].ordinal)
    rows = []
    for label in order:
        rating = result.ratings[label]
        rows.append(
            [
                *_tally_cells(label, result.bots[label]),
                f"{rating.mu:.2f}",
                f"{rating.sigma:.2f}",
                f"{rating.ordinal:.2f}",
            ]
        )
    return rows


def _seat_rows(result: TournamentResult) -> list[list[str]]:
    return [_tally_cells(str(seat), tally) for seat, tally in enumerate(result.seats)]


def _role_rows(result: TournamentResult) -> list[list[str]]:
    return [
        _tally_cells(f"{role} / {label}", tally)
        for role in sorted(result.roles)
        for label, tally in sorted(result.roles[role].items())
    ]


def _text_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]

    def line(cells: Sequence[str]) -> str:
        first = cells[0].ljust(widths[0])
        rest = (cell.rjust(width) for cell, width in zip(cells[1:], widths[1:], strict=True))
        return "  ".join([first, *rest]).rstrip()

    return "\n".join([line(header), line(["-" * w for w in widths]), *(line(row) for row in rows)])
