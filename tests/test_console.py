"""The offline console, driven by a piped script against a small stand-in Application."""

from __future__ import annotations

import asyncio
import io
from pathlib import Path
from typing import Any

from PIL import Image
from telegram import InlineKeyboardButton, InlineKeyboardMarkup, InputMediaPhoto, Message, Update
from telegram.ext import Application, CallbackQueryHandler, CommandHandler, ContextTypes

from bot.offline.console import run_console
from bot.offline.fake_api import BOT_USERNAME, FakeBotAPI
from bot.settings import Settings

App = Application[Any, Any, Any, Any, Any, Any]


def png(color: str) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (40, 30), color).save(out, "PNG")
    return out.getvalue()


KEYBOARD = InlineKeyboardMarkup(
    [
        [
            InlineKeyboardButton("Join", callback_data="join"),
            InlineKeyboardButton("Late", callback_data="late"),
        ],
        [InlineKeyboardButton("My cards", url=f"https://t.me/{BOT_USERNAME}?start=panel")],
    ]
)


async def new_game(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.effective_message
    await update.effective_message.reply_photo(png("red"), caption="Lobby\nplayers: -", reply_markup=KEYBOARD)


async def start(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.effective_message
    await update.effective_message.reply_text(f"start {' '.join(context.args or [])}")


async def pressed(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    query = update.callback_query
    assert query and isinstance(query.message, Message)
    if query.data == "late":
        # Answered from a task after a delay, as a bot with background work would: the console waits.
        async def later() -> None:
            for _ in range(10):  # after the handler has returned and the console looked
                await asyncio.sleep(0)
            await query.answer("Not your turn", show_alert=True)

        context.application.create_task(later())
        return
    if query.from_user.id == 1:
        return  # left unanswered on purpose: the console warns
    media = InputMediaPhoto(png("blue"), caption=f"Lobby\nplayers: {query.from_user.first_name}")
    await query.edit_message_media(media, reply_markup=KEYBOARD)
    await query.answer("Joined")


def stand_in() -> App:
    api = FakeBotAPI()
    app = Application.builder().token("123:TEST").request(api).get_updates_request(api).updater(None).build()
    app.add_handler(CommandHandler("new", new_game))
    app.add_handler(CommandHandler("start", start))
    app.add_handler(CallbackQueryHandler(pressed))
    return app


async def play(script: str, tmp_path: Path, application: App) -> str:
    out = io.StringIO()
    settings = Settings(data_dir=tmp_path)
    await run_console(settings, io.StringIO(script), out, tmp_path / "img", application=application)
    return out.getvalue()


async def test_script_plays_a_lobby(tmp_path: Path) -> None:
    app = stand_in()
    script = "\n".join(
        [
            "# a replayable session",
            "in group 1",
            "/new grid",
            "as 2 Bob",
            "press 1",
            "2",
            "as 1",
            "1",
            "press 9",
            "press 3",
            "in group 1",
            "show",
            "quit",
            "never read",
        ]
    )

    text = await play(script, tmp_path, app)

    lines = text.splitlines()
    assert "Alice (1) in group -1001> /new grid" in lines
    assert "[chat -1001 · msg 2] Lobby" in lines
    assert "    players: -" in lines
    assert "    [1] Join  [2] Late" in lines
    assert "    [3] My cards ↗" in lines
    assert "[chat -1001 · msg 2 · edited] Lobby" in lines
    assert "    players: Bob" in lines
    assert "(toast to Bob) Joined" in lines
    assert "(alert to Bob) Not your turn" in lines
    assert "(warning: the bot did not answer this button press)" in lines
    assert "(message 2 has buttons 1-3)" in lines
    assert "Alice (1) in private> /start panel   (the deep link opened the private chat)" in lines
    assert "[chat 1 · msg 2] start panel" in lines
    assert "never read" not in text
    images = sorted((tmp_path / "img").iterdir())
    assert [p.name for p in images] == ["0001_chat-1001_msg2.png", "0002_chat-1001_msg2.png"]
    assert Image.open(images[1]).getpixel((0, 0)) == (0, 0, 255)
    assert f"    image: {images[1]}" in lines
    assert f"    image: {images[1]} (unchanged)" not in lines  # show reprints the latest picture as current
    # `show` reprints the group's message in its current state.
    assert lines[-6:-1] == [
        "[chat -1001 · msg 2 · edited] Lobby",
        "    players: Bob",
        f"    image: {images[1]}",
        "    [1] Join  [2] Late",
        "    [3] My cards ↗",
    ]


async def test_help_usage_and_end_of_input(tmp_path: Path) -> None:
    text = await play("help\nas x\nin nowhere\npress\nwait x\nadmin\n", tmp_path, stand_in())
    assert "  as 2 Bob           act as user 2, named Bob (the name is remembered)" in text
    assert "usage: as USER_ID [NAME]" in text
    assert "usage: in private | in group N | in -100123" in text
    assert "usage: press N [@MESSAGE_ID]" in text
    assert "usage: wait SECONDS" in text
    assert "(admin is for groups" in text


async def test_admin_and_wait(tmp_path: Path) -> None:
    app = stand_in()
    await play("in group 3\nadmin\nwait 0.01\nsay help\n", tmp_path, app)
    api = app.bot.request
    assert isinstance(api, FakeBotAPI)
    assert api.admins == {-1003: [1]}
    assert api.messages[-1003][1].text == "help"
