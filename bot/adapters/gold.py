"""McSweeney's Gold (Game 8) in the bot: bets as start modes, the 7x7 route keyboard, the reveal."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

from bot.adapters.base import Caption, Choice, GameAdapter, Names, PrivateMode
from core.engine import Action, Event, Frozen, OptionValue, State
from core.games.gold import (
    BETS,
    CODES,
    COLS,
    GO,
    ROUTE_LENGTH,
    GoldGame,
    GoldState,
    GoldView,
    Marked,
    Revealed,
)
from i18n import N_, t, tn
from render.gold import render_gold, symbol_name

#: The button that sends the route, worded as the picture words it.
SEND = N_("⛵ Send the expedition")
PROOF = "proof"


def _marked(event: Marked, names: Names, lang: str) -> str:
    cell = CODES[event.cell]
    return t(lang, "Marked {cell}", cell=cell) if event.marked else t(lang, "Unmarked {cell}", cell=cell)


def _revealed(event: Revealed, names: Names, lang: str) -> str:
    return t(
        lang,
        "{cell}: {symbol}, tour sum {total}",
        cell=CODES[event.cell],
        symbol=symbol_name(event.symbol, lang),
        total=event.total,
    )


class GoldAdapter(GameAdapter):
    game_id = "gold"
    emoji = "💰"
    title_msg = N_("McSweeney's Gold")
    rules_msg = N_(
        "McSweeney's Gold: an expedition for treasure on a field of 49 hidden cells.\n"
        "Equip the expedition: choose a bet (20, 40, 100 or 200 coins); it is taken from your balance.\n"
        "Mark 7 cells: that is the route. The cells open in the order you marked them:\n"
        "money bag +100, purse +10, coin +1, ×2 and ×5 multiply the tour sum, /2 and /5 divide it "
        "(rounding down), 0 is bankruptcy, Z (absolution) cancels the next penalty.\n"
        "You receive the tour sum times bet/20. The field is fixed before your first mark: its "
        "fingerprint is shown at once, and the end reveals the field and the salt, so you can check it."
    )
    in_groups = False
    animated = True
    row_width = COLS
    private_modes = tuple(
        PrivateMode(str(bet), label, 0, {"bet": bet})
        for bet, label in zip(BETS, (N_("Bet 20"), N_("Bet 40"), N_("Bet 100"), N_("Bet 200")), strict=True)
    )
    captions: ClassVar[Mapping[type[Event], Caption]] = {Marked: _marked, Revealed: _revealed}

    def stake(self, options: Mapping[str, OptionValue]) -> int:
        bet = options.get("bet", BETS[0])
        return bet if isinstance(bet, int) else 0

    def payout(self, state: State, seat: int) -> int:
        game = self.game
        assert isinstance(game, GoldGame) and isinstance(state, GoldState)
        return game.payout(state) or 0

    def choices(self, view: Frozen, legal: tuple[Action, ...], names: Names, lang: str) -> list[Choice]:
        assert isinstance(view, GoldView)
        allowed = set(legal)
        order = {cell: number for number, cell in enumerate(view.marked, start=1)}
        cells = [
            Choice(f"✅{order[i]}" if i in order else code, code)
            for i, code in enumerate(CODES)
            if code in allowed
        ]
        return cells + ([Choice(t(lang, SEND), GO)] if GO in allowed else [])

    def picture(self, view: Frozen, names: Names, lang: str, recent: Sequence[Event]) -> bytes:
        assert isinstance(view, GoldView)
        return render_gold(view, lang=lang)

    def frames(self, view: Frozen) -> int:
        assert isinstance(view, GoldView)
        # Open the route's cells one by one before the final picture with the whole field.
        return len(view.revealed)

    def frame(self, view: Frozen, names: Names, lang: str, number: int) -> bytes:
        assert isinstance(view, GoldView)
        return render_gold(view, shown=number, lang=lang)

    def status(self, view: Frozen, names: Names, lang: str) -> str:
        assert isinstance(view, GoldView)
        bet = tn(lang, "bet {n} coin", "bet {n} coins", view.bet)
        if view.total is None:
            return "\n".join(
                [
                    bet,
                    t(
                        lang,
                        "Mark the route: {count} of {needed} cells.",
                        count=len(view.marked),
                        needed=ROUTE_LENGTH,
                    ),
                    t(lang, "Field fingerprint: {fingerprint}", fingerprint=view.fingerprint or "…"),
                ]
            )
        payout = view.payout or 0
        return "\n".join(
            [
                bet,
                t(lang, "Tour sum: {total}.", total=view.total),
                t(
                    lang,
                    "Payout: {coins} (net {net:+d}).",
                    coins=tn(lang, "{n} coin", "{n} coins", payout),
                    net=payout - view.bet,
                ),
                t(lang, "🔍 Check that the field was fixed in advance: press «🔍 Check»."),
            ]
        )

    def info_actions(self, view: Frozen, lang: str) -> list[Choice]:
        assert isinstance(view, GoldView)
        return [Choice(t(lang, "🔍 Check"), PROOF)] if view.salt is not None else []

    def info(self, action: str, view: Frozen, lang: str) -> str | None:
        assert isinstance(view, GoldView)
        if action != PROOF or view.layout is None or view.salt is None:
            return None
        return t(
            lang,
            "How to check the field. Before your first mark the bot showed the fingerprint {fingerprint}: "
            "the start of the SHA-256 of the field written cell by cell (A1 to G7), a colon and a secret "
            "salt. Now both are public. Compute SHA-256 of this line with any tool (for example "
            "`printf '%s' LINE | sha256sum`): it starts with {fingerprint}, so the field was fixed before "
            "you chose.\n\n{field}:{salt}",
            fingerprint=view.fingerprint or "",
            field=",".join(view.layout),
            salt=view.salt,
        )
