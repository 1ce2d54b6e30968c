"""The card-grid game (Game 1) in the bot: destination buttons by row, the field picture, the journal."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

from bot.adapters.base import Caption, Choice, GameAdapter, Names, PrivateMode
from core.cards import card_label
from core.engine import Action, Event, Frozen
from core.games.grid import GridGame, GridView, Opened, Stuck, cell_code
from i18n import N_, t, tn
from render.grid import render_grid


def _opened(event: Opened, names: Names, lang: str) -> str:
    cell = cell_code(GridGame.layout[event.cell])
    values = {"name": names[event.seat], "cell": cell, "card": card_label(event.card, lang)}
    if event.first:
        return t(lang, "{name} puts the token on {cell}: {card}", **values)
    return t(lang, "{name} moves to {cell}: {card}", **values)


def _stuck(event: Stuck, names: Names, lang: str) -> str:
    return t(lang, "{name} has no move", name=names[event.seat])


class GridAdapter(GameAdapter):
    game_id = "grid"
    title_msg = N_("Card grid")
    rules_msg = N_(
        "Card grid (36 cards). 35 cards lie face down in 5 rows of 7; the 36th is set aside.\n"
        "On your first turn put your token on any closed card: it is turned face up.\n"
        "Its value is your number of steps next turn: 6-10 as printed, J 1, Q 2, K 3, A 4.\n"
        "Move exactly that many steps up, down, left or right (never diagonally), across open or closed "
        "cards and tokens, and stop on a closed card, which is turned face up.\n"
        "Whoever cannot move loses. Alone, open the whole field to win.\n"
        "The buttons name the cells you can reach, as labelled on the picture (column letter, row number)."
    )
    private_modes = (
        PrivateMode("solo", N_("Solo"), 0),
        PrivateMode("ai", N_("Against the computer"), 1),
    )
    row_width = 7
    captions: ClassVar[Mapping[type[Event], Caption]] = {Opened: _opened, Stuck: _stuck}
    #: Whoever has no move loses: the result says who, and why.
    told_by_result = (Stuck,)

    def choices(self, view: Frozen, legal: tuple[Action, ...], names: Names, lang: str) -> list[Choice]:
        assert isinstance(view, GridView)
        allowed = set(legal)
        # In the field's reading order, each cell in its row's group (rows then cells when many).
        return [
            Choice(code, code, group=f"r{row}", group_label=t(lang, "Row {number}", number=row + 1))
            for (row, col) in view.layout
            if (code := cell_code((row, col))) in allowed
        ]

    def picture(self, view: Frozen, names: Names, lang: str, recent: Sequence[Event]) -> bytes:
        assert isinstance(view, GridView)
        return render_grid(view, names=names, lang=lang)

    def status(self, view: Frozen, names: Names, lang: str) -> str:
        assert isinstance(view, GridView)
        closed = tn(lang, "{n} closed card", "{n} closed cards", view.closed)
        if view.outcome is not None:
            return self._result(view, names, lang) + "\n" + closed
        if view.to_move is None:
            return closed
        name = names[view.to_move]
        if view.steps is None:
            turn = t(lang, "{name}, your turn: put your token on any closed card.", name=name)
        else:
            turn = tn(
                lang, "{name}, your turn: {n} step.", "{name}, your turn: {n} steps.", view.steps, name=name
            )
        return turn + "\n" + closed

    def _result(self, view: GridView, names: Names, lang: str) -> str:
        assert view.outcome is not None
        if view.players == 1:
            if view.outcome.winners:
                return t(lang, "🎉 The whole field is open. You win!")
            return tn(
                lang,
                "😔 No move left with {n} closed card. You lose.",
                "😔 No move left with {n} closed cards. You lose.",
                view.closed,
            )
        winner = names[view.outcome.winners[0]]
        loser = names[view.outcome.losers[0]]
        return t(lang, "🏆 {winner} wins: {loser} has no move.", winner=winner, loser=loser)
