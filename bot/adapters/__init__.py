"""Game adapters by game id: everything game-specific the bot needs."""

from __future__ import annotations

from bot.adapters.base import Choice, GameAdapter, PrivateMode
from bot.adapters.durak import ADAPTERS_DURAK
from bot.adapters.gold import GoldAdapter
from bot.adapters.grid import GridAdapter
from bot.adapters.grid_tarot import GridTarotAdapter
from bot.adapters.minor_arcana import MinorArcanaAdapter
from bot.adapters.race import RaceAdapter
from bot.adapters.tarot import TarotAdapter

#: In the order of the /games menu and /help: the grids, the race, the card tables, then Gold.
ADAPTERS: dict[str, GameAdapter] = {
    adapter.game_id: adapter
    for adapter in (
        GridAdapter(),
        GridTarotAdapter(),
        RaceAdapter(),
        *ADAPTERS_DURAK,
        TarotAdapter(),
        MinorArcanaAdapter(),
        GoldAdapter(),
    )
}

__all__ = ["ADAPTERS", "Choice", "GameAdapter", "PrivateMode"]
