"""Learn to play: a guided first game of each title against bots on a prepared deal.

:mod:`.deals` holds each title's prepared deal, :mod:`.coach` the coach that explains each of the
newcomer's decisions from its own view, :mod:`.session` the tutorial game itself."""

from __future__ import annotations

from shadowtable.tutorial.coach import ChoiceNote, Coach, Coaching
from shadowtable.tutorial.deals import DEALS, NEWCOMER_SEAT, PreparedDeal, deal_for
from shadowtable.tutorial.session import Tutorial

__all__ = ["DEALS", "NEWCOMER_SEAT", "ChoiceNote", "Coach", "Coaching", "PreparedDeal", "Tutorial", "deal_for"]
