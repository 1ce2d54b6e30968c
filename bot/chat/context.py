"""What every handler needs: the deployment's services, who and where an update is, which language."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

import redis.asyncio as aioredis
from telegram import (
    Chat,
    ChatMember,
    ChatMemberMember,
    ChatMemberRestricted,
    MaybeInaccessibleMessage,
    Message,
    Update,
    User,
)
from telegram.constants import ChatType
from telegram.ext import ContextTypes

from bot.economy.pulls import Pulls
from bot.runtime.later import Later
from bot.settings import Settings
from bot.tables.service import Tables
from bot.tables.store import Preferences
from bot.tables.timers import Timers
from i18n import pick_language
from render.seats import COMPUTER_MARK

#: Telegram's limit on a display name we echo back (its own limit is 64).
NAME_CHARS = 32


@dataclass(frozen=True)
class Services:
    settings: Settings
    redis: aioredis.Redis
    tables: Tables
    prefs: Preferences
    pulls: Pulls
    timers: Timers
    later: Later
    clock: Callable[[], datetime]


def services(context: ContextTypes.DEFAULT_TYPE) -> Services:
    found = context.bot_data["services"]
    assert isinstance(found, Services)
    return found


def topic_of(message: MaybeInaccessibleMessage | None) -> int:
    """The forum topic a message is in; 0 outside topics, and for a message Telegram no longer
    describes (a press's table is then found by its id)."""
    if isinstance(message, Message) and message.is_topic_message:
        return message.message_thread_id or 0
    return 0


def is_group(chat: Chat | int) -> bool:
    if isinstance(chat, int):
        return chat < 0
    return chat.type in (ChatType.GROUP, ChatType.SUPERGROUP)


def telegram_lang(context: ContextTypes.DEFAULT_TYPE, user: User) -> str:
    """The language Telegram says the person uses: what we speak when Redis cannot be asked."""
    return pick_language(user.language_code, services(context).settings.default_lang)


async def user_lang(context: ContextTypes.DEFAULT_TYPE, user: User) -> str:
    chosen = await services(context).prefs.get_lang(user.id)
    return chosen or telegram_lang(context, user)


async def chat_lang(context: ContextTypes.DEFAULT_TYPE, chat: Chat, user: User) -> str:
    """A group speaks the chat's chosen language, else the language of whoever is talking."""
    if is_group(chat):
        chosen = await services(context).prefs.get_chat_lang(chat.id)
        if chosen:
            return chosen
    return await user_lang(context, user)


#: Marks that turn the text after them around or isolate it (a name with an unclosed right-to-left
#: override would reverse the rest of every caption line that names it).
BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def display_name(user: User) -> str:
    """The name a table shows, without control characters and direction marks, a long one cut with
    "…"; a leading 🤖 is dropped, since it marks the computers' seats (their robot tokens too), so
    nobody may pass for a computer."""
    plain = "".join(
        c for c in user.first_name or "" if c not in BIDI_CONTROLS and unicodedata.category(c) != "Cc"
    )
    name = " ".join(plain.split()).lstrip(COMPUTER_MARK) or user.username or str(user.id)
    return name if len(name) <= NAME_CHARS else name[: NAME_CHARS - 1].rstrip() + "…"


def written_as(update: Update) -> Chat | None:
    """The chat a message was written on behalf of, not by a person: the group itself (an anonymous
    admin) or a channel. Telegram then names a stand-in account as its sender, the same for
    everyone, so it may not sit at a table or hold coins."""
    message = update.effective_message
    return message.sender_chat if message is not None else None


async def is_admin(
    context: ContextTypes.DEFAULT_TYPE, chat_id: int, user_id: int, sender_chat: Chat | None = None
) -> bool:
    """Whether the user administers `chat_id` (a private chat is its own user's). A message written
    on behalf of a chat (`sender_chat`) is an admin's when that chat is the group itself: only its
    admins may write as the group; written as a channel, it is nobody's."""
    if sender_chat is not None:
        return sender_chat.id == chat_id
    if not is_group(chat_id):
        return chat_id == user_id
    member = await context.bot.get_chat_member(chat_id, user_id)
    return member.status in (ChatMember.ADMINISTRATOR, ChatMember.OWNER)


async def may_send_pictures(context: ContextTypes.DEFAULT_TYPE, chat_id: int) -> bool:
    """Whether the bot may send photos to the chat (every game is played on a picture): in private
    it may (Telegram is not asked); in a group as an admin it may; restricted, as its restriction
    says; as a member, as the chat's default permissions for members say (many groups keep media
    from members)."""
    if not is_group(chat_id):
        return True
    member = await context.bot.get_chat_member(chat_id, context.bot.id)
    if isinstance(member, ChatMemberRestricted):
        return member.can_send_photos
    if isinstance(member, ChatMemberMember):
        permissions = (await context.bot.get_chat(chat_id)).permissions
        return permissions is None or permissions.can_send_photos is not False
    return True
