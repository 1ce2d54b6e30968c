"""The Redis key layout, in one place, because it decides which keys share a Redis Cluster slot.

A cluster runs a script only when all its keys hash to one slot, and it hashes only the part of a
key inside braces. Every chat and every user is therefore given one of `BUCKETS` hash tags
(`{<id mod BUCKETS>}`), so that one script can write a table, its timer entry and a private
player's wallet together (a private chat's id is its user's id), and the ticker finds every due
timer by reading `BUCKETS` sorted sets. Keys:

- `t:{b}:<chat>:<topic>`: hash of one table: `id`, `v` (version), `phase`, `doc` (the Table JSON),
  `shown` (the screen number on the live message), `panel:<seat>` and `panel:<seat>:look` (the
  screen number on a person's panel, and a digest of what it shows). Expires with the table's TTL.
- `tid:<table id>`: string, the table's key, so a press on a private panel finds its group table.
- `due:{b}`: sorted set of table keys by turn deadline; `edits:{b}`: by when a deferred edit of the
  live message may go out. `ep:{b}:<chat>`: string, when the group's next edit is due (the edit
  budget's pace); `np:{b}:<chat>`: the group was told that the bot may no longer send pictures
  there (expires, so it is told again an hour later); `nv:{b}:<chat>`: the group's last picture
  was refused, so nobody there sees the game and its turn timers wait (deleted by the next picture
  that gets through);
  `el:{b}:<chat>:<topic>[:p<seat>]`: who is editing the live message (or a seat's panel) now (a short lease).
- `pr:<table id>:<seat>`: string, the message id of the group's notice asking a person whose panel
  could not be sent (they never opened the bot, or blocked it) to open it; deleted with the notice
  once their panel gets through.
- `w:{b}:<uid>`: hash of a wallet (`balance`, `refill_day`, `rank`), with `...:log`, `...:op:<id>`,
  `...:daily`, `...:pull:<id>`, `...:spin:<id>` and `...:pending` (pulls charged, not yet settled).
- `lb:{g}:*`, `lb:{c<chat>}:*`, `lb:names`: leaderboards (written apart from the wallets).
- `later:{b}`: sorted set of small jobs for later (bot/runtime/later.py).
- `ticks`: hash of the ticker's heartbeat: `last` (when a worker last ticked), `from` and `to` (the
  last stretch in which nobody ticked: turns that ran out then start again).
- `pref:u:<uid>`, `pref:c:<chat>`: language choices; `upd:<update id>`: an update being handled or
  handled (drops a duplicate delivery); `secret:spin`: the deployment's pull secret;
  `console:runs`: how many offline consoles have started on this store (their message numbering).
"""

from __future__ import annotations

from typing import Final

#: Hash tags for chats and users. More buckets spread load over more slots; every tick reads each.
BUCKETS: Final = 64


def bucket(owner_id: int) -> int:
    """The bucket of a chat or user: a private chat and its user get the same one."""
    return owner_id % BUCKETS


def tag(owner_id: int) -> str:
    return f"{{{bucket(owner_id)}}}"


def table(chat_id: int, topic: int) -> str:
    return f"t:{tag(chat_id)}:{chat_id}:{topic}"


def chat_tables(chat_id: int) -> str:
    """A SCAN pattern for the tables of every topic of a chat."""
    return f"t:{tag(chat_id)}:{chat_id}:*"


def panel_shown(seat: int) -> str:
    """The field of a table's hash holding the screen number on a person's panel."""
    return f"panel:{seat}"


def table_index(table_id: str) -> str:
    return f"tid:{table_id}"


def due(bucket: int) -> str:
    return f"due:{{{bucket}}}"


def edits(bucket: int) -> str:
    return f"edits:{{{bucket}}}"


def bucket_of(key: str) -> int:
    """The bucket of a table key (the number inside its braces)."""
    return int(key[key.index("{") + 1 : key.index("}")])


def edit_budget(chat_id: int) -> str:
    return f"ep:{tag(chat_id)}:{chat_id}"


def no_pictures_told(chat_id: int, topic: int) -> str:
    """Set for an hour once a group's chat (or forum topic) was told its game cannot be shown."""
    return f"np:{tag(chat_id)}:{chat_id}:{topic}"


def unseen(chat_id: int, topic: int) -> str:
    """Set while the table of a group's chat (or forum topic) could not be shown there."""
    return f"nv:{tag(chat_id)}:{chat_id}:{topic}"


def machine(chat_id: int, message_id: int) -> str:
    """A bandit machine's message: whose it is and the pull it shows last (`owner:pull`)."""
    return f"mp:{tag(chat_id)}:{chat_id}:{message_id}"


def panel_refused(table_id: str, seat: int) -> str:
    """The group's notice asking a person whose panel could not be sent to open the bot."""
    return f"pr:{table_id}:{seat}"


def edit_lease(chat_id: int, topic: int, panel: int | None = None) -> str:
    """The live message's lease, or that of the private panel of seat `panel`."""
    base = f"el:{tag(chat_id)}:{chat_id}:{topic}"
    return base if panel is None else f"{base}:p{panel}"


def wallet(user_id: int) -> str:
    return f"w:{tag(user_id)}:{user_id}"


def wallet_part(user_id: int, part: str) -> str:
    """A key beside the wallet, in its slot: `log`, `daily`, `op:<id>`, `pull:<id>`, ..."""
    return f"{wallet(user_id)}:{part}"


def user_pref(user_id: int) -> str:
    return f"pref:u:{user_id}"


def chat_pref(chat_id: int) -> str:
    return f"pref:c:{chat_id}"


def update_mark(update_id: int) -> str:
    return f"upd:{update_id}"


#: How many offline consoles have started on this store (bot/offline/console.py numbers by it).
CONSOLE_RUNS: Final = "console:runs"
#: The ticker's heartbeat (bot/tables/outages.py).
HEARTBEAT: Final = "ticks"
