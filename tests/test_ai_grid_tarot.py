"""The Tarot grid's computer player: sensible choices from the view alone, and solo strength (its
strength against the random player is measured by `python -m benchmarks grid-tarot`)."""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest

from benchmarks.grid_tarot import TowerSighted
from core.ai.base import ComputerPlayer
from core.ai.grid_tarot import GridTarotPlayer, Outlook, _countdown, _Decision
from core.ai.random_player import RandomPlayer
from core.ai.registry import PLAYERS
from core.ai.search import ThinkLimit, thinking_within
from core.games.grid_tarot import GridTarotState, position
from core.games.grid_tarot_rules import Position
from core.play import play_game
from tests.tarot_fields import GAME, code, field, index

HARD, NORMAL = PLAYERS["grid_tarot"]["hard"], PLAYERS["grid_tarot"]["normal"]
LEVELS = pytest.mark.parametrize("player", [HARD, NORMAL], ids=["hard", "normal"])


def _choice(player: ComputerPlayer[Any], state: Any, seat: int, seed: int = 0) -> str:
    legal = GAME.legal_actions(state, seat)
    return player.choose(GAME.view(state, seat), legal, random.Random(seed))


@LEVELS
def test_it_takes_the_opponents_last_destination(player: ComputerPlayer[Any]) -> None:
    """The other seat's Ace has one closed neighbour left: turning it up wins at once (rule 23)."""
    state = field(
        cards={(0, 5): "2S", (0, 2): "AW"},
        closed=[(0, 3), (2, 5), (1, 4), (1, 6), (0, 7)],
        tokens=[[(0, 5)], [(0, 2)]],
    )
    assert len(GAME.legal_actions(state, 0)) == 5
    assert all(_choice(player, state, 0, seed) == "1." + code((0, 3)) for seed in range(5))
    # A random player finds it one time in five.
    assert {_choice(RandomPlayer(), state, 0, seed) for seed in range(20)} != {"1." + code((0, 3))}


def test_the_outlook_prefers_a_crowd_of_closed_cards_to_a_lonely_one() -> None:
    """A token turning up a card amid closed cards can move on with most cards; one at the rim far
    from every other closed card only with the few long ones."""
    crowd = [(5, 3), (5, 4), (6, 3), (6, 4), (4, 3), (4, 4), (5, 2), (6, 2)]
    state = field(cards={(1, 9): "AW"}, closed=[(0, 10), *crowd], tokens=[[(1, 9)]])
    outlook = Outlook(position(state)).chance
    assert outlook[index((5, 3))] > outlook[index((0, 10))] > 0.0


def test_a_token_that_can_only_jump_is_worth_its_suits_free_cards() -> None:
    """Rule 19: on a clear field only same-suit jumps are left, so the suit with more free cards
    outlasts the other."""
    many = field(cards={(2, 2): "4W", (5, 9): "9W", (0, 4): "2W", (6, 6): "3W"}, closed=[], tokens=[[(2, 2)]])
    few = field(cards={(2, 2): "4W", (5, 9): "9W"}, closed=[], tokens=[[(2, 2)]])
    assert Outlook(position(many)).jumps["W"] > Outlook(position(few)).jumps["W"] > 0.0


def test_the_outlook_counts_the_tower_as_a_dead_end() -> None:
    """With only the Tower unseen, a token landing anywhere would be stuck."""
    state = field(cards={(2, 2): "2W"}, closed={(0, 6): "T16"}, tokens=[[(2, 2)]])
    assert Outlook(position(state)).chance[index((0, 6))] == 0.0


def test_it_decides_from_the_view_alone() -> None:
    """Two states that differ only in the closed cards' identities get the same answers."""
    state = GAME.apply(GAME.apply(GAME.new(2), -1, "deal:11").state, -1, "first:0").state
    for seed in range(3):
        other = GAME.shuffle_hidden(state, 0, random.Random(seed))
        assert _choice(HARD, other, 0, 7) == _choice(HARD, state, 0, 7)


#: A small seeded sample (the benchmark plays 1,000 games).
SOLO_SAMPLE = 40


def _clears(player: ComputerPlayer[Any]) -> int:
    cleared = 0
    for number in range(SOLO_SAMPLE):
        outcome = GAME.outcome(play_game(GAME, [player], random.Random(f"solo:{number}")))
        cleared += outcome is not None and outcome.winners == (0,)
    return cleared


@pytest.mark.deep  # a minute of CPU on a slow machine; `python -m benchmarks grid-tarot` reports it
def test_hard_clears_the_field_solo_more_often_than_random() -> None:
    """Solo, choices matter most: the last closed cards must stay within reach. On the same deals
    the hard player clears the field half as often again as the random one (about 49% and 29% over
    the benchmark's 1,000 games)."""
    assert _clears(HARD) >= 1.5 * _clears(RandomPlayer())


def test_a_player_for_every_level_but_easy_searches() -> None:
    assert isinstance(HARD, GridTarotPlayer) and isinstance(NORMAL, GridTarotPlayer)
    assert isinstance(PLAYERS["grid_tarot"]["easy"], RandomPlayer)


#: The levels' one-move scoring, without the end-game search: a hand-built field has few closed
#: cards, but the deck's other cards are unseen too, so a sampled deal seldom puts the Tower among
#: them, which a real end game (where the closed cards are all the unseen ones) never does.
ONE_MOVE = pytest.mark.parametrize(
    "player", [GridTarotPlayer(endgame=0), GridTarotPlayer(candidates=4, endgame=0)], ids=["hard", "normal"]
)


@ONE_MOVE
def test_it_turns_up_a_card_everyone_has_seen_rather_than_risk_the_tower(player: ComputerPlayer[Any]) -> None:
    """An effect closed the 2P at (0,7) again, so everyone knows it is no Tower; the other 2-step
    destinations might be, as the Tower is still unseen."""
    state = field(
        cards={(0, 5): "2S", (6, 2): "AW"},
        closed={
            (0, 3): "4C",
            (0, 7): "2P",
            (2, 5): "T16",
            (1, 4): "5C",
            (1, 6): "6C",
            (6, 3): "7C",
            (5, 2): "8C",
        },
        tokens=[[(0, 5)], [(6, 2)]],
    ).model_copy(update={"known": (index((0, 7)),)})
    assert GAME.view(state, 0).seen[index((0, 7))] == "2P"
    assert all(_choice(player, state, 0, seed) == "1." + code((0, 7)) for seed in range(5))


def test_a_way_off_the_tower_in_the_pool_removes_its_risk() -> None:
    """The Tower risk counts only a team that would be stuck on it: the Star gets it off."""
    cards = {(0, 5): "2S", (6, 2): "AW"}
    closed = {(0, 3): "4C", (2, 5): "T16", (1, 4): "5C"}
    bare = position(field(cards=cards, closed=closed, tokens=[[(0, 5)], [(6, 2)]]))
    starred = position(field(cards=cards, closed=closed, tokens=[[(0, 5)], [(6, 2)]], pools=[["T17"], []]))
    assert _Decision.tower_risk(bare, 0) == pytest.approx(1 / 3)
    assert _Decision.tower_risk(starred, 0) == 0.0


def test_the_benchmarks_tower_sighted_player_knows_only_where_the_tower_lies() -> None:
    """`python -m benchmarks grid-tarot --tower-known` measures the Tower's luck with a player told
    its place: it steps around the Tower, and every other closed card stays unseen to it."""
    state = field(
        cards={(0, 5): "2S", (6, 2): "AW"},
        closed={(0, 3): "4C", (0, 7): "T16", (1, 4): "5C", (1, 6): "6C", (2, 5): "7C", (5, 2): "8C"},
        tokens=[[(0, 5)], [(6, 2)]],
    )
    sighted = TowerSighted(GridTarotPlayer())
    sighted.truth = state
    pos = sighted.position(GAME.view(state, 0), random.Random(0))
    assert pos.known == 1 << index((0, 7))
    choices = {_choice(sighted, state, 0, seed) for seed in range(5)}
    assert choices and "1." + code((0, 7)) not in choices


def _solved(pos: Position, seat: int) -> int:
    """The game's value for `seat` with both sides at their best: 1 won, 0 drawn, -1 lost (every
    closed card seen, so no chance is left)."""
    if pos.result is not None:
        return 0 if pos.result.draw else (1 if seat in pos.result.winners else -1)
    values = []
    for action in pos.legal(pos.turn):
        after = pos.copy()
        after.apply(pos.turn, action)
        values.append(_solved(after, seat))
    return max(values) if pos.turn == seat else min(values)


def _solved_losers(pos: Position) -> list[int]:
    """The teams that lose with both sides at their best (both: a draw), by `_solved`."""
    solved = _solved(pos, 0)
    return [0, 1] if solved == 0 else [pos.teams[0]] if solved < 0 else [pos.teams[1]]


def test_the_end_game_search_wins_a_jump_race_the_one_move_player_loses() -> None:
    """Three closed cards are left, all seen. Seat 0's 6S may turn up the AW at (4,10) or the 2C
    at (4,8), and the other seat's 8P reaches both. Taking the AW keeps the NW beside it for the
    next turn and a Wands jump back onto the AW after that, while the other seat, sent to the 2C,
    has one Clubs jump and then none: the end-game search sees this to the end; the one-move
    player, judging the field one move on, takes the 2C and loses by force."""
    closed = {(4, 10): "AW", (3, 10): "NW", (4, 8): "2C"}
    state = field(
        cards={(2, 12): "6S", (6, 10): "8P", (4, 11): "6C", (5, 9): "NP"},
        closed=closed,
        tokens=[[(2, 12)], [(6, 10)]],
    ).model_copy(update={"known": tuple(sorted(index(cell) for cell in closed))})
    pos = position(state)
    for target, value in (((4, 10), 1), ((4, 8), -1)):
        after = pos.copy()
        after.apply(0, "1." + code(target))
        assert _solved(after, 0) == value
    assert all(_choice(HARD, state, 0, seed) == "1." + code((4, 10)) for seed in range(3))
    assert _choice(GridTarotPlayer(endgame=0), state, 0) == "1." + code((4, 8))
    # A think limit that is up at once leaves the one-move judgement (the clock ticks a call).
    ticks = itertools.count()
    with thinking_within(ThinkLimit(0.5, lambda: float(next(ticks)))):
        assert _choice(HARD, state, 0) == "1." + code((4, 8))


def _race(swords: int, pentacles: int, teams: list[int] | None = None, rival: str = "8P") -> GridTarotState:
    """No closed card left: seat 0 on the 6S with `swords` free Swords elsewhere, seat 1 on the
    `rival` card with `pentacles` free Pentacles, and a third seat (if `teams` names three) on
    the 2S."""
    cards = {(0, 2): "6S", (6, 2): rival}
    cards |= {(1, 1 + n): f"{rank}S" for n, rank in enumerate("A345"[:swords])}
    cards |= {(5, 1 + n): f"{rank}P" for n, rank in enumerate("A234"[:pentacles])}
    tokens = [[(0, 2)], [(6, 2)]]
    if teams is not None and len(teams) == 3:
        cards[(3, 0)] = "2S"
        tokens.append([(3, 0)])
    return field(cards=cards, tokens=tokens, teams=teams)


@pytest.mark.parametrize(
    ("swords", "pentacles", "teams", "rival"),
    [
        (2, 2, None, "8P"),
        (3, 2, None, "8P"),
        (1, 3, None, "8P"),
        (3, 1, [0, 1, 0], "8P"),
        (2, 3, [0, 1, 0], "8P"),
        (1, 0, None, "8S"),  # one Swords card for both: whoever takes it leaves neither a move
        (3, 0, None, "8S"),
        (2, 2, None, "T9"),  # on the Hermit, with nothing closed to go to
    ],
)
def test_with_no_closed_card_left_counting_the_free_cards_decides(
    swords: int, pentacles: int, teams: list[int] | None, rival: str
) -> None:
    """Once the field has no closed card the tokens can only jump within their suits, and the
    count of free cards says who runs out first: the same losers as a full search of the game."""
    pos = position(_race(swords, pentacles, teams, rival))
    assert _countdown(pos) == _solved_losers(pos)


def test_the_count_is_left_to_the_search_mid_move() -> None:
    pos = position(_race(2, 2))
    pos.apply(0, "1.suit")
    assert _countdown(pos) is None


#: Cells in two rows, far from each other and from the token cells of `_two_token_race`.
_FREE_CELLS = [(1, col) for col in range(1, 12)] + [(5, col) for col in range(1, 12)]


def _two_token_race(held: list[list[str]], free: dict[str, int]) -> GridTarotState:
    """No closed card left, two tokens a seat: seat s's tokens on the cards `held[s]` (a Major
    never moves again), `free[suit]` free cards of each suit elsewhere."""
    homes = [[(0, 2), (0, 4)], [(6, 2), (6, 4)]]
    cards = {cell: card for seat in range(2) for cell, card in zip(homes[seat], held[seat], strict=True)}
    spare = iter(_FREE_CELLS)
    for suit, count in free.items():
        for rank in "A23456789"[:count]:
            cards[next(spare)] = f"{rank}{suit}"
    return field(cards=cards, tokens=homes)


def test_with_two_tokens_a_seat_the_order_of_moving_can_win_the_count() -> None:
    """One free Sword and one free Wand: seat 0's Swords token takes the last Sword first, so the
    other seat (a Swords token and one on the Hermit) is out while seat 0's Wands token can still
    jump: a win. The other order runs both seats out at once: a draw. The count plays the order
    that wins, as a full search does."""
    pos = position(_two_token_race([["6S", "7W"], ["8S", "T9"]], {"S": 1, "W": 1}))
    assert _solved(pos, 0) == 1
    assert _countdown(pos) == [1]


def _two_token_races(count: int) -> list[GridTarotState]:
    """Seeded races of two tokens a seat in two suits (a token on the Hermit never moves), each seat
    with a token that can still jump."""
    rng = random.Random(5)
    races: list[GridTarotState] = []
    while len(races) < count:
        suits = rng.sample("SWCP", 2)
        cards = [f"{rank}{suit}" for suit in suits for rank in "6789"] + ["T9"]
        held = [[*rng.sample(cards[:-1], 1), rng.choice(cards)] for _ in range(2)]
        if len({*held[0], *held[1]}) < 4:
            continue
        race = _two_token_race(held, {suit: rng.randint(0, 4) for suit in suits})
        pos = position(race)
        if all(any(pos.can_act(token) for token in pos.seat_tokens(seat)) for seat in range(2)):
            races.append(race)
    return races


@pytest.mark.parametrize("race", _two_token_races(12))
def test_with_two_tokens_a_seat_counting_agrees_with_a_full_search(race: GridTarotState) -> None:
    assert _countdown(position(race)) == _solved_losers(position(race))
