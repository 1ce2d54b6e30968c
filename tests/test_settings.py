"""Settings from the environment and .env files; .env.example lists every setting."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from pydantic import AliasChoices, ValidationError

from bot.settings import Settings

ENV_EXAMPLE = Path(__file__).resolve().parent.parent / ".env.example"


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """No setting leaks in from the real environment."""
    for name in env_names():
        monkeypatch.delenv(name, raising=False)
        monkeypatch.delenv(name.lower(), raising=False)


def names_of(field: str) -> set[str]:
    """The environment variables one setting reads."""
    alias = Settings.model_fields[field].validation_alias
    if isinstance(alias, AliasChoices):
        return {str(choice).upper() for choice in alias.choices}
    return {field.upper()}


def env_names() -> set[str]:
    return set().union(*(names_of(field) for field in Settings.model_fields))


def test_defaults() -> None:
    settings = Settings(_env_file=None)
    assert settings.bot_token is None
    assert settings.redis_url is None
    assert settings.redis_cluster is False
    assert settings.redis_connect_timeout == 1.0
    assert settings.redis_socket_timeout == 2.0
    assert settings.bot_api_url is None
    assert settings.bot_api_local is False
    assert settings.data_dir == Path("data")
    assert settings.webhook_url is None
    assert settings.webhook_listen == "0.0.0.0"
    assert settings.webhook_port == 8080
    assert settings.webhook_secret is None
    assert settings.default_lang == "ru"
    assert settings.timezone == "Europe/Moscow"
    assert settings.log_level == "INFO"
    assert settings.table_ttl_hours == 72
    assert settings.table_ttl_seconds == 72 * 3600
    assert settings.group_edits_per_minute == 20
    assert settings.images_dir is None


def test_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BOT_TOKEN", "123:abc")
    monkeypatch.setenv("redis_url", "redis://cache:6379/1")  # case-insensitive
    monkeypatch.setenv("REDIS_CLUSTER", "true")
    monkeypatch.setenv("REDIS_CONNECT_TIMEOUT", "0.5")
    monkeypatch.setenv("REDIS_SOCKET_TIMEOUT", "3")
    monkeypatch.setenv("BOT_API_URL", "http://127.0.0.1:8081/")
    monkeypatch.setenv("BOT_API_LOCAL", "yes")
    monkeypatch.setenv("DATA_DIR", "/var/lib/bot")
    monkeypatch.setenv("WEBHOOK_URL", "https://bot.example.com/hook")
    monkeypatch.setenv("WEBHOOK_SECRET", "s3cret")
    monkeypatch.setenv("DEFAULT_LANG", "en")
    monkeypatch.setenv("TIMEZONE", "UTC")
    monkeypatch.setenv("LOG_LEVEL", "debug")
    monkeypatch.setenv("TABLE_TTL_HOURS", "24")
    monkeypatch.setenv("GROUP_EDITS_PER_MINUTE", "10")
    monkeypatch.setenv("IMAGES_DIR", "out")
    settings = Settings(_env_file=None)
    assert settings.bot_token is not None and settings.bot_token.get_secret_value() == "123:abc"
    assert "123:abc" not in repr(settings)
    assert settings.redis_url == "redis://cache:6379/1"
    assert settings.redis_cluster is True
    assert settings.redis_connect_timeout == 0.5
    assert settings.redis_socket_timeout == 3.0
    assert settings.bot_api_url == "http://127.0.0.1:8081"  # without the trailing slash
    assert settings.bot_api_local is True
    assert settings.data_dir == Path("/var/lib/bot")
    assert settings.webhook_url == "https://bot.example.com/hook"
    assert settings.webhook_secret is not None and settings.webhook_secret.get_secret_value() == "s3cret"
    assert settings.default_lang == "en"
    assert settings.timezone == "UTC"
    assert settings.log_level == "DEBUG"
    assert settings.table_ttl_seconds == 24 * 3600
    assert settings.group_edits_per_minute == 10
    assert settings.images_dir == Path("out")


def test_port(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PORT", "9000")
    assert Settings(_env_file=None).webhook_port == 9000
    monkeypatch.setenv("WEBHOOK_PORT", "9100")
    assert Settings(_env_file=None).webhook_port == 9100


def test_dotenv_file_and_empty_values(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text("BOT_TOKEN=1:x\nREDIS_URL=\nWEBHOOK_PORT=\nDEFAULT_LANG=en\n")
    settings = Settings(_env_file=env_file)
    assert settings.bot_token is not None and settings.bot_token.get_secret_value() == "1:x"
    assert settings.redis_url is None
    assert settings.webhook_port == 8080
    assert settings.default_lang == "en"
    monkeypatch.setenv("DEFAULT_LANG", "ru")  # the environment wins over the file
    assert Settings(_env_file=env_file).default_lang == "ru"


def test_env_example_is_a_valid_env_file() -> None:
    assert Settings(_env_file=ENV_EXAMPLE) == Settings(_env_file=None)


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("TIMEZONE", "Mars/Olympus"),
        ("DEFAULT_LANG", "de"),
        ("LOG_LEVEL", "LOUD"),
        ("TABLE_TTL_HOURS", "0"),
        ("REDIS_SOCKET_TIMEOUT", "0"),
        ("REDIS_CONNECT_TIMEOUT", "-1"),
        ("BOT_API_URL", "127.0.0.1:8081"),
    ],
)
def test_invalid_values(monkeypatch: pytest.MonkeyPatch, name: str, value: str) -> None:
    monkeypatch.setenv(name, value)
    with pytest.raises(ValidationError):
        Settings(_env_file=None)


@pytest.mark.parametrize(
    ("setting", "needs"),
    [("REDIS_CLUSTER", "REDIS_URL naming one node"), ("BOT_API_LOCAL", "BOT_API_URL naming the local")],
)
def test_a_setting_that_needs_another(monkeypatch: pytest.MonkeyPatch, setting: str, needs: str) -> None:
    monkeypatch.setenv(setting, "true")
    with pytest.raises(ValidationError, match=needs):
        Settings(_env_file=None)


def test_env_example_lists_every_setting() -> None:
    lines = ENV_EXAMPLE.read_text(encoding="utf-8").splitlines()
    listed: dict[str, int] = {}
    for number, line in enumerate(lines):
        match = re.fullmatch(r"([A-Z][A-Z0-9_]*)=.*", line)
        if match:
            listed[match.group(1)] = number
            # Each variable has its own comment right above it.
            assert number > 0 and lines[number - 1].startswith("#"), match.group(1)
    for field in Settings.model_fields:
        assert names_of(field) & listed.keys(), f"{field} is missing from .env.example"
    assert listed.keys() <= env_names(), "unknown variables in .env.example"
