"""The picture of Game 1's field (card-grid exploration) from its public view, on the cell board.

The view becomes a look per cell (render/board.py draws them from cached tiles) and a header: whose
turn and how many steps (or the result), a legend of the seats, the count of closed cards and, once
the game is over, the unused 36th card. `compose_grid` draws the same picture in full colour from
scratch, as the reference of the tiles.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image

from core.cards import deck36
from core.engine import Outcome
from core.games.grid import Cell, GridView, cell_code
from i18n import t, tn
from render.board import Board, Box, CellLook, HeaderPart, Style, Token, background, draw_cells, geometry
from render.cards import BACK_BLUE, BACK_RED, CARD_ASPECT, card_face
from render.draw import RGB, paste
from render.encode import build_palette, png
from render.seats import Piece, draw_pieces, named, robots
from render.text import put_text, width_of

# ----- look --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Theme:
    board: Style
    text: RGB
    muted: RGB


THEMES: dict[str, Theme] = {
    "classic": Theme(
        Style(
            felt_centre=(44, 124, 78),
            felt_edge=(18, 70, 42),
            header=(12, 48, 30),
            label=(196, 226, 204),
            back=BACK_RED,
            glow=(255, 226, 92),
            mark=(255, 196, 0),
            dim=60,
        ),
        text=(246, 244, 236),
        muted=(178, 208, 188),
    ),
    "dark": Theme(
        Style(
            felt_centre=(48, 54, 68),
            felt_edge=(20, 22, 30),
            header=(14, 15, 21),
            label=(170, 180, 200),
            back=BACK_BLUE,
            glow=(120, 220, 255),
            mark=(255, 196, 0),
            dim=80,
        ),
        text=(238, 240, 246),
        muted=(160, 168, 186),
    ),
}

#: 96 colours keep the felt gradient smooth enough.
PALETTE_COLOURS = 96
#: The seats a palette is prepared for (the grid seats at most two; four keeps room to spare).
PALETTE_SEATS = 4


def _theme(theme: str) -> Theme:
    if theme not in THEMES:
        raise ValueError(f"unknown theme {theme!r}; known: {sorted(THEMES)}")
    return THEMES[theme]


def steps_text(steps: int, lang: str) -> str:
    """`3 шага`, `5 шагов`, `1 step`."""
    return tn(lang, "{n} step", "{n} steps", steps)


# ----- what a cell shows ------------------------------------------------------------------------


def cell_looks(view: GridView, computers: frozenset[int] = frozenset()) -> tuple[CellLook, ...]:
    """The look of every cell of the layout, in layout order (the tokens of `computers` robots)."""
    reachable = set(view.reachable)
    # Dim what cannot be reached only when some cells can: a first turn lights up everything.
    dim = view.to_move is not None and view.steps is not None
    seats_on: dict[int, list[Token]] = {}
    for seat, cell_index in enumerate(view.tokens):
        if cell_index is not None:
            seats_on.setdefault(cell_index, []).append(Token(seat, str(seat + 1), seat in computers))
    return tuple(
        CellLook(
            state="closed" if view.faces[index] is None else "open",
            face=view.faces[index],
            dimmed=dim and view.faces[index] is None and index not in reachable,
            ring=index == view.last_opened,
            glow=index in reachable,
            # The code on a reachable card (none on a first turn: 35 badges would only clutter).
            badge=cell_code(cell) if index in reachable and view.steps is not None else None,
            tokens=tuple(seats_on.get(index, ())),
        )
        for index, cell in enumerate(view.layout)
    )


# ----- header ------------------------------------------------------------------------------------


def _status(view: GridView, names: Sequence[str], lang: str) -> list[Piece]:
    """The first header line: the result, or whose turn it is and how many steps."""
    if view.outcome is not None:
        return _result(view.outcome, view.players, names, lang)
    if view.to_move is None:
        return [t(lang, "Dealing…")]
    seat = view.to_move
    task = t(lang, "any closed card") if view.steps is None else steps_text(view.steps, lang)
    return [t(lang, "Turn:") + " ", *named(seat, names, lang), " — " + task]


def _result(outcome: Outcome, players: int, names: Sequence[str], lang: str) -> list[Piece]:
    if outcome.draw:
        return [t(lang, "Draw")]
    if players == 1:
        return [
            t(lang, "Solo win! Every card is open") if outcome.winners else t(lang, "Solo loss: no move left")
        ]
    if not outcome.winners:
        return [t(lang, "Nobody won")]
    pieces: list[Piece] = [t(lang, "Winner:") + " "]
    for i, seat in enumerate(outcome.winners):
        pieces += [*([", "] if i else []), *named(seat, names, lang)]
    return pieces


def _legend(view: GridView, names: Sequence[str], lang: str) -> list[Piece]:
    pieces: list[Piece] = []
    for seat in range(view.players):
        pieces += [*(["     "] if seat else []), *named(seat, names, lang)]
    return pieces


def _closed_text(count: int, lang: str) -> str:
    return t(lang, "Closed: {n}", n=count)


@lru_cache(maxsize=32)
def _closed_width(px: int, lang: str, cells: int) -> float:
    """The width of the widest `Закрыто: N`: the legend ends before it whatever the count."""
    return max(width_of(_closed_text(n, lang), px, bold=False) for n in range(cells + 1))


#: The header's parts, each cached on its own while the game goes on (the count of closed cards
#: changes every turn, the legend never): the status line above SPLIT_Y, then below it the
#: legend left of the widest count of closed cards and that count.
HEADER_PARTS = ("status", "legend", "closed")
HEADER_SPLIT_Y = 0.53


@dataclass(frozen=True)
class Header:
    view: GridView
    names: tuple[str, ...]
    theme: Theme
    lang: str
    width: int
    height: int

    @property
    def over(self) -> bool:
        """Once the game is over the header shows the unused card and is cached as one part."""
        return self.view.outcome is not None and self.view.aside is not None

    def parts(self) -> list[HeaderPart]:
        view, lang = self.view, self.lang
        status = tuple(_status(view, self.names, lang))
        legend = tuple(_legend(view, self.names, lang))
        if self.over:
            key = ("all", status, legend, view.closed, view.aside)
            return [
                HeaderPart(key, (0, 0, self.width, self.height), lambda img: self.draw(img, HEADER_PARTS))
            ]
        boxes = self.boxes()
        keys = {"status": ("status", status), "legend": ("legend", legend), "closed": ("closed", view.closed)}
        return [HeaderPart(keys[part], boxes[part], self._drawer(part)) for part in HEADER_PARTS]

    def _drawer(self, part: str) -> Callable[[Image.Image], None]:
        return lambda img: self.draw(img, (part,))

    def boxes(self) -> dict[str, Box]:
        """Where each part of the header is (while the unused card is not shown)."""
        margin = round(self.width * 0.025)
        split_y = round(self.height * HEADER_SPLIT_Y)
        split_x = round(
            self.width - margin - _closed_width(self.small, self.lang, len(self.view.layout)) - margin / 2
        )
        return {
            "status": (0, 0, self.width, split_y),
            "legend": (0, split_y, split_x, self.height),
            "closed": (split_x, split_y, self.width, self.height),
        }

    @property
    def small(self) -> int:
        return max(9, round(self.height * 0.24))

    def draw(self, img: Image.Image, parts: Sequence[str]) -> None:
        view, lang, look = self.view, self.lang, self.theme
        margin = round(self.width * 0.025)
        big = max(10, round(self.height * 0.3))
        right = self.width - margin
        status_end: float = right
        if self.over and view.aside is not None:
            # The unused 36th card, shown face up in the header's corner once the game is over.
            ah = self.height - 2 * round(self.height * 0.08)
            aw = round(ah / CARD_ASPECT)
            ax = right - aw
            label = t(lang, "Unused card")
            if "status" in parts:
                paste(img, card_face(view.aside, aw, ah, lang), (ax, (self.height - ah) // 2))
                put_text(
                    img,
                    (ax - margin // 2, self.height * 0.3),
                    label,
                    self.small,
                    look.muted,
                    "rm",
                    bold=False,
                )
            right = ax - margin // 2
            # The result line ends before the card's label, which stands at its height.
            status_end = right - width_of(label, self.small, bold=False) - margin
        if "closed" in parts:
            put_text(
                img,
                (right, self.height * 0.72),
                _closed_text(view.closed, lang),
                self.small,
                look.muted,
                "rm",
                bold=False,
            )
        if "status" in parts:
            draw_pieces(
                img, margin, self.height * 0.3, _status(view, self.names, lang), big, look.text, status_end
            )
        if "legend" in parts:
            end = right - _closed_width(self.small, lang, len(view.layout)) - margin
            draw_pieces(
                img, margin, self.height * 0.72, _legend(view, self.names, lang), self.small, look.muted, end
            )


# ----- the picture -------------------------------------------------------------------------------


def render_grid(
    view: GridView,
    *,
    names: tuple[str, ...] = (),
    theme: str = "classic",
    lang: str = "ru",
    size: int = 1000,
) -> bytes:
    """The field as PNG bytes, `size` px on the long side. Pure: same arguments, same bytes."""
    return png(compose_indexed(view, names=names, theme=theme, lang=lang, size=size))


def compose_grid(
    view: GridView,
    *,
    names: tuple[str, ...] = (),
    theme: str = "classic",
    lang: str = "ru",
    size: int = 1000,
) -> Image.Image:
    """The picture in full colour, drawn from scratch (an RGB image of its own).

    The reference for `compose_indexed`, which is this mapped onto `palette`, pixel for pixel.
    """
    look = _theme(theme)
    geo = geometry(view.layout, size)
    img = background(view.layout, size, look.board).copy()
    draw_cells(
        img, tuple(zip(view.layout, cell_looks(view, robots(names)), strict=True)), geo, look.board, lang
    )
    header = Header(view, names, look, lang, geo.width, geo.header)
    header.draw(img, HEADER_PARTS)
    return img


def compose_indexed(
    view: GridView,
    *,
    names: tuple[str, ...] = (),
    theme: str = "classic",
    lang: str = "ru",
    size: int = 1000,
) -> Image.Image:
    """The picture of `render_grid` before encoding: a palette ("P") image of cached tiles."""
    table = board(view.layout, size, theme, lang)
    header = Header(view, names, _theme(theme), lang, table.geo.width, table.geo.header)
    return table.compose(cell_looks(view, robots(names)), header.parts())


@lru_cache(maxsize=16)
def board(layout: tuple[Cell, ...], size: int, theme: str, lang: str) -> Board:
    """The cached pieces of one table look; its tiles are drawn as turns need them."""
    return Board.create(layout, size, _theme(theme).board, lang, palette(layout, size, theme))


@lru_cache(maxsize=16)
def palette(layout: tuple[Cell, ...], size: int, theme: str) -> Image.Image:
    """A palette for every turn of one table look: octree over a swatch of everything a turn can show,
    two whole pictures: every face, tokens, the result and the unused card; then every back plain,
    dimmed or glowing, badges and the turn line."""
    cells = len(layout)
    deck = deck36()
    open_all = GridView(
        seat=None,
        players=PALETTE_SEATS,
        layout=layout,
        faces=tuple(deck[i % len(deck)] for i in range(cells)),
        tokens=tuple(i * cells // PALETTE_SEATS for i in range(PALETTE_SEATS)),
        to_move=None,
        steps=None,
        reachable=(),
        last_opened=0,
        closed=0,
        outcome=Outcome(winners=(0,)),
        aside=deck[-1],
    )
    closed_all = open_all.model_copy(
        update={
            "faces": (None,) * cells,
            "to_move": 0,
            "steps": 3,
            "reachable": tuple(range(0, cells, 2)),
            "outcome": None,
            "aside": None,
        }
    )
    names = tuple(f"Игрок {seat + 1} Player" for seat in range(PALETTE_SEATS))
    first = compose_grid(open_all, names=names, theme=theme, size=size)
    second = compose_grid(closed_all, names=names, theme=theme, size=size)
    swatch = Image.new("RGB", (first.width * 2, first.height))
    swatch.paste(first, (0, 0))
    swatch.paste(second, (first.width, 0))
    return build_palette(swatch, PALETTE_COLOURS)
