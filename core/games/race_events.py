"""What happens in Game 3 (the race), for the journal: every event is public.

Tokens are the index 0-2 in a seat's `tokens` (shown to people as 1-3); positions are track indices,
0 = Start, 1-36 = the cards, 37 = Finish.
"""

from __future__ import annotations

from typing import Literal

from core.cards import Card
from core.engine import Event, Seat


class FirstPlayer(Event):
    """A3.8: the first player was drawn."""

    seat: Seat


class Rolled(Event):
    """Rule 3: the turn's two dice, in the order they were rolled."""

    seat: Seat
    dice: tuple[int, int]


class Moved(Event):
    """Rule 6: a token went forward by a die (`acceleration`: the one-die roll of rule 12)."""

    seat: Seat
    token: int
    die: int
    start: int
    end: int
    #: Pips past the Finish, burned (rule 6).
    excess: int = 0
    acceleration: bool = False


class Opened(Event):
    """Rule 7: a closed card turned face up under a token."""

    seat: Seat
    token: int
    position: int
    card: Card


class Paid(Event):
    """Rule 9: a Diamond turned face up paid coins from the bank."""

    seat: Seat
    card: Card
    coins: int
    #: Coins left in the bank.
    bank: int


class Waiting(Event):
    """Rule 11: a token landed on Hearts and waits for its acceleration."""

    seat: Seat
    token: int
    position: int
    card: Card


class BuyOut(Event):
    """Rule 10 / A3.6: the owner paid `price` coins back to the bank (the token stays on the Spade),
    or declined (a `Retreated` or `Killed` follows)."""

    seat: Seat
    token: int
    card: Card
    price: int
    paid: bool


class Retreated(Event):
    """Rule 10: a pip Spade sent the token back (clamped at the Start, A3.5)."""

    seat: Seat
    token: int
    card: Card
    start: int
    end: int


class Killed(Event):
    """Rule 10: a court or ace Spade sent the token back to the Start."""

    seat: Seat
    token: int
    card: Card
    start: int


class Burned(Event):
    """Rule 5: a die no token could use. `waiting`: the seat's unfinished tokens all wait on Hearts;
    `finished`: all its tokens have finished."""

    seat: Seat
    die: int
    reason: Literal["waiting", "finished"]


class TokenFinished(Event):
    seat: Seat
    token: int


class PlayerFinished(Event):
    """Rule 13: all three tokens are home; `place` counts from 1."""

    seat: Seat
    place: int


class Blocked(Event):
    """A3.11 (ours): every player still racing is blocked for good (see `core.games.race_block`), so
    the game ends; they are ranked by tokens home, then by how far their tokens have come, in
    `seats` order, best first."""

    seats: tuple[Seat, ...]
