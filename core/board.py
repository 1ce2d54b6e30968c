"""Grid geometry shared by the card-grid games, Gold and the race track (DESIGN.md, "Shared kernels").

A layout is data: a tuple of (row, col) cells, row 0 at the top (RULES.md 0.3). A `Board` holds one
layout's geometry by cell index (the index of the cell in the layout): neighbours, BFS distances
around blocked cells, the parity reach of a step move (RULES.md rule 10 / A1.2 / A2.2), the
canonical path (A2.3), Manhattan areas (A2.6), rows and columns. Sets of cells are bit masks (bit i
= cell i), so computer players can combine them in loops; everything that depends only on the
layout and the blocked cells is computed once and cached.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from functools import cache

Cell = tuple[int, int]
Layout = tuple[Cell, ...]
#: The indices of impassable cells; callers keep a few constant sets of them (the caches key on them).
Blocked = frozenset[int]

NOTHING_BLOCKED: Blocked = frozenset()
COLUMN_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
#: Orthogonal directions in the canonical path's priority order (A2.3): N, E, S, W.
DIRECTIONS: tuple[Cell, ...] = ((-1, 0), (0, 1), (1, 0), (0, -1))


def rectangle(rows: int, cols: int) -> Layout:
    """Every cell of a rows x cols rectangle, in reading order."""
    return tuple((row, col) for row in range(rows) for col in range(cols))


def centred_rows(widths: Iterable[int]) -> Layout:
    """Rows of the given widths, each centred in the widest one, in reading order (an oval)."""
    widths = tuple(widths)
    widest = max(widths)
    return tuple(
        (row, col)
        for row, width in enumerate(widths)
        for col in range((widest - width) // 2, (widest + width) // 2)
    )


def snake(length: int, cols: int) -> Layout:
    """Where each position of a 1-D track of `length` lies when it is laid out as a snake, `cols`
    positions a row: left to right on even rows, right to left on odd ones."""
    return tuple(
        (i // cols, i % cols if (i // cols) % 2 == 0 else cols - 1 - i % cols) for i in range(length)
    )


def cell_code(cell: Cell) -> str:
    """The label printed on the picture and on the button: column letter, row number (`"D3"`)."""
    row, col = cell
    return f"{COLUMN_LETTERS[col]}{row + 1}"


def bits(mask: int) -> list[int]:
    """The cell indices of a mask, low to high."""
    cells = []
    while mask:
        low = mask & -mask
        cells.append(low.bit_length() - 1)
        mask ^= low
    return cells


def mask_of(cells: Iterable[int]) -> int:
    mask = 0
    for cell in cells:
        mask |= 1 << cell
    return mask


class Board:
    """One layout's geometry by cell index. Get one with `board(layout)`, which caches it."""

    def __init__(self, layout: Layout) -> None:
        self.layout = layout
        self.size = len(layout)
        self.full = (1 << self.size) - 1
        self.index: dict[Cell, int] = {cell: i for i, cell in enumerate(layout)}
        self.codes: tuple[str, ...] = tuple(cell_code(cell) for cell in layout)
        self.code_index: dict[str, int] = {code: i for i, code in enumerate(self.codes)}
        #: Per cell, its neighbour in each of DIRECTIONS, or -1 off the field.
        self.steps: tuple[tuple[int, ...], ...] = tuple(
            tuple(self.index.get((row + dr, col + dc), -1) for dr, dc in DIRECTIONS) for row, col in layout
        )
        self._distances: dict[Blocked, tuple[tuple[int, ...], ...]] = {}
        self._reach: dict[tuple[Blocked, int, int], int] = {}
        self._areas: dict[tuple[int, int], int] = {}
        self._lines = tuple(
            mask_of(j for j, (r, c) in enumerate(layout) if (r == row) != (c == col)) for row, col in layout
        )

    def cell(self, code: str) -> int | None:
        """The index of a cell code, None for a code off the field."""
        return self.code_index.get(code)

    def distances(self, blocked: Blocked = NOTHING_BLOCKED) -> tuple[tuple[int, ...], ...]:
        """All-pairs BFS distances over the cells that are not blocked; -1 where no path exists (and
        from or to a blocked cell). On a full rectangle this is the Manhattan distance."""
        table = self._distances.get(blocked)
        if table is None:
            table = tuple(self._bfs(start, blocked) for start in range(self.size))
            self._distances[blocked] = table
        return table

    def _bfs(self, start: int, blocked: Blocked) -> tuple[int, ...]:
        dist = [-1] * self.size
        if start in blocked:
            return tuple(dist)
        dist[start] = 0
        queue = deque([start])
        while queue:
            here = queue.popleft()
            for there in self.steps[here]:
                if there >= 0 and dist[there] < 0 and there not in blocked:
                    dist[there] = dist[here] + 1
                    queue.append(there)
        return tuple(dist)

    def reach(self, here: int, steps: int, blocked: Blocked = NOTHING_BLOCKED) -> int:
        """The cells a path of exactly `steps` orthogonal steps from `here` may end on, revisits
        allowed, as a mask: BFS distance d <= steps with steps - d even (rule 10, A2.2)."""
        key = (blocked, here, steps)
        mask = self._reach.get(key)
        if mask is None:
            mask = mask_of(
                i
                for i, d in enumerate(self.distances(blocked)[here])
                if 0 <= d <= steps and (steps - d) % 2 == 0
            )
            self._reach[key] = mask
        return mask

    def path(self, start: int, end: int, blocked: Blocked = NOTHING_BLOCKED) -> tuple[int, ...]:
        """The cells strictly between `start` and `end` on the canonical shortest path (A2.3): from
        the start, always the first of N, E, S, W that brings the BFS distance to `end` down by 1.
        Empty when `end` cannot be reached."""
        to_end = self.distances(blocked)[end]
        if to_end[start] < 0:
            return ()
        cells: list[int] = []
        here = start
        while to_end[here] > 1:
            closer = to_end[here] - 1
            here = next(there for there in self.steps[here] if there >= 0 and to_end[there] == closer)
            cells.append(here)
        return tuple(cells)

    def segment(self, start: int, end: int) -> tuple[int, ...]:
        """The field cells strictly between two cells of one row or one column, start to end; holes
        and off-field gaps are skipped (nothing blocks a straight line)."""
        (r0, c0), (r1, c1) = self.layout[start], self.layout[end]
        if r0 != r1 and c0 != c1:
            raise ValueError(f"{self.codes[start]} and {self.codes[end]} share no row or column")
        length = abs(r1 - r0) + abs(c1 - c0)
        dr, dc = (r1 - r0) // max(length, 1), (c1 - c0) // max(length, 1)
        between = ((r0 + dr * k, c0 + dc * k) for k in range(1, length))
        return tuple(self.index[cell] for cell in between if cell in self.index)

    def area(self, cell: int, radius: int) -> int:
        """The other field cells within Manhattan distance `radius` of `cell`, ignoring passability
        (A2.6), as a mask."""
        key = (cell, radius)
        mask = self._areas.get(key)
        if mask is None:
            row, col = self.layout[cell]
            near = (j for j, (r, c) in enumerate(self.layout) if 0 < abs(r - row) + abs(c - col) <= radius)
            mask = mask_of(near)
            self._areas[key] = mask
        return mask

    def lines(self, cell: int) -> int:
        """The other cells of `cell`'s row and column, as a mask."""
        return self._lines[cell]

    def neighbours(self, cell: int) -> tuple[int, ...]:
        """The orthogonal neighbours on the field, in N, E, S, W order."""
        return tuple(there for there in self.steps[cell] if there >= 0)


@cache
def board(layout: Layout) -> Board:
    """The (cached) geometry of a layout."""
    return Board(layout)


def cell_codes(layout: Layout) -> tuple[str, ...]:
    """`cell_code` of every cell in layout order."""
    return board(layout).codes
