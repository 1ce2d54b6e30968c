"""The coin side of the bot: the bandit's pulls (`/spin`), the wallet (`/wallet`) and `/top`.

A pull is one message per person and chat: the machine's spin animation with the result in the caption
and a Spin button, edited in place on the next pull. Its id comes from the update, so a retried or
doubled update neither charges nor pays twice and draws the same stops.
"""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass
from datetime import datetime
from zoneinfo import ZoneInfo

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, InputMediaAnimation, Message, Update, User
from telegram.ext import ContextTypes

from bot.chat import callback
from bot.chat.callback import Kind
from bot.economy.career import Career, RankMoved
from bot.economy.daily import Daily, PullTicket
from bot.economy.leaderboard import Leaderboard
from bot.economy.wallet import MIN_BET, START_BALANCE, InsufficientFunds, RefillRefused, Wallet
from core.engine import resolve_chance
from core.games.bandit import CAREER, PULL_COST, BanditGame, BanditView
from core.registry import GAMES
from i18n import t
from render.bandit import render_bandit, render_spin_animation

SPIN = "spin"
REFILL = "refill"


@dataclass(frozen=True)
class Pull:
    view: BanditView
    ticket: PullTicket
    balance: int


class Coins:
    """Pulls, balances and boards for one deployment (all state in Redis)."""

    def __init__(self, wallet: Wallet, daily: Daily, career: Career, leaderboard: Leaderboard) -> None:
        self.wallet = wallet
        self.daily = daily
        self.career = career
        self.leaderboard = leaderboard

    async def pull(self, user: User, chat_id: int, pull_id: str, *, now: datetime, tz: ZoneInfo) -> Pull:
        """Take a free pull or 10 coins, spin, settle rank and winnings; InsufficientFunds if broke."""
        ticket = await self.daily.take_pull(
            user.id, pull_id, now=now, tz=tz, cost=PULL_COST, wallet=self.wallet
        )
        rank = await self.career.rank(user.id)
        while True:
            view = await self._spin(pull_id, rank)
            try:
                settled = await self.career.settle(
                    user.id,
                    pull_id,
                    rank_before=view.rank_before,
                    rank_after=view.rank,
                    credit=view.win + view.bonus,
                    record={"rank_before": view.rank_before},
                    now=now,
                )
                break
            except RankMoved as moved:
                rank = moved.rank
        if settled.repeated and settled.record.get("rank_before") != view.rank_before:
            # A repeat of a pull settled earlier: show it as it was settled.
            view = await self._spin(pull_id, int(str(settled.record["rank_before"])))
        balance = settled.balance if settled.balance is not None else await self.wallet.balance(user.id)
        await self.leaderboard.record(
            user.id, user.first_name, chat_id if chat_id < 0 else None, balance=balance, rank=view.rank
        )
        return Pull(view, ticket, balance)

    async def _spin(self, pull_id: str, rank: int) -> BanditView:
        """The pull's result at `rank`: its stops depend only on the pull id."""
        game = GAMES["bandit"]
        assert isinstance(game, BanditGame)
        state, _ = resolve_chance(
            game, game.new(1, {"rank": rank}), random.Random(await self.career.seed(pull_id))
        )
        view: BanditView = game.view(state, 0)
        return view


def spin_keyboard(owner: int, lang: str) -> InlineKeyboardMarkup:
    data = callback.encode(Kind.MENU, format(owner, "x") if owner > 0 else "-", 0, SPIN)
    return InlineKeyboardMarkup([[InlineKeyboardButton(t(lang, "🎰 Spin"), callback_data=data)]])


def pull_caption(pull: Pull, lang: str, tz_name: str) -> str:
    view = pull.view
    ladder = CAREER[view.rank]
    title = ladder.title_ru if lang == "ru" else ladder.title_en
    lines = ["🎰 " + t(lang, "One-legged bandit")]
    if view.career_step:
        reached = view.title_ru if lang == "ru" else view.title_en
        lines.append(
            t(lang, "📜 Three scrolls! New rank: {title}. Bonus +{bonus}.", title=reached, bonus=view.bonus)
        )
        lines.append(view.episode_ru if lang == "ru" else view.episode_en)
        if view.new_voyage:
            lines.append(t(lang, "A new voyage begins: the career starts again."))
    if view.win:
        lines.append(t(lang, "Win: {win} coins.", win=view.win))
    elif not view.career_step:
        lines.append(t(lang, "No win this time."))
    lines.append(t(lang, "Rank: {title}. Balance: {balance}.", title=title, balance=pull.balance))
    ticket = pull.ticket
    resets = ticket.resets_at.strftime("%H:%M")
    if ticket.paid:
        lines.append(
            t(
                lang,
                "This pull cost {cost} coins. Free pulls come back at {time} ({zone}).",
                cost=PULL_COST,
                time=resets,
                zone=tz_name,
            )
        )
    else:
        lines.append(
            t(
                lang,
                "Free pulls left today: {count} (streak: day {streak}); they reset at {time} ({zone}).",
                count=ticket.free_left,
                streak=ticket.streak,
                time=resets,
                zone=tz_name,
            )
        )
    return "\n".join(lines)


async def show_pull(
    context: ContextTypes.DEFAULT_TYPE,
    chat_id: int,
    pull: Pull,
    lang: str,
    tz_name: str,
    owner: int,
    message: Message | None,
) -> None:
    """Send the spin, or edit the owner's machine in place; a career step also shows its episode."""
    # The animation ends on the machine's still, with the same footer as the still below.
    animation = await asyncio.to_thread(
        render_spin_animation, pull.view, lang=lang, balance=pull.balance, free_left=pull.ticket.free_left
    )
    caption = pull_caption(pull, lang, tz_name)
    keyboard = spin_keyboard(owner, lang)
    if message is not None and message.animation is not None:
        await context.bot.edit_message_media(
            InputMediaAnimation(animation, caption=caption),
            chat_id=chat_id,
            message_id=message.message_id,
            reply_markup=keyboard,
        )
    else:
        await context.bot.send_animation(chat_id, animation, caption=caption, reply_markup=keyboard)
    if pull.view.career_step:
        still = await asyncio.to_thread(
            render_bandit, pull.view, lang=lang, balance=pull.balance, free_left=pull.ticket.free_left
        )
        await context.bot.send_photo(
            chat_id, still, caption=pull.view.episode_ru if lang == "ru" else pull.view.episode_en
        )


# ----- handlers ------------------------------------------------------------------------------------


def _coins(context: ContextTypes.DEFAULT_TYPE) -> Coins:
    found = context.bot_data["services"].coins
    assert isinstance(found, Coins)
    return found


async def spin(
    update: Update, context: ContextTypes.DEFAULT_TYPE, lang: str, pull_id: str, machine: Message | None
) -> str | None:
    """One pull for the update's user; a refusal text (for a reply or an alert) when it cannot be made."""
    user, chat = update.effective_user, update.effective_chat
    assert user is not None and chat is not None
    settings = context.bot_data["services"].settings
    coins = _coins(context)
    try:
        pull = await coins.pull(
            user, chat.id, pull_id, now=context.bot_data["services"].clock(), tz=ZoneInfo(settings.timezone)
        )
    except InsufficientFunds as short:
        return t(
            lang,
            "No free pulls left today and a pull costs {cost}; your balance is {balance}. /wallet",
            cost=PULL_COST,
            balance=short.balance,
        )
    await show_pull(context, chat.id, pull, lang, settings.timezone, user.id, machine)
    return None


async def wallet_text(context: ContextTypes.DEFAULT_TYPE, user_id: int, lang: str) -> tuple[str, bool]:
    """The balance and the last ten movements; whether a refill may be asked for."""
    coins = _coins(context)
    balance = await coins.wallet.balance(user_id)
    lines = [t(lang, "💰 Balance: {balance} coins.", balance=balance)]
    history = await coins.wallet.history(user_id)
    if history:
        lines.append(t(lang, "Last movements:"))
        tz = ZoneInfo(context.bot_data["services"].settings.timezone)
        lines += [
            f"{m.at.astimezone(tz):%d.%m %H:%M}  {m.delta:+d}  {m.reason}  → {m.balance}" for m in history
        ]
    broke = balance < MIN_BET
    if broke:
        lines.append(
            t(
                lang,
                "Below the smallest bet: you may ask for a refill to {amount} once a day.",
                amount=START_BALANCE,
            )
        )
    return "\n".join(lines), broke


def refill_keyboard(lang: str) -> InlineKeyboardMarkup:
    data = callback.encode(Kind.MENU, "-", 0, REFILL)
    return InlineKeyboardMarkup([[InlineKeyboardButton(t(lang, "Refill"), callback_data=data)]])


async def refill(context: ContextTypes.DEFAULT_TYPE, user_id: int, lang: str) -> str:
    coins = _coins(context)
    settings = context.bot_data["services"].settings
    try:
        movement = await coins.wallet.refill(
            user_id, now=context.bot_data["services"].clock(), tz=ZoneInfo(settings.timezone)
        )
    except RefillRefused as refused:
        if refused.reason == "already_today":
            return t(lang, "You have had today's refill. Come back tomorrow.")
        return t(lang, "A refill is only for a balance below {amount}.", amount=MIN_BET)
    return t(lang, "Refilled: your balance is {balance}.", balance=movement.balance)


async def top_text(context: ContextTypes.DEFAULT_TYPE, chat_id: int, lang: str) -> str:
    board = _coins(context).leaderboard
    sections: list[tuple[str, int | None, str]] = []
    if chat_id < 0:
        sections += [
            (t(lang, "This chat, by balance:"), chat_id, "balance"),
            (t(lang, "This chat, by career rank:"), chat_id, "rank"),
        ]
    sections += [
        (t(lang, "Everyone, by balance:"), None, "balance"),
        (t(lang, "Everyone, by career rank:"), None, "rank"),
    ]
    lines: list[str] = []
    for heading, owner, kind in sections:
        entries = await board.top(owner, "balance" if kind == "balance" else "rank")
        lines.append(heading)
        if not entries:
            lines.append("  —")
        for entry in entries:
            score = int(entry.score)
            shown = (
                (CAREER[score].title_ru if lang == "ru" else CAREER[score].title_en)
                if kind == "rank"
                else score
            )
            lines.append(f"  {entry.place}. {entry.name}: {shown}")
        lines.append("")
    return "\n".join(lines).strip()
