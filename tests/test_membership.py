"""The bot's own membership of a group, through the real Application: added, it greets the chat;
removed, the games there stop and their players are told privately."""

from __future__ import annotations

import pytest
import redis.asyncio as aioredis

from bot.app import services_of
from bot.tables.lifecycle import state_of
from bot.tables.model import Phase, Table
from tests.harness import BotHarness, Clock

ALICE, BOB = 81, 82
GROUP = -100810
OTHER = GROUP * 10
TOPIC = 7


async def durak_game(bot: BotHarness, topic: int = 0) -> Table:
    """A Durak game in GROUP (or its forum `topic`) of Alice, Bob and two computers, each person's
    panel sent privately."""
    for user, name in ((ALICE, "Alice"), (BOB, "Bob")):
        await bot.say(user, user, "/start", first_name=name)  # each opens the bot privately
    await bot.say(GROUP, ALICE, "/new durak", first_name="Alice", thread_id=topic or None)
    await bot.press(GROUP, BOB, bot.button(GROUP, "Join"), first_name="Bob")
    await bot.press(GROUP, ALICE, bot.button(GROUP, "Start"))
    game = await bot.table(GROUP, topic)
    assert game is not None and game.phase is Phase.PLAYING and len(game.panels) == 2
    return game


def told_each(bot: BotHarness, stopped: Table, text: str) -> None:
    """Each person of the stopped game was told `text` privately, and their panel has no button left."""
    for user in (ALICE, BOB):
        told = bot.api.last_message(user)
        assert told is not None and told.content == text
        panel = bot.api.messages[user][stopped.panels[stopped.seat_of(user) or 0]]
        assert not panel.keyboard


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
        game = await durak_game(bot)
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
        told_each(
            bot,
            stopped,
            "🚫 Durak (throw-in) in “Group 100810” was stopped: the bot was removed from that chat.",
        )
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


async def test_removed_without_a_notice_the_first_refusal_stops_the_games_as_the_notice_would(
    redis_client: aioredis.Redis, caplog: pytest.LogCaptureFixture
) -> None:
    """Telegram keeps an update a day: a bot that was down longer learns of its removal from a refusal.
    A turn's timeout meets it (a warning to the group), and the group's games stop at once."""
    clock = Clock()
    async with BotHarness(redis_client, clock=clock) as bot:
        await durak_game(bot)
        await bot.say(GROUP, BOB, "/new grid", thread_id=TOPIC)
        bot.api.removed_from.add(GROUP)  # and no membership update comes
        clock.advance(600)
        await bot.tick()
        stopped = await bot.table(GROUP)
        assert stopped is not None and stopped.phase is Phase.FINISHED
        assert await bot.table(GROUP, TOPIC) is None
        told_each(
            bot, stopped, "🚫 Durak (throw-in) in a group was stopped: the bot was removed from that chat."
        )
        # Nothing is tried there any more, and nothing failed with a traceback.
        calls = len(bot.api.calls)
        clock.advance(600)
        await bot.tick()
        assert bot.api.calls[calls:] == []
        assert not [record for record in caplog.records if record.exc_info]


async def test_a_deleted_topic_stops_its_game_at_the_first_refusal_and_the_rest_of_the_group_plays_on(
    redis_client: aioredis.Redis, caplog: pytest.LogCaptureFixture
) -> None:
    """Telegram tells a bot nothing when a forum topic is deleted; it refuses the thread from then on."""
    clock = Clock()
    async with BotHarness(redis_client, clock=clock) as bot:
        await bot.say(GROUP, BOB, "/new grid")  # a lobby in the group's general topic
        general = await bot.table(GROUP)
        await durak_game(bot, TOPIC)
        bot.api.delete_topic(GROUP, TOPIC)
        clock.advance(100)
        await bot.tick()
        stopped = await bot.table(GROUP, TOPIC)
        assert stopped is not None and stopped.phase is Phase.FINISHED
        told_each(bot, stopped, "🚫 Durak (throw-in) in a group was stopped: its topic was deleted.")
        assert await bot.table(GROUP) == general
        calls = len(bot.api.calls)
        clock.advance(100)
        await bot.tick()
        assert not [call for call in bot.api.calls[calls:] if call.params.get("message_thread_id") == TOPIC]
        assert not [record for record in caplog.records if record.exc_info]


async def test_removed_from_a_group_where_a_player_blocked_the_bot_the_others_are_still_told(
    redis_client: aioredis.Redis,
) -> None:
    """Bob's panel cannot lose its buttons (his chat refuses the bot): Alice is told all the same."""
    async with BotHarness(redis_client) as bot:
        await durak_game(bot)
        bot.api.blocked_by.add(BOB)  # Telegram's notice of it may come later, or not at all
        await bot.feed(bot.updates.membership(GROUP, ALICE, "administrator", "kicked"))
        stopped = await bot.table(GROUP)
        assert stopped is not None and stopped.phase is Phase.FINISHED
        told = bot.api.last_message(ALICE)
        assert told is not None
        assert (
            told.content
            == "🚫 Durak (throw-in) in “Group 100810” was stopped: the bot was removed from that chat."
        )
        assert not bot.api.messages[ALICE][stopped.panels[0]].keyboard


async def test_a_closed_topic_plays_on_by_edits_and_its_refused_notices_are_no_failure(
    redis_client: aioredis.Redis, caplog: pytest.LogCaptureFixture
) -> None:
    """An admin closes the game's forum topic: the bot, no admin there, may post nothing new, but its
    table's message still changes. The turns run out as ever (their notices refused), a computer moves
    for whoever does not, and a command typed there is answered privately."""
    clock = Clock()
    async with BotHarness(redis_client, clock=clock) as bot:
        game = await durak_game(bot, TOPIC)
        bot.api.closed_topics.add((GROUP, TOPIC))
        for _ in range(3):
            clock.advance(100)
            await bot.tick()
        table = await bot.table(GROUP, TOPIC)
        assert table is not None and table.phase is Phase.PLAYING and table.strikes
        assert state_of(table).version > state_of(game).version  # played on: a computer moved for someone
        assert await services_of(bot.app).tables.store.shown(table) == table.screen  # and it is shown
        await bot.say(GROUP, ALICE, "/stop", thread_id=TOPIC)
        assert bot.api.last_message(ALICE).content.startswith("I may not write in “Group 100810”")  # type: ignore[union-attr]
        assert len(bot.expect_errors()) == 1
        assert not [record for record in caplog.records if record.exc_info]


async def test_a_game_started_in_a_closed_topic_waits_unseen_until_it_opens(
    redis_client: aioredis.Redis, caplog: pytest.LogCaptureFixture
) -> None:
    """The topic was closed under a lobby: Start cannot post the game's picture there, so nobody
    sees it and its turns do not run out (the general topic's game plays on as ever, and is told
    of its own refusal) until the topic opens again and the picture gets through."""
    clock = Clock()
    async with BotHarness(redis_client, clock=clock) as bot:
        general = await durak_game(bot)
        await bot.say(GROUP, ALICE, "/new grid", thread_id=TOPIC)
        await bot.press(GROUP, BOB, bot.button(GROUP, "Join"), first_name="Bob")
        bot.api.closed_topics.add((GROUP, TOPIC))
        await bot.press(GROUP, ALICE, bot.button(GROUP, "Start"))
        for _ in range(3):
            clock.advance(100)
            await bot.tick()
        waiting = await bot.table(GROUP, TOPIC)
        assert waiting is not None and waiting.phase is Phase.PLAYING and not waiting.strikes
        assert not [m for m in bot.api.bot_messages(GROUP) if m.thread_id == TOPIC]
        played = await bot.table(GROUP)
        assert played is not None and state_of(played).version > state_of(general).version
        # The group then keeps photos from the bot: the general topic is told, whatever the closed
        # topic could not be.
        bot.api.no_photos.add(GROUP)
        for wait in (100, 100, 2):  # Alice is warned, a computer moves for her, its picture is tried
            clock.advance(wait)
            await bot.tick()
        told = [
            m for m in bot.api.bot_messages(GROUP) if m.content.startswith("I may no longer send pictures")
        ]
        assert [m.thread_id for m in told] == [None]
        bot.api.no_photos.discard(GROUP)
        bot.api.closed_topics.discard((GROUP, TOPIC))
        clock.advance(100)
        await bot.tick()
        shown = await bot.table(GROUP, TOPIC)
        assert shown is not None and shown.message_id is not None
        assert bot.api.messages[GROUP][shown.message_id].thread_id == TOPIC
        assert not [record for record in caplog.records if record.exc_info]
        assert not bot.errors
