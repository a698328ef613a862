"""The messages notifications send: a turn mail, a confirmation mail, a webhook's JSON body.

Each is built from :class:`~shadowtable.server.notify_turns.TurnFacts` (public facts) and links
only.  Every turn mail carries a one-click unsubscribe link in its text and in the
``List-Unsubscribe`` and ``List-Unsubscribe-Post`` headers (RFC 8058).
"""

from __future__ import annotations

from email.message import EmailMessage
from email.utils import formatdate, make_msgid
from typing import Any
from urllib.parse import quote

from shadowtable.core.wording import listed
from shadowtable.server.notify_turns import TurnFacts


def table_link(base_url: str, table_id: str) -> str:
    return f"{base_url.rstrip('/')}/t/{quote(table_id)}"


def unsubscribe_link(base_url: str, token: str) -> str:
    return f"{base_url.rstrip('/')}/notifications/unsubscribe?token={quote(token)}"


def confirm_link(base_url: str, token: str) -> str:
    return f"{base_url.rstrip('/')}/account/email/confirm?token={quote(token)}"


def turn_subject(facts: TurnFacts) -> str:
    return f"{facts.game}: {listed(facts.to_decide)} to play at table {facts.table}"


def turn_mail(facts: TurnFacts, *, sender: str, to: str, base_url: str, unsubscribe_token: str) -> EmailMessage:
    """The mail telling ``to`` that it is the turn of the seats in ``facts``."""
    link = table_link(base_url, facts.table)
    unsubscribe = unsubscribe_link(base_url, unsubscribe_token)
    message = _mail(sender, to, turn_subject(facts))
    message["List-Unsubscribe"] = f"<{unsubscribe}>"
    message["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    message.set_content(
        f"It is {listed(facts.to_decide)}'s turn at the {facts.game} table {facts.table}"
        f" (players: {listed(facts.players)}).\n\n"
        f"Play: {link}\n\n"
        f"You get this mail because you asked to be told by e-mail when it is your turn.\n"
        f"No more of these mails: {unsubscribe}\n"
    )
    return message


def confirm_mail(*, sender: str, to: str, base_url: str, token: str) -> EmailMessage:
    """The mail asking ``to`` to confirm it is theirs."""
    message = _mail(sender, to, "ShadowTable: confirm your e-mail address")
    message.set_content(
        "Someone (we hope you) asked ShadowTable to mail this address when it is their turn.\n\n"
        f"Confirm: {confirm_link(base_url, token)}\n\n"
        "If it was not you, ignore this mail: nothing is sent to an address that is not confirmed.\n"
    )
    return message


def webhook_body(facts: TurnFacts, base_url: str) -> dict[str, Any]:
    """The JSON a webhook is posted: ``{table, game, url, to_decide}``."""
    return {
        "table": facts.table,
        "game": facts.game,
        "url": table_link(base_url, facts.table),
        "to_decide": list(facts.to_decide),
    }


def _mail(sender: str, to: str, subject: str) -> EmailMessage:
    message = EmailMessage()
    message["From"] = sender
    message["To"] = to
    message["Subject"] = subject
    message["Date"] = formatdate(localtime=False)
    message["Message-ID"] = make_msgid(domain="shadowtable")
    message["Auto-Submitted"] = "auto-generated"
    return message
