"""What happens in Game 2, for the journal: every event is public (the game has no private cards).

Cells are indices into the layout (`core.games.grid_tarot_rules.LAYOUT`; the view carries the cell
codes); tokens are numbered 1 and 2 within their seat, as in the action codes.
"""

from __future__ import annotations

from core.cards import Card
from core.engine import Event, Seat


class TokenMoved(Event):
    """A token's move, ended on `end`: a closed card there was turned face up (the same-suit jump
    lands on an open one). `kind` is place, any (the Fool), steps, line (the Emperor), hermit or
    jump; `steps` the count of a step move."""

    seat: Seat
    token: int
    start: int | None
    end: int
    card: Card
    kind: str
    steps: int | None = None
    #: The move was the token's Empress D-move (rule 17).
    empress: bool = False
    #: The move was the Chariot's repeat (rule 22).
    repeat: bool = False
    #: The hopeless option it used (rule 19), if any.
    option: str | None = None


class OptionUsed(Event):
    """Rule 19: the same-suit jump took `cards` (the token's minor) into the pool and emptied
    `cell`; the other options laid `cards` from the pool on top of `cell`."""

    seat: Seat
    token: int
    option: str
    cards: tuple[Card, ...]
    cell: int
    taken: bool


class Taken(Event):
    """A High Priestess, Hierophant, Justice, Strength or Star went into the team's pool; `cell` is
    now empty."""

    seat: Seat
    team: int
    card: Card
    cell: int


class Returned(Event):
    """The token went back to the position it moved from; `cell` None: off the field (A2.7)."""

    seat: Seat
    token: int
    cell: int | None


class EmpressSet(Event):
    """The Empress opened at `cell`: the next move of each listed (seat, token) is a D-move."""

    seat: Seat
    cell: int
    tokens: tuple[tuple[Seat, int], ...]


class ChariotRepeat(Event):
    """The Chariot: the token repeats the move `kind` / `steps` now, or, if `possible` is False,
    stays on the Chariot and tries again next turn."""

    seat: Seat
    token: int
    kind: str
    steps: int | None
    possible: bool


class WheelTurned(Event):
    """The Wheel of Fortune flipped the path: `opened` cells now show `cards`, `closed` cells went
    face down."""

    seat: Seat
    cell: int
    opened: tuple[int, ...]
    cards: tuple[Card, ...]
    closed: tuple[int, ...]


class CardsClosed(Event):
    """Death (row and column), the Devil (three steps) or the Moon (the path) closed free cards."""

    seat: Seat
    arcanum: Card
    cell: int
    cells: tuple[int, ...]


class CardsOpened(Event):
    """The Sun (the path) or Judgment (three steps) turned closed cards face up, with no effect."""

    seat: Seat
    arcanum: Card
    cell: int
    cells: tuple[int, ...]
    cards: tuple[Card, ...]


class Swapped(Event):
    """The Hanged Man: the face-up `card` moved from `free` to `closed`, and the face-down card from
    `closed` to `free`; `free` None: nothing could be swapped (no free or no closed card)."""

    seat: Seat
    token: int
    free: int | None
    closed: int | None
    card: Card | None


class WorldMoved(Event):
    """The World and the token moved from `cell` (now empty) to the Centre, now passable."""

    seat: Seat
    token: int
    cell: int
    centre: int


class Skipped(Event):
    """The token had no legal move, even with the hopeless options: it skips this turn."""

    seat: Seat
    token: int
    #: Its pending Empress move lapsed with the skip.
    empress: bool = False


class TeamHopeless(Event):
    """Rule 23: no token of the team's seats can move (the team loses; several at once: a draw)."""

    team: int
    seats: tuple[Seat, ...]
