"""What a new password must be: 8 to 256 characters, not a common one, not the account's name.

No composition rules (any characters, spaces included; nothing is trimmed or changed).  A
password is refused when, lowercased and stripped, it is one of the 20,000 common passwords of
``data/common-passwords.txt.gz`` (Royce Williams' list as Django ships it: see ``data/README.md``)
or the server's own name, or when it contains the account's name.
"""

from __future__ import annotations

import functools
import gzip
from importlib import resources

from shadowtable.core.registry import available_games, game_class
from shadowtable.server.errors import ServiceError

PASSWORD_MIN, PASSWORD_MAX = 8, 256
SITE_WORDS = frozenset({"shadowtable", "shadow table"})


@functools.cache
def context_words() -> frozenset[str]:
    """Passwords anyone would try first against this server: its name and its games' ids and
    names (lowercased, with and without spaces and dashes)."""
    words = set(SITE_WORDS)
    for game_id in available_games():
        for word in (game_id, game_class(game_id).SPEC.name):
            folded = word.lower().strip(" !")
            words |= {folded, folded.replace("-", ""), folded.replace(" ", ""), folded.replace("-", " ")}
    return frozenset(words)


@functools.cache
def common_passwords() -> frozenset[str]:
    """The shipped list of common passwords (lowercased), read once."""
    data = resources.files("shadowtable.server.data").joinpath("common-passwords.txt.gz").read_bytes()
    return frozenset(line.strip() for line in gzip.decompress(data).decode("utf-8").splitlines() if line.strip())


def password_problem(password: str, name: str) -> str | None:
    """Why ``password`` may not be the password of the account ``name``; ``None`` when it may."""
    if not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        return f"password: {PASSWORD_MIN} to {PASSWORD_MAX} characters"
    folded = password.lower().strip()
    if folded in common_passwords() or folded in context_words():
        return "password: too common (it is among the first passwords anyone would try); choose another"
    key = " ".join(name.split()).casefold()
    if key and (key in password.casefold() or key.replace(" ", "") in password.casefold()):
        return "password: it must not contain the account's name"
    return None


def checked_password(password: object, name: str) -> str:
    """``password`` if it may be the password of ``name``; :class:`ServiceError` otherwise."""
    if not isinstance(password, str):
        raise ServiceError(f"password: {PASSWORD_MIN} to {PASSWORD_MAX} characters")
    problem = password_problem(password, name)
    if problem is not None:
        raise ServiceError(problem)
    return password
