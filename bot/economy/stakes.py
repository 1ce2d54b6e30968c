"""Coins around tables: the stake to start a coin game, the payout when it ends, the leaderboards.

Every movement carries an id made from the table id, so a retried or doubled update never charges or
pays twice (the wallet is idempotent per id). A finished table is marked `settled` after its payout;
one that a crash left unsettled is settled the next time it is touched.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

from bot.adapters import ADAPTERS
from bot.economy.leaderboard import Leaderboard
from bot.economy.wallet import Wallet
from bot.tables.lifecycle import state_of
from bot.tables.model import Phase, Table
from bot.tables.store import TableStore, VersionConflict


def utc_now() -> datetime:
    return datetime.now(UTC)


class Economy:
    def __init__(
        self, wallet: Wallet, leaderboard: Leaderboard, clock: Callable[[], datetime] = utc_now
    ) -> None:
        self.wallet = wallet
        self.leaderboard = leaderboard
        self.clock = clock

    async def charge_stake(self, table: Table) -> None:
        """Take each person's stake before the table is stored (InsufficientFunds changes nothing)."""
        await self._move_stakes(table, -1, "stake")

    async def refund_stake(self, table: Table) -> None:
        """Give the stake back when the table could not be stored after all."""
        await self._move_stakes(table, 1, "refund")

    async def _move_stakes(self, table: Table, sign: int, kind: str) -> None:
        stake = ADAPTERS[table.game].stake(table.options)
        if stake <= 0:
            return
        for player in table.players:
            if player.user_id is not None:
                await self.wallet.apply(
                    player.user_id,
                    f"{table.id}:{kind}",
                    sign * stake,
                    f"{table.game}:{kind}",
                    now=self.clock(),
                )

    async def settle(self, store: TableStore, table: Table) -> Table:
        """Pay out a finished coin game once and mark it settled."""
        if table.phase is not Phase.FINISHED or table.settled or table.state is None:
            return table
        adapter = ADAPTERS[table.game]
        if adapter.stake(table.options) <= 0:
            return table
        state = state_of(table)
        for seat, player in enumerate(table.players):
            if player.user_id is None:
                continue
            amount = adapter.payout(state, seat)
            if amount > 0:
                movement = await self.wallet.apply(
                    player.user_id, f"{table.id}:payout", amount, f"{table.game}:payout", now=self.clock()
                )
                balance = movement.balance
            else:
                balance = await self.wallet.balance(player.user_id)
            await self.leaderboard.record(player.user_id, player.name, None, balance=balance, rank=None)
        try:
            return await store.put(table.model_copy(update={"settled": True}), expected_version=table.version)
        except VersionConflict:
            return table  # someone else touched it; the payout is idempotent, the flag comes next time
