"""What a table looks like in its chat: the lobby text, or the turn picture with caption and buttons.

Group chats only ever get the public view (`view(state, None)`) and the public journal. A caption
is the game's title, the journal lines since the screen the message showed last (so the events of
screens skipped under the edit budget are told too), and the game's status line.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Iterator, Sequence
from typing import NamedTuple

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.adapters import ADAPTERS
from bot.adapters.base import Caption, Choice, GameAdapter, Names
from bot.chat import callback
from bot.chat.callback import Kind
from bot.chat.keyboards import MAX_BUTTONS, ChoiceKeyboard, Row, markup
from bot.chat.lengths import MAX_CAPTION, clipped, utf16_len
from bot.tables import journal
from bot.tables.lifecycle import (
    LEVELS,
    LOBBY_IDLE_MINUTES,
    computers_at_start,
    game_of,
    replaced,
    state_of,
    team_layouts,
)
from bot.tables.model import Entry, Phase, Table
from core.engine import Event, GameOver, State
from i18n import N_, t, tn
from render.seats import COMPUTER_MARK
from render.stamp import stamped

#: Journal lines a caption shows at most: the latest ones.
MAX_LINES = 10
#: Under a stopped game's caption and across its picture.
STOPPED = N_("The game was stopped.")


class Screen(NamedTuple):
    text: str
    photo: bytes | None
    keyboard: InlineKeyboardMarkup | None


#: How the lobby names the computers' strength.
LEVEL_NAMES: dict[str, str] = {"easy": N_("easy"), "normal": N_("normal"), "hard": N_("strong")}
assert tuple(LEVEL_NAMES) == LEVELS


def names_of(table: Table) -> Names:
    """Names for the journal and the captions."""
    return tuple(player.name for player in table.players)


def seat_names(table: Table) -> Names:
    """Names for the pictures' seats: a computer's marked, and a person a computer plays for too."""
    return tuple((COMPUTER_MARK if player.is_computer else "") + player.name for player in table.players)


def _button(table: Table, kind: Kind, label: str, action: str) -> InlineKeyboardButton:
    return InlineKeyboardButton(label, callback_data=callback.encode(kind, table.id, table.screen, action))


def _link(label: str, bot_username: str, payload: str) -> InlineKeyboardButton:
    return InlineKeyboardButton(label, url=f"https://t.me/{bot_username}?start={payload}")


# ----- the lobby ---------------------------------------------------------------------------------


def lobby_screen(table: Table, bot_username: str) -> Screen:
    lang = table.lang
    adapter = ADAPTERS[table.game]
    game = game_of(table)
    lines = [
        adapter.heading(lang),
        t(lang, "Players ({count} of {most}):", count=len(table.players), most=game.max_players),
    ]
    for number, (player, name) in enumerate(zip(table.players, seat_names(table), strict=True), start=1):
        crown = " 👑" if player.user_id == table.creator else ""
        lines.append(f"{number}. {name}{crown}")
    full = len(table.players) >= game.max_players
    # A person may take a computer's seat at a full table; a table full of people takes nobody.
    seat_free = not full or any(player.is_computer for player in table.players)
    lines += ["", _lobby_hint(table, full, seat_free)]
    if filled := computers_at_start(table, adapter.fill_with_computers):
        lines.append(
            tn(
                lang,
                "At the start a computer takes the empty seat.",
                "At the start computers take the {n} empty seats.",
                filled,
            )
        )
    if not table.private:
        lines.append(
            tn(
                lang,
                "The table closes after {n} minute without a change.",
                "The table closes after {n} minutes without a change.",
                LOBBY_IDLE_MINUTES,
            )
        )
    join = [_button(table, Kind.LOBBY, t(lang, "Join"), "join")] if seat_free else []
    rows: list[Row] = [[*join, _button(table, Kind.LOBBY, t(lang, "Leave"), "leave")]]
    if adapter.panels and seat_free:
        rows.append([_link(t(lang, "🤖 Play from the bot"), bot_username, f"join_{table.id}")])
    rows += [[button] for button in _settings(table, adapter)]
    if not full:
        rows.append([_button(table, Kind.LOBBY, t(lang, "Add computer"), "computer")])
    rows.append(
        [
            _button(table, Kind.LOBBY, t(lang, "Start"), "start"),
            _button(table, Kind.LOBBY, t(lang, "Cancel"), "cancel"),
        ]
    )
    return Screen("\n".join(lines), None, markup(rows))


def _lobby_hint(table: Table, full: bool, seat_free: bool) -> str:
    """What the lobby waits for: more players, a person in a computer's seat, or only the host."""
    if not full:
        text = N_("Join, add a computer, and the host starts the game. /help {game} explains the rules.")
    elif seat_free:
        text = N_("Join in a computer's seat, or the host starts the game. /help {game} explains the rules.")
    else:
        text = N_("The table is full: the host starts the game. /help {game} explains the rules.")
    return t(table.lang, text, game=table.game)


def _settings(table: Table, adapter: GameAdapter) -> list[InlineKeyboardButton]:
    """The host's lobby settings, each a button that cycles its choices and shows the current one."""
    lang = table.lang
    game = game_of(table)
    buttons: list[InlineKeyboardButton] = []
    if adapter.variants:
        buttons.append(_button(table, Kind.LOBBY, "🔀 " + adapter.title(lang), "o.variant"))
    for spec in game.options:
        if spec.internal:
            continue
        value = table.options.get(spec.name, spec.default)
        shown = t(lang, spec.choice_label(value)) if spec.choice_labels else _plain_choice(value, lang)
        buttons.append(_button(table, Kind.LOBBY, f"⚙️ {t(lang, spec.label)}: {shown}", f"o.{spec.name}"))
    if game.teams and len(table.players) > 1:
        buttons.append(_button(table, Kind.LOBBY, "👥 " + teams_text(table), "o.teams"))
    if adapter.fill_with_computers or game.max_players > 1:
        level = t(lang, LEVEL_NAMES[table.computer_level])
        buttons.append(_button(table, Kind.LOBBY, t(lang, "Computers: {level}", level=level), "o.level"))
    return buttons


def _plain_choice(value: object, lang: str) -> str:
    if isinstance(value, bool):
        return t(lang, "yes") if value else t(lang, "no")
    return str(value)


def teams_text(table: Table) -> str:
    """ "1+3 vs 2+4": the seats of each team, by seat number."""
    teams = table.teams or team_layouts(len(table.players))[0]
    if len(set(teams)) == len(teams):
        return t(table.lang, "Teams: everyone alone")
    members = [
        [str(seat + 1) for seat, team in enumerate(teams) if team == number] for number in sorted(set(teams))
    ]
    return t(table.lang, "Teams: {teams}", teams=t(table.lang, " vs ").join("+".join(m) for m in members))


# ----- captions ----------------------------------------------------------------------------------


def journal_lines(table: Table, seat: int | None, since: int, lang: str) -> tuple[list[str], list[Event]]:
    """The journal's lines for `seat` (None: public) since screen `since`, widened to whole turns
    (`journal.told_from`); and the events since `since` (what the picture marks as new)."""
    adapter = ADAPTERS[table.game]
    names = names_of(table)
    lines: list[str] = []
    visible = list(journal.visible(table, seat, since=journal.told_from(table, since)))
    for told in _told_together(adapter, _not_summed_up(adapter, visible)):
        item, event = told[0]
        if len(told) == 1:
            line = describe(adapter, item, event, names, lang)
        else:
            line = adapter.runs[type(event)]([event for _, event in told], names, lang)
        if line:
            lines.append(line)
    return lines, [event for item, event in visible if item.screen > since]


def _not_summed_up(adapter: GameAdapter, visible: list[tuple[Entry, Event]]) -> Iterator[tuple[Entry, Event]]:
    """The events whose lines no later line tells (a trick's cards once it is won); a move a
    computer made for a person is told anyway, as it says so."""
    for n, (item, event) in enumerate(visible):
        if item.proxy or not any(adapter.sums_up(event, later) for _, later in visible[n + 1 :]):
            yield item, event


def _told_together(
    adapter: GameAdapter, visible: Iterable[tuple[Entry, Event]]
) -> Iterator[list[tuple[Entry, Event]]]:
    """The journal's events by line: a row of one kind the adapter tells together (`runs`), else
    each alone. A move a computer made for a person stays alone, as it says so."""
    told: list[tuple[Entry, Event]] = []
    for item, event in visible:
        kind = type(event)
        joins = (
            told
            and kind in adapter.runs
            and type(told[-1][1]) is kind
            and not (item.proxy or told[-1][0].proxy)
        )
        if told and not joins:
            yield told
            told = []
        told.append((item, event))
    if told:
        yield told


def _seat_away(event: Event, names: Names, lang: str) -> str:
    assert isinstance(event, journal.SeatAway)
    name = names[event.seat]
    if event.left:
        return t(
            lang, "🚪 {name} leaves: a computer plays the seat until they press «🙋 I'm back».", name=name
        )
    return t(
        lang,
        "⏰ {name} missed three turns: a computer plays the seat until they press «🙋 I'm back».",
        name=name,
    )


def _seat_back(event: Event, names: Names, lang: str) -> str:
    assert isinstance(event, journal.SeatBack)
    return t(lang, "🙋 {name} is back at the table.", name=names[event.seat])


#: The table's own events (not a game's), told in every game's journal.
TABLE_CAPTIONS: dict[type[Event], Caption] = {journal.SeatAway: _seat_away, journal.SeatBack: _seat_back}


def describe(adapter: GameAdapter, item: Entry, event: Event, names: Names, lang: str) -> str:
    """One journal line; a move a computer made for a person says so."""
    if isinstance(event, GameOver | journal.Replaced):
        return ""  # the status line tells the result, or that a new game replaced this one
    caption = TABLE_CAPTIONS.get(type(event)) or adapter.captions[type(event)]
    text = caption(event, names, lang)
    if item.proxy and item.actor is not None:
        name = names[item.actor]
        # "🤖 for Bob: plays 7♠", not "… for Bob: Bob plays 7♠".
        for own in (f"{name}: ", f"{name} "):
            if text.startswith(own) and len(text) > len(own):
                text = text[len(own) :]
                break
        return t(lang, "🤖 for {name}: {move}", name=name, move=text)
    return text


def caption_of(head: str, lines: Sequence[str], status: Sequence[str]) -> str:
    """Title, the latest journal lines, the status: within Telegram's caption limit."""
    shown = list(lines[-MAX_LINES:])
    skipped = len(lines) - len(shown)
    while True:
        body = ([f"… (+{skipped})"] if skipped else []) + shown
        text = "\n".join([head, *body, *status])
        if utf16_len(text) <= MAX_CAPTION or not shown:
            return clipped(text, MAX_CAPTION)
        shown.pop(0)
        skipped += 1


# ----- the public table and the panels -----------------------------------------------------------


def keyboard_for(table: Table, kind: Kind, choices: list[Choice], room: int, opened: str | None) -> list[Row]:
    adapter = ADAPTERS[table.game]
    builder = ChoiceKeyboard(
        move=lambda choice: _button(table, kind, choice.label, choice.action),
        group=lambda key, label: _button(table, Kind.PICK, label, key),
        back=lambda: _button(table, Kind.PICK, "◀️ " + t(table.lang, "Back"), "-"),
        width=adapter.row_width,
    )
    return builder.rows(choices, room=room, opened=opened)


def game_screen(table: Table, bot_username: str, since: int) -> Screen:
    """The public turn picture, caption and buttons (moves, or Play again at the end)."""
    lang = table.lang
    adapter = ADAPTERS[table.game]
    state = state_of(table)
    view = game_of(table).view(state, None)
    lines, events = journal_lines(table, None, since, lang)
    halted = stopped(table, state)
    status = status_lines(table, adapter.status(view, names_of(table), lang), lang, halted)
    photo = _stamped_if(halted, adapter.picture(view, seat_names(table), lang, events), lang)
    caption = caption_of(adapter.heading(lang), lines, status)
    return Screen(caption, photo, game_keyboard(table, bot_username))


def _stamped_if(halted: bool, photo: bytes, lang: str) -> bytes:
    """A stopped game's picture still shows whose turn it was: a band across it says it is over."""
    return stamped(photo, t(lang, STOPPED)) if halted else photo


def game_keyboard(table: Table, bot_username: str, opened: str | None = None) -> InlineKeyboardMarkup | None:
    """The buttons under the public picture; `opened` is the group shown of a two-step choice."""
    if replaced(table):
        return None
    lang = table.lang
    adapter = ADAPTERS[table.game]
    extra: list[Row] = []
    view = game_of(table).view(state_of(table), None)
    if table.phase is not Phase.PLAYING:
        info = [
            _button(table, Kind.LOBBY, c.label, f"i.{c.action}") for c in adapter.info_actions(view, lang)
        ]
        return markup([*([info] if info else []), [_again(table, lang)]])
    notes = [_button(table, Kind.LOBBY, c.label, f"n.{c.action}") for c in adapter.note_actions(view, lang)]
    if notes:
        extra.append(notes)
    if adapter.panels:
        # Moves are made on the private panels; the group gets the ways to reach them.
        extra.append(
            [
                _button(table, Kind.LOBBY, t(lang, "🂠 My cards"), "hand"),
                _link(t(lang, "🤖 My panel"), bot_username, f"panel_{table.id}"),
            ]
        )
    if any(player.away for player in table.players):
        extra.append([_button(table, Kind.LOBBY, t(lang, "🙋 I'm back"), "back")])
    rows: list[Row] = []
    if not adapter.panels:
        rows = keyboard_for(
            table, Kind.MOVE, _public_choices(table, lang), MAX_BUTTONS - sum(map(len, extra)), opened
        )
    return markup(rows + extra)


def stopped(table: Table, state: State) -> bool:
    """Whether the table's game (in `state`, loaded once by the caller) was stopped by a person: it
    did not end by its rules."""
    return table.phase is Phase.FINISHED and game_of(table).outcome(state) is None


def status_lines(table: Table, turn: str, lang: str, halted: bool) -> list[str]:
    """The end of a caption: the adapter's status (`turn`: whose turn and what to do, or the
    result), and under a finished game the series; a stopped game (`halted`) says so instead of
    whose turn it was, that its bet went back and where the game that replaced it is."""
    if table.phase is not Phase.FINISHED:
        return [turn]
    lines = [t(lang, STOPPED)] if halted else [turn]
    if halted and (stake := ADAPTERS[table.game].stake(table.options)):
        lines.append(tn(lang, "The bet is returned: {n} coin.", "The bet is returned: {n} coins.", stake))
    if replaced(table):
        lines.append(t(lang, "⬇️ A new game has begun below."))
    if table.tally and len(table.players) > 1:
        lines.append(tally_line(table, lang))
    return lines


def _again(table: Table, lang: str) -> InlineKeyboardButton:
    return _button(table, Kind.AGAIN, t(lang, "Play again"), "again")


def _public_choices(table: Table, lang: str) -> list[Choice]:
    """Buttons under a group's picture: the moves of whichever people are to move (same action
    codes merged: anyone allowed may press them)."""
    adapter = ADAPTERS[table.game]
    game = game_of(table)
    state = state_of(table)
    view = game.view(state, None)
    merged: dict[str, Choice] = {}
    names = names_of(table)
    for seat in game.to_move(state):
        if seat >= 0 and not table.players[seat].is_computer:
            for choice in adapter.choices(view, game.legal_actions(state, seat), names, lang):
                merged.setdefault(choice.action, choice)
    return list(merged.values())


def panel_screen(table: Table, seat: int, since: int, unless: str | None = None) -> tuple[str, Screen | None]:
    """A person's private panel: their own view and journal, and buttons for what they may do now;
    with what it looks like (a digest of everything it shows), and without the screen when that is
    `unless` (the panel shows it already: nothing is drawn)."""
    lang = table.players[seat].lang
    adapter = ADAPTERS[table.game]
    game = game_of(table)
    state = state_of(table)
    view = game.view(state, seat)
    legal = game.legal_actions(state, seat) if table.phase is Phase.PLAYING else ()
    lines, events = journal_lines(table, seat, since, lang)
    halted = stopped(table, state)
    status = status_lines(table, adapter.panel_status(view, names_of(table), lang), lang, halted)
    caption = caption_of(adapter.heading(lang), lines, status)
    keyboard = panel_keyboard(table, seat)
    names = seat_names(table)
    contents = [
        view.model_dump_json(),
        legal,
        repr(events),
        names,
        lang,
        caption,
        keyboard and keyboard.to_dict(),
    ]
    look = hashlib.sha256(json.dumps(contents, default=str).encode()).hexdigest()[:16]
    if look == unless:
        return look, None
    photo = _stamped_if(halted, adapter.panel_picture(view, names, lang, legal, events), lang)
    return look, Screen(caption, photo, keyboard)


def panel_keyboard(table: Table, seat: int, opened: str | None = None) -> InlineKeyboardMarkup | None:
    """A person's buttons on their panel; in a private game, where the panel is the only message,
    Play again at the end."""
    if table.phase is Phase.FINISHED and table.private:
        return None if replaced(table) else markup([[_again(table, table.players[seat].lang)]])
    if table.phase is not Phase.PLAYING:
        return None
    game = game_of(table)
    state = state_of(table)
    legal = game.legal_actions(state, seat)
    if not legal:
        return None
    lang = table.players[seat].lang
    choices = ADAPTERS[table.game].choices(game.view(state, seat), legal, names_of(table), lang)
    return markup(keyboard_for(table, Kind.MOVE, choices, MAX_BUTTONS, opened))


def animation_of(table: Table) -> tuple[bytes, ...]:
    """The in-between pictures leading to the table's current picture (a reveal), if any."""
    if table.state is None:
        return ()
    adapter = ADAPTERS[table.game]
    view = game_of(table).view(state_of(table), None)
    names = seat_names(table)
    return tuple(adapter.frame(view, names, table.lang, n) for n in range(1, adapter.frames(view) + 1))


def tally_line(table: Table, lang: str) -> str:
    losses = ", ".join(
        f"{player.name} {table.tally.get(seat, 0)}" for seat, player in enumerate(table.players)
    )
    return t(lang, "Games lost in this series: {losses}.", losses=losses)


def screen_of(table: Table, bot_username: str, since: int) -> Screen:
    if table.phase is Phase.LOBBY:
        return lobby_screen(table, bot_username)
    return game_screen(table, bot_username, since)
