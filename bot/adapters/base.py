"""How a game plugs into the bot: its buttons, picture and caption for a view.

The table lifecycle, the store and the callback handling are generic; a game only supplies one
`GameAdapter` subclass, registered in `bot.adapters.ADAPTERS`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import Any, ClassVar, NamedTuple

from core.engine import Action, Frozen, Game, OptionValue, State
from core.registry import GAMES
from i18n import t


class Button(NamedTuple):
    label: str
    action: Action


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
    rules_msg: ClassVar[str]
    private_modes: ClassVar[tuple[PrivateMode, ...]]
    #: Whether a group can open a table of this game (coin games are played in private).
    in_groups: ClassVar[bool] = True
    #: Each person plays from a private panel; the group only ever sees the public table.
    panels: ClassVar[bool] = False
    #: Empty seats are given to computers when the game starts (Durak always seats four).
    fill_with_computers: ClassVar[bool] = False
    #: Game ids the lobby may switch between (variants of one game), or empty.
    variants: ClassVar[tuple[str, ...]] = ()
    #: Whether some views have a reveal played step by step (`frames`); the others skip the check.
    animated: ClassVar[bool] = False
    #: Boolean table options offered as lobby toggles: (option name, label message id).
    toggles: ClassVar[tuple[tuple[str, str], ...]] = ()

    @property
    def game(self) -> Game[Any, Any]:
        return GAMES[self.game_id]

    def title(self, lang: str) -> str:
        return t(lang, self.title_msg)

    def rules(self, lang: str) -> str:
        return t(lang, self.rules_msg)

    @abstractmethod
    def keyboard(self, view: Frozen, legal: tuple[Action, ...], lang: str) -> list[list[Button]]:
        """Rows of buttons for the seat to move; the labels match the picture's labels."""

    @abstractmethod
    def picture(self, view: Frozen, names: tuple[str, ...], lang: str) -> bytes:
        """The turn image for a view (the public view in a group)."""

    @abstractmethod
    def caption(self, view: Frozen, names: tuple[str, ...], lang: str) -> str:
        """Whose turn it is and what they may do, or the result."""

    def panel_picture(
        self, view: Frozen, names: tuple[str, ...], lang: str, legal: tuple[Action, ...]
    ) -> bytes:
        """A person's private panel picture (games with `panels`)."""
        raise NotImplementedError(f"{self.game_id} has no panels")

    def panel_caption(self, view: Frozen, names: tuple[str, ...], lang: str) -> str:
        raise NotImplementedError(f"{self.game_id} has no panels")

    def hand_text(self, view: Frozen, lang: str) -> str:
        """A seat's private cards as one short line (the "My hand" alert in a group)."""
        raise NotImplementedError(f"{self.game_id} has no hands")

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

    def frame(self, view: Frozen, names: tuple[str, ...], lang: str, number: int) -> bytes:
        """In-between picture `number` (1-based) of an animated reveal."""
        raise NotImplementedError(f"{self.game_id} has no animation")
