"""`python -m benchmarks [SUBCOMMAND] [--json]`: measurements, not tests (the README lists them).

Without a subcommand: grid turns through the whole bot against the floor of drawing any picture.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import json
import sys

from benchmarks.driver import add_redis_url

#: Subcommand -> the benchmark module whose `main(argv)` runs it.
SUBCOMMANDS: dict[str, str] = {
    "grid-ai": "grid_ai",
    "grid-tarot": "grid_tarot",
    "durak": "durak",
    "race": "race",
    "tarot": "tarot",
    "reading": "reading",
    "render": "render",
    "timers": "timers",
    "isolation": "isolation",
    "memory": "memory",
}
#: The coin games share one module, told which game to drive.
COIN_GAMES = ("bandit", "gold")


def main(argv: list[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    if args_list and args_list[0] in SUBCOMMANDS:
        return int(importlib.import_module(f"benchmarks.{SUBCOMMANDS[args_list[0]]}").main(args_list[1:]))
    if args_list and args_list[0] in COIN_GAMES:
        from benchmarks import coins

        return coins.main(args_list[0], args_list[1:])
    parser = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--turns", type=int, default=600, help="timed turns (at least 500 for the figures)")
    parser.add_argument("--seed", type=int, default=1)
    add_redis_url(parser)
    args = parser.parse_args(args_list)

    from benchmarks.turns import measure

    result = asyncio.run(measure(args.redis_url, args.turns, args.seed))
    if args.json:
        print(json.dumps(result))
    else:
        width = max(map(len, result))
        for key, value in result.items():
            print(f"{key:<{width}}  {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
