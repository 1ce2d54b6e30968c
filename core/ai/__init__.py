"""Computer players: `choose(view, legal, rng) -> action`, one or more levels per game."""

from core.ai.base import ComputerPlayer

__all__ = ["ComputerPlayer"]
