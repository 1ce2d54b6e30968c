"""A computer player for the Tarot grid (RULES.md, Game 2), seeing only a `GridTarotView`.

The only hidden information is which unseen card lies under each closed position nobody has seen,
and those positions are alike to the player. A closed card an effect turned face down again is known
to everyone (the view's `seen`): always a minor, since only free cards close, so turning it up is
safe and its step count is known. So the player deals the unseen cards once (`Game.sample`, which
keeps the seen ones in place), and scores a move onto a seen card by its one outcome, and onto an
unseen one by the exact expectation over what turns up there: the unseen cards grouped by what they
do (minors by step count, each Major Arcanum alone), each group's card put on the destination in a
copy of the rules' `Position`, the move applied with all its effects, and the result evaluated.

The evaluation is a survival estimate. A token that can move next turn survives the turn after
that as well with the chance that the card under its best destination lets it move on (`Outlook`,
computed once per decision); a team is safe while any of its tokens is. The score is the own team's
safety less the chance that every other team stays safe (a team that cannot move loses, rule 23),
less `RISK` times how much likelier the own team's next move is than the others' to turn up the
Tower with no way out (a token that can turn up a seen card, or only jump, draws no card); playing
solo, it is safety plus a small reward for each card turned up.

In the end game (`ENDGAME` closed cards or fewer, against other teams) the last destinations are
raced for and then the tokens must jump (rule 19), where one move's outlook misjudges who runs out
first; and few cards are hidden. So the player searches both sides' moves, deepening ply by ply
while the whole search fits in `BUDGET` positions (exact over the unseen cards at every move, the
others' answers between their best and an average one, `CARE`), with the evaluation at its leaves;
where the caller sets a think limit (the bot), deepening also stops when that time is up.
Once no closed card is left the game is decided by counting (`_countdown`), so the search ends there.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from functools import cache

from core.ai.search import time_up
from core.board import NOTHING_BLOCKED, bits
from core.cards import Card, is_major
from core.engine import Action, Seat
from core.games.grid_tarot import GridTarotGame, GridTarotView, position
from core.games.grid_tarot_arcana import (
    HIEROPHANT,
    JUSTICE,
    PRIESTESS,
    STAR,
    STRENGTH,
    TOWER,
    Effect,
    Kind,
    Option,
    arrival,
    card_rule,
    minor_steps,
    suit,
)
from core.games.grid_tarot_rules import BOARD, CENTRE, EMPRESS_STEPS, NEIGHBOURS, Phase, Position, Token

GAME = GridTarotGame()
WIN, LOSS = 10.0, -10.0
#: Solo: what one more card turned up is worth, against the survival estimate's 0..1.
PROGRESS = 0.02
#: A token that can move only with a way out of rule 19 spends cards for it.
WAY_OUT = 0.8
#: A same-suit jump lands on an open card, so no Tower lies in wait, but each one uses up a card of
#: the suit: once the field is clear, the suit with the fewer free cards runs out first.
JUMP = 0.9
#: What the chance that a team's next move turns up the Tower with no way out costs, against the
#: survival estimate's -1..1 (a loss is worth LOSS).
RISK = 8.0
#: The end game: with this few closed cards left, the tokens race for the last destinations and
#: then jump (rule 19), and few cards are hidden, so searching several moves of both sides pays.
ENDGAME = 12
#: How many positions one end-game decision may play out, all depths together (about 0.1 ms each).
BUDGET = 1500
#: How the end-game search expects the other teams to answer: 1 at their best, 0 at random.
CARE = 0.5
#: The end-game search's deepest try, in plies (a little more than a turn of each side per card).
MAX_PLIES = 12


class _OutOfBudget(Exception):
    """The deepening search has played out its `BUDGET` or its time: the last complete depth decides."""


def _group(card: Card) -> str:
    """Cards that behave alike where they turn up: minors by step count (a group's suit, which says
    where a same-suit jump may go, is its first card's), Majors one by one."""
    return card if is_major(card) else f"m{minor_steps(card)}"


#: How safe a token is with k destinations to choose from next: one is easily lost (the other
#: team may take it), many hardly.
ROOM = tuple(1.0 - 0.6**k for k in range(BOARD.size + 1))


class Outlook:
    """Per cell, how well a token landing there on an unseen card can move on from it (`ROOM` of
    its destination count, averaged over the unseen cards), on the field as it is at the decision
    (close enough a move or two later)."""

    def __init__(self, pos: Position) -> None:
        closed = pos.closed
        blocked = pos.blocked()
        groups = [(card, count) for _, card, count in _unseen_groups(pos)]
        total = max((closed & ~pos.known).bit_count(), 1)
        around = closed | pos.empty
        hermits = sum(1 for c in bits(closed) if not NEIGHBOURS[c] & ~around)
        world = BOARD.reach(CENTRE, 8, NOTHING_BLOCKED) & closed
        free = pos.free()
        #: Per suit, the room a token has that can only jump (rule 19, option 1).
        self.jumps = {key: JUMP * ROOM[(mask & free).bit_count()] for key, mask in pos.suits.items()}
        self.chance = [0.0] * BOARD.size
        for cell in range(BOARD.size):
            rest = closed & ~(1 << cell)
            seen = pos.cards[cell] if pos.known >> cell & 1 else None
            room = 0.0
            for card, count in [(seen, 1)] if seen is not None else groups:
                found = self._destinations(card, cell, rest, blocked, hermits, world)
                if found:
                    room += count * ROOM[found]
                elif not is_major(card):
                    room += count * self.jumps[card[-1]]
            self.chance[cell] = room / (1 if seen is not None else total)

    @staticmethod
    def _destinations(
        card: Card, cell: int, rest: int, blocked: frozenset[int], hermits: int, world: int
    ) -> int:
        """About how many destinations a token has on `card` at `cell` (no way out counted)."""
        effects = arrival(card)
        if Effect.RETURN in effects:
            return 3  # back where it came from, which it could leave
        if Effect.TO_CENTRE in effects:
            return (world & ~(1 << cell)).bit_count()
        rule = card_rule(card)
        if rule.kind is Kind.STEPS:
            mask = 0
            for n in rule.counts:
                mask |= BOARD.reach(cell, n, blocked)
            return (mask & rest).bit_count()
        if rule.kind is Kind.EMPRESS:
            return (BOARD.reach(cell, EMPRESS_STEPS[cell], blocked) & rest).bit_count()
        if rule.kind is Kind.LINE:
            return (BOARD.lines(cell) & rest).bit_count()
        if rule.kind is Kind.HERMIT:
            return hermits
        if rule.kind is Kind.CHARIOT:
            return 3  # it repeats a move that just worked
        return rest.bit_count()  # the Fool


class _Decision:
    """One decision's search: the sampled position, the seat, and the outlook."""

    def __init__(self, pos: Position, seat: Seat, candidates: int, risk: float) -> None:
        self.root = pos
        self.seat = seat
        self.risk = risk
        self.team = pos.teams[seat]
        self.candidates = candidates
        self.outlook = Outlook(pos).chance
        #: Cells from the best outlook down, to find a mask's best cell quickly.
        self.ranked = sorted(range(BOARD.size), key=lambda cell: -self.outlook[cell])
        #: The end-game search's positions so far, and whether it stopped short of a game's end.
        self.nodes = 0
        self.cut = False
        #: Whether the caller's think limit (`core.ai.search.thinking_within`) is up.
        self.time_up = time_up()

    # ----- scoring actions ---------------------------------------------------------------------

    def value(self, pos: Position, action: Action, depth: int) -> float:
        # What follows a card turned up (the Chariot's repeat, the Hanged Man's swap) is judged as
        # it stands: searching it for every card would cost too much.
        return self.expected(
            pos,
            action,
            lambda swap: self.after(_played(pos, self.seat, action, swap), depth if swap is None else 0),
        )

    def expected(
        self, pos: Position, action: Action, outcome: Callable[[tuple[int, int] | None], float]
    ) -> float:
        """The value of a move, `outcome` scoring it given the exchange of unseen cards that puts
        the card wanted on its destination: one outcome for an open destination or a seen card
        (what turns up is known), else the expectation over the unseen cards, one per group."""
        dest = self._destination(pos, action)
        if dest is None or not (pos.closed & ~pos.known) >> dest & 1:
            return outcome(None)
        total = 0.0
        for where, _, count in _unseen_groups(pos):
            total += count * outcome((dest, where))
        return total / (pos.closed & ~pos.known).bit_count()

    @staticmethod
    def _destination(pos: Position, action: Action) -> int | None:
        """The cell a move ends on; None for the other actions (ways out, the Hanged Man's swap)."""
        if pos.phase is Phase.SWAP:
            return None
        parts = action.split(".")
        return BOARD.code_index.get(parts[1]) if len(parts) > 1 else None

    def after(self, pos: Position, depth: int) -> float:
        """The value of a position the move led to; the seat's own follow-up decisions (the way
        out's destination, the Chariot's repeat, the Hanged Man's swap) are searched `depth` deep."""
        decided = self.decided(pos)
        if decided is not None:
            return decided
        if depth > 0 and pos.turn == self.seat and pos.phase is not Phase.SELECT:
            legal = self.shortlist(pos, pos.legal(self.seat))
            return max(self.value(pos, action, depth - 1) for action in legal)
        return self.evaluate(pos)

    def decided(self, pos: Position) -> float | None:
        """The value of a game that is over, or that can only end one way (`_countdown`)."""
        if pos.result is not None:
            if pos.result.draw:
                return 0.0
            return WIN if self.seat in pos.result.winners else LOSS
        losers = _countdown(pos) if pos.team_count > 1 else None
        if losers is None:
            return None
        if len(losers) == pos.team_count:
            return 0.0
        return LOSS if self.team in losers else WIN

    def shortlist(self, pos: Position, legal: Sequence[Action]) -> list[Action]:
        """The actions worth scoring: all of a few; of many, the best by outlook, with every move
        onto an opponent's last few destinations (taking it may leave them stuck) and every move
        onto a seen card (no Tower lies there)."""
        if len(legal) <= self.candidates:
            return list(legal)
        contested = pos.known
        for token in pos.tokens:
            if pos.teams[token.seat] != self.team and token.cell >= 0:
                reach = _union(pos, token)
                if 0 < reach.bit_count() <= 3:
                    contested |= reach

        def guess(action: Action) -> tuple[float, str]:
            dest = self._destination(pos, action)
            if dest is None:
                return (0.0, action)
            return (self.outlook[dest] + (1.0 if contested >> dest & 1 else 0.0), action)

        ranked = sorted(legal, key=guess, reverse=True)
        keep = ranked[: self.candidates]
        keep += [a for a in ranked[self.candidates :] if guess(a)[0] >= 1.0]
        return keep

    # ----- the end-game search ------------------------------------------------------------------

    def deepen(self, pos: Position, actions: Sequence[Action], depth: int) -> list[float]:
        """The actions' scores from the deepest search of both sides' moves that fits in `BUDGET`
        (each ply one move or follow-up decision); the one-move scores if not even two plies fit."""
        scores: list[float] | None = None
        for plies in range(2, MAX_PLIES + 1):
            self.cut = False
            try:
                scores = [self.expect(pos, action, plies) for action in actions]
            except _OutOfBudget:
                break
            if not self.cut:
                break  # every line ended the game: deeper is the same
        if scores is None:
            return [self.value(pos, action, depth) for action in actions]
        return scores

    def expect(self, pos: Position, action: Action, depth: int) -> float:
        """The value of playing `action` for the seat to move, `depth` plies deep: exact over the
        unseen card it may turn up."""

        def outcome(swap: tuple[int, int] | None) -> float:
            after = self.play(pos, action, swap)
            # Naming a way out (rule 19) only announces the move that follows.
            return self.search(after, depth if after.phase is Phase.OPTION else depth - 1)

        return self.expected(pos, action, outcome)

    def play(self, pos: Position, action: Action, swap: tuple[int, int] | None = None) -> Position:
        """`_played` for the seat to move, counted against the budget and the think limit."""
        self.nodes += 1
        if self.nodes > BUDGET or self.time_up():
            raise _OutOfBudget
        return _played(pos, pos.turn, action, swap)

    def search(self, pos: Position, depth: int) -> float:
        """The value of a position with `depth` plies left: the best of the seat to move's actions
        for its own team; for another team, between its best answer and an average one (`CARE`), as
        an opponent that may err, not always at its best."""
        decided = self.decided(pos)
        if decided is not None:
            return decided
        if depth <= 0:
            self.cut = True
            return self.evaluate(pos)
        seat = pos.turn
        legal = pos.legal(seat)
        if not legal:
            return self.evaluate(pos)
        values = [self.expect(pos, action, depth) for action in self.shortlist(pos, legal)]
        if pos.teams[seat] == self.team:
            return max(values)
        return CARE * min(values) + (1.0 - CARE) * sum(values) / len(values)

    # ----- the evaluation ----------------------------------------------------------------------

    def evaluate(self, pos: Position) -> float:
        safety = [1.0] * pos.team_count
        for team in range(pos.team_count):
            stuck = 1.0
            cover = _insurance(pos.pools[team])
            for token in pos.tokens:
                if pos.teams[token.seat] == team:
                    stuck *= (1.0 - self.token_outlook(pos, token)) * (1.0 - cover)
            safety[team] = 1.0 - stuck
        mine = safety[self.team]
        if pos.team_count == 1:
            return mine + PROGRESS * (self.root.closed.bit_count() - pos.closed.bit_count())
        others = 1.0
        danger = 0.0
        for team, safe in enumerate(safety):
            if team != self.team:
                others *= safe
                danger = max(danger, self.tower_risk(pos, team))
        return mine - others - self.risk * (self.tower_risk(pos, self.team) - danger)

    @staticmethod
    def tower_risk(pos: Position, team: int) -> float:
        """About the chance the team's next turn turns up the Tower with no way out: each token
        that must move onto an unseen card draws it with one chance in the unseen count; a token
        that can turn up a seen card, or can only jump onto an open one, draws nothing."""
        if _escapes(pos.pools[team]):
            return 0.0
        unseen = pos.closed & ~pos.known
        if not any(pos.cards[cell] == TOWER for cell in bits(unseen)):
            return 0.0
        draws = 0
        for token in pos.tokens:
            if pos.teams[token.seat] != team:
                continue
            reach = _union(pos, token) if token.cell >= 0 else pos.closed
            if not reach & pos.known and reach & unseen:
                draws += 1
        return draws / unseen.bit_count()

    def token_outlook(self, pos: Position, token: Token) -> float:
        """About the chance the token can still move the turn after next: the outlook of its best
        destination."""
        if token.cell < 0:
            return 1.0
        reach = _union(pos, token)
        if reach:
            return self.best(reach)
        best = 0.0
        for code, _, targets in pos.options(token):
            union = 0
            for _, mask in targets:
                union |= mask
            if code == Option.SUIT:
                best = max(best, max(self.landed(pos, cell) for cell in bits(union)))
            else:
                best = max(best, WAY_OUT * self.best(union))
        return best

    def best(self, mask: int) -> float:
        return self.outlook[next(cell for cell in self.ranked if mask >> cell & 1)]

    def landed(self, pos: Position, cell: int) -> float:
        """The outlook of a token jumping onto the open minor at `cell`: its own step move, or else
        jumping on."""
        card = pos.cards[cell]
        assert card is not None
        reach = BOARD.reach(cell, minor_steps(card), pos.blocked()) & pos.closed
        if reach:
            return self.best(reach)
        return JUMP * ROOM[max((pos.suits[card[-1]] & pos.free()).bit_count() - 1, 0)]


def _unseen_groups(pos: Position) -> list[tuple[int, Card, int]]:
    """The closed positions nobody has seen, by the `_group` of their cards in the sampled deal:
    one position of each group, its card, and how many the group has."""
    groups: dict[str, tuple[int, Card, int]] = {}
    for cell in bits(pos.closed & ~pos.known):
        card = pos.cards[cell]
        assert card is not None
        key = _group(card)
        first, shown, count = groups.get(key, (cell, card, 0))
        groups[key] = (first, shown, count + 1)
    return list(groups.values())


def _countdown(pos: Position) -> list[int] | None:
    """The teams that lose (all of them: a draw) when no closed card is left, with every team at
    its best: then nothing can be turned up or closed again, and a token can only jump to a free
    card of its own suit (rule 19), taking the one it leaves, so each jump uses up one free card of
    the suit wherever it lands, and the game plays itself out by counting. The only choice left is
    the order a seat moves its two tokens in, which can decide whether another team runs out
    before its own does (the check follows every move). None while a closed card is left and in
    the middle of a move (a way out named)."""
    if pos.closed or pos.phase is not Phase.SELECT:
        return None
    keys = sorted(pos.suits)
    # Per token, the index of the suit it jumps in; None on a Major, a covered card or a shared
    # cell, where it never moves again.
    suits = [
        keys.index(key)
        if (key := pos.suit_at(token.cell)) is not None
        and any(code == Option.SUIT for code, _ in pos.option_rules(token))
        else None
        for token in pos.tokens
    ]
    teams = [pos.teams[token.seat] for token in pos.tokens]
    per_seat, team_count = pos.per_seat, pos.team_count

    def hopeless(free: tuple[int, ...]) -> frozenset[int]:
        able = {team for team, held in zip(teams, suits, strict=True) if held is not None and free[held]}
        return frozenset(team for team in range(team_count) if team not in able)

    def standing(team: int, losers: frozenset[int]) -> float:
        return 1.0 if team not in losers else 0.5 if len(losers) == team_count else 0.0

    @cache
    def race(free: tuple[int, ...], seat: Seat, waiting: frozenset[int]) -> frozenset[int]:
        movers = [n for n in waiting if (held := suits[n]) is not None and free[held]]
        if not movers:
            after = (seat + 1) % pos.players
            return race(free, after, frozenset(range(after * per_seat, (after + 1) * per_seat)))
        outcomes = []
        for n in movers:
            held = suits[n]
            assert held is not None
            left = (*free[:held], free[held] - 1, *free[held + 1 :])
            outcomes.append(hopeless(left) or race(left, seat, waiting - {n}))
        return max(outcomes, key=lambda losers: standing(teams[movers[0]], losers))

    free = pos.free()
    start = tuple((pos.suits[key] & free).bit_count() for key in keys)
    waiting = frozenset(pos.tokens.index(token) for token in pos.waiting())
    return sorted(hopeless(start) or race(start, pos.turn, waiting))


def _played(pos: Position, seat: Seat, action: Action, swap: tuple[int, int] | None = None) -> Position:
    """A copy of `pos` with `seat`'s `action` applied, after exchanging the cards of two unseen
    positions (`swap`) to put the card wanted on the destination."""
    after = pos.copy()
    if swap is not None:
        _swap_closed(after, *swap)
    after.apply(seat, action)
    return after


def _union(pos: Position, token: Token) -> int:
    reach = 0
    for _, mask in pos.targets(token, pos.next_rule(token)):
        reach |= mask
    return reach


def _insurance(pool: Sequence[Card]) -> float:
    """How much the team's pool helps a token out of a dead end (rule 19's ways out)."""
    cover = 0.0
    if STAR in pool:
        cover += 0.3
    if STRENGTH in pool:
        cover += 0.2
    if JUSTICE in pool and any(suit(card) is not None for card in pool):
        cover += 0.3
    if PRIESTESS in pool and HIEROPHANT in pool:
        cover += 0.3
    return min(cover, 0.8)


def _escapes(pool: Sequence[Card]) -> bool:
    """Whether the pool holds a way off the Tower (rule 19; Strength doubles its 0)."""
    return (
        STAR in pool
        or (PRIESTESS in pool and HIEROPHANT in pool)
        or (JUSTICE in pool and any(suit(card) is not None for card in pool))
    )


def _swap_closed(pos: Position, here: int, there: int) -> None:
    """Exchange the cards of two closed positions of a sampled deal (the suit masks follow)."""
    if here == there:
        return
    cards = pos.cards
    cards[here], cards[there] = cards[there], cards[here]
    for cell in (here, there):
        for key in pos.suits:
            pos.suits[key] &= ~(1 << cell)
        card = cards[cell]
        if card is not None and not is_major(card):
            pos.suits[card[-1]] |= 1 << cell


class GridTarotPlayer:
    """Scores each legal action by its expected outcome one move deep (with the seat's follow-up
    decisions `depth` deeper), or with `endgame` closed cards or fewer by the end-game search;
    among many, only a shortlist of `candidates`."""

    def __init__(
        self, candidates: int = 10, depth: int = 1, risk: float = RISK, endgame: int = ENDGAME
    ) -> None:
        self.candidates = candidates
        self.endgame = endgame
        self.depth = depth
        self.risk = risk

    def position(self, view: GridTarotView, rng: random.Random) -> Position:
        """The position the player decides in: a deal of the unseen cards consistent with the view
        (the unseen positions are then scored alike, whatever the deal put there)."""
        return position(GAME.sample(view, rng))

    def choose(self, view: GridTarotView, legal: tuple[Action, ...], rng: random.Random) -> Action:
        if len(legal) == 1:
            return legal[0]
        seat = view.seat if view.seat is not None else view.to_move
        if seat is None:
            raise ValueError("grid_tarot: a computer player needs the view of the seat to move")
        pos = self.position(view, rng)
        decision = _Decision(pos, seat, self.candidates, self.risk)
        shortlist = decision.shortlist(pos, legal)
        if pos.team_count > 1 and pos.closed.bit_count() <= self.endgame:
            scores = decision.deepen(pos, shortlist, self.depth)
        else:
            scores = [decision.value(pos, action, self.depth) for action in shortlist]
        top = max(scores)
        return rng.choice(
            [action for action, score in zip(shortlist, scores, strict=True) if score >= top - 1e-9]
        )
