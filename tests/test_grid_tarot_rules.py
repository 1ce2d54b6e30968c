"""Game 2 (RULES.md): turns, teams, the end of the game, codes, views and the generic kit."""

from __future__ import annotations

import random
import re
from collections.abc import Sequence

import pytest

from core.ai.random_player import RandomPlayer
from core.cards import deck78
from core.engine import OptionSpec
from core.games.grid_tarot import GridTarotGame, GridTarotState
from core.games.grid_tarot_events import Skipped, TeamHopeless, TokenMoved
from core.games.grid_tarot_rules import BOARD, CARD_CELLS, CENTRE
from core.play import play
from tests.kit import check_game
from tests.tarot_fields import GAME, events_of, field, looks, move, next_counts, token_cell

#: Callback data carries the action code (bot/chat/callback.py).
CODE = re.compile(r"[0-9A-Za-z_.,+=-]{1,40}")


def test_the_deal_fills_the_oval_around_the_centre_hole() -> None:
    """Rules 1-2: 78 cards face down on the 79-position oval, the Centre hole at (3,6)."""
    state = GAME.new(2)
    state = GAME.apply(state, -1, "deal:7").state
    assert len(BOARD.layout) == 79 and BOARD.layout[CENTRE] == (3, 6)
    assert sorted(card for card in state.cards if card is not None) == sorted(deck78())
    assert state.cards[CENTRE] is None and state.closed == CARD_CELLS
    assert looks(state, (3, 6)) == "hole"
    # Rule 7: the first player is drawn.
    assert GAME.chance_outcomes(state) == ("first:0", "first:1")


def test_first_placement_is_on_any_closed_card() -> None:
    """Rule 9: the first move of each token is on any closed card."""
    state = GAME.apply(GAME.new(1), -1, "deal:3").state
    assert GAME.legal_actions(state, 0) == tuple(sorted(f"1.{BOARD.codes[i]}" for i in CARD_CELLS))
    step = GAME.apply(state, 0, "1.A4")
    (moved,) = events_of(step, TokenMoved)
    assert isinstance(moved, TokenMoved) and moved.kind == "place" and moved.start is None


def test_each_token_moves_once_a_turn_in_any_order() -> None:
    """Rule 8: a player with two tokens moves both, in the order they choose, then the turn passes."""
    state = field(
        cards={(0, 2): "AW", (6, 10): "AC", (3, 0): "AP", (3, 12): "AS"},
        closed={(0, 3): "T0", (6, 9): "2W", (2, 0): "3W", (2, 12): "4W"},
        tokens=[[(0, 2), (6, 10)], [(3, 0), (3, 12)]],
    )
    assert GAME.legal_actions(state, 0) == ("1.D1", "2.J7")
    state = move(state, 0, "2.J7").state
    assert state.turn == 0 and GAME.legal_actions(state, 0) == ("1.D1",)
    state = move(state, 0, "1.D1").state
    assert state.turn == 1 and state.moved == ()


def test_a_stuck_token_waits_for_the_seats_other_token() -> None:
    """A token with no move is skipped only once no other token of its seat can move, so the
    other token's move may still free it (here by turning up the Empress)."""
    state = field(
        cards={(5, 6): "T16", (1, 2): "2W", (1, 4): "T3", (3, 0): "AP"},
        closed=[(1, 4), (5, 8), (2, 0)],
        tokens=[[(5, 6), (1, 2)], [(3, 0), None]],
    )
    assert GAME.legal_actions(state, 0) == ("2.E2",)
    step = move(state, 0, "2.E2")
    # The Empress gives the Tower's token a 2-step move: it is not skipped.
    assert not events_of(step, Skipped)
    assert next_counts(step.state, 0, 1) == ("steps", (2,))
    assert GAME.legal_actions(step.state, 0) == ("1.I6",)


def test_solo_win_when_the_field_is_clear() -> None:
    """Rule 23, solo: the last closed card turned up wins, whatever it is."""
    state = field(cards={(1, 3): "2W", (1, 5): "T16"}, closed=[(1, 5)], tokens=[[(1, 3)]])
    outcome = GAME.outcome(move(state, 0, "1.F2").state)
    assert outcome is not None and outcome.winners == (0,) and not outcome.losers


def test_solo_loss_when_hopeless() -> None:
    state = field(cards={(1, 3): "2C", (1, 5): "AW"}, closed=[(1, 5), (6, 6)], tokens=[[(1, 3)]])
    step = move(state, 0, "1.F2")
    outcome = GAME.outcome(step.state)
    assert outcome is not None and outcome.winners == () and outcome.losers == (0,)
    assert events_of(step, TeamHopeless)


def test_one_team_of_two_players_shares_the_pool_and_the_goal() -> None:
    """Rule 20: a taken arcanum belongs to the team; rule 23: a single team clears the field."""
    state = field(
        cards={(2, 2): "2W", (2, 4): "T17", (5, 6): "T16"},
        closed=[(2, 4), (0, 2), (5, 9)],
        tokens=[[(2, 2)], [(5, 6)]],
        teams=[0, 0],
    )
    state = move(state, 0, "1.E3").state
    assert state.pools == (("T17",),)
    # The teammate on the Tower may use the Star its partner took.
    assert GAME.legal_actions(state, 1) == ("1.star",)


def test_both_teams_hopeless_at_once_is_a_draw() -> None:
    """Rule 23 / A2.9: a move that leaves every team stuck ends the game in a draw."""
    state = field(
        cards={(0, 2): "T16", (6, 6): "AW", (5, 6): "AS"},
        closed=[(5, 6)],
        tokens=[[(6, 6)], [(0, 2)]],
    )
    step = move(state, 0, "1.G6")
    outcome = GAME.outcome(step.state)
    assert outcome is not None and outcome.draw and outcome.winners == ()
    assert len(events_of(step, TeamHopeless)) == 2


def test_with_three_teams_the_first_stuck_loses_and_the_others_win() -> None:
    state = field(
        cards={(5, 4): "2W", (5, 6): "T16", (0, 6): "T0", (3, 0): "T4"},
        closed=[(5, 6), (0, 10), (2, 0)],
        tokens=[[(5, 4)], [(0, 6)], [(3, 0)]],
    )
    outcome = GAME.outcome(move(state, 0, "1.G6").state)
    assert outcome is not None and outcome.losers == (0,) and outcome.winners == (1, 2)


def test_covered_and_shared_cards_cannot_be_jumped_from() -> None:
    """Our resolution: a covered minor stays (A2.13), and a minor under two tokens is not taken."""
    covered = field(
        cards={(2, 2): "4W", (5, 9): "9W", (6, 10): "T0"},
        closed=[(2, 3)],
        covers={(2, 2): ("T17",)},
        tokens=[[(2, 2)], [(6, 10)]],
    )
    assert GAME.view(covered, 0).options == ()
    shared = field(cards={(2, 2): "4W", (5, 9): "9W"}, closed=[(2, 3)], tokens=[[(2, 2), (2, 2)]])
    assert GAME.view(shared, 0).options == ()


def test_closed_cards_never_reach_a_view() -> None:
    closed_seen = 0
    for turn in play(GAME, [RandomPlayer()] * 2, random.Random(4)):
        view = GAME.view(turn.before, 0)
        for i, look in enumerate(view.cells):
            if look == "closed":
                closed_seen += 1
                assert view.faces[i] is None and turn.before.cards[i] is not None
    assert closed_seen


def test_action_codes_fit_the_callback_data() -> None:
    for players in (1, 2, 3, 4):
        for turn in play(GAME, [RandomPlayer()] * players, random.Random(players), {"tokens": 2}):
            if turn.seat >= 0:
                legal = GAME.legal_actions(turn.before, turn.seat)
                assert all(CODE.fullmatch(action) and len(action) <= 12 for action in legal)
                assert all(GAME.label(action, "ru") for action in legal)


def test_labels() -> None:
    assert GAME.label("1.D3", "en") == "D3"
    assert GAME.label("2.D3.3", "en") == "D3: 3 steps"
    assert GAME.label("1.star", "en") == "The Star"
    assert GAME.label("1.ph", "en") == "The High Priestess + The Hierophant"
    assert GAME.label("1.jus4", "en") == "Justice + 4"
    assert GAME.label("f.E5", "en") == "E5"


def test_token_moves_return_to_a_covered_card_and_keep_its_rule() -> None:
    """Our resolution: a covered card keeps its movement rule for a token returned onto it."""
    state = field(
        cards={(5, 6): "T16", (5, 9): "T14"},
        closed=[(5, 9), (0, 2)],
        tokens=[[(5, 6)]],
        pools=[("T17",)],
    )
    state = move(move(state, 0, "1.star").state, 0, "1.J6").state
    assert token_cell(state, 0) == (5, 6)
    assert looks(state, (5, 6)) == "covered"
    assert next_counts(state, 0) == ("steps", ())


def variant(tokens: int, paired: bool) -> GridTarotGame:
    """Grid tarot with other defaults, so the kit (which plays default options) covers them:
    `paired` seats neighbours together (seats 0-1, 2-3)."""

    class Variant(GridTarotGame):
        options = (OptionSpec(name="tokens", choices=(1, 2), default=tokens, label="Tokens per player"),)

        def _check_teams(self, players: int, teams: Sequence[int] | None) -> tuple[int, ...]:
            if teams is None and paired:
                teams = [seat // 2 for seat in range(players)]
            return super()._check_teams(players, teams)

    return Variant()


KIT_TABLES = [
    pytest.param(players, tokens, paired, id=f"{players}p-{tokens}t{'-teams' if paired else ''}")
    for players in range(1, 5)
    for tokens in (1, 2)
    for paired in ((False, True) if players >= 2 else (False,))
]


@pytest.mark.parametrize(("players", "tokens", "paired"), KIT_TABLES)
def test_kit_at_every_seat_count_token_option_and_teams(players: int, tokens: int, paired: bool) -> None:
    game = variant(tokens, paired)
    stats = check_game(game, players, steps=300)
    assert stats.games >= 1
    state: GridTarotState = game.new(players)
    assert len(state.tokens) == players * tokens
    assert len(set(state.teams)) == ((players + 1) // 2 if paired else players)


def _three_seats(*, seat0_has_a_next_move: bool) -> GridTarotState:
    """Seats 1 and 2 each stand on an Ace whose only closed neighbour is (0,3); seat 0 is about to
    turn (0,3) up with a 2-step move."""
    closed = {(0, 3): "5P", **({(0, 8): "6P"} if seat0_has_a_next_move else {})}
    return field(
        cards={(0, 5): "2S", (0, 2): "AW", (1, 3): "AC"},
        closed=closed,
        tokens=[[(0, 5)], [(0, 2)], [(1, 3)]],
    )


def test_two_of_three_teams_hopeless_at_once_lose_together() -> None:
    """Our resolution (rule 23 leaves it open): teams found hopeless at one evaluation point lose
    together, and the teams that can still move win; a draw only when every team is stuck."""
    step = move(_three_seats(seat0_has_a_next_move=True), 0, "1.D1")
    assert [e.seats for e in events_of(step, TeamHopeless) if isinstance(e, TeamHopeless)] == [(1,), (2,)]
    outcome = GAME.outcome(step.state)
    assert outcome is not None and not outcome.draw
    assert outcome.winners == (0,) and outcome.losers == (1, 2)


def test_every_one_of_three_teams_hopeless_at_once_is_a_draw() -> None:
    step = move(_three_seats(seat0_has_a_next_move=False), 0, "1.D1")
    assert len(events_of(step, TeamHopeless)) == 3
    outcome = GAME.outcome(step.state)
    assert outcome is not None and outcome.draw and outcome.winners == () and outcome.losers == ()


def test_the_loss_check_runs_after_each_token_not_each_turn() -> None:
    """Rule 23: the first token's move that leaves the other team stuck ends the game at once;
    the mover's second token never moves."""
    state = field(
        cards={(0, 5): "2S", (6, 6): "AP", (0, 2): "AW", (1, 3): "AC"},
        closed={(0, 3): "5P", (6, 7): "3P"},
        tokens=[[(0, 5), (6, 6)], [(0, 2), (1, 3)]],
    )
    assert GAME.legal_actions(state, 0) == ("1.D1", "2.H7")
    step = move(state, 0, "1.D1")
    outcome = GAME.outcome(step.state)
    assert outcome is not None and outcome.winners == (0,) and outcome.losers == (1,)
    assert step.state.moved == (1,)
    assert GAME.to_move(step.state) == ()


def test_the_loss_check_runs_after_the_hanged_mans_swap() -> None:
    """The Hanged Man's move ends with the swap: the check sees the board after it. Here the swap
    takes the only closed card next to the opponent's Ace away, so the opponent loses."""
    state = field(
        cards={(4, 2): "5P", (4, 7): "T12", (0, 5): "2S", (0, 2): "AW"},
        closed={(4, 7): "T12", (0, 3): "9S", (6, 5): "7P"},
        tokens=[[(4, 2)], [(0, 2)]],
    )
    state = move(state, 0, "1.H5").state
    assert GAME.outcome(state) is None
    state = move(state, 0, "f.F1").state
    step = move(state, 0, "c.D1")
    # The free 2♠ now lies face up at (0,3), the 9♠ face down at (0,5), out of the Ace's reach.
    assert looks(step.state, (0, 3)) == "open" and looks(step.state, (0, 5)) == "closed"
    outcome = GAME.outcome(step.state)
    assert outcome is not None and outcome.winners == (0,) and outcome.losers == (1,)
