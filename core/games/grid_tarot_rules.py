"""Game 2's rules on plain data (RULES.md, Game 2, rules 1-23 and A2.1-A2.14).

`Position` is the one implementation of the rules: the engine (`core.games.grid_tarot`) converts its
pydantic state to a Position, applies an action and converts back, and computer players copy a
Position and play on it directly. Sets of cells are bit masks over `LAYOUT` (see `core.board`).

A turn moves each of the seat's tokens once (rule 8). Decisions:

* select: `<token>.<cell>` moves a token (`1.D3`), `<token>.<cell>.<n>` when its rule offers a
  choice of step counts (the Magician's `1.D3.3`); a hopeless token (rule 19) names a way out
  instead, `<token>.suit|star|ph|jus<n>|str`;
* option: the chosen way out's destination, coded as a move;
* chariot: the Chariot's repeat (rule 22), coded as a move of the same token;
* swap: the Hanged Man's free card `f.<cell>`, then the closed card `c.<cell>`.

A token with no legal move at all is skipped once no other token of its seat can move (so a
seat's movable tokens go first and may still free it).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from enum import StrEnum
from typing import Any, NamedTuple

from core.board import NOTHING_BLOCKED, Blocked, Layout, bits, board, centred_rows, mask_of
from core.cards import Card, TarotSuit, deck78, is_major
from core.engine import CHANCE, Action, Event, Outcome, Seat
from core.games.grid_tarot_arcana import (
    AREA_RADIUS,
    JUSTICE,
    POOL_OPTIONS,
    STRENGTH,
    Effect,
    Kind,
    Option,
    Rule,
    arrival,
    card_rule,
    minor_steps,
    steps,
    suit,
)
from core.games.grid_tarot_events import (
    CardsClosed,
    CardsOpened,
    ChariotRepeat,
    EmpressSet,
    OptionUsed,
    Returned,
    Skipped,
    Swapped,
    Taken,
    TeamHopeless,
    TokenMoved,
    WheelTurned,
    WorldMoved,
)

#: Rule 2 / A2.1: the oval "world map", rows of 9-11-13-13-13-11-9 in a 7 x 13 box.
LAYOUT: Layout = centred_rows((9, 11, 13, 13, 13, 11, 9))
BOARD = board(LAYOUT)
CENTRE = BOARD.index[(3, 6)]
#: The Centre hole blocks paths until the World lies there (rule 4).
HOLE: Blocked = frozenset({CENTRE})
#: The 78 positions that are dealt a card, in layout order.
CARD_CELLS: tuple[int, ...] = tuple(i for i in range(BOARD.size) if i != CENTRE)
#: Per cell, the mask of its field neighbours (the Hermit's surroundings).
NEIGHBOURS: tuple[int, ...] = tuple(mask_of(BOARD.neighbours(i)) for i in range(BOARD.size))
#: Rule 17 / A2.4: the Empress's D per cell, 1 + the distance to the nearest passable neighbour
#: of the Centre (with the World there: the distance to the Centre, the same number); 0 on it.
EMPRESS_STEPS: tuple[int, ...] = tuple(
    0 if cell == CENTRE else 1 + min(BOARD.distances(HOLE)[cell][n] for n in BOARD.neighbours(CENTRE))
    for cell in range(BOARD.size)
)

DEAL = "deal:"
FIRST = "first:"
SWAP_FREE = "f"
SWAP_CLOSED = "c"

#: A token's way to move and its choices: (step count or 0, destination mask) per choice.
Targets = list[tuple[int, int]]


class Phase(StrEnum):
    SELECT = "select"
    OPTION = "option"
    CHARIOT = "chariot"
    SWAP = "swap"


def suit_masks(cards: Sequence[Card | None]) -> dict[str, int]:
    """Per suit, the positions holding a minor of it."""
    masks: dict[str, int] = {suit.value: 0 for suit in TarotSuit}
    for i, card in enumerate(cards):
        if card is not None and not is_major(card):
            masks[card[-1]] |= 1 << i
    return masks


def whose_turn(dealt: bool, turn: Seat, over: bool) -> tuple[Seat, ...]:
    if over:
        return ()
    if not dealt or turn == CHANCE:
        return (CHANCE,)
    return (turn,)


def chariot_code(rule: Rule, count: int) -> str:
    """How a token remembers the move that brought it onto the Chariot: a step count, or a kind."""
    return str(count) if rule.kind is Kind.STEPS else rule.kind.value


def chariot_rule(code: str) -> Rule:
    if code.isdigit():
        return steps(int(code))
    return Rule(Kind(code)) if code else steps()


class Token:
    """One token: its cell (-1 off the field), a pending Empress move, and the Chariot's move."""

    __slots__ = ("cell", "chariot", "empress", "number", "seat")

    def __init__(self, seat: Seat, number: int, cell: int = -1, empress: bool = False, chariot: str = ""):
        self.seat = seat
        self.number = number
        self.cell = cell
        self.empress = empress
        self.chariot = chariot

    def copy(self) -> Token:
        return Token(self.seat, self.number, self.cell, self.empress, self.chariot)


class Arrival(NamedTuple):
    """A move's end, for the arrival effects."""

    token: Token
    start: int
    cell: int
    card: Card
    path: tuple[int, ...]
    rule: Rule
    step_count: int


class Position:
    """A whole game on plain data. `events`, when a list, collects what happens (the engine's
    journal); computer players' play-outs leave it None."""

    def __init__(self, players: int, per_seat: int, teams: Sequence[int]) -> None:
        self.players = players
        self.per_seat = per_seat
        self.teams = tuple(teams)
        self.team_count = max(self.teams) + 1
        #: The card at each position; None for an empty position and for the Centre hole.
        self.cards: list[Card | None] = []
        self.closed = 0
        #: Closed positions whose card every player has seen: it was face up, then an effect
        #: closed it (Wheel, Death, Devil, Moon); a Hanged Man swap carries the knowledge along.
        self.known = 0
        #: Positions holding no card: empty ones and the Centre hole.
        self.empty = 0
        #: Per suit, the positions holding a minor of it, open or closed (free cards are minors).
        self.suits: dict[str, int] = {suit.value: 0 for suit in TarotSuit}
        #: Arcana laid on top of a card (rule 19), by cell.
        self.covers: dict[int, tuple[Card, ...]] = {}
        self.tokens = [Token(seat, n) for seat in range(players) for n in range(1, per_seat + 1)]
        self.pools: list[list[Card]] = [[] for _ in range(self.team_count)]
        self.turn: Seat = CHANCE
        #: Token numbers (bit number - 1) of `turn` that have moved this turn.
        self.moved = 0
        self.phase = Phase.SELECT
        #: The token resolving an option, the Chariot or the Hanged Man.
        self.active: Token | None = None
        self.option = ""
        self.swap_free = -1
        self.last = -1
        self.result: Outcome | None = None
        self.events: list[Event] | None = None

    def copy(self) -> Position:
        other = Position.__new__(Position)
        other.__dict__.update(self.__dict__)
        other.cards = self.cards.copy()
        other.covers = self.covers.copy()
        other.suits = self.suits.copy()
        other.tokens = [token.copy() for token in self.tokens]
        other.pools = [pool.copy() for pool in self.pools]
        other.active = other.tokens[self.tokens.index(self.active)] if self.active is not None else None
        other.events = None
        return other

    # ----- what the field looks like -------------------------------------------------------------

    def blocked(self) -> Blocked:
        return HOLE if self.cards[CENTRE] is None else NOTHING_BLOCKED

    def occupied(self) -> int:
        mask = 0
        for token in self.tokens:
            if token.cell >= 0:
                mask |= 1 << token.cell
        return mask

    def free(self) -> int:
        """Rule 5: open minors that no token stands on and no arcanum covers."""
        minors = 0
        for mask in self.suits.values():
            minors |= mask
        return minors & ~(self.closed | self.occupied() | mask_of(self.covers))

    def suit_at(self, cell: int) -> str | None:
        card = self.cards[cell]
        return suit(card) if card is not None else None

    def free_of_suit(self, wanted: str | None) -> int:
        return self.suits[wanted] & self.free() if wanted is not None else 0

    def token(self, seat: Seat, number: int) -> Token:
        return self.tokens[seat * self.per_seat + number - 1]

    def seat_tokens(self, seat: Seat) -> list[Token]:
        return self.tokens[seat * self.per_seat : (seat + 1) * self.per_seat]

    def pool_of(self, seat: Seat) -> list[Card]:
        return self.pools[self.teams[seat]]

    # ----- movement (rules 9-12, 15, 17, 19) ----------------------------------------------------

    def card_rule(self, token: Token) -> Rule:
        """The movement rule of the card the token stands on (the Empress's D and the Chariot's
        remembered move resolved); a card-less position gives no movement."""
        card = self.cards[token.cell]
        if card is None:
            return steps()
        rule = card_rule(card)
        if rule.kind is Kind.EMPRESS:
            return steps(EMPRESS_STEPS[token.cell])
        if rule.kind is Kind.CHARIOT:
            return chariot_rule(token.chariot)
        return rule

    def next_rule(self, token: Token) -> Rule:
        """How the token moves next: a placement off the field, a pending Empress D-move, else its
        card's rule (a token on the Centre has D = 0 and keeps its rule)."""
        if token.cell < 0:
            return Rule(Kind.ANY)
        if token.empress and EMPRESS_STEPS[token.cell]:
            return steps(EMPRESS_STEPS[token.cell])
        return self.card_rule(token)

    def targets(self, token: Token, rule: Rule) -> Targets:
        """Each choice of `rule` with the closed cards (the free ones for a jump) it may end on."""
        if rule.kind is Kind.STEPS:
            blocked = self.blocked()
            return [(n, BOARD.reach(token.cell, n, blocked) & self.closed) for n in rule.counts]
        if rule.kind is Kind.ANY:
            return [(0, self.closed)]
        if rule.kind is Kind.LINE:
            return [(0, BOARD.lines(token.cell) & self.closed)]
        if rule.kind is Kind.HERMIT:
            around = self.closed | self.empty
            return [(0, mask_of(c for c in bits(self.closed) if not NEIGHBOURS[c] & ~around))]
        if rule.kind is Kind.JUMP:
            return [(0, self.free_of_suit(self.suit_at(token.cell)))]
        raise ValueError(f"grid_tarot: no destinations for {rule}")

    def option_rules(self, token: Token) -> list[tuple[str, Rule]]:
        """Rule 19's ways out that the token's card and the team pool allow, whether or not they
        lead anywhere."""
        if token.cell < 0:
            return []
        found: list[tuple[str, Rule]] = []
        alone = sum(other.cell == token.cell for other in self.tokens) == 1
        # A covered card stays for the rest of the game (A2.13), and a card under another token
        # is not the jumper's to take.
        if self.suit_at(token.cell) is not None and token.cell not in self.covers and alone:
            found.append((Option.SUIT.value, Rule(Kind.JUMP)))
        pool = self.pool_of(token.seat)
        for option, (needed, counts) in POOL_OPTIONS.items():
            if all(arcanum in pool for arcanum in needed):
                found.append((option.value, steps(*counts)))
        if JUSTICE in pool:
            values = sorted({minor_steps(c) for c in pool if suit(c) is not None})
            found.extend((f"{Option.JUSTICE.value}{value}", steps(value)) for value in values)
        if STRENGTH in pool:
            own = self.card_rule(token)
            if own.kind is Kind.STEPS and own.counts:
                found.append((Option.STRENGTH.value, steps(*(2 * n for n in own.counts))))
        return found

    def options(self, token: Token) -> list[tuple[str, Rule, Targets]]:
        """The ways out that lead somewhere."""
        found = []
        for code, rule in self.option_rules(token):
            targets = self.targets(token, rule)
            if any(mask for _, mask in targets):
                found.append((code, rule, targets))
        return found

    def can_act(self, token: Token) -> bool:
        """Whether the token has a legal move, counting rule 19's ways out."""
        if any(mask for _, mask in self.targets(token, self.next_rule(token))):
            return True
        return bool(self.options(token))

    # ----- decisions ----------------------------------------------------------------------------

    def to_move(self) -> tuple[Seat, ...]:
        return whose_turn(bool(self.cards), self.turn, self.result is not None)

    def waiting(self) -> list[Token]:
        """The tokens of the seat to move that have not moved this turn."""
        return [t for t in self.seat_tokens(self.turn) if not self.moved >> (t.number - 1) & 1]

    def decision_targets(self) -> list[tuple[Token, Targets, bool]]:
        """Per token that may move now: its choices and whether its codes name the step count."""
        if self.phase is Phase.SELECT:
            found = []
            for token in self.waiting():
                rule = self.next_rule(token)
                targets = self.targets(token, rule)
                if any(mask for _, mask in targets):
                    found.append((token, targets, len(rule.counts) > 1))
            return found
        if self.phase is Phase.SWAP or self.active is None:
            return []
        rule = self.active_rule()
        return [(self.active, self.targets(self.active, rule), len(rule.counts) > 1)]

    def active_rule(self) -> Rule:
        assert self.active is not None
        if self.phase is Phase.CHARIOT:
            return chariot_rule(self.active.chariot)
        return dict(self.option_rules(self.active))[self.option]

    def swap_cells(self) -> int:
        """The Hanged Man's choice: free cards first, then closed ones."""
        if self.phase is not Phase.SWAP:
            return 0
        return self.free() if self.swap_free < 0 else self.closed

    def legal(self, seat: Seat) -> list[Action]:
        if seat != self.turn or self.result is not None or not self.cards:
            return []
        codes = BOARD.codes
        if self.phase is Phase.SWAP:
            prefix = SWAP_FREE if self.swap_free < 0 else SWAP_CLOSED
            return [f"{prefix}.{codes[c]}" for c in bits(self.swap_cells())]
        decisions = self.decision_targets()
        actions = [
            f"{token.number}.{codes[c]}.{n}" if counted else f"{token.number}.{codes[c]}"
            for token, targets, counted in decisions
            for n, mask in targets
            for c in bits(mask)
        ]
        if self.phase is Phase.SELECT:
            movable = {token for token, _, _ in decisions}
            for token in self.waiting():
                if token not in movable:
                    actions.extend(f"{token.number}.{code}" for code, _, _ in self.options(token))
        return actions

    # ----- applying actions ---------------------------------------------------------------------

    def apply(self, seat: Seat, action: Action) -> None:
        """Apply a legal action (the engine checks legality; play-outs pass only legal ones)."""
        if seat == CHANCE:
            self._chance(action)
            return
        head, _, rest = action.partition(".")
        if self.phase is Phase.SWAP:
            cell = BOARD.code_index[rest]
            if head == SWAP_FREE:
                self.swap_free = cell
                return
            token = self.active
            assert token is not None
            self._swap(token, self.swap_free, cell)
            self.phase, self.active = Phase.SELECT, None
            self._finish(token)
            return
        token = self.token(seat, int(head))
        parts = rest.split(".")
        if self.phase is Phase.SELECT and parts[0] not in BOARD.code_index:
            self.phase, self.active, self.option = Phase.OPTION, token, parts[0]
            return
        dest = BOARD.code_index[parts[0]]
        option = self.option if self.phase is Phase.OPTION else None
        repeat = self.phase is Phase.CHARIOT
        rule = self.next_rule(token) if self.phase is Phase.SELECT else self.active_rule()
        count = int(parts[1]) if len(parts) > 1 else (rule.counts[0] if rule.counts else 0)
        empress = self.phase is Phase.SELECT and token.empress and rule.kind is Kind.STEPS and token.cell >= 0
        empress = empress and EMPRESS_STEPS[token.cell] > 0
        self.phase, self.active, self.option = Phase.SELECT, None, ""
        self._move(token, rule, count, dest, option, repeat, empress)
        if self.phase is Phase.SELECT:
            self._finish(token)

    def _chance(self, action: Action) -> None:
        if action.startswith(DEAL):
            deck = list(deck78())
            random.Random(int(action.removeprefix(DEAL))).shuffle(deck)
            self.cards = [None] * BOARD.size
            for cell, card in zip(CARD_CELLS, deck, strict=True):
                self.cards[cell] = card
            self.closed = mask_of(CARD_CELLS)
            self.known = 0
            self.empty = 1 << CENTRE
            self.suits = suit_masks(self.cards)
            if self.players == 1:
                self.turn = 0
        else:
            self.turn = int(action.removeprefix(FIRST))

    def _emit(self, event: type[Event], **fields: Any) -> None:
        if self.events is not None:
            self.events.append(event(**fields))

    def _move(
        self,
        token: Token,
        rule: Rule,
        count: int,
        dest: int,
        option: str | None,
        repeat: bool,
        empress: bool,
    ) -> None:
        start = token.cell
        token.empress = False
        if option is not None:
            self._spend(token, option)
        if rule.kind is Kind.STEPS:
            path = BOARD.path(start, dest, self.blocked())
        elif rule.kind is Kind.LINE:
            path = BOARD.segment(start, dest)
        else:
            path = ()
        token.cell = dest
        card = self.cards[dest]
        assert card is not None
        kind = "place" if start < 0 else rule.kind.value
        self._emit(
            TokenMoved,
            seat=token.seat,
            token=token.number,
            start=start if start >= 0 else None,
            end=dest,
            card=card,
            kind=kind,
            steps=count if rule.kind is Kind.STEPS else None,
            empress=empress,
            repeat=repeat,
            option=option,
        )
        if rule.kind is Kind.JUMP:
            return  # rule 21: the jump lands on an open card, so nothing arrives
        self.closed &= ~(1 << dest)
        self.known &= ~(1 << dest)
        self.last = dest
        where = Arrival(token, start, dest, card, path, rule, count)
        for effect in arrival(card):
            EFFECTS[effect](self, where)

    def _spend(self, token: Token, option: str) -> None:
        """Rule 19: the jump takes the token's minor; the other ways out lay their arcana on it."""
        cell = token.cell
        pool = self.pool_of(token.seat)
        if option == Option.SUIT:
            card = self.cards[cell]
            assert card is not None
            self.cards[cell] = None
            self.empty |= 1 << cell
            self.suits[card[-1]] &= ~(1 << cell)
            pool.append(card)
            pool.sort()
            self._emit(
                OptionUsed,
                seat=token.seat,
                token=token.number,
                option=option,
                cards=(card,),
                cell=cell,
                taken=True,
            )
            return
        if option.startswith(Option.JUSTICE):
            value = int(option.removeprefix(Option.JUSTICE))
            minor = min(c for c in pool if suit(c) is not None and minor_steps(c) == value)
            laid: tuple[Card, ...] = (JUSTICE, minor)
        elif option == Option.STRENGTH:
            laid = (STRENGTH,)
        else:
            laid = POOL_OPTIONS[Option(option)][0]
        for card in laid:
            pool.remove(card)
        self.covers[cell] = (*self.covers.get(cell, ()), *laid)
        self._emit(
            OptionUsed, seat=token.seat, token=token.number, option=option, cards=laid, cell=cell, taken=False
        )

    # ----- arrival effects (the Major Arcana table), one small function each --------------------

    def _take(self, at: Arrival) -> None:
        pool = self.pool_of(at.token.seat)
        pool.append(at.card)
        pool.sort()
        self.cards[at.cell] = None
        self.empty |= 1 << at.cell
        self._emit(Taken, seat=at.token.seat, team=self.teams[at.token.seat], card=at.card, cell=at.cell)

    def _return(self, at: Arrival) -> None:
        at.token.cell = at.start
        self._emit(
            Returned, seat=at.token.seat, token=at.token.number, cell=at.start if at.start >= 0 else None
        )

    def _set_empress(self, at: Arrival) -> None:
        marked = [token for token in self.tokens if token.cell >= 0]
        for token in marked:
            token.empress = True
        self._emit(
            EmpressSet, seat=at.token.seat, cell=at.cell, tokens=tuple((t.seat, t.number) for t in marked)
        )

    def _repeat(self, at: Arrival) -> None:
        token = at.token
        token.chariot = chariot_code(at.rule, at.step_count)
        rule = chariot_rule(token.chariot)
        possible = any(mask for _, mask in self.targets(token, rule))
        if possible:
            self.phase, self.active = Phase.CHARIOT, token
        self._emit(
            ChariotRepeat,
            seat=token.seat,
            token=token.number,
            kind=rule.kind.value,
            steps=rule.counts[0] if rule.kind is Kind.STEPS else None,
            possible=possible,
        )

    def _flip_path(self, at: Arrival) -> None:
        free = self.free()
        opened = [c for c in at.path if self.closed >> c & 1]
        closing = [c for c in at.path if free >> c & 1]
        self.closed = (self.closed & ~mask_of(opened)) | mask_of(closing)
        self.known = (self.known & ~mask_of(opened)) | mask_of(closing)
        self._emit(
            WheelTurned,
            seat=at.token.seat,
            cell=at.cell,
            opened=tuple(opened),
            cards=tuple(self.cards[c] for c in opened),
            closed=tuple(closing),
        )

    def _start_swap(self, at: Arrival) -> None:
        if self.free() and self.closed:
            self.phase, self.active, self.swap_free = Phase.SWAP, at.token, -1
        else:
            self._emit(Swapped, seat=at.token.seat, token=at.token.number, free=None, closed=None, card=None)

    def _swap(self, token: Token, free: int, closed: int) -> None:
        cards = self.cards
        cards[free], cards[closed] = cards[closed], cards[free]
        self.closed = (self.closed & ~(1 << closed)) | (1 << free)
        # Everyone watched the closed card move: it is as well known at `free` as it was before.
        self.known = (self.known & ~(1 << closed)) | ((self.known >> closed & 1) << free)
        for cell in (free, closed):
            for key in self.suits:
                self.suits[key] &= ~(1 << cell)
            card = cards[cell]
            if card is not None and not is_major(card):
                self.suits[card[-1]] |= 1 << cell
        self.swap_free = -1
        self._emit(Swapped, seat=token.seat, token=token.number, free=free, closed=closed, card=cards[closed])

    def _close(self, at: Arrival, area: int) -> None:
        closing = self.free() & area
        self.closed |= closing
        self.known |= closing
        self._emit(CardsClosed, seat=at.token.seat, arcanum=at.card, cell=at.cell, cells=tuple(bits(closing)))

    def _open(self, at: Arrival, area: int) -> None:
        opening = self.closed & area
        self.closed &= ~opening
        self.known &= ~opening
        cells = tuple(bits(opening))
        self._emit(
            CardsOpened,
            seat=at.token.seat,
            arcanum=at.card,
            cell=at.cell,
            cells=cells,
            cards=tuple(self.cards[c] for c in cells),
        )

    def _close_lines(self, at: Arrival) -> None:
        self._close(at, BOARD.lines(at.cell))

    def _close_area(self, at: Arrival) -> None:
        self._close(at, BOARD.area(at.cell, AREA_RADIUS))

    def _close_path(self, at: Arrival) -> None:
        self._close(at, mask_of(at.path))

    def _open_path(self, at: Arrival) -> None:
        self._open(at, mask_of(at.path))

    def _open_around(self, at: Arrival) -> None:
        # After a return from a first placement the token is off the field: nothing is around it.
        self._open(at, BOARD.area(at.token.cell, AREA_RADIUS) if at.token.cell >= 0 else 0)

    def _to_centre(self, at: Arrival) -> None:
        self.cards[CENTRE], self.cards[at.cell] = at.card, None
        self.empty = (self.empty & ~(1 << CENTRE)) | (1 << at.cell)
        at.token.cell = self.last = CENTRE
        self._emit(WorldMoved, seat=at.token.seat, token=at.token.number, cell=at.cell, centre=CENTRE)

    # ----- turns and the end (rules 8, 19, 23) ----------------------------------------------------

    def _finish(self, token: Token) -> None:
        """The token's move is over, effects and all: check the end, then find who acts next."""
        self.moved |= 1 << (token.number - 1)
        self._check_end()
        self._advance()

    def _advance(self) -> None:
        """Pass the turn on past seats whose tokens have all moved, skipping tokens that cannot."""
        while self.result is None:
            waiting = self.waiting()
            if not waiting:
                self.turn, self.moved = (self.turn + 1) % self.players, 0
                continue
            if any(self.can_act(token) for token in waiting):
                return
            for token in waiting:
                self._emit(Skipped, seat=token.seat, token=token.number, empress=token.empress)
                token.empress = False
                self.moved |= 1 << (token.number - 1)
                self._check_end()
                if self.result is not None:
                    return

    def _check_end(self) -> None:
        """Rule 23, on the board as it is now: a single team wins on a cleared field and loses when
        hopeless; with several teams the hopeless ones lose, all at once a draw."""
        if self.team_count == 1 and not self.closed:
            self.result = Outcome(winners=tuple(range(self.players)))
            return
        hopeless = [
            team
            for team in range(self.team_count)
            if not any(self.can_act(t) for t in self.tokens if self.teams[t.seat] == team)
        ]
        if not hopeless:
            return
        for team in hopeless:
            self._emit(
                TeamHopeless, team=team, seats=tuple(s for s in range(self.players) if self.teams[s] == team)
            )
        losers = tuple(s for s in range(self.players) if self.teams[s] in hopeless)
        if len(hopeless) == self.team_count > 1:
            self.result = Outcome(winners=(), draw=True)
        else:
            self.result = Outcome(
                winners=tuple(s for s in range(self.players) if s not in losers), losers=losers
            )


EFFECTS: dict[Effect, Callable[[Position, Arrival], None]] = {
    Effect.TAKE: Position._take,
    Effect.RETURN: Position._return,
    Effect.EMPRESS: Position._set_empress,
    Effect.REPEAT: Position._repeat,
    Effect.FLIP_PATH: Position._flip_path,
    Effect.SWAP: Position._start_swap,
    Effect.CLOSE_LINES: Position._close_lines,
    Effect.CLOSE_AREA: Position._close_area,
    Effect.CLOSE_PATH: Position._close_path,
    Effect.OPEN_PATH: Position._open_path,
    Effect.OPEN_AROUND: Position._open_around,
    Effect.TO_CENTRE: Position._to_centre,
}
