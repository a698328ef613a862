"""Action ids: 0 pass, 1 bet; chance outcomes are card values."""

PASS = 0
BET = 1
NAMES = ("pass", "bet")
