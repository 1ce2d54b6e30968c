"""How a game plugs into the bot: its buttons, picture and caption for a view.

The table lifecycle, the store and the callback handling are generic; a game only supplies one
`GameAdapter` subclass, registered in `bot.adapters.ADAPTERS`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, ClassVar, NamedTuple

from bot.i18n import t
from core.engine import Action, Frozen, Game
from core.registry import GAMES


class Button(NamedTuple):
    label: str
    action: Action


class PrivateMode(NamedTuple):
    """A way to start the game at once in a private chat."""

    key: str
    label: str  # message id, translated when shown
    computers: int


class GameAdapter(ABC):
    game_id: ClassVar[str]
    title_msg: ClassVar[str]
    rules_msg: ClassVar[str]
    private_modes: ClassVar[tuple[PrivateMode, ...]]

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
