"""Interface texts through gettext catalogs (i18n/locales/<lang>/LC_MESSAGES/messages.mo),
shared by every layer: the bot's captions and buttons, the pictures' texts and the games' labels.

Message ids are English. `t(lang, "...")`, `tn(lang, "...", "...", n)` and `tp(lang, context, "...")`
are the extraction keywords (see the README); `N_` marks a string for extraction where it is
translated later.
"""

from __future__ import annotations

import gettext
from functools import cache
from pathlib import Path

LOCALES_DIR = Path(__file__).with_name("locales")
LANGUAGES: tuple[str, ...] = ("ru", "en")
#: Telegram languages whose speakers usually read Russian better than English: they get Russian.
RUSSIAN_READERS: tuple[str, ...] = ("uk", "be", "kk", "ky", "uz", "tg")
DEFAULT_LANG = "ru"
DOMAIN = "messages"


@cache
def _catalog(lang: str) -> gettext.NullTranslations:
    return gettext.translation(DOMAIN, LOCALES_DIR, languages=[lang], fallback=True)


def t(lang: str, message: str, **values: object) -> str:
    text = _catalog(lang).gettext(message)
    return text.format(**values) if values else text


def tn(lang: str, singular: str, plural: str, n: int, **values: object) -> str:
    return _catalog(lang).ngettext(singular, plural, n).format(n=n, **values)


def tp(lang: str, context: str, message: str, **values: object) -> str:
    """`t` with a context, for short ids that mean different things in different places ("K")."""
    text = _catalog(lang).pgettext(context, message)
    return text.format(**values) if values else text


def N_(message: str) -> str:
    return message


def NP_(context: str, message: str) -> str:
    """`N_` for a message translated later with `tp(lang, context, message)`."""
    return message


def pick_language(telegram_code: str | None, default: str = DEFAULT_LANG) -> str:
    """Our language for a Telegram `language_code` ("ru", "en-US", "uk", ...)."""
    if not telegram_code:
        return default
    base = telegram_code.split("-")[0].lower()
    if base in LANGUAGES:
        return base
    return "ru" if base in RUSSIAN_READERS else "en"
