"""The race track (Game 3) in the bot: die-and-token buttons, the buy-out, the track picture, the journal."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

from bot.adapters.base import Caption, Choice, GameAdapter, Names, PrivateMode
from core.cards import card_label
from core.engine import Action, Event, Frozen
from core.games.race import RaceView
from core.games.race_events import (
    Blocked,
    Burned,
    BuyOut,
    FirstPlayer,
    Killed,
    Moved,
    Opened,
    Paid,
    PlayerFinished,
    Retreated,
    Rolled,
    TokenFinished,
    Waiting,
)
from core.games.race_rules import DECLINE, PAY, Phase, distinct_moves, move_code, parse_move
from core.games.race_track import FINISH, Kind, effect
from i18n import N_, t, tn
from render.race import position_text, render_race, task_text

#: How a button names a token: as its disc on the picture shows it.
TOKEN_MARKS = ("①", "②", "③")


def _view(view: Frozen) -> RaceView:
    assert isinstance(view, RaceView)
    return view


def die_mark(value: int) -> str:
    return f"🎲{value}"


# ----- the journal -------------------------------------------------------------------------------


def _moved(event: Moved, names: Names, lang: str) -> str:
    values = {
        "name": names[event.seat],
        "token": event.token + 1,
        "die": die_mark(event.die),
        "start": position_text(event.start, lang),
        "end": position_text(event.end, lang),
    }
    if event.acceleration:
        line = t(lang, "⏩ {name}: token {token} accelerates {die}: {start} → {end}", **values)
    else:
        line = t(lang, "{name}: token {token} moves {die}: {start} → {end}", **values)
    if event.excess:
        line += " " + tn(lang, "({n} pip burned)", "({n} pips burned)", event.excess)
    return line


def _opened(event: Opened, names: Names, lang: str) -> str:
    return t(
        lang, "Card {position} turns up: {card}", position=event.position, card=card_label(event.card, lang)
    )


def _paid(event: Paid, names: Names, lang: str) -> str:
    return tn(
        lang,
        "💰 {name} gets {n} coin (bank: {bank})",
        "💰 {name} gets {n} coins (bank: {bank})",
        event.coins,
        name=names[event.seat],
        bank=event.bank,
    )


def _waiting(event: Waiting, names: Names, lang: str) -> str:
    return t(
        lang,
        "♥ {name}: token {token} waits on {card} to accelerate",
        name=names[event.seat],
        token=event.token + 1,
        card=card_label(event.card, lang),
    )


def _buy_out(event: BuyOut, names: Names, lang: str) -> str:
    values = {"name": names[event.seat], "token": event.token + 1, "card": card_label(event.card, lang)}
    if event.paid:
        return tn(
            lang,
            "🛡 {name} pays {n} coin: token {token} stays on {card}",
            "🛡 {name} pays {n} coins: token {token} stays on {card}",
            event.price,
            **values,
        )
    return t(lang, "{name} does not buy token {token} out", **values)


def _retreated(event: Retreated, names: Names, lang: str) -> str:
    return t(
        lang,
        "♠ {card} sends {name}'s token {token} back: {start} → {end}",
        card=card_label(event.card, lang),
        name=names[event.seat],
        token=event.token + 1,
        start=position_text(event.start, lang),
        end=position_text(event.end, lang),
    )


def _killed(event: Killed, names: Names, lang: str) -> str:
    return t(
        lang,
        "☠️ {card} kills {name}'s token {token}: back to the Start",
        card=card_label(event.card, lang),
        name=names[event.seat],
        token=event.token + 1,
    )


def _burned(event: Burned, names: Names, lang: str) -> str:
    values = {"name": names[event.seat], "die": die_mark(event.die)}
    if event.reason == "finished":
        return t(lang, "🔥 {name}'s {die} burns: every token is home", **values)
    return t(lang, "🔥 {name}'s {die} burns: no token may take it (Hearts)", **values)


def _player_finished(event: PlayerFinished, names: Names, lang: str) -> str:
    return t(
        lang, "🏆 {name} has all three tokens home: place {place}", name=names[event.seat], place=event.place
    )


def _blocked(event: Blocked, names: Names, lang: str) -> str:
    return t(
        lang,
        "🧱 The track is blocked: six open Spades in a row nobody can pay to pass. The game ends: {names}",
        names=", ".join(names[seat] for seat in event.seats),
    )


CAPTIONS: dict[type[Event], Caption] = {
    FirstPlayer: lambda e, names, lang: t(lang, "{name} goes first", name=names[e.seat]),
    Rolled: lambda e, names, lang: t(
        lang, "🎲 {name} rolls {a} and {b}", name=names[e.seat], a=e.dice[0], b=e.dice[1]
    ),
    Moved: _moved,
    Opened: _opened,
    Paid: _paid,
    Waiting: _waiting,
    BuyOut: _buy_out,
    Retreated: _retreated,
    Killed: _killed,
    Burned: _burned,
    TokenFinished: lambda e, names, lang: t(
        lang, "🏁 {name}: token {token} is home", name=names[e.seat], token=e.token + 1
    ),
    PlayerFinished: _player_finished,
    Blocked: _blocked,
}


# ----- the adapter -------------------------------------------------------------------------------


class RaceAdapter(GameAdapter):
    game_id = "race"
    emoji = "🏁"
    title_msg = N_("Race track")
    rules_msg = N_(
        "Race track (36 cards, two dice, 2-3 players, three tokens each). The cards lie face down "
        "as a track from the Start to the Finish; all tokens begin at the Start, the bank holds 13 coins.\n"
        "Your turn: roll two dice and use them one after the other, each on one token (the same token "
        "twice or two tokens, never added up). You must use a die if any token can take it. A token "
        "that lands on a closed card turns it up:\n"
        "♣ safe. ♦ pays when turned up: 6-10 one coin, J-A two.\n"
        "♥ accelerator: the token stops and waits; when both dice are used it rolls one die and moves "
        "again (the token nearest the Finish first), as often as it lands on Hearts.\n"
        "♠ misfortune: 6-10 sends the token back that many cards, J-A kills it (back to the Start). "
        "You may buy out for 3 coins (6-10) or 4 (J-A) and stay.\n"
        "Open Hearts and Spades act every time a token lands on them; open Clubs and Diamonds do "
        "nothing. Past the Finish the rest of a die burns. The last player to bring all three tokens "
        "home loses. If six open Spades in a row block everyone for good, the game ends.\n"
        "Buttons: 🎲5 → ① moves token 1 by the die showing 5; the picture marks where each choice lands."
    )
    private_modes = (
        PrivateMode("one", N_("Against one computer"), 1),
        PrivateMode("two", N_("Against two computers"), 2),
        PrivateMode("one_hard", N_("Against one strong computer"), 1, level="hard"),
        PrivateMode("two_hard", N_("Against two strong computers"), 2, level="hard"),
    )
    #: One die's three tokens a row.
    row_width = 3
    captions: ClassVar[Mapping[type[Event], Caption]] = CAPTIONS

    def choices(self, view: Frozen, legal: tuple[Action, ...], names: Names, lang: str) -> list[Choice]:
        race = _view(view)
        if race.phase is Phase.MOVE:
            # The dice as the header shows them (in the order rolled), each die's tokens in turn.
            assert race.turn is not None
            moves = sorted(parse_move(action) for action in distinct_moves(legal, race.tokens[race.turn]))
            moves.sort(key=lambda move: race.dice.index(move[0]))
            return [self._move(value, token) for value, token in moves]
        # Yes before no; the tied tokens in their order.
        ranked = sorted(legal, key=lambda action: (action == DECLINE, action))
        return [Choice(self._mark(action) + self.game.label(action, lang), action) for action in ranked]

    @staticmethod
    def _mark(action: Action) -> str:
        if action == DECLINE:
            return "❌ "
        return "✅ " if action.startswith(PAY) else "⏩ "

    @staticmethod
    def _move(value: int, token: int) -> Choice:
        return Choice(
            f"{die_mark(value)} → {TOKEN_MARKS[token]}",
            move_code(value, token),
            group=f"d{value}",
            group_label=die_mark(value),
        )

    def picture(self, view: Frozen, names: Names, lang: str, recent: Sequence[Event]) -> bytes:
        return render_race(_view(view), names=names, lang=lang, recent=recent)

    def status(self, view: Frozen, names: Names, lang: str) -> str:
        race = _view(view)
        if race.outcome is not None:
            order = ", ".join(f"{place}. {names[seat]}" for place, seat in enumerate(race.order, start=1))
            return "\n".join(
                [
                    t(lang, "🏁 Finishing order: {order}.", order=order),
                    t(lang, "😔 {name} loses.", name=names[race.order[-1]]),
                ]
            )
        if race.turn is None:
            return t(lang, "Dealing…")
        lines = [t(lang, "{name}, your turn: {task}", name=names[race.turn], task=task_text(race, lang))]
        if race.phase is Phase.MOVE:
            left = " ".join(die_mark(race.dice[index]) for index in race.left)
            lines.append(t(lang, "Dice to use: {dice}", dice=left))
        if race.phase is Phase.BUYOUT and race.pending is not None:
            lines.append(self._if_not_paid(race, lang))
        return "\n".join(lines)

    @staticmethod
    def _if_not_paid(race: RaceView, lang: str) -> str:
        """What the Spade does to the token facing a buy-out if the player does not pay (rule 10)."""
        assert race.turn is not None and race.pending is not None
        here = race.tokens[race.turn][race.pending]
        card = race.faces[here - 1]
        assert card is not None and here != FINISH
        kind, amount, _ = effect(card)
        values = {"token": race.pending + 1, "card": card_label(card, lang)}
        if kind is Kind.DEATH:
            return t(lang, "Not paying: {card} kills token {token} (back to the Start).", **values)
        return tn(
            lang,
            "Not paying: {card} sends token {token} {n} card back.",
            "Not paying: {card} sends token {token} {n} cards back.",
            amount,
            **values,
        )
