"""The one write path of every table change: transition -> one atomic store write -> show.

`commit` stamps the turn deadline, works out the coins the change moves (a coin game's stake when
it starts, its payout or refund when it ends), and hands all of it to the store's single script,
so whatever crashes, a table and its timer and its coins are written together or not at all.
Showing comes after: a picture that failed to go out is brought up to date by the next press or
tick, because the stored table is the truth.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from datetime import datetime

from bot import keys
from bot.adapters import ADAPTERS
from bot.economy.leaderboard import Leaderboard
from bot.economy.wallet import InsufficientFunds, Wallet
from bot.tables.computers import Computers
from bot.tables.lifecycle import (
    LOBBY_IDLE_MINUTES,
    Decide,
    advance,
    computers_to_move,
    game_of,
    state_of,
    stop,
)
from bot.tables.model import Phase, Table
from bot.tables.publisher import EditBudget, Publisher
from bot.tables.store import CoinMove, TableStore, VersionConflict

log = logging.getLogger(__name__)

#: Seconds after which a table whose computers are to move is moved on by any worker's ticker.
COMPUTER_GRACE_SECONDS = 10.0
#: A chain of computer moves is stored and shown once it has run this long, and the rest left to
#: the ticker. A decision takes at most the computers' budget (2 s), so a chain ends well within
#: its grace: no other worker's ticker starts it over while it runs (each discarding the other's
#: work, for ever, when a whole game of computers, every person away, outlasted the grace), and
#: neither its chat nor a tick waits on it for long.
COMPUTER_CHAIN_SECONDS = 4.0
#: The rest of a cut chain is due this soon: at a worker's next tick.
CARRY_ON_SECONDS = 1.0

#: How long a stored change waits for its picture from the worker that stored it before any
#: worker's tick shows it instead.
SHOW_GRACE_SECONDS = 5.0


class Tables:
    def __init__(
        self,
        store: TableStore,
        publisher: Publisher,
        computers: Computers,
        wallet: Wallet,
        leaderboard: Leaderboard,
        budget: EditBudget,
        clock: Callable[[], datetime],
    ) -> None:
        self.store = store
        self.publisher = publisher
        self.computers = computers
        self.wallet = wallet
        self.leaderboard = leaderboard
        self.budget = budget
        self.clock = clock

    @property
    def decide(self) -> Decide:
        return self.computers.decide

    async def commit(
        self, old: Table | None, new: Table | None, *, answer: Callable[[], Awaitable[None]] | None = None
    ) -> Table | None:
        """Store `new` in place of `old` (compare-and-set), with its deadline and coins; then, with
        the change safely stored, `answer` the person, let the computers move (stored again) and
        show it. None deletes the lobby `old`. Raises VersionConflict or InsufficientFunds before
        anything changed."""
        if new is None:
            assert old is not None
            await self.close_lobby(old, answer=answer)
            return None
        replaced = old if old is not None and old.id != new.id else None
        # What the replaced table's messages show is forgotten with the write (a new table starts
        # afresh): read it first.
        replaced_marks = await self.store.marks(replaced) if replaced is not None else {}
        stored = await self.write(old, new)
        # Should this worker die before the picture is out, any worker's tick shows it (the lease
        # keeps two from drawing at once, and a table already shown is passed over).
        await self.publisher.defer(stored, SHOW_GRACE_SECONDS)
        if answer is not None:
            await answer()
        if replaced is not None:
            await self.publisher.retire(replaced, replaced_marks)
        stored = await self.play_computers(stored)
        await self.publisher.show(stored)
        return stored

    async def abandon_chat(self, chat_id: int, title: str, *, topic: int | None = None) -> None:
        """The bot was removed from the group `title` ("" when unknown), or with `topic`, that forum
        topic of it was deleted: nothing can be shown or pressed there any more, so its games stop
        and its lobbies close, without a word to the chat (none would arrive); each person of a
        running game is told privately, where their panel loses its buttons."""
        for table in await self.store.in_chat(chat_id):
            if topic is not None and table.topic != topic:
                continue
            current: Table | None = table
            while current is not None and current.id == table.id and current.phase is not Phase.FINISHED:
                try:
                    if current.phase is Phase.LOBBY:
                        await self.store.delete(current)
                    else:
                        stopped = await self.write(current, stop(current))
                        # Nothing may show it again: in the chat a deferred edit would retry forever,
                        # and a panel would get its buttons back.
                        for where in ("shown", *map(keys.panel_shown, stopped.panels)):
                            await self.store.mark_shown(stopped, where)
                        await self.publisher.tell_abandoned(stopped, title, topic_gone=topic is not None)
                    break
                except VersionConflict:  # a move or a timer got there first: stop what it stored
                    current = await self.store.get(table.chat_id, table.topic)

    async def check_funds(self, user_id: int, changes: Sequence[tuple[Table | None, Table]]) -> None:
        """Raise InsufficientFunds if the person cannot cover what the `(old, new)` changes, written one
        after the other, would take from them (a running game's refund counts): asked before the first
        is written, so a bet that cannot be covered changes nothing."""
        moves = [move for old, new in changes for move in coin_moves(old, new)]
        needed = -sum(move.delta for move in moves if move.user_id == user_id)
        if needed > 0 and (balance := await self.wallet.balance(user_id)) < needed:
            raise InsufficientFunds(balance, needed)

    async def close_lobby(
        self, lobby: Table, *, idle: bool = False, answer: Callable[[], Awaitable[None]] | None = None
    ) -> None:
        """Delete `lobby` (compare-and-set: VersionConflict if a join or a start got there first),
        `answer` the person, and let its message say it is closed (and why, when it stood `idle`)."""
        await self.store.delete(lobby)
        if answer is not None:
            await answer()
        await self.publisher.close_lobby(lobby, LOBBY_IDLE_MINUTES if idle else None)

    async def play_computers(self, table: Table) -> Table:
        """Let the computers to move play until a person is to move, and store that. If the write
        loses (another worker got there first), the stored table stands: it has its own deadline."""
        if not computers_to_move(table):
            return table
        started = self.clock()

        def enough() -> bool:
            return (self.clock() - started).total_seconds() >= COMPUTER_CHAIN_SECONDS

        try:
            # Computers still to move after `advance`: the chain was cut, the ticker carries on.
            return await self.write(table, await advance(table, self.decide, enough), grace=CARRY_ON_SECONDS)
        except VersionConflict:
            log.info("table %s moved on while its computers thought", table.id)
            return await self.store.get(table.chat_id, table.topic) or table

    async def write(self, old: Table | None, new: Table, *, grace: float = COMPUTER_GRACE_SECONDS) -> Table:
        """Store a change (deadline and coins with it), without moving computers or showing it; with
        computers to move, any worker's ticker moves them after `grace` seconds."""
        replacing = old is not None and old.id != new.id
        new = await self._stamp(new, grace)
        moves = coin_moves(old, new)
        stored = await self.store.put(
            new,
            expected_version=None if old is None or replacing else old.version,
            coins=moves,
            now=self.clock(),
        )
        if moves:
            await self._record_balances(stored)
        return stored

    async def _stamp(self, table: Table, grace: float) -> Table:
        """The deadline, restarted on every visible change: a person's turn time, which starts once
        the turn is on screen (a group picture held back by the edit budget adds its wait); or,
        while computers are to move, a short grace after which any worker's ticker moves them (the
        worker that should have may have died); or a group lobby's idle time."""
        if computers_to_move(table):
            return table.model_copy(update={"deadline": self.clock().timestamp() + grace})
        if table.phase is Phase.LOBBY and not table.private:
            return table.model_copy(update={"deadline": self.clock().timestamp() + LOBBY_IDLE_MINUTES * 60})
        if table.turn_seconds <= 0 or not people_to_move(table):
            return table.model_copy(update={"deadline": None}) if table.deadline is not None else table
        held = table.chat_id < 0 and table.message_id is not None
        wait = await self.budget.wait(table.chat_id) if held else 0.0
        return table.model_copy(update={"deadline": self.clock().timestamp() + table.turn_seconds + wait})

    async def _record_balances(self, table: Table) -> None:
        for player in table.players:
            if player.user_id is not None:
                balance = await self.wallet.balance(player.user_id)
                await self.leaderboard.record(player.user_id, player.name, None, balance=balance, rank=None)


def people_to_move(table: Table) -> tuple[int, ...]:
    """Seats whose person (not a computer) must act now."""
    if table.phase is not Phase.PLAYING or table.state is None:
        return ()
    return tuple(
        seat
        for seat in game_of(table).to_move(state_of(table))
        if seat >= 0 and not table.players[seat].is_computer
    )


def coin_moves(old: Table | None, new: Table) -> list[CoinMove]:
    """The coins a change moves: each person's stake as a coin game leaves the lobby, and the payout
    (or, for a game stopped before its end, the stake back) as it finishes. Op ids name the table,
    so a change written twice moves its coins once."""
    adapter = ADAPTERS[new.game]
    stake = adapter.stake(new.options)
    if stake <= 0:
        return []
    before = old if old is not None and old.id == new.id else None
    people = [(seat, player.user_id) for seat, player in enumerate(new.players) if player.user_id is not None]
    moves: list[CoinMove] = []
    if new.phase is not Phase.LOBBY and (before is None or before.phase is Phase.LOBBY):
        moves += [CoinMove(user, f"{new.id}:stake", -stake, f"{new.game}:stake") for _, user in people]
    if new.phase is Phase.FINISHED and (before is None or before.phase is not Phase.FINISHED):
        state = state_of(new)
        if game_of(new).outcome(state) is None:
            moves += [CoinMove(user, f"{new.id}:refund", stake, f"{new.game}:refund") for _, user in people]
        else:
            for seat, user in people:
                amount = adapter.payout(state, seat)
                if amount > 0:
                    moves.append(CoinMove(user, f"{new.id}:payout", amount, f"{new.game}:payout"))
    return moves
