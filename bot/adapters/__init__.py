"""Game adapters by game id: everything game-specific the bot needs."""

from __future__ import annotations

from bot.adapters.base import Choice, GameAdapter, PrivateMode
from bot.adapters.durak import ADAPTERS_DURAK
from bot.adapters.gold import GoldAdapter
from bot.adapters.grid import GridAdapter
from bot.adapters.grid_tarot import GridTarotAdapter
from bot.adapters.race import RaceAdapter

ADAPTERS: dict[str, GameAdapter] = {
    adapter.game_id: adapter
    for adapter in (GridAdapter(), GridTarotAdapter(), RaceAdapter(), *ADAPTERS_DURAK, GoldAdapter())
}

__all__ = ["ADAPTERS", "Choice", "GameAdapter", "PrivateMode"]
