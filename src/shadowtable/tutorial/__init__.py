"""Learn to play: a guided first game of each title against bots on a prepared deal.

:mod:`.lesson` finds each title's lesson (its prepared deal and notes, kept in the game's package
and named by its manifest), :mod:`.coach` the coach that explains each of the newcomer's
decisions from its own view, :mod:`.session` the tutorial game itself."""

from __future__ import annotations

from shadowtable.tutorial.coach import ChoiceNote, Coach, Coaching
from shadowtable.tutorial.lesson import NEWCOMER_SEAT, Lesson, Note, PreparedDeal, deal_for, deals, lessons
from shadowtable.tutorial.session import Tutorial

__all__ = [
    "NEWCOMER_SEAT",
    "ChoiceNote",
    "Coach",
    "Coaching",
    "Lesson",
    "Note",
    "PreparedDeal",
    "Tutorial",
    "deal_for",
    "deals",
    "lessons",
]
