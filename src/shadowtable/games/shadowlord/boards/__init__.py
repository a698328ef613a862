"""shadowlord boards for each front end, built only from a seat's view and the printed reference."""
