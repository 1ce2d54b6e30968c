"""Commands, menus, languages and error handling of the bot, through the real Application."""

from __future__ import annotations

import io
import json
from datetime import UTC, datetime
from typing import Any

import pytest
import redis.asyncio as aioredis
from PIL import Image

from bot.app import services_of
from bot.chat import callback
from bot.chat.actions import PASSING_SECONDS, RESUME
from bot.offline.fake_api import BOT_ID
from bot.tables.lifecycle import game_of, state_of
from bot.tables.model import Phase
from render.draw import INK
from tests.harness import BotHarness

ALICE, BOB, EVE = 21, 22, 23
GROUP = -100700


async def test_help_games_and_deep_link(redis_client: aioredis.Redis) -> None:
    async with BotHarness(redis_client) as bot:
        await bot.say(ALICE, ALICE, "/help")
        assert "/new grid" in bot.live(ALICE).content
        assert "There is no game" not in bot.live(ALICE).content
        # A name it does not know: said so, over the whole help.
        await bot.say(ALICE, ALICE, "/help tarot_x")
        assert bot.live(ALICE).content.startswith("There is no game called tarot_x.\n\nCommands:")
        await bot.say(ALICE, ALICE, "/help grid")
        assert "never diagonally" in bot.live(ALICE).content
        await bot.say(ALICE, ALICE, "/games")
        rows = bot.api.buttons(ALICE, bot.live(ALICE).message_id)
        labels = [label for row in rows for label, _ in row]
        assert {"🃏 Card grid", "💰 McSweeney's Gold", "🎰 One-legged bandit"} <= set(labels)
        # The bandit, listed beside the games, is typed as one too: its lever, as the menu shows it.
        for typed in ("/new bandit", "/start new_bandit"):
            await bot.say(ALICE, ALICE, typed)
            assert bot.live(ALICE).content == "One-legged bandit\nPull the lever: /spin, or the button."
            assert bot.button_labels(ALICE) == ["🎰 Spin"]
        # A link that names no game greets, as any link the bot does not know.
        for typed in ("/start new_", "/start new__"):
            await bot.say(ALICE, ALICE, typed)
            assert bot.live(ALICE).content == "Choose a game:", typed
        await bot.say(ALICE, ALICE, "/games")
        # A phone shows one or two buttons a row, each name whole.
        assert all(len(row) <= 2 for row in rows)
        await bot.press(ALICE, ALICE, bot.button(ALICE, "🃏 Card grid"))
        assert {"Solo", "Against the computer"} <= set(bot.button_labels(ALICE))
        menu = bot.live(ALICE).message_id
        await bot.press(ALICE, ALICE, bot.button(ALICE, "Against the computer"))
        table = await bot.table(ALICE)
        assert table is not None and table.phase is Phase.PLAYING and len(table.players) == 2
        assert bot.api.messages[ALICE][menu].deleted  # its work is done: the game is the chat's message
        # A deep link starts a game too, replacing the unfinished one in this private chat.
        await bot.say(ALICE, ALICE, "/start new_grid_solo")
        # An old link does not silently replace the running game: it asks first.
        assert (await bot.table(ALICE)) == table
        await bot.press(ALICE, ALICE, bot.button(ALICE, "Yes, start a new game"))
        replaced = await bot.table(ALICE)
        assert replaced is not None and replaced.id != table.id and len(replaced.players) == 1
        await bot.say(ALICE, ALICE, "/start")
        assert "Choose a game" in bot.live(ALICE).content
        # In a group the greeting does not ask to be added to a group.
        await bot.say(GROUP, ALICE, "/start")
        greeting = bot.api.bot_messages(GROUP)[-2].content
        assert greeting.endswith("Choose a game below to open a table here. /help explains everything.")


async def test_a_table_opened_from_the_menu_takes_the_menus_place(redis_client: aioredis.Redis) -> None:
    """The menu's work is done once its table is open (in a group it would stay as a second table
    message, its button answering «A game is already open here»); a menu that opened nothing stays."""
    async with BotHarness(redis_client) as bot:
        await bot.say(GROUP, ALICE, "/games")
        menu = bot.live(GROUP).message_id
        grid = bot.button(GROUP, "🃏 Card grid")
        await bot.press(GROUP, ALICE, grid)
        # A double tap: the second press (sent before the menu changed) finds the modes shown.
        await bot.press(GROUP, ALICE, grid)
        assert bot.button_labels(GROUP) == ["Open a table here"]
        await bot.press(GROUP, ALICE, bot.button(GROUP, "Open a table here"))
        lobby = await bot.table(GROUP)
        assert lobby is not None and lobby.phase is Phase.LOBBY
        assert bot.api.messages[GROUP][menu].deleted and bot.live(GROUP).message_id == lobby.message_id
        wallet = services_of(bot.app).pulls.wallet
        await wallet.apply(EVE, "drain", -950, "test", now=datetime.now(UTC))
        await bot.say(EVE, EVE, "/games")
        await bot.press(EVE, EVE, bot.button(EVE, "💰 McSweeney's Gold"))
        bets = bot.live(EVE).message_id
        await bot.press(EVE, EVE, bot.button(EVE, "Bet 100"))
        assert "Not enough coins: you have 50, this needs 100" in bot.live(EVE).content
        assert not bot.api.messages[EVE][bets].deleted
        await bot.press(EVE, EVE, bot.button(EVE, "Bet 20", bets), bets)
        assert bot.api.messages[EVE][bets].deleted and await bot.table(EVE) is not None


async def test_a_yes_to_end_a_private_game_ends_that_game_once(redis_client: aioredis.Redis) -> None:
    """«Yes, start a new game» ends the game it asked about: its question is deleted once answered,
    and another question about that game, answered later, is out of date (it ended nothing new)."""
    async with BotHarness(redis_client) as bot:
        await bot.say(ALICE, ALICE, "/new grid ai")
        first = await bot.table(ALICE)
        assert first is not None
        questions = []
        for _ in range(2):
            await bot.say(ALICE, ALICE, "/start new_grid_solo")
            questions.append(bot.live(ALICE).message_id)
        await bot.press(ALICE, ALICE, bot.button(ALICE, "Yes, start a new game", questions[0]), questions[0])
        second = await bot.table(ALICE)
        assert second is not None and second.id != first.id and len(second.players) == 1
        assert bot.api.messages[ALICE][questions[0]].deleted
        await bot.press(ALICE, ALICE, bot.button(ALICE, "Yes, start a new game", questions[1]), questions[1])
        assert bot.last_alert() == "This button is out of date."
        assert await bot.table(ALICE) == second


@pytest.mark.parametrize("first", ["grid ai", "durak"])
async def test_a_game_replaced_in_private_says_so_without_a_button(
    redis_client: aioredis.Redis, first: str
) -> None:
    """A new game over a running one in a private chat (a game shown on its own message, and one
    played from a panel): the old message says the game stopped and that the new one is below, and
    at no moment offers Play again, which would only lead to «out of date»."""
    async with BotHarness(redis_client) as bot:
        await bot.say(ALICE, ALICE, f"/new {first}")
        old = bot.live(ALICE).message_id
        made = len(bot.api.calls)
        await bot.say(ALICE, ALICE, "/new grid solo")
        new = await bot.table(ALICE)
        assert new is not None and new.game == "grid" and len(new.players) == 1
        edits = [call for call in bot.api.calls[made:] if call.params.get("message_id") == old]
        assert edits and all(call.method.startswith("edit") for call in edits)
        assert all("Play again" not in json.dumps(call.params.get("reply_markup")) for call in edits)
        assert [call.error for call in bot.api.calls[made:] if call.error] == []  # no request in vain
        stopped = bot.api.messages[ALICE][old]
        assert stopped.keyboard == []
        assert stopped.content.endswith("The game was stopped.\n⬇️ A new game has begun below.")
        assert bot.live(ALICE).message_id != old
        assert not bot.errors
        # Stopped by /stop instead, a private game offers to play again.
        await bot.say(ALICE, ALICE, "/stop")
        assert new.message_id is not None
        assert [label for row in bot.api.buttons(ALICE, new.message_id) for label, _ in row] == ["Play again"]


async def test_anything_else_written_privately_points_to_the_commands_and_groups_stay_quiet(
    redis_client: aioredis.Redis,
) -> None:
    async with BotHarness(redis_client) as bot:
        await bot.say(ALICE, ALICE, "/daily")
        pointer = "To pick a game: /games; every command: /help."
        assert bot.live(ALICE).content == f"There is no command /daily. {pointer}"
        await bot.say(ALICE, ALICE, "привет", language_code="ru")
        answer = bot.live(ALICE).content
        assert answer == "Я отвечаю на команды и кнопки. Выбрать игру: /games, все команды: /help."
        # A known command is the command's, not the pointer's.
        await bot.say(ALICE, ALICE, "/wallet")
        assert "1000" in bot.live(ALICE).content
        # In a group, people talk among themselves: the bot says nothing to what is not its own.
        await bot.say(GROUP, ALICE, "/daily")
        await bot.say(GROUP, ALICE, "hello everyone")
        assert bot.api.last_message(GROUP) is None
        assert not bot.errors


async def test_a_running_private_game_can_be_brought_back_to_the_foot_of_the_chat(
    redis_client: aioredis.Redis,
) -> None:
    async with BotHarness(redis_client) as bot:
        await bot.say(ALICE, ALICE, "/new grid solo")
        table = await bot.table(ALICE)
        assert table is not None and table.message_id is not None
        await bot.press(ALICE, ALICE, bot.button_data(ALICE)[0])
        table = await bot.table(ALICE)
        assert table is not None
        old = table.message_id
        assert old is not None
        bot.api.messages[ALICE][old].deleted = True  # or scrolled far up: either way out of reach
        # Choosing a game (from the menu or a link) while one runs offers to go back to it instead.
        await bot.say(ALICE, ALICE, "/start new_durak")
        await bot.press(ALICE, ALICE, bot.button(ALICE, "↩️ No, back to the game"))
        assert bot.last_alert() is None
        back = await bot.table(ALICE)
        assert back is not None and back.id == table.id and back.message_id not in (None, old)
        shown = bot.live(ALICE)
        assert shown.message_id == back.message_id and shown.photo is not None
        assert all(callback.decode(d).version == back.screen for d in bot.button_data(ALICE))
        await bot.press(ALICE, ALICE, bot.button_data(ALICE)[0])
        moved = await bot.table(ALICE)
        assert moved is not None and moved.screen > back.screen
        # A panel game comes back as its panel.
        await bot.say(ALICE, ALICE, "/new durak easy")
        durak = await bot.table(ALICE)
        assert durak is not None and durak.game == "durak" and 0 in durak.panels
        await bot.say(ALICE, ALICE, "/start new_grid_solo")
        await bot.press(ALICE, ALICE, bot.button(ALICE, "↩️ No, back to the game"))
        again = await bot.table(ALICE)
        assert again is not None and again.panels[0] != durak.panels[0]
        assert bot.live(ALICE).message_id == again.panels[0] and bot.button_data(ALICE)
        assert not bot.errors


async def test_a_groups_game_far_up_the_chat_is_brought_down_by_anyone(redis_client: aioredis.Redis) -> None:
    async with BotHarness(redis_client) as bot:
        await bot.say(GROUP, ALICE, "/new grid", first_name="Alice")
        await bot.press(GROUP, BOB, bot.button(GROUP, "Join"), first_name="Bob")
        await bot.press(GROUP, ALICE, bot.button(GROUP, "Start"))
        table = await bot.table(GROUP)
        assert table is not None and table.message_id is not None
        # Much later, someone asks for a game (named or from the menu, whose games could not open
        # here): the one open here is offered instead.
        questions = []
        for command in ("/games", "/new", "/start", "/new durak"):
            await bot.say(GROUP, EVE, command, first_name="Eve")
            question = bot.live(GROUP)
            questions.append(question)
            assert question.content.startswith("A game is already open here:"), command
            assert bot.button_labels(GROUP) == ["⬇️ Bring the game down here"], command
        # Said in passing: those not pressed go after a minute.
        bot.clock.advance(PASSING_SECONDS)  # type: ignore[attr-defined]
        await bot.tick()
        assert all(q.deleted for q in questions)
        await bot.say(GROUP, EVE, "/games", first_name="Eve")
        question = bot.live(GROUP)
        await bot.press(GROUP, EVE, bot.button(GROUP, "⬇️ Bring the game down here"))
        assert bot.last_alert() is None
        down = await bot.table(GROUP)
        assert down is not None and down.id == table.id and down.message_id not in (None, table.message_id)
        # The game is the chat's last message; the old one and the question are gone.
        assert bot.live(GROUP).message_id == down.message_id
        assert bot.api.messages[GROUP][table.message_id].deleted
        assert bot.api.messages[GROUP][question.message_id].deleted
        assert all(callback.decode(d).version == down.screen for d in bot.button_data(GROUP))
        # The same press forged under a picture (Eve's machine) brings the game down, and leaves the
        # picture: only a question or a menu goes once its work is done.
        await bot.say(GROUP, EVE, "/spin", first_name="Eve")
        machine = bot.live(GROUP)
        resume = callback.encode(callback.Kind.MENU, "-", 0, RESUME)
        await bot.press(GROUP, EVE, resume, machine.message_id, first_name="Eve")
        assert not bot.api.messages[GROUP][machine.message_id].deleted
        again = await bot.table(GROUP)
        assert again is not None and again.message_id == bot.live(GROUP).message_id != down.message_id
        assert not bot.errors


async def test_lobby_presses_are_answered_once_stored_before_any_picture(
    redis_client: aioredis.Redis, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Join and Start are answered as soon as the table is stored, not after its pictures are drawn
    and sent (a trick game's start draws three, which may outlast the press's watchdog and its
    apology): with the pictures failing, each press still gets the plain answer of a done change."""
    async with BotHarness(redis_client) as bot:
        await bot.say(GROUP, ALICE, "/new grid")
        from bot.adapters.grid import GridAdapter

        def broken(*args: Any, **kwargs: Any) -> bytes:
            raise RuntimeError("renderer down")

        monkeypatch.setattr(GridAdapter, "picture", broken)
        for user, label in ((BOB, "Join"), (ALICE, "Start")):
            await bot.press(GROUP, user, bot.button(GROUP, label))
            assert bot.api.calls_of("answerCallbackQuery")[-1].params.get("text") is None, label
        assert [type(error) for error in bot.expect_errors()] == [RuntimeError]
        table = await bot.table(GROUP)
        assert table is not None and table.phase is Phase.PLAYING and len(table.players) == 2


async def test_lang_switches_the_users_language(redis_client: aioredis.Redis) -> None:
    async with BotHarness(redis_client) as bot:
        await bot.say(ALICE, ALICE, "/lang")
        choice = bot.live(ALICE).message_id
        await bot.press(ALICE, ALICE, bot.button(ALICE, "Русский"))
        assert bot.live(ALICE).content == "Язык: русский."
        assert bot.api.messages[ALICE][choice].deleted  # the choice is made: the menu goes
        await bot.say(ALICE, ALICE, "/new grid")
        assert "ваш ход" in bot.live(ALICE).content
        # In a group only an admin may set the chat's language (hosting a table is not enough).
        await bot.say(GROUP, BOB, "/new grid", first_name="Bob")
        await bot.say(GROUP, BOB, "/lang")
        await bot.press(GROUP, BOB, bot.button(GROUP, "English"))
        assert bot.last_alert() == "Only a chat admin can change the chat's language."
        bot.api.set_admins(GROUP, [BOB])
        menu = next(m for m in bot.api.bot_messages(GROUP) if m.keyboard and "English" in str(m.keyboard))
        await bot.press(GROUP, BOB, bot.button(GROUP, "English", menu.message_id), menu.message_id)
        assert menu.deleted
        await bot.say(GROUP, BOB, "/stop")
        assert bot.live(GROUP).content == "The table is closed."
        await bot.say(GROUP, ALICE, "/new grid")  # Alice reads Russian, but the chat speaks English now
        assert "Players (1 of 2)" in bot.live(GROUP).content


async def test_lobby_leave_cancel_and_stop(redis_client: aioredis.Redis) -> None:
    async with BotHarness(redis_client) as bot:
        await bot.say(GROUP, ALICE, "/new grid", first_name="Alice")
        await bot.say(GROUP, BOB, "/join", first_name="Bob")
        # The lobby shows him; the command is answered where it was typed (the lobby may be far up).
        assert bot.live(GROUP).content == "You are at the table."
        lobby = await bot.table(GROUP)
        assert lobby is not None and lobby.message_id is not None
        assert "Bob" in bot.api.messages[GROUP][lobby.message_id].content
        await bot.say(GROUP, BOB, "/join")
        assert bot.live(GROUP).content == "You are already at the table."
        await bot.say(GROUP, ALICE, "/leave")  # the host leaves: Bob hosts now
        table = await bot.table(GROUP)
        assert table is not None and table.creator == BOB and len(table.players) == 1
        await bot.say(GROUP, BOB, "/stop")  # a lobby that is stopped is gone
        assert await bot.table(GROUP) is None
        # Its message says so to those who had joined, with no button left.
        closed = bot.api.messages[GROUP][lobby.message_id]
        assert closed.content == "🚫 Card grid: the table is closed. /new grid opens a new one."
        assert not bot.api.buttons(GROUP, lobby.message_id)
        await bot.say(GROUP, ALICE, "/new grid")
        await bot.press(GROUP, ALICE, bot.button(GROUP, "Add computer"))
        await bot.press(GROUP, ALICE, bot.button(GROUP, "Start"))
        await bot.say(GROUP, BOB, "/stop")
        assert bot.live(GROUP).content == "Only the host or a chat admin can do that."
        playing = await bot.table(GROUP)
        assert playing is not None and playing.message_id is not None
        assert "your turn" in bot.api.messages[GROUP][playing.message_id].content
        before = bot.api.photo(GROUP, playing.message_id)
        await bot.say(GROUP, ALICE, "/stop")
        assert bot.live(GROUP).content == "The game was stopped."
        stopped = await bot.table(GROUP)
        assert stopped is not None and stopped.phase is Phase.FINISHED
        assert stopped.message_id is not None
        table_message = bot.api.messages[GROUP][stopped.message_id]
        # It no longer tells whose turn it was.
        assert table_message.content.endswith("The game was stopped.")
        assert "your turn" not in table_message.content
        # Nor does its picture: a dark band across its top says the game was stopped.
        after = bot.api.photo(GROUP, stopped.message_id)
        assert before is not None and after is not None
        corners = [Image.open(io.BytesIO(photo)).convert("RGB").getpixel((2, 2)) for photo in (before, after)]
        assert isinstance(corners[1], tuple) and corners[0] != corners[1]
        assert all(abs(a - b) <= 8 for a, b in zip(corners[1], INK, strict=True))
        assert [label for row in bot.api.buttons(GROUP, stopped.message_id) for label, _ in row] == [
            "Play again"
        ]
        # The answers to typed commands go after a minute: the table's message keeps what changed.
        answers = [m for m in bot.api.bot_messages(GROUP) if m.reply_to is not None and not m.photo]
        assert len(answers) >= 6 and not any(m.deleted for m in answers)
        bot.clock.advance(PASSING_SECONDS)  # type: ignore[attr-defined]
        await bot.tick()
        assert all(m.deleted for m in answers)
        assert not bot.api.messages[GROUP][stopped.message_id].deleted
        # In a private chat the answer stays: it is the person's own conversation.
        await bot.say(ALICE, ALICE, "/stop")
        bot.clock.advance(PASSING_SECONDS)  # type: ignore[attr-defined]
        await bot.tick()
        assert bot.live(ALICE).content == "There is no game here. /games opens one."


async def test_an_answer_in_a_chat_the_bot_has_left_is_not_deleted_again_and_again(
    redis_client: aioredis.Redis, caplog: pytest.LogCaptureFixture
) -> None:
    async with BotHarness(redis_client) as bot:
        await bot.say(GROUP, ALICE, "/new grid", first_name="Alice")
        await bot.say(GROUP, BOB, "/join", first_name="Bob")
        bot.api.removed_from.add(GROUP)  # taken out of the group before the answer's minute is up
        for _ in range(3):
            bot.clock.advance(PASSING_SECONDS)  # type: ignore[attr-defined]
            await bot.tick()
        tries = [call for call in bot.api.calls_of("deleteMessage") if call.chat_id == GROUP]
        assert len(tries) == 1 and tries[0].error is not None
        assert not [record for record in caplog.records if record.getMessage() == "job delete failed"]


AS_A_CHAT = (
    "You are writing as the group or as a channel: only a person can sit at a table or hold coins. "
    "Write as yourself, or press a game's button under /games."
)
CHANNEL = -100900


async def test_what_is_written_as_the_group_or_a_channel(redis_client: aioredis.Redis) -> None:
    """Telegram names one stand-in account as the sender of every anonymous admin's message (and
    another for every channel's): it may not take a seat or hold coins, but an anonymous admin is an
    admin of the group."""
    async with BotHarness(redis_client) as bot:
        await bot.say(GROUP, ALICE, "/new grid", first_name="Alice")
        await bot.press(GROUP, ALICE, bot.button(GROUP, "Add computer"))
        await bot.press(GROUP, ALICE, bot.button(GROUP, "Start"))
        for command in ("/new durak", "/join", "/leave", "/spin", "/wallet"):
            for as_chat in (GROUP, CHANNEL):
                await bot.say(GROUP, EVE, command, as_chat=as_chat)
                assert bot.live(GROUP).content == AS_A_CHAT, (command, as_chat)
        table = await bot.table(GROUP)
        assert table is not None and table.phase is Phase.PLAYING and len(table.players) == 2
        assert not await redis_client.keys("*1087968824*") and not await redis_client.keys("*136817688*")
        # Written as a channel, nobody's rights are asked of Telegram: no admin of the group.
        await bot.say(GROUP, EVE, "/stop", as_chat=CHANNEL)
        assert bot.live(GROUP).content == "Only the host or a chat admin can do that."
        await bot.say(GROUP, EVE, "/lang ru", as_chat=CHANNEL)
        assert bot.live(GROUP).content == "Only a chat admin can change the chat's language."
        asked = {call.params["user_id"] for call in bot.api.calls_of("getChatMember")}
        assert asked == {ALICE, BOT_ID}  # for her Start and the bot's rights, not for the stand-ins
        # Only an admin may write as the group: the group's language and its game are theirs.
        await bot.say(GROUP, EVE, "/lang ru", as_chat=GROUP)
        assert bot.live(GROUP).content == "Язык: русский."
        await bot.say(GROUP, EVE, "/stop", as_chat=GROUP)
        assert bot.live(GROUP).content == "Игра остановлена."
        stopped = await bot.table(GROUP)
        assert stopped is not None and stopped.phase is Phase.FINISHED
        assert not bot.errors


async def test_an_edited_command_is_not_sent_again(redis_client: aioredis.Redis) -> None:
    async with BotHarness(redis_client) as bot:
        await bot.say(GROUP, ALICE, "/new gird", first_name="Alice")
        typo = bot.api.last_message(GROUP)
        sent = len(bot.api.calls)
        assert typo is not None
        command = bot.api.messages[GROUP][typo.message_id - 1]  # the reply follows it
        assert command.from_id == ALICE
        await bot.feed(bot.updates.edited(GROUP, command.message_id, "/new grid"))
        assert len(bot.api.calls) == sent and bot.api.last_message(GROUP) is typo
        assert await bot.table(GROUP) is None


NO_PICTURES = (
    "I may not send pictures in this chat, and every game is played on a picture. "
    "An admin can let me send photos, or make me an admin."
)


async def test_a_group_that_keeps_photos_from_the_bot_gets_no_game_it_could_not_see(
    redis_client: aioredis.Redis,
) -> None:
    async with BotHarness(redis_client) as bot:
        bot.api.no_photos.add(GROUP)  # members may not send media, and the bot is a member
        await bot.say(GROUP, ALICE, "/new grid", first_name="Alice")
        assert bot.live(GROUP).content == NO_PICTURES
        assert await bot.table(GROUP) is None
        bot.api.no_photos.discard(GROUP)  # an admin lets members send photos
        await bot.say(GROUP, ALICE, "/new grid")
        await bot.press(GROUP, BOB, bot.button(GROUP, "Join"), first_name="Bob")
        # The rights may change while the lobby waits: Start looks again.
        bot.api.no_photos.add(GROUP)
        await bot.press(GROUP, ALICE, bot.button(GROUP, "Start"))
        assert bot.last_alert() == NO_PICTURES
        lobby = await bot.table(GROUP)
        assert lobby is not None and lobby.phase is Phase.LOBBY
        bot.api.no_photos.discard(GROUP)
        await bot.press(GROUP, ALICE, bot.button(GROUP, "Start"))
        table = await bot.table(GROUP)
        assert table is not None and table.phase is Phase.PLAYING
        assert not bot.errors


async def test_a_person_takes_a_computers_seat_at_a_full_lobby(redis_client: aioredis.Redis) -> None:
    async with BotHarness(redis_client) as bot:
        await bot.say(GROUP, ALICE, "/new grid", first_name="Alice")
        assert "Join, add a computer, and the host starts the game." in (bot.live(GROUP).text or "")
        await bot.press(GROUP, ALICE, bot.button(GROUP, "Add computer"))
        lobby = await bot.table(GROUP)
        assert lobby is not None and [p.is_computer for p in lobby.players] == [False, True]
        assert "Add computer" not in bot.button_labels(GROUP)  # two seats, both taken
        assert "Join in a computer's seat, or the host starts the game." in (bot.live(GROUP).text or "")
        await bot.press(GROUP, BOB, bot.button(GROUP, "Join"), first_name="Bob")
        assert bot.last_alert() is None
        lobby = await bot.table(GROUP)
        assert lobby is not None and [p.user_id for p in lobby.players] == [ALICE, BOB]
        # Full of people: nobody is offered a seat.
        assert bot.button_labels(GROUP)[0] == "Leave" and "Join" not in bot.button_labels(GROUP)
        text = bot.live(GROUP).text or ""
        assert "The table is full: the host starts the game." in text and "Join" not in text
        await bot.press(GROUP, ALICE, bot.button(GROUP, "Start"))
        table = await bot.table(GROUP)
        assert table is not None and table.phase is Phase.PLAYING
        assert not bot.errors


async def test_nobody_passes_for_a_computer_by_their_name(redis_client: aioredis.Redis) -> None:
    """«🤖 » marks a computer's seat in the lobby, the captions and the pictures (a robot token):
    a person whose Telegram name starts with it is shown without it."""
    async with BotHarness(redis_client) as bot:
        await bot.say(GROUP, ALICE, "/new grid", first_name="Alice")
        await bot.press(GROUP, BOB, bot.button(GROUP, "Join"), first_name="🤖🤖 Bob")
        lobby = await bot.table(GROUP)
        assert lobby is not None and [p.name for p in lobby.players] == ["Alice", "Bob"]
        assert "🤖" not in (bot.live(GROUP).text or "")
        # Nothing but the mark: the username stands in, else the id.
        await bot.say(EVE, EVE, "/start", first_name="🤖", username="eve")
        await bot.press(GROUP, BOB, bot.button(GROUP, "Leave"), first_name="🤖 Bob")
        await bot.press(GROUP, EVE, bot.button(GROUP, "Join"), first_name="🤖")
        lobby = await bot.table(GROUP)
        assert lobby is not None and [p.name for p in lobby.players] == ["Alice", "eve"]


async def test_a_name_is_shown_plain_and_at_most_32_characters(redis_client: aioredis.Redis) -> None:
    """A right-to-left override in a Telegram name would reverse the rest of every line that names
    it (and draw the name backwards): names are shown without direction marks or control characters.
    A long name is cut, and says so."""
    async with BotHarness(redis_client) as bot:
        await bot.say(GROUP, ALICE, "/new grid_tarot", first_name="\u202eAlice\u200f")
        await bot.press(GROUP, BOB, bot.button(GROUP, "Join"), first_name="\u2067Bob\u2069\u202a")
        await bot.press(GROUP, EVE, bot.button(GROUP, "Join"), first_name="\u202e", username="eve")
        lobby = await bot.table(GROUP)
        assert lobby is not None and [p.name for p in lobby.players] == ["Alice", "Bob", "eve"]
        assert not any(mark in (bot.live(GROUP).text or "") for mark in "\u202e\u200f\u2067\u2069\u202a")
        # Telegram allows 64 characters: a table shows 32, a cut name ending in "…".
        await bot.press(GROUP, ALICE, bot.button(GROUP, "Leave"))
        await bot.press(
            GROUP, ALICE, bot.button(GROUP, "Join"), first_name="Александр Сергеевич Пушкин-Гоголь"
        )
        await bot.press(GROUP, 24, bot.button(GROUP, "Join"), first_name="Глеб Глебович Глебов-Глебовский")
        lobby = await bot.table(GROUP)
        assert lobby is not None
        assert [p.name for p in lobby.players][2:] == [
            "Александр Сергеевич Пушкин-Гого…",
            "Глеб Глебович Глебов-Глебовский",
        ]


@pytest.mark.parametrize(
    ("game", "alone", "two", "seated"),
    [
        (
            "durak",
            "At the start computers take the 3 empty seats.",
            "At the start computers take the 2 empty seats.",
            4,
        ),
        ("tarot", "At the start a computer takes the empty seat.", None, 2),
        ("grid", None, None, 2),
    ],
)
async def test_a_lobby_tells_the_seats_computers_take_at_the_start(
    redis_client: aioredis.Redis, game: str, alone: str | None, two: str | None, seated: int
) -> None:
    """Durak always seats four, a trick game at least two: the lobby says so before Start does it."""
    async with BotHarness(redis_client) as bot:
        for user in (ALICE, BOB):  # their cards can come to them: the lobby is the chat's last word
            await bot.say(user, user, "/start")
        await bot.say(GROUP, ALICE, f"/new {game}", first_name="Alice")
        text = bot.live(GROUP).text or ""
        assert (alone in text) if alone else "At the start" not in text
        await bot.press(GROUP, BOB, bot.button(GROUP, "Join"), first_name="Bob")
        text = bot.live(GROUP).text or ""
        assert (two in text) if two else "At the start" not in text
        await bot.press(GROUP, ALICE, bot.button(GROUP, "Start"))
        table = await bot.table(GROUP)
        assert table is not None and table.phase is Phase.PLAYING and len(table.players) == seated


async def test_a_failure_is_reported_and_healed_by_the_next_press(
    redis_client: aioredis.Redis, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with BotHarness(redis_client) as bot:
        await bot.say(ALICE, ALICE, "/new grid")
        first = bot.button_data(ALICE)[0]
        from bot.adapters.grid import GridAdapter

        real_picture = GridAdapter.picture

        def broken(*args: Any, **kwargs: Any) -> bytes:
            raise RuntimeError("renderer down")

        monkeypatch.setattr(GridAdapter, "picture", broken)
        await bot.press(ALICE, ALICE, first)
        # The move was judged and stored before the picture was drawn: the press was answered.
        assert bot.api.calls_of("answerCallbackQuery")[-1].params.get("text") is None
        assert [type(error) for error in bot.expect_errors()] == [RuntimeError]
        monkeypatch.setattr(GridAdapter, "picture", real_picture)
        table = await bot.table(ALICE)
        assert table is not None
        # The move was stored whole; the picture lags, so the next press refreshes it.
        await bot.press(ALICE, ALICE, bot.button_data(ALICE)[1])
        assert bot.last_alert() == "This button is out of date."
        fresh = bot.button_data(ALICE)
        assert all(callback.decode(data).version == table.screen for data in fresh)


async def test_each_topic_of_a_forum_has_its_own_table(redis_client: aioredis.Redis) -> None:
    """In a group with topics every topic is a table of its own: its lobby, its game and its replies
    stay in the topic, and a game there neither blocks nor answers another topic's."""
    grid_topic, race_topic = 5, 6
    async with BotHarness(redis_client) as bot:

        def in_topic(topic: int) -> list[Any]:
            return [m for m in bot.api.bot_messages(GROUP) if m.thread_id == topic]

        await bot.say(GROUP, ALICE, "/new grid", first_name="Alice", thread_id=grid_topic)
        await bot.say(GROUP, BOB, "/new race", first_name="Bob", thread_id=race_topic)
        grid, race = await bot.table(GROUP, grid_topic), await bot.table(GROUP, race_topic)
        assert grid is not None and race is not None and grid.id != race.id
        assert await bot.table(GROUP) is None
        lobby = in_topic(grid_topic)[-1]
        await bot.press(
            GROUP, EVE, bot.button(GROUP, "Join", lobby.message_id), lobby.message_id, first_name="Eve"
        )
        await bot.press(GROUP, ALICE, bot.button(GROUP, "Start", lobby.message_id), lobby.message_id)
        grid = await bot.table(GROUP, grid_topic)
        assert grid is not None and grid.phase is Phase.PLAYING and grid.message_id is not None
        assert bot.api.messages[GROUP][grid.message_id].thread_id == grid_topic
        race = await bot.table(GROUP, race_topic)
        assert race is not None and race.phase is Phase.LOBBY
        # A move in one topic changes that topic's game only.
        mover = grid.players[game_of(grid).to_move(state_of(grid))[0]].user_id
        assert mover is not None
        move = next(d for row in bot.api.buttons(GROUP, grid.message_id) for _, d in row if d)
        await bot.press(GROUP, mover, move, grid.message_id)
        moved = await bot.table(GROUP, grid_topic)
        assert moved is not None and moved.version > grid.version
        assert await bot.table(GROUP, race_topic) == race
        # A command in the race's topic is answered there, about the race's table.
        await bot.say(GROUP, EVE, "/new", thread_id=race_topic)
        answer = in_topic(race_topic)[-1]
        assert answer.content.startswith("A game is already open here:")
        assert all(m.thread_id in (grid_topic, race_topic) for m in bot.api.bot_messages(GROUP))
        assert not bot.errors


async def test_a_private_game_far_up_the_chat_is_offered_by_the_menu(redis_client: aioredis.Redis) -> None:
    """/start or /games in a private chat whose game is not over (a person back after a while, or
    after blocking the bot) leads the menu with a way back to that game; once it is over, not."""
    async with BotHarness(redis_client) as bot:
        await bot.say(ALICE, ALICE, "/new grid", first_name="Alice")
        table = await bot.table(ALICE)
        assert table is not None and table.message_id is not None
        for command in ("/start", "/games"):
            await bot.say(ALICE, ALICE, command, first_name="Alice")
            assert bot.button_labels(ALICE)[0] == "⬇️ Bring the game down here", command
        menu = bot.live(ALICE)
        await bot.press(ALICE, ALICE, bot.button(ALICE, "⬇️ Bring the game down here"))
        assert bot.last_alert() is None
        down = await bot.table(ALICE)
        assert down is not None and down.id == table.id and down.message_id not in (None, table.message_id)
        assert bot.live(ALICE).message_id == down.message_id and menu.deleted
        assert all(callback.decode(d).version == down.screen for d in bot.button_data(ALICE))
        await bot.say(ALICE, ALICE, "/stop", first_name="Alice")
        await bot.say(ALICE, ALICE, "/games", first_name="Alice")
        assert "⬇️ Bring the game down here" not in bot.button_labels(ALICE)
        assert not bot.errors


async def test_a_group_that_keeps_the_bot_from_writing_has_it_answer_privately(
    redis_client: aioredis.Redis, caplog: pytest.LogCaptureFixture
) -> None:
    """Nothing the bot says reaches a group whose members may send nothing, the bot a member: who
    speaks to it there (or adds it) is told privately, if they ever opened it, and no traceback is
    logged for a group's everyday setting."""
    told = (
        "I may not write in “Group 100700”, so I could not answer you there. An admin can let me send "
        "messages and photos, or make me an admin."
    )
    async with BotHarness(redis_client) as bot:
        await bot.say(ALICE, ALICE, "/start", first_name="Alice")
        bot.api.muted.add(GROUP)
        await bot.say(GROUP, ALICE, "/new grid", first_name="Alice")
        assert not bot.api.bot_messages(GROUP) and await bot.table(GROUP) is None
        assert bot.live(ALICE).content == told
        # Bob never opened the bot: there is nowhere to tell him.
        await bot.say(GROUP, BOB, "/games", first_name="Bob")
        assert BOB not in bot.api.messages
        await bot.feed(bot.updates.membership(GROUP, ALICE, "left", "member"))
        assert [m.content for m in bot.api.bot_messages(ALICE)][-2:] == [told, told]
        assert len(bot.expect_errors()) == 3
        assert not [record for record in caplog.records if record.exc_info]
        # Let write again, the bot answers in the group as ever.
        bot.api.muted.discard(GROUP)
        await bot.say(GROUP, ALICE, "/new grid")
        assert (await bot.table(GROUP)) is not None
        assert not bot.errors
