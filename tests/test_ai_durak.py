"""Durak computer players (core/ai/durak.py): legal, view-only, reproducible, and normal beats easy;
the sampled deals match the view, and the play-outs run the engine's own rules board."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

from core.ai.base import ComputerPlayer
from core.ai.durak import EasyDurakPlayer, HardDurakPlayer, NormalDurakPlayer, normal_policy
from core.ai.random_player import RandomPlayer
from core.cards import deck36
from core.engine import Action, OptionValue
from core.games.durak import DurakGame, DurakState, DurakView, TransferDurakGame
from core.play import Turn, play, play_game

GAMES = (DurakGame(), TransferDurakGame())
#: A small search budget keeps the hard player's tests fast; the rules it follows are the same.
QUICK_HARD = HardDurakPlayer(budget=400, max_worlds=4)
LEVELS: dict[str, ComputerPlayer[DurakView]] = {
    "easy": EasyDurakPlayer(),
    "normal": NormalDurakPlayer(),
    "hard": QUICK_HARD,
}
OPTIONS: tuple[dict[str, OptionValue], ...] = ({}, {"first_bout_five": True, "pagat_draw": True})


class _Checked:
    """Passes decisions through, asserting the player got a Durak view and answered legally."""

    def __init__(self, player: ComputerPlayer[DurakView]) -> None:
        self.player = player
        self.decisions = 0

    def choose(self, view: DurakView, legal: tuple[Action, ...], rng: random.Random) -> Action:
        assert type(view) is DurakView
        action = self.player.choose(view, legal, rng)
        assert action in legal
        self.decisions += 1
        return action


def _decisions(game: DurakGame, games: int, options: dict[str, OptionValue]) -> Iterator[Turn[DurakState]]:
    """Every player turn of some games between normal players."""
    for number in range(games):
        for turn in play(game, [NormalDurakPlayer()] * 4, random.Random(number), options):
            if turn.seat >= 0:
                yield turn


@pytest.mark.parametrize("game", GAMES, ids=lambda game: game.id)
@pytest.mark.parametrize("level", LEVELS)
def test_every_level_plays_only_legal_actions(game: DurakGame, level: str) -> None:
    checked = _Checked(LEVELS[level])
    others: list[ComputerPlayer[Any]] = [RandomPlayer(), NormalDurakPlayer(), EasyDurakPlayer()]
    turns = 0
    for number in range(3 if level == "hard" else 12):
        # The tested player in every seat at once, or in one seat among the other kinds.
        players: list[ComputerPlayer[Any]] = [checked] * 4 if number % 2 else [checked, *others]
        seats = range(4) if number % 2 else range(1)
        turns += sum(turn.seat in seats for turn in play(game, players, random.Random(number)))
    assert checked.decisions == turns > 0


@pytest.mark.parametrize("game", GAMES, ids=lambda game: game.id)
def test_players_are_deterministic_and_see_only_their_view(game: DurakGame) -> None:
    """The same seed gives the same choice, and a state differing only in what the seat cannot see
    (other hands, the talon) gives the same view, hence the same choice."""
    for turn in list(_decisions(game, 2, {}))[::7]:
        legal = game.legal_actions(turn.before, turn.seat)
        view = game.view(turn.before, turn.seat)
        hidden = game.shuffle_hidden(turn.before, turn.seat, random.Random(turn.before.version))
        assert game.view(hidden, turn.seat) == view
        for player in LEVELS.values():
            first = player.choose(view, legal, random.Random(5))
            assert player.choose(view, legal, random.Random(5)) == first
            assert player.choose(game.view(hidden, turn.seat), legal, random.Random(5)) == first


@pytest.mark.parametrize("game", GAMES, ids=lambda game: game.id)
@pytest.mark.parametrize("options", OPTIONS)
def test_a_sampled_deal_is_consistent_with_the_view(game: DurakGame, options: dict[str, OptionValue]) -> None:
    for turn in _decisions(game, 3, options):
        state, seat = turn.before, turn.seat
        view = game.view(state, seat)
        sample = game.sample(view, random.Random(state.version))
        assert game.view(sample, seat) == view
        assert game.legal_actions(sample, seat) == game.legal_actions(state, seat)
        # Every card exactly once, the face-up trump still at the bottom of the talon.
        table = [card for pair in sample.table for card in pair if card is not None]
        everything = [
            *(card for hand in sample.hands for card in hand),
            *sample.talon,
            *sample.discard,
            *table,
        ]
        assert Counter(everything) == Counter(deck36())
        if sample.talon:
            assert sample.talon[-1] == sample.trump
        # A card known to be in a hand is in that hand and nowhere else.
        for other, known in enumerate(view.known):
            assert set(known) <= set(sample.hands[other])
            assert all(
                set(known).isdisjoint(hand) for third, hand in enumerate(sample.hands) if third != other
            )


def test_a_sample_needs_a_seat_after_the_deal() -> None:
    state = DurakGame().new(4)
    with pytest.raises(ValueError):
        DurakGame().sample(DurakGame().view(state, 0), random.Random(0))


@pytest.mark.parametrize("game", GAMES, ids=lambda game: game.id)
@pytest.mark.parametrize("options", OPTIONS)
def test_the_play_out_board_follows_the_engine(game: DurakGame, options: dict[str, OptionValue]) -> None:
    """One board fed a whole random game move by move (as a play-out is) stays equal to the engine's
    state, which converts at every step; a copy moves on without touching the board it came from."""
    for number in range(6):
        board = game.simulation(game.new(4, options))
        for turn in play(game, [RandomPlayer()] * 4, random.Random(number), options):
            before = board.to_state(turn.before)
            assert before == turn.before
            other = board.copy()
            (seat, *_) = other.to_move()
            other.apply(seat, turn.action if seat == turn.seat else other.legal(seat)[-1])
            assert board.to_state(turn.before) == before
            board.apply(turn.seat, turn.action)
            assert board.to_state(turn.step.state) == turn.step.state
        assert board.to_move() == () and board.outcome() == game.outcome(turn.step.state)


@pytest.mark.parametrize("game", GAMES, ids=lambda game: game.id)
def test_the_play_out_policy_is_the_normal_player(game: DurakGame) -> None:
    """The search models its opponents right: on the board, the policy plays what the normal player
    plays from the seat's view."""
    normal, rng = NormalDurakPlayer(), random.Random(0)
    for turn in _decisions(game, 3, {}):
        legal = game.legal_actions(turn.before, turn.seat)
        board = game.simulation(turn.before)
        expected = normal.choose(game.view(turn.before, turn.seat), legal, rng)
        assert normal_policy(board, turn.seat, board.legal(turn.seat), rng) == expected


def test_normal_beats_easy() -> None:
    """Against three easy players normal is rarely the fool (chance would be 25%)."""
    games, fools = 200, 0
    for number in range(games):
        seat = number % 4
        players: list[ComputerPlayer[Any]] = [EasyDurakPlayer()] * 4
        players[seat] = NormalDurakPlayer()
        state = play_game(GAMES[number // 4 % 2], players, random.Random(f"normal:{number // 4}"))
        fools += state.fool == seat
    assert fools / games < 0.12
