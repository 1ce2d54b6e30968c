"""The callback codec: every button's data round-trips, stays within 64 bytes, and junk is refused."""

from __future__ import annotations

import pytest

from bot.chat.callback import MAX_BYTES, BadCallback, Callback, Kind, decode, encode


def test_round_trip_of_every_kind() -> None:
    for kind in Kind:
        data = encode(kind, "a1b2c3d4", 12, "b.10H")
        assert decode(data) == Callback(kind, "a1b2c3d4", 12, "b.10H")
        assert len(data.encode()) <= MAX_BYTES


def test_encoding_refuses_what_it_could_not_decode() -> None:
    with pytest.raises(ValueError):
        encode(Kind.MOVE, "UPPER", 1, "A1")
    with pytest.raises(ValueError):
        encode(Kind.MOVE, "abc", -1, "A1")
    with pytest.raises(ValueError):
        encode(Kind.MOVE, "abc", 1, "a:b")
    with pytest.raises(ValueError):
        encode(Kind.MOVE, "a" * 16, 10**12, "x" * 40)  # over 64 bytes


@pytest.mark.parametrize(
    "data",
    [
        None,
        "",
        "garbage",
        "g:abc:1",
        "g:abc:1:A1:extra",
        "x:abc:1:A1",
        "g:ABC:1:A1",
        "g:abc:-1:A1",
        "g:abc:1e3:A1",
        "g:abc:1:",
        "g:abc:1:A 1",
        "g:abc:1:" + "A" * 41,
        "g:abc:1:" + "é" * 30,
        "g:abc:9999999999999:A1",
    ],
)
def test_malformed_data_is_refused(data: str | None) -> None:
    with pytest.raises(BadCallback):
        decode(data)
