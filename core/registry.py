"""Every playable game by id. Generic tests, the bot and the benchmarks iterate over this."""

from __future__ import annotations

from typing import Any

from core.engine import Game
from core.games.bandit import BanditGame
from core.games.durak import DurakGame, TransferDurakGame
from core.games.gold import GoldGame
from core.games.grid import GridGame
from core.games.grid_tarot import GridTarotGame
from core.games.minor_arcana import MinorArcanaGame
from core.games.race import RaceGame
from core.games.tarot import TarotGame

GAMES: dict[str, Game[Any, Any]] = {
    game.id: game
    for game in (
        GridGame(),
        GridTarotGame(),
        GoldGame(),
        BanditGame(),
        DurakGame(),
        TransferDurakGame(),
        RaceGame(),
        TarotGame(),
        MinorArcanaGame(),
    )
}
