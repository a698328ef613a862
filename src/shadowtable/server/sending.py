"""What each connection is sent: its seat's view (built once per version and audience, then
reused), the ``over`` message and notices.  Nothing here stores or decides anything."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any, TypedDict

from shadowtable.core.game import Game
from shadowtable.server import turn_clock
from shadowtable.server.connections import Connection, tell_all
from shadowtable.server.master import may_undo
from shadowtable.server.presence import presence
from shadowtable.server.table import Table, finished_record, info, public_clock, seat_results
from shadowtable.server.views import encode, joined, seat_view, view_parts

Renderer = Callable[[Game[Any], dict[str, Any], dict[str, Any]], dict[str, str]]
"""Turns a seat's ``view`` message (and the table's public description) into HTML fragments."""


class ClockView(TypedDict):
    """What a seat is shown of its clock: the time it has left, whether it runs, and the table's
    clock (:class:`~shadowtable.server.table.PublicClock`)."""

    ms_left: int
    running: bool
    initial_s: int
    bonus_s: int
    on_timeout: str


def clock_view(table: Table, seat: int | None) -> ClockView | None:
    """What ``seat`` is shown of its clock (``None``: no clock)."""
    rules = table.stored.turn
    if rules is not None and seat is not None:
        left = turn_clock.ms_left(rules, table.seats[seat], table.timers.now())
        if left is None:
            return None
        running = turn_running(table, seat)
        move_s, on_timeout = rules["move_s"], rules["on_timeout"]
        return ClockView(ms_left=left, running=running, initial_s=move_s, bonus_s=0, on_timeout=on_timeout)
    clock = table.stored.clock
    if clock is None or seat is None or table.seats[seat].clock_ms is None:
        return None
    left = table.seats[seat].clock_ms or 0
    clock_for = table.timers.clock_for
    running = clock_for is not None and clock_for[0] == seat and table.status == "playing"
    if running:
        left = max(0, left - int((time.monotonic() - table.timers.turn_started) * 1000))
    return ClockView(ms_left=left, running=running, **public_clock(clock))


def seat_clocks(table: Table) -> list[SeatClock] | None:
    """Every seat's time left, shown to all (``None``: the table has no clock); the running one
    as of now."""
    rules = table.stored.turn
    if rules is not None:
        now = table.timers.now()
        return [
            {"seat": i, "ms_left": turn_clock.ms_left(rules, seat, now), "running": turn_running(table, i)}
            for i, seat in enumerate(table.seats)
        ]
    if table.stored.clock is None:
        return None
    clock_for = table.timers.clock_for
    clocks: list[SeatClock] = []
    for seat, stored in enumerate(table.seats):
        left = stored.clock_ms
        running = clock_for is not None and clock_for[0] == seat and table.status == "playing"
        if running and left is not None:
            left = max(0, left - int((time.monotonic() - table.timers.turn_started) * 1000))
        clocks.append({"seat": seat, "ms_left": left, "running": running})
    return clocks


def turn_running(table: Table, seat: int) -> bool:
    """Whether a turn-based seat's clock runs now (its decision's deadline is set and it is not on vacation)."""
    stored = table.seats[seat]
    return (
        table.status == "playing"
        and stored.deadline is not None
        and not stored.zombie
        and not turn_clock.away(stored, table.timers.now())
    )


def table_pace(table: Table) -> dict[str, object]:
    """Every seat's clock and whether the bots fast-forward now (public)."""
    return {"clocks": seat_clocks(table), "fast_forward": table.timers.fast_forward}


class SeatClock(TypedDict):
    """One seat's clock as every reader is shown it (``ms_left``: ``None`` for a bot)."""

    seat: int
    ms_left: int | None
    running: bool


def out_notice(table: Table, seat: int | None, after: int) -> str | None:
    """Why ``seat`` is out of a game that goes on without it (``None``: it is not), with the
    events told to it after version ``after`` (where the game says why it left)."""
    words, state = table.game.words, table.live.state
    if words.out_of_game(state, seat) is None:
        return None
    return words.out_of_game(state, seat, table.live.channels[seat].since(after))


def end_parts(table: Table, seat: int | None, after: int) -> dict[str, object]:
    """What a view adds about the end: ``results`` once the game is over (every seat's, public
    then) and ``yours`` (the reader's own), ``out`` while ``seat`` watches a game that goes on without it."""
    results = seat_results(table)
    yours = next((r for r in results if r["seat"] == seat), None)
    return {"results": results or None, "yours": yours, "out": out_notice(table, seat, after)}


def view(table: Table, seat: int | None, since: int) -> dict[str, Any]:
    """The view message of ``seat`` with the events after version ``since``."""
    channel = table.live.channels[seat]
    after = since if 0 <= since <= channel.v else 0
    message = seat_view(
        table.game,
        table.live.state,
        seat,
        v=channel.v,
        after=after,
        events=channel.since(since),
        turn=None if seat is None else table.live.decisions(seat),
        clock=clock_view(table, seat),
        presence=presence(table),
    )
    return {**message, **end_parts(table, seat, after), **table_pace(table)}


def _since_decision(table: Table, seat: int | None) -> str:
    """The seat's observation when it last decided and the events it was told since, encoded
    (``null`` for a spectator or before the seat's first decision): what the page summarises."""
    found = None if seat is None else table.live.since_decision(seat)
    return encode(None if found is None else {"obs": found[0], "events": found[1]})


def over_text(table: Table) -> str:
    """The encoded ``over`` message (built once per finished table)."""
    cache = table.play.views
    cache.at(table.steps)
    if cache.over is None:
        record = finished_record(table)
        results = seat_results(table)
        cache.over = encode({"t": "over", "returns": record.returns, "results": results, "record": record.to_json()})
    return cache.over


class Sender:
    """Builds and sends views; ``renderer`` adds a page's HTML fragments for browser sockets."""

    def __init__(self, renderer: Renderer | None = None) -> None:
        self.renderer = renderer

    def view_text(self, table: Table, seat: int | None, since: int, *, html: bool = False) -> str:
        """:func:`view` encoded (``html``: with the page's fragments, for a renderer), built once
        per table version, audience, version followed, clock and presence, then reused."""
        cache = table.play.views
        cache.at(table.steps)
        channel = table.live.channels[seat]
        after = since if 0 <= since <= channel.v else 0
        clock = encode(clock_view(table, seat))
        shown = encode(presence(table))
        pace = {name: encode(value) for name, value in table_pace(table).items()}
        described = info(table) if html and self.renderer is not None else None
        key = (seat, after, clock, shown, encode(pace), "" if described is None else encode(described))
        text = cache.texts.get(key)
        if text is not None:
            return text
        cache.builds += 1
        fields = {
            "t": '"view"',
            "v": str(channel.v),
            "after": str(after),
            **_parts(table, seat),
            "events": channel.since_text(after),
            "clock": clock,
            "presence": shown,
            **{name: encode(value) for name, value in end_parts(table, seat, after).items()},
            **pace,
            "undo": str(may_undo(table, seat)),
        }
        if described is not None:
            fields["since"] = _since_decision(table, seat)
            fields["html"] = self._fragments(table, (seat, after, shown, key[-1]), fields, described)
        text = joined(fields)
        cache.keep(cache.texts, key, text, cache.limit)
        return text

    def _fragments(self, table: Table, key: tuple[Any, ...], fields: dict[str, str], described: dict[str, Any]) -> str:
        """The encoded HTML fragments of a view, built from the message alone, as the browser
        receives it (JSON, keys sorted): the page shows nothing the message does not hold (the
        fragments do not show the clock)."""
        assert self.renderer is not None
        cache = table.play.views
        fragments = cache.fragments.get(key)
        if fragments is None:
            fragments = encode(self.renderer(table.game, json.loads(joined(fields)), described))
            cache.keep(cache.fragments, key, fragments, cache.limit)
        return fragments

    def send_view(
        self, table: Table, connection: Connection, *, force: bool = False, replaceable: bool = False
    ) -> None:
        """Send ``connection`` its view if it changed (``force``: anyway); ``replaceable``: an
        answer to ``sync``, which a later ``sync`` replaces while it is still queued."""
        if not connection.greeted:
            return
        channel = table.live.channels[connection.seat]
        if channel.v == connection.sent_v and not force:
            return
        text = self.view_text(table, connection.seat, connection.sent_v, html=connection.html)
        connection.push_text(text, replaceable=replaceable)
        connection.sent_v = channel.v

    def send_views(self, table: Table) -> None:
        """Send every connection its new view; once the game is over, the ``over`` message too."""
        for connection in list(table.connections):
            self.send_view(table, connection)
        if table.status == "over":
            for connection in list(table.connections):
                if not connection.told_over:
                    connection.told_over = True
                    connection.push_text(over_text(table))


def _parts(table: Table, seat: int | None) -> dict[str, str]:
    """The encoded parts of ``seat``'s view that depend only on the state (built once per version)."""
    cache = table.play.views
    parts = cache.parts.get(seat)
    if parts is None:
        turn = None if seat is None else table.live.decisions(seat)
        built = view_parts(table.game, table.live.state, seat, turn)
        parts = {name: encode(value) for name, value in built.items()}
        cache.parts[seat] = parts
    return parts


def notify(table: Table, text: str, **data: Any) -> None:
    """Show a notice to this process's connections of ``table``."""
    tell_all(table.connections, {"t": "notice", "text": text, **data})


def public_pending(table: Table) -> dict[str, Any] | None:
    """Who decides now and what about, as a spectator is told it (``pending`` of the public view,
    built once per version)."""
    pending = json.loads(_parts(table, None)["pending"])
    return pending if isinstance(pending, dict) else None
