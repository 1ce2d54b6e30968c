"""Game 2: card-grid exploration on the 78-card Tarot deck (RULES.md, Game 2, rules 1-23).

The rules live in `core.games.grid_tarot_rules` on plain data; this module is the engine's face:
the pydantic state and view, conversions both ways, sampling and labels. Action codes are listed
in the rules module's docstring; events are in `core.games.grid_tarot_events`.

Hidden information: only the identities of the closed cards nobody has seen. Which positions are
closed is public, and so is a closed card that was face up before an effect closed it (everyone saw
it), so every seat's view and the public one show the same field.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from core.board import Cell, bits, mask_of
from core.cards import Card, deck78, major_name
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
    Simulation,
    State,
    outcome_returns,
    sample_chance,
)
from core.games.grid_tarot_arcana import HIEROPHANT, JUSTICE, PRIESTESS, STAR, STRENGTH, Option
from core.games.grid_tarot_rules import (
    BOARD,
    CENTRE,
    DEAL,
    FIRST,
    LAYOUT,
    Phase,
    Position,
    Token,
    suit_masks,
    whose_turn,
)
from i18n import N_, t, tn

TOKENS = "tokens"


class TokenState(Frozen):
    seat: Seat
    #: 1 or 2 within the seat, as in the action codes.
    number: int
    #: None: off the field (before its first placement, or returned from it, A2.7).
    cell: int | None = None
    #: Its next move is an Empress D-move (rule 17).
    empress: bool = False
    #: The move that brought it onto the Chariot: a step count, or any / line / hermit (A2.8).
    chariot: str = ""


class GridTarotState(State):
    game: str = "grid_tarot"
    #: The card at each layout position; None for an empty position and the Centre hole. Empty
    #: until the deal.
    cards: tuple[Card | None, ...] = ()
    closed: tuple[int, ...] = ()
    #: The closed positions whose card every player has seen (turned face down again by an effect).
    known: tuple[int, ...] = ()
    #: (cell, the arcana laid on it, bottom first), by cell.
    covers: tuple[tuple[int, tuple[Card, ...]], ...] = ()
    #: Seat by seat, token by token.
    tokens: tuple[TokenState, ...] = ()
    #: Per team, the taken cards, sorted; empty until the first one is taken.
    pools: tuple[tuple[Card, ...], ...] = ()
    turn: Seat = CHANCE
    #: Numbers of `turn`'s tokens that have moved this turn.
    moved: tuple[int, ...] = ()
    phase: Phase = Phase.SELECT
    #: The token (number) resolving an option, the Chariot or the Hanged Man.
    active: int | None = None
    option: str | None = None
    #: The Hanged Man's free card, once chosen.
    swap_free: int | None = None
    #: The position the last move turned up.
    last: int | None = None
    result: Outcome | None = None


class TokenView(Frozen):
    seat: Seat
    number: int
    cell: int | None
    empress: bool
    chariot: str
    #: Moved already this turn (only for the seat to move).
    moved: bool
    #: Its next move: the kind (steps, any, line, hermit) and the step counts to choose among
    #: (none for other kinds, and none on the Tower).
    kind: str
    counts: tuple[int, ...]


class CellState:
    CLOSED = "closed"
    OPEN = "open"
    COVERED = "covered"
    EMPTY = "empty"
    HOLE = "hole"


class GridTarotView(Frozen):
    """The whole field as anyone may see it: closed cards show only that they are closed."""

    seat: Seat | None
    players: int
    tokens_per_player: int
    teams: tuple[int, ...]
    layout: tuple[Cell, ...]
    #: The cell codes of the buttons and the picture's margins (`"D3"`).
    codes: tuple[str, ...]
    centre: int
    #: Per position: closed, open, covered, empty or hole (`CellState`); empty before the deal.
    cells: tuple[str, ...]
    #: The face of each open or covered card (the World on the Centre once it is there), else None.
    faces: tuple[Card | None, ...]
    #: The card of each closed position that every player has seen face up before an effect
    #: closed it again, else None; empty before the deal.
    seen: tuple[Card | None, ...]
    #: Arcana laid on each position, bottom first.
    covers: tuple[tuple[Card, ...], ...]
    tokens: tuple[TokenView, ...]
    #: Per team, the taken cards.
    pools: tuple[tuple[Card, ...], ...]
    to_move: Seat | None
    phase: str
    active: int | None
    option: str | None
    swap_free: int | None
    #: (token number, the cells it may end on now), for the seat to move.
    reachable: tuple[tuple[int, tuple[int, ...]], ...]
    #: (token number, the rule-19 option codes it must choose among), for hopeless tokens.
    options: tuple[tuple[int, tuple[str, ...]], ...]
    #: The Hanged Man's choice: free cards, then (after `swap_free`) closed ones.
    swap_cells: tuple[int, ...]
    closed: int
    last: int | None
    outcome: Outcome | None


def position(state: GridTarotState) -> Position:
    """The state on plain data, to apply the rules to."""
    pos = Position(state.players, int(state.options[TOKENS]), state.teams)
    pos.cards = list(state.cards)
    pos.closed = mask_of(state.closed)
    pos.known = mask_of(state.known)
    pos.empty = mask_of(i for i, card in enumerate(state.cards) if card is None)
    pos.suits = suit_masks(state.cards)
    pos.covers = dict(state.covers)
    for token, saved in zip(pos.tokens, state.tokens, strict=True):
        token.cell = saved.cell if saved.cell is not None else -1
        token.empress, token.chariot = saved.empress, saved.chariot
    if state.pools:
        pos.pools = [list(pool) for pool in state.pools]
    pos.turn = state.turn
    pos.moved = mask_of(number - 1 for number in state.moved)
    pos.phase = state.phase
    pos.active = pos.token(state.turn, state.active) if state.active is not None else None
    pos.option = state.option or ""
    pos.swap_free = state.swap_free if state.swap_free is not None else -1
    pos.last = state.last if state.last is not None else -1
    pos.result = state.result
    return pos


def _token_state(token: Token) -> TokenState:
    return TokenState(
        seat=token.seat,
        number=token.number,
        cell=token.cell if token.cell >= 0 else None,
        empress=token.empress,
        chariot=token.chariot,
    )


def saved(pos: Position, base: GridTarotState) -> GridTarotState:
    """`base` with the position's fields."""
    return base.model_copy(
        update={
            "cards": tuple(pos.cards),
            "closed": tuple(bits(pos.closed)),
            "known": tuple(bits(pos.known)),
            "covers": tuple(sorted(pos.covers.items())),
            "tokens": tuple(_token_state(token) for token in pos.tokens),
            "pools": tuple(tuple(pool) for pool in pos.pools),
            "turn": pos.turn,
            "moved": tuple(number for number in (1, 2) if pos.moved >> (number - 1) & 1),
            "phase": pos.phase,
            "active": pos.active.number if pos.active is not None else None,
            "option": pos.option or None,
            "swap_free": pos.swap_free if pos.swap_free >= 0 else None,
            "last": pos.last if pos.last >= 0 else None,
            "result": pos.result,
        }
    )


class TarotGridSimulation:
    """The rules' `Position` behind the engine's `Simulation` face, for play-outs."""

    def __init__(self, pos: Position) -> None:
        self.pos = pos

    def to_move(self) -> Sequence[Seat]:
        return self.pos.to_move()

    def legal(self, seat: Seat) -> Sequence[Action]:
        return sorted(set(self.pos.legal(seat)))

    def apply(self, seat: Seat, action: Action) -> None:
        self.pos.apply(seat, action)

    def chance(self, rng: random.Random) -> Action:
        return sample_chance(chance_outcomes(self.pos), rng)

    def copy(self) -> TarotGridSimulation:
        return TarotGridSimulation(self.pos.copy())

    def returns(self) -> Sequence[float]:
        return outcome_returns(self.pos.result, self.pos.players)


def chance_outcomes(pos: Position) -> ChanceOutcomes:
    if not pos.cards:
        return SeedOutcomes(prefix=DEAL)
    return tuple(f"{FIRST}{seat}" for seat in range(pos.players))


def cell_state(pos: Position, cell: int) -> str:
    if pos.cards[cell] is None:
        return CellState.HOLE if cell == CENTRE else CellState.EMPTY
    if pos.closed >> cell & 1:
        return CellState.CLOSED
    return CellState.COVERED if cell in pos.covers else CellState.OPEN


class GridTarotGame(Game[GridTarotState, GridTarotView]):
    id = "grid_tarot"
    state_type = GridTarotState
    view_type = GridTarotView
    min_players = 1
    max_players = 4
    teams = True
    #: A2.10: one setting for every player.
    options = (OptionSpec(name=TOKENS, choices=(1, 2), default=1, label=N_("Tokens per player")),)

    def _initial(self, players: int, options: Mapping[str, OptionValue]) -> GridTarotState:
        return GridTarotState(
            players=players,
            options=options,
            tokens=tuple(
                TokenState(seat=seat, number=number)
                for seat in range(players)
                for number in range(1, int(options[TOKENS]) + 1)
            ),
        )

    def _to_move(self, state: GridTarotState) -> tuple[Seat, ...]:
        return whose_turn(bool(state.cards), state.turn, state.result is not None)

    def _legal(self, state: GridTarotState, seat: Seat) -> Sequence[Action]:
        return position(state).legal(seat)

    def _chance_outcomes(self, state: GridTarotState) -> ChanceOutcomes:
        return chance_outcomes(position(state))

    def _apply(
        self, state: GridTarotState, seat: Seat, action: Action
    ) -> tuple[GridTarotState, Sequence[Event]]:
        pos = position(state)
        pos.events = []
        pos.apply(seat, action)
        return saved(pos, state), pos.events

    def outcome(self, state: GridTarotState) -> Outcome | None:
        return state.result

    def simulation(self, state: GridTarotState) -> Simulation:
        return TarotGridSimulation(position(state))

    def _view(self, state: GridTarotState, seat: Seat | None) -> GridTarotView:
        pos = position(state)
        dealt = bool(pos.cards)
        acting = pos.to_move() not in ((), (CHANCE,))
        mover = pos.turn if acting else None
        cells = tuple(cell_state(pos, i) for i in range(BOARD.size)) if dealt else ()
        faces = tuple(
            card if look != CellState.CLOSED else None for card, look in zip(pos.cards, cells, strict=True)
        )
        reachable: list[tuple[int, tuple[int, ...]]] = []
        hopeless: list[tuple[int, tuple[str, ...]]] = []
        if acting:
            for token, targets, _ in pos.decision_targets():
                union = 0
                for _, mask in targets:
                    union |= mask
                reachable.append((token.number, tuple(bits(union))))
            if pos.phase is Phase.SELECT:
                movable = {number for number, _ in reachable}
                for token in pos.waiting():
                    ways = tuple(code for code, _, _ in pos.options(token))
                    if token.number not in movable and ways:
                        hopeless.append((token.number, ways))
        return GridTarotView(
            seat=seat,
            players=state.players,
            tokens_per_player=pos.per_seat,
            teams=state.teams,
            layout=LAYOUT,
            codes=BOARD.codes,
            centre=CENTRE,
            cells=cells,
            faces=faces,
            seen=tuple(card if pos.known >> i & 1 else None for i, card in enumerate(pos.cards))
            if dealt
            else (),
            covers=tuple(pos.covers.get(i, ()) for i in range(BOARD.size)) if dealt else (),
            tokens=tuple(self._token_view(pos, token, mover) for token in pos.tokens),
            pools=tuple(tuple(pool) for pool in pos.pools),
            to_move=mover,
            phase=pos.phase.value,
            active=pos.active.number if pos.active is not None else None,
            option=pos.option or None,
            swap_free=pos.swap_free if pos.swap_free >= 0 else None,
            reachable=tuple(reachable),
            options=tuple(hopeless),
            swap_cells=tuple(bits(pos.swap_cells())),
            closed=pos.closed.bit_count(),
            last=pos.last if pos.last >= 0 else None,
            outcome=pos.result,
        )

    @staticmethod
    def _token_view(pos: Position, token: Token, mover: Seat | None) -> TokenView:
        rule = pos.next_rule(token) if pos.cards else None
        return TokenView(
            seat=token.seat,
            number=token.number,
            cell=token.cell if token.cell >= 0 else None,
            empress=token.empress,
            chariot=token.chariot,
            moved=token.seat == mover and bool(pos.moved >> (token.number - 1) & 1),
            kind=rule.kind.value if rule is not None else "any",
            counts=rule.counts if rule is not None else (),
        )

    def _sample(self, view: GridTarotView, rng: random.Random) -> GridTarotState:
        """The closed positions nobody has seen dealt the cards nobody has seen: the deck less the
        faces, the seen closed cards, the covers and the pools."""
        state = GridTarotState(
            players=view.players,
            options={TOKENS: view.tokens_per_player},
            teams=view.teams,
            tokens=tuple(
                TokenState(
                    seat=tv.seat, number=tv.number, cell=tv.cell, empress=tv.empress, chariot=tv.chariot
                )
                for tv in view.tokens
            ),
        )
        if not view.cells:
            return state
        seen = {card for card in view.faces if card is not None}
        seen.update(card for card in view.seen if card is not None)
        seen.update(card for cover in view.covers for card in cover)
        seen.update(card for pool in view.pools for card in pool)
        unseen = [card for card in deck78() if card not in seen]
        rng.shuffle(unseen)
        cards = [
            (known or unseen.pop()) if cell == CellState.CLOSED else face
            for cell, face, known in zip(view.cells, view.faces, view.seen, strict=True)
        ]
        mover = view.to_move
        return state.model_copy(
            update={
                "cards": tuple(cards),
                "closed": tuple(i for i, cell in enumerate(view.cells) if cell == CellState.CLOSED),
                "known": tuple(i for i, card in enumerate(view.seen) if card is not None),
                "covers": tuple((i, cover) for i, cover in enumerate(view.covers) if cover),
                "pools": view.pools,
                "turn": mover if mover is not None else CHANCE,
                "moved": tuple(tv.number for tv in view.tokens if tv.moved),
                "phase": Phase(view.phase),
                "active": view.active,
                "option": view.option,
                "swap_free": view.swap_free,
                "last": view.last,
                "result": view.outcome,
            }
        )

    def shuffle_hidden(self, state: GridTarotState, seat: Seat | None, rng: random.Random) -> GridTarotState:
        """Deal the closed cards nobody has seen again among their positions."""
        cards = list(state.cards)
        cells = sorted(set(state.closed) - set(state.known))
        hidden = [cards[i] for i in cells]
        rng.shuffle(hidden)
        for cell, card in zip(cells, hidden, strict=True):
            cards[cell] = card
        return state.model_copy(update={"cards": tuple(cards)})

    def label(self, action: Action, lang: str) -> str:
        """A move shows its cell (and the count where the rule offers several); a way out its
        arcana. The token is the keyboard's first step, so it is not repeated here."""
        parts = action.split(".")[1:]
        if parts[0] in BOARD.code_index:
            if len(parts) > 1:
                return tn(lang, "{cell}: {n} step", "{cell}: {n} steps", int(parts[1]), cell=parts[0])
            return parts[0]
        code = parts[0]
        if code == Option.SUIT:
            return t(lang, "Same suit")
        if code == Option.STAR:
            return major_name(STAR, lang)
        if code == Option.PRIESTESS_HIEROPHANT:
            return t(
                lang,
                "{first} + {second}",
                first=major_name(PRIESTESS, lang),
                second=major_name(HIEROPHANT, lang),
            )
        if code == Option.STRENGTH:
            return major_name(STRENGTH, lang)
        if code.startswith(Option.JUSTICE):
            return t(
                lang,
                "{first} + {second}",
                first=major_name(JUSTICE, lang),
                second=code.removeprefix(Option.JUSTICE),
            )
        raise ValueError(f"{self.id}: no action {action!r}")
