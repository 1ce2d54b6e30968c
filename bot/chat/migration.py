"""A group upgraded to a supergroup gets a new chat id, and Telegram refuses the old one from then
on: the chat's table, language and leaderboards move to the new id."""

from __future__ import annotations

from telegram import Update
from telegram.ext import Application, ContextTypes, MessageHandler, filters

from bot.chat.context import services


async def on_migrate(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Telegram tells the move twice (in the old chat and in the new one); either does it, and the
    other finds nothing left to move."""
    message = update.effective_message
    assert message is not None
    if message.migrate_to_chat_id is not None:
        old_chat, new_chat = message.chat.id, message.migrate_to_chat_id
    elif message.migrate_from_chat_id is not None:
        old_chat, new_chat = message.migrate_from_chat_id, message.chat.id
    else:
        return
    found = services(context)
    lang = await found.prefs.get_chat_lang(old_chat)
    if lang is not None:
        await found.prefs.set_chat_lang(new_chat, lang)
        await found.prefs.set_chat_lang(old_chat, None)
    await found.pulls.leaderboard.move_chat(old_chat, new_chat)
    await found.tables.publisher.move_chat(old_chat, new_chat)


def add_migration_handler(application: Application) -> None:  # type: ignore[type-arg]
    application.add_handler(MessageHandler(filters.StatusUpdate.MIGRATE, on_migrate))
