"""Durak, throw-in and transfer (Games 6 and 7), in the bot: a public table, a private panel each."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.adapters.base import Caption, Choice, GameAdapter, Names, PrivateMode, RunCaption, seats_in_a_row
from core.cards import card_label, parse
from core.engine import Action, Event, Frozen, OptionValue, State
from core.games.durak import (
    PASS,
    TAKE,
    BoutStarted,
    CardPlayed,
    Discarded,
    Drew,
    DurakView,
    Passed,
    PickedUp,
    TakeDeclared,
    WentOut,
)
from i18n import N_, t, tn
from render.durak import render_durak_hand, render_durak_table


def _view(view: Frozen) -> DurakView:
    assert isinstance(view, DurakView)
    return view


def _played(event: CardPlayed, names: Names, lang: str) -> str:
    values = {"name": names[event.seat], "card": card_label(event.card, lang)}
    if event.kind == "attack":
        return t(lang, "{name} leads {card}", **values)
    if event.kind == "throw":
        return t(lang, "{name} throws in {card}", **values)
    if event.kind == "beat":
        if event.beaten is None:  # journalled before beats named the card they cover
            return t(lang, "{name} beats with {card}", **values)
        return t(lang, "{name} beats {beaten} with {card}", beaten=card_label(event.beaten, lang), **values)
    assert event.defender is not None  # a transfer names the new defender
    return t(lang, "{name} transfers {card} to {defender}", defender=names[event.defender], **values)


def _drew(event: Drew, names: Names, lang: str) -> str:
    if event.cards:
        cards = " ".join(card_label(card, lang) for card in event.cards)
        return t(lang, "You draw {cards}", cards=cards)
    return tn(lang, "{name} draws {n} card", "{name} draws {n} cards", event.count, name=names[event.seat])


CAPTIONS: dict[type[Event], Caption] = {
    CardPlayed: _played,
    TakeDeclared: lambda e, names, lang: t(lang, "{name} takes", name=names[e.seat]),
    Passed: lambda e, names, lang: t(lang, "{name}: done", name=names[e.seat]),
    PickedUp: lambda e, names, lang: tn(
        lang, "{name} picks up {n} card", "{name} picks up {n} cards", len(e.cards), name=names[e.seat]
    ),
    Discarded: lambda e, names, lang: tn(
        lang, "Beaten: {n} card to the discard", "Beaten: {n} cards to the discard", len(e.cards)
    ),
    Drew: _drew,
    WentOut: lambda e, names, lang: t(lang, "{name} is out of cards", name=names[e.seat]),
    BoutStarted: lambda e, names, lang: t(
        lang, "{attacker} attacks {defender}", attacker=names[e.attacker], defender=names[e.defender]
    ),
}


def _drew_in_a_row(events: Sequence[Drew], names: Names, lang: str) -> str:
    """After a bout: «Drawn: Fox +2, you 6♠ 7♥, Owl +1» (one's own cards named in one's own view)."""
    draws = [
        t(lang, "you {cards}", cards=" ".join(card_label(card, lang) for card in event.cards))
        if event.cards
        else f"{names[event.seat]} +{event.count}"
        for event in events
    ]
    return t(lang, "Drawn: {draws}", draws=", ".join(draws))


RUNS: dict[type[Event], RunCaption] = {Passed: seats_in_a_row(N_("{names}: done")), Drew: _drew_in_a_row}


def recent_plays(events: Sequence[Event]) -> tuple[tuple[int, str], ...]:
    """The cards the caption tells as played, with who played them, for the picture to mark."""
    return tuple((event.seat, event.card) for event in events if isinstance(event, CardPlayed))


class DurakAdapter(GameAdapter):
    panels = True
    fill_with_computers = True
    variants = ("durak", "durak_transfer")
    row_width = 6
    captions = CAPTIONS
    runs = RUNS
    rules_msg = N_(
        "Durak for four, every player for themselves; computers fill empty seats.\n"
        "Six cards each; the card under the talon sets the trump. The lowest trump attacks first "
        "(in a series with the same four, the player left of the fool).\n"
        "The defender beats each attack card with a higher card of its suit or a trump, or takes. "
        "The others throw in cards of ranks already on the table: at most six, and no more than the "
        "defender holds. In transfer Durak the defender may instead pass the attack on with a card of "
        "the same rank, before beating anything.\n"
        "After a bout everyone draws up to six, the attacker first. The last one holding cards is the fool.\n"
        "Play from your private panel with the bot; the group sees only the table."
    )
    private_modes = (
        PrivateMode("normal", N_("Against three computers"), 3),
        PrivateMode("easy", N_("Against three easy computers"), 3, level="easy"),
        PrivateMode("hard", N_("Against three strong computers"), 3, level="hard"),
    )

    def __init__(self, game_id: str, title_msg: str, extra_rules_msg: str = "") -> None:
        self.game_id = game_id
        self.title_msg = title_msg
        self.extra_rules_msg = extra_rules_msg

    def rules(self, lang: str) -> str:
        """The variant's own rule first (`/help durak_transfer` explains the transfer)."""
        common = t(lang, self.rules_msg)
        return t(lang, self.extra_rules_msg) + "\n\n" + common if self.extra_rules_msg else common

    def sums_up(self, event: Event, later: Event) -> bool:
        # A thrower is asked again after every new card, so one seat may pass several times in a
        # bout: its latest «done» tells them all (and a discarded bout says everyone passed).
        repeated = isinstance(event, Passed) and isinstance(later, Passed) and later.seat == event.seat
        return repeated or super().sums_up(event, later)

    def choices(self, view: Frozen, legal: tuple[Action, ...], names: Names, lang: str) -> list[Choice]:
        """A person's actions on their panel: the cards in the order the hand shows them, each in its
        suit's group, then take or pass."""
        hand = _view(view).hand or ()
        place = {card: index for index, card in enumerate(hand)}
        cards = sorted((a for a in legal if a not in (TAKE, PASS)), key=lambda a: (place.get(a[2:], 99), a))
        choices = [
            Choice(
                self.game.label(action, lang), action, group=suit, group_label=parse(action[2:]).suit.symbol
            )
            for action in cards
            for suit in (action[-1],)
        ]
        words = [
            Choice(self.game.label(action, lang), action, group="w", group_label="…")
            for action in legal
            if action in (TAKE, PASS)
        ]
        return choices + words

    def picture(self, view: Frozen, names: Names, lang: str, recent: Sequence[Event]) -> bytes:
        return render_durak_table(_view(view), names=names, lang=lang, recent=recent_plays(recent))

    def status(self, view: Frozen, names: Names, lang: str) -> str:
        table = _view(view)
        if table.outcome is not None:
            lines = [
                t(lang, "🤝 A draw: nobody is the fool.")
                if table.fool is None
                else t(lang, "🤡 The fool: {name}.", name=names[table.fool])
            ]
            out = ", ".join(names[seat] for seat in table.out)
            if out:
                lines.append(t(lang, "Went out: {names}.", names=out))
            return "\n".join(lines)
        lines = []
        if table.trump is not None:
            lines.append(
                t(
                    lang,
                    "Trump: {card}. Talon: {count}.",
                    card=card_label(table.trump, lang),
                    count=table.talon,
                )
            )
        if table.attacker is not None and table.defender is not None:
            lines.append(
                t(
                    lang,
                    "{attacker} attacks, {defender} defends.",
                    attacker=names[table.attacker],
                    defender=names[table.defender],
                )
            )
        waiting = ", ".join(names[seat] for seat in table.to_move)
        if waiting:
            lines.append(t(lang, "Waiting for: {names}.", names=waiting))
        return "\n".join(lines)

    def panel_picture(
        self, view: Frozen, names: Names, lang: str, legal: tuple[Action, ...], recent: Sequence[Event]
    ) -> bytes:
        playable = tuple(dict.fromkeys(action.split(".")[-1] for action in legal if "." in action))
        return render_durak_hand(
            _view(view), names=names, lang=lang, playable=playable, recent=recent_plays(recent)
        )

    def panel_status(self, view: Frozen, names: Names, lang: str) -> str:
        table = _view(view)
        seat = table.seat
        assert seat is not None
        if table.outcome is not None:
            return self.status(view, names, lang)
        if seat in table.out:
            return t(lang, "You are out of cards. Well played!")
        if seat not in table.to_move:
            waiting = ", ".join(names[other] for other in table.to_move)
            return t(lang, "Your cards. Waiting for: {names}.", names=waiting)
        if seat == table.defender and table.table:
            return t(lang, "You defend: beat the oldest card, or take.")
        if not table.table:
            return t(lang, "Your attack: lead a card.")
        return t(lang, "You may throw in a card, or pass.")

    def hand_text(self, view: Frozen, lang: str) -> str | None:
        table = _view(view)
        hand = " ".join(card_label(card, lang) for card in table.hand or ())
        trump = parse(table.trump).suit.symbol if table.trump else ""
        return t(lang, "Your cards: {cards}. Trump {trump}.", cards=hand or "—", trump=trump)

    def next_options(self, state: State, options: Mapping[str, OptionValue]) -> dict[str, OptionValue]:
        """A7.3 / A7.4: the next game with the same four starts from under the fool."""
        outcome = self.game.outcome(state)
        fool = outcome.losers[0] if outcome is not None and outcome.losers else -1
        return {**options, "fool": fool}


TRANSFER_RULES = N_(
    "Transfer Durak (Переводной): as throw-in Durak, and while nothing on the table is beaten yet the "
    "defender may transfer instead of beating: lay a card of the same rank as the attack cards, and "
    "the whole table attacks the next player, who must hold at least as many cards as will then lie "
    "on the table (and never more than six attack cards). The one who transferred throws in first. "
    "Transfers may go round the table; once a card is beaten, no more transfers."
)

ADAPTERS_DURAK = (
    DurakAdapter("durak", N_("Durak (throw-in)")),
    DurakAdapter("durak_transfer", N_("Durak (transfer)"), TRANSFER_RULES),
)
