"""Dealing unseen cards under constraints (`core.unseen`): `dealable` says exactly when `deal`
can deal, and a deal keeps every card to its places and every place to its size."""

from __future__ import annotations

import random

from core.unseen import NoDeal, deal, dealable


def test_dealable_says_when_a_deal_exists() -> None:
    rng = random.Random(5)
    both = {True: 0, False: 0}
    for _ in range(400):
        places = rng.randint(1, 4)
        sizes = [rng.randint(0, 4) for _ in range(places)]
        cards = [f"c{i}" for i in range(sum(sizes))]
        masks = [rng.randint(1, (1 << places) - 1) for _ in cards]
        expected = dealable(masks, sizes)
        both[expected] += 1
        try:
            dealt = deal(cards, masks, sizes, rng)
        except NoDeal:
            assert not expected
            continue
        assert expected
        assert [len(place) for place in dealt] == sizes
        for number, place in enumerate(dealt):
            assert all(masks[cards.index(card)] >> number & 1 for card in place)
    assert min(both.values()) >= 50
    # More cards than room is never dealable.
    assert not dealable([1, 1, 1], [2])
