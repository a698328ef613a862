"""Registers the tiny test game when imported (a plugin module for worker processes)."""

from shadowtable.core import register
from tiny_game import TinyGame

register(TinyGame)
