"""The one keyboard builder: rows that fit a phone and Telegram's limits.

Telegram allows at most 8 buttons a row and 100 a message, and a phone shows about 32 characters a
row before it cuts labels. Rows are filled greedily within both; a choice among more than fit (77
closed cards, a long hand) is made in two steps: first the group (a row of the field, a suit), then
the item in it, with a way back.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.adapters.base import Choice

MAX_ROW = 8
MAX_BUTTONS = 100
#: Characters a phone shows in one row of buttons (each button's padding counted as 3).
ROW_CHARS = 32
BUTTON_PADDING = 3
#: Above this many choices a keyboard asks for the group first, when the choices have groups.
TWO_STEP_ABOVE = 40

Row = list[InlineKeyboardButton]


def rows_of(buttons: Sequence[InlineKeyboardButton], width: int = MAX_ROW) -> list[Row]:
    """Buttons in order, as many a row as fit a phone (and at most `width`)."""
    rows: list[Row] = []
    used = 0
    for button in buttons:
        cost = len(button.text) + BUTTON_PADDING
        if rows and len(rows[-1]) < min(width, MAX_ROW) and used + cost <= ROW_CHARS:
            rows[-1].append(button)
            used += cost
        else:
            rows.append([button])
            used = cost
    return rows


@dataclass(frozen=True)
class ChoiceKeyboard:
    """Turns choices into rows: `move` makes a choice's button, `group` a first-step button
    (opening that group), `back` the button that goes back to the groups."""

    move: Callable[[Choice], InlineKeyboardButton]
    group: Callable[[str, str], InlineKeyboardButton]
    back: Callable[[], InlineKeyboardButton]
    width: int = MAX_ROW

    def rows(self, choices: Sequence[Choice], *, room: int, opened: str | None = None) -> list[Row]:
        """The rows for `choices`, within `room` buttons (what the message has left)."""
        grouped = all(choice.group for choice in choices)
        if grouped and (opened is not None or len(choices) > min(room, TWO_STEP_ABOVE)):
            if opened is not None:
                inside = [choice for choice in choices if choice.group == opened]
                if inside:
                    return [*rows_of([self.move(c) for c in inside][: room - 1], self.width), [self.back()]]
            groups = dict.fromkeys((choice.group, choice.group_label) for choice in choices)
            return rows_of([self.group(key, label) for key, label in groups][:room], self.width)
        if len(choices) > room:
            raise ValueError(f"{len(choices)} choices without groups do not fit {room} buttons")
        return rows_of([self.move(choice) for choice in choices], self.width)


def markup(rows: Sequence[Row]) -> InlineKeyboardMarkup | None:
    """The keyboard, checked against Telegram's limits (a bug here would be refused by Telegram)."""
    if not rows:
        return None
    if any(len(row) > MAX_ROW for row in rows) or sum(map(len, rows)) > MAX_BUTTONS:
        raise ValueError("a keyboard over Telegram's limits")
    return InlineKeyboardMarkup([list(row) for row in rows])
