"""The computer-player contract (DESIGN.md, "Computer players")."""

from __future__ import annotations

import random
from typing import Protocol, TypeVar

from core.engine import Action

V_contra = TypeVar("V_contra", contravariant=True)


class ComputerPlayer(Protocol[V_contra]):
    """Picks one of `legal` for the seat whose view it is given.

    It sees only that view, never the state, so it cannot peek at hidden cards; all its randomness
    comes from `rng`, so a seeded table replays the same moves.
    """

    def choose(self, view: V_contra, legal: tuple[Action, ...], rng: random.Random) -> Action: ...
