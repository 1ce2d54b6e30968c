"""What a table looks like in its chat: the lobby text, or the turn picture with caption and buttons.

Group chats only ever get the public view (`view(state, None)`).
"""

from __future__ import annotations

from typing import NamedTuple

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot import callback
from bot.adapters import ADAPTERS
from bot.callback import Kind
from bot.i18n import t
from bot.table import Phase, Table
from bot.tables import game_of, state_of


class Screen(NamedTuple):
    text: str
    photo: bytes | None
    keyboard: InlineKeyboardMarkup | None


def names_of(table: Table) -> tuple[str, ...]:
    return tuple(("🤖 " if p.is_computer else "") + p.name for p in table.players)


def _button(table: Table, kind: Kind, label: str, action: str) -> InlineKeyboardButton:
    return InlineKeyboardButton(label, callback_data=callback.encode(kind, table.id, table.screen, action))


def lobby_screen(table: Table) -> Screen:
    lang = table.lang
    adapter = ADAPTERS[table.game]
    game = game_of(table)
    lines = [
        f"🃏 {adapter.title(lang)}",
        t(lang, "Players ({count} of {most}):", count=len(table.players), most=game.max_players),
    ]
    for number, (player, name) in enumerate(zip(table.players, names_of(table), strict=True), start=1):
        crown = " 👑" if player.user_id == table.creator else ""
        lines.append(f"{number}. {name}{crown}")
    lines.append("")
    lines.append(
        t(
            lang,
            "Join, add a computer, and the host starts the game. /help {game} explains the rules.",
            game=table.game,
        )
    )
    keyboard = [
        [
            _button(table, Kind.LOBBY, t(lang, "Join"), "join"),
            _button(table, Kind.LOBBY, t(lang, "Leave"), "leave"),
        ],
        [_button(table, Kind.LOBBY, t(lang, "Add computer"), "computer")],
        [
            _button(table, Kind.LOBBY, t(lang, "Start"), "start"),
            _button(table, Kind.LOBBY, t(lang, "Cancel"), "cancel"),
        ],
    ]
    return Screen("\n".join(lines), None, InlineKeyboardMarkup(keyboard))


def game_screen(table: Table) -> Screen:
    """The public turn picture, caption and buttons (destinations, or Play again at the end)."""
    lang = table.lang
    adapter = ADAPTERS[table.game]
    game = game_of(table)
    state = state_of(table)
    view = game.view(state, None)
    names = names_of(table)
    caption = adapter.caption(view, names, lang)
    rows: list[list[InlineKeyboardButton]] = []
    if table.phase is Phase.PLAYING:
        for seat in game.to_move(state):
            legal = game.legal_actions(state, seat)
            for row in adapter.keyboard(view, legal, lang):
                rows.append([_button(table, Kind.MOVE, b.label, b.action) for b in row])
    else:
        if game.outcome(state) is None:
            caption += "\n" + t(lang, "The game was stopped.")
        rows.append([_button(table, Kind.AGAIN, t(lang, "Play again"), "again")])
    photo = adapter.picture(view, names, lang)
    return Screen(caption, photo, InlineKeyboardMarkup(rows) if rows else None)


def animation_of(table: Table) -> tuple[bytes, ...]:
    """The in-between pictures leading to the table's current picture (a reveal), if any."""
    if table.state is None:
        return ()
    adapter = ADAPTERS[table.game]
    view = game_of(table).view(state_of(table), None)
    names = names_of(table)
    return tuple(adapter.frame(view, names, table.lang, n) for n in range(1, adapter.frames(view) + 1))


def screen_of(table: Table) -> Screen:
    return lobby_screen(table) if table.phase is Phase.LOBBY else game_screen(table)
