"""A group upgraded to a supergroup: Telegram gives it a new chat id and refuses the old one, so the
chat's game, language and leaderboards move to the new id, and the game goes on there."""

from __future__ import annotations

from typing import Any

import pytest
import redis.asyncio as aioredis

from bot import keys
from bot.app import services_of
from bot.chat import callback
from bot.economy.leaderboard import board_key
from bot.tables.store import VersionConflict
from tests.harness import BotHarness
from tests.test_bot_grid import mover, open_group_game

GROUP, SUPERGROUP = -100500, -1001234500


def migration(bot: BotHarness, chat_id: int, user_id: int, **field: int) -> dict[str, Any]:
    """The service message Telegram sends in the old group (`migrate_to_chat_id`) or in the new
    supergroup (`migrate_from_chat_id`)."""
    update = bot.updates.message(
        chat_id, user_id, "-", chat_type="supergroup" if chat_id == SUPERGROUP else None
    )
    message = update["message"]
    del message["text"]
    message.pop("entities", None)
    message.update(field)
    return update


async def test_a_game_moves_with_its_group_to_the_supergroup(any_redis: aioredis.Redis) -> None:
    async with BotHarness(any_redis) as bot:
        table = await open_group_game(bot)
        alice = table.players[0].user_id
        assert alice is not None
        await services_of(bot.app).prefs.set_chat_lang(GROUP, "en")
        await any_redis.zadd(board_key(GROUP, "balance"), {str(alice): 1200})
        await bot.feed(migration(bot, GROUP, alice, migrate_to_chat_id=SUPERGROUP))
        store = services_of(bot.app).tables.store
        assert await store.get(GROUP, 0) is None
        moved = await store.get(SUPERGROUP, 0)
        assert moved is not None and moved.id == table.id and moved.screen == table.screen
        assert moved.state == table.state and moved.deadline is not None
        # A press on a private panel finds the table by its id.
        assert await store.get_by_id(table.id) == moved
        # The table is shown anew in the supergroup, and its buttons work there.
        shown = bot.live(SUPERGROUP)
        assert shown.message_id == moved.message_id and shown.photo is not None
        data = bot.button_data(SUPERGROUP)
        assert data and all(callback.decode(d).version == moved.screen for d in data)
        await bot.press(SUPERGROUP, mover(moved), next(d for d in data if d.startswith("g:")))
        after = await store.get(SUPERGROUP, 0)
        assert after is not None and after.screen > moved.screen
        # The chat's language and boards went with it.
        assert await services_of(bot.app).prefs.get_chat_lang(SUPERGROUP) == "en"
        assert await any_redis.zscore(board_key(SUPERGROUP, "balance"), str(alice)) == 1200
        assert not await any_redis.exists(board_key(GROUP, "balance"), keys.table(GROUP, 0))
        # Telegram's second notice, in the supergroup, finds nothing left to move; that the bot
        # joined the supergroup is not greeted as a new chat would be (its game is there already).
        sent = len(bot.api.calls_of("sendMessage"))
        await bot.feed(migration(bot, SUPERGROUP, alice, migrate_from_chat_id=GROUP))
        await bot.feed(bot.updates.membership(SUPERGROUP, alice, "left", "member"))
        assert await store.get(SUPERGROUP, 0) == after
        assert len(bot.api.calls_of("sendMessage")) == sent
        assert not bot.errors


async def test_a_move_onto_a_chat_with_a_game_changes_nothing(any_redis: aioredis.Redis) -> None:
    async with BotHarness(any_redis) as bot:
        await bot.say(SUPERGROUP, 77, "/new grid", first_name="Zoe", chat_type="supergroup")
        there = await services_of(bot.app).tables.store.get(SUPERGROUP, 0)
        table = await open_group_game(bot)
        store = services_of(bot.app).tables.store
        with pytest.raises(VersionConflict):
            await store.move(table, SUPERGROUP)
        assert await store.get(GROUP, 0) == table and await store.get_by_id(table.id) == table
        assert await store.get(SUPERGROUP, 0) == there


async def test_a_picture_refused_for_the_move_takes_the_game_along(any_redis: aioredis.Redis) -> None:
    """Telegram may refuse the old id before its notice of the move reaches the bot: the game follows
    the new id the refusal names, and the notices find it moved already."""
    async with BotHarness(any_redis) as bot:
        table = await open_group_game(bot)
        alice = table.players[0].user_id
        assert alice is not None
        bot.api.migrated[GROUP] = SUPERGROUP
        await bot.press(GROUP, mover(table), next(d for d in bot.button_data(GROUP) if d.startswith("g:")))
        store = services_of(bot.app).tables.store
        assert await store.get(GROUP, 0) is None
        moved = await store.get(SUPERGROUP, 0)
        assert moved is not None and moved.id == table.id and moved.screen > table.screen
        # The move just made is shown in the supergroup.
        shown = bot.live(SUPERGROUP)
        assert shown.message_id == moved.message_id and shown.photo is not None
        assert await store.shown(moved) == moved.screen
        assert all(callback.decode(d).version == moved.screen for d in bot.button_data(SUPERGROUP))
        await bot.feed(migration(bot, GROUP, alice, migrate_to_chat_id=SUPERGROUP))
        await bot.feed(migration(bot, SUPERGROUP, alice, migrate_from_chat_id=GROUP))
        assert await store.get(SUPERGROUP, 0) == moved
        assert not bot.errors
