"""Helpers for the notification tests: a real SMTP server and a webhook receiver on 127.0.0.1."""

from __future__ import annotations

import asyncio
import email
import email.policy
import json
import re
import socket
import threading
from dataclasses import dataclass, field
from email.message import EmailMessage
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import unquote, urlsplit

from aiosmtpd.controller import Controller


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class Mailbox:
    """An SMTP handler: ``mode`` ``accept`` keeps each mail, ``refuse`` answers 550, ``hang`` does
    not answer until the mode changes (then 451: that mail was not taken)."""

    mode: str = "accept"
    mails: list[EmailMessage] = field(default_factory=list)
    refused: int = 0
    hung: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:  # noqa: N802 - aiosmtpd's name
        if self.mode == "refuse":
            self.refused += 1
            return "550 refused by the test"
        if self.mode == "hang":
            self.hung += 1
            while self.mode == "hang":
                await asyncio.sleep(0.02)
            return "451 the test hung up"
        parsed = email.message_from_bytes(envelope.content, policy=email.policy.default)
        assert isinstance(parsed, EmailMessage)
        with self.lock:
            self.mails.append(parsed)
        return "250 OK"

    def to(self, address: str, kind: str = "turn") -> list[EmailMessage]:
        """The mails to ``address``: turn mails (``turn``) or confirmation mails (``confirm``)."""
        with self.lock:
            mails = [m for m in self.mails if m["To"] == address]
        confirming = [m for m in mails if "confirm your e-mail" in str(m["Subject"])]
        return confirming if kind == "confirm" else [m for m in mails if m not in confirming]


class SmtpServer:
    """A real SMTP server (aiosmtpd) on 127.0.0.1 and a free port, in its own thread."""

    def __init__(self) -> None:
        self.box = Mailbox()
        self.port = free_port()
        self.controller = Controller(self.box, hostname="127.0.0.1", port=self.port)

    def __enter__(self) -> SmtpServer:
        self.controller.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.box.mode = "accept"  # a hung session returns
        self.controller.stop()


@dataclass
class Hooks:
    """What a webhook receiver got; ``status`` is what it answers."""

    status: int = 204
    bodies: list[dict[str, Any]] = field(default_factory=list)
    paths: list[str] = field(default_factory=list)
    failed: int = 0


class HookServer:
    """A webhook receiver (``http.server``) on 127.0.0.1 and a free port, in its own thread."""

    def __init__(self) -> None:
        self.hooks = Hooks()
        hooks = self.hooks

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - http.server's name
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                if hooks.status >= 300:
                    hooks.failed += 1
                else:
                    hooks.bodies.append(json.loads(body))
                    hooks.paths.append(self.path)
                self.send_response(hooks.status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> HookServer:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()


def mail_overrides(smtp: SmtpServer | None, **more: Any) -> dict[str, Any]:
    """Server settings for the tests: mail through ``smtp`` (none: no mail), quick retries."""
    values: dict[str, Any] = {
        "base_url": "http://testserver",
        "smtp_from": "ShadowTable <games@test.invalid>",
        "smtp_starttls": False,
        "smtp_timeout_s": 0.5,
        "webhook_timeout_s": 0.5,
        "webhook_local": True,
        "notify_poll_s": 0.05,
        "notify_retry_s": 0.05,
        "notify_retry_max_s": 0.2,
    }
    if smtp is not None:
        values.update(smtp_host="127.0.0.1", smtp_port=smtp.port)
    values.update(more)
    return values


def link_in(text: str, path: str) -> str:
    """The first link to ``path`` in ``text`` (its path and query, for the test client)."""
    found = re.search(r"http://testserver(" + re.escape(path) + r"[^\s>]*)", text)
    assert found is not None, f"no link to {path} in {text!r}"
    return found.group(1)


def token_of(link: str) -> str:
    return unquote(urlsplit(link).query.partition("token=")[2])


def body_of(mail: EmailMessage) -> str:
    part = mail.get_body(("plain",))
    assert part is not None
    return str(part.get_content()).replace("\r\n", "\n")
