"""The bot's own membership of a group, through the real Application: added, it greets the chat;
removed, the games there stop and their players are told privately."""

from __future__ import annotations

import redis.asyncio as aioredis

from bot.tables.model import Phase
from tests.harness import BotHarness, Clock

ALICE, BOB = 81, 82
GROUP = -100810
OTHER = GROUP * 10
TOPIC = 7


async def test_added_to_a_group_the_bot_greets_it_with_the_games(redis_client: aioredis.Redis) -> None:
    async with BotHarness(redis_client) as bot:
        await bot.feed(bot.updates.membership(GROUP, ALICE, "left", "member"))
        greeting, menu = bot.api.bot_messages(GROUP)[-2:]
        assert greeting.content.startswith("Hi! I host card and board games.")
        assert menu.content == "Choose a game:" and bot.api.buttons(GROUP, menu.message_id)
        # Made an admin later, it says nothing more.
        sent = len(bot.api.calls)
        await bot.feed(bot.updates.membership(GROUP, ALICE, "member", "administrator"))
        assert len(bot.api.calls) == sent
        assert not bot.errors


async def test_removed_from_a_group_its_games_stop_and_their_players_are_told(
    any_redis: aioredis.Redis,
) -> None:
    clock = Clock()
    async with BotHarness(any_redis, clock=clock) as bot:
        for user, name in ((ALICE, "Alice"), (BOB, "Bob")):
            await bot.say(user, user, "/start", first_name=name)  # each opens the bot privately
        await bot.say(GROUP, ALICE, "/new durak", first_name="Alice")
        await bot.press(GROUP, BOB, bot.button(GROUP, "Join"), first_name="Bob")
        await bot.press(GROUP, ALICE, bot.button(GROUP, "Start"))
        game = await bot.table(GROUP)
        assert game is not None and game.phase is Phase.PLAYING and len(game.panels) == 2
        # A lobby waits in a topic of the same chat.
        await bot.say(GROUP, BOB, "/new grid", thread_id=TOPIC)
        assert await bot.table(GROUP, TOPIC) is not None
        # Another group's table, whose id begins with this one's, is not touched.
        await bot.say(OTHER, BOB, "/new grid")
        other = await bot.table(OTHER)

        await bot.feed(bot.updates.membership(GROUP, ALICE, "administrator", "kicked"))
        stopped = await bot.table(GROUP)
        assert stopped is not None and stopped.id == game.id and stopped.phase is Phase.FINISHED
        assert await bot.table(GROUP, TOPIC) is None
        assert await bot.table(OTHER) == other
        for user in (ALICE, BOB):
            told = bot.api.last_message(user)
            assert told is not None
            assert (
                told.content
                == "🚫 Durak (throw-in) in “Group 100810” was stopped: the bot was removed from that chat."
            )
            panel = bot.api.messages[user][stopped.panels[stopped.seat_of(user) or 0]]
            assert not panel.keyboard
        # Nothing is tried any more: not at once, and not by the timers later
        calls = len(bot.api.calls)
        clock.advance(600)
        await bot.tick()
        # (a picture deferred before the removal is passed over: the chat's and the panels' alike)
        assert bot.api.calls[calls:] == []
        assert not [call for call in bot.api.calls if call.chat_id == GROUP and call.error]
        # Added again, it greets the chat: the stopped game is over.
        await bot.feed(bot.updates.membership(GROUP, ALICE, "left", "member"))
        assert bot.api.bot_messages(GROUP)[-1].content == "Choose a game:"
        assert not bot.errors
