"""What the bot shows of itself in Telegram, in each language: the command menu, the description
in a chat nobody has written in yet ("What can this bot do?") and the short one on its profile.

Set at every start, each only where Telegram holds something else: a bot restarted again and again
repeats no change (Telegram limits how often a bot may change its profile). None of it is needed to
play, so a refusal is logged and the bot starts all the same.
"""

from __future__ import annotations

import asyncio
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
from i18n import LANGUAGES, N_, RUSSIAN_READERS, t

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
#: Each Telegram language the profile is set for, with the language of ours it is written in (the
#: ones the bot answers in Russian get it in Russian). English serves every other language too.
PROFILE_LANGUAGES: Final = (
    *((lang, lang) for lang in LANGUAGES),
    *((code, "ru") for code in RUSSIAN_READERS),
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
    """The menu and the descriptions in every language, the languages at once (a start waits for
    them); a language whose call fails is logged and left for the next start."""
    await asyncio.gather(*(_register(bot, code, lang) for code, lang in PROFILE_LANGUAGES))


async def _register(bot: Bot, code: str, lang: str) -> None:
    try:
        await _menu(bot, code, lang)
        await _descriptions(bot, code, lang)
    except TelegramError as error:
        log.warning("the bot's menu or description for %s could not be set: %s", code, error)


def _default(code: str) -> str | None:
    """The language code to set a default scope or a description under: none for English, which
    thus also serves every language without one of its own."""
    return None if code == "en" else code


async def _menu(bot: Bot, code: str, lang: str) -> None:
    commands = tuple(BotCommand(name, t(lang, text)) for name, text in COMMANDS)
    for scope in SCOPES:
        where: dict[str, Any] = {
            "scope": scope,
            "language_code": code if scope is not None else _default(code),
        }
        if await bot.get_my_commands(**where) != commands:
            await bot.set_my_commands(commands, **where)


async def _descriptions(bot: Bot, code: str, lang: str) -> None:
    long, short, where = description(lang), short_description(lang), _default(code)
    if (await bot.get_my_description(language_code=where)).description != long:
        await bot.set_my_description(long, language_code=where)
    if (await bot.get_my_short_description(language_code=where)).short_description != short:
        await bot.set_my_short_description(short, language_code=where)
