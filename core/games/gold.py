"""Game 8: McSweeney's Gold (ЗоЛото МакСвини), RULES.md Game 8, rules 2-6 and A8.1-A8.6.

The layout is shuffled and committed to (a salted SHA-256 fingerprint shown from the start) before
the player marks a single cell, so the player can check at the end that the field was not changed
behind the route (A8.4).
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Mapping, Sequence
from typing import NamedTuple

from core.board import Layout, cell_codes, rectangle
from core.engine import (
    CHANCE,
    Action,
    ChanceOutcomes,
    Event,
    Frozen,
    Game,
    OptionSpec,
    OptionValue,
    Outcome,
    Seat,
    SeedOutcomes,
    State,
)
from i18n import N_, t


class Symbol(NamedTuple):
    code: str
    #: A message id.
    name: str
    copies: int


#: Rule 2 / A8.1: the symbol multiset, as data. The names' Russian translations follow the seed.
SYMBOLS: tuple[Symbol, ...] = (
    Symbol("bag", N_("Money bag"), 1),
    Symbol("purse", N_("Purse"), 3),
    Symbol("coin", N_("Coin"), 12),
    Symbol("x2", N_("×2"), 2),
    Symbol("x5", N_("×5"), 1),
    Symbol("d2", N_("/2"), 3),
    Symbol("d5", N_("/5"), 2),
    Symbol("zero", N_("Bankruptcy"), 4),
    Symbol("z", N_("Absolution"), 2),
    Symbol("empty", N_("Empty"), 19),
)

#: Rule 5 as data: what each symbol does to the tour sum T.
ADDS: Mapping[str, int] = {"bag": 100, "purse": 10, "coin": 1}
MULTIPLIES: Mapping[str, int] = {"x2": 2, "x5": 5}
#: Penalties (A8.3: all three are "deductions" that a held Z cancels); 0 = bankruptcy.
DIVIDES: Mapping[str, int] = {"d2": 2, "d5": 5, "zero": 0}
ABSOLUTION = "z"

ROWS = 7
COLS = 7
ROUTE_LENGTH = 7
#: Rule 3: the allowed bets; the payout multiplier is bet / BASE_BET (A8.2).
BETS: tuple[int, ...] = (20, 40, 100, 200)
BASE_BET = 20

DEAL = "deal:"
GO = "go"

CELLS: Layout = rectangle(ROWS, COLS)
CODES: tuple[Action, ...] = cell_codes(CELLS)
CODE_INDEX: Mapping[Action, int] = {code: index for index, code in enumerate(CODES)}
#: The full multiset in table order, the deck that every deal shuffles.
FIELD: tuple[str, ...] = tuple(s.code for s in SYMBOLS for _ in range(s.copies))
assert len(FIELD) == ROWS * COLS


def reveal(total: int, z: int, symbol: str) -> tuple[int, int]:
    """Rule 5, one cell: the tour sum and held Z count after opening `symbol`."""
    if symbol in ADDS:
        return total + ADDS[symbol], z
    if symbol in MULTIPLIES:
        return total * MULTIPLIES[symbol], z
    if symbol in DIVIDES:
        if z > 0:
            return total, z - 1
        divisor = DIVIDES[symbol]
        return (total // divisor if divisor else 0), z
    if symbol == ABSOLUTION:
        return total, z + 1
    return total, z


def tour(symbols: Sequence[str]) -> tuple[tuple[int, int], ...]:
    """(T, z) after each revealed symbol, in order."""
    steps: list[tuple[int, int]] = []
    total, z = 0, 0
    for symbol in symbols:
        total, z = reveal(total, z, symbol)
        steps.append((total, z))
    return tuple(steps)


def tour_total(symbols: Sequence[str]) -> int:
    """Rule 5: the tour sum T of a route revealing `symbols` in order."""
    steps = tour(symbols)
    return steps[-1][0] if steps else 0


def fingerprint(layout: Sequence[str], salt: str) -> str:
    """The commitment shown before the first mark: 32 hex digits (128 bits) of SHA-256 over layout and
    salt, so that even the server could not find a second layout with the same fingerprint."""
    return hashlib.sha256(f"{','.join(layout)}:{salt}".encode()).hexdigest()[:32]


def verify(layout: Sequence[str], salt: str, shown: str) -> bool:
    """Whether a revealed layout and salt match the fingerprint shown during the tour."""
    return fingerprint(layout, salt) == shown


def deal(seed: int) -> tuple[tuple[str, ...], str]:
    """The layout and secret salt of a deal seed. The salt has its own hash domain so that it is
    not a by-product of the shuffle's generator."""
    layout = list(FIELD)
    random.Random(seed).shuffle(layout)
    salt = hashlib.sha256(f"gold-salt:{seed}".encode()).hexdigest()[:16]
    return tuple(layout), salt


class GoldState(State):
    game: str = "gold"
    #: A symbol code per cell in reading order (index = row * 7 + col); empty until the deal.
    layout: tuple[str, ...] = ()
    salt: str = ""
    #: Stored at deal time: a view never recomputes it, so shuffling the hidden layout keeps views.
    fingerprint: str = ""
    #: Marked cell indices in marking order: the route.
    marked: tuple[int, ...] = ()
    #: The route was sent and revealed; the tour is over.
    sent: bool = False


class GoldView(Frozen):
    seat: Seat | None
    bet: int
    multiplier: int
    marked: tuple[int, ...]
    #: (cell index, symbol code) in route order; empty until the route is sent.
    revealed: tuple[tuple[int, str], ...]
    #: T and z after each revealed cell.
    sums: tuple[int, ...]
    zs: tuple[int, ...]
    total: int | None
    payout: int | None
    #: None only before the deal.
    fingerprint: str | None
    #: The whole field and the salt, only once the tour is over (rule 6), to check the fingerprint.
    layout: tuple[str, ...] | None
    salt: str | None
    rows: int = ROWS
    cols: int = COLS


class Marked(Event):
    cell: int
    #: False when the cell was unmarked.
    marked: bool


class Revealed(Event):
    cell: int
    symbol: str
    total: int
    z: int


class GoldGame(Game[GoldState, GoldView]):
    id = "gold"
    state_type = GoldState
    view_type = GoldView
    min_players = 1
    max_players = 1
    options = (OptionSpec(name="bet", choices=BETS, default=BASE_BET, label=N_("Bet")),)

    def _initial(self, players: int, options: Mapping[str, OptionValue]) -> GoldState:
        return GoldState(players=players, options=options)

    def _to_move(self, state: GoldState) -> tuple[Seat, ...]:
        return (0,) if state.layout else (CHANCE,)

    def _legal(self, state: GoldState, seat: Seat) -> Sequence[Action]:
        # Marked cells may always be unmarked; new cells only while the route is short.
        if len(state.marked) == ROUTE_LENGTH:
            return [GO, *(CODES[i] for i in state.marked)]
        return CODES

    def _chance_outcomes(self, state: GoldState) -> ChanceOutcomes:
        return SeedOutcomes(prefix=DEAL, count=2**128)

    def _apply(self, state: GoldState, seat: Seat, action: Action) -> tuple[GoldState, Sequence[Event]]:
        if seat == CHANCE:
            layout, salt = deal(int(action.removeprefix(DEAL)))
            return state.model_copy(
                update={"layout": layout, "salt": salt, "fingerprint": fingerprint(layout, salt)}
            ), ()
        if action == GO:
            symbols = [state.layout[i] for i in state.marked]
            events = [
                Revealed(cell=cell, symbol=symbol, total=total, z=z)
                for cell, symbol, (total, z) in zip(state.marked, symbols, tour(symbols), strict=True)
            ]
            return state.model_copy(update={"sent": True}), events
        cell = CODE_INDEX[action]
        adding = cell not in state.marked
        marked = (*state.marked, cell) if adding else tuple(i for i in state.marked if i != cell)
        return state.model_copy(update={"marked": marked}), [Marked(cell=cell, marked=adding)]

    def multiplier(self, state: GoldState) -> int:
        return int(state.options["bet"]) // BASE_BET

    def payout(self, state: GoldState) -> int | None:
        """Rule 6: m × T once the route is revealed, else None."""
        if not state.sent:
            return None
        return self.multiplier(state) * tour_total([state.layout[i] for i in state.marked])

    def outcome(self, state: GoldState) -> Outcome | None:
        payout = self.payout(state)
        if payout is None:
            return None
        bet = int(state.options["bet"])
        return Outcome(
            winners=(0,) if payout > bet else (),
            losers=(0,) if payout < bet else (),
            draw=payout == bet,
            scores=(payout,),
        )

    def _view(self, state: GoldState, seat: Seat | None) -> GoldView:
        revealed = tuple((i, state.layout[i]) for i in state.marked) if state.sent else ()
        steps = tour([symbol for _, symbol in revealed])
        return GoldView(
            seat=seat,
            bet=int(state.options["bet"]),
            multiplier=self.multiplier(state),
            marked=state.marked,
            revealed=revealed,
            sums=tuple(total for total, _ in steps),
            zs=tuple(z for _, z in steps),
            total=steps[-1][0] if state.sent else None,
            payout=self.payout(state),
            fingerprint=state.fingerprint or None,
            layout=state.layout if state.sent else None,
            salt=state.salt if state.sent else None,
        )

    def _sample(self, view: GoldView, rng: random.Random) -> GoldState:
        """A field dealt at random behind the shown fingerprint, until the route reveals the field."""
        options = {"bet": view.bet}
        if view.fingerprint is None:
            return GoldState(players=1, options=options)
        if view.layout is not None and view.salt is not None:
            layout, salt = view.layout, view.salt
        else:
            layout, salt = deal(rng.getrandbits(64))
        return GoldState(
            players=1,
            options=options,
            layout=layout,
            salt=salt,
            fingerprint=view.fingerprint,
            marked=view.marked,
            sent=view.total is not None,
        )

    def shuffle_hidden(self, state: GoldState, seat: Seat | None, rng: random.Random) -> GoldState:
        """Re-deal the field while it is hidden; the route reveals it all at once, and then the rest."""
        if not state.layout or state.sent:
            return state
        layout = list(state.layout)
        rng.shuffle(layout)
        return state.model_copy(update={"layout": tuple(layout)})

    def label(self, action: Action, lang: str) -> str:
        if action == GO:
            return t(lang, "Set off!")
        return action
