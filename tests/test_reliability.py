"""Faults and scale-out through the real Application: foreign and crafted presses, a Redis outage,
an update delivered twice, and two workers sharing one Redis."""

from __future__ import annotations

import asyncio
import logging
import threading
from types import SimpleNamespace
from typing import Any

import pytest
import redis.asyncio as aioredis
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError
from telegram.error import RetryAfter, TimedOut
from telegram.ext import ExtBot

from bot import keys
from bot.app import TICKER, services_of, tick
from bot.chat import answers, callback
from bot.chat.callback import Kind
from bot.offline import fake_api
from bot.runtime.redis import client
from bot.tables import publisher as publisher_module
from bot.tables.lifecycle import game_of, state_of
from bot.tables.model import Phase, Table
from bot.tables.screens import Screen, panel_screen
from bot.tables.service import SHOW_GRACE_SECONDS
from bot.tables.timers import CLAIM_SECONDS
from tests.harness import BotHarness, Clock
from tests.processes import silent_port

ALICE, BOB, EVE = 71, 72, 73
GROUP = -100710


async def group_lobby(bot: BotHarness) -> Table:
    await bot.say(GROUP, ALICE, "/new grid", first_name="Alice")
    table = await bot.table(GROUP)
    assert table is not None and table.phase is Phase.LOBBY
    return table


async def group_game(bot: BotHarness) -> Table:
    """A two-person grid game in GROUP, from its lobby (opened here unless it is open already)."""
    if await bot.table(GROUP) is None:
        await group_lobby(bot)
    await bot.press(GROUP, BOB, bot.button(GROUP, "Join"), first_name="Bob")
    await bot.press(GROUP, ALICE, bot.button(GROUP, "Start"))
    table = await bot.table(GROUP)
    assert table is not None and table.phase is Phase.PLAYING
    return table


def mover(table: Table) -> int:
    """The person to move now."""
    user = table.players[game_of(table).to_move(state_of(table))[0]].user_id
    assert user is not None
    return user


def a_move(table: Table) -> str:
    """A legal press for whoever is to move now."""
    state = state_of(table)
    seat = game_of(table).to_move(state)[0]
    return data(table, Kind.MOVE, game_of(table).legal_actions(state, seat)[0])


def data(table: Table, kind: Kind, action: str, version: int | None = None) -> str:
    return callback.encode(kind, table.id, table.screen if version is None else version, action)


async def test_a_press_from_another_chat_cannot_manage_a_groups_table(redis_client: aioredis.Redis) -> None:
    async with BotHarness(redis_client) as bot:
        lobby = await group_lobby(bot)
        # Alice is the host, but in her private chat she has no rights over the group's table.
        await bot.say(ALICE, ALICE, "/help")
        private = bot.live(ALICE).message_id
        for action in ("start", "cancel", "o.level", "join", "computer"):
            await bot.press(ALICE, ALICE, data(lobby, Kind.LOBBY, action), private)
            assert bot.last_alert() == "This button belongs to another chat."
        assert await bot.table(GROUP) == lobby
        # Nor is a move accepted from a private chat unless it is the person's own panel.
        game = await group_game(bot)
        seat = game_of(game).to_move(state_of(game))[0]
        mover = game.players[seat].user_id
        assert mover is not None
        await bot.say(mover, mover, "/help")
        move = game_of(game).legal_actions(state_of(game), seat)[0]
        await bot.press(mover, mover, data(game, Kind.MOVE, move), bot.live(mover).message_id)
        assert bot.last_alert() == "This button belongs to another chat."
        assert await bot.table(GROUP) == game


async def test_crafted_presses_and_commands_get_a_short_answer_and_change_nothing(
    redis_client: aioredis.Redis,
) -> None:
    async with BotHarness(redis_client) as bot:
        table = await group_game(bot)
        before = await bot.table(GROUP)
        crafted = [
            f"g:{table.id}:²:A1",  # a version in Unicode digits
            "c:zz:0:spin",  # a Spin owner that is not hex
            data(table, Kind.LOBBY, "hand"),  # "My cards" at a game without hands
            f"g:{table.id}:{table.screen}:" + "Z" * 40,
            "x" * 64,
            "",
        ]
        answers = len(bot.api.calls_of("answerCallbackQuery"))
        for forged in crafted:
            await bot.press(GROUP, BOB, forged)
        assert len(bot.api.calls_of("answerCallbackQuery")) == answers + len(crafted)
        texts = [call.params.get("text") for call in bot.api.calls_of("answerCallbackQuery")[answers:]]
        assert all(text and len(text) <= 200 for text in texts), texts
        assert "This game has no hands of cards." in texts
        await bot.say(ALICE, ALICE, "/new " + "ш" * 4000)
        reply = bot.live(ALICE).content
        assert "There is no game called" in reply and len(reply) < 200
        assert await bot.table(GROUP) == before


async def test_a_choice_forged_under_another_message_leaves_its_buttons(redis_client: aioredis.Redis) -> None:
    async with BotHarness(redis_client) as bot:
        table = await group_game(bot)
        person = mover(table)
        await bot.say(GROUP, person, "/spin")
        machine = bot.live(GROUP).message_id
        edits = len(bot.api.calls_of("editMessageReplyMarkup"))
        await bot.press(GROUP, person, data(table, Kind.PICK, "1"), machine)
        assert bot.last_alert() == "This button is out of date."
        assert len(bot.api.calls_of("editMessageReplyMarkup")) == edits
        assert bot.api.buttons(GROUP, machine) == [
            [("🎰 Spin", callback.encode(Kind.COIN, format(person, "x"), 0, "spin"))]
        ]


def message_state(bot: BotHarness, message_id: int) -> tuple[object, ...]:
    message = bot.api.messages[GROUP][message_id]
    return message.text, message.caption, message.file_id, bot.api.buttons(GROUP, message_id), message.deleted


async def test_a_press_under_a_message_it_does_not_belong_to_leaves_that_message(
    redis_client: aioredis.Redis,
) -> None:
    """A client may send any button's data under any of the bot's messages. Whatever the press does
    (a move, a spin, a refusal), the message it was sent under changes only if it is the table's, or
    the presser's own machine (whose lever spins it, whatever the data says of its owner)."""
    async with BotHarness(redis_client) as bot:
        await bot.say(GROUP, ALICE, "/new grid_tarot", first_name="Alice")  # rows, then cells: picks
        await bot.press(GROUP, BOB, bot.button(GROUP, "Join"), first_name="Bob")
        await bot.press(GROUP, ALICE, bot.button(GROUP, "Start"))
        await bot.say(GROUP, ALICE, "/spin", first_name="Alice")  # a machine
        alices = bot.live(GROUP).message_id
        await bot.say(GROUP, EVE, "/new bandit", first_name="Eve")  # the lever under words
        await bot.say(GROUP, EVE, "/games", first_name="Eve")  # a question: «Bring the game down»
        await bot.say(GROUP, BOB, "/lang", first_name="Bob")  # a menu of languages
        table = await bot.table(GROUP)
        assert table is not None and table.message_id is not None
        tables = {table.message_id}
        messages = [m.message_id for m in bot.api.bot_messages(GROUP) if bot.api.buttons(GROUP, m.message_id)]
        buttons = {
            data: source
            for source in messages
            for row in bot.api.buttons(GROUP, source)
            for _, data in row
            if data is not None
        }
        assert len(messages) == 5 and len(buttons) > 10
        for target in messages:
            for data, source in buttons.items():
                if source == target:
                    continue
                for presser in (ALICE, BOB, EVE):
                    if bot.api.messages[GROUP][target].deleted:
                        break
                    before = message_state(bot, target)
                    await bot.press(GROUP, presser, data, target)
                    table = await bot.table(GROUP)
                    if table is not None and table.message_id is not None:
                        tables.add(table.message_id)
                    if target not in tables and (target, presser) != (alices, ALICE):
                        assert message_state(bot, target) == before, (data, presser)
        assert not bot.errors


async def test_a_press_during_a_redis_outage_is_answered_at_once(
    redis_client: aioredis.Redis, caplog: pytest.LogCaptureFixture
) -> None:
    dead = client("redis://127.0.0.1:1/0")  # the production client, on a port where nothing listens
    async with BotHarness(redis_client) as bot:
        table = await group_game(bot)
        message = bot.live(GROUP).message_id
        press = a_move(table)
    async with BotHarness(dead, api=bot.api) as down:
        await down.press(GROUP, BOB, press, message, language_code="ru")
        assert down.last_alert() == "У бота неполадки, попробуйте через минуту."
        await down.say(GROUP, BOB, "/join", language_code="en")
        assert down.live(GROUP).content == "The bot is having trouble, try again in a minute."
        assert down.expect_errors()
    # Each update failed for the outage says so in a line, with no traceback.
    failed = [r for r in caplog.records if r.name == "bot.chat.errors"]
    assert failed and all(
        r.getMessage().startswith("update failed: Redis is unreachable (") and r.exc_info is None
        for r in failed
    )
    await dead.aclose()


async def test_a_groups_apology_for_an_outage_goes_after_a_minute_though_redis_is_away(
    redis_client: aioredis.Redis,
) -> None:
    """Like every passing answer in a group; its deletion cannot be stored, so the worker keeps it."""
    dead = client("redis://127.0.0.1:1/0")
    async with BotHarness(dead) as down:
        await down.say(GROUP, BOB, "/join")
        apology = down.live(GROUP)
        assert apology.content == "The bot is having trouble, try again in a minute." and apology.reply_to
        assert down.expect_errors()
        assert down.app.job_queue is not None
        (deletion,) = [job for job in down.app.job_queue.jobs() if job.name != TICKER]
        assert deletion.data == (GROUP, apology.message_id)
        await deletion.run(down.app)
        assert down.api.messages[GROUP][apology.message_id].deleted
        await down.say(BOB, BOB, "/games")  # a private chat keeps its apology: nothing is scheduled
        assert [job for job in down.app.job_queue.jobs() if job.name != TICKER] == [deletion]
        assert down.expect_errors()
    await dead.aclose()


async def test_a_press_that_outlasts_the_watchdog_hears_the_bot_is_slow_not_that_it_failed(
    redis_client: aioredis.Redis, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A hung Redis (or a busy machine) holds the press past the watchdog: the person is told, in a
    toast, to press again if nothing changes, for the press may still be stored a moment later."""
    monkeypatch.setattr(answers, "WATCHDOG_SECONDS", 0.01)  # well before the socket timeout below
    async with BotHarness(redis_client) as bot:
        table = await group_game(bot)
        message = bot.live(GROUP).message_id
        press = a_move(table)
    with silent_port() as port:
        hung = client(f"redis://127.0.0.1:{port}/0", connect_timeout=1, socket_timeout=1)
        async with BotHarness(hung, api=bot.api) as slow:
            await slow.press(GROUP, BOB, press, message, language_code="ru")
            assert [error.__class__ for error in slow.expect_errors()] == [RedisTimeoutError]
        await hung.aclose()
    answers_given = bot.api.alerts()
    assert answers_given[-1].params.get("text") == (
        "⏳ Бот отвечает медленно: если ничего не изменится, нажмите ещё раз."
    )
    assert not answers_given[-1].params.get("show_alert")  # a toast: nothing to dismiss
    assert len({call.params["callback_query_id"] for call in answers_given}) == len(answers_given)


async def test_a_redis_outage_is_logged_by_the_ticker_once_and_its_end_too(
    redis_client: aioredis.Redis, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Not a traceback every two seconds for as long as Redis is away."""
    async with BotHarness(redis_client) as bot:
        timers = services_of(bot.app).timers
        working = timers.tick

        async def unreachable() -> None:
            raise RedisConnectionError("Error 111 connecting to 127.0.0.1:6379.")

        job = SimpleNamespace(application=bot.app)
        with caplog.at_level(logging.INFO, logger="bot.app"):
            monkeypatch.setattr(timers, "tick", unreachable)
            for _ in range(3):
                await tick(job)  # type: ignore[arg-type]
            monkeypatch.setattr(timers, "tick", working)
            for _ in range(2):
                await tick(job)  # type: ignore[arg-type]
    assert [(r.levelname, r.getMessage(), r.exc_info) for r in caplog.records] == [
        (
            "WARNING",
            "Redis is unreachable, the timers wait for it: Error 111 connecting to 127.0.0.1:6379.",
            None,
        ),
        ("INFO", "Redis answers again, the timers go on", None),
    ]


class TickedAgain(BaseException):
    """Escapes the ticker's handling of a table (which catches every Exception)."""


@pytest.mark.parametrize("work", ["deferred edit", "job for later", "turn timeout"])
async def test_redis_lost_in_the_middle_of_the_tickers_work_is_the_outages_one_line(
    redis_client: aioredis.Redis, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch, work: str
) -> None:
    """Redis gone between the claim of a due piece of work and its end (met with two real workers and a
    Redis killed under them): the ticker's one line, not a traceback of that piece, which is due again."""
    clock = Clock()
    async with BotHarness(redis_client, clock=clock) as bot:
        table = await group_game(bot)
        services = services_of(bot.app)
        tried: list[str] = []

        async def lost(*args: Any) -> None:
            tried.append(work)
            if len(tried) > 1:
                raise TickedAgain  # out of a loop claiming it again at once
            raise RedisConnectionError("Error 111 connecting to 127.0.0.1:6379.")

        if work == "deferred edit":
            await services.tables.publisher.defer(table, 0)
            monkeypatch.setattr(services.tables.publisher, "show", lost)
        elif work == "job for later":
            services.later.register("probe", lost)
            await services.later.schedule(GROUP, 0, "probe", {})
        else:
            assert table.deadline is not None
            clock.advance(table.deadline - clock().timestamp() + 1)
            monkeypatch.setattr(services.timers, "expire", lost)
        with caplog.at_level(logging.INFO):
            await tick(SimpleNamespace(application=bot.app))  # type: ignore[arg-type]
    assert tried == [work]
    assert [
        (r.levelname, r.getMessage(), r.exc_info) for r in caplog.records if r.levelno >= logging.WARNING
    ] == [
        (
            "WARNING",
            "Redis is unreachable, the timers wait for it: Error 111 connecting to 127.0.0.1:6379.",
            None,
        )
    ]


async def test_a_turn_whose_timeout_fails_is_tried_again_a_claim_later_not_at_once(
    redis_client: aioredis.Redis, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A table whose expiry raises every time (a bug) once held the ticker in a loop: put back at its
    passed deadline, it was claimed again at once, for ever."""
    clock = Clock()
    async with BotHarness(redis_client, clock=clock) as bot:
        table = await group_game(bot)
        timers = services_of(bot.app).timers
        tries: list[float] = []

        async def failing(*args: Any) -> None:
            tries.append(clock().timestamp())
            if len(tries) > 2:
                raise TickedAgain
            raise RuntimeError("a bug")

        monkeypatch.setattr(timers, "expire", failing)
        assert table.deadline is not None
        clock.advance(table.deadline - clock().timestamp() + 1)
        await bot.tick()
        await bot.tick()
        assert len(tries) == 1
        clock.advance(CLAIM_SECONDS + 1)
        await bot.tick()
    assert len(tries) == 2 and tries[1] - tries[0] == CLAIM_SECONDS + 1
    failures = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert [r.getMessage() for r in failures] == [
        f"timeout of {keys.table(GROUP, 0)} failed; tried again in {CLAIM_SECONDS} s"
    ] * 2


async def test_a_picture_that_timed_out_is_sent_again_by_the_ticker(
    redis_client: aioredis.Redis, caplog: pytest.LogCaptureFixture
) -> None:
    """Telegram slow for a moment: the move is stored, its picture's edit times out (a line in the
    log, not a traceback), and the next tick shows it, before anyone presses a button of the
    picture that lags."""
    clock = Clock()
    async with BotHarness(redis_client, clock=clock) as bot:
        table = await group_game(bot)
        message = bot.live(GROUP)
        bot.api.arm(2)  # the press's answer goes through, the picture's edit times out
        await bot.press(GROUP, mover(table), a_move(table))
        assert bot.api.armed_calls == 2
        bot.api.arm(None)
        assert [type(error).__name__ for error in bot.expect_errors()] == ["TimedOut"]
        told = [
            (r.levelname, r.getMessage(), r.exc_info) for r in caplog.records if r.name == "bot.chat.errors"
        ]
        assert told == [
            ("WARNING", "update failed: Telegram did not answer (injected: the request never arrived)", None)
        ]
        moved = await bot.table(GROUP)
        assert moved is not None and moved.screen > table.screen
        assert bot.api.messages[GROUP][message.message_id].edit_date is None  # the picture lags
        clock.advance(2)
        await bot.tick()
        assert all(callback.decode(d).version == moved.screen for d in bot.button_data(GROUP))
        assert not bot.errors


async def test_a_press_whose_answer_timed_out_is_answered_once_more(redis_client: aioredis.Redis) -> None:
    """Telegram slow for a moment as the press is answered: the answer is sent again, so the
    person's spinner stops, and the move stands."""
    async with BotHarness(redis_client) as bot:
        await bot.say(ALICE, ALICE, "/new grid", first_name="Alice")
        table = await bot.table(ALICE)
        assert table is not None
        bot.api.arm(1)  # the press's answer times out before it reaches Telegram
        await bot.press(ALICE, ALICE, a_move(table))
        bot.api.arm(None)
        assert bot.api.pending_queries == {}
        assert len(bot.api.alerts()) == 1
        moved = await bot.table(ALICE)
        assert moved is not None and moved.screen > table.screen
        assert not bot.errors


async def test_a_command_telegram_does_not_answer_is_two_lines_in_the_log(
    redis_client: aioredis.Redis, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Telegram out of reach for a moment: the reply to a command times out, and so does the
    apology; the log says each in a line, without a traceback."""

    def timed_out(api: fake_api.FakeBotAPI, params: dict[str, Any], files: dict[str, bytes]) -> None:
        raise TimedOut("injected: no answer")

    monkeypatch.setitem(fake_api._METHODS, "sendMessage", timed_out)
    async with BotHarness(redis_client) as bot:
        await bot.say(ALICE, ALICE, "/games")
        assert [type(error) for error in bot.expect_errors()] == [TimedOut]
    told = [(r.levelname, r.getMessage(), r.exc_info) for r in caplog.records if r.name == "bot.chat.errors"]
    assert told == [
        ("WARNING", "update failed: Telegram did not answer (injected: no answer)", None),
        ("WARNING", "could not report the error to the user: injected: no answer", None),
    ]


async def test_a_picture_refused_for_flood_is_sent_after_telegrams_pause(
    redis_client: aioredis.Redis, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = Clock()
    async with BotHarness(redis_client, clock=clock) as bot:
        table = await group_game(bot)
        real_edit = ExtBot.edit_message_media

        async def flooded(*args: Any, **kwargs: Any) -> Any:
            raise RetryAfter(30)

        monkeypatch.setattr(ExtBot, "edit_message_media", flooded)
        await bot.press(GROUP, mover(table), a_move(table))
        assert [type(error) for error in bot.expect_errors()] == [RetryAfter]
        monkeypatch.setattr(ExtBot, "edit_message_media", real_edit)
        moved = await bot.table(GROUP)
        assert moved is not None
        clock.advance(10)  # past the 5 s any stored change waits, not past Telegram's pause
        await bot.tick()
        assert all(callback.decode(d).version == table.screen for d in bot.button_data(GROUP))
        clock.advance(21)
        await bot.tick()
        assert all(callback.decode(d).version == moved.screen for d in bot.button_data(GROUP))


async def test_a_group_that_takes_photos_from_the_bot_mid_game_is_told_once(
    redis_client: aioredis.Redis,
) -> None:
    async with BotHarness(redis_client) as bot:
        table = await group_game(bot)
        bot.api.no_photos.add(GROUP)  # an admin keeps media from members, the bot among them
        told = "I may no longer send pictures in this chat, so «Card grid» cannot be shown: it waits"
        for _ in range(2):
            await bot.press(GROUP, mover(table), a_move(table))
            assert bot.last_alert() is None  # the move itself is taken
            moved = await bot.table(GROUP)
            assert moved is not None and moved.screen > table.screen
            table = moved
        notes = [m for m in bot.api.bot_messages(GROUP) if m.content.startswith(told)]
        assert len(notes) == 1  # told once, not at every move
        edits = len(bot.api.calls_of("editMessageMedia"))
        assert edits == 2  # one try a change, not one per look
        bot.api.no_photos.discard(GROUP)
        await bot.press(GROUP, mover(table), a_move(table))
        shown = await bot.table(GROUP)
        assert shown is not None and shown.message_id is not None
        buttons = [data for row in bot.api.buttons(GROUP, shown.message_id) for _, data in row if data]
        assert buttons and all(callback.decode(data).version == shown.screen for data in buttons)
        assert not bot.errors


async def test_a_worker_that_dies_before_the_picture_leaves_it_to_any_ticker(
    redis_client: aioredis.Redis, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A private game has no turn timer to bring its picture up to date: the pending picture is a
    deferred edit in Redis from the moment the move is stored."""
    clock = Clock()
    async with BotHarness(redis_client, clock=clock) as bot:
        await bot.say(ALICE, ALICE, "/new grid")
        table = await bot.table(ALICE)
        assert table is not None
        publisher = services_of(bot.app).tables.publisher

        async def died(_: Table) -> None:
            """The worker is gone once the move is stored."""

        monkeypatch.setattr(publisher, "show", died)
        await bot.press(ALICE, ALICE, bot.button_data(ALICE)[0])
        monkeypatch.undo()
        moved = await bot.table(ALICE)
        assert moved is not None and moved.screen > table.screen
        await bot.tick()  # within the grace the storing worker may still be drawing it
        assert all(callback.decode(d).version == table.screen for d in bot.button_data(ALICE))
        clock.advance(SHOW_GRACE_SECONDS)
        await bot.tick()
        assert all(callback.decode(d).version == moved.screen for d in bot.button_data(ALICE))
        assert not bot.errors


async def test_the_same_update_delivered_twice_is_handled_once(redis_client: aioredis.Redis) -> None:
    async with BotHarness(redis_client) as bot:
        table = await group_game(bot)
        seat = game_of(table).to_move(state_of(table))[0]
        user = table.players[seat].user_id
        assert user is not None
        move = bot.button_data(GROUP)[0]
        update = bot.updates.callback(GROUP, user, bot.live(GROUP).message_id, move, language_code="en")
        async with BotHarness(redis_client, api=bot.api) as other:
            # Two workers get it at once, then a retry comes later: one move, nothing else.
            await asyncio.gather(bot.feed(update), other.feed(update))
            calls = len(bot.api.calls)
            await other.feed(update)
            assert len(bot.api.calls) == calls
        after = await bot.table(GROUP)
        assert after is not None and state_of(after).version == state_of(table).version + 1


async def test_two_workers_share_one_edit_budget_and_either_delivers_the_deferred_edit(
    redis_client: aioredis.Redis,
) -> None:
    clock = Clock()
    async with BotHarness(redis_client, edits_per_minute=3, clock=clock) as one:
        table = await group_game(one)
        async with BotHarness(redis_client, api=one.api, edits_per_minute=3, clock=clock) as two:
            edits = len(one.api.calls_of("editMessageMedia"))
            for number in range(6):
                worker = (one, two)[number % 2]
                table = await worker.table(GROUP) or table
                if table.phase is not Phase.PLAYING:
                    break
                state = state_of(table)
                seat = game_of(table).to_move(state)[0]
                user = table.players[seat].user_id
                assert user is not None
                move = data(table, Kind.MOVE, game_of(table).legal_actions(state, seat)[0])
                await worker.press(GROUP, user, move)
            # The budget is the group's, not each worker's.
            assert len(one.api.calls_of("editMessageMedia")) - edits <= 3
            latest = await two.table(GROUP)
            assert latest is not None
            clock.advance(61)
            await two.tick()
            shown = one.api.last_message(GROUP)
            assert shown is not None
            buttons = [d for row in one.api.buttons(GROUP, shown.message_id) for _, d in row if d]
            assert buttons and all(callback.decode(d).version == latest.screen for d in buttons)
            assert await services_of(two.app).tables.store.shown(latest) == latest.screen


async def test_a_deleted_table_message_comes_back_with_the_next_change(redis_client: aioredis.Redis) -> None:
    """An admin tidying the group deletes the game's message: the game is not lost with it."""
    clock = Clock()
    async with BotHarness(redis_client, clock=clock) as bot:
        table = await group_game(bot)
        gone = bot.live(GROUP)
        bot.api.messages[GROUP][gone.message_id].deleted = True
        # Nobody can press a deleted message; the turn timer moves the game on (its first expiry only
        # warns, which changes nothing on the table) and shows it anew.
        for _ in range(2):
            clock.advance(table.turn_seconds + 1)
            await bot.tick()
        # The first expiry's warning still went out, without the quote of the message it could not find.
        warning = next(c for c in bot.api.calls_of("sendMessage") if c.params["text"].startswith("⏰"))
        assert warning.result is not None and "reply_to_message" not in warning.result
        latest = await bot.table(GROUP)
        assert latest is not None and latest.message_id not in (None, gone.message_id)
        # (after it, the timer's reminder to the one who is to move)
        shown = bot.api.messages[GROUP][latest.message_id]
        assert not shown.deleted and shown.photo is not None
        # Its buttons are the current screen's, and they work.
        buttons = [d for row in bot.api.buttons(GROUP, shown.message_id) for _, d in row if d]
        assert buttons and all(callback.decode(d).version == latest.screen for d in buttons)
        mover = latest.players[game_of(latest).to_move(state_of(latest))[0]].user_id
        assert mover is not None
        await bot.press(GROUP, mover, a_move(latest), shown.message_id)
        moved = await bot.table(GROUP)
        assert moved is not None and moved.screen > latest.screen
        assert not bot.errors


async def test_a_slow_picture_of_an_older_screen_never_covers_a_newer_panel(
    redis_client: aioredis.Redis, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two shows of one panel at once (a person's move and the computers' replies, two workers):
    the one that drew the older screen is slower, yet the panel ends with the newer screen's buttons."""
    async with BotHarness(redis_client) as bot:
        await bot.say(41, 41, "/new durak easy", first_name="Alice")
        older = await bot.table(41)
        assert older is not None and 0 in older.panels
        publisher = services_of(bot.app).tables.publisher
        store = services_of(bot.app).tables.store
        await redis_client.hdel(keys.table(41, 0), "panel:0")  # the panel is to be shown again
        drawing, finish = threading.Event(), threading.Event()

        def slow_for_the_older(
            table: Table, seat: int, since: int, unless: str | None = None
        ) -> tuple[str, Screen | None]:
            if table.screen == older.screen:
                drawing.set()
                finish.wait(timeout=30)
            return panel_screen(table, seat, since, unless)

        monkeypatch.setattr(publisher_module, "panel_screen", slow_for_the_older)
        slow = asyncio.create_task(publisher.show(older))
        await asyncio.to_thread(drawing.wait, 30)
        newer = await store.put(
            older.model_copy(update={"screen": older.screen + 1}), expected_version=older.version
        )
        await publisher.show(newer)
        finish.set()
        await slow
        versions = {
            callback.decode(d).version for row in bot.api.buttons(41, older.panels[0]) for _, d in row
        }
        assert versions == {newer.screen}


async def test_a_picture_refused_by_a_person_who_blocked_the_bot_is_not_tried_for_ever(
    redis_client: aioredis.Redis, caplog: pytest.LogCaptureFixture
) -> None:
    """Alice's move in her private game is stored but its picture's edit times out, and she blocks
    the bot: the ticker's try is refused, and the picture is dropped with one warning instead of
    being tried again at every lease with a traceback. Back, her press under the lagging picture
    brings it up to date."""
    clock = Clock()
    async with BotHarness(redis_client, clock=clock) as bot:
        await bot.say(ALICE, ALICE, "/new grid", first_name="Alice")
        table = await bot.table(ALICE)
        assert table is not None and table.phase is Phase.PLAYING
        bot.api.arm(2)  # the press's answer goes through, the picture's edit times out
        await bot.press(ALICE, ALICE, a_move(table))
        bot.api.arm(None)
        assert [type(error).__name__ for error in bot.expect_errors()] == ["TimedOut"]
        bot.api.blocked_by.add(ALICE)
        calls = len(bot.api.calls)
        with caplog.at_level(logging.WARNING):
            for _ in range(3):
                clock.advance(publisher_module.EDIT_LEASE_SECONDS + 1)
                await bot.tick()
        refused = [call.error for call in bot.api.calls[calls:] if call.chat_id == ALICE]
        assert refused == ["Forbidden: bot was blocked by the user"]
        assert [r.levelname for r in caplog.records if r.name == publisher_module.__name__] == ["WARNING"]
        bot.api.blocked_by.discard(ALICE)
        await bot.press(ALICE, ALICE, bot.button_data(ALICE)[0])
        assert bot.last_alert() == "This button is out of date."
        moved = await bot.table(ALICE)
        assert moved is not None
        assert all(callback.decode(d).version == moved.screen for d in bot.button_data(ALICE))
        assert not bot.errors


async def test_a_table_whose_message_can_no_longer_be_edited_is_sent_again(
    redis_client: aioredis.Redis,
) -> None:
    """Telegram refuses to edit the table's message for good («message can't be edited»): the next
    move sends the table as a new message, instead of failing at every move and every tick."""
    async with BotHarness(redis_client) as bot:
        table = await group_game(bot)
        old = bot.live(GROUP)
        old.from_id = ALICE  # as Telegram would treat it: no longer the bot's to edit
        await bot.press(GROUP, mover(table), a_move(table), old.message_id)
        moved = await bot.table(GROUP)
        assert moved is not None and moved.message_id not in (None, old.message_id)
        assert bot.live(GROUP).message_id == moved.message_id
        assert all(callback.decode(d).version == moved.screen for d in bot.button_data(GROUP))
        assert not bot.errors
