"""The card-grid game (Game 1) in the bot: destination buttons by row, the field picture, the caption."""

from __future__ import annotations

from itertools import groupby

from bot.adapters.base import Button, GameAdapter, PrivateMode
from core.cards import card_label
from core.engine import Action, Frozen
from core.games.grid import GridView, cell_code
from i18n import N_, t, tn
from render.grid import render_grid


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

    def keyboard(self, view: Frozen, legal: tuple[Action, ...], lang: str) -> list[list[Button]]:
        assert isinstance(view, GridView)
        allowed = set(legal)
        cells = [i for i in range(len(view.layout)) if cell_code(view.layout[i]) in allowed]
        # One keyboard row per field row, so the buttons look like the part of the field they name.
        return [
            [Button(cell_code(view.layout[i]), cell_code(view.layout[i])) for i in row]
            for _, row in groupby(cells, key=lambda i: view.layout[i][0])
        ]

    def picture(self, view: Frozen, names: tuple[str, ...], lang: str) -> bytes:
        assert isinstance(view, GridView)
        return render_grid(view, names=names, lang=lang)

    def caption(self, view: Frozen, names: tuple[str, ...], lang: str) -> str:
        assert isinstance(view, GridView)
        lines = [f"🃏 {self.title(lang)}"]
        if view.last_opened is not None and view.faces[view.last_opened] is not None:
            opener = next((s for s, cell in enumerate(view.tokens) if cell == view.last_opened), None)
            who = names[opener] if opener is not None else "?"
            lines.append(
                t(
                    lang,
                    "{name} opened {cell}: {card}",
                    name=who,
                    cell=cell_code(view.layout[view.last_opened]),
                    card=card_label(view.faces[view.last_opened] or "", lang),
                )
            )
        if view.outcome is not None:
            lines.append(self._result(view, names, lang))
        elif view.to_move is not None:
            name = names[view.to_move]
            if view.steps is None:
                lines.append(t(lang, "{name}, your turn: put your token on any closed card.", name=name))
            else:
                lines.append(
                    tn(
                        lang,
                        "{name}, your turn: {n} step.",
                        "{name}, your turn: {n} steps.",
                        view.steps,
                        name=name,
                    )
                )
        lines.append(t(lang, "Closed cards: {count}", count=view.closed))
        return "\n".join(lines)

    def _result(self, view: GridView, names: tuple[str, ...], lang: str) -> str:
        assert view.outcome is not None
        if view.players == 1:
            if view.outcome.winners:
                return t(lang, "🎉 The whole field is open. You win!")
            return t(lang, "😔 No move left with {count} closed cards. You lose.", count=view.closed)
        winner = names[view.outcome.winners[0]]
        loser = names[view.outcome.losers[0]]
        return t(lang, "🏆 {winner} wins: {loser} has no move.", winner=winner, loser=loser)
