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

#: Symbol code -> (Russian, English) name.
SYMBOL_NAMES: Mapping[str, tuple[str, str]] = {
    "chest": ("Сундук", "Chest"),
    "parrot": ("Попугай", "Parrot"),
    "cutlass": ("Абордажная сабля", "Cutlass"),
    "rum": ("Ром", "Rum"),
    "anchor": ("Якорь", "Anchor"),
    "doubloon": ("Дублон", "Doubloon"),
    "scroll": ("Свиток", "Scroll"),
    "blank": ("Пусто", "Blank"),
}


class Line(NamedTuple):
    """A paytable line: it matches when exactly `exactly` of the three reels show `symbol`."""

    code: str
    name_ru: str
    name_en: str
    symbol: str
    exactly: int
    pays: int
    #: Three scrolls: a career step instead of coins (A9.4).
    career: bool = False


#: Rule 3, highest first: the first matching line is the only one that pays (A9.5).
PAYTABLE: tuple[Line, ...] = (
    Line("chest3", "Три сундука", "Three chests", "chest", 3, 2000),
    Line("parrot3", "Три попугая", "Three parrots", "parrot", 3, 750),
    Line("cutlass3", "Три сабли", "Three cutlasses", "cutlass", 3, 400),
    Line("rum3", "Три бутылки рома", "Three bottles of rum", "rum", 3, 150),
    Line("doubloon3", "Три дублона", "Three doubloons", "doubloon", 3, 150),
    Line("anchor3", "Три якоря", "Three anchors", "anchor", 3, 80),
    Line("doubloon2", "Два дублона", "Two doubloons", "doubloon", 2, 40),
    Line("doubloon1", "Один дублон", "One doubloon", "doubloon", 1, 5),
    Line("scroll3", "Три свитка", "Three scrolls", "scroll", 3, 0, career=True),
)


class Rank(NamedTuple):
    rank: int
    title_ru: str
    title_en: str
    #: Paid on reaching the rank (rule 4).
    bonus: int
    episode_ru: str
    episode_en: str


#: Rule 4: the career ladder. The episodes are ours (the seed's scrolls are lost, A9.1).
CAREER: tuple[Rank, ...] = (
    Rank(
        0, "Простой пират", "Ordinary pirate", 0,
        "Вы нанялись на шхуну в портовом кабаке: драите палубу и мечтаете о золоте.",
        "You signed on a schooner in a harbour tavern: you swab the deck and dream of gold.",
    ),
    Rank(
        1, "Марсовый", "Topman", 100,
        "В шторм вы первым полезли на мачту и спасли грот. Теперь ваше место — на марсе.",
        "In a storm you were first up the mast and saved the mainsail. Your place is now the top.",
    ),
    Rank(
        2, "Канонир", "Gunner", 150,
        "Ваш меткий выстрел сбил мачту испанского галеона. Команда доверила вам пушки.",
        "Your true shot brought down a Spanish galleon's mast. The crew gave you the guns.",
    ),
    Rank(
        3, "Боцман", "Boatswain", 200,
        "Вы усмирили бунт на нижней палубе одной дудкой. Отныне вы боцман.",
        "You quelled a mutiny below decks with nothing but your whistle. You are boatswain now.",
    ),
    Rank(
        4, "Штурман", "Navigator", 300,
        "Вы провели корабль через рифы по звёздам, когда компас врал. Карты теперь ваши.",
        "You steered through the reefs by the stars when the compass lied. The charts are yours.",
    ),
    Rank(
        5, "Квартирмейстер", "Quartermaster", 400,
        "Вы честно поделили добычу с захваченного брига. Команда выбрала вас квартирмейстером.",
        "You shared out the prize of a captured brig fairly. The crew elected you quartermaster.",
    ),
    Rank(
        6, "Старший помощник", "First mate", 500,
        "Вы взяли на абордаж королевский фрегат. Капитан назвал вас своей правой рукой.",
        "You boarded a royal frigate. The captain made you his right hand.",
    ),
    Rank(
        7, "Капитан", "Captain", 700,
        "Старый капитан ушёл на покой и оставил вам корабль и свою треуголку.",
        "The old captain retired and left you his ship and his tricorn hat.",
    ),
    Rank(
        8, "Капитан эскадры", "Squadron captain", 1000,
        "Три корабля подняли ваш флаг. Вы ведёте эскадру, и о вас поют в тавернах.",
        "Three ships fly your flag. You lead a squadron, and taverns sing of you.",
    ),
    Rank(
        9,
        "Капитан эскадры, нашедший клад старика Флинта",
        "Squadron captain who found old Flint's treasure",
        1500,
        "По старой карте с пятнами рома вы нашли остров и клад старика Флинта! Пора в новое плавание.",
        "With an old rum-stained map you found the island and old Flint's treasure! Time for a new voyage.",
    ),
)  # fmt: skip

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
    title_ru: str
    title_en: str
    episode_ru: str
    episode_en: str
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
                title_ru=spinning.title_ru,
                title_en=spinning.title_en,
                episode_ru=spinning.episode_ru,
                episode_en=spinning.episode_en,
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
            title_ru=shown.title_ru,
            title_en=shown.title_en,
            episode_ru=shown.episode_ru,
            episode_en=shown.episode_en,
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
