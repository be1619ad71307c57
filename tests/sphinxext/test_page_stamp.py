"""The stamp under a page's title (``compat_notes.page_stamp``): one world size is said in the
singular, several in the plural, in both languages."""

from __future__ import annotations

import pytest

from refsite.interface_words import words
from refsite.sphinxext.compat_notes import page_stamp


@pytest.mark.parametrize(("sizes", "en", "zh"), [
    ((1,), "world size 1", "world size 1"),
    ((2, 1), "world sizes 1, 2", "world size 1, 2"),
])
def test_the_world_sizes_of_a_page(sizes, en, zh) -> None:
    facts = [("2.15.0+cpu", "", "cpu", n) for n in sizes]
    assert page_stamp(facts, (), words("en")).astext() == (
        f"Outputs on this page: recorded with torch 2.15.0+cpu · cpu · {en} · not run on older releases yet")
    assert page_stamp(facts, (), words("zh")).astext() == (
        f"本页输出：录制于 torch 2.15.0+cpu · cpu · {zh} · 尚未在旧版本上运行")
