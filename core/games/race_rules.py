"""Game 3's rules on plain data (RULES.md, Game 3, rules 1-13, A3.1-A3.10; A3.11 is
ours, see `core.games.race_block`).

`Race` is one mutable position: the engine (`core.games.race.RaceGame`) converts its immutable state
to a `Race`, applies one action and converts back; play-outs and the computer players' searches run on
`Race` directly, so the rules exist once. A `Race` built from a view has `None` for the closed cards:
where the rules need one of those, `apply` raises `UnknownCard` and a search branches on it.

Action codes: `<die>.<token>` moves a token (index 0-2) by a die showing `<die>` (A3.2: one die at a
time, after seeing the roll), `pay.<price>` / `nopay` answer a buy-out (A3.6), `go.<token>` picks the
token to accelerate when queued tokens tie (rule 12). Chance: `deal:<seed>` shuffles the track,
`first:<seat>` draws the first player, `die:<face>` rolls one die.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from enum import StrEnum
from typing import Any

from core.cards import Card, Suit, deck36
from core.engine import CHANCE, Action, ChanceOutcomes, Event, Seat, SeedOutcomes
from core.games.race_block import REACH, blocked, wall_ahead
from core.games.race_events import (
    Blocked,
    Burned,
    BuyOut,
    FirstPlayer,
    Killed,
    Moved,
    Opened,
    Paid,
    PlayerFinished,
    Retreated,
    Rolled,
    TokenFinished,
    Waiting,
)
from core.games.race_track import FACES, FINISH, START, TOKENS, Kind, effect

SHUFFLE = "deal:"
FIRST = "first:"
DIE = "die:"
PAY = "pay."
DECLINE = "nopay"
GO = "go."
DIE_CODES: tuple[Action, ...] = tuple(f"{DIE}{face}" for face in FACES)


class Phase(StrEnum):
    """Who acts next: chance deals, draws the first player, rolls a turn's dice (`roll`) or an
    acceleration die (`boost`); the player moves, answers a buy-out or breaks a queue tie."""

    DEAL = "deal"
    FIRST = "first"
    ROLL = "roll"
    MOVE = "move"
    BUYOUT = "buyout"
    QUEUE = "queue"
    BOOST = "boost"
    OVER = "over"


#: Phases where chance acts.
CHANCE_PHASES = frozenset({Phase.DEAL, Phase.FIRST, Phase.ROLL, Phase.BOOST})


def move_code(die: int, token: int) -> Action:
    return f"{die}.{token}"


def parse_move(action: Action) -> tuple[int, int]:
    """(die, token) of a move code."""
    die, _, token = action.partition(".")
    return int(die), int(token)


def distinct_moves(moves: Sequence[Action], positions: Sequence[int]) -> list[Action]:
    """The legal `moves` of a seat whose tokens stand at `positions`, one per distinct outcome:
    tokens on one position are alike (none a die may take is waiting to accelerate), so of those
    only the lowest-numbered moves. A person is offered these, and a computer weighs these."""
    seen: set[tuple[int, int]] = set()
    distinct = []
    for action in moves:
        die, token = parse_move(action)
        if (die, positions[token]) not in seen:
            seen.add((die, positions[token]))
            distinct.append(action)
    return distinct


class UnknownCard(Exception):
    """The rules need the card at `position`, which this position (built from a view) does not know."""

    def __init__(self, position: int) -> None:
        super().__init__(position)
        self.position = position


class Race:
    """One position of the race on plain lists. `events` collects what happens (None: not kept)."""

    __slots__ = (
        "accelerating",
        "bank",
        "boost",
        "coins",
        "deck",
        "dice",
        "events",
        "face_up",
        "left",
        "open_spades",
        "order",
        "pending",
        "phase",
        "players",
        "queue",
        "tokens",
        "turn",
    )

    def __init__(
        self,
        players: int,
        *,
        deck: list[Card | None],
        face_up: list[bool],
        tokens: list[list[int]],
        coins: list[int],
        bank: int,
        turn: Seat,
        phase: Phase,
        dice: list[int],
        left: list[int],
        boost: int | None,
        queue: list[int],
        accelerating: int | None,
        pending: int | None,
        order: list[Seat],
        events: list[Event] | None = None,
        open_spades: int | None = None,
    ) -> None:
        self.players = players
        #: The card at position p is deck[p - 1]; empty before the deal.
        self.deck = deck
        self.face_up = face_up
        self.tokens = tokens
        self.coins = coins
        self.bank = bank
        self.turn = turn
        self.phase = phase
        #: The turn's dice as rolled; `left` holds the indices of those not used or burned yet.
        self.dice = dice
        self.left = left
        #: The last acceleration die of this turn.
        self.boost = boost
        #: The turn player's tokens waiting on Hearts (rule 11), in the order they arrived.
        self.queue = queue
        #: The token whose acceleration die is being rolled.
        self.accelerating = accelerating
        #: The token facing a buy-out question (it stands on the Spade).
        self.pending = pending
        #: Seats in finishing order; the loser is appended last when the game ends.
        self.order = order
        self.events = events
        #: Face-up Spades, counted as they turn up: fewer than six make no wall (A3.11), which
        #: saves looking for one at every turn of a search.
        if open_spades is None:
            # Not strict: the deck is empty before the deal.
            shown = zip(deck, face_up, strict=False)
            open_spades = sum(up and card is not None and card[-1] == Suit.SPADES for card, up in shown)
        self.open_spades: int = open_spades

    def copy(self) -> Race:
        return Race(
            self.players,
            deck=self.deck[:],
            face_up=self.face_up[:],
            tokens=[tokens[:] for tokens in self.tokens],
            coins=self.coins[:],
            bank=self.bank,
            turn=self.turn,
            phase=self.phase,
            dice=self.dice[:],
            left=self.left[:],
            boost=self.boost,
            queue=self.queue[:],
            accelerating=self.accelerating,
            pending=self.pending,
            order=self.order[:],
            open_spades=self.open_spades,
        )

    # ----- what may happen -------------------------------------------------------------------------

    def to_move(self) -> tuple[Seat, ...]:
        if self.phase is Phase.OVER:
            return ()
        if self.phase in CHANCE_PHASES:
            return (CHANCE,)
        return (self.turn,)

    def usable(self) -> list[int]:
        """Rule 5 / A3.3: the turn player's tokens that may take a die: unfinished and not waiting."""
        return [
            token
            for token, here in enumerate(self.tokens[self.turn])
            if here != FINISH and token not in self.queue
        ]

    def price(self) -> int:
        """The buy-out price the turn player is asked (0 when none is asked)."""
        if self.pending is None:
            return 0
        card = self.deck[self.tokens[self.turn][self.pending] - 1]
        assert card is not None
        return effect(card).price

    def tied(self) -> list[int]:
        """Rule 12: the queued tokens nearest the Finish."""
        here = self.tokens[self.turn]
        top = max(here[token] for token in self.queue)
        return [token for token in self.queue if here[token] == top]

    def legal(self, seat: Seat) -> list[Action]:
        if seat != self.turn or seat == CHANCE:
            return []
        if self.phase is Phase.MOVE:
            dice = sorted({self.dice[index] for index in self.left})
            return [move_code(die, token) for die in dice for token in self.usable()]
        if self.phase is Phase.BUYOUT:
            return [f"{PAY}{self.price()}", DECLINE]
        if self.phase is Phase.QUEUE:
            return [f"{GO}{token}" for token in self.tied()]
        return []

    def chance_outcomes(self) -> ChanceOutcomes:
        if self.phase is Phase.DEAL:
            return SeedOutcomes(prefix=SHUFFLE)
        if self.phase is Phase.FIRST:
            return tuple(f"{FIRST}{seat}" for seat in range(self.players))
        if self.phase in (Phase.ROLL, Phase.BOOST):
            return DIE_CODES
        return ()

    # ----- applying an action ----------------------------------------------------------------------

    def apply(self, seat: Seat, action: Action) -> None:
        """Apply a legal action (the engine checks legality; play-outs only pick legal ones)."""
        if seat == CHANCE:
            self._chance(action)
            return
        if self.phase is Phase.MOVE:
            die, token = parse_move(action)
            self.left.remove(next(i for i in self.left if self.dice[i] == die))
            self._forward(token, die, acceleration=False)
        elif self.phase is Phase.BUYOUT:
            self._answer(action != DECLINE)
        else:
            token = int(action.removeprefix(GO))
            self.queue.remove(token)
            self.accelerating = token
            self.phase = Phase.BOOST
            return
        self._advance()

    def _chance(self, action: Action) -> None:
        if self.phase is Phase.DEAL:
            deck: list[Card | None] = list(deck36())
            random.Random(int(action.removeprefix(SHUFFLE))).shuffle(deck)
            self.deck = deck
            self.phase = Phase.FIRST
            return
        if self.phase is Phase.FIRST:
            self.turn = int(action.removeprefix(FIRST))
            self._emit(FirstPlayer, seat=self.turn)
            self.phase = Phase.ROLL
            return
        face = int(action.removeprefix(DIE))
        if self.phase is Phase.BOOST:
            token, self.accelerating = self.accelerating, None
            assert token is not None
            self.boost = face
            self._forward(token, face, acceleration=True)
        else:
            self.dice.append(face)
            if len(self.dice) < 2:
                return
            self.left = [0, 1]
            self._emit(Rolled, seat=self.turn, dice=(self.dice[0], self.dice[1]))
        self._advance()

    def _forward(self, token: int, die: int, *, acceleration: bool) -> None:
        """Rule 6, then rule 7 on the card reached."""
        seat = self.turn
        start = self.tokens[seat][token]
        end = min(start + die, FINISH)
        self.tokens[seat][token] = end
        excess = max(start + die - FINISH, 0)
        self._emit(
            Moved,
            seat=seat,
            token=token,
            die=die,
            start=start,
            end=end,
            excess=excess,
            acceleration=acceleration,
        )
        if end == FINISH:
            self._finish(token)
        else:
            self._land(token)

    def _land(self, token: int) -> None:
        """Rule 7: the card under the token acts; Spades may chain (rule 10) or stop for a buy-out."""
        seat = self.turn
        while True:
            here = self.tokens[seat][token]
            if here == START:
                return
            card = self.deck[here - 1]
            if card is None:
                raise UnknownCard(here)
            kind, amount, price = effect(card)
            opening = not self.face_up[here - 1]
            if opening:
                self.face_up[here - 1] = True
                self.open_spades += card[-1] == Suit.SPADES
                self._emit(Opened, seat=seat, token=token, position=here, card=card)
            if kind is Kind.SAFE:
                return
            if kind is Kind.MONEY:
                # A3.7: a Diamond pays once, when it is turned face up; rule 9: the bank never runs short.
                if opening:
                    self.bank -= amount
                    self.coins[seat] += amount
                    self._emit(Paid, seat=seat, card=card, coins=amount, bank=self.bank)
                return
            if kind is Kind.WAIT:
                self.queue.append(token)
                self._emit(Waiting, seat=seat, token=token, position=here, card=card)
                return
            if self.coins[seat] >= price:
                # A3.6: asked every time a Spade acts, and only if the player can pay.
                self.pending = token
                self.phase = Phase.BUYOUT
                return
            if not self._spade(token, card):
                return

    def _spade(self, token: int, card: Card) -> bool:
        """Rule 10: the Spade under the token acts; True if the token reached another card."""
        seat = self.turn
        start = self.tokens[seat][token]
        kind, amount, _ = effect(card)
        if kind is Kind.DEATH:
            self.tokens[seat][token] = START
            self._emit(Killed, seat=seat, token=token, card=card, start=start)
            return False
        end = max(start - amount, START)  # A3.5
        self.tokens[seat][token] = end
        self._emit(Retreated, seat=seat, token=token, card=card, start=start, end=end)
        return end != START

    def _answer(self, pay: bool) -> None:
        token, self.pending = self.pending, None
        assert token is not None
        seat = self.turn
        card = self.deck[self.tokens[seat][token] - 1]
        assert card is not None
        price = effect(card).price
        # Whatever follows (another die, the queue, the next turn) is settled by `_advance`, unless
        # the retreat reaches another Spade that asks again.
        self.phase = Phase.MOVE
        self._emit(BuyOut, seat=seat, token=token, card=card, price=price, paid=pay)
        if pay:
            self.coins[seat] -= price
            self.bank += price
        elif self._spade(token, card):
            self._land(token)

    def _finish(self, token: int) -> None:
        """Rule 13: a token home; a player with all three home is out; the last one loses."""
        seat = self.turn
        self._emit(TokenFinished, seat=seat, token=token)
        if any(here != FINISH for here in self.tokens[seat]):
            return
        self.order.append(seat)
        self._emit(PlayerFinished, seat=seat, place=len(self.order))
        racing = [other for other in range(self.players) if other not in self.order]
        if len(racing) == 1:
            self.order.append(racing[0])
            self.phase = Phase.OVER

    def _advance(self) -> None:
        """After a move is resolved: another die (rule 5), burned dice, the acceleration queue
        (rule 12), or the next player's turn."""
        if self.phase in (Phase.BUYOUT, Phase.OVER):
            return
        if self.left:
            if self.usable():
                self.phase = Phase.MOVE
                return
            home = all(here == FINISH for here in self.tokens[self.turn])
            for index in self.left:
                self._emit(
                    Burned, seat=self.turn, die=self.dice[index], reason="finished" if home else "waiting"
                )
            self.left = []
        if self.queue:
            tied = self.tied()
            if len(tied) > 1:
                self.phase = Phase.QUEUE
                return
            self.queue.remove(tied[0])
            self.accelerating = tied[0]
            self.phase = Phase.BOOST
            return
        following = self._next_racer(self.turn)
        if self._end_blocked(following):
            return
        self.turn = following
        self.dice, self.left, self.boost = [], [], None
        self.phase = Phase.ROLL

    def _end_blocked(self, following: Seat) -> bool:
        """A3.11 (ours): end a game nobody still racing can finish, ranking them by tokens home,
        then by the distance their tokens have come; ties go in turn order from `following`."""
        if self.open_spades < REACH:
            return False  # no wall on the track: the usual case
        faces = [card if up else None for card, up in zip(self.deck, self.face_up, strict=True)]
        if wall_ahead(faces, START) is None:
            return False
        racing = [(following + step) % self.players for step in range(self.players)]
        racing = [seat for seat in racing if seat not in self.order]
        if not all(blocked(faces, self.tokens[seat], self.coins[seat]) for seat in racing):
            return False
        ranked = sorted(racing, key=lambda seat: (-self.tokens[seat].count(FINISH), -sum(self.tokens[seat])))
        self.order.extend(ranked)
        self.phase = Phase.OVER
        self._emit(Blocked, seats=tuple(ranked))
        return True

    def _next_racer(self, seat: Seat) -> Seat:
        """A3.8: clockwise, skipping players who are out."""
        for step in range(1, self.players + 1):
            other = (seat + step) % self.players
            if other not in self.order:
                return other
        raise AssertionError("the game goes on with nobody racing")

    def _emit(self, kind: type[Event], **fields: Any) -> None:
        """Record an event, made only when events are kept (play-outs and searches keep none)."""
        if self.events is not None:
            self.events.append(kind(**fields))

    # ----- play-outs -------------------------------------------------------------------------------

    def returns(self) -> tuple[float, ...]:
        """Per seat, 1 for the first to finish down to 0 for the loser once over; while the game
        goes on, the share of the way each seat's tokens have come."""
        if self.phase is Phase.OVER:
            last = self.players - 1
            return tuple(1.0 - self.order.index(seat) / last for seat in range(self.players))
        return tuple(sum(tokens) / (TOKENS * FINISH) for tokens in self.tokens)
