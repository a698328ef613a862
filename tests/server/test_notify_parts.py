"""The notifications' pure parts: who is told (checked against the true game by resampling), the
settings' checks, the retry waits and the per-account pace."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from shadowtable.bots.registry import make_bot
from shadowtable.core.game import Game
from shadowtable.core.registry import make
from shadowtable.server.errors import Conflict, ServiceError
from shadowtable.server.live import LiveTable, plan
from shadowtable.server.notify_links import NotifyLinks
from shadowtable.server.notify_sender import AccountPace, backoff_s
from shadowtable.server.notify_settings import checked_email, checked_webhook
from shadowtable.server.notify_turns import deciders

Deciders = Callable[[Game[Any], Any, Any, int], list[Any]]
GAMES = [("shadow-planet", 3), ("shadow-planet", 5), ("shadowlord", 2), ("shadowlord", 4)]


def twins_differ(game: Game[Any], seed: int, told: Deciders) -> tuple[int, int, list[str]]:
    """Play a seeded random game; after every step, for every reader (each seat and a spectator),
    what ``told`` says from the true states must equal what it says from states the reader cannot
    tell from them (``determinize`` of its observations).  Returns the checks made, how many twins
    were really other states, and the mismatches."""
    rng = random.Random(seed)
    bot = make_bot("random")
    live = LiveTable.new(game)
    steps = plan(game, live.state, None, None, rng)
    checks, others, mismatches = 0, 0, []
    while True:
        for step in steps:
            before = live.state
            live.commit([step])
            truth = told(game, before, step.after, step.seat)
            for reader in [None, *range(game.players)]:
                twin_rng = random.Random(f"{seed}/{checks}/{reader}")
                twin_before = game.determinize(game.observe(before, reader), twin_rng)
                twin_after = game.determinize(game.observe(step.after, reader), twin_rng)
                checks += 1
                others += game.state_to_json(twin_after) != game.state_to_json(step.after)
                if told(game, twin_before, twin_after, step.seat) != truth:
                    mismatches.append(f"step {checks} reader {reader}")
        if game.is_terminal(live.state):
            return checks, others, mismatches
        seat = game.current_player(live.state)
        action = bot.choose(game, seat, game.observe(live.state, seat), game.legal_actions(live.state), rng)
        steps = plan(game, live.state, seat, action, rng)


@pytest.mark.parametrize(("title", "players"), GAMES)
def test_who_is_told_depends_only_on_what_every_reader_knows(title: str, players: int) -> None:
    checks, others, mismatches = twins_differ(make(title, players=players), 0, deciders)
    assert mismatches == []
    assert others > 0  # the twins were other states: the check compared something


def _leaky(game: Game[Any], before: Any, after: Any, mover: int) -> list[Any]:
    """A notification that would also say the true state (what the check must catch)."""
    return [*deciders(game, before, after, mover), game.state_to_json(after)]


@pytest.mark.parametrize(("title", "players"), [("shadow-planet", 3), ("shadowlord", 2)])
def test_the_resampling_check_catches_a_leaky_notification(title: str, players: int) -> None:
    _checks, _others, mismatches = twins_differ(make(title, players=players), 0, _leaky)
    assert mismatches


def test_deciders_are_the_new_seat_to_decide_only() -> None:
    game = make("shadowlord", players=2)
    rng = random.Random(1)
    live = LiveTable.new(game)
    steps = plan(game, live.state, None, None, rng)
    first = game.current_player(steps[-1].after)
    assert deciders(game, None, steps[-1].after, -1) == [first]  # the start tells the first seat
    assert deciders(game, steps[-1].after, steps[-1].after, -1) == []  # no change: nobody
    assert deciders(game, None, steps[-1].after, first) == []  # never the seat that just moved


@pytest.mark.parametrize(
    "url",
    ["https://chat.example.org/hooks/abc?x=1", "http://127.0.0.1:8123/hook", "http://localhost/hook"],
)
def test_webhooks_accepted(url: str) -> None:
    assert checked_webhook(f"  {url} ", local=True) == url
    if "example.org" not in url:
        with pytest.raises(ServiceError):
            checked_webhook(url)  # this machine's own services only where the operator allows it


def test_a_webhook_host_resolving_to_a_private_address_is_refused_at_delivery() -> None:
    import asyncio

    from shadowtable.server.notify_settings import public_host

    with pytest.raises(ValueError, match="private address"):
        asyncio.run(public_host("https://localhost/hook"))  # a name, resolved: 127.0.0.1
    asyncio.run(public_host("http://127.0.0.1:8123/hook", local=True))


@pytest.mark.parametrize(
    "url",
    [
        "http://example.org/hook",
        "ftp://127.0.0.1/x",
        "https://10.1.2.3/x",
        "https://192.168.0.1/x",
        "https://[::1]/x",
        "https://169.254.169.254/latest",
        "https://user:pw@example.org/x",
        "https://example.org/" + "a" * 500,
        "https://exa mple.org/",
        "https://example.org:99999/",
        "",
        None,
        42,
    ],
)
def test_webhooks_refused(url: object) -> None:
    with pytest.raises(ServiceError):
        checked_webhook(url)


def test_addresses() -> None:
    assert checked_email(" ann@example.org ") == "ann@example.org"
    for bad in ("ann", "ann@", "@example.org", "ann@example", "a b@example.org", "é@example.org", "a" * 250 + "@x.org"):
        with pytest.raises(ServiceError):
            checked_email(bad)


def test_links_are_bound_to_their_address_and_purpose() -> None:
    links = NotifyLinks("s" * 40)
    token = links.confirm_token("acct", "ann@example.org")
    assert links.read_confirm(token).email == "ann@example.org"
    with pytest.raises(Conflict):
        links.read_unsubscribe(token)  # another salt: a confirmation link does not unsubscribe
    with pytest.raises(Conflict):
        NotifyLinks("t" * 40).read_confirm(token)  # another secret
    with pytest.raises(Conflict):
        links.read_confirm(token[:-2] + "xx")


def test_retry_waits_double_up_to_a_bound() -> None:
    waits = [backoff_s(n, 30.0, 3600.0) for n in range(1, 12)]
    assert waits[:4] == [30.0, 60.0, 120.0, 240.0]
    assert waits[-1] == 3600.0 and waits == sorted(waits)


def test_an_account_is_paced_per_hour() -> None:
    pace = AccountPace(hourly=2)
    assert pace.free_at("a", 100.0) == 100.0
    pace.note("a", 100.0)
    pace.note("a", 110.0)
    assert pace.free_at("a", 120.0) == 100.0 + 3600.0  # a third waits for the first to age out
    assert pace.free_at("b", 120.0) == 120.0  # other accounts are not held
    assert pace.free_at("a", 3701.0) == 3701.0
