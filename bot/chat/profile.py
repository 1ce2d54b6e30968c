"""What the bot shows of itself in Telegram, in each language: the command menu, the description
in a chat nobody has written in yet ("What can this bot do?") and the short one on its profile.

Set at every start, each only where Telegram holds something else: a bot restarted again and again
repeats no change (Telegram limits how often a bot may change its profile). None of it is needed to
play, so a refusal is logged and the bot starts all the same.
"""

from __future__ import annotations

import logging
from typing import Any, Final

from telegram import (
    Bot,
    BotCommand,
    BotCommandScope,
    BotCommandScopeAllGroupChats,
    BotCommandScopeAllPrivateChats,
)
from telegram.error import TelegramError

from bot.adapters import ADAPTERS
from i18n import LANGUAGES, N_, t

log = logging.getLogger(__name__)

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
#: Where the menu is set: the scopes override the default one, so an older menu set there goes too.
SCOPES: Final[tuple[BotCommandScope | None, ...]] = (
    BotCommandScopeAllPrivateChats(),
    BotCommandScopeAllGroupChats(),
    None,
)
#: Telegram's limits on the two descriptions.
MAX_DESCRIPTION: Final = 512
MAX_SHORT_DESCRIPTION: Final = 120


def description(lang: str) -> str:
    games = [adapter.title(lang) for adapter in ADAPTERS.values()] + [t(lang, "One-legged bandit")]
    return t(
        lang,
        "Card and board games from Russian rule sheets: {games}.\n\n"
        "Add me to a group to play with friends (one picture of the table, buttons under it), "
        "or start me here to play alone or against the computer.",
        games=", ".join(games),
    )


def short_description(lang: str) -> str:
    return t(lang, "Durak, Tarot trick games, a race, card grids, a treasure hunt and a pirate slot machine.")


async def register_profile(bot: Bot) -> None:
    """The menu and the descriptions in every language (English also for those we do not speak)."""
    for lang in LANGUAGES:
        code = None if lang == "en" else lang
        try:
            await _menu(bot, lang, code)
            await _descriptions(bot, lang, code)
        except TelegramError as error:
            log.warning("the bot's menu or description in %s could not be set: %s", lang, error)


async def _menu(bot: Bot, lang: str, code: str | None) -> None:
    commands = tuple(BotCommand(name, t(lang, text)) for name, text in COMMANDS)
    for scope in SCOPES:
        # The default scope in English serves every language without a menu of its own.
        where: dict[str, Any] = {"scope": scope, "language_code": lang if scope is not None else code}
        if await bot.get_my_commands(**where) != commands:
            await bot.set_my_commands(commands, **where)


async def _descriptions(bot: Bot, lang: str, code: str | None) -> None:
    long, short = description(lang), short_description(lang)
    if (await bot.get_my_description(language_code=code)).description != long:
        await bot.set_my_description(long, language_code=code)
    if (await bot.get_my_short_description(language_code=code)).short_description != short:
        await bot.set_my_short_description(short, language_code=code)
