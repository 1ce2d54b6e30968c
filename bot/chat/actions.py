"""Opening tables and the lobby and table actions, shared by commands and buttons."""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable

from telegram import CallbackQuery, Chat, InlineKeyboardButton, InlineKeyboardMarkup, Message, Update, User
from telegram.error import BadRequest, Forbidden
from telegram.ext import ContextTypes

from bot.adapters import ADAPTERS
from bot.adapters.base import GameAdapter, PrivateMode
from bot.chat import callback
from bot.chat.answers import Notice
from bot.chat.callback import Kind
from bot.chat.context import (
    chat_lang,
    display_name,
    is_admin,
    is_group,
    may_send_pictures,
    services,
    topic_of,
    user_lang,
)
from bot.chat.keyboards import markup, rows_of
from bot.economy.wallet import InsufficientFunds
from bot.tables import lifecycle
from bot.tables.lifecycle import Refusal, derived_id, game_of, state_of
from bot.tables.model import Phase, Player, Table
from bot.tables.publisher import OPEN_BOT_NOTICE_SECONDS
from i18n import N_, t

#: The menu's mode for a group: a lobby (private modes start at once against computers).
GROUP_MODE = "lobby"
#: A menu button opens "<game>.<mode>"; one that may replace a running private game (asked
#: first) ends in ".ok".
CONFIRMED = "ok"
#: The menu action that brings a running game's message back to the foot of the chat.
RESUME = "resume"


def menu_button(label: str, action: str, table: str = "-") -> InlineKeyboardButton:
    """A menu's button; `table` names the game it is about, if any (a question to end it)."""
    return InlineKeyboardButton(label, callback_data=callback.encode(Kind.MENU, table, 0, action))


#: Said when the group does not let the bot send photos (its rights may change while a lobby waits).
NO_PICTURES = N_(
    "I may not send pictures in this chat, and every game is played on a picture. "
    "An admin can let me send photos, or make me an admin."
)


async def reply(update: Update, text: str, keyboard: InlineKeyboardMarkup | None = None) -> Message | None:
    """Answer a message under it; an update with no message (a membership change) in its chat."""
    if update.effective_message is not None:
        return await update.effective_message.reply_text(text, reply_markup=keyboard)
    if update.effective_chat is not None:
        return await update.effective_chat.send_message(text, reply_markup=keyboard)
    return None


#: How long a group keeps the bot's answer to a typed command that is not a game's message (/join,
#: /leave, /stop, a /new it cannot open, «A game is already open here», /wallet): the table's own
#: message shows what changed, the answer only that it was heard.
PASSING_SECONDS = 60


async def reply_in_passing(
    update: Update,
    context: ContextTypes.DEFAULT_TYPE,
    text: str,
    keyboard: InlineKeyboardMarkup | None = None,
) -> None:
    """Answer a typed command under it; in a group the answer goes after `PASSING_SECONDS`, so that a
    lobby filled by commands does not fill the chat as well."""
    sent = await reply(update, text, keyboard)
    if sent is not None and is_group(sent.chat):
        await services(context).tables.publisher.delete_later(sent.chat_id, sent.message_id, PASSING_SECONDS)


async def delete_done(query: CallbackQuery) -> None:
    """Delete the menu or question (words, never a picture) a press came from, its work done: only if
    the press is one of its own buttons (a client may send any button's data under any message)."""
    message = query.message
    if not isinstance(message, Message) or message.text is None or message.reply_markup is None:
        return
    buttons = (button.callback_data for row in message.reply_markup.inline_keyboard for button in row)
    if query.data in buttons:
        with contextlib.suppress(BadRequest):  # gone already
            await message.delete()


def insufficient(short: InsufficientFunds) -> Refusal:
    return Refusal(
        "Not enough coins: you have {balance}, this needs {needed}. /wallet",
        balance=short.balance,
        needed=short.needed,
    )


def mode_of(adapter: GameAdapter, key: str) -> PrivateMode | None:
    return next((mode for mode in adapter.private_modes if mode.key == key), None)


async def tell_of_open_game(update: Update, context: ContextTypes.DEFAULT_TYPE, lang: str) -> bool:
    """In a group whose game is not over, say so instead of offering games it could not open;
    whether it did."""
    chat = update.effective_chat
    assert chat is not None
    if not is_group(chat):
        return False
    if await services(context).tables.store.unfinished(chat.id, topic_of(update.effective_message)) is None:
        return False
    await _tell_open_game(update, context, lang)
    return True


def bring_down_button(lang: str) -> InlineKeyboardButton:
    """Sends the chat's game again as a new message, at the bottom of the chat."""
    return menu_button(t(lang, "⬇️ Bring the game down here"), RESUME)


async def _tell_open_game(update: Update, context: ContextTypes.DEFAULT_TYPE, lang: str) -> None:
    # Its message may be far up a busy chat by now. Said in passing: the game is what stays.
    down = markup([[bring_down_button(lang)]])
    text = t(lang, "A game is already open here: finish it, or its host or an admin can /stop it.")
    await reply_in_passing(update, context, text, down)


async def open_table(
    update: Update,
    context: ContextTypes.DEFAULT_TYPE,
    game_id: str,
    mode_key: str,
    request: str,
    *,
    ask: bool,
) -> bool:
    """A lobby in a group; in a private chat the game starts at once in the chosen mode. Whether
    the table is open (else the person was told why not, or asked first).

    `request` names the update (chat and message, or the press), so a retried update finds the
    table it made; with `ask`, a running private game is replaced only after a confirmation."""
    user, chat = update.effective_user, update.effective_chat
    assert user is not None and chat is not None
    lang = await chat_lang(context, chat, user)
    adapter = ADAPTERS.get(game_id)
    if adapter is None:
        text = t(lang, "There is no game called {name}. /games lists them.", name=game_id[:40])
        await reply_in_passing(update, context, text)
        return False
    if is_group(chat) and not adapter.in_groups:
        link = f"https://t.me/{context.bot.username}?start=new_{game_id}"
        button = InlineKeyboardMarkup([[InlineKeyboardButton(adapter.heading(lang), url=link)]])
        await reply_in_passing(
            update,
            context,
            t(lang, "{game} is played in a private chat with me.", game=adapter.title(lang)),
            button,
        )
        return False
    if not await may_send_pictures(context, chat.id):
        await reply(update, t(lang, NO_PICTURES))
        return False
    mode = mode_of(adapter, mode_key)
    if mode_key and mode is None and mode_key != GROUP_MODE:
        modes = ", ".join(mode.key for mode in adapter.private_modes)
        await reply_in_passing(
            update,
            context,
            t(
                lang,
                "{game} has no mode “{mode}”. Modes: {modes}.",
                game=game_id,
                mode=mode_key[:40],
                modes=modes,
            ),
        )
        return False
    if not is_group(chat) and mode is None and adapter.stake(adapter.private_modes[0].options) > 0:
        # A coin game starts with a choice of stake, never with a default one.
        await _choose_mode(update, adapter, lang, t(lang, "Choose your bet:"))
        return False
    tables = services(context).tables
    topic = topic_of(update.effective_message)
    table_id = derived_id(chat.id, topic, request)
    old = await tables.store.get(chat.id, topic)
    if old is not None and old.id == table_id:
        # This request was handled before (delivered again): its table stands; show it.
        await tables.publisher.show(old)
        return True
    if old is not None and old.phase is not Phase.FINISHED:
        if is_group(chat):
            await _tell_open_game(update, context, lang)
            return False
        if ask:
            title = ADAPTERS[old.game].title(lang)
            keyboard = markup(
                [
                    [
                        menu_button(
                            t(lang, "Yes, start a new game"),
                            f"{game_id}.{(mode or adapter.private_modes[0]).key}.{CONFIRMED}",
                            table=old.id,
                        )
                    ],
                    # Its message may have scrolled far up, or been deleted.
                    [menu_button(t(lang, "↩️ No, back to the game"), RESUME)],
                ]
            )
            await reply(
                update,
                t(lang, "You are playing {game} here. End it and start a new game?", game=title),
                keyboard,
            )
            return False
    me = Player(user_id=user.id, name=display_name(user), lang=lang)
    chosen = mode or adapter.private_modes[0]
    table = lifecycle.open_lobby(
        game_id,
        table_id=table_id,
        chat_id=chat.id,
        topic=topic,
        creator=me,
        lang=lang,
        private=not is_group(chat),
        options=chosen.options,
        turn_seconds=services(context).settings.group_turn_seconds,
    )
    if not is_group(chat):
        table = table.model_copy(update={"computer_level": chosen.level})
        for _ in range(chosen.computers):
            table = lifecycle.add_computer(table)
        table = lifecycle.start(table, fill=adapter.fill_with_computers)
    try:
        if old is not None and old.phase is not Phase.FINISHED:
            # In a private chat a new game ends the unfinished one, which says so; not for a bet the
            # person cannot cover.
            ending = lifecycle.replace(old, user.id)
            await tables.check_funds(user.id, [(old, ending), (None, table)])
            old = await tables.commit(old, ending)
        await tables.commit(old, table)
    except InsufficientFunds as short:
        refusal = insufficient(short)
        await reply(update, t(lang, refusal.message, **refusal.values))
        return False
    # The host's cards will be dealt in private, as a joiner's: say now if the bot may not write there,
    # under the lobby just sent (the menu pressed may be gone), for as long as such a notice stays.
    if table.phase is Phase.LOBBY and adapter.panels and not await _can_write_to(context, user.id, table):
        text = t(
            lang,
            "{name}, open the bot with «🤖 Play from the bot»: your cards will come there.",
            name=me.name,
        )
        note = await chat.send_message(text, message_thread_id=topic or None)
        await tables.publisher.delete_later(chat.id, note.message_id, OPEN_BOT_NOTICE_SECONDS)
    return True


async def _choose_mode(update: Update, adapter: GameAdapter, lang: str, prompt: str) -> None:
    buttons = [
        menu_button(t(lang, mode.label), f"{adapter.game_id}.{mode.key}") for mode in adapter.private_modes
    ]
    await reply(update, adapter.heading(lang) + "\n" + prompt, markup(rows_of(buttons, width=2)))


async def table_action(
    context: ContextTypes.DEFAULT_TYPE,
    table: Table,
    user: User,
    from_chat: int,
    action: str,
    answer: Callable[[], Awaitable[None]] | None = None,
    sender_chat: Chat | None = None,
) -> None:
    """Lobby and table actions, from buttons and commands alike. Rights are those in the table's
    own chat; from any other chat (a private panel) only the person's own moves are accepted. A
    command written on behalf of a chat (`sender_chat`) has an admin's rights if that chat is the
    group itself."""
    if from_chat != table.chat_id:
        raise Refusal("This button belongs to another chat.")
    tables = services(context).tables
    adapter = ADAPTERS[table.game]
    if action == "join":
        if table.phase is not Phase.LOBBY:
            raise Refusal("The game has already started.")
        new = lifecycle.join(
            table, Player(user_id=user.id, name=display_name(user), lang=await user_lang(context, user))
        )
        if adapter.panels and not await _can_write_to(context, user.id, table):
            raise Refusal("Open the bot first with «🤖 Play from the bot»: it seats you at once.")
    elif action == "leave":
        if table.phase is Phase.LOBBY:
            await tables.commit(table, lifecycle.leave_lobby(table, user.id), answer=answer)
            return
        new = lifecycle.stop(table) if table.private else lifecycle.hand_to_computer(table, user.id)
    elif action == "back":
        new = lifecycle.come_back(table, user.id)
    elif action == "hand":
        seat = table.seat_of(user.id)
        if seat is None or table.phase is not Phase.PLAYING:
            raise Refusal("You are not playing at this table.")
        lang = await user_lang(context, user)
        text = adapter.hand_text(game_of(table).view(state_of(table), seat), lang)
        if not text:
            raise Notice(t(lang, "This game has no hands of cards."))
        # Without a panel (the bot may not write to them yet) they cannot play: say where to, first,
        # since a long hand may fill the alert.
        raise Notice(text if seat in table.panels else t(lang, "Play from «🤖 My panel».") + "\n" + text)
    elif action.startswith("n."):
        # Public facts told to the presser alone: nothing is written to the group.
        view = game_of(table).view(state_of(table), None)
        names = tuple(player.name for player in table.players)
        note = adapter.note(action.removeprefix("n."), view, names, await user_lang(context, user))
        if note is None or table.phase is not Phase.PLAYING:
            raise Refusal("This button is out of date.")
        raise Notice(note)
    elif action.startswith("i."):
        view = game_of(table).view(state_of(table), None)
        text = adapter.info(action.removeprefix("i."), view, await user_lang(context, user))
        if text is None:
            raise Refusal("This button is out of date.")
        await context.bot.send_message(table.chat_id, text, message_thread_id=table.topic or None)
        return
    elif action == "computer":
        new = lifecycle.add_computer(table)
    elif action in ("start", "cancel") or action.startswith("o."):
        admin = await is_admin(context, table.chat_id, user.id, sender_chat)
        if not lifecycle.may_manage(table, user.id, admin):
            raise Refusal("Only the host or a chat admin can do that.")
        if action == "start":
            if not await may_send_pictures(context, table.chat_id):
                raise Refusal(NO_PICTURES)
            new = lifecycle.start(table, fill=adapter.fill_with_computers)
        elif action.startswith("o."):
            new = lifecycle.set_option(table, action.removeprefix("o."), adapter.variants)
        elif table.phase is Phase.LOBBY:
            await tables.commit(table, None, answer=answer)
            return
        else:
            new = lifecycle.stop(table)
    else:
        raise Refusal("This button is out of date.")
    try:
        await tables.commit(table, new, answer=answer)
    except InsufficientFunds as short:
        raise insufficient(short) from short


async def set_language(
    context: ContextTypes.DEFAULT_TYPE, chat: Chat, user_id: int, lang: str, sender_chat: Chat | None = None
) -> None:
    """The person's language in a private chat, the chat's (an admin's choice) in a group."""
    prefs = services(context).prefs
    if is_group(chat):
        if not await is_admin(context, chat.id, user_id, sender_chat):
            raise Refusal("Only a chat admin can change the chat's language.")
        await prefs.set_chat_lang(chat.id, lang)
    else:
        await prefs.set_lang(user_id, lang)
    await context.bot.send_message(chat.id, t(lang, "Language: English."))


async def _can_write_to(context: ContextTypes.DEFAULT_TYPE, user_id: int, table: Table) -> bool:
    """Whether the bot may message this person privately (they have started it): greet them there."""
    try:
        await context.bot.send_message(
            user_id, t(table.lang, "You are at the table. Your cards will come here when the game starts.")
        )
    except Forbidden:
        return False
    return True
