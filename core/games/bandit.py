"""Game 9: the One-legged bandit (Одноногий разбойник), RULES.md Game 9, rules 2-4 and A9.1-A9.5.

One game is one pull of the crutch lever: three chance nodes (one stop per reel), then the result.
The wallet (stake, refusal at a low balance) and the career rank between pulls belong to the bot.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from core.engine import (
    CHANCE,
    Action,
    ChanceOutcomes,
    Event,
    Frozen,
    Game,
    OptionSpec,
    OptionValue,
    Outcome,
    Seat,
    State,
)
from i18n import N_

#: Rule 1 / A9.2: the fixed stake of a pull, charged by the bot.
PULL_COST = 10
REELS = 3

#: Rule 2: the one 32-stop strip that every reel uses.
STRIP: tuple[str, ...] = (
    "doubloon", "blank", "anchor", "scroll", "rum", "blank", "doubloon", "cutlass",
    "anchor", "scroll", "blank", "doubloon", "parrot", "rum", "anchor", "scroll",
    "blank", "doubloon", "chest", "cutlass", "anchor", "rum", "blank", "scroll",
    "doubloon", "parrot", "anchor", "cutlass", "blank", "doubloon", "rum", "scroll",
)  # fmt: skip


class Line(NamedTuple):
    """A paytable line: it matches when exactly `exactly` of the three reels show `symbol`."""

    code: str
    #: A message id.
    name: str
    symbol: str
    exactly: int
    pays: int
    #: Three scrolls: a career step instead of coins (A9.4).
    career: bool = False


#: Rule 3, highest first: the first matching line is the only one that pays (A9.5).
PAYTABLE: tuple[Line, ...] = (
    Line("chest3", N_("Three chests"), "chest", 3, 2000),
    Line("parrot3", N_("Three parrots"), "parrot", 3, 750),
    Line("cutlass3", N_("Three cutlasses"), "cutlass", 3, 400),
    Line("rum3", N_("Three bottles of rum"), "rum", 3, 150),
    Line("doubloon3", N_("Three doubloons"), "doubloon", 3, 150),
    Line("anchor3", N_("Three anchors"), "anchor", 3, 80),
    Line("doubloon2", N_("Two doubloons"), "doubloon", 2, 40),
    Line("doubloon1", N_("One doubloon"), "doubloon", 1, 5),
    Line("scroll3", N_("Three scrolls"), "scroll", 3, 0, career=True),
)


class Rank(NamedTuple):
    rank: int
    #: Message ids, like `episode`.
    title: str
    #: Paid on reaching the rank (rule 4).
    bonus: int
    episode: str


#: Rule 4: the career ladder. The episodes are ours (the seed's scrolls are lost, A9.1).
CAREER: tuple[Rank, ...] = (
    Rank(
        rank=0,
        title=N_("Ordinary pirate"),
        bonus=0,
        episode=N_("You signed on a schooner in a harbour tavern: you swab the deck and dream of gold."),
    ),
    Rank(
        rank=1,
        title=N_("Topman"),
        bonus=100,
        episode=N_(
            "In a storm you were first up the mast and saved the mainsail. Your place is now the top."
        ),
    ),
    Rank(
        rank=2,
        title=N_("Gunner"),
        bonus=150,
        episode=N_("Your true shot brought down a Spanish galleon's mast. The crew gave you the guns."),
    ),
    Rank(
        rank=3,
        title=N_("Boatswain"),
        bonus=200,
        episode=N_("You quelled a mutiny below decks with nothing but your whistle. You are boatswain now."),
    ),
    Rank(
        rank=4,
        title=N_("Navigator"),
        bonus=300,
        episode=N_("You steered through the reefs by the stars when the compass lied. The charts are yours."),
    ),
    Rank(
        rank=5,
        title=N_("Quartermaster"),
        bonus=400,
        episode=N_("You shared out the prize of a captured brig fairly. The crew elected you quartermaster."),
    ),
    Rank(
        rank=6,
        title=N_("First mate"),
        bonus=500,
        episode=N_("You boarded a royal frigate. The captain made you his right hand."),
    ),
    Rank(
        rank=7,
        title=N_("Captain"),
        bonus=700,
        episode=N_("The old captain retired and left you his ship and his tricorn hat."),
    ),
    Rank(
        rank=8,
        title=N_("Squadron captain"),
        bonus=1000,
        episode=N_("Three ships fly your flag. You lead a squadron, and taverns sing of you."),
    ),
    Rank(
        rank=9,
        title=N_("Squadron captain who found old Flint's treasure"),
        bonus=1500,
        episode=N_(
            "With an old rum-stained map you found the island and old Flint's treasure! "
            "Time for a new voyage."
        ),
    ),
)

TOP_RANK = len(CAREER) - 1
REEL_OUTCOMES: tuple[tuple[Action, ...], ...] = tuple(
    tuple(f"r{reel}:{stop}" for stop in range(len(STRIP))) for reel in range(REELS)
)


@dataclass(frozen=True, slots=True)
class PullResult:
    """A plain dataclass, not a model: the exact RTP check evaluates every stop at every rank."""

    symbols: tuple[str, str, str]
    #: The paying (or career) line's code, None when nothing matched.
    line: str | None
    #: Coins from the paytable (0 for three scrolls, A9.4).
    win: int
    #: The rank reached by a career step (1-9), None without one.
    reached: int | None
    #: The rank to keep for the next pull: 0 after rank 9 (a new voyage).
    new_rank: int
    bonus: int
    career_step: bool
    new_voyage: bool


def evaluate(stops: tuple[int, int, int], rank: int) -> PullResult:
    """Rules 3-4, A9.4, A9.5: what a pull with these reel stops pays a player of career `rank`."""
    symbols = (STRIP[stops[0]], STRIP[stops[1]], STRIP[stops[2]])
    line = next((line for line in PAYTABLE if symbols.count(line.symbol) == line.exactly), None)
    if line is None or not line.career:
        return PullResult(
            symbols=symbols,
            line=line.code if line is not None else None,
            win=line.pays if line is not None else 0,
            reached=None,
            new_rank=rank,
            bonus=0,
            career_step=False,
            new_voyage=False,
        )
    # A rank of 9 is a finished career (normally already reset to 0): the next step is rank 1 again.
    reached = rank % TOP_RANK + 1
    return PullResult(
        symbols=symbols,
        line=line.code,
        win=line.pays,
        reached=reached,
        new_rank=0 if reached == TOP_RANK else reached,
        bonus=CAREER[reached].bonus,
        career_step=True,
        new_voyage=reached == TOP_RANK,
    )


class BanditState(State):
    game: str = "bandit"
    #: The stops of the reels that have stopped, left to right.
    stops: tuple[int, ...] = ()


class BanditView(Frozen):
    seat: Seat | None
    rank_before: int
    #: The rank kept for the next pull (0 after a new voyage).
    rank: int
    #: Title and episode of the rank reached by this pull's career step, else of `rank`: after
    #: Flint's treasure the machine shows that episode, though the next pull starts a new voyage.
    #: Message ids (see `Rank`).
    title: str
    episode: str
    #: The pull's result; these keep their defaults while the reels spin.
    stops: tuple[int, ...] | None = None
    symbols: tuple[str, str, str] | None = None
    line: str | None = None
    win: int = 0
    bonus: int = 0
    career_step: bool = False
    new_voyage: bool = False


class ReelStopped(Event):
    reel: int
    stop: int
    symbol: str


class CareerStep(Event):
    rank: int
    bonus: int
    new_voyage: bool


class BanditGame(Game[BanditState, BanditView]):
    id = "bandit"
    state_type = BanditState
    view_type = BanditView
    min_players = 1
    max_players = 1
    #: The player's career rank before the pull: the bot sets it from the career, never the lobby.
    options = (
        OptionSpec(
            name="rank", choices=tuple(range(TOP_RANK + 1)), default=0, label=N_("Rank"), internal=True
        ),
    )

    def _initial(self, players: int, options: Mapping[str, OptionValue]) -> BanditState:
        return BanditState(players=players, options=options)

    def result(self, state: BanditState) -> PullResult | None:
        if len(state.stops) < REELS:
            return None
        first, second, third = state.stops
        return evaluate((first, second, third), int(state.options["rank"]))

    def _to_move(self, state: BanditState) -> tuple[Seat, ...]:
        return (CHANCE,)

    def _legal(self, state: BanditState, seat: Seat) -> Sequence[Action]:
        return ()

    def _chance_outcomes(self, state: BanditState) -> ChanceOutcomes:
        return REEL_OUTCOMES[len(state.stops)]

    def _apply(self, state: BanditState, seat: Seat, action: Action) -> tuple[BanditState, Sequence[Event]]:
        stop = int(action.partition(":")[2])
        stopped = state.model_copy(update={"stops": (*state.stops, stop)})
        events: list[Event] = [ReelStopped(reel=len(state.stops), stop=stop, symbol=STRIP[stop])]
        result = self.result(stopped)
        if result is not None and result.reached is not None:
            events.append(CareerStep(rank=result.reached, bonus=result.bonus, new_voyage=result.new_voyage))
        return stopped, events

    def outcome(self, state: BanditState) -> Outcome | None:
        result = self.result(state)
        if result is None:
            return None
        paid = result.win + result.bonus
        return Outcome(winners=(0,) if paid else (), losers=() if paid else (0,), scores=(paid,))

    def _view(self, state: BanditState, seat: Seat | None) -> BanditView:
        rank_before = int(state.options["rank"])
        result = self.result(state)
        if result is None:
            spinning = CAREER[rank_before]
            return BanditView(
                seat=seat,
                rank_before=rank_before,
                rank=rank_before,
                title=spinning.title,
                episode=spinning.episode,
            )
        shown = CAREER[result.new_rank if result.reached is None else result.reached]
        return BanditView(
            seat=seat,
            stops=state.stops,
            symbols=result.symbols,
            line=result.line,
            win=result.win,
            rank_before=rank_before,
            rank=result.new_rank,
            title=shown.title,
            episode=shown.episode,
            bonus=result.bonus,
            career_step=result.career_step,
            new_voyage=result.new_voyage,
        )

    def _sample(self, view: BanditView, rng: random.Random) -> BanditState:
        """The view shows the whole pull: nothing to make up."""
        return BanditState(players=1, options={"rank": view.rank_before}, stops=view.stops or ())

    def shuffle_hidden(self, state: BanditState, seat: Seat | None, rng: random.Random) -> BanditState:
        """Nothing is hidden: the reels are drawn in the open."""
        return state

    def label(self, action: Action, lang: str) -> str:
        return action
