"""What a table looks like in its chat: the lobby text, or the turn picture with caption and buttons.

Group chats only ever get the public view (`view(state, None)`).
"""

from __future__ import annotations

from typing import NamedTuple

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.adapters import ADAPTERS
from bot.chat import callback
from bot.chat.callback import Kind
from bot.tables.lifecycle import game_of, state_of
from bot.tables.model import Phase, Table
from i18n import N_, t


class Screen(NamedTuple):
    text: str
    photo: bytes | None
    keyboard: InlineKeyboardMarkup | None


#: How the lobby names the computers' strength.
LEVEL_NAMES: dict[str, str] = {"easy": N_("easy"), "normal": N_("normal"), "hard": N_("strong")}


def names_of(table: Table) -> tuple[str, ...]:
    return tuple(("🤖 " if p.is_computer else "") + p.name for p in table.players)


def _button(table: Table, kind: Kind, label: str, action: str) -> InlineKeyboardButton:
    return InlineKeyboardButton(label, callback_data=callback.encode(kind, table.id, table.screen, action))


def _link(label: str, bot_username: str, payload: str) -> InlineKeyboardButton:
    return InlineKeyboardButton(label, url=f"https://t.me/{bot_username}?start={payload}")


def lobby_screen(table: Table, bot_username: str) -> Screen:
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
        ]
    ]
    if adapter.panels:
        keyboard.append([_link(t(lang, "🤖 Play from the bot"), bot_username, f"join_{table.id}")])
    keyboard += _settings_rows(table)
    keyboard.append([_button(table, Kind.LOBBY, t(lang, "Add computer"), "computer")])
    keyboard.append(
        [
            _button(table, Kind.LOBBY, t(lang, "Start"), "start"),
            _button(table, Kind.LOBBY, t(lang, "Cancel"), "cancel"),
        ]
    )
    return Screen("\n".join(lines), None, InlineKeyboardMarkup(keyboard))


def _settings_rows(table: Table) -> list[list[InlineKeyboardButton]]:
    """The host's lobby settings: the variant, each toggle with its state, the computers' strength."""
    lang = table.lang
    adapter = ADAPTERS[table.game]
    rows: list[list[InlineKeyboardButton]] = []
    if adapter.variants:
        rows.append([_button(table, Kind.LOBBY, "🔀 " + adapter.title(lang), "o.variant")])
    for name, label in adapter.toggles:
        value = table.options.get(name, game_of(table).default_options.get(name))
        rows.append([_button(table, Kind.LOBBY, ("☑️ " if value else "⬜ ") + t(lang, label), f"o.{name}")])
    if adapter.fill_with_computers:
        level = t(lang, LEVEL_NAMES[table.computer_level])
        rows.append([_button(table, Kind.LOBBY, t(lang, "Computers: {level}", level=level), "o.level")])
    return rows


def game_screen(table: Table, bot_username: str) -> Screen:
    """The public turn picture, caption and buttons (destinations, or Play again at the end)."""
    lang = table.lang
    adapter = ADAPTERS[table.game]
    game = game_of(table)
    state = state_of(table)
    view = game.view(state, None)
    names = names_of(table)
    caption = adapter.caption(view, names, lang)
    rows: list[list[InlineKeyboardButton]] = []
    if table.phase is Phase.PLAYING and adapter.panels:
        # Moves are made on the private panels; the group gets the ways to reach them.
        rows.append(
            [
                _button(table, Kind.LOBBY, t(lang, "🂠 My cards"), "hand"),
                _link(t(lang, "🤖 My panel"), bot_username, f"panel_{table.id}"),
            ]
        )
    elif table.phase is Phase.PLAYING:
        for seat in game.to_move(state):
            legal = game.legal_actions(state, seat)
            for row in adapter.keyboard(view, legal, lang):
                rows.append([_button(table, Kind.MOVE, b.label, b.action) for b in row])
    if table.phase is Phase.PLAYING:
        if any(p.away for p in table.players):
            rows.append([_button(table, Kind.LOBBY, t(lang, "🙋 I'm back"), "back")])
    else:
        if game.outcome(state) is None:
            caption += "\n" + t(lang, "The game was stopped.")
        if table.tally and len(table.players) > 1:
            caption += "\n" + tally_line(table)
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


def tally_line(table: Table) -> str:
    losses = ", ".join(f"{p.name} {table.tally.get(p.name, 0)}" for p in table.players)
    return t(table.lang, "Series, games lost: {losses}.", losses=losses)


def panel_screen(table: Table, seat: int) -> Screen:
    """A person's private panel: their own view, and buttons for what they may do now."""
    lang = table.players[seat].lang
    adapter = ADAPTERS[table.game]
    game = game_of(table)
    state = state_of(table)
    view = game.view(state, seat)
    names = names_of(table)
    legal = game.legal_actions(state, seat) if table.phase is Phase.PLAYING else ()
    rows = [
        [_button(table, Kind.MOVE, b.label, b.action) for b in row]
        for row in adapter.keyboard(view, legal, lang)
    ]
    photo = adapter.panel_picture(view, names, lang, legal)
    return Screen(
        adapter.panel_caption(view, names, lang), photo, InlineKeyboardMarkup(rows) if rows else None
    )


def screen_of(table: Table, bot_username: str) -> Screen:
    return (
        lobby_screen(table, bot_username) if table.phase is Phase.LOBBY else game_screen(table, bot_username)
    )
