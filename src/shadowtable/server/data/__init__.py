"""Data files the server ships: ``common-passwords.txt.gz`` (see ``README.md`` here)."""
