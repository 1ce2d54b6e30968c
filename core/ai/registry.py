"""Computer players by game id and level."""

from __future__ import annotations

from typing import Any

from core.ai import minor_arcana, tarot
from core.ai.base import ComputerPlayer
from core.ai.durak import EasyDurakPlayer, HardDurakPlayer, NormalDurakPlayer
from core.ai.grid import GridPlayer
from core.ai.grid_tarot import GridTarotPlayer
from core.ai.race import RacePlayer
from core.ai.random_player import RandomPlayer

#: Levels from weakest to strongest; a missing level falls back to the strongest one available.
LEVELS: tuple[str, ...] = ("easy", "normal", "hard")

PLAYERS: dict[str, dict[str, ComputerPlayer[Any]]] = {
    "grid": {
        "easy": RandomPlayer(),
        # Depth 1 only: looks one card ahead and misses the traps a deeper search sees.
        "normal": GridPlayer(max_depth=1),
        "hard": GridPlayer(),
    },
    # Every route is as good as any other (A8.4). Random toggles end: with seven marked, "go" is one
    # of eight choices, and an unmarked cell is re-marked with probability 43/49.
    "gold": {"easy": RandomPlayer()},
    # No player decisions: the reels are chance. The entry keeps "every game has a player" true.
    "bandit": {"easy": RandomPlayer()},
    # One set of players serves both Durak variants: the view says whether transfers exist.
    "durak": {"easy": EasyDurakPlayer(), "normal": NormalDurakPlayer(), "hard": HardDurakPlayer()},
    "durak_transfer": {"easy": EasyDurakPlayer(), "normal": NormalDurakPlayer(), "hard": HardDurakPlayer()},
    # Expectimax over the turn's dice and the cards they turn up: one die ahead, or every die left.
    "race": {"easy": RandomPlayer(), "normal": RacePlayer(dice=1), "hard": RacePlayer(dice=2)},
    # Expectation over the card that turns up: normal scores a short list of moves one deep, hard
    # more, and searches both sides' moves in the end game.
    "grid_tarot": {
        "easy": RandomPlayer(),
        "normal": GridTarotPlayer(candidates=4, endgame=0),
        "hard": GridTarotPlayer(),
    },
    # Determinized search over deals consistent with the view (hard), a trick heuristic (normal).
    "tarot": {"easy": tarot.easy(), "normal": tarot.normal(), "hard": tarot.hard()},
    "minor_arcana": {
        "easy": minor_arcana.easy(),
        "normal": minor_arcana.normal(),
        "hard": minor_arcana.hard(),
    },
}


def computer_player(game_id: str, level: str = "normal") -> ComputerPlayer[Any]:
    """The player for `game_id` at `level`, or the game's strongest level if that one is missing."""
    levels = PLAYERS[game_id]
    if level in levels:
        return levels[level]
    return next(levels[name] for name in reversed(LEVELS) if name in levels)
