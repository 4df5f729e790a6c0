"""Placeholder: filled by its owner (see .notes/TEAM.md)."""

__all__: list[str] = []
