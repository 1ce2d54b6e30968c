"""The Tarot card grid (Game 2) in the bot: destination buttons by token and row, the ways out of a
hopeless position, the Hanged Man's swap, the oval picture and a journal line for every event."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

from bot.adapters.base import Caption, Choice, GameAdapter, Names, PrivateMode
from core.cards import Card, is_major, major_name, tarot_label
from core.engine import Action, Event, Frozen
from core.games.grid_tarot import TOKENS, GridTarotView
from core.games.grid_tarot_arcana import TOWER
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
from core.games.grid_tarot_rules import BOARD, SWAP_CLOSED, SWAP_FREE
from i18n import N_, t, tn
from render.grid_tarot import option_text, render_grid_tarot, result_text, task_parts

#: How a button and a journal line name a token: as its disc does when each player has two.
TOKEN_MARKS = ("①", "②")


def _view(view: Frozen) -> GridTarotView:
    assert isinstance(view, GridTarotView)
    return view


def card_text(card: Card, lang: str) -> str:
    """A minor by its short label (`Q♥`), a major arcanum by its name."""
    return major_name(card, lang) if is_major(card) else tarot_label(card, lang)


def who(names: Names, seat: int, token: int) -> str:
    """`Alice ①`: the player and the token."""
    return f"{names[seat]} {TOKEN_MARKS[token - 1]}"


def cells_text(cells: Sequence[int]) -> str:
    return ", ".join(BOARD.codes[cell] for cell in cells)


# ----- the journal -------------------------------------------------------------------------------


def _moved(event: TokenMoved, names: Names, lang: str) -> str:
    values = {
        "who": who(names, event.seat, event.token),
        "cell": BOARD.codes[event.end],
        "card": card_text(event.card, lang),
    }
    if event.kind == "place":
        line = t(lang, "{who} is placed on {cell}: {card}", **values)
    elif event.kind == "jump":
        line = t(lang, "{who} jumps to {cell}: {card}", **values)
    elif event.steps is not None:
        line = tn(
            lang,
            "{who}: {n} step to {cell}: {card}",
            "{who}: {n} steps to {cell}: {card}",
            event.steps,
            **values,
        )
    else:
        line = t(lang, "{who} moves to {cell}: {card}", **values)
    if event.card == TOWER:
        line += " " + t(lang, "(stuck there: only arcana can move it on)")
    if event.empress:
        line = t(lang, "The Empress: {move}", move=line)
    if event.repeat:
        line = t(lang, "The Chariot again: {move}", move=line)
    return line


def _option_used(event: OptionUsed, names: Names, lang: str) -> str:
    values = {
        "who": who(names, event.seat, event.token),
        "way": option_text(event.option, lang),
        "cards": ", ".join(card_text(card, lang) for card in event.cards),
        "cell": BOARD.codes[event.cell],
    }
    if event.taken:
        return t(lang, "{who} has no move: {way}; {cards} from {cell} goes into the pool", **values)
    return t(lang, "{who} has no move: {way}; {cell} is covered with {cards} from the pool", **values)


def _taken(event: Taken, names: Names, lang: str) -> str:
    return t(
        lang,
        "{card}: {name} takes it into the pool; {cell} is empty",
        card=card_text(event.card, lang),
        name=names[event.seat],
        cell=BOARD.codes[event.cell],
    )


def _returned(event: Returned, names: Names, lang: str) -> str:
    if event.cell is None:
        return t(
            lang, "{who} leaves the field: placed again next turn", who=who(names, event.seat, event.token)
        )
    return t(
        lang, "{who} returns to {cell}", who=who(names, event.seat, event.token), cell=BOARD.codes[event.cell]
    )


def _empress(event: EmpressSet, names: Names, lang: str) -> str:
    return tn(
        lang,
        "The Empress: the next move of {n} token is its distance to the Centre",
        "The Empress: the next move of {n} tokens is their distance to the Centre",
        len(event.tokens),
    )


def _chariot(event: ChariotRepeat, names: Names, lang: str) -> str:
    values = {"who": who(names, event.seat, event.token)}
    if not event.possible:
        return t(lang, "The Chariot: {who} cannot repeat the move and waits on it", **values)
    if event.steps is not None:
        return tn(
            lang,
            "The Chariot: {who} moves {n} step again",
            "The Chariot: {who} moves {n} steps again",
            event.steps,
            **values,
        )
    return t(lang, "The Chariot: {who} repeats the move", **values)


def _wheel(event: WheelTurned, names: Names, lang: str) -> str:
    # Counts of zero are left out: a bare "0" would read as the Fool's label.
    parts = []
    if event.opened:
        shown = ", ".join(card_text(card, lang) for card in event.cards)
        parts.append(tn(lang, "{n} opened", "{n} opened", len(event.opened)) + f" ({shown})")
    if event.closed:
        parts.append(tn(lang, "{n} closed", "{n} closed", len(event.closed)))
    done = ", ".join(parts) if parts else t(lang, "nothing on the path to turn over")
    return t(lang, "Wheel of Fortune") + ": " + done


def _closed(event: CardsClosed, names: Names, lang: str) -> str:
    arcanum = card_text(event.arcanum, lang)
    if not event.cells:
        return t(lang, "{arcanum}: no free card to close", arcanum=arcanum)
    count = tn(lang, "{n} closed", "{n} closed", len(event.cells))
    return f"{arcanum}: {count} ({cells_text(event.cells)})"


def _opened(event: CardsOpened, names: Names, lang: str) -> str:
    arcanum = card_text(event.arcanum, lang)
    if not event.cells:
        return t(lang, "{arcanum}: no closed card to open", arcanum=arcanum)
    count = tn(lang, "{n} opened", "{n} opened", len(event.cells))
    shown = ", ".join(
        f"{BOARD.codes[cell]} {card_text(card, lang)}"
        for cell, card in zip(event.cells, event.cards, strict=True)
    )
    return f"{arcanum}: {count} ({shown})"


def _swapped(event: Swapped, names: Names, lang: str) -> str:
    if event.free is None or event.closed is None or event.card is None:
        return t(lang, "The Hanged Man: nothing to swap for {name}", name=names[event.seat])
    return t(
        lang,
        "The Hanged Man: {name} swaps {card} and a closed card ({free} ↔ {closed})",
        name=names[event.seat],
        card=card_text(event.card, lang),
        free=BOARD.codes[event.free],
        closed=BOARD.codes[event.closed],
    )


def _world(event: WorldMoved, names: Names, lang: str) -> str:
    return t(
        lang,
        "The World: {who} and the card move from {cell} to the Centre, which is now passable",
        who=who(names, event.seat, event.token),
        cell=BOARD.codes[event.cell],
    )


def _skipped(event: Skipped, names: Names, lang: str) -> str:
    line = t(lang, "{who} has no move and skips", who=who(names, event.seat, event.token))
    return line + (" " + t(lang, "(the Empress's move is lost)") if event.empress else "")


def _hopeless(event: TeamHopeless, names: Names, lang: str) -> str:
    members = ", ".join(names[seat] for seat in event.seats)
    return tn(
        lang,
        "⛔ {names}: no token can move",
        "⛔ {names}: no token of the team can move",
        len(event.seats),
        names=members,
    )


CAPTIONS: dict[type[Event], Caption] = {
    TokenMoved: _moved,
    OptionUsed: _option_used,
    Taken: _taken,
    Returned: _returned,
    EmpressSet: _empress,
    ChariotRepeat: _chariot,
    WheelTurned: _wheel,
    CardsClosed: _closed,
    CardsOpened: _opened,
    Swapped: _swapped,
    WorldMoved: _world,
    Skipped: _skipped,
    TeamHopeless: _hopeless,
}


# ----- the adapter -------------------------------------------------------------------------------


class GridTarotAdapter(GameAdapter):
    game_id = "grid_tarot"
    emoji = "🔮"
    title_msg = N_("Tarot card grid")
    rules_msg = N_(
        "Tarot card grid (78 cards, 1-4 players, 1 or 2 tokens each, teams chosen in the lobby). The cards "
        "lie face down in an oval around the Centre, which holds no card.\n"
        "Your turn: move each of your tokens once, in any order. The first move puts a token on any closed "
        "card. After that the card a token stands on says how it moves: a minor card that many steps "
        "(Ace 1, 2-10 as printed, Page 1, Knight 2, Queen 3, King 4) up, down, left or right, across any "
        "position but the Centre, ending on a closed card, which is turned up.\n"
        "Major arcana: the Fool: next to any closed card; the Magician: 1-4 steps; the Emperor: a closed "
        "card in its row or column; the Lovers: 6 or 9 steps; the Hermit: a closed card surrounded by "
        "closed or empty positions; the Tower: 0 steps. The High Priestess, Hierophant, Justice, Strength "
        "and Star go into your team's pool and the token returns; Temperance returns it; the Hanged Man "
        "returns it and you swap a free and a closed card. The Empress: everyone's next move is their "
        "distance to the Centre. The Chariot: the same move again at once. The Wheel of Fortune turns over "
        "the free and closed cards on the path (then 7); Death closes the free cards in its row and column "
        "(then 5), the Devil those within three steps (then 4), the Moon those on the path (then 6); the "
        "Sun opens the closed cards on the path (then 7); Judgment returns the token and opens the closed "
        "cards within three steps. The World moves with the token to the Centre, which becomes passable "
        "(then 8). A free card is an open minor with no token and nothing on it.\n"
        "With no move you must use a way out if one exists: the same suit (jump to a free card of your "
        "minor's suit and take the minor), or arcana from the pool, laid on your card (Star 5 steps, "
        "Priestess + Hierophant 1, 5 or 9, Justice + a taken minor its value, Strength doubles your "
        "card's steps); else the token skips.\n"
        "Alone or as one team: open the whole field to win. Teams: the team none of whose tokens can move "
        "loses.\n"
        "Buttons name the cells as the picture labels them (column letter, row number); ① and ② are your "
        "tokens, 🆘 a way out."
    )
    private_modes = (
        PrivateMode("solo", N_("Solo"), 0),
        PrivateMode("solo2", N_("Solo, two tokens"), 0, {TOKENS: 2}),
        PrivateMode("one", N_("Against one computer"), 1),
        PrivateMode("three", N_("Against three computers"), 3),
        PrivateMode("one2", N_("Against one computer, two tokens each"), 1, {TOKENS: 2}),
    )
    row_width = 6
    captions: ClassVar[Mapping[type[Event], Caption]] = CAPTIONS
    #: A hopeless team loses (or draws, with every other team hopeless too): the result says so.
    told_by_result = (TeamHopeless,)

    def choices(self, view: Frozen, legal: tuple[Action, ...], names: Names, lang: str) -> list[Choice]:
        grid = _view(view)
        if grid.phase == "swap":
            return sorted((self._cell(action, lang) for action in legal), key=self._order)
        marks = grid.tokens_per_player > 1
        # Tokens still off the field are alike: the lowest-numbered of them is the one offered.
        off = [token.number for token in grid.tokens if token.seat == grid.to_move and token.cell is None]
        alike = {str(number) for number in sorted(off)[1:]}
        made = [self._move(action, marks, lang) for action in legal if action.partition(".")[0] not in alike]
        return sorted(made, key=self._order)

    @staticmethod
    def _order(choice: Choice) -> tuple[str, int, str]:
        """Token by token; a token's cells in the field's reading order, then its ways out."""
        head, _, rest = choice.action.partition(".")
        code = rest.split(".")[0]
        cell = BOARD.code_index.get(code)
        return (head, cell if cell is not None else BOARD.size, rest)

    @staticmethod
    def _row_group(prefix: str, cell: int, mark: str, lang: str) -> tuple[str, str]:
        row = BOARD.layout[cell][0]
        return f"{prefix}r{row}", (mark + " " if mark else "") + t(lang, "Row {number}", number=row + 1)

    def _cell(self, action: Action, lang: str) -> Choice:
        """The Hanged Man's choice of a free card, then of a closed one."""
        head, _, code = action.partition(".")
        assert head in (SWAP_FREE, SWAP_CLOSED)
        group, label = self._row_group(head, BOARD.code_index[code], "", lang)
        return Choice(code, action, group=group, group_label=label)

    def _move(self, action: Action, marks: bool, lang: str) -> Choice:
        head, _, rest = action.partition(".")
        mark = TOKEN_MARKS[int(head) - 1] if marks else ""
        parts = rest.split(".")
        cell = BOARD.code_index.get(parts[0])
        if cell is None:
            way = option_text(parts[0], lang)
            label = "🆘 " + mark + way[:1].upper() + way[1:]
            return Choice(
                label,
                action,
                group=f"{head}o",
                group_label=(mark + " " if mark else "") + t(lang, "ways out"),
            )
        label = mark + parts[0] + (f"·{parts[1]}" if len(parts) > 1 else "")
        group, group_label = self._row_group(head, cell, mark, lang)
        return Choice(label, action, group=group, group_label=group_label)

    def picture(self, view: Frozen, names: Names, lang: str, recent: Sequence[Event]) -> bytes:
        return render_grid_tarot(_view(view), names=names, lang=lang, recent=recent)

    def status(self, view: Frozen, names: Names, lang: str) -> str:
        grid = _view(view)
        closed = tn(lang, "{n} closed card", "{n} closed cards", grid.closed)
        if grid.outcome is not None:
            lines = ["🏁 " + result_text(grid.outcome, grid, names, lang)]
            if grid.outcome.losers and grid.outcome.winners:
                losers = ", ".join(names[seat] for seat in grid.outcome.losers)
                lines.append(t(lang, "😔 {names}: no move left, the game is lost.", names=losers))
            return "\n".join([*lines, closed])
        if grid.to_move is None:
            return closed
        task = "; ".join(task_parts(grid, lang))
        return t(lang, "{name}, your turn: {task}", name=names[grid.to_move], task=task) + "\n" + closed
