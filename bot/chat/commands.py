"""Commands: /start, /help, /games, /new, /join, /leave, /stop, /lang (and the coin commands)."""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any

from telegram import InlineKeyboardButton, Update
from telegram.ext import Application, CommandHandler, ContextTypes, MessageHandler, filters

from bot.adapters import ADAPTERS
from bot.chat import callback, coins
from bot.chat.actions import (
    open_table,
    reply,
    reply_in_passing,
    set_language,
    table_action,
    tell_of_open_game,
)
from bot.chat.callback import Kind
from bot.chat.context import chat_lang, display_name, is_group, services, topic_of, user_lang, written_as
from bot.chat.keyboards import markup, rows_of
from bot.chat.menus import games_menu, send_menu, send_modes
from bot.tables import lifecycle
from bot.tables.lifecycle import Refusal
from bot.tables.model import Phase, Player, Table
from bot.tables.screens import STOPPED
from bot.tables.store import VersionConflict
from i18n import LANGUAGES, N_, t

#: Longest argument a command echoes back.
ECHO_CHARS = 40

Command = Callable[[Update, ContextTypes.DEFAULT_TYPE], Coroutine[Any, Any, None]]

AS_A_CHAT = N_(
    "You are writing as the group or as a channel: only a person can sit at a table or hold coins. "
    "Write as yourself, or press a game's button under /games."
)

BANDIT_RULES = N_(
    "One-legged bandit: a pirate slot machine. /spin pulls the lever: 5 free pulls a day (more on a "
    "streak of days), then 10 coins a pull. Three scrolls raise your pirate career, with a bonus for "
    "every rank up to old Flint's treasure. The paytable is on the machine."
)
COIN_HELP = N_(
    "Coins: /wallet shows your balance and last movements (and a refill once a day when you are "
    "broke), /top the leaderboards."
)


def _game_and_mode(text: str) -> tuple[str, str]:
    """`durak_transfer_hard` -> ("durak_transfer", "hard"): game ids may hold underscores themselves."""
    for game_id in sorted(ADAPTERS, key=len, reverse=True):
        if text == game_id or text.startswith(game_id + "_"):
            return game_id, text.removeprefix(game_id).removeprefix("_")
    return text, ""


def _request(update: Update) -> str:
    message = update.effective_message
    assert message is not None
    return f"m{message.message_id}"


async def cmd_start(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.effective_user is not None and update.effective_chat is not None
    payload = context.args[0] if context.args else ""
    if payload.startswith("new_"):
        game_id, mode = _game_and_mode(payload.removeprefix("new_"))
        if game_id.strip("_"):  # a link naming no game greets, as any link the bot does not know
            await _open_named(update, context, game_id, mode, ask=True)
            return
    if payload.startswith(("join_", "panel_")) and not is_group(update.effective_chat):
        kind, _, table_id = payload.partition("_")
        await _deep_link_to_table(update, context, kind, table_id)
        return
    await greet(update, context)


async def greet(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Hello and the games' menu: /start, and a group that has just added the bot (in a group whose
    game is open, that game is offered instead)."""
    assert update.effective_user is not None and update.effective_chat is not None
    lang = await chat_lang(context, update.effective_chat, update.effective_user)
    if await tell_of_open_game(update, context, lang):
        return
    if is_group(update.effective_chat):
        greeting = t(
            lang,
            "Hi! I host card and board games. Choose a game below to open a table here. "
            "/help explains everything.",
        )
    else:
        greeting = t(
            lang,
            "Hi! I host card and board games. Choose a game below, or add me to a group "
            "to play with friends. /help explains everything.",
        )
    await reply(update, greeting)
    await games_menu(update, context, lang)


async def _deep_link_to_table(
    update: Update, context: ContextTypes.DEFAULT_TYPE, kind: str, table_id: str
) -> None:
    """The lobby's "Play from the bot" link seats the person; "My panel" sends their panel again."""
    user = update.effective_user
    assert user is not None
    lang = await user_lang(context, user)
    tables = services(context).tables
    table = await tables.store.get_by_id(table_id[:16])
    if table is None or table.phase is Phase.FINISHED:
        await reply(update, t(lang, "This game is over."))
        return
    seat = table.seat_of(user.id)
    if kind == "join" and seat is None:
        try:
            await tables.commit(
                table, lifecycle.join(table, Player(user_id=user.id, name=display_name(user), lang=lang))
            )
        except (Refusal, VersionConflict) as error:
            message = (
                error.message
                if isinstance(error, Refusal)
                else "Someone was faster. Look at the table again."
            )
            await reply(update, t(lang, message, **(error.values if isinstance(error, Refusal) else {})))
            return
        await reply(update, t(lang, "You are at the table. Your cards will come here when the game starts."))
        return
    if seat is None:
        await reply(update, t(lang, "You are not playing at this table."))
    elif table.phase is Phase.PLAYING:
        await tables.publisher.resend_panel(table, seat)
    else:
        await reply(update, t(lang, "You are at the table. Your cards will come here when the game starts."))


async def cmd_help(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.effective_user is not None and update.effective_chat is not None
    lang = await chat_lang(context, update.effective_chat, update.effective_user)
    wanted = (context.args[0] if context.args else "").lower()
    if wanted in ADAPTERS:
        await reply(update, ADAPTERS[wanted].rules(lang))
        return
    if wanted in (coins.BANDIT, "spin"):
        await reply(update, t(lang, BANDIT_RULES))
        return
    games = "\n".join(
        f"{adapter.heading(lang)}: /new {game_id}, /help {game_id}" for game_id, adapter in ADAPTERS.items()
    )
    games += "\n" + coins.bandit_heading(lang) + ": /spin, /help bandit"
    text = t(
        lang,
        "Commands:\n/games: choose a game\n/new <game>: open a table\n/join, /leave: take or leave a seat\n"
        "/stop: end the game here\n/lang: language\n\nGames:\n{games}",
        games=games,
    )
    if wanted:  # a name we do not know: say so before the list it can be picked from
        text = t(lang, "There is no game called {name}.", name=wanted[:ECHO_CHARS]) + "\n\n" + text
    await reply(update, text + "\n\n" + t(lang, COIN_HELP))


async def on_other_message(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Anything else written to the bot privately (an unknown command, a greeting, a sticker) gets a
    pointer to the commands rather than silence; in a group the bot keeps quiet."""
    assert update.effective_user is not None and update.effective_chat is not None
    message = update.effective_message
    assert message is not None
    lang = await chat_lang(context, update.effective_chat, update.effective_user)
    words = (message.text or "").split(maxsplit=1)
    if words and words[0].startswith("/"):
        text = t(lang, "There is no command {command}.", command=words[0][:ECHO_CHARS]) + " "
    else:
        text = t(lang, "I answer commands and buttons.") + " "
    await reply(update, text + t(lang, "To pick a game: /games; every command: /help."))


async def cmd_games(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    await send_menu(update, context)


async def cmd_new(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    if not context.args:
        await send_menu(update, context)
        return
    game_id = context.args[0].lower()[:ECHO_CHARS]
    mode = context.args[1].lower()[:ECHO_CHARS] if len(context.args) > 1 else ""
    await _open_named(update, context, game_id, mode, ask=False)


async def _open_named(
    update: Update, context: ContextTypes.DEFAULT_TYPE, game_id: str, mode: str, *, ask: bool
) -> None:
    """A table of the game named by a command or a link; the bandit, which the menu lists beside the
    games, shows its lever as the menu does."""
    if game_id == coins.BANDIT:
        await send_modes(update, context, game_id, edit=False)
        return
    await open_table(update, context, game_id, mode, _request(update), ask=ask)


async def cmd_join(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    await _table_command(update, context, "join")


async def cmd_leave(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    await _table_command(update, context, "leave")


async def cmd_stop(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    await _table_command(update, context, "cancel")


async def _table_command(update: Update, context: ContextTypes.DEFAULT_TYPE, action: str) -> None:
    user, chat = update.effective_user, update.effective_chat
    assert user is not None and chat is not None
    table = await services(context).tables.store.unfinished(chat.id, topic_of(update.effective_message))
    lang = await chat_lang(context, chat, user)
    if table is None:
        await reply_in_passing(update, context, t(lang, "There is no game here. /games opens one."))
        return
    try:
        await table_action(context, table, user, chat.id, action, sender_chat=written_as(update))
    except Refusal as refusal:
        await reply_in_passing(update, context, t(lang, refusal.message, **refusal.values))
    except VersionConflict:
        await reply_in_passing(update, context, t(lang, "Someone was faster. Look at the table again."))
    else:
        # The table's message, which shows the change, may be far up the chat: a typed command
        # gets its answer here.
        await reply_in_passing(update, context, t(lang, _done(action, table)))


def _done(action: str, table: Table) -> str:
    """What a typed /join, /leave or /stop did to `table` (as it was before)."""
    lobby = table.phase is Phase.LOBBY
    if action == "join":
        return N_("You are at the table.")
    if action == "leave" and lobby:
        return N_("You have left the table.")
    if action == "leave" and not table.private:
        return N_("A computer plays your seat until you press «🙋 I'm back».")
    return N_("The table is closed.") if lobby else STOPPED


async def cmd_lang(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """`/lang en` sets the language at once; `/lang` alone offers the choice."""
    user, chat = update.effective_user, update.effective_chat
    assert user is not None and chat is not None
    lang = await chat_lang(context, chat, user)
    wanted = (context.args[0] if context.args else "").lower()
    if wanted in LANGUAGES:
        try:
            await set_language(context, chat, user.id, wanted, written_as(update))
        except Refusal as refusal:
            await reply_in_passing(update, context, t(lang, refusal.message, **refusal.values))
        return
    buttons = [
        InlineKeyboardButton(name, callback_data=callback.encode(Kind.LANG, "-", 0, code))
        for code, name in (("ru", "Русский"), ("en", "English"))
    ]
    await reply(update, t(lang, "Choose the language:"), markup(rows_of(buttons)))


def for_a_person(handler: Command) -> Command:
    """A command that seats its sender or moves their coins: refused when written on behalf of a
    chat (an anonymous admin, a channel), whose stand-in sender is the same for everyone."""

    async def run(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        if written_as(update) is None:
            await handler(update, context)
            return
        assert update.effective_chat is not None and update.effective_user is not None
        lang = await chat_lang(context, update.effective_chat, update.effective_user)
        await reply_in_passing(update, context, t(lang, AS_A_CHAT))

    return run


def add_command_handlers(application: Application) -> None:  # type: ignore[type-arg]
    for name, handler in (
        ("start", cmd_start),
        ("help", cmd_help),
        ("games", cmd_games),
        ("new", for_a_person(cmd_new)),
        ("join", for_a_person(cmd_join)),
        ("leave", for_a_person(cmd_leave)),
        ("stop", cmd_stop),
        ("lang", cmd_lang),
        ("spin", for_a_person(coins.cmd_spin)),
        ("wallet", for_a_person(coins.cmd_wallet)),
        ("top", coins.cmd_top),
    ):
        # A command is what was sent: editing an old message does not send it again.
        application.add_handler(CommandHandler(name, handler, filters.UpdateType.MESSAGE))
    # After the commands: only what none of them took.
    private_message = filters.ChatType.PRIVATE & filters.UpdateType.MESSAGE & ~filters.StatusUpdate.ALL
    application.add_handler(MessageHandler(private_message, on_other_message))
