"""The generic table lifecycle: lobby -> playing -> finished, as transitions on `Table`.

Nothing here knows a particular game or Telegram: the engine comes from the registry, computers'
choices from a `Decide` callable (the process pool in the bot), and every refusal is a `Refusal`
carrying an English message id for the handler to translate. A transition returns a new table with
`screen` bumped and the events it caused in its journal; the caller stores it with compare-and-set.
"""

from __future__ import annotations

import hashlib
import random
import secrets
from collections import Counter
from collections.abc import Awaitable, Callable, Iterable, Mapping
from itertools import product
from typing import Any

from bot.tables import journal
from bot.tables.model import Phase, Player, Table
from core.engine import (
    CHANCE,
    Action,
    Event,
    Frozen,
    Game,
    IllegalAction,
    NotYourTurn,
    OptionValue,
    State,
    Step,
    sample_chance,
)
from core.registry import GAMES
from i18n import N_, t

#: Where table seeds (the deal, the dice, the computers' choices) come from: unpredictable, so that
#: no deal can be worked out ahead. The tests put a seeded generator here, so that a run replays.
SEEDS: random.Random = secrets.SystemRandom()
#: A computer's choice for a seat's view: (game id, level, view, legal actions, seed) -> action.
Decide = Callable[[str, str, Frozen, tuple[Action, ...], str], Awaitable[Action]]

#: Computer strengths a lobby cycles through.
LEVELS: tuple[str, ...] = ("easy", "normal", "hard")

#: Computers' names, one per seat, distinct at a table and kept for the whole series.
COMPUTER_NAMES: tuple[str, ...] = (
    N_("Fox"),
    N_("Owl"),
    N_("Hedgehog"),
    N_("Badger"),
    N_("Raven"),
    N_("Beaver"),
    N_("Lynx"),
    N_("Bear"),
)


class Refusal(Exception):
    """A request that changes nothing, with a message id (and values) to show the user."""

    def __init__(self, message: str, **values: object) -> None:
        super().__init__(message)
        self.message = message
        self.values = values


def derived_id(*request: object) -> str:
    """A table id made from the request that creates it (chat and message, or a press's query id),
    so a retried request finds the table it made instead of making (and charging for) another."""
    return hashlib.sha256(":".join(map(str, request)).encode()).hexdigest()[:10]


def game_of(table: Table) -> Game[Any, Any]:
    return GAMES[table.game]


def state_of(table: Table) -> State:
    if table.state is None:
        raise Refusal("The game has not started yet.")
    state: State = game_of(table).load(table.state)
    return state


#: A group's lobby unchanged this long is closed by the timers, so that a host who walked away does
#: not keep the chat from a new game (only an admin could /stop it).
LOBBY_IDLE_MINUTES = 15


def _changed(table: Table, **update: object) -> Table:
    return table.model_copy(update={**update, "screen": table.screen + 1})


# ----- the lobby ---------------------------------------------------------------------------------


def open_lobby(
    game_id: str,
    *,
    table_id: str,
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
        id=table_id,
        chat_id=chat_id,
        topic=topic,
        game=game_id,
        creator=creator.user_id or 0,
        players=(creator,),
        seed=SEEDS.getrandbits(63),
        private=private,
        lang=lang,
        options=dict(options or {}),
        turn_seconds=0 if private else turn_seconds,
    )


def _require_lobby(table: Table) -> None:
    if table.phase is not Phase.LOBBY:
        raise Refusal("The game has already started.")


def join(table: Table, player: Player) -> Table:
    """`player` takes a free seat; at a full table a person takes the last computer's seat (a host
    who filled the table with computers need not close it for a friend who comes late)."""
    _require_lobby(table)
    if player.user_id is not None and table.seat_of(player.user_id) is not None:
        raise Refusal("You are already at the table.")
    players = list(table.players)
    if len(players) < game_of(table).max_players:
        players.append(player)
    else:
        computers = [seat for seat, sitting in enumerate(players) if sitting.is_computer]
        if player.is_computer or not computers:
            raise Refusal("The table is full.")
        players[computers[-1]] = player
    return _changed(table, players=tuple(players), teams=())


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
    return _changed(table, players=players, creator=creator, teams=())


def computer(table: Table) -> Player:
    """A computer with the first name not taken at the table."""
    taken = {player.name for player in table.players}
    names = [t(table.lang, name) for name in COMPUTER_NAMES]
    name = next((name for name in names if name not in taken), f"🤖{len(table.players) + 1}")
    return Player(user_id=None, name=name, lang=table.lang)


def add_computer(table: Table) -> Table:
    return join(table, computer(table))


def set_option(table: Table, name: str, variants: tuple[str, ...]) -> Table:
    """A lobby setting, cycled to its next choice: "variant" (the game among its variants), "level"
    (the computers' strength), "teams" (the seats' teams), or any option the game declares."""
    _require_lobby(table)
    if name == "variant" and table.game in variants:
        return _switch_game(table, variants[(variants.index(table.game) + 1) % len(variants)])
    if name == "level":
        return _changed(table, computer_level=_following(LEVELS, table.computer_level))
    if name == "teams" and game_of(table).teams:
        layouts = team_layouts(len(table.players))
        current = table.teams or tuple(range(len(table.players)))
        return _changed(table, teams=_following(layouts, current))
    spec = next((s for s in game_of(table).options if s.name == name and not s.internal), None)
    if spec is None:
        raise Refusal("This button is out of date.")
    value = table.options.get(name, spec.default)
    return _changed(table, options={**table.options, name: _following(spec.choices, value)})


def _following(choices: tuple[Any, ...], current: Any) -> Any:
    return choices[(choices.index(current) + 1) % len(choices)] if current in choices else choices[0]


def _switch_game(table: Table, game_id: str) -> Table:
    """Another variant: seats and options are checked against the new game, never carried blindly."""
    game = GAMES[game_id]
    if len(table.players) > game.max_players:
        raise Refusal("Too many players for that game.")
    known = {spec.name: spec for spec in game.options}
    options = {
        name: value for name, value in table.options.items() if name in known and value in known[name].choices
    }
    return _changed(table, game=game_id, options=options, teams=table.teams if game.teams else ())


def team_layouts(players: int) -> tuple[tuple[int, ...], ...]:
    """Every way to split the seats into teams (teams numbered by their first seat), in the order
    the lobby's button offers them: each seat alone first, then the even splits (two against two
    before two, one and one), and everyone in one team last."""
    layouts = [
        layout
        for layout in product(range(players), repeat=players)
        # A canonical numbering: each seat joins an earlier team or opens the next one.
        if all(team <= max(layout[:seat], default=-1) + 1 for seat, team in enumerate(layout))
    ]
    return tuple(sorted(layouts, key=_team_order))


def _team_order(layout: tuple[int, ...]) -> tuple[bool, bool, int]:
    """Each seat alone before any team, everyone in one team last, the splits between by how far
    their largest team outnumbers their smallest."""
    sizes = Counter(layout).values()
    return len(sizes) < len(layout), len(sizes) == 1, max(sizes) - min(sizes)


def may_manage(table: Table, user_id: int, is_admin: bool) -> bool:
    """Host and chat-admin rights, `is_admin` being checked in the table's own chat."""
    return table.private or user_id == table.creator or is_admin


# ----- playing -----------------------------------------------------------------------------------


def start(table: Table, *, fill: bool | int = False) -> Table:
    """Deal, and resolve chance up to the first decision; with `fill`, empty seats are given to
    computers first: every seat (True, games that always seat all) or up to `fill` players.
    Computers move when the change is committed."""
    _require_lobby(table)
    game = game_of(table)
    for _ in range(computers_at_start(table, fill)):
        table = add_computer(table)
    if len(table.players) < game.min_players:
        raise Refusal("At least {count} players are needed.", count=game.min_players)
    state = game.new(len(table.players), table.options, table.teams or None)
    return settle(_changed(table, phase=Phase.PLAYING), state)


def computers_at_start(table: Table, fill: bool | int) -> int:
    """How many empty seats of the lobby `table` go to computers when it starts with `fill`."""
    seats = game_of(table).max_players if fill is True else int(fill)
    return max(0, seats - len(table.players))


def person_move(table: Table, user_id: int, action: Action) -> Table:
    """A person's action, checked and applied, its events in the journal. Raises Refusal and changes
    nothing if it may not be made."""
    if table.phase is not Phase.PLAYING:
        raise Refusal("This game is over.")
    seat = table.seat_of(user_id)
    if seat is None:
        raise Refusal("You are not playing at this table.")
    game = game_of(table)
    try:
        step = game.apply(state_of(table), seat, action)
    except NotYourTurn as error:
        raise Refusal("It is not your turn.") from error
    except IllegalAction as error:
        raise Refusal("That move is not allowed now.") from error
    # A move of one's own ends a run of timeouts.
    strikes = {other: count for other, count in table.strikes.items() if other != seat}
    return settle(_record(_changed(table, strikes=strikes), step.events, actor=seat), step.state)


async def move_for(table: Table, seats: Iterable[int], decide: Decide) -> Table:
    """A computer makes one move for each of these people (their turn timed out). It sees what the
    person would see and plays by the same rules; the journal says it stood in."""
    game = game_of(table)
    state = state_of(table)
    seats = list(seats)
    if not any(seat in game.to_move(state) for seat in seats):
        return table
    table = _changed(table)  # the stand-in's moves make a new screen
    for seat in seats:
        if seat in game.to_move(state):
            step = await _computer_step(table, game, state, seat, decide)
            table, state = _record(table, step.events, actor=seat, proxy=True), step.state
    return settle(table, state)


def computers_to_move(table: Table) -> bool:
    if table.phase is not Phase.PLAYING or table.state is None:
        return False
    return any(
        seat >= 0 and table.players[seat].is_computer for seat in game_of(table).to_move(state_of(table))
    )


async def advance(table: Table, decide: Decide, enough: Callable[[], bool] = lambda: False) -> Table:
    """Computers (and chance) move until a person is to move, the game is over or `enough()` after a
    move: a new screen with every event. Where several seats may act at once (throw-ins), computers
    do not wait."""
    game = game_of(table)
    state = state_of(table)
    table = _changed(table)
    while computers := [s for s in game.to_move(state) if s >= 0 and table.players[s].is_computer]:
        seat = computers[0]
        step = await _computer_step(table, game, state, seat, decide)
        proxy = table.players[seat].user_id is not None
        table, state = _record(table, step.events, actor=seat, proxy=proxy), step.state
        table, state = _resolve_chance(table, game, state)
        if enough():
            break
    return settle(table, state)


async def _computer_step(table: Table, game: Game[Any, Any], state: State, seat: int, decide: Decide) -> Step:
    view, legal = game.view(state, seat), game.legal_actions(state, seat)
    action = await decide(table.game, table.computer_level, view, legal, _seed(table, state))
    return game.apply(state, seat, action)


def _seed(table: Table, state: State) -> str:
    # Seeded by table and position, so a replayed or retried update draws the same outcome.
    return f"{table.seed}:{state.version}"


def _record(table: Table, events: Iterable[Event], *, actor: int | None, proxy: bool = False) -> Table:
    """Journal a step's events. With `proxy` (a computer moved for a person) the move itself says
    so: the step's first event and its private copies, not what followed from it (a card turned
    up, a trick taken by someone else)."""
    events = tuple(events)
    move = type(events[0]) if events else None
    moved = next((n for n, event in enumerate(events) if type(event) is not move), len(events))
    entries = (
        journal.entry(event, screen=table.screen, actor=actor, proxy=proxy and n < moved)
        for n, event in enumerate(events)
    )
    return journal.append(table, entries)


def _resolve_chance(table: Table, game: Game[Any, Any], state: State) -> tuple[Table, State]:
    while game.to_move(state) == (CHANCE,):
        drawn = sample_chance(game.chance_outcomes(state), random.Random(_seed(table, state)))
        step = game.apply(state, CHANCE, drawn)
        table, state = _record(table, step.events, actor=None), step.state
    return table, state


def settle(table: Table, state: State) -> Table:
    """The table with `state` after chance has moved, and, once the game is over, the finished
    phase and the series tally."""
    game = game_of(table)
    table, state = _resolve_chance(table, game, state)
    table = table.model_copy(update={"state": state.model_dump_json()})
    outcome = game.outcome(state)
    if outcome is not None and table.phase is not Phase.FINISHED:
        tally = dict(table.tally)
        for seat in outcome.losers:
            tally[seat] = tally.get(seat, 0) + 1
        table = table.model_copy(update={"phase": Phase.FINISHED, "tally": tally, "deadline": None})
    return table


def hand_to_computer(table: Table, user_id: int) -> Table:
    """A person leaves a running game: a computer plays their seat, same hand, until they are back
    (Appendix C); it moves at once if the seat is to move."""
    seat = _seat_for_away(table, user_id, away=True)
    return set_away(table, [seat], left=True)


def come_back(table: Table, user_id: int) -> Table:
    """ "I'm back": the person takes their seat over from the computer."""
    seat = _seat_for_away(table, user_id, away=False)
    players = list(table.players)
    players[seat] = players[seat].model_copy(update={"away": False})
    strikes = {other: count for other, count in table.strikes.items() if other != seat}
    back = _changed(table, players=tuple(players), strikes=strikes)
    return _record(back, [journal.SeatBack(seat=seat)], actor=seat)


def _seat_for_away(table: Table, user_id: int, *, away: bool) -> int:
    if table.phase is not Phase.PLAYING:
        raise Refusal("This game is over.")
    seat = table.seat_of(user_id)
    if seat is None:
        raise Refusal("You are not playing at this table.")
    if table.players[seat].away and away:
        raise Refusal("A computer already plays for you.")
    if not table.players[seat].away and not away:
        raise Refusal("You are already at the table.")
    return seat


def set_away(table: Table, seats: Iterable[int], *, left: bool = False) -> Table:
    """A computer plays these people's seats until they are back: they `left`, or timed out. The
    journal says so. No seat: nothing changes (a new screen would only cost the group an edit)."""
    seats = list(seats)
    if not seats:
        return table
    players = list(table.players)
    for seat in seats:
        players[seat] = players[seat].model_copy(update={"away": True})
    away = _changed(table, players=tuple(players))
    for seat in seats:
        away = _record(away, [journal.SeatAway(seat=seat, left=left)], actor=seat)
    return away


def stop(table: Table) -> Table:
    return _changed(table, phase=Phase.FINISHED, deadline=None)


def replace(table: Table, user_id: int) -> Table:
    """Stop a running private game for the new one `user_id` starts in its chat: it says so, and
    its message keeps no button (the new game is below it)."""
    return _record(stop(table), [journal.Replaced()], actor=table.seat_of(user_id))


def replaced(table: Table) -> bool:
    """Whether the table was stopped for the game that replaced it in its chat (`replace`)."""
    return bool(table.journal) and table.journal[-1].kind == journal.kind_of(journal.Replaced)


def again(
    table: Table, user_id: int, *, table_id: str, options: Mapping[str, OptionValue], fill: bool | int = False
) -> Table:
    """A new game with the same seats (and the series' tally), replacing the finished table here."""
    if table.phase is not Phase.FINISHED:
        raise Refusal("This game is still running.")
    if table.seat_of(user_id) is None:
        raise Refusal("Only the players of this game can start it again.")
    fresh = table.model_copy(
        update={
            "id": table_id,
            "phase": Phase.LOBBY,
            "state": None,
            "seed": SEEDS.getrandbits(63),
            "message_id": None,
            "message_is_photo": False,
            "creator": user_id,
            "panels": {},
            "options": dict(options),
            "strikes": {},
            "deadline": None,
            "journal": (),
        }
    )
    return start(fresh, fill=fill)
