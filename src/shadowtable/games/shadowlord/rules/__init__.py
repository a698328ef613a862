"""The rules of Shadowlord!, one concept per module; :mod:`.engine` wires them together."""
