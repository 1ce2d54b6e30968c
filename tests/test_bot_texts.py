"""Texts, menus and lobby settings through the Application: help for every game in the chat's
language, `/lang en`, unknown modes, plural forms, wallet movements in words, option buttons."""

from __future__ import annotations

from datetime import UTC, datetime

import redis.asyncio as aioredis

from bot.adapters import ADAPTERS
from bot.app import services_of
from tests.harness import BotHarness

ALICE, BOB = 91, 92
GROUP = -100910
NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)


async def test_help_covers_every_game_and_the_coins_in_the_chats_language(
    redis_client: aioredis.Redis,
) -> None:
    async with BotHarness(redis_client) as bot:
        bot.api.set_admins(GROUP, [ALICE])
        await bot.say(GROUP, ALICE, "/lang ru")
        await bot.say(GROUP, BOB, "/help", language_code="en")
        text = bot.live(GROUP).content
        assert text.startswith("Команды")
        for game_id in ADAPTERS:
            assert f"/help {game_id}" in text
        assert all(command in text for command in ("/spin", "/wallet", "/top"))
        await bot.say(ALICE, ALICE, "/help durak_transfer")
        assert "transfer" in bot.live(ALICE).content
        await bot.say(ALICE, ALICE, "/lang en")
        assert bot.live(ALICE).content == "Language: English."
        await bot.say(ALICE, ALICE, "/help bandit")
        assert "slot machine" in bot.live(ALICE).content


async def test_an_unknown_mode_is_named_with_the_modes(redis_client: aioredis.Redis) -> None:
    async with BotHarness(redis_client) as bot:
        await bot.say(ALICE, ALICE, "/new grid blah")
        assert bot.live(ALICE).content == "grid has no mode “blah”. Modes: solo, ai."
        assert await bot.table(ALICE) is None


async def test_coins_use_plural_forms_and_movements_are_words(redis_client: aioredis.Redis) -> None:
    async with BotHarness(redis_client) as bot:
        wallet = services_of(bot.app).pulls.wallet
        await wallet.apply(ALICE, "gold-test:stake", -19, "gold:stake", now=NOW)
        await bot.say(ALICE, ALICE, "/wallet", language_code="ru")
        text = bot.live(ALICE).content
        assert "981 монета" in text and "Золото: ставка" in text and "gold:stake" not in text
        await wallet.apply(ALICE, "drain", -788, "refill", now=NOW)
        await bot.say(ALICE, ALICE, "/wallet", language_code="ru")
        assert "193 монеты" in bot.live(ALICE).content
        await bot.say(BOB, BOB, "/wallet", language_code="ru")
        assert "1000 монет" in bot.live(BOB).content


async def test_the_lobby_cycles_every_option_and_switching_variant_keeps_valid_ones(
    redis_client: aioredis.Redis,
) -> None:
    async with BotHarness(redis_client) as bot:
        await bot.say(ALICE, ALICE, "/start")
        await bot.say(GROUP, ALICE, "/new durak")
        labels = bot.button_labels(GROUP)
        assert "⚙️ 5 cards in the first bout: no" in labels and "⚙️ Defender draws last: no" in labels
        await bot.press(GROUP, ALICE, bot.button(GROUP, "⚙️ 5 cards in the first bout: no"))
        await bot.press(GROUP, ALICE, bot.button(GROUP, "🔀 Durak (throw-in)"))
        table = await bot.table(GROUP)
        assert table is not None and table.game == "durak_transfer"
        assert table.options == {"first_bout_five": True}
        assert "⚙️ 5 cards in the first bout: yes" in bot.button_labels(GROUP)
        # Someone not hosting may not change a setting.
        await bot.press(GROUP, BOB, bot.button(GROUP, "⚙️ Defender draws last: no"))
        assert bot.last_alert() == "Only the host or a chat admin can do that."
        assert await bot.table(GROUP) == table
