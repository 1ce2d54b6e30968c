"""Durak, throw-in and transfer (Games 6 and 7), in the bot: a public table, a private panel each."""

from __future__ import annotations

from collections.abc import Mapping

from bot.adapters.base import Button, GameAdapter, PrivateMode
from core.cards import card_label, parse
from core.engine import Action, Frozen, OptionValue, State
from core.games.durak import PASS, TAKE, DurakView
from i18n import N_, t
from render.durak import render_durak_hand, render_durak_table

CARDS_PER_ROW = 4


def _view(view: Frozen) -> DurakView:
    assert isinstance(view, DurakView)
    return view


class DurakAdapter(GameAdapter):
    panels = True
    fill_with_computers = True
    variants = ("durak", "durak_transfer")
    toggles = (
        ("first_bout_five", N_("5 cards in the first bout")),
        ("pagat_draw", N_("Defender draws last")),
    )
    rules_msg = N_(
        "Durak for four, every player for themselves; computers fill empty seats.\n"
        "Six cards each; the card under the talon sets the trump. The lowest trump attacks first "
        "(in a series with the same four, the player left of the fool).\n"
        "The defender beats each attack card with a higher card of its suit or a trump, or takes. "
        "The others throw in cards of ranks already on the table: at most six, and no more than the "
        "defender holds. In transfer Durak the defender may instead pass the attack on with a card of "
        "the same rank, before beating anything.\n"
        "After a bout everyone draws up to six, the attacker first. The last one holding cards is the fool.\n"
        "Play from your private panel with the bot; the group sees only the table."
    )
    private_modes = (
        PrivateMode("normal", N_("Against three computers"), 3),
        PrivateMode("easy", N_("Against three easy computers"), 3, level="easy"),
        PrivateMode("hard", N_("Against three strong computers"), 3, level="hard"),
    )

    def __init__(self, game_id: str, title_msg: str) -> None:
        self.game_id = game_id
        self.title_msg = title_msg

    # ----- the public table ------------------------------------------------------------------

    def keyboard(self, view: Frozen, legal: tuple[Action, ...], lang: str) -> list[list[Button]]:
        """A person's actions on their panel: cards first, then take or pass."""
        cards = [
            Button(self.game.label(action, lang), action) for action in legal if action not in (TAKE, PASS)
        ]
        rows = [cards[i : i + CARDS_PER_ROW] for i in range(0, len(cards), CARDS_PER_ROW)]
        words = [Button(self.game.label(action, lang), action) for action in legal if action in (TAKE, PASS)]
        return [*rows, words] if words else rows

    def picture(self, view: Frozen, names: tuple[str, ...], lang: str) -> bytes:
        return render_durak_table(_view(view), names=names, lang=lang)

    def caption(self, view: Frozen, names: tuple[str, ...], lang: str) -> str:
        table = _view(view)
        lines = [f"🃏 {self.title(lang)}"]
        if table.outcome is not None:
            out = ", ".join(names[seat] for seat in table.out)
            if table.fool is None:
                lines.append(t(lang, "🤝 A draw: nobody is the fool."))
            else:
                lines.append(t(lang, "🤡 The fool: {name}.", name=names[table.fool]))
            if out:
                lines.append(t(lang, "Went out: {names}.", names=out))
            return "\n".join(lines)
        if table.trump is not None:
            lines.append(
                t(
                    lang,
                    "Trump: {card}. Talon: {count}.",
                    card=card_label(table.trump, lang),
                    count=table.talon,
                )
            )
        if table.attacker is not None and table.defender is not None:
            lines.append(
                t(
                    lang,
                    "{attacker} attacks, {defender} defends.",
                    attacker=names[table.attacker],
                    defender=names[table.defender],
                )
            )
        waiting = ", ".join(names[seat] for seat in table.to_move)
        if waiting:
            lines.append(t(lang, "Waiting for: {names}.", names=waiting))
        return "\n".join(lines)

    # ----- a person's panel ------------------------------------------------------------------

    def panel_picture(
        self, view: Frozen, names: tuple[str, ...], lang: str, legal: tuple[Action, ...]
    ) -> bytes:
        playable = tuple(dict.fromkeys(action.split(".")[-1] for action in legal if "." in action))
        return render_durak_hand(_view(view), names=names, lang=lang, playable=playable)

    def panel_caption(self, view: Frozen, names: tuple[str, ...], lang: str) -> str:
        table = _view(view)
        seat = table.seat
        assert seat is not None
        if table.outcome is not None:
            return self.caption(view, names, lang)
        if seat in table.out:
            return t(lang, "You are out of cards. Well played!")
        if seat not in table.to_move:
            waiting = ", ".join(names[other] for other in table.to_move)
            return t(lang, "Your cards. Waiting for: {names}.", names=waiting)
        if seat == table.defender and table.table:
            return t(lang, "You defend: beat the oldest card, or take.")
        if not table.table:
            return t(lang, "Your attack: lead a card.")
        return t(lang, "You may throw in a card, or pass.")

    def hand_text(self, view: Frozen, lang: str) -> str:
        table = _view(view)
        hand = " ".join(card_label(card, lang) for card in table.hand or ())
        trump = parse(table.trump).suit.symbol if table.trump else ""
        return t(lang, "Your cards: {cards}. Trump {trump}.", cards=hand or "—", trump=trump)

    def next_options(self, state: State, options: Mapping[str, OptionValue]) -> dict[str, OptionValue]:
        """A7.3 / A7.4: the next game with the same four starts from under the fool."""
        outcome = self.game.outcome(state)
        fool = outcome.losers[0] if outcome is not None and outcome.losers else -1
        return {**options, "fool": fool}


ADAPTERS_DURAK = (
    DurakAdapter("durak", N_("Durak (throw-in)")),
    DurakAdapter("durak_transfer", N_("Durak (transfer)")),
)
