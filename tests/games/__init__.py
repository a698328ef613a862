"""Per-game tests."""
