"""The generic table lifecycle: lobby -> playing -> finished, as pure transitions on `Table`.

Nothing here knows a particular game or Telegram: the engine comes from the registry, computers from
`core.ai`, and every refusal is a `Refusal` carrying an English message id for the handler to translate.
A transition returns a new table with `screen` bumped; the caller stores it with compare-and-set.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Mapping
from typing import Any

from bot.tables.model import Phase, Player, Table
from core.ai.registry import computer_player
from core.engine import CHANCE, Action, Game, IllegalAction, NotYourTurn, OptionValue, State, resolve_chance
from core.registry import GAMES


class Refusal(Exception):
    """A request that changes nothing, with a message id (and values) to show the user."""

    def __init__(self, message: str, **values: object) -> None:
        super().__init__(message)
        self.message = message
        self.values = values


def new_table_id() -> str:
    return secrets.token_hex(4)


def game_of(table: Table) -> Game[Any, Any]:
    return GAMES[table.game]


def state_of(table: Table) -> State:
    if table.state is None:
        raise Refusal("The game has not started yet.")
    state: State = game_of(table).load(table.state)
    return state


def _changed(table: Table, **update: object) -> Table:
    return table.model_copy(update={**update, "screen": table.screen + 1})


def open_lobby(
    game_id: str,
    *,
    chat_id: int,
    topic: int,
    creator: Player,
    lang: str,
    private: bool = False,
    options: Mapping[str, OptionValue] | None = None,
    turn_seconds: int = 0,
) -> Table:
    if game_id not in GAMES:
        raise Refusal("There is no game called {name}.", name=game_id)
    return Table(
        id=new_table_id(),
        chat_id=chat_id,
        topic=topic,
        game=game_id,
        creator=creator.user_id or 0,
        players=(creator,),
        seed=secrets.randbits(63),
        private=private,
        lang=lang,
        options=dict(options or {}),
        turn_seconds=0 if private else turn_seconds,
    )


def _require_lobby(table: Table) -> None:
    if table.phase is not Phase.LOBBY:
        raise Refusal("The game has already started.")


def join(table: Table, player: Player) -> Table:
    _require_lobby(table)
    if player.user_id is not None and table.seat_of(player.user_id) is not None:
        raise Refusal("You are already at the table.")
    if len(table.players) >= game_of(table).max_players:
        raise Refusal("The table is full.")
    return _changed(table, players=(*table.players, player))


def leave_lobby(table: Table, user_id: int) -> Table | None:
    """The table without this person; None when no person is left (the lobby closes)."""
    _require_lobby(table)
    if table.seat_of(user_id) is None:
        raise Refusal("You are not at the table.")
    players = tuple(p for p in table.players if p.user_id != user_id)
    people = [p for p in players if not p.is_computer]
    if not people:
        return None
    creator = table.creator if table.creator != user_id else people[0].user_id or 0
    return _changed(table, players=players, creator=creator)


def add_computer(table: Table, name: str) -> Table:
    return join(table, Player(user_id=None, name=name, lang=table.lang))


#: Computer strengths a lobby cycles through.
LEVELS: tuple[str, ...] = ("easy", "normal", "hard")


def set_option(table: Table, name: str, variants: tuple[str, ...]) -> Table:
    """A lobby setting: "variant" cycles the game among its variants, "level" the computers'
    strength, anything else flips a boolean table option of the game."""
    _require_lobby(table)
    if name == "variant" and table.game in variants:
        following = variants[(variants.index(table.game) + 1) % len(variants)]
        return _changed(table, game=following)
    if name == "level":
        following = LEVELS[(LEVELS.index(table.computer_level) + 1) % len(LEVELS)]
        return _changed(table, computer_level=following)
    default = game_of(table).default_options.get(name)
    if not isinstance(default, bool):
        raise Refusal("This button is out of date.")
    value = table.options.get(name, default)
    return _changed(table, options={**table.options, name: not value})


def may_manage(table: Table, user_id: int, is_admin: bool) -> bool:
    return table.private or user_id == table.creator or is_admin


def start(table: Table, *, computer_name: str | None = None) -> Table:
    """Deal and play chance and computers up to the first person's turn.

    With `computer_name`, empty seats are given to computers first (games that always seat all).
    """
    _require_lobby(table)
    game = game_of(table)
    if computer_name is not None:
        while len(table.players) < game.max_players:
            table = add_computer(table, computer_name)
    if len(table.players) < game.min_players:
        raise Refusal("At least {count} players are needed.", count=game.min_players)
    state = game.new(len(table.players), table.options)
    playing = _changed(table, phase=Phase.PLAYING)
    return _advance(playing, game, state)


def play(table: Table, user_id: int, action: Action) -> Table:
    """A person's action, then chance and computers until a person is to move or the game ends."""
    if table.phase is not Phase.PLAYING:
        raise Refusal("This game is over.")
    seat = table.seat_of(user_id)
    if seat is None:
        raise Refusal("You are not playing at this table.")
    game = game_of(table)
    state = state_of(table)
    try:
        state = game.apply(state, seat, action).state
    except NotYourTurn as error:
        raise Refusal("It is not your turn.") from error
    except IllegalAction as error:
        raise Refusal("That move is not allowed now.") from error
    # A move of one's own ends a run of timeouts.
    strikes = {other: count for other, count in table.strikes.items() if other != seat}
    return _advance(_changed(table, strikes=strikes), game, state)


def move_for(table: Table, seats: list[int]) -> Table:
    """A computer makes one move for each of these people (their turn timed out), then play goes on.
    It sees what the person would see and plays by the same rules."""
    if not seats:
        return table
    game = game_of(table)
    state = state_of(table)
    player = computer_player(table.game, table.computer_level)
    for seat in seats:
        if seat in game.to_move(state):
            view = game.view(state, seat)
            state = game.apply(
                state, seat, player.choose(view, game.legal_actions(state, seat), _rng(table, state))
            ).state
    return _advance(table, game, state)


def _rng(table: Table, state: State) -> random.Random:
    # Seeded by table and position, so a replayed or retried update draws the same outcome.
    return random.Random(f"{table.seed}:{state.version}")


def _advance(table: Table, game: Game[Any, Any], state: State) -> Table:
    while True:
        state, _ = resolve_chance(game, state, _rng(table, state))
        movers = game.to_move(state)
        # Where several seats may act at once (throw-ins), computers do not wait for the people.
        computers = [seat for seat in movers if seat != CHANCE and table.players[seat].is_computer]
        if not computers:
            break
        seat = computers[0]
        player = computer_player(table.game, table.computer_level)
        choice = player.choose(game.view(state, seat), game.legal_actions(state, seat), _rng(table, state))
        state = game.apply(state, seat, choice).state
    update: dict[str, object] = {"state": state.model_dump_json()}
    outcome = game.outcome(state)
    if outcome is not None and table.phase is not Phase.FINISHED:
        update["phase"] = Phase.FINISHED
        tally = dict(table.tally)
        for seat in outcome.losers:
            name = table.players[seat].name
            tally[name] = tally.get(name, 0) + 1
        update["tally"] = tally
    return table.model_copy(update=update)


def hand_to_computer(table: Table, user_id: int) -> Table:
    """A person leaves a running game: a computer plays their seat, same hand, until they are back
    (Appendix C)."""
    return _set_away(table, user_id, away=True)


def come_back(table: Table, user_id: int) -> Table:
    """ "I'm back": the person takes their seat over from the computer."""
    return _set_away(table, user_id, away=False)


def _set_away(table: Table, user_id: int, *, away: bool) -> Table:
    if table.phase is not Phase.PLAYING:
        raise Refusal("This game is over.")
    seat = table.seat_of(user_id)
    if seat is None:
        raise Refusal("You are not playing at this table.")
    if table.players[seat].away == away:
        if away:
            raise Refusal("A computer already plays for you.")
        raise Refusal("You are already at the table.")
    players = list(table.players)
    players[seat] = players[seat].model_copy(update={"away": away})
    replaced = _changed(table, players=tuple(players))
    return _advance(replaced, game_of(table), state_of(table))


def stop(table: Table) -> Table:
    return _changed(table, phase=Phase.FINISHED)


def again(
    table: Table, user_id: int, options: Mapping[str, OptionValue], *, computer_name: str | None = None
) -> Table:
    """A new game with the same seats (and the series' tally), replacing the finished table here."""
    if table.phase is not Phase.FINISHED:
        raise Refusal("This game is still running.")
    if table.seat_of(user_id) is None:
        raise Refusal("Only the players of this game can start it again.")
    fresh = table.model_copy(
        update={
            "id": new_table_id(),
            "phase": Phase.LOBBY,
            "state": None,
            "seed": secrets.randbits(63),
            "message_id": None,
            "message_is_photo": False,
            "creator": user_id,
            "settled": False,
            "panels": {},
            "options": dict(options),
        }
    )
    return start(fresh, computer_name=computer_name)
