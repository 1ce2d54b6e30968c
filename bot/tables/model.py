"""The stored table: one game in one chat (or forum topic), from lobby to result.

It is what the store keeps as one JSON document; the game state inside it is the engine's own JSON,
so a table knows nothing of any particular game.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict

from core.engine import OptionValue


class Phase(StrEnum):
    LOBBY = "lobby"
    PLAYING = "playing"
    FINISHED = "finished"


class Player(BaseModel):
    """A seat's occupant: a person (user_id set) or a computer (user_id None)."""

    model_config = ConfigDict(frozen=True)

    user_id: int | None
    name: str
    lang: str = "ru"
    #: A person who left or kept timing out: a computer plays the seat until they are back.
    away: bool = False

    @property
    def is_computer(self) -> bool:
        return self.user_id is None or self.away


class Entry(BaseModel):
    """One event of the journal: what the engine said happened, who caused it and on which screen."""

    model_config = ConfigDict(frozen=True)

    #: The screen the event led to: captions tell the events since the screen last shown.
    screen: int
    #: The event class (`module:Class`) and its fields, as the engine made it.
    kind: str
    data: dict[str, Any]
    #: The seat that may see it, or None for everyone.
    audience: int | None = None
    #: The seat whose action caused it (None: chance), and whether a computer acted for a person.
    actor: int | None = None
    proxy: bool = False


class Table(BaseModel):
    model_config = ConfigDict(frozen=True)

    #: Short id carried in callback data, so a press on another table's message is refused. Derived
    #: from the request that created the table, so a retried request finds the table it made.
    id: str
    chat_id: int
    #: Forum topic (message_thread_id), 0 for a chat without topics.
    topic: int = 0
    game: str
    phase: Phase = Phase.LOBBY
    creator: int
    players: tuple[Player, ...] = ()
    options: dict[str, OptionValue] = {}
    #: Seat -> team, chosen in the lobby by games that seat teams; empty: every seat alone.
    teams: tuple[int, ...] = ()
    #: The engine state as its own JSON; None while in the lobby.
    state: str | None = None
    #: Seed of this table's chance driver (shuffles, first player).
    seed: int = 0
    #: Bumped by every write and checked by compare-and-set in the store.
    version: int = 0
    #: Bumped by every change a player can see; carried in callback data so an old button is refused.
    screen: int = 0
    #: Strength of the computers seated at this table.
    computer_level: str = "normal"
    #: The live table message (photo or lobby text) that every turn edits in place.
    message_id: int | None = None
    #: Whether the live message is a photo (edited with media) or text (the lobby).
    message_is_photo: bool = False
    private: bool = False
    #: Seat -> the message id of that person's private panel (games with panels).
    panels: dict[int, int] = {}
    #: Seat -> games lost over the series of games these seats played here.
    tally: dict[int, int] = {}
    #: Seconds a person has for a turn; 0 for no timer (private games).
    turn_seconds: int = 0
    #: When the people to move time out (epoch seconds), or None.
    deadline: float | None = None
    #: Seat -> timeouts in a row.
    strikes: dict[int, int] = {}
    lang: str = "ru"
    #: The latest events, oldest first, bounded (`bot/tables/journal.py`).
    journal: tuple[Entry, ...] = ()

    def seat_of(self, user_id: int) -> int | None:
        for seat, player in enumerate(self.players):
            if player.user_id == user_id:
                return seat
        return None

    @property
    def people(self) -> tuple[int, ...]:
        """Seats held by a person (away or not)."""
        return tuple(seat for seat, player in enumerate(self.players) if player.user_id is not None)
