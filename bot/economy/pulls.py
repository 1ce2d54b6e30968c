"""A pull of the one-legged bandit, without Telegram: the ticket, the spin, the settlement.

A pull's id comes from the update that asked for it, so a retried or doubled update neither charges
nor pays twice and draws the same stops (they derive from the pull id and the deployment's secret).
A pull stays pending from its charge until its result has been shown; the next pull first settles
and shows what a crash left pending, so no charged pull is ever lost.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import datetime
from zoneinfo import ZoneInfo

from bot.economy.career import Career, RankMoved
from bot.economy.daily import Daily, PullTicket
from bot.economy.leaderboard import Leaderboard
from bot.economy.wallet import Wallet
from core.engine import resolve_chance
from core.games.bandit import PULL_COST, BanditGame, BanditView
from core.registry import GAMES


@dataclass(frozen=True)
class Pull:
    view: BanditView
    ticket: PullTicket
    balance: int


class Pulls:
    """Pulls, balances and boards for one deployment (all state in Redis)."""

    def __init__(self, wallet: Wallet, daily: Daily, career: Career, leaderboard: Leaderboard) -> None:
        self.wallet = wallet
        self.daily = daily
        self.career = career
        self.leaderboard = leaderboard

    async def pull(
        self, user_id: int, name: str, chat_id: int, pull_id: str, *, now: datetime, tz: ZoneInfo
    ) -> Pull:
        """Take a free pull or 10 coins, spin, settle rank and winnings; InsufficientFunds if broke.

        Every step is idempotent per pull id, so pulling a pending id again finishes that pull."""
        ticket = await self.daily.take_pull(
            user_id, pull_id, now=now, tz=tz, cost=PULL_COST, wallet=self.wallet
        )
        rank = await self.career.rank(user_id)
        while True:
            view = await self._spin(pull_id, rank)
            try:
                settled = await self.career.settle(
                    user_id,
                    pull_id,
                    rank_before=view.rank_before,
                    rank_after=view.rank,
                    credit=view.win + view.bonus,
                    record={"rank_before": view.rank_before},
                    now=now,
                )
                break
            except RankMoved as moved:
                rank = moved.rank
        if settled.repeated and settled.record.get("rank_before") != view.rank_before:
            # A repeat of a pull settled earlier: show it as it was settled.
            view = await self._spin(pull_id, int(str(settled.record["rank_before"])))
        balance = settled.balance if settled.balance is not None else await self.wallet.balance(user_id)
        await self.leaderboard.record(
            user_id, name, chat_id if chat_id < 0 else None, balance=balance, rank=view.rank
        )
        return Pull(view, ticket, balance)

    async def pending(self, user_id: int) -> list[str]:
        """Pull ids charged and never shown, oldest first by id."""
        return await self.daily.pending(user_id)

    async def shown(self, user_id: int, pull_id: str) -> None:
        await self.daily.shown(user_id, pull_id)

    async def _spin(self, pull_id: str, rank: int) -> BanditView:
        """The pull's result at `rank`: its stops depend only on the pull id."""
        game = GAMES["bandit"]
        assert isinstance(game, BanditGame)
        state, _ = resolve_chance(
            game, game.new(1, {"rank": rank}), random.Random(await self.career.seed(pull_id))
        )
        view: BanditView = game.view(state, 0)
        return view
