"""The session's collected items are frozen out of the cyclic collector's reach (the root
``conftest.py``), and what a test makes afterwards is still collected."""

from __future__ import annotations

import gc
import weakref


def test_collection_is_frozen_and_new_garbage_is_still_collected() -> None:
    assert gc.get_freeze_count() > 10_000, gc.get_freeze_count()

    class Node:
        pass

    a, b = Node(), Node()
    a.other, b.other = b, a  # a cycle: only the collector frees it
    alive = weakref.ref(a)
    del a, b
    gc.collect()
    assert alive() is None
