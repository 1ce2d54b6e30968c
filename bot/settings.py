"""Bot settings from the environment and a `.env` file (every variable is listed in `.env.example`)."""

from __future__ import annotations

from pathlib import Path
from typing import Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import AliasChoices, Field, SecretStr, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from core.ai.search import THINK_SECONDS

#: Seconds to open a connection to Redis, and to wait for any one reply: a hung Redis fails a chat's
#: update quickly instead of holding it.
REDIS_CONNECT_TIMEOUT = 1.0
REDIS_SOCKET_TIMEOUT = 2.0


class Settings(BaseSettings):
    model_config = SettingsConfigDict(
        env_file=".env",
        env_file_encoding="utf-8",
        case_sensitive=False,
        # `NAME=` (as in a copied .env.example) means "use the default", not an empty string.
        env_ignore_empty=True,
        # The environment holds much else (PATH, HOME, ...); only our names matter.
        extra="ignore",
    )

    bot_token: SecretStr | None = None
    #: None starts an embedded Redis server with its data in `data_dir`.
    redis_url: str | None = None
    #: REDIS_URL names one node of a Redis Cluster; the client finds the others.
    redis_cluster: bool = False
    redis_connect_timeout: float = Field(default=REDIS_CONNECT_TIMEOUT, gt=0)
    redis_socket_timeout: float = Field(default=REDIS_SOCKET_TIMEOUT, gt=0)
    data_dir: Path = Path("data")
    #: The Bot API server, e.g. a local `telegram-bot-api`; None: Telegram's own.
    bot_api_url: str | None = None
    #: The local Bot API server runs with `--local` on this machine (files are passed by path).
    bot_api_local: bool = False
    #: Set -> webhook mode (stateless workers); unset -> long polling.
    webhook_url: str | None = None
    webhook_listen: str = "0.0.0.0"
    #: WEBHOOK_PORT wins over PORT, the variable most hosting platforms set.
    webhook_port: int = Field(default=8080, validation_alias=AliasChoices("webhook_port", "port"))
    webhook_secret: SecretStr | None = None
    default_lang: Literal["ru", "en"] = "ru"
    timezone: str = "Europe/Moscow"
    log_level: str = "INFO"
    #: Tables untouched for this long expire from Redis.
    table_ttl_hours: int = Field(default=72, gt=0)
    #: Telegram allows about 20 messages a minute in a group; table edits are paced to this, a fifth
    #: at once and the rest spread evenly (`bot.tables.publisher.EditBudget`).
    group_edits_per_minute: int = Field(default=20, gt=0)
    #: Seconds a person has for a turn at a group table (0: no timer); private games have none.
    group_turn_seconds: int = Field(default=90, ge=0)
    #: Worker processes for computer players' decisions; 0 decides in a thread of this process.
    computer_processes: int = Field(default=2, ge=0)
    #: Seconds one computer decision may take; past it the cheapest level decides instead.
    computer_budget_seconds: float = Field(default=2.0, gt=0)
    #: Processor seconds a computer's search may think before it chooses with what it has (0: no
    #: limit, only its budget of simulated moves, so seeded games replay the same on any machine).
    computer_think_seconds: float = Field(default=THINK_SECONDS, ge=0)
    #: How often a worker looks for due timers, deferred edits and jobs (0: never; tests tick by hand).
    tick_seconds: float = Field(default=2.0, ge=0)
    #: A stretch this long in which no worker ticked is an outage (the bot or Redis was down): the
    #: turns that ran out in it start again instead of counting against people (0: never, for tests
    #: that move their clock on between the ticks they make by hand).
    outage_seconds: float = Field(default=30.0, ge=0)
    #: Only the console uses it: where rendered pictures are written.
    images_dir: Path | None = None

    @field_validator("timezone")
    @classmethod
    def _known_timezone(cls, value: str) -> str:
        try:
            ZoneInfo(value)
        except (ZoneInfoNotFoundError, ValueError) as error:
            raise ValueError(f"unknown time zone {value!r}") from error
        return value

    @field_validator("log_level")
    @classmethod
    def _upper_log_level(cls, value: str) -> str:
        level = value.upper()
        if level not in {"CRITICAL", "ERROR", "WARNING", "INFO", "DEBUG"}:
            raise ValueError(f"unknown log level {value!r}")
        return level

    @field_validator("bot_api_url")
    @classmethod
    def _http_url(cls, value: str | None) -> str | None:
        if value is None:
            return None
        if not value.startswith(("http://", "https://")):
            raise ValueError(f"not an http(s) URL: {value!r}")
        return value.rstrip("/")

    @model_validator(mode="after")
    def _complete(self) -> Settings:
        if self.redis_cluster and not self.redis_url:
            raise ValueError("REDIS_CLUSTER needs REDIS_URL naming one node of the cluster")
        if self.bot_api_local and not self.bot_api_url:
            raise ValueError("BOT_API_LOCAL needs BOT_API_URL naming the local Bot API server")
        return self

    @property
    def table_ttl_seconds(self) -> int:
        return self.table_ttl_hours * 3600
