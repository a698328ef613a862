"""The terminal front end (the ``[tui]`` extra): play, hot-seat, watch and replay viewing."""
