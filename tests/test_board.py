"""The shared board geometry (core/board.py): layouts, BFS around blocked cells, parity reach, the
canonical path, areas, lines, segments, cell codes and the snake track."""

from __future__ import annotations

from itertools import pairwise

import pytest

from core.board import bits, board, cell_code, centred_rows, mask_of, rectangle, snake

RECT = board(rectangle(5, 7))
OVAL = board(centred_rows((9, 11, 13, 13, 13, 11, 9)))
CENTRE = OVAL.index[(3, 6)]
HOLE = frozenset({CENTRE})


def at(cells: list[int]) -> set[tuple[int, int]]:
    return {OVAL.layout[i] for i in cells}


def test_layouts_as_data() -> None:
    assert rectangle(2, 3) == ((0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2))
    oval = OVAL.layout
    assert len(oval) == 79
    assert [sum(1 for r, _ in oval if r == row) for row in range(7)] == [9, 11, 13, 13, 13, 11, 9]
    assert min(c for r, c in oval if r == 0) == 2 and max(c for r, c in oval if r == 0) == 10
    assert min(c for r, c in oval if r == 1) == 1 and max(c for r, c in oval if r == 5) == 11


def test_cell_codes_are_column_letter_and_row_number() -> None:
    assert cell_code((2, 3)) == "D3"
    assert RECT.codes[RECT.index[(4, 6)]] == "G5"
    assert OVAL.cell("G4") == CENTRE
    assert OVAL.cell("A1") is None  # (0, 0) is off the oval


def test_distances_are_manhattan_on_a_rectangle() -> None:
    table = RECT.distances()
    for i, (r0, c0) in enumerate(RECT.layout):
        for j, (r1, c1) in enumerate(RECT.layout):
            assert table[i][j] == abs(r0 - r1) + abs(c0 - c1)


def test_a_blocked_cell_forces_a_detour_and_has_no_distance() -> None:
    # E2.6: (3,2) to (3,10) goes round the Centre hole.
    assert OVAL.distances()[OVAL.index[(3, 2)]][OVAL.index[(3, 10)]] == 8
    assert OVAL.distances(HOLE)[OVAL.index[(3, 2)]][OVAL.index[(3, 10)]] == 10
    assert OVAL.distances(HOLE)[OVAL.index[(3, 2)]][CENTRE] == -1
    assert all(d == -1 for d in OVAL.distances(HOLE)[CENTRE])


def test_parity_reach() -> None:
    # E1.1: 8 steps from (2,3) reach distance 2 but not distance 5.
    reach = RECT.reach(RECT.index[(2, 3)], 8)
    assert reach >> RECT.index[(0, 3)] & 1 and reach >> RECT.index[(2, 5)] & 1
    assert not reach >> RECT.index[(0, 0)] & 1 and not reach >> RECT.index[(4, 6)] & 1
    # E1.2: 4 steps never end next door; E1.4: 10 steps reach the far corner.
    assert not RECT.reach(RECT.index[(0, 0)], 4) >> RECT.index[(0, 1)] & 1
    assert RECT.reach(RECT.index[(0, 0)], 10) >> RECT.index[(4, 6)] & 1
    # Around the hole: (3,5) to (3,7) is 4 steps, so 2 steps cannot get there.
    assert not OVAL.reach(OVAL.index[(3, 5)], 2, HOLE) >> OVAL.index[(3, 7)] & 1
    assert OVAL.reach(OVAL.index[(3, 5)], 4, HOLE) >> OVAL.index[(3, 7)] & 1
    assert not OVAL.reach(OVAL.index[(2, 6)], 1, HOLE) >> CENTRE & 1


def test_canonical_path_e2_6() -> None:
    """E2.6: N > E > S > W greedy, intermediate cells only."""
    path = OVAL.path(OVAL.index[(3, 2)], OVAL.index[(3, 10)], HOLE)
    expected = [(2, 2), (2, 3), (2, 4), (2, 5), (2, 6), (2, 7), (2, 8), (2, 9), (2, 10)]
    assert [OVAL.layout[i] for i in path] == expected
    assert OVAL.path(OVAL.index[(3, 2)], OVAL.index[(3, 3)], HOLE) == ()
    # Without the hole the straight way is shortest.
    straight = OVAL.path(OVAL.index[(3, 2)], OVAL.index[(3, 10)])
    assert [OVAL.layout[i] for i in straight] == [(3, c) for c in range(3, 10)]


def test_path_prefers_north_then_east() -> None:
    path = RECT.path(RECT.index[(2, 2)], RECT.index[(0, 4)])
    assert [RECT.layout[i] for i in path] == [(1, 2), (0, 2), (0, 3)]
    path = RECT.path(RECT.index[(0, 0)], RECT.index[(2, 2)])
    assert [RECT.layout[i] for i in path] == [(0, 1), (0, 2), (1, 2)]


def test_areas_are_manhattan_rings_ignoring_holes() -> None:
    area = bits(OVAL.area(OVAL.index[(3, 7)], 3))
    assert CENTRE in area and OVAL.index[(3, 7)] not in area
    assert at(area) == {(r, c) for r, c in OVAL.layout if 0 < abs(r - 3) + abs(c - 7) <= 3}
    assert len(bits(RECT.area(RECT.index[(0, 0)], 1))) == 2


def test_lines_and_segments() -> None:
    assert at(bits(OVAL.lines(OVAL.index[(0, 6)]))) == {(0, c) for c in range(2, 11) if c != 6} | {
        (r, 6) for r in range(1, 7)
    }
    segment = OVAL.segment(OVAL.index[(3, 4)], OVAL.index[(3, 8)])
    assert [OVAL.layout[i] for i in segment] == [(3, 5), (3, 6), (3, 7)]
    assert OVAL.segment(OVAL.index[(6, 6)], OVAL.index[(0, 6)])[0] == OVAL.index[(5, 6)]
    with pytest.raises(ValueError):
        OVAL.segment(OVAL.index[(0, 6)], OVAL.index[(1, 7)])


def test_snake_track() -> None:
    assert snake(7, 3) == ((0, 0), (0, 1), (0, 2), (1, 2), (1, 1), (1, 0), (2, 0))
    track = snake(38, 8)
    # Consecutive positions are neighbours, and none repeats.
    assert len(set(track)) == 38
    assert all(abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1 for a, b in pairwise(track))


def test_masks_round_trip() -> None:
    assert bits(mask_of([5, 0, 77])) == [0, 5, 77]
    assert mask_of([]) == 0
