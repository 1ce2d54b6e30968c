"""The multi-deal match layer of the two Tarot trick games: the dealer rotating clockwise, a score-sheet
row per hand, running totals, the target checked at the end of a hand, and the "next hand" step
that every seat acknowledges before the next deal (several seats may be to move at once)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from core.engine import Event, Frozen, Outcome, Seat

#: The action every seat presses between hands.
NEXT = "next"


class ScoreRow(Frozen):
    """One line of the score sheet."""

    #: The hand's number in the match, from 1.
    number: int
    dealer: Seat
    #: Each seat's total for the hand.
    hand: tuple[int, ...]
    #: What each seat adds to its match score (Game 4 scores only the excess, Game 5 the total).
    scored: tuple[int, ...]
    #: The match totals after this hand.
    totals: tuple[int, ...]


class HandScored(Event):
    row: ScoreRow
    #: This hand ended the match (the outcome follows in `GameOver`).
    final: bool


class Acknowledged(Event):
    """A seat pressed "next hand"."""

    seat: Seat


@dataclass(slots=True)
class Match:
    players: int
    #: The score that ends the match at the end of a hand; None: the match is a single hand.
    target: int | None
    dealer: Seat
    rows: list[ScoreRow] = field(default_factory=list)
    totals: list[int] = field(default_factory=list)
    acks: list[Seat] = field(default_factory=list)

    def copy(self) -> Match:
        return Match(self.players, self.target, self.dealer, self.rows[:], self.totals[:], self.acks[:])

    def record(self, hand: Sequence[int], scored: Sequence[int]) -> ScoreRow:
        self.totals = [total + points for total, points in zip(self.totals, scored, strict=True)]
        row = ScoreRow(
            number=len(self.rows) + 1,
            dealer=self.dealer,
            hand=tuple(hand),
            scored=tuple(scored),
            totals=tuple(self.totals),
        )
        self.rows.append(row)
        return row

    def finished(self) -> bool:
        """Checked at the end of a hand only (Game 4 rule 19, Game 5 rule 15)."""
        if not self.rows:
            return False
        return self.target is None or max(self.totals) >= self.target

    def waiting(self) -> list[Seat]:
        """Seats that have not pressed "next hand" yet."""
        return [seat for seat in range(self.players) if seat not in self.acks]

    def acknowledge(self, seat: Seat) -> bool:
        """Record a press; True once every seat has pressed, and the deal passes to the left."""
        self.acks.append(seat)
        if len(self.acks) < self.players:
            return False
        self.acks = []
        self.dealer = (self.dealer + 1) % self.players
        return True

    def outcome(self) -> Outcome:
        """The highest total wins, ties share the win (in Game 4 only one player scores a hand, so
        whoever reached the target is alone at the top); everybody tied is a draw."""
        best = max(self.totals)
        winners = tuple(seat for seat in range(self.players) if self.totals[seat] == best)
        losers = tuple(seat for seat in range(self.players) if self.totals[seat] != best)
        order = tuple(sorted(range(self.players), key=lambda seat: (-self.totals[seat], seat)))
        return Outcome(
            winners=winners,
            losers=losers,
            draw=not losers,
            scores=tuple(self.totals),
            order=order,
        )
