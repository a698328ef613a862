"""HTTP floods against a real server: 100 tables from one client, a 300 MB body, log-in guessing.
Each asserts the limit holds and that a canary table on the same server keeps its ack p99 under
the issue's bound throughout."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import httpx

from hostile.harness import ATTACKER_IP, Canary, Server

ATTACKER = {"X-Forwarded-For": ATTACKER_IP}
BODY_MB = 300


async def played_on(canary: Canary, acks: int = 20, limit_s: float = 30) -> None:
    """Let the canary play until it has ``acks`` acknowledgements (a guard of ``limit_s``)."""
    deadline = asyncio.get_running_loop().time() + limit_s
    while canary.acks < acks and asyncio.get_running_loop().time() < deadline:
        await asyncio.sleep(0.1)


def test_a_hundred_tables_from_one_client(live_server: Callable[..., Server]) -> None:
    server = live_server()

    async def main() -> tuple[Canary, list[httpx.Response], list[dict[str, object]]]:
        browser_like = {**ATTACKER, "Origin": server.url}  # it keeps cookies: it sends its page's Origin
        async with Canary(server) as canary, httpx.AsyncClient(base_url=server.url, headers=browser_like) as http:
            answers = []
            for i in range(100):
                answers.append(
                    await http.post("/api/tables", json={"game": "shadow-planet", "players": 4, "name": f"Spam {i}"})
                )
            lobby = (await http.get("/api/tables", params={"status": "open", "limit": 200})).json()
            await played_on(canary)
        return canary, answers, lobby

    canary, answers, lobby = asyncio.run(main())
    created = [a for a in answers if a.status_code == 201]
    assert {a.status_code for a in answers} <= {201, 429}, answers[0].text
    refused = [a for a in answers if a.status_code == 429]
    assert len(created) == 5, "at most --max-open-tables tables waiting for players from one client"
    assert len(refused) == 95 and all(int(a.headers["retry-after"]) >= 1 for a in refused)
    assert all("try again in" in a.json()["error"] for a in refused)
    assert len(lobby) <= 5, "the lobby is not flooded"
    assert canary.acks >= 20 and canary.p99_ms() < canary.bound_ms(), canary.summary()


async def _answer_and_close(answer: asyncio.Future[bytes], writer: asyncio.StreamWriter) -> bytes:
    """The start of the server's answer (empty if it closed without one), then the connection closed."""
    try:
        head = await asyncio.wait_for(answer, 5)
    except (ConnectionError, TimeoutError):
        head = b""
    writer.close()
    return head


async def _stream_body(server: Server, chunked: bool) -> tuple[int, bytes]:
    """Send a 300 MB JSON body (declared, or chunked) until the server stops reading; returns the
    bytes it took and the start of its answer."""
    reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
    framing = b"Transfer-Encoding: chunked" if chunked else f"Content-Length: {BODY_MB << 20}".encode()
    writer.write(
        b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        + b"X-Forwarded-For: "
        + ATTACKER_IP.encode()
        + b"\r\n"
        + framing
        + b"\r\n\r\n"
    )
    answer = asyncio.ensure_future(reader.read(200))  # read as it comes: the server may cut the line
    piece = b"[" * 65536
    chunk = b"10000\r\n" + piece + b"\r\n" if chunked else piece
    sent = 0
    try:
        for _ in range(BODY_MB * 16):
            writer.write(chunk)
            await asyncio.wait_for(writer.drain(), 5)
            sent += len(piece)
    except (ConnectionError, TimeoutError):
        pass
    return sent, await _answer_and_close(answer, writer)


def test_a_300_mb_body_is_refused_without_being_read(live_server: Callable[..., Server]) -> None:
    server = live_server()
    before = server.rss_mb()

    async def main() -> tuple[Canary, list[tuple[int, bytes]]]:
        async with Canary(server) as canary:
            results = [await _stream_body(server, chunked=False), await _stream_body(server, chunked=True)]
            await played_on(canary)
        return canary, results

    canary, results = asyncio.run(main())
    for sent, answer in results:
        assert sent < 32 << 20, f"the server took {sent >> 20} MB of a body it refuses"
        assert answer == b"" or answer.startswith(b"HTTP/1.1 413"), answer
    assert any(answer.startswith(b"HTTP/1.1 413") for _, answer in results)
    assert server.rss_mb() < before + 50, f"memory went from {before:.0f} to {server.rss_mb():.0f} MB"
    assert canary.acks >= 20 and canary.p99_ms() < canary.bound_ms(), canary.summary()


def test_log_in_guessing_is_refused_past_the_limit(live_server: Callable[..., Server]) -> None:
    server = live_server()
    owner = {"X-Forwarded-For": "10.7.7.7"}
    password = "correct horse battery staple"
    made = httpx.post(f"{server.url}/api/accounts", json={"name": "Victim", "password": password}, headers=owner)
    assert made.status_code == 201, made.text

    async def main() -> tuple[Canary, list[httpx.Response]]:
        browser_like = {**ATTACKER, "Origin": server.url}  # it keeps cookies: it sends its page's Origin
        async with Canary(server) as canary, httpx.AsyncClient(base_url=server.url, headers=browser_like) as http:
            answers = []
            for i in range(200):
                guess = {"name": "victim", "password": f"guess number {i}"}
                answers.append(await http.post("/api/session", json=guess))
            await played_on(canary)
        return canary, answers

    canary, answers = asyncio.run(main())
    wrong = [a for a in answers if a.status_code == 403]
    refused = [a for a in answers if a.status_code == 429]
    assert len(wrong) == 5, "5 wrong passwords per account, then refused"
    assert len(refused) == 195 and all(int(a.headers["retry-after"]) >= 1 for a in refused)
    elsewhere = {"X-Forwarded-For": "10.8.8.8"}
    locked = httpx.post(f"{server.url}/api/session", json={"name": "Victim", "password": password}, headers=elsewhere)
    assert locked.status_code == 429, "the account's log-in waits out the window, whoever asks"
    assert canary.acks >= 20 and canary.p99_ms() < canary.bound_ms(), canary.summary()


async def _send_head(server: Server, megabytes: int) -> tuple[int, bytes]:
    """Send a request whose one header is ``megabytes`` MB, until the server stops reading."""
    reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
    answer = asyncio.ensure_future(reader.read(200))
    writer.write(b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: ")
    sent = 0
    try:
        for _ in range(megabytes * 16):
            writer.write(b"x" * 65536)
            await asyncio.wait_for(writer.drain(), 5)
            sent += 65536
        writer.write(b"\r\n\r\n")
        await asyncio.wait_for(writer.drain(), 5)
    except (ConnectionError, TimeoutError):
        pass
    return sent, await _answer_and_close(answer, writer)


def test_a_huge_header_is_cut_off_as_it_arrives(live_server: Callable[..., Server]) -> None:
    server = live_server()
    before = server.rss_mb()

    async def main() -> tuple[Canary, int, bytes]:
        async with Canary(server) as canary:
            sent, head = await _send_head(server, 100)
            await played_on(canary)
        return canary, sent, head

    canary, sent, head = asyncio.run(main())
    assert sent < 32 << 20, f"the server took {sent >> 20} MB of one request's headers"
    assert head == b"" or head.startswith((b"HTTP/1.1 400", b"HTTP/1.1 431")), head
    assert server.rss_mb() < before + 50, f"memory went from {before:.0f} to {server.rss_mb():.0f} MB"
    assert canary.acks >= 20 and canary.p99_ms() < canary.bound_ms(), canary.summary()
