"""The picture of Game 2's field (the Tarot card grid) from its public view, on the cell board.

The 79 positions of the oval (render/board.py with the Tarot deck): closed backs, open faces,
covered cards with the arcana laid on them, empty positions and the Centre hole (the World once it
lies there). Tokens are discs in their seat's colour, numbered by seat (one token each) or by
token (two each). For the player to move, the cells the buttons name glow and carry their codes
(and the closed cards out of reach are dimmed). The header says whose turn it is and what each
token may do, the seats with their teams, the closed count and the Empress effect; a footer band
beside the field shows each team's pool of taken cards. The picture reads only the view, where a
closed card has no face: it cannot show one, except a card every player saw face up before an
effect closed it again (drawn small on its back, so nobody has to remember it).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image

from core.cards import Card, deck78, major_name
from core.engine import Event, Outcome
from core.games.grid_tarot import CellState, GridTarotGame, GridTarotView, TokenView
from core.games.grid_tarot_arcana import Option
from core.games.grid_tarot_events import CardsClosed, CardsOpened, Swapped, WheelTurned
from i18n import t, tn
from render.board import Board, CellLook, HeaderPart, Style, Token, background, draw_cells, geometry
from render.deck import face
from render.draw import RGB, paste
from render.encode import build_palette, png, to_palette
from render.seats import Piece, SeatMark, draw_pieces, named, pieces_width, robots
from render.tarot import BACK_INDIGO
from render.text import put_text

STYLE = Style(
    felt_centre=(52, 46, 96),
    felt_edge=(22, 18, 44),
    header=(16, 13, 34),
    label=(196, 190, 230),
    back=BACK_INDIGO,
    glow=(255, 226, 92),
    mark=(255, 160, 60),
    dim=70,
    deck="tarot",
    vacancies=True,
)
TEXT: RGB = (246, 244, 236)
MUTED: RGB = (190, 184, 220)
EMPRESS: RGB = (255, 190, 220)
#: 120 colours: the 78 faces, the violet felt and the seat colours.
PALETTE_COLOURS = 120
#: Above this many glowing cells (a placement, the Fool) badges would only hide the field.
MOST_BADGES = 40
#: A game to take the view's shape from (for the palette's swatch).
_GAME = GridTarotGame()
#: The footer's height in card heights.
FOOTER_CARDS = 1.25


# ----- texts shared with the bot's status line ---------------------------------------------------


def token_word(view: GridTarotView, number: int, lang: str) -> str:
    """ "token 2" when every player has two tokens; nothing to say when each has one."""
    return t(lang, "token {n}", n=number) if view.tokens_per_player > 1 else ""


def rule_text(token: TokenView, lang: str) -> str:
    """How the token moves next, in words: `7 steps`, `6 or 9 steps`, `any closed card`."""
    if token.cell is None:
        return t(lang, "onto any closed card")
    if token.kind == "any":
        return t(lang, "to any closed card")
    if token.kind == "line":
        return t(lang, "to a closed card in its row or column")
    if token.kind == "hermit":
        return t(lang, "to a closed card with no open neighbour")
    if not token.counts:
        return t(lang, "no steps")
    last = token.counts[-1]
    if len(token.counts) == 1:
        return tn(lang, "{n} step", "{n} steps", last)
    first = ", ".join(str(n) for n in token.counts[:-1])
    return tn(lang, "{first} or {n} step", "{first} or {n} steps", last, first=first)


def option_text(code: str, lang: str) -> str:
    """A way out of a hopeless position (rule 19) by its option code."""
    if code == Option.SUIT:
        return t(lang, "same suit")
    if code == Option.STAR:
        return major_name("T17", lang)
    if code == Option.PRIESTESS_HIEROPHANT:
        return t(lang, "{first} + {second}", first=major_name("T2", lang), second=major_name("T5", lang))
    if code == Option.STRENGTH:
        return major_name("T11", lang)
    value = code.removeprefix(Option.JUSTICE)
    return t(lang, "{first} + {second}", first=major_name("T8", lang), second=value)


def task_parts(view: GridTarotView, lang: str) -> list[str]:
    """What the player to move chooses now, one part per token that may act."""
    if view.to_move is None:
        return []
    codes = view.codes
    if view.phase == "swap":
        if view.swap_free is None:
            return [t(lang, "The Hanged Man: pick a free card")]
        return [t(lang, "The Hanged Man: pick a closed card for {cell}", cell=codes[view.swap_free])]
    mine = {tv.number: tv for tv in view.tokens if tv.seat == view.to_move}
    if view.phase in ("option", "chariot") and view.active is not None:
        who = token_word(view, view.active, lang)
        if view.phase == "chariot":
            again = t(lang, "the Chariot again, {rule}", rule=rule_text(mine[view.active], lang))
            return [_joined(who, again)]
        assert view.option is not None
        return [_joined(who, option_text(view.option, lang) + " — " + t(lang, "choose where to go"))]
    tasks: dict[int, str] = {}
    for number, _ in view.reachable:
        token = mine[number]
        empress = " (" + major_name("T3", lang) + ")" if token.empress and token.cell is not None else ""
        tasks[number] = rule_text(token, lang) + empress
    for number, _ in view.options:
        tasks[number] = t(lang, "no move: choose a way out")
    if len(tasks) == 2 and len(set(tasks.values())) == 1:
        return [_joined(t(lang, "both tokens"), tasks[1])]
    return [_joined(token_word(view, number, lang), task) for number, task in sorted(tasks.items())]


def _joined(who: str, what: str) -> str:
    """`token 2: 7 steps`, or just `7 steps` when each player has one token."""
    return f"{who}: {what}" if who else what


def _names_winners(outcome: Outcome, view: GridTarotView) -> bool:
    """Whether the result names its winning teams' seats (not a draw, nor one team's game)."""
    return not outcome.draw and len(set(_teams(view))) > 1


def result_text(outcome: Outcome, view: GridTarotView, names: Sequence[str], lang: str) -> str:
    """The result in a line (a caption's: the winners as `names` names them)."""
    if _names_winners(outcome, view):
        return t(lang, "Winners:") + " " + ", ".join(names[seat] for seat in outcome.winners)
    if outcome.draw:
        return t(lang, "Draw: every team is out of moves")
    if outcome.winners:
        return t(lang, "The whole field is open: a win!")
    return tn(lang, "No move left with {n} closed card", "No move left with {n} closed cards", view.closed)


# ----- what a cell shows ------------------------------------------------------------------------


def destinations(view: GridTarotView) -> set[int]:
    """The cells the buttons name now: where a token may end, or the Hanged Man's cards."""
    if view.phase == "swap":
        return set(view.swap_cells)
    return {cell for _, cells in view.reachable for cell in cells}


def token_label(view: GridTarotView, token: TokenView) -> str:
    return str(token.number if view.tokens_per_player > 1 else token.seat + 1)


def changed_cells(recent: Sequence[Event]) -> frozenset[int]:
    """The cards the arcana of the events the caption tells turned over or swapped."""
    cells: set[int] = set()
    for event in recent:
        if isinstance(event, CardsOpened | CardsClosed):
            cells.update(event.cells)
        elif isinstance(event, WheelTurned):
            cells.update((*event.opened, *event.closed))
        elif isinstance(event, Swapped):
            cells.update(cell for cell in (event.free, event.closed) if cell is not None)
    return frozenset(cells)


def cell_looks(
    view: GridTarotView, changed: frozenset[int] = frozenset(), computers: frozenset[int] = frozenset()
) -> tuple[CellLook, ...]:
    """The look of every position, in layout order; the last card turned up and the `changed`
    ones are ringed, a closed card everyone has seen shows it small, and the tokens of
    `computers` are robots."""
    lit = destinations(view)
    dim = bool(lit) and len(lit) < view.closed
    badges = len(lit) <= MOST_BADGES
    # With two tokens a player, the buttons name the token too ("①E2"): so does the badge.
    leading: dict[int, list[Token]] = {}
    if view.tokens_per_player > 1 and view.phase != "swap" and view.to_move is not None:
        for number, cells in view.reachable:
            for cell in cells:
                leading.setdefault(cell, []).append(
                    Token(view.to_move, str(number), view.to_move in computers)
                )
    on: dict[int, list[Token]] = {}
    for token in view.tokens:
        if token.cell is not None:
            on.setdefault(token.cell, []).append(
                Token(token.seat, token_label(view, token), token.seat in computers)
            )
    looks = []
    for i, code in enumerate(view.codes):
        state = view.cells[i] if view.cells else CellState.CLOSED
        looks.append(
            CellLook(
                state=state,  # type: ignore[arg-type]
                face=view.faces[i] if view.faces else None,
                cover=view.covers[i] if view.covers else (),
                dimmed=dim and state == CellState.CLOSED and i not in lit,
                ring=i == view.last or i in changed,
                glow=i in lit,
                badge=code if i in lit and badges else None,
                badge_tokens=tuple(leading.get(i, ())) if badges else (),
                tokens=tuple(on.get(i, ())),
                seen=view.seen[i] if view.seen and state == CellState.CLOSED else None,
            )
        )
    return tuple(looks)


# ----- header and footer ---------------------------------------------------------------------------


def _teams(view: GridTarotView) -> tuple[int, ...]:
    return view.teams or tuple(range(view.players))


def _status(view: GridTarotView, names: Sequence[str], lang: str) -> list[Piece]:
    outcome = view.outcome
    if outcome is not None and _names_winners(outcome, view):
        # The winners with their tokens, as the legend below names the seats (cut name by name).
        winners: list[Piece] = [t(lang, "Winners:") + " "]
        for n, seat in enumerate(outcome.winners):
            winners += [*([", "] if n else []), *named(seat, names, lang)]
        return winners
    if outcome is not None:
        return [result_text(outcome, view, names, lang)]
    if view.to_move is None:
        return [t(lang, "Dealing…")]
    seat = view.to_move
    task = "; ".join(task_parts(view, lang))
    return [t(lang, "Turn:") + " ", *named(seat, names, lang), *([" — " + task] if task else [])]


def _legend(view: GridTarotView, names: Sequence[str], lang: str) -> list[Piece]:
    """The seats, team by team ("vs" between teams; spaced apart when everyone is alone)."""
    teams = _teams(view)
    pieces: list[Piece] = []
    for n, team in enumerate(sorted(set(teams))):
        if n:
            pieces.append(t(lang, " vs ") if len(set(teams)) < view.players else "    ")
        for k, seat in enumerate(s for s in range(view.players) if teams[s] == team):
            pieces += [*([" + "] if k else []), *named(seat, names, lang)]
    return pieces


def _empress(view: GridTarotView, lang: str) -> list[Piece]:
    pending = [tv for tv in view.tokens if tv.empress and tv.cell is not None]
    if not pending:
        return []
    pieces: list[Piece] = [major_name("T3", lang) + ": "]
    for token in pending:
        pieces += [token.seat, token_label(view, token) + " " if view.tokens_per_player > 1 else " "]
    return pieces


@dataclass(frozen=True)
class Frame:
    """The header band and the footer band around the board."""

    view: GridTarotView
    names: tuple[str, ...]
    lang: str
    width: int
    header: int
    footer: int

    def key(self) -> tuple[object, ...]:
        view = self.view
        return (
            tuple(_status(view, self.names, self.lang)),
            tuple(_legend(view, self.names, self.lang)),
            tuple(_empress(view, self.lang)),
            view.closed,
        )

    def draw_header(self, img: Image.Image) -> None:
        """Whose turn and what each token may do above; the seats by team, the Empress effect and
        the closed count below."""
        view, lang = self.view, self.lang
        margin = round(self.width * 0.02)
        big = max(10, round(self.header * 0.28))
        small = max(9, round(self.header * 0.22))
        right = self.width - margin
        status = _status(view, self.names, lang)
        # A long task is set smaller before it is cut.
        wide = pieces_width(status, big)
        if wide > right - margin:
            big = max(round(big * 0.72), round(big * (right - margin) / wide))
        draw_pieces(img, margin, self.header * 0.3, status, big, TEXT, right)
        closed = t(lang, "Closed: {n}", n=view.closed)
        end = (
            right
            - put_text(img, (right, self.header * 0.74), closed, small, MUTED, "rm", bold=False)
            - margin
        )
        x = draw_pieces(img, margin, self.header * 0.74, _legend(view, self.names, lang), small, MUTED, end)
        empress = _empress(view, lang)
        if empress and x + margin < end:
            draw_pieces(img, x + margin, self.header * 0.74, empress, small, EMPRESS, end)

    def draw_footer(self, img: Image.Image, top: int) -> None:
        paste(
            img,
            pools_band(
                self.view.pools, _teams(self.view), robots(self.names), self.lang, self.width, self.footer
            ),
            (0, top),
        )


@lru_cache(maxsize=64)
def pools_band(
    pools: tuple[tuple[Card, ...], ...],
    teams: tuple[int, ...],
    computers: frozenset[int],
    lang: str,
    width: int,
    height: int,
) -> Image.Image:
    """The footer band: per team, its seats' discs and its taken cards, overlapping where many.
    Cached: the pools change a few times a game."""
    img = Image.new("RGBA", (width, height), (*STYLE.header, 255))
    order = sorted(set(teams))
    margin = round(width * 0.02)
    px = max(9, round(height * 0.16))
    ch = round(height * 0.7)
    cw = round(ch / 1.4)
    slot = (width - margin) / len(order)
    for n, team in enumerate(order):
        x0 = margin + n * slot
        label: list[Piece] = [
            t(lang, "Pool") + ": ",
            *(SeatMark(seat, seat in computers) for seat, own in enumerate(teams) if own == team),
        ]
        draw_pieces(img, x0, height * 0.13, label, px, MUTED, x0 + slot - margin)
        pool = pools[team] if team < len(pools) else ()
        y = round(height * 0.25)
        if not pool:
            put_text(img, (x0, y + ch / 2), t(lang, "empty"), px, MUTED, bold=False)
            continue
        step = min(cw * 1.05, (slot - margin - cw) / max(1, len(pool) - 1))
        for k, card in enumerate(pool):
            paste(img, face(card, cw, ch, lang, "tarot"), (round(x0 + k * step), y))
    return img


def footer_height(card_h: int) -> int:
    return round(card_h * FOOTER_CARDS)


# ----- the picture -------------------------------------------------------------------------------


def render_grid_tarot(
    view: GridTarotView,
    *,
    names: tuple[str, ...] = (),
    lang: str = "ru",
    size: int = 1000,
    recent: Sequence[Event] = (),
) -> bytes:
    """The field as PNG bytes, `size` px wide, the cards `recent` events changed ringed. Pure:
    same arguments, same bytes."""
    return png(compose_indexed(view, names=names, lang=lang, size=size, recent=recent))


def compose_indexed(
    view: GridTarotView,
    *,
    names: tuple[str, ...] = (),
    lang: str = "ru",
    size: int = 1000,
    recent: Sequence[Event] = (),
) -> Image.Image:
    """The picture before encoding: the board's cached tiles, the header and the footer mapped onto
    the look's palette."""
    table = board(view.layout, size, lang)
    geo = table.geo
    frame = Frame(view, names, lang, geo.width, geo.header, footer_height(geo.card_h))
    header = HeaderPart(frame.key(), (0, 0, geo.width, geo.header), frame.draw_header)
    field = table.compose(cell_looks(view, changed_cells(recent), robots(names)), [header])
    img = Image.new("P", (geo.width, geo.height + frame.footer))
    img.putpalette(field.getpalette() or [])
    img.paste(field, (0, 0))
    img.paste(
        _footer(view.pools, _teams(view), robots(names), geo.width, frame.footer, table), (0, geo.height)
    )
    return img


@lru_cache(maxsize=64)
def _footer(
    pools: tuple[tuple[Card, ...], ...],
    teams: tuple[int, ...],
    computers: frozenset[int],
    width: int,
    height: int,
    table: Board,
) -> Image.Image:
    """The footer band mapped onto the board's palette (the board knows the language)."""
    return to_palette(
        pools_band(pools, teams, computers, table.lang, width, height).convert("RGB"), table.palette
    )


def compose(
    view: GridTarotView,
    *,
    names: tuple[str, ...] = (),
    lang: str = "ru",
    size: int = 1000,
    recent: Sequence[Event] = (),
) -> Image.Image:
    """The picture in full colour, drawn from scratch (the swatch of the palette)."""
    geo = geometry(view.layout, size)
    frame = Frame(view, names, lang, geo.width, geo.header, footer_height(geo.card_h))
    img = Image.new("RGB", (geo.width, geo.height + frame.footer), STYLE.header)
    img.paste(background(view.layout, size, STYLE), (0, 0))
    looks = cell_looks(view, changed_cells(recent), robots(names))
    draw_cells(img, tuple(zip(view.layout, looks, strict=True)), geo, STYLE, lang)
    frame.draw_header(img)
    frame.draw_footer(img, geo.height)
    return img


@lru_cache(maxsize=8)
def board(layout: tuple[tuple[int, int], ...], size: int, lang: str) -> Board:
    return Board.create(layout, size, STYLE, lang, palette(layout, size, lang))


@lru_cache(maxsize=8)
def palette(layout: tuple[tuple[int, int], ...], size: int, lang: str) -> Image.Image:
    """One palette per look: two whole pictures, every face open with four seats' tokens and full
    pools, then every back plain, dimmed and glowing with badges, some with a seen card on them."""
    deck = deck78()
    cells = len(layout)
    sample = _GAME.view(_GAME.new(4, {"tokens": 2}, (0, 1, 0, 1)), None)
    tokens = tuple(
        tv.model_copy(update={"cell": (k * 7) % cells, "empress": k % 2 == 0})
        for k, tv in enumerate(sample.tokens)
    )
    open_all = sample.model_copy(
        update={
            "cells": tuple(CellState.OPEN for _ in range(cells)),
            "faces": tuple(deck[i % len(deck)] for i in range(cells)),
            "covers": tuple(((deck[3], deck[4]) if i % 9 == 0 else ()) for i in range(cells)),
            "tokens": tokens,
            "pools": (deck[:8], deck[30:38]),
            "to_move": 0,
            "last": 1,
        }
    )
    closed_all = open_all.model_copy(
        update={
            "cells": tuple(CellState.CLOSED for _ in range(cells)),
            "faces": (None,) * cells,
            "covers": ((),) * cells,
            "reachable": ((1, tuple(range(0, cells, 3))),),
            "seen": tuple(deck[i % len(deck)] if i % 4 == 0 else None for i in range(cells)),
            "closed": cells,
        }
    )
    names = tuple(f"Игрок {seat + 1} Player" for seat in range(4))
    first = compose(open_all, names=names, lang=lang, size=size)
    second = compose(closed_all, names=names, lang=lang, size=size)
    swatch = Image.new("RGB", (first.width * 2, first.height))
    swatch.paste(first, (0, 0))
    swatch.paste(second, (first.width, 0))
    return build_palette(
        swatch, PALETTE_COLOURS, flat=(TEXT, MUTED, EMPRESS, STYLE.header, STYLE.mark, STYLE.glow)
    )
