"""Bots written once against the game protocol."""

from shadowtable.bots.base import Bot
from shadowtable.bots.random_bot import RandomBot
from shadowtable.bots.registry import available_bots, make_bot, parse_bot_spec, register_bot

__all__ = ["Bot", "RandomBot", "available_bots", "make_bot", "parse_bot_spec", "register_bot"]
