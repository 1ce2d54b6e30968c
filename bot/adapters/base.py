"""How a game plugs into the bot: its buttons, pictures, captions and journal lines for a view.

The table lifecycle, the store, the publisher and the press handling are generic; a game supplies
one `GameAdapter` subclass, registered in `bot.adapters.ADAPTERS`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar, NamedTuple

from core.engine import Action, Event, Frozen, Game, GameOver, OptionValue, State
from core.registry import GAMES
from i18n import t

#: Display names by seat (a computer's with "🤖 ").
Names = tuple[str, ...]
#: One journal line for an event: (event, names, language) -> text.
Caption = Callable[[Any, Names, str], str]
#: One journal line for several events of one kind in a row: (events, names, language) -> text.
RunCaption = Callable[[Sequence[Any], Names, str], str]


def seats_in_a_row(message: str) -> RunCaption:
    """A row's line naming the seat of each of its events: `message` (a message id with {names})."""
    return lambda events, names, lang: t(
        lang, message, names=", ".join(names[event.seat] for event in events)
    )


class Choice(NamedTuple):
    """A button for one legal action, listed in the order the picture shows them."""

    label: str
    action: Action
    #: Where one keyboard cannot hold every choice: the first step's group (a field row, a suit),
    #: whose label is `group_label`.
    group: str = ""
    group_label: str = ""


class PrivateMode(NamedTuple):
    """A way to start the game at once in a private chat."""

    key: str
    label: str  # message id, translated when shown
    computers: int
    options: Mapping[str, OptionValue] = {}
    #: Strength of the computers seated in this mode.
    level: str = "normal"


class GameAdapter(ABC):
    game_id: str
    title_msg: str
    #: Shown before the title: on the menu's button, the lobby and the table's caption.
    emoji: ClassVar[str] = "🃏"
    rules_msg: ClassVar[str]
    private_modes: ClassVar[tuple[PrivateMode, ...]]
    #: Whether a group can open a table of this game (coin games are played in private).
    in_groups: ClassVar[bool] = True
    #: Each person plays from a private panel; the group only ever sees the public table.
    panels: ClassVar[bool] = False
    #: Empty seats are given to computers when the game starts: every seat (True: Durak always
    #: seats four), or up to this many players.
    fill_with_computers: ClassVar[bool | int] = False
    #: Game ids the lobby may switch between (variants of one game), or empty.
    variants: ClassVar[tuple[str, ...]] = ()
    #: Whether some views have a reveal played step by step (`frames`); the others skip the check.
    animated: ClassVar[bool] = False
    #: Buttons a keyboard row holds at most (narrower when the labels are long).
    row_width: ClassVar[int] = 5
    #: A journal line for every event class the game emits (checked by the tests).
    captions: ClassVar[Mapping[type[Event], Caption]] = {}
    #: Event classes whose events in a row make one line (three throwers passing: «Fox, Owl, Bob:
    #: done»), so that the frequent ones do not crowd the caption's few lines.
    runs: ClassVar[Mapping[type[Event], RunCaption]] = {}
    #: Event classes the result under a finished game tells (who had no move): a caption that
    #: ends the game leaves their lines out.
    told_by_result: ClassVar[tuple[type[Event], ...]] = ()

    @property
    def game(self) -> Game[Any, Any]:
        return GAMES[self.game_id]

    def title(self, lang: str) -> str:
        return t(lang, self.title_msg)

    def heading(self, lang: str) -> str:
        """The title with the game's emoji."""
        return f"{self.emoji} {self.title(lang)}"

    def rules(self, lang: str) -> str:
        return t(lang, self.rules_msg)

    @abstractmethod
    def choices(self, view: Frozen, legal: tuple[Action, ...], names: Names, lang: str) -> list[Choice]:
        """Buttons for the seat to move, in picture order; the labels match the picture's labels
        (and a button that names a seat, Game 4's ask, names it by `names`)."""

    @abstractmethod
    def picture(self, view: Frozen, names: Names, lang: str, recent: Sequence[Event]) -> bytes:
        """The turn image for a view (the public view in a group); `recent` are the events the
        caption tells, for a picture that marks the last cards played."""

    @abstractmethod
    def status(self, view: Frozen, names: Names, lang: str) -> str:
        """The end of the caption: whose turn it is and what they may do, or the result."""

    def panel_picture(
        self, view: Frozen, names: Names, lang: str, legal: tuple[Action, ...], recent: Sequence[Event]
    ) -> bytes:
        """A person's private panel picture (games with `panels`)."""
        raise NotImplementedError(f"{self.game_id} has no panels")

    def panel_status(self, view: Frozen, names: Names, lang: str) -> str:
        raise NotImplementedError(f"{self.game_id} has no panels")

    def hand_text(self, view: Frozen, lang: str) -> str | None:
        """A seat's private cards as one short line (the "My cards" alert), None without hands."""
        return None

    def info_actions(self, view: Frozen, lang: str) -> list[Choice]:
        """Buttons under a finished game that explain something (Gold's proof of fairness)."""
        return []

    def info(self, action: str, view: Frozen, lang: str) -> str | None:
        """The text an info button sends, None if the action is not one."""
        return None

    def note_actions(self, view: Frozen, lang: str) -> list[Choice]:
        """Buttons under the public table during the game that tell the presser something public
        in an alert (the last trick), so the group is not written to."""
        return []

    def sums_up(self, event: Event, later: Event) -> bool:
        """Whether `later`'s line tells `event` too (a trick won names its every card; the result
        tells `told_by_result`), so that a caption holding both leaves `event`'s line out."""
        return isinstance(later, GameOver) and isinstance(event, self.told_by_result)

    def note(self, action: str, view: Frozen, names: Names, lang: str) -> str | None:
        """The alert a note button answers with, None if the action is not one."""
        return None

    def next_options(self, state: State, options: Mapping[str, OptionValue]) -> dict[str, OptionValue]:
        """Options of the next game of a series with the same seats."""
        return dict(options)

    def stake(self, options: Mapping[str, OptionValue]) -> int:
        """Coins each person pays to start a game with these options (coin games)."""
        return 0

    def payout(self, state: State, seat: int) -> int:
        """Coins a seat receives when the game is over (coin games)."""
        return 0

    def frames(self, view: Frozen) -> int:
        """How many in-between pictures to show, one by one, before this view's final picture."""
        return 0

    def frame(self, view: Frozen, names: Names, lang: str, number: int) -> bytes:
        """In-between picture `number` (1-based) of an animated reveal."""
        raise NotImplementedError(f"{self.game_id} has no animation")
