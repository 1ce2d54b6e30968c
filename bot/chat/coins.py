"""The coin side of the bot in Telegram: the bandit's pulls (`/spin`), `/wallet` and `/top`.

A pull is one message per person and chat: the machine's spin, then (Telegram loops animations) the
final still of the machine with its paytable and the result in the caption, and a Spin button;
the next pull edits it in place. A pull whose result a crash kept from the person is settled and
shown before their next one.
"""

from __future__ import annotations

import asyncio
from typing import Any, Final
from zoneinfo import ZoneInfo

from telegram import (
    Bot,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InputMediaAnimation,
    InputMediaPhoto,
    Message,
    Update,
)
from telegram.ext import ContextTypes

from bot import keys
from bot.chat import callback
from bot.chat.actions import NO_PICTURES, delete_done, reply_in_passing
from bot.chat.answers import Answer, pressed
from bot.chat.callback import Callback, Kind
from bot.chat.context import (
    Services,
    chat_lang,
    display_name,
    is_group,
    may_send_pictures,
    services,
    user_lang,
)
from bot.economy.leaderboard import Board
from bot.economy.pulls import Pull
from bot.economy.wallet import MIN_BET, START_BALANCE, InsufficientFunds, RefillRefused
from bot.runtime.later import Job
from bot.tables.lifecycle import Refusal
from core.games.bandit import CAREER, PULL_COST
from i18n import N_, t, tn
from render.bandit import render_bandit, render_spin_animation

#: The menu's entry for the bandit, and the Spin and Refill buttons' actions.
BANDIT: Final = "bandit"
SPIN: Final = "spin"
REFILL: Final = "refill"
#: The job that turns a spin into the machine's final still (once the reels have stopped).
STILL: Final = "bandit-still"
STILL_AFTER_SECONDS: Final = 2.5
#: How long a machine's message is known as its owner's: their lever spins it in place that long,
#: later in a new message. Its owner is recorded, not read from the lever's data, which a client may forge.
MACHINE_SECONDS: Final = 2 * 24 * 3600

#: Wallet movements in words, by the reason code the economy records.
REASONS: dict[str, str] = {
    "gold:stake": N_("Gold: bet"),
    "gold:payout": N_("Gold: tour sum"),
    "gold:refund": N_("Gold: bet returned"),
    "bandit": N_("Bandit: paid pull"),
    "bandit:win": N_("Bandit: win"),
    "refill": N_("Refill"),
}


def bandit_heading(lang: str) -> str:
    """The machine's name with its emoji, as the games' headings have theirs."""
    return "🎰 " + t(lang, "One-legged bandit")


def spin_keyboard(owner: int, lang: str) -> InlineKeyboardMarkup:
    data = callback.encode(Kind.COIN, format(owner, "x") if owner > 0 else "-", 0, SPIN)
    return InlineKeyboardMarkup([[InlineKeyboardButton(t(lang, "🎰 Spin"), callback_data=data)]])


def coins_text(lang: str, amount: int) -> str:
    return tn(lang, "{n} coin", "{n} coins", amount)


def _title(rank: int, lang: str) -> str:
    return t(lang, CAREER[rank].title)


def pull_caption(pull: Pull, lang: str, tz_name: str, who: str | None) -> str:
    view = pull.view
    lines = [bandit_heading(lang)]
    if who is not None:
        lines.append(t(lang, "{name}'s pull", name=who))
    if view.career_step:
        lines.append(
            t(
                lang,
                "📜 Three scrolls! New rank: {title}. Bonus +{bonus}.",
                title=t(lang, view.title),
                bonus=coins_text(lang, view.bonus),
            )
        )
        lines.append(t(lang, view.episode))
        if view.new_voyage:
            lines.append(t(lang, "A new voyage begins: the career starts again."))
    if view.win:
        lines.append(t(lang, "Win: {coins}.", coins=coins_text(lang, view.win)))
    elif not view.career_step:
        lines.append(t(lang, "No win this time."))
    lines.append(
        t(
            lang,
            "Rank: {title}. Balance: {coins}.",
            title=_title(view.rank, lang),
            coins=coins_text(lang, pull.balance),
        )
    )
    ticket = pull.ticket
    resets = ticket.resets_at.strftime("%H:%M")
    if ticket.paid:
        lines.append(
            t(
                lang,
                "This pull cost {coins}. Free pulls come back at {time} ({zone}).",
                coins=coins_text(lang, PULL_COST),
                time=resets,
                zone=tz_name,
            )
        )
    else:
        lines.append(
            tn(
                lang,
                "{n} free pull left today (streak: day {streak}); they reset at {time} ({zone}).",
                "{n} free pulls left today (streak: day {streak}); they reset at {time} ({zone}).",
                ticket.free_left,
                streak=ticket.streak,
                time=resets,
                zone=tz_name,
            )
        )
    return "\n".join(lines)


async def spin(
    update: Update, context: ContextTypes.DEFAULT_TYPE, pull_id: str, machine: Message | None
) -> str | None:
    """One pull for the update's user, after any pull a crash left unshown; a refusal text (for a
    reply or an alert) when it cannot be made."""
    user, chat = update.effective_user, update.effective_chat
    assert user is not None and chat is not None
    found = services(context)
    lang = await user_lang(context, user)
    if is_group(chat) and not await may_send_pictures(context, chat.id):
        # Asked before the pull: a pull the group cannot be shown would wait for the next spin.
        return t(lang, NO_PICTURES)
    tz = ZoneInfo(found.settings.timezone)
    for pending in await found.pulls.pending(user.id):
        if pending != pull_id:
            earlier = await found.pulls.pull(
                user.id, display_name(user), chat.id, pending, now=found.clock(), tz=tz
            )
            await _show(context, chat.id, earlier, lang, user.id, None, display_name(user))
            await found.pulls.shown(user.id, pending)
    try:
        pull = await found.pulls.pull(user.id, display_name(user), chat.id, pull_id, now=found.clock(), tz=tz)
    except InsufficientFunds as short:
        return t(
            lang,
            "No free pulls left today and a pull costs {coins}; your balance is {balance}. /wallet",
            coins=coins_text(lang, PULL_COST),
            balance=coins_text(lang, short.balance),
        )
    await _show(context, chat.id, pull, lang, user.id, machine, display_name(user))
    await found.pulls.shown(user.id, pull_id)
    return None


async def _show(
    context: ContextTypes.DEFAULT_TYPE,
    chat_id: int,
    pull: Pull,
    lang: str,
    owner: int,
    machine: Message | None,
    name: str,
) -> None:
    """The spin (a new message, or the owner's machine edited), then its still; a career step also
    sends its episode's picture."""
    settings = services(context).settings
    who = name if chat_id < 0 else None
    # The animation ends on the machine's still, with the same footer as the still that follows.
    animation = await asyncio.to_thread(
        render_spin_animation, pull.view, lang=lang, balance=pull.balance, free_left=pull.ticket.free_left
    )
    caption = pull_caption(pull, lang, settings.timezone, who)
    keyboard = spin_keyboard(owner, lang)
    if machine is not None:
        message = await context.bot.edit_message_media(
            InputMediaAnimation(animation, caption=caption),
            chat_id=chat_id,
            message_id=machine.message_id,
            reply_markup=keyboard,
        )
        message_id = message.message_id if isinstance(message, Message) else machine.message_id
    else:
        message_id = (
            await context.bot.send_animation(chat_id, animation, caption=caption, reply_markup=keyboard)
        ).message_id
    # The machine is this owner's, showing this pull: a still due for an earlier pull yields to it.
    await services(context).redis.set(
        keys.machine(chat_id, message_id), f"{owner}:{pull.ticket.pull_id}", ex=MACHINE_SECONDS
    )
    job = {
        "chat": chat_id,
        "message": message_id,
        "owner": owner,
        "name": name,
        "lang": lang,
        "pull": pull.ticket.pull_id,
    }
    await services(context).later.schedule(chat_id, STILL_AFTER_SECONDS, STILL, job)
    if pull.view.career_step:
        still = await asyncio.to_thread(
            render_bandit, pull.view, lang=lang, balance=pull.balance, free_left=pull.ticket.free_left
        )
        await context.bot.send_photo(chat_id, still, caption=t(lang, pull.view.episode))


async def machine_of(found: Services, chat_id: int, message_id: int) -> tuple[int, str] | None:
    """The owner of a machine's message and the pull it shows last, while it is remembered."""
    mark = await found.redis.get(keys.machine(chat_id, message_id))
    if mark is None:
        return None
    owner, _, pull_id = (mark.decode() if isinstance(mark, bytes) else str(mark)).partition(":")
    return int(owner), pull_id


def still_job(bot: Bot, found: Services) -> Job:
    """The job that replaces a spin by the machine's still, with the same caption."""

    async def run(job: dict[str, Any]) -> None:
        tz = ZoneInfo(found.settings.timezone)
        chat_id, owner, lang = int(job["chat"]), int(job["owner"]), str(job["lang"])
        shown = await machine_of(found, chat_id, int(job["message"]))
        if shown is not None and shown[1] != job["pull"]:
            return  # a later pull spins on this machine now; its own still follows it
        # Every step of a pull is idempotent per id: this only reads the pull back.
        pull = await found.pulls.pull(
            owner, str(job["name"]), chat_id, str(job["pull"]), now=found.clock(), tz=tz
        )
        still = await asyncio.to_thread(
            render_bandit, pull.view, lang=lang, balance=pull.balance, free_left=pull.ticket.free_left
        )
        caption = pull_caption(pull, lang, found.settings.timezone, str(job["name"]) if chat_id < 0 else None)
        await bot.edit_message_media(
            InputMediaPhoto(still, caption=caption),
            chat_id=chat_id,
            message_id=int(job["message"]),
            reply_markup=spin_keyboard(owner, lang),
        )

    return run


@pressed
async def on_coin(update: Update, context: ContextTypes.DEFAULT_TYPE, data: Callback, answer: Answer) -> None:
    query = update.callback_query
    assert query is not None
    lang = await user_lang(context, query.from_user)
    private = update.effective_chat is not None and not is_group(update.effective_chat)
    if data.action == REFILL:
        told = await refill(context, query.from_user.id, lang)
        if private:
            await answer()
            await context.bot.send_message(query.from_user.id, told)
        else:  # pressed in a group: told to the presser alone (the bot may not write to them privately)
            await answer(told, alert=True)
        return
    if data.action != SPIN or not (data.table == "-" or _is_hex(data.table)):
        raise Refusal("This button is out of date.")
    message = query.message if isinstance(query.message, Message) else None
    presser = query.from_user.id
    await answer()
    # The lever spins the presser's own machine in place; under anyone else's machine, under the
    # menu's words (which cannot become a picture) or a machine long forgotten, in a new message.
    shown = await machine_of(services(context), message.chat.id, message.message_id) if message else None
    machine = message if shown is not None and shown[0] == presser else None
    refusal = await spin(update, context, f"q{query.id}", machine)
    if refusal is not None and update.effective_chat is not None:
        await context.bot.send_message(update.effective_chat.id, refusal)
    elif private:
        # A private menu did its work: the machine is below. (In a group the lever under the menu's
        # words stays, anyone's to pull.)
        await delete_done(query)


def _is_hex(text: str) -> bool:
    return all(char in "0123456789abcdef" for char in text)


async def cmd_spin(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    message = update.effective_message
    assert message is not None
    refusal = await spin(update, context, f"m{message.chat_id}:{message.message_id}", None)
    if refusal is not None:
        await message.reply_text(refusal)


async def wallet_text(context: ContextTypes.DEFAULT_TYPE, user_id: int, lang: str) -> tuple[str, bool]:
    """The balance and the last ten movements in words; whether a refill may be asked for."""
    wallet = services(context).pulls.wallet
    balance = await wallet.balance(user_id)
    lines = [t(lang, "💰 Balance: {coins}.", coins=coins_text(lang, balance))]
    history = await wallet.history(user_id)
    if history:
        lines.append(t(lang, "Last movements:"))
        tz = ZoneInfo(services(context).settings.timezone)
        for m in history:
            reason = t(lang, REASONS[m.reason]) if m.reason in REASONS else m.reason
            lines.append(f"{m.at.astimezone(tz):%d.%m %H:%M}  {m.delta:+d}  {reason}  → {m.balance}")
    broke = balance < MIN_BET
    if broke:
        lines.append(
            t(
                lang,
                "Below the smallest bet: you may ask for a refill to {amount} once a day.",
                amount=coins_text(lang, START_BALANCE),
            )
        )
    return "\n".join(lines), broke


def refill_keyboard(lang: str) -> InlineKeyboardMarkup:
    data = callback.encode(Kind.COIN, "-", 0, REFILL)
    return InlineKeyboardMarkup([[InlineKeyboardButton(t(lang, "Refill"), callback_data=data)]])


async def refill(context: ContextTypes.DEFAULT_TYPE, user_id: int, lang: str) -> str:
    found = services(context)
    try:
        movement = await found.pulls.wallet.refill(
            user_id, now=found.clock(), tz=ZoneInfo(found.settings.timezone)
        )
    except RefillRefused as refused:
        if refused.reason == "already_today":
            return t(lang, "You have had today's refill. Come back tomorrow.")
        return t(lang, "A refill is only for a balance below {amount}.", amount=coins_text(lang, MIN_BET))
    return t(lang, "Refilled: your balance is {coins}.", coins=coins_text(lang, movement.balance))


async def cmd_wallet(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.effective_user is not None and update.effective_message is not None
    lang = await user_lang(context, update.effective_user)
    text, broke = await wallet_text(context, update.effective_user.id, lang)
    # In a group someone's balance and movements are chatter: they go after a minute.
    await reply_in_passing(update, context, text, refill_keyboard(lang) if broke else None)


async def cmd_top(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    chat, user, message = update.effective_chat, update.effective_user, update.effective_message
    assert chat is not None and user is not None and message is not None
    lang = await chat_lang(context, chat, user)
    board = services(context).pulls.leaderboard
    sections: list[tuple[str, int | None, Board]] = []
    if chat.id < 0:
        sections += [
            (t(lang, "This chat, by balance:"), chat.id, "balance"),
            (t(lang, "This chat, by career rank:"), chat.id, "rank"),
        ]
    sections += [
        (t(lang, "Everyone, by balance:"), None, "balance"),
        (t(lang, "Everyone, by career rank:"), None, "rank"),
    ]
    boards = [(heading, kind, await board.top(owner, kind)) for heading, owner, kind in sections]
    if not any(entries for _, _, entries in boards):  # a new bot: one line, not four empty boards
        await message.reply_text(
            t(lang, "The leaderboards are empty: /spin or a game for coins puts you on them.")
        )
        return
    lines: list[str] = []
    for heading, kind, entries in boards:
        lines.append(heading)
        if not entries:
            lines.append("  " + t(lang, "nobody yet: /spin or a game for coins puts you here"))
        for entry in entries:
            shown = _title(entry.score, lang) if kind == "rank" else coins_text(lang, entry.score)
            lines.append(f"  {entry.place}. {entry.name}: {shown}")
        lines.append("")
    await message.reply_text("\n".join(lines).strip())
