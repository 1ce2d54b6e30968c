"""The grid game through the real Application, by updates, on a real Redis."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
import redis.asyncio as aioredis
from telegram import CallbackQuery, InaccessibleMessage, Update

from bot.app import services_of
from bot.chat import callback
from bot.tables.lifecycle import game_of, state_of
from bot.tables.model import Phase, Table
from tests.bot_kit import current
from tests.harness import BotHarness, Clock

ALICE, BOB, CAROL = 11, 12, 13
GROUP = -100500


def mover(table: Table) -> int:
    """The user id of the person to move (the test may look at the state; players may not)."""
    seats = game_of(table).to_move(state_of(table))
    assert len(seats) == 1
    user = table.players[seats[0]].user_id
    assert user is not None
    return user


def move_buttons(bot: BotHarness, chat_id: int) -> list[str]:
    return [d for d in bot.button_data(chat_id) if callback.decode(d).kind is callback.Kind.MOVE]


async def open_group_game(bot: BotHarness) -> Table:
    await bot.say(GROUP, ALICE, "/new grid", first_name="Alice")
    lobby = bot.live(GROUP)
    assert "Alice" in lobby.content and lobby.photo is None
    await bot.press(GROUP, BOB, bot.button(GROUP, "Join"), first_name="Bob")
    assert "Bob" in bot.live(GROUP).content
    await bot.press(GROUP, ALICE, bot.button(GROUP, "Start"))
    table = await bot.table(GROUP)
    assert table is not None and table.phase is Phase.PLAYING
    return table


async def test_only_the_host_starts_and_strangers_cannot_move(redis_client: aioredis.Redis) -> None:
    async with BotHarness(redis_client) as bot:
        await bot.say(GROUP, ALICE, "/new grid", first_name="Alice")
        await bot.press(GROUP, BOB, bot.button(GROUP, "Join"), first_name="Bob")
        await bot.press(GROUP, BOB, bot.button(GROUP, "Start"))
        assert bot.last_alert() == "Only the host or a chat admin can do that."
        assert (await bot.table(GROUP)).phase is Phase.LOBBY  # type: ignore[union-attr]
        await bot.press(GROUP, ALICE, bot.button(GROUP, "Start"))
        table = await bot.table(GROUP)
        assert table is not None
        before = table.model_dump()
        waiting = BOB if mover(table) == ALICE else ALICE
        first = move_buttons(bot, GROUP)[0]
        await bot.press(GROUP, CAROL, first, first_name="Carol")
        assert bot.last_alert() == "You are not playing at this table."
        await bot.press(GROUP, waiting, first)
        assert bot.last_alert() == "It is not your turn."
        assert (await bot.table(GROUP)).model_dump() == before  # type: ignore[union-attr]


async def test_leaving_hands_the_seat_to_a_computer(redis_client: aioredis.Redis) -> None:
    async with BotHarness(redis_client) as bot:
        await open_group_game(bot)
        await bot.say(GROUP, BOB, "/leave")
        table = await bot.table(GROUP)
        assert table is not None
        bobs = table.seat_of(BOB)
        assert bobs is not None and table.players[bobs].away and table.players[bobs].is_computer
        assert bot.live(GROUP).content == "A computer plays your seat until you press «🙋 I'm back»."
        assert table.message_id is not None
        # Everyone is told, before any move the computer makes for him.
        caption = bot.api.messages[GROUP][table.message_id].content
        told = "🚪 Bob leaves: a computer plays the seat until they press «🙋 I'm back»."
        assert told in caption
        assert caption.index(told) < caption.find("🤖 for Bob") or "🤖 for Bob" not in caption
        if table.phase is not Phase.PLAYING:
            return  # the computer's first move ended the game
        # The computer moved by itself, so the person is to move.
        assert mover(table) == ALICE
        await bot.press(GROUP, BOB, bot.button(GROUP, "🙋 I'm back", table.message_id), table.message_id)
        back = await bot.table(GROUP)
        assert back is not None and not back.players[bobs].away
        assert "🙋 Bob is back at the table." in bot.api.messages[GROUP][table.message_id].content
        # Bob plays his own seat again: it is Alice's turn, not his.
        alices = next(
            d for row in bot.api.buttons(GROUP, table.message_id) for _, d in row if d and d.startswith("g:")
        )
        await bot.press(GROUP, BOB, alices, table.message_id)
        assert bot.last_alert() == "It is not your turn."


async def test_group_edits_are_coalesced(redis_client: aioredis.Redis) -> None:
    clock = Clock()
    async with BotHarness(redis_client, edits_per_minute=3, clock=clock) as bot:
        table = await open_group_game(bot)
        edits_before = len(bot.api.calls_of("editMessageMedia"))
        for _ in range(5):
            await bot.press(GROUP, mover(table), _current(table))
            table = await bot.table(GROUP)  # type: ignore[assignment]
            assert table is not None
            if table.phase is not Phase.PLAYING:
                break
        # At most the budget's edits went out; the latest screen waits in Redis.
        assert len(bot.api.calls_of("editMessageMedia")) - edits_before <= 3
        assert await services_of(bot.app).tables.publisher.catching_up(table) is not None
        # An outdated keyboard is told when the picture catches up, and changes nothing.
        stale = bot.button_data(GROUP)[0]
        await bot.press(GROUP, mover(table), stale)
        assert "catching up" in (bot.last_alert() or "")
        assert await bot.table(GROUP) == table
        clock.advance(61)
        await bot.tick()
        # The deferred edit ran, from Redis, and shows the latest state.
        final = bot.live(GROUP)
        data = [d for row in bot.api.buttons(GROUP, final.message_id) for _, d in row if d]
        assert data and all(callback.decode(d).version == table.screen for d in data)


def _current(table: Table) -> str:
    """A legal press for the current screen, built from the table (the message may lag behind)."""
    game = game_of(table)
    state = state_of(table)
    seat = game.to_move(state)[0]
    action = game.legal_actions(state, seat)[0]
    return callback.encode(callback.Kind.MOVE, table.id, table.screen, action)


async def test_racing_presses_are_settled_by_the_store(
    redis_client: aioredis.Redis, monkeypatch: Any
) -> None:
    """Both presses read the same table before either writes: compare-and-set lets exactly one through."""
    from bot.tables.store import TableStore

    async with BotHarness(redis_client) as bot:
        table = await open_group_game(bot)
        original_get = TableStore.get

        both_read = asyncio.Event()
        reads = [0]

        async def slow_get(self: TableStore, chat_id: int, topic: int) -> Table | None:
            found = await original_get(self, chat_id, topic)
            # Slow workers: neither goes on before the other has read the same version.
            reads[0] += 1
            if reads[0] >= 2:
                both_read.set()
            await both_read.wait()
            return found

        monkeypatch.setattr(TableStore, "get", slow_get)
        message_id = bot.live(GROUP).message_id
        presses = [
            bot.updates.callback(GROUP, mover(table), message_id, data, language_code="en")
            for data in move_buttons(bot, GROUP)[:2]
        ]
        await asyncio.gather(*(bot.feed(update) for update in presses))
        monkeypatch.setattr(TableStore, "get", original_get)
        after = await bot.table(GROUP)
        assert after is not None and state_of(after).version == state_of(table).version + 1
        texts = [call.params.get("text") for call in bot.api.alerts()[-2:]]
        assert sorted(texts, key=str) == sorted(
            [None, "Someone was faster. Look at the table again."], key=str
        )


async def test_the_result_tells_who_had_no_move_once(redis_client: aioredis.Redis) -> None:
    """A grid game ends when someone has no move: the result line says so, and the caption above it
    does not say it again."""
    async with BotHarness(redis_client) as bot:
        table = await open_group_game(bot)
        while table.phase is Phase.PLAYING:
            await bot.press(GROUP, mover(table), move_buttons(bot, GROUP)[0])
            fresh = await bot.table(GROUP)
            assert fresh is not None and fresh.version > table.version
            table = fresh
        outcome = game_of(table).outcome(state_of(table))
        assert outcome is not None
        loser = table.players[outcome.losers[0]].name
        lines = (bot.live(GROUP).caption or "").splitlines()
        assert [line for line in lines if loser in line and "no move" in line] == [
            f"🏆 {table.players[outcome.winners[0]].name} wins: {loser} has no move."
        ]
        assert not bot.errors


async def test_a_game_replaced_before_its_picture_caught_up_shows_how_it_ended(
    redis_client: aioredis.Redis,
) -> None:
    """The group's edit budget holds the picture back; the host stops the game and at once opens
    the next one: the old message shows the stopped game's last screen, without buttons, not the
    older screen it was left at."""
    clock = Clock()
    async with BotHarness(redis_client, edits_per_minute=3, clock=clock) as bot:
        await open_group_game(bot)
        clock.advance(61)
        await bot.tick()  # the game's picture is out, the budget full again
        table = await current(bot, GROUP)
        assert table.message_is_photo
        publisher = services_of(bot.app).tables.publisher
        while await publisher.catching_up(table) is None:
            await bot.press(GROUP, mover(table), _current(table))
            table = await current(bot, GROUP)
            assert table.phase is Phase.PLAYING
        await bot.say(GROUP, ALICE, "/stop", first_name="Alice")
        stopped = await bot.table(GROUP)
        assert stopped is not None and stopped.phase is Phase.FINISHED
        assert table.message_id is not None
        old = bot.api.messages[GROUP][table.message_id]
        assert "The game was stopped." not in old.content  # held back
        await bot.say(GROUP, ALICE, "/new grid", first_name="Alice")
        lobby = await bot.table(GROUP)
        assert lobby is not None and lobby.phase is Phase.LOBBY and lobby.id != stopped.id
        assert "The game was stopped." in old.content and not old.keyboard
        clock.advance(61)
        await bot.tick()
        assert "The game was stopped." in old.content and not old.keyboard
        assert bot.live(GROUP).message_id == lobby.message_id
        assert not bot.errors


# PTB's CommandHandler looks at every update's effective_message, and warns at an InaccessibleMessage.
@pytest.mark.filterwarnings("ignore:`update.callback_query` is not `None`")
async def test_buttons_under_a_message_days_old_still_play(redis_client: aioredis.Redis) -> None:
    """A game left for a couple of days: Telegram then sends a press without its message (only the
    chat and the id), and the press plays as any other, in private and in a group."""
    async with BotHarness(redis_client) as bot:
        await bot.say(ALICE, ALICE, "/new grid", first_name="Alice")
        solo = await bot.table(ALICE)
        assert solo is not None and solo.phase is Phase.PLAYING
        await bot.press(ALICE, ALICE, move_buttons(bot, ALICE)[0], old=True)
        moved = await bot.table(ALICE)
        assert moved is not None and state_of(moved).version > state_of(solo).version
        assert bot.api.last_message(ALICE).message_id == solo.message_id  # type: ignore[union-attr]

        table = await open_group_game(bot)
        # PTB 22 makes a Message of what Telegram sends; the type allows an InaccessibleMessage.
        sent = bot.updates.callback(
            GROUP, mover(table), table.message_id or 0, move_buttons(bot, GROUP)[0], old=True
        )
        parsed = Update.de_json(sent, bot.app.bot).callback_query
        assert parsed is not None and parsed.message is not None and not parsed.message.is_accessible
        inaccessible = InaccessibleMessage(parsed.message.chat, parsed.message.message_id)
        query = CallbackQuery(
            parsed.id, parsed.from_user, parsed.chat_instance, message=inaccessible, data=parsed.data
        )
        query.set_bot(bot.app.bot)
        await bot.app.process_update(Update(sent["update_id"], callback_query=query))
        played = await bot.table(GROUP)
        assert played is not None and state_of(played).version > state_of(table).version
        # A stranger's old press is refused as ever.
        await bot.press(GROUP, CAROL, move_buttons(bot, GROUP)[0], first_name="Carol", old=True)
        assert bot.last_alert() == "You are not playing at this table."
        assert not bot.errors
