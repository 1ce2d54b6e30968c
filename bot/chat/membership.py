"""The bot's own membership of a group: added, it greets the chat; removed or banned, the games
there stop, since nothing can be shown or pressed there any more (a notice that never came, as to a
bot down for over a day, is made up for by the timers: see `Timers.handle`)."""

from __future__ import annotations

from telegram import ChatMember, Update
from telegram.ext import Application, ChatMemberHandler, ContextTypes

from bot.chat.commands import greet
from bot.chat.context import is_group, services
from bot.tables.model import Phase

#: The bot is not in the chat.
ABSENT = (ChatMember.LEFT, ChatMember.BANNED)
#: The bot is in the chat and may write there.
PRESENT = (ChatMember.MEMBER, ChatMember.ADMINISTRATOR)


async def on_membership(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    change = update.my_chat_member
    assert change is not None
    if not is_group(change.chat):
        return  # a person blocking the bot: their private game waits for them
    was, now = change.old_chat_member.status, change.new_chat_member.status
    if now in ABSENT and was not in ABSENT:
        await services(context).tables.abandon_chat(change.chat.id, change.chat.title or "")
    elif now in PRESENT and was in ABSENT and not await _game_open(context, change.chat.id):
        await greet(update, context)


async def _game_open(context: ContextTypes.DEFAULT_TYPE, chat_id: int) -> bool:
    """Whether a game or lobby is open in the chat: then the bot needs no hello there, since the game
    came along as its group became a supergroup (Telegram tells that move as the bot joining the
    supergroup as well). A game the bot's removal stopped is over: added again, it greets."""
    return any(
        table.phase is not Phase.FINISHED for table in await services(context).tables.store.in_chat(chat_id)
    )


def add_membership_handler(application: Application) -> None:  # type: ignore[type-arg]
    application.add_handler(ChatMemberHandler(on_membership, ChatMemberHandler.MY_CHAT_MEMBER))
