"""The one codec for inline-button callback data: `prefix:table:version:action`, at most 64 bytes.

Every button the bot sends is encoded here and every press is parsed here, so a malformed or forged
payload is refused in one place before any handler looks at it.
"""

from __future__ import annotations

import re
from enum import StrEnum
from typing import NamedTuple

#: Telegram's limit on callback_data.
MAX_BYTES = 64

_TABLE = re.compile(r"[0-9a-z]{1,16}|-")
_ACTION = re.compile(r"[0-9A-Za-z_.,+=-]{1,40}")


class Kind(StrEnum):
    LOBBY = "l"  # join, leave, computer, start, cancel
    MOVE = "g"  # a game action code
    AGAIN = "r"  # play again after the result
    MENU = "n"  # open a new table from the /games menu ("-" as table)
    LANG = "s"  # choose the interface language
    PICK = "p"  # open a group of choices (a field row, a suit), or "-" to go back to the groups
    COIN = "c"  # the bandit's Spin (table: in hex, who it was shown to) and the wallet's refill


class Callback(NamedTuple):
    kind: Kind
    table: str
    version: int
    action: str


class BadCallback(ValueError):
    """The payload is not one this bot produced."""


def encode(kind: Kind, table: str, version: int, action: str) -> str:
    data = f"{kind.value}:{table}:{version}:{action}"
    if not _TABLE.fullmatch(table) or not _ACTION.fullmatch(action) or version < 0:
        raise ValueError(f"cannot encode callback {data!r}")
    if len(data.encode()) > MAX_BYTES:
        raise ValueError(f"callback data over {MAX_BYTES} bytes: {data!r}")
    return data


def decode(data: str | None) -> Callback:
    if not data or len(data.encode()) > MAX_BYTES:
        raise BadCallback("empty or oversized callback data")
    parts = data.split(":")
    if len(parts) != 4:
        raise BadCallback(f"malformed callback data {data!r}")
    kind, table, version, action = parts
    if kind not in Kind._value2member_map_ or not _TABLE.fullmatch(table) or not _ACTION.fullmatch(action):
        raise BadCallback(f"malformed callback data {data!r}")
    # isascii: str.isdigit() accepts "²", which int() refuses.
    if not (version.isascii() and version.isdigit()) or len(version) > 12:
        raise BadCallback(f"malformed version in {data!r}")
    return Callback(Kind(kind), table, int(version), action)
