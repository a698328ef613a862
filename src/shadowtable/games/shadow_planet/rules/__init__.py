"""The rules of The Shadow Planet, one concept per module."""
