"""Button presses, one handler per feature; `answers.pressed` answers every one of them.

A press names a table and the screen its message showed. It is accepted only for the current
screen, only from the table's own chat (or, for a seated person's own move, from their private
panel), and only from the seat that may act; anything else gets a short alert and changes nothing.
"""

from __future__ import annotations

import math
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from telegram import CallbackQuery, MaybeInaccessibleMessage, Update
from telegram.error import BadRequest
from telegram.ext import Application, CallbackQueryHandler, ContextTypes

from bot.adapters import ADAPTERS
from bot.chat import coins
from bot.chat.actions import (
    CONFIRMED,
    RESUME,
    delete_done,
    insufficient,
    open_table,
    set_language,
    table_action,
)
from bot.chat.answers import Answer, pressed
from bot.chat.callback import Callback, Kind
from bot.chat.context import is_group, services, topic_of
from bot.chat.menus import send_modes
from bot.economy.wallet import InsufficientFunds
from bot.tables import lifecycle
from bot.tables.lifecycle import Refusal, derived_id, game_of, state_of
from bot.tables.model import Phase, Table
from bot.tables.refusals import unchanged
from bot.tables.screens import game_keyboard, panel_keyboard
from bot.tables.store import VersionConflict
from i18n import LANGUAGES, t

#: Attempts at a change whose write lost to bookkeeping (a message id recorded meanwhile).
ATTEMPTS = 5


def _message(update: Update) -> MaybeInaccessibleMessage:
    """The message a press came from. Under a message a day or two old Telegram sends only its chat
    and id (PTB 22 makes a Message of them, dated 0; the type allows an InaccessibleMessage): that
    is all a press needs, since the callback data names the table."""
    query = update.callback_query
    assert query is not None
    if query.message is None:
        raise Refusal("This button is out of date.")
    return query.message


async def _current(
    context: ContextTypes.DEFAULT_TYPE, data: Callback, message: MaybeInaccessibleMessage, answer: Answer
) -> Table | None:
    """The table the press names, if the press is on its current screen. An outdated press is
    answered (saying when a held-back picture catches up), and its message brought up to date."""
    store = services(context).tables.store
    table = await store.get(message.chat.id, topic_of(message))
    if table is None or table.id != data.table:
        # A press on a private panel names a table of another chat.
        table = await store.get_by_id(data.table)
    if table is None or table.id != data.table:
        raise Refusal("This game is over.")
    if table.screen == data.version:
        return table
    publisher = services(context).tables.publisher
    wait = await publisher.catching_up(table)
    lang = table.lang
    if wait is not None and wait > 0:
        await answer(
            t(lang, "The picture is catching up: it changes in {seconds} s.", seconds=math.ceil(wait)),
            alert=True,
        )
    else:
        await answer(t(lang, "This button is out of date."), alert=True)
    await publisher.show(table)
    return None


async def _retrying(
    context: ContextTypes.DEFAULT_TYPE, table: Table, change: Callable[[Table], Awaitable[None]]
) -> None:
    """Make a change; if its write lost only to bookkeeping (the screen is unchanged), make it again
    on the fresh table; if the screen moved on, someone was faster."""
    store = services(context).tables.store
    for _ in range(ATTEMPTS):
        try:
            await change(table)
            return
        except VersionConflict:
            fresh = await store.get(table.chat_id, table.topic)
            if fresh is None or fresh.id != table.id or fresh.screen != table.screen:
                raise
            table = fresh
    raise VersionConflict(f"table {table.id}: {ATTEMPTS} attempts")


@pressed
async def on_lobby(
    update: Update, context: ContextTypes.DEFAULT_TYPE, data: Callback, answer: Answer
) -> None:
    message = _message(update)
    table = await _current(context, data, message, answer)
    if table is None:
        return
    user = update.callback_query.from_user  # type: ignore[union-attr]
    # Answered once the change is stored: the first pictures of a game (a trick game draws the table
    # and every person's hand) may take longer than the press's watchdog.
    await _retrying(
        context, table, lambda fresh: table_action(context, fresh, user, message.chat.id, data.action, answer)
    )


@pressed
async def on_move(update: Update, context: ContextTypes.DEFAULT_TYPE, data: Callback, answer: Answer) -> None:
    message = _message(update)
    table = await _current(context, data, message, answer)
    if table is None:
        return
    user = update.callback_query.from_user  # type: ignore[union-attr]
    seat = table.seat_of(user.id)
    if message.chat.id != table.chat_id and (seat is None or table.panels.get(seat) != message.message_id):
        raise Refusal("This button belongs to another chat.")
    tables = services(context).tables

    async def move(fresh: Table) -> None:
        # Stored before the answer, so a person is told only of a move that happened.
        await tables.commit(fresh, lifecycle.person_move(fresh, user.id, data.action), answer=answer)

    await _retrying(context, table, move)


@pressed
async def on_again(
    update: Update, context: ContextTypes.DEFAULT_TYPE, data: Callback, answer: Answer
) -> None:
    message = _message(update)
    table = await _current(context, data, message, answer)
    if table is None:
        return
    query = update.callback_query
    assert query is not None
    if message.chat.id != table.chat_id:
        raise Refusal("This button belongs to another chat.")
    tables = services(context).tables
    adapter = ADAPTERS[table.game]
    options = adapter.next_options(lifecycle.state_of(table), table.options)
    fresh = lifecycle.again(
        table,
        query.from_user.id,
        table_id=derived_id(table.chat_id, table.topic, "again", query.id),
        options=options,
        fill=adapter.fill_with_computers,
    )
    try:
        await tables.commit(table, fresh, answer=answer)
    except InsufficientFunds as short:
        raise insufficient(short) from short


@pressed
async def on_pick(update: Update, context: ContextTypes.DEFAULT_TYPE, data: Callback, answer: Answer) -> None:
    """The first step of a choice among many (a row, a suit): the message's buttons show that group."""
    message = _message(update)
    table = await _current(context, data, message, answer)
    if table is None:
        return
    user = update.callback_query.from_user  # type: ignore[union-attr]
    seat = table.seat_of(user.id)
    # In a private game the person's panel is the table's own message: it is a panel all the same.
    on_panel = seat is not None and table.panels.get(seat) == message.message_id
    if message.chat.id != table.chat_id and not on_panel:
        raise Refusal("This button belongs to another chat.")
    if not on_panel and message.message_id != table.message_id:
        raise Refusal("This button is out of date.")  # forged under another message: its buttons stay
    if (
        seat is None
        or table.phase is not Phase.PLAYING
        or seat not in game_of(table).to_move(state_of(table))
    ):
        raise Refusal("It is not your turn.")
    if not on_panel:
        await _reserve_group_edit(context, table.chat_id)
    await answer()
    opened = None if data.action == "-" else data.action
    if on_panel:
        assert seat is not None
        keyboard = panel_keyboard(table, seat, opened)
    else:
        keyboard = game_keyboard(table, context.bot.username, opened)
    try:
        await context.bot.edit_message_reply_markup(
            message.chat.id, message.message_id, reply_markup=keyboard
        )
    except BadRequest as error:
        if not unchanged(error):  # a double tap opens what the first opened already
            raise


async def _reserve_group_edit(context: ContextTypes.DEFAULT_TYPE, chat_id: int) -> None:
    """Count an edit a press makes of a group's message against the group's budget, or refuse it."""
    if is_group(chat_id) and (wait := await services(context).tables.publisher.budget.reserve(chat_id)) > 0:
        raise Refusal(
            "Telegram limits how often this chat's table may change: try again in {seconds} s.",
            seconds=math.ceil(wait),
        )


@pressed
async def on_menu(update: Update, context: ContextTypes.DEFAULT_TYPE, data: Callback, answer: Answer) -> None:
    """The /games menu: a game shows its modes; a mode opens a table (asking before it replaces a
    running private game)."""
    query = update.callback_query
    assert query is not None
    if data.action == RESUME:
        await _resume(context, query, _message(update), answer)
        return
    game_id, _, rest = data.action.partition(".")
    mode, _, flag = rest.partition(".")
    if flag == CONFIRMED:
        await _confirmed(update, context, data, game_id, mode, answer)
        return
    await answer()
    if not rest:
        await send_modes(update, context, game_id, edit=True)
        return
    if await open_table(update, context, game_id, mode, f"q{query.id}", ask=True):
        await delete_done(query)  # the table is the chat's message now


async def _confirmed(
    update: Update,
    context: ContextTypes.DEFAULT_TYPE,
    data: Callback,
    game_id: str,
    mode: str,
    answer: Answer,
) -> None:
    """«Yes, start a new game»: while the game it asked about still runs here, that game ends and
    the new one starts; the question is then deleted (its work is done). Pressed again, or after
    that game ended, it is out of date."""
    query, message = update.callback_query, _message(update)
    assert query is not None
    running = await services(context).tables.store.get(message.chat.id, topic_of(message))
    if running is None or running.id != data.table or running.phase is Phase.FINISHED:
        raise Refusal("This button is out of date.")
    await answer()
    await open_table(update, context, game_id, mode, f"q{query.id}", ask=False)
    await delete_done(query)


async def _resume(
    context: ContextTypes.DEFAULT_TYPE,
    query: CallbackQuery,
    message: MaybeInaccessibleMessage,
    answer: Answer,
) -> None:
    """The chat's running game, its message sent again at the foot of the chat; the question that
    offered it is then deleted (its work is done)."""
    tables = services(context).tables
    table = await tables.store.get(message.chat.id, topic_of(message))
    if table is None or table.phase is Phase.FINISHED:
        raise Refusal("This game is over.")
    await _reserve_group_edit(context, table.chat_id)
    await answer()
    await tables.publisher.bring_back(table, query.from_user.id)
    await delete_done(query)


@pressed
async def on_lang(update: Update, context: ContextTypes.DEFAULT_TYPE, data: Callback, answer: Answer) -> None:
    query = update.callback_query
    assert query is not None
    message = _message(update)
    if data.action not in LANGUAGES:
        raise Refusal("This button is out of date.")
    await set_language(context, message.chat, query.from_user.id, data.action)
    await answer()
    await delete_done(query)  # the choice is made: "Language: …" says which


def add_press_handlers(application: Application) -> None:  # type: ignore[type-arg]
    handlers: dict[Kind, Callable[[Update, ContextTypes.DEFAULT_TYPE], Coroutine[Any, Any, None]]] = {
        Kind.LOBBY: on_lobby,
        Kind.MOVE: on_move,
        Kind.AGAIN: on_again,
        Kind.PICK: on_pick,
        Kind.MENU: on_menu,
        Kind.LANG: on_lang,
        Kind.COIN: coins.on_coin,
    }
    for kind, handler in handlers.items():
        application.add_handler(CallbackQueryHandler(handler, pattern=f"^{kind.value}:"))
    # Anything else (forged, or from an older version of the bot) is answered as out of date.
    application.add_handler(CallbackQueryHandler(pressed(_unknown)))


async def _unknown(
    update: Update, context: ContextTypes.DEFAULT_TYPE, data: Callback, answer: Answer
) -> None:
    raise Refusal("This button is out of date.")
