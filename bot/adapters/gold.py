"""McSweeney's Gold (Game 8) in the bot: bets as start modes, the 7x7 route keyboard, the reveal."""

from __future__ import annotations

from collections.abc import Mapping

from bot.adapters.base import Button, GameAdapter, PrivateMode
from core.engine import Action, Frozen, OptionValue, State
from core.games.gold import BETS, CODES, COLS, GO, ROUTE_LENGTH, GoldGame, GoldState, GoldView
from i18n import N_, t
from render.gold import render_gold


class GoldAdapter(GameAdapter):
    game_id = "gold"
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
    private_modes = tuple(
        PrivateMode(str(bet), label, 0, {"bet": bet})
        for bet, label in zip(BETS, (N_("Bet 20"), N_("Bet 40"), N_("Bet 100"), N_("Bet 200")), strict=True)
    )

    def stake(self, options: Mapping[str, OptionValue]) -> int:
        bet = options.get("bet", BETS[0])
        return bet if isinstance(bet, int) else 0

    def payout(self, state: State, seat: int) -> int:
        game = self.game
        assert isinstance(game, GoldGame) and isinstance(state, GoldState)
        return game.payout(state) or 0

    def keyboard(self, view: Frozen, legal: tuple[Action, ...], lang: str) -> list[list[Button]]:
        assert isinstance(view, GoldView)
        allowed = set(legal)
        order = {cell: number for number, cell in enumerate(view.marked, start=1)}
        rows: list[list[Button]] = []
        for start in range(0, len(CODES), COLS):
            row = [
                Button(f"✅{order[i]}" if i in order else code, code)
                for i, code in enumerate(CODES[start : start + COLS], start=start)
                if code in allowed
            ]
            if row:
                rows.append(row)
        if GO in allowed:
            rows.append([Button(t(lang, "⛵ Send the expedition"), GO)])
        return rows

    def picture(self, view: Frozen, names: tuple[str, ...], lang: str) -> bytes:
        assert isinstance(view, GoldView)
        return render_gold(view, lang=lang)

    def frames(self, view: Frozen) -> int:
        assert isinstance(view, GoldView)
        # Open the route's cells one by one before the final picture with the whole field.
        return len(view.revealed)

    def frame(self, view: Frozen, names: tuple[str, ...], lang: str, number: int) -> bytes:
        assert isinstance(view, GoldView)
        return render_gold(view, shown=number, lang=lang)

    def caption(self, view: Frozen, names: tuple[str, ...], lang: str) -> str:
        assert isinstance(view, GoldView)
        lines = [f"💰 {self.title(lang)}: " + t(lang, "bet {bet}", bet=view.bet)]
        if view.total is None:
            lines.append(
                t(
                    lang,
                    "Mark the route: {count} of {needed} cells.",
                    count=len(view.marked),
                    needed=ROUTE_LENGTH,
                )
            )
            lines.append(t(lang, "Field fingerprint: {fingerprint}", fingerprint=view.fingerprint or "…"))
            return "\n".join(lines)
        payout = view.payout or 0
        lines.append(
            t(
                lang,
                "Tour sum: {total}. Payout: {payout} (net {net:+d}).",
                total=view.total,
                payout=payout,
                net=payout - view.bet,
            )
        )
        lines.append(
            t(
                lang,
                "Check the field: SHA-256 of “{field}:{salt}” starts with {fingerprint}.",
                field=",".join(view.layout or ()),
                salt=view.salt or "",
                fingerprint=view.fingerprint or "",
            )
        )
        return "\n".join(lines)
