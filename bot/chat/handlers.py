"""Telegram handlers: turn commands and button presses into table transitions, store them, show them.

Every change goes through one path (`_commit`): transition -> compare-and-set in the store -> show.
A refusal or a lost race changes nothing and answers the user briefly.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime

from telegram import (
    BotCommand,
    BotCommandScopeAllGroupChats,
    BotCommandScopeAllPrivateChats,
    CallbackQuery,
    Chat,
    ChatMember,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    Message,
    Update,
    User,
)
from telegram.constants import ChatType
from telegram.error import Forbidden
from telegram.ext import Application, CallbackQueryHandler, CommandHandler, ContextTypes

from bot.adapters import ADAPTERS
from bot.chat import callback, coins
from bot.chat.callback import BadCallback, Callback, Kind
from bot.chat.coins import Coins
from bot.economy.stakes import Economy
from bot.economy.wallet import InsufficientFunds
from bot.settings import Settings
from bot.tables import lifecycle as tables
from bot.tables.lifecycle import Refusal
from bot.tables.model import Phase, Player, Table
from bot.tables.publisher import Publisher
from bot.tables.store import Preferences, TableStore, VersionConflict
from bot.tables.timers import Timers, stamp
from i18n import LANGUAGES, N_, pick_language, t

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Services:
    settings: Settings
    store: TableStore
    prefs: Preferences
    publisher: Publisher
    economy: Economy
    coins: Coins
    clock: Callable[[], datetime]
    timers: Timers


def services(context: ContextTypes.DEFAULT_TYPE) -> Services:
    found = context.bot_data["services"]
    assert isinstance(found, Services)
    return found


# ----- who, where, which language -------------------------------------------------------------


def topic_of(message: Message | None) -> int:
    return message.message_thread_id or 0 if message is not None and message.is_topic_message else 0


def is_group(chat: Chat) -> bool:
    return chat.type in (ChatType.GROUP, ChatType.SUPERGROUP)


async def user_lang(context: ContextTypes.DEFAULT_TYPE, user: User) -> str:
    chosen = await services(context).prefs.get_lang(user.id)
    return chosen or pick_language(user.language_code, services(context).settings.default_lang)


async def chat_lang(context: ContextTypes.DEFAULT_TYPE, chat: Chat, user: User) -> str:
    """A group's table speaks the chat's chosen language, else the language of whoever opened it."""
    if is_group(chat):
        chosen = await services(context).prefs.get_chat_lang(chat.id)
        if chosen:
            return chosen
    return await user_lang(context, user)


def display_name(user: User) -> str:
    return user.first_name[:32] or user.username or str(user.id)


async def is_admin(context: ContextTypes.DEFAULT_TYPE, chat: Chat, user_id: int) -> bool:
    if not is_group(chat):
        return True
    member = await context.bot.get_chat_member(chat.id, user_id)
    return member.status in (ChatMember.ADMINISTRATOR, ChatMember.OWNER)


# ----- the one write path ---------------------------------------------------------------------


async def _commit(context: ContextTypes.DEFAULT_TYPE, old: Table | None, new: Table | None) -> Table | None:
    """Store `new` in place of `old` (compare-and-set) and show it; None deletes the table."""
    store = services(context).store
    publisher = services(context).publisher
    if new is None:
        assert old is not None
        await store.delete(old)
        await publisher.retire(old)
        return None
    replacing = old is not None and old.id != new.id
    new = stamp(new, services(context).clock())
    # A new table may only take the place of a finished one (the store checks it).
    stored = await store.put(new, expected_version=None if old is None or replacing else old.version)
    await services(context).timers.schedule(stored)
    if replacing:
        assert old is not None
        await publisher.retire(old)
    stored = await services(context).economy.settle(store, stored)
    await publisher.show(stored)
    return stored


async def _commit_new(context: ContextTypes.DEFAULT_TYPE, old: Table | None, new: Table) -> None:
    """Start a new table: take the stakes first (nothing happens without them), refund if it fails."""
    economy = services(context).economy
    await economy.charge_stake(new)
    try:
        await _commit(context, old, new)
    except Exception:
        await economy.refund_stake(new)
        raise


async def _reply(update: Update, text: str) -> None:
    if update.effective_message is not None:
        await update.effective_message.reply_text(text)


# ----- commands -------------------------------------------------------------------------------


async def cmd_start(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.effective_user is not None and update.effective_chat is not None
    lang = await user_lang(context, update.effective_user)
    payload = context.args[0] if context.args else ""
    if payload.startswith("new_"):
        game_id, mode = _game_and_mode(payload.removeprefix("new_"))
        await open_table(update, context, game_id, mode)
        return
    if payload.startswith(("join_", "panel_")) and not is_group(update.effective_chat):
        await _deep_link_to_table(update, context, *payload.split("_", 1))
        return
    await _reply(
        update,
        t(
            lang,
            "Hi! I host card and board games. Choose a game below, or add me to a group "
            "to play with friends. /help explains everything.",
        ),
    )
    await send_menu(update, context)


def _game_and_mode(text: str) -> tuple[str, str]:
    """`durak_transfer_hard` -> ("durak_transfer", "hard"): game ids may hold underscores themselves."""
    for game_id in sorted(ADAPTERS, key=len, reverse=True):
        if text == game_id or text.startswith(game_id + "_"):
            return game_id, text.removeprefix(game_id).removeprefix("_")
    return text, ""


async def _deep_link_to_table(
    update: Update, context: ContextTypes.DEFAULT_TYPE, kind: str, table_id: str
) -> None:
    """The lobby's "Play from the bot" link seats the person; "My panel" sends their panel again."""
    user = update.effective_user
    assert user is not None
    lang = await user_lang(context, user)
    table = await services(context).store.get_by_id(table_id)
    if table is None or table.phase is Phase.FINISHED:
        await _reply(update, t(lang, "This game is over."))
        return
    seat = table.seat_of(user.id)
    if kind == "join" and seat is None:
        try:
            await _commit(
                context,
                table,
                tables.join(table, Player(user_id=user.id, name=display_name(user), lang=table.lang)),
            )
        except Refusal as refusal:
            await _reply(update, t(lang, refusal.message, **refusal.values))
            return
        await _reply(update, t(lang, "You are at the table. Your cards will come here when the game starts."))
        return
    if seat is None:
        await _reply(update, t(lang, "You are not playing at this table."))
        return
    if table.phase is Phase.PLAYING:
        await services(context).publisher.resend_panel(table, seat)
    else:
        await _reply(update, t(lang, "You are at the table. Your cards will come here when the game starts."))


async def cmd_help(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.effective_user is not None
    lang = await user_lang(context, update.effective_user)
    wanted = context.args[0] if context.args else ""
    if wanted in ADAPTERS:
        await _reply(update, ADAPTERS[wanted].rules(lang))
        return
    games = "\n".join(
        f"• {adapter.title(lang)}: /new {game_id}, /help {game_id}" for game_id, adapter in ADAPTERS.items()
    )
    await _reply(
        update,
        t(
            lang,
            "Commands:\n/games: choose a game\n/new <game>: open a table\n/join, /leave: "
            "take or leave a seat\n/stop: end the game here\n/lang: language\n\nGames:\n"
            "{games}",
            games=games,
        ),
    )


async def cmd_games(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    await send_menu(update, context)


async def send_menu(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.effective_user is not None and update.effective_chat is not None
    lang = await chat_lang(context, update.effective_chat, update.effective_user)
    rows: list[list[InlineKeyboardButton]] = []
    for game_id, adapter in ADAPTERS.items():
        if is_group(update.effective_chat):
            if adapter.in_groups:
                rows.append([_menu_button(adapter.title(lang), game_id)])
        else:
            rows.append(
                [
                    _menu_button(f"{adapter.title(lang)}: {t(lang, mode.label)}", f"{game_id}.{mode.key}")
                    for mode in adapter.private_modes
                ]
            )
    await _reply_markup(update, t(lang, "Choose a game:"), InlineKeyboardMarkup(rows))


def _menu_button(label: str, action: str) -> InlineKeyboardButton:
    return InlineKeyboardButton(label, callback_data=callback.encode(Kind.MENU, "-", 0, action))


async def _reply_markup(update: Update, text: str, markup: InlineKeyboardMarkup) -> None:
    if update.effective_message is not None:
        await update.effective_message.reply_text(text, reply_markup=markup)


async def cmd_new(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    if not context.args:
        await send_menu(update, context)
        return
    await open_table(
        update, context, context.args[0].lower(), context.args[1].lower() if len(context.args) > 1 else ""
    )


async def open_table(update: Update, context: ContextTypes.DEFAULT_TYPE, game_id: str, mode: str) -> None:
    """A lobby in a group; in a private chat the game starts at once in the chosen mode."""
    user, chat = update.effective_user, update.effective_chat
    assert user is not None and chat is not None
    lang = await chat_lang(context, chat, user)
    if game_id not in ADAPTERS:
        await _reply(update, t(lang, "There is no game called {name}. /games lists them.", name=game_id))
        return
    adapter = ADAPTERS[game_id]
    if is_group(chat) and not adapter.in_groups:
        link = f"https://t.me/{context.bot.username}?start=new_{game_id}"
        button = InlineKeyboardMarkup([[InlineKeyboardButton(adapter.title(lang), url=link)]])
        await _reply_markup(
            update, t(lang, "{game} is played in a private chat with me.", game=adapter.title(lang)), button
        )
        return
    topic = topic_of(update.effective_message)
    store = services(context).store
    old = await store.get(chat.id, topic)
    if old is not None and old.phase is not Phase.FINISHED and is_group(chat):
        await _reply(update, t(lang, "A game is already open here. Finish it or /stop it first."))
        return
    modes = {m.key: m for m in adapter.private_modes}
    if not is_group(chat) and mode not in modes and adapter.stake(adapter.private_modes[0].options) > 0:
        # A coin game starts with a choice of stake, never with a default one.
        buttons = [_menu_button(t(lang, m.label), f"{game_id}.{m.key}") for m in adapter.private_modes]
        await _reply_markup(
            update, adapter.title(lang) + "\n" + t(lang, "Choose your bet:"), InlineKeyboardMarkup([buttons])
        )
        return
    me = Player(user_id=user.id, name=display_name(user), lang=lang)
    chosen = modes.get(mode, adapter.private_modes[0])
    table = tables.open_lobby(
        game_id,
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
            table = tables.add_computer(table, t(lang, "Computer"))
        table = tables.start(table, computer_name=_fill_name(table))
    if old is not None and old.phase is not Phase.FINISHED:
        # In a private chat a new game ends the unfinished one.
        old = await store.put(tables.stop(old), expected_version=old.version)
    try:
        await _commit_new(context, old, table)
    except InsufficientFunds as short:
        await _reply(
            update,
            t(
                lang,
                "Not enough coins: you have {balance}, this needs {needed}. /wallet",
                balance=short.balance,
                needed=short.needed,
            ),
        )


async def cmd_join(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    await _lobby_command(update, context, "join")


async def cmd_leave(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    await _lobby_command(update, context, "leave")


async def cmd_stop(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    await _lobby_command(update, context, "cancel")


async def _lobby_command(update: Update, context: ContextTypes.DEFAULT_TYPE, action: str) -> None:
    user, chat = update.effective_user, update.effective_chat
    assert user is not None and chat is not None
    table = await services(context).store.get(chat.id, topic_of(update.effective_message))
    lang = await chat_lang(context, chat, user)
    if table is None or table.phase is Phase.FINISHED:
        await _reply(update, t(lang, "There is no game here. /games opens one."))
        return
    try:
        await table_action(context, table, user, chat, action)
    except Refusal as refusal:
        await _reply(update, t(table.lang, refusal.message, **refusal.values))
    except VersionConflict:
        await _reply(update, t(table.lang, "Someone was faster. Look at the table again."))


async def cmd_lang(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.effective_user is not None and update.effective_chat is not None
    lang = await chat_lang(context, update.effective_chat, update.effective_user)
    buttons = [
        [
            InlineKeyboardButton(name, callback_data=callback.encode(Kind.LANG, "-", 0, code))
            for code, name in (("ru", "Русский"), ("en", "English"))
        ]
    ]
    await _reply_markup(update, t(lang, "Choose the language:"), InlineKeyboardMarkup(buttons))


# ----- lobby and table actions (shared by buttons and commands) ------------------------------


def _fill_name(table: Table) -> str | None:
    """The computers' name when the game seats computers in every empty seat, else None."""
    return t(table.lang, "Computer") if ADAPTERS[table.game].fill_with_computers else None


class Notice(Exception):
    """Not an error: a short private answer to a press (an alert only the presser sees)."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = text


async def table_action(
    context: ContextTypes.DEFAULT_TYPE, table: Table, user: User, chat: Chat, action: str
) -> None:
    """Lobby and table actions, from buttons and commands alike."""
    lang = table.lang
    adapter = ADAPTERS[table.game]
    if action == "join":
        if table.phase is Phase.PLAYING:
            raise Refusal("The game has already started.")
        new = tables.join(
            table, Player(user_id=user.id, name=display_name(user), lang=await user_lang(context, user))
        )
        if adapter.panels and not await _can_write_to(context, user.id, table):
            raise Refusal("Open the bot first with the “Play from the bot” button: it seats you at once.")
    elif action == "leave":
        if table.phase is Phase.PLAYING:
            new = tables.hand_to_computer(table, user.id)
        else:
            await _commit(context, table, tables.leave_lobby(table, user.id))
            return
    elif action == "back":
        new = tables.come_back(table, user.id)
    elif action == "hand":
        seat = table.seat_of(user.id)
        if seat is None or table.phase is not Phase.PLAYING:
            raise Refusal("You are not playing at this table.")
        view = tables.game_of(table).view(tables.state_of(table), seat)
        raise Notice(adapter.hand_text(view, await user_lang(context, user)))
    elif action == "computer":
        new = tables.add_computer(table, t(lang, "Computer"))
    elif action in ("start", "cancel") or action.startswith("o."):
        if not tables.may_manage(table, user.id, await is_admin(context, chat, user.id)):
            raise Refusal("Only the host or a chat admin can do that.")
        if action == "start":
            new = tables.start(table, computer_name=_fill_name(table))
        elif action.startswith("o."):
            new = tables.set_option(table, action.removeprefix("o."), adapter.variants)
        elif table.phase is Phase.LOBBY:
            await _commit(context, table, None)
            return
        else:
            new = tables.stop(table)
    else:
        raise Refusal("This button is out of date.")
    await _commit(context, table, new)


async def _can_write_to(context: ContextTypes.DEFAULT_TYPE, user_id: int, table: Table) -> bool:
    """Whether the bot may message this person privately (they have started it): greet them there."""
    try:
        await context.bot.send_message(
            user_id, t(table.lang, "You are at the table. Your cards will come here when the game starts.")
        )
    except Forbidden:
        return False
    return True


# ----- button presses -------------------------------------------------------------------------


async def on_press(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    query = update.callback_query
    assert query is not None
    answered = False

    async def answer(message: str = "", **values: object) -> None:
        nonlocal answered
        lang = await user_lang(context, query.from_user)
        await query.answer(t(lang, message, **values) if message else None, show_alert=bool(message))
        answered = True

    try:
        await _handle_press(update, context, query, answer)
    except Notice as notice:
        await query.answer(notice.text, show_alert=True)
        answered = True
    except Refusal as refusal:
        await answer(refusal.message, **refusal.values)
    except VersionConflict:
        await answer(N_("Someone was faster. Look at the table again."))
    except Exception:
        if not answered:  # the error handler logs it; the user only needs to know nothing changed
            await answer(N_("Something went wrong. Please try again."))
        raise
    if not answered:
        await query.answer()


async def _handle_press(
    update: Update,
    context: ContextTypes.DEFAULT_TYPE,
    query: CallbackQuery,
    answer: Callable[..., Awaitable[None]],
) -> None:
    try:
        data = callback.decode(query.data)
    except BadCallback:
        await answer(N_("This button is out of date."))
        return
    user = query.from_user
    message = query.message if isinstance(query.message, Message) else None
    if message is None:
        await answer(N_("This button is out of date."))
        return
    chat = message.chat
    if data.kind is Kind.LANG:
        await _choose_lang(context, chat, user, data.action)
        await answer()
        return
    if data.kind is Kind.MENU and data.action in (coins.SPIN, coins.REFILL):
        await _coin_press(update, context, query, data, answer)
        return
    if data.kind is Kind.MENU:
        game_id, _, mode = data.action.partition(".")
        await answer()
        await open_table(update, context, game_id, mode)
        return
    store = services(context).store
    table = await store.get(chat.id, topic_of(message))
    if table is None or table.id != data.table:
        # A press on a private panel names a table of another chat.
        table = await store.get_by_id(data.table)
    if table is not None and table.id == data.table and table.screen != data.version:
        # The message may lag behind the table (a failed or deferred edit): bring it up to date.
        await services(context).publisher.show(table)
    _check_current(table, data)
    assert table is not None
    if data.kind is Kind.LOBBY:
        await table_action(context, table, user, chat, data.action)
    elif data.kind is Kind.MOVE:
        await _commit(context, table, tables.play(table, user.id, data.action))
    else:
        try:
            options = ADAPTERS[table.game].next_options(tables.state_of(table), table.options)
            fresh = tables.again(table, user.id, options, computer_name=_fill_name(table))
            await _commit_new(context, table, fresh)
        except InsufficientFunds as short:
            raise Refusal(
                "Not enough coins: you have {balance}, this needs {needed}. /wallet",
                balance=short.balance,
                needed=short.needed,
            ) from short
    await answer()


async def _coin_press(
    update: Update,
    context: ContextTypes.DEFAULT_TYPE,
    query: CallbackQuery,
    data: Callback,
    answer: Callable[..., Awaitable[None]],
) -> None:
    lang = await user_lang(context, query.from_user)
    if data.action == coins.REFILL:
        await answer()
        await _reply(update, await coins.refill(context, query.from_user.id, lang))
        return
    machine = query.message if isinstance(query.message, Message) else None
    owner = int(data.table, 16) if data.table != "-" else 0
    # Pressing Spin under someone else's machine spins your own, in a new message.
    refusal = await coins.spin(
        update, context, lang, f"q{query.id}", machine if owner == query.from_user.id else None
    )
    if refusal is not None:
        await answer(refusal)
    else:
        await answer()


async def cmd_spin(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    user, message = update.effective_user, update.effective_message
    assert user is not None and message is not None
    lang = await user_lang(context, user)
    refusal = await coins.spin(update, context, lang, f"m{message.chat_id}:{message.message_id}", None)
    if refusal is not None:
        await _reply(update, refusal)


async def cmd_wallet(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.effective_user is not None
    lang = await user_lang(context, update.effective_user)
    text, broke = await coins.wallet_text(context, update.effective_user.id, lang)
    if broke:
        await _reply_markup(update, text, coins.refill_keyboard(lang))
    else:
        await _reply(update, text)


async def cmd_top(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.effective_user is not None and update.effective_chat is not None
    lang = await chat_lang(context, update.effective_chat, update.effective_user)
    await _reply(update, await coins.top_text(context, update.effective_chat.id, lang))


def _check_current(table: Table | None, data: Callback) -> None:
    if table is None or table.id != data.table:
        raise Refusal("This game is over.")
    if table.screen != data.version:
        raise Refusal("This button is out of date.")


async def _choose_lang(context: ContextTypes.DEFAULT_TYPE, chat: Chat, user: User, lang: str) -> None:
    if lang not in LANGUAGES:
        raise Refusal("This button is out of date.")
    prefs = services(context).prefs
    if is_group(chat):
        if not await is_admin(context, chat, user.id):
            raise Refusal("Only the host or a chat admin can do that.")
        await prefs.set_chat_lang(chat.id, lang)
    else:
        await prefs.set_lang(user.id, lang)
    await context.bot.send_message(chat.id, t(lang, "Language: English."))


# ----- errors and commands menu --------------------------------------------------------------


async def on_error(update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Log, tell the user briefly. A move is stored whole or not at all; a picture that failed to
    update is brought up to date by the next press.

    A press has been answered by `on_press` already; a command gets a short reply here.
    """
    log.error("update failed", exc_info=context.error)
    if not isinstance(update, Update) or update.effective_user is None or update.callback_query is not None:
        return
    lang = pick_language(update.effective_user.language_code)
    text = t(lang, "Something went wrong. Please try again.")
    try:
        if update.effective_message is not None:
            await update.effective_message.reply_text(text)
    except Exception:  # the error may be Telegram itself being unreachable
        log.warning("could not report the error to the user", exc_info=True)


COMMANDS: tuple[tuple[str, str], ...] = (
    ("games", N_("Choose a game")),
    ("new", N_("Open a table: /new grid")),
    ("join", N_("Take a seat at the table")),
    ("leave", N_("Leave the table")),
    ("stop", N_("End the game here")),
    ("help", N_("How to play")),
    ("spin", N_("Pull the one-legged bandit")),
    ("wallet", N_("Your coins")),
    ("top", N_("Leaderboards")),
    ("lang", N_("Language")),
    ("start", N_("Start the bot")),
)


async def register_commands(application: Application) -> None:  # type: ignore[type-arg]
    for lang in LANGUAGES:
        commands = [BotCommand(name, t(lang, description)) for name, description in COMMANDS]
        for scope in (BotCommandScopeAllPrivateChats(), BotCommandScopeAllGroupChats()):
            await application.bot.set_my_commands(commands, scope=scope, language_code=lang)
        await application.bot.set_my_commands(commands, language_code=lang if lang != "en" else None)


def add_handlers(application: Application) -> None:  # type: ignore[type-arg]
    for name, handler in (
        ("start", cmd_start),
        ("help", cmd_help),
        ("games", cmd_games),
        ("new", cmd_new),
        ("join", cmd_join),
        ("leave", cmd_leave),
        ("spin", cmd_spin),
        ("wallet", cmd_wallet),
        ("top", cmd_top),
        ("stop", cmd_stop),
        ("lang", cmd_lang),
    ):
        application.add_handler(CommandHandler(name, handler))
    application.add_handler(CallbackQueryHandler(on_press))
    application.add_error_handler(on_error)
