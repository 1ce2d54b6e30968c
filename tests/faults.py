"""A Redis client that fails on demand: the k-th command from arming raises, before it reaches the
server (the request was lost) or after (the server did the work, the answer was lost)."""

from __future__ import annotations

from typing import Any

import redis.asyncio as aioredis
from redis.exceptions import ConnectionError as RedisConnectionError


class FaultyRedis(aioredis.Redis):
    @classmethod
    def at(cls, url: str) -> FaultyRedis:
        client = cls.from_url(url)
        assert isinstance(client, FaultyRedis)
        return client

    fail_at: int | None = None
    fail_after = False
    armed_calls = 0

    def arm(self, call: int | None, *, after: bool = False) -> None:
        self.fail_at, self.fail_after, self.armed_calls = call, after, 0

    async def _counted(self) -> bool:
        self.armed_calls += 1
        return self.armed_calls == self.fail_at

    async def execute_command(self, *args: Any, **options: Any) -> Any:
        failing = await self._counted()
        if failing and not self.fail_after:
            raise RedisConnectionError("injected: the command never arrived")
        result = await super().execute_command(*args, **options)  # type: ignore[no-untyped-call]
        if failing:
            raise RedisConnectionError("injected: the answer was lost")
        return result

    def pipeline(self, transaction: bool = True, shard_hint: Any = None) -> Any:
        pipe = super().pipeline(transaction, shard_hint)
        run = pipe.execute
        client = self

        async def execute(raise_on_error: bool = True) -> Any:
            failing = await client._counted()
            if failing and not client.fail_after:
                raise RedisConnectionError("injected: the pipeline never arrived")
            result = await run(raise_on_error)
            if failing:
                raise RedisConnectionError("injected: the pipeline's answer was lost")
            return result

        pipe.execute = execute  # type: ignore[method-assign]
        return pipe
