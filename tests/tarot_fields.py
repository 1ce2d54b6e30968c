"""Hand-built Game 2 positions for the rule tests: only the cards a test names lie on the field
(every other card position is empty), so each example's reachable set is exact."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from core.board import Cell, cell_code
from core.cards import Card, deck78, is_major
from core.engine import Event, Step
from core.games.grid_tarot import GridTarotGame, GridTarotState, GridTarotView, TokenState
from core.games.grid_tarot_rules import BOARD, CENTRE

GAME = GridTarotGame()


def index(cell: Cell) -> int:
    return BOARD.index[cell]


def code(cell: Cell) -> str:
    return cell_code(cell)


def field(
    *,
    cards: Mapping[Cell, Card],
    closed: Mapping[Cell, Card] | Iterable[Cell] = (),
    tokens: Sequence[Sequence[Cell | None]],
    pools: Sequence[Sequence[Card]] = (),
    covers: Mapping[Cell, tuple[Card, ...]] | None = None,
    teams: Sequence[int] | None = None,
    turn: int = 0,
    empress: Iterable[tuple[int, int]] = (),
    chariot: Mapping[tuple[int, int], str] | None = None,
) -> GridTarotState:
    """`cards` on their cells, face down where listed in `closed` (which may name their cards
    too; a closed cell with no card named gets an unused minor); `tokens[seat]` lists that seat's
    token cells; `empress` and `chariot` are keyed by (seat, token number)."""
    placed = dict(cards)
    if isinstance(closed, Mapping):
        placed.update(closed)
    spare = iter(card for card in deck78() if not is_major(card) and card not in placed.values())
    closed = list(closed)
    for cell in closed:
        placed.setdefault(cell, next(spare))
    layout_cards: list[Card | None] = [None] * BOARD.size
    for cell, card in placed.items():
        layout_cards[index(cell)] = card
    players = len(tokens)
    per_seat = len(tokens[0])
    pending = set(empress)
    remembered = dict(chariot or {})
    teams_map = tuple(teams) if teams is not None else tuple(range(players))
    pool_list = [tuple(sorted(pool)) for pool in pools]
    pool_list += [()] * (max(teams_map) + 1 - len(pool_list))
    return GridTarotState(
        players=players,
        options={"tokens": per_seat},
        teams=teams_map,
        cards=tuple(layout_cards),
        closed=tuple(sorted(index(cell) for cell in closed)),
        covers=tuple(sorted((index(cell), cover) for cell, cover in (covers or {}).items())),
        tokens=tuple(
            TokenState(
                seat=seat,
                number=number,
                cell=index(cell) if cell is not None else None,
                empress=(seat, number) in pending,
                chariot=remembered.get((seat, number), ""),
            )
            for seat, cells in enumerate(tokens)
            for number, cell in enumerate(cells, start=1)
        ),
        pools=tuple(pool_list),
        turn=turn,
    )


def move(state: GridTarotState, seat: int, action: str) -> Step:
    assert action in GAME.legal_actions(state, seat), (action, GAME.legal_actions(state, seat))
    return GAME.apply(state, seat, action)


def events_of(step: Step, kind: type[Event]) -> list[Event]:
    return [event for event in step.events if isinstance(event, kind)]


def cells_view(state: GridTarotState) -> GridTarotView:
    return GAME.view(state, None)


def looks(state: GridTarotState, cell: Cell) -> str:
    """The cell's state as the view shows it: closed, open, covered, empty or hole."""
    return cells_view(state).cells[index(cell)]


def targets(state: GridTarotState, seat: int, number: int = 1) -> set[Cell]:
    """The cells the token may end on now, from the view."""
    reach = dict(GAME.view(state, seat).reachable)
    return {BOARD.layout[i] for i in reach.get(number, ())}


def token_cell(state: GridTarotState, seat: int, number: int = 1) -> Cell | None:
    token = next(t for t in state.tokens if t.seat == seat and t.number == number)
    return BOARD.layout[token.cell] if token.cell is not None else None


def next_counts(state: GridTarotState, seat: int, number: int = 1) -> tuple[str, tuple[int, ...]]:
    token = next(t for t in GAME.view(state, None).tokens if t.seat == seat and t.number == number)
    return token.kind, token.counts


CENTRE_CELL: Cell = BOARD.layout[CENTRE]
