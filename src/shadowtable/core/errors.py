"""Typed errors raised by the ShadowTable core and its games."""

from __future__ import annotations


class ShadowTableError(Exception):
    """Base class of every error ShadowTable raises on purpose."""


class UnknownGameError(ShadowTableError, KeyError):
    """The game id is not registered."""

    def __str__(self) -> str:  # KeyError quotes its message; keep it readable
        return str(self.args[0]) if self.args else "unknown game"


class InvalidPlayersError(ShadowTableError, ValueError):
    """The player count is outside the game's supported range."""


class UnknownOptionError(ShadowTableError, ValueError):
    """An option name the game does not declare."""


class InvalidOptionError(ShadowTableError, ValueError):
    """An option value of the wrong type or outside its allowed values."""


class IllegalActionError(ShadowTableError, ValueError):
    """An action that is not legal in the current state."""


class UndoError(IllegalActionError):
    """A seat may not take back the decisions it asked to (see :mod:`shadowtable.core.undo`)."""


class InvalidActionError(ShadowTableError, ValueError):
    """Action text or an action id that does not name any action of the game."""


class InvalidSeatError(ShadowTableError, ValueError):
    """A seat number that is not a seat of this game (nor ``None`` for a spectator)."""


class RecordError(ShadowTableError, ValueError):
    """A malformed game record, or one that does not replay."""


class StateFormatError(ShadowTableError, ValueError):
    """A malformed serialised state or observation."""


class ContentError(ShadowTableError, ValueError):
    """A malformed or inconsistent content (data) file."""


class BotError(ShadowTableError, ValueError):
    """A bot name that is unknown, bad bot parameters, or a bot that chose an illegal action."""


class MissingExtraError(ShadowTableError, RuntimeError):
    """An optional dependency (an extra such as ``[report]``) that a feature needs is not installed."""

    @classmethod
    def of(cls, feature: str, module: str, extra: str) -> MissingExtraError:
        """The error for ``feature`` needing ``module``, with both ways to install the ``extra``."""
        return cls(
            f"{feature} need{'' if feature.endswith('s') else 's'} {module}, which is not installed: "
            f"pip install 'shadowtable[{extra}]' (in a source checkout: pip install -e \".[{extra}]\")"
        )
