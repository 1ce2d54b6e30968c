"""The bot's menu and descriptions in Telegram: set in both languages (Russian also for the languages
the bot answers in Russian), changed only where they differ, and never a reason for the bot not to
start."""

from __future__ import annotations

import redis.asyncio as aioredis

from bot.adapters import ADAPTERS
from bot.chat.lengths import utf16_len
from bot.chat.profile import MAX_DESCRIPTION, MAX_SHORT_DESCRIPTION, register_profile
from i18n import RUSSIAN_READERS, t
from tests.harness import BotHarness

PRIVATE, GROUPS, DEFAULT = (
    '{"type": "all_private_chats"}',
    '{"type": "all_group_chats"}',
    '{"type": "default"}',
)
SETTERS = ("setMyCommands", "setMyDescription", "setMyShortDescription")


async def test_the_menu_and_descriptions_are_set_in_both_languages(redis_client: aioredis.Redis) -> None:
    async with BotHarness(redis_client) as bot:
        await register_profile(bot.app.bot)
        # English is also the default, for every language the bot does not speak; those it answers
        # in Russian get the Russian menu.
        russian = ("ru", *RUSSIAN_READERS)
        assert set(bot.api.commands) == {
            *((scope, code) for scope in (PRIVATE, GROUPS, DEFAULT) for code in russian),
            (PRIVATE, "en"),
            (GROUPS, "en"),
            (DEFAULT, ""),
        }
        for commands in bot.api.commands.values():
            assert {"start", "help", "games", "new", "join", "leave", "stop", "lang"} <= {
                c["command"] for c in commands
            }
        for code in russian:
            assert {"command": "help", "description": "Как играть"} in bot.api.commands[DEFAULT, code]
            assert bot.api.descriptions["description", code] == bot.api.descriptions["description", "ru"]
        for lang, code in (("ru", "ru"), ("en", "")):
            long = bot.api.descriptions["description", code]
            short = bot.api.descriptions["short_description", code]
            assert all(adapter.title(lang) in long for adapter in ADAPTERS.values())
            assert t(lang, "One-legged bandit") in long
            assert 0 < utf16_len(long) <= MAX_DESCRIPTION and 0 < utf16_len(short) <= MAX_SHORT_DESCRIPTION
        assert "Подкидной дурак" in bot.api.descriptions["description", "ru"]
        assert bot.api.descriptions["short_description", ""].startswith("Durak, Tarot")


async def test_a_restart_changes_nothing_that_is_set(redis_client: aioredis.Redis) -> None:
    async with BotHarness(redis_client) as bot:
        await register_profile(bot.app.bot)
        set_before = sum(len(bot.api.calls_of(method)) for method in SETTERS)
        await register_profile(bot.app.bot)
        assert sum(len(bot.api.calls_of(method)) for method in SETTERS) == set_before > 0
        # One description changed elsewhere (by hand in BotFather): that one alone is set again.
        bot.api.descriptions["short_description", "ru"] = "old"
        await register_profile(bot.app.bot)
        languages = 2 + len(RUSSIAN_READERS)
        assert len(bot.api.calls_of("setMyShortDescription")) == languages + 1  # one more now
        assert bot.api.descriptions["short_description", "ru"] != "old"


async def test_a_refused_call_does_not_keep_the_bot_from_starting(redis_client: aioredis.Redis) -> None:
    async with BotHarness(redis_client) as bot:
        bot.api.arm(1)  # the first call, Russian menu's, times out
        await register_profile(bot.app.bot)
        assert ("description", "ru") not in bot.api.descriptions  # that language's rest waits
        assert ("description", "") in bot.api.descriptions  # the other languages are set
        assert ("description", "uk") in bot.api.descriptions
        bot.api.arm(None)
        await register_profile(bot.app.bot)  # the next start finishes it
        assert ("description", "ru") in bot.api.descriptions
