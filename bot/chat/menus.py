"""The menu a new user meets first: the games (one or two a row), then the chosen game's modes."""

from __future__ import annotations

from telegram import InlineKeyboardButton, Message, Update
from telegram.error import BadRequest
from telegram.ext import ContextTypes

from bot.adapters import ADAPTERS
from bot.chat.actions import GROUP_MODE, bring_down_button, menu_button, reply, tell_of_open_game
from bot.chat.coins import BANDIT, bandit_heading, spin_keyboard
from bot.chat.context import chat_lang, is_group, services
from bot.chat.keyboards import markup, rows_of
from bot.tables.refusals import unchanged
from i18n import t


async def send_menu(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """The games, or in a group whose game is open, that game."""
    user, chat = update.effective_user, update.effective_chat
    assert user is not None and chat is not None
    lang = await chat_lang(context, chat, user)
    if not await tell_of_open_game(update, context, lang):
        await games_menu(update, context, lang)


async def games_menu(update: Update, context: ContextTypes.DEFAULT_TYPE, lang: str) -> None:
    """The games the chat may open (the bandit too), as buttons; in a private chat whose game is
    not over, led by a way back to it (its message may be far up, or deleted)."""
    chat = update.effective_chat
    assert chat is not None
    group = is_group(chat)
    buttons = [
        menu_button(adapter.heading(lang), game_id)
        for game_id, adapter in ADAPTERS.items()
        if adapter.in_groups or not group
    ]
    buttons.append(menu_button(bandit_heading(lang), BANDIT))
    rows = rows_of(buttons, width=2)
    if not group and await services(context).tables.store.unfinished(chat.id, 0) is not None:
        rows = [[bring_down_button(lang)], *rows]
    await reply(update, t(lang, "Choose a game:"), markup(rows))


async def send_modes(update: Update, context: ContextTypes.DEFAULT_TYPE, game_id: str, *, edit: bool) -> None:
    """The game's modes (in a group: its lobby), in place of the menu when `edit`."""
    user, chat = update.effective_user, update.effective_chat
    assert user is not None and chat is not None
    lang = await chat_lang(context, chat, user)
    if game_id == BANDIT:
        text = t(lang, "One-legged bandit") + "\n" + t(lang, "Pull the lever: /spin, or the button.")
        await _put(update, text, edit, spin_keyboard(user.id, lang).inline_keyboard[0])
        return
    adapter = ADAPTERS.get(game_id)
    if adapter is None:
        await reply(update, t(lang, "There is no game called {name}. /games lists them.", name=game_id[:40]))
        return
    if is_group(chat):
        buttons = [menu_button(t(lang, "Open a table here"), f"{game_id}.{GROUP_MODE}")]
    else:
        buttons = [
            menu_button(t(lang, mode.label), f"{game_id}.{mode.key}") for mode in adapter.private_modes
        ]
    text = adapter.heading(lang) + "\n" + t(lang, "/help {game} explains the rules.", game=game_id)
    await _put(update, text, edit, buttons)


async def _put(
    update: Update,
    text: str,
    edit: bool,
    buttons: tuple[InlineKeyboardButton, ...] | list[InlineKeyboardButton],
) -> None:
    keyboard = markup(rows_of(list(buttons), width=2))
    query = update.callback_query
    if edit and query is not None and isinstance(query.message, Message) and query.message.text is not None:
        try:
            await query.message.edit_text(text, reply_markup=keyboard)
        except BadRequest as error:
            if not unchanged(error):  # a double tap shows what the first showed already
                raise
    else:
        await reply(update, text, keyboard)
