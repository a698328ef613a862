"""The designer's lab: variants of a game's rules, bots and restricted play, measured over seeded games."""
