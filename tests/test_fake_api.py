"""The fake Bot API behind a real PTB Application: recorded calls, the chat model and Telegram's errors."""

from __future__ import annotations

import asyncio
import io
from collections.abc import AsyncIterator
from typing import Any

import pytest
from PIL import Image
from telegram import (
    BotCommand,
    BotCommandScopeAllGroupChats,
    ChatMemberAdministrator,
    ChatMemberMember,
    ChatMemberOwner,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InputMediaPhoto,
    Message,
    ReplyParameters,
    Update,
)
from telegram.constants import ParseMode
from telegram.error import BadRequest, ChatMigrated, Forbidden
from telegram.ext import Application, CallbackQueryHandler, CommandHandler, ContextTypes

from bot.offline.fake_api import BOT_ID, FakeBotAPI, UpdateFactory

App = Application[Any, Any, Any, Any, Any, Any]

GROUP = -1001
ALICE = 1
BOB = 2


def png(width: int, height: int, color: str) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (width, height), color).save(out, "PNG")
    return out.getvalue()


LOBBY = png(100, 60, "red")
BOARD = png(3000, 1500, "blue")

KEYBOARD = InlineKeyboardMarkup(
    [
        [
            InlineKeyboardButton("Join", callback_data="join"),
            InlineKeyboardButton("Same", callback_data="same"),
        ],
        [InlineKeyboardButton("Rules", url="https://t.me/cardgames_test_bot?start=rules")],
    ]
)


async def new_game(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.effective_message
    await update.effective_message.reply_photo(LOBBY, caption="Lobby", reply_markup=KEYBOARD)


async def pressed(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    query = update.callback_query
    assert query and query.message
    if query.data == "join":
        media = InputMediaPhoto(BOARD, caption=f"Joined: {query.from_user.first_name}")
        await query.edit_message_media(media, reply_markup=KEYBOARD)
        await query.answer("Welcome", show_alert=True)
        return
    assert isinstance(query.message, Message)
    try:
        await query.edit_message_caption(query.message.caption, reply_markup=KEYBOARD)
    except BadRequest as exc:
        context.bot_data["error"] = exc.message
    await query.answer()


@pytest.fixture
def api() -> FakeBotAPI:
    return FakeBotAPI()


@pytest.fixture
def updates(api: FakeBotAPI) -> UpdateFactory:
    return UpdateFactory(api)


@pytest.fixture
async def app(api: FakeBotAPI) -> AsyncIterator[App]:
    application = (
        Application.builder().token("123:TEST").request(api).get_updates_request(api).updater(None).build()
    )
    application.add_handler(CommandHandler("new", new_game))
    application.add_handler(CallbackQueryHandler(pressed))
    async with application:
        yield application


async def feed(app: App, update: dict[str, object]) -> None:
    await app.process_update(Update.de_json(update, app.bot))


async def test_initialize_asks_get_me(app: App, api: FakeBotAPI) -> None:
    assert [c.method for c in api.calls] == ["getMe"]
    assert (app.bot.id, app.bot.username, app.bot.first_name) == (BOT_ID, "cardgames_test_bot", "Card Games")


async def test_command_replies_with_photo_and_keyboard(
    app: App,
    api: FakeBotAPI,
    updates: UpdateFactory,
) -> None:
    await feed(app, updates.command(GROUP, ALICE, "new", "grid", first_name="Alice"))

    call = api.calls[-1]
    assert call.method == "sendPhoto"
    assert call.chat_id == GROUP
    assert call.files == {"photo": LOBBY}
    assert call.params["caption"] == "Lobby"
    msg = api.last_message(GROUP)
    assert msg is not None
    assert msg.message_id == 2  # the command itself is message 1 of the chat
    assert (msg.caption, msg.photo) == ("Lobby", LOBBY)
    assert api.buttons(GROUP, msg.message_id) == [[("Join", "join"), ("Same", "same")], [("Rules", None)]]
    assert msg.keyboard[1][0].url == "https://t.me/cardgames_test_bot?start=rules"
    sizes = api.message_json(msg)["photo"]
    assert (sizes[-1]["width"], sizes[-1]["height"], sizes[-1]["file_id"]) == (100, 60, msg.file_id)


async def test_forget_keeps_each_chats_last_messages_and_drops_the_rest(
    app: App, api: FakeBotAPI, updates: UpdateFactory
) -> None:
    for _ in range(3):
        await feed(app, updates.command(GROUP, ALICE, "new", "grid", first_name="Alice"))
    last = api.last_message(GROUP)
    assert last is not None and last.file_id is not None and api.file(last.file_id) == LOBBY
    api.forget(keep=2)
    assert api.calls == [] and sorted(api.messages[GROUP]) == [last.message_id - 1, last.message_id]
    with pytest.raises(KeyError):
        api.file(last.file_id)  # the uploads are gone: a long run's memory is the bot's


async def test_press_edits_media_and_answers_with_alert(
    app: App,
    api: FakeBotAPI,
    updates: UpdateFactory,
) -> None:
    await feed(app, updates.command(GROUP, ALICE, "new"))
    msg = api.last_message(GROUP)
    assert msg is not None

    await feed(app, updates.press(GROUP, BOB, msg.message_id, "Join", first_name="Bob"))

    edit, answer = api.calls[-2:]
    assert edit.method == "editMessageMedia"
    assert edit.params["media"]["media"].startswith("attach://")
    assert list(edit.files.values()) == [BOARD]
    assert (msg.caption, msg.photo, msg.edit_date is not None) == ("Joined: Bob", BOARD, True)
    assert api.buttons(GROUP, msg.message_id)[0] == [("Join", "join"), ("Same", "same")]
    # A photo larger than Telegram's 2560 px is listed scaled down, the largest size last.
    assert [(s["width"], s["height"]) for s in api.message_json(msg)["photo"]][-2:] == [
        (1280, 640),
        (2560, 1280),
    ]
    assert answer.method == "answerCallbackQuery"
    assert [(a.params["text"], a.params["show_alert"]) for a in api.alerts()] == [("Welcome", True)]
    assert api.pending_queries == {}
    # The next press carries the message as it is now.
    assert (
        updates.press(GROUP, ALICE, msg.message_id, 1)["callback_query"]["message"]["caption"]
        == "Joined: Bob"
    )


async def test_unchanged_edit_is_not_modified(
    app: App,
    api: FakeBotAPI,
    updates: UpdateFactory,
) -> None:
    await feed(app, updates.command(GROUP, ALICE, "new"))
    msg = api.last_message(GROUP)
    assert msg is not None

    await feed(app, updates.press(GROUP, ALICE, msg.message_id, "Same"))

    assert "Message is not modified" in app.bot_data["error"]
    assert api.calls[-2].error is not None and api.calls[-2].method == "editMessageCaption"
    with pytest.raises(BadRequest, match="Message is not modified"):
        await app.bot.edit_message_reply_markup(GROUP, msg.message_id, reply_markup=KEYBOARD)


async def test_edit_without_markup_drops_the_keyboard(
    app: App,
    api: FakeBotAPI,
    updates: UpdateFactory,
) -> None:
    await feed(app, updates.command(GROUP, ALICE, "new"))
    msg = api.last_message(GROUP)
    assert msg is not None

    await app.bot.edit_message_caption(GROUP, msg.message_id, caption="Started")

    assert (msg.caption, api.buttons(GROUP, msg.message_id)) == ("Started", [])


async def test_edits_and_deletes_of_missing_messages_fail(
    app: App,
    api: FakeBotAPI,
    updates: UpdateFactory,
) -> None:
    await feed(app, updates.command(GROUP, ALICE, "new"))
    with pytest.raises(BadRequest, match="Message to edit not found"):
        await app.bot.edit_message_text("x", chat_id=GROUP, message_id=99)
    assert await app.bot.delete_message(GROUP, 2)
    assert api.messages[GROUP][2].deleted and api.last_message(GROUP) is None
    with pytest.raises(BadRequest, match="Message to delete not found"):
        await app.bot.delete_message(GROUP, 2)
    with pytest.raises(BadRequest, match="Message to edit not found"):
        await app.bot.edit_message_caption(GROUP, 2, caption="gone")
    with pytest.raises(ValueError, match="no message 2"):
        updates.callback(GROUP, ALICE, 2, "join")


async def test_text_messages(app: App, api: FakeBotAPI, updates: UpdateFactory) -> None:
    await feed(app, updates.message(ALICE, ALICE, "hi"))  # opens the private chat
    sent = await app.bot.send_message(ALICE, "<b>Your</b> hand &amp; more", parse_mode=ParseMode.HTML)
    assert sent.text == "Your hand & more"
    assert api.last_message(ALICE) is not None and api.last_message(ALICE).text == "Your hand & more"  # type: ignore[union-attr]
    with pytest.raises(BadRequest, match="There is no caption"):
        await app.bot.edit_message_caption(ALICE, sent.message_id, caption="x")
    edited = await app.bot.edit_message_text("Your hand", ALICE, sent.message_id)
    assert edited.text == "Your hand" and edited.edit_date is not None
    with pytest.raises(BadRequest, match="Message text is empty"):
        await app.bot.send_message(ALICE, " ")
    with pytest.raises(BadRequest, match="Text buttons are unallowed"):
        await app.bot.send_message(
            ALICE, "x", reply_markup=InlineKeyboardMarkup([[InlineKeyboardButton("x")]])
        )
    with pytest.raises(BadRequest, match="Message is too long"):
        await app.bot.send_message(ALICE, "🂡" * 2049)  # 4098 UTF-16 code units
    with pytest.raises(BadRequest, match="Button_data_invalid"):
        await app.bot.send_message(
            ALICE,
            "x",
            reply_markup=InlineKeyboardMarkup([[InlineKeyboardButton("x", callback_data="x" * 65)]]),
        )


async def test_replies(app: App, api: FakeBotAPI) -> None:
    first = await app.bot.send_message(GROUP, "the table")
    reply = await app.bot.send_message(GROUP, "your move", reply_parameters=ReplyParameters(first.message_id))
    assert reply.reply_to_message is not None and reply.reply_to_message.message_id == first.message_id
    api.messages[GROUP][first.message_id].deleted = True
    with pytest.raises(BadRequest, match="Message to be replied not found"):
        await app.bot.send_message(GROUP, "x", reply_parameters=ReplyParameters(first.message_id))
    sent = await app.bot.send_message(
        GROUP, "x", reply_parameters=ReplyParameters(first.message_id, allow_sending_without_reply=True)
    )
    assert sent.reply_to_message is None


async def test_bot_cannot_write_first_to_a_user(app: App, updates: UpdateFactory) -> None:
    await app.bot.send_message(GROUP, "group chats are open")
    with pytest.raises(Forbidden, match="can't initiate conversation"):
        await app.bot.send_message(BOB, "hello")
    updates.message(BOB, BOB, "/start")
    assert (await app.bot.send_message(BOB, "hello")).chat.type == "private"


async def test_a_group_that_became_a_supergroup_is_refused_with_its_new_id(app: App, api: FakeBotAPI) -> None:
    sent = await app.bot.send_message(GROUP, "before the move")
    api.migrated[GROUP] = -1009999
    with pytest.raises(ChatMigrated) as refused:
        await app.bot.send_message(GROUP, "after the move")
    assert refused.value.new_chat_id == -1009999
    with pytest.raises(ChatMigrated):
        await app.bot.edit_message_text("edited", chat_id=GROUP, message_id=sent.message_id)


async def test_photo_by_file_id_and_media_group(app: App, api: FakeBotAPI) -> None:
    first = await app.bot.send_photo(GROUP, LOBBY)
    again = await app.bot.send_photo(GROUP, first.photo[-1].file_id, caption="again")
    assert api.photo(GROUP, again.message_id) == LOBBY and api.calls[-1].files == {}
    with pytest.raises(BadRequest, match="Wrong file identifier"):
        await app.bot.send_photo(GROUP, "no-such-file")
    with pytest.raises(BadRequest, match="Image_process_failed"):
        await app.bot.send_photo(GROUP, b"not an image")
    album = await app.bot.send_media_group(
        GROUP, [InputMediaPhoto(LOBBY), InputMediaPhoto(BOARD, caption="b")]
    )
    assert [api.photo(GROUP, m.message_id) for m in album] == [LOBBY, BOARD]
    assert album[1].caption == "b" and album[0].media_group_id == album[1].media_group_id


async def test_commands_are_kept_per_scope_and_language(app: App) -> None:
    await app.bot.set_my_commands([BotCommand("new", "New game")])
    await app.bot.set_my_commands([BotCommand("new", "Новая игра")], language_code="ru")
    await app.bot.set_my_commands([BotCommand("stop", "Stop")], scope=BotCommandScopeAllGroupChats())
    assert [c.description for c in await app.bot.get_my_commands()] == ["New game"]
    assert [c.description for c in await app.bot.get_my_commands(language_code="ru")] == ["Новая игра"]
    assert [c.command for c in await app.bot.get_my_commands(scope=BotCommandScopeAllGroupChats())] == [
        "stop"
    ]
    await app.bot.delete_my_commands()
    assert await app.bot.get_my_commands() == ()


async def test_members_admins_and_chat(app: App, api: FakeBotAPI, updates: UpdateFactory) -> None:
    updates.message(GROUP, BOB, "hi", first_name="Bob", title="Card club")
    api.set_admins(GROUP, [ALICE, BOB])
    assert isinstance(await app.bot.get_chat_member(GROUP, ALICE), ChatMemberOwner)
    bob = await app.bot.get_chat_member(GROUP, BOB)
    assert isinstance(bob, ChatMemberAdministrator) and bob.user.first_name == "Bob"
    assert isinstance(await app.bot.get_chat_member(GROUP, 3), ChatMemberMember)
    assert isinstance(await app.bot.get_chat_member(GROUP, BOT_ID), ChatMemberAdministrator)
    assert [m.user.id for m in await app.bot.get_chat_administrators(GROUP)] == [ALICE, BOB]
    chat = await app.bot.get_chat(GROUP)
    assert (chat.type, chat.title) == ("group", "Card club")


async def test_callback_queries_are_answered_once(
    app: App,
    api: FakeBotAPI,
    updates: UpdateFactory,
) -> None:
    await feed(app, updates.command(GROUP, ALICE, "new"))
    query = updates.callback(GROUP, ALICE, 2, "anything")["callback_query"]
    assert set(api.pending_queries) == {query["id"]}
    with pytest.raises(BadRequest, match="Message_too_long"):
        await app.bot.answer_callback_query(query["id"], "x" * 201)
    with pytest.raises(BadRequest, match="Message_too_long"):
        await app.bot.answer_callback_query(query["id"], "🦊" * 101)  # 202 UTF-16 code units
    await app.bot.answer_callback_query(query["id"], "ok")
    with pytest.raises(BadRequest, match="Query is too old"):
        await app.bot.answer_callback_query(query["id"])


async def test_unknown_methods_fail(app: App, api: FakeBotAPI) -> None:
    with pytest.raises(BadRequest, match=r"(?i)'senddice' is not supported"):
        await app.bot.send_dice(GROUP)
    assert api.calls[-1].method == "sendDice" and api.calls[-1].error is not None


async def test_get_updates_serves_pushed_updates(app: App, api: FakeBotAPI, updates: UpdateFactory) -> None:
    assert await app.bot.get_updates(timeout=5) == ()  # waits at most poll_wait, not 5 s
    api.push_update(updates.message(ALICE, ALICE, "one"))
    api.push_update(updates.message(ALICE, ALICE, "two"))
    got = await app.bot.get_updates(timeout=5)
    assert [u.message.text for u in got] == ["one", "two"]
    assert [u.update_id for u in await app.bot.get_updates(offset=got[-1].update_id)] == [got[-1].update_id]
    assert await app.bot.get_updates(offset=got[-1].update_id + 1) == ()


async def test_polling_application_end_to_end(api: FakeBotAPI, updates: UpdateFactory) -> None:
    application = Application.builder().token("123:TEST").request(api).get_updates_request(api).build()
    application.add_handler(CommandHandler("new", new_game))
    async with application:
        assert application.updater is not None
        await application.updater.start_polling(poll_interval=0, timeout=1)
        await application.start()
        api.push_update(updates.command(GROUP, ALICE, "new"))
        await asyncio.wait_for(api.wait_for_call("sendPhoto"), timeout=10)
        await application.updater.stop()
        await application.stop()
    assert api.photo(GROUP, 2) == LOBBY
    assert "deleteWebhook" in [c.method for c in api.calls]


async def test_keyboards_over_telegrams_limits_are_refused(app: App) -> None:
    """At most 8 buttons a row and 100 a message, as Telegram refuses, so tests fail where it would."""

    def keyboard(rows: int, per_row: int) -> InlineKeyboardMarkup:
        return InlineKeyboardMarkup(
            [
                [InlineKeyboardButton(f"{r}.{c}", callback_data=f"{r}.{c}") for c in range(per_row)]
                for r in range(rows)
            ]
        )

    await app.bot.send_message(GROUP, "fits", reply_markup=keyboard(12, 8))
    with pytest.raises(BadRequest, match=r"(?i)too many buttons in a row"):
        await app.bot.send_message(GROUP, "a long row", reply_markup=keyboard(1, 9))
    with pytest.raises(BadRequest, match=r"(?i)too many inline keyboard buttons"):
        await app.bot.send_message(GROUP, "many rows", reply_markup=keyboard(13, 8))
