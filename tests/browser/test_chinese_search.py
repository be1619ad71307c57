"""Searching as readers type: Chinese phrases without spaces, a question, a rendering the
glossary does not use, and English phrases, each find the page that answers them among the first
three (``refsite.sphinxext.zh_search``, ``refsite.sphinxext.search_ranking``)."""

from __future__ import annotations

import urllib.parse

import pytest

from tests.browser.browser_support import WebDriver, drain, is_local, search

pytestmark = pytest.mark.browser

ZH = [
    ("保存检查点", "parallel/checkpointing"),
    ("混合精度训练", "training/amp"),
    ("数据加载", "training/data"),
    ("保存模型", "parallel/checkpointing"),
    ("加载模型", "parallel/checkpointing"),
    ("恢复训练", "training/reproducible_resume"),
    ("断点续训", "training/reproducible_resume"),  # the glossary's term is 恢复训练
    ("如何在多卡训练中保存和恢复检查点", "parallel/checkpointing"),
    ("怎么设置随机种子", "training/reproducible_resume"),  # the glossary's term is 种子
    ("集合通信", "distributed/collectives"),
    ("流水线并行", "sharded/pipelining"),
    ("学习率调度器", "training/optim"),
    ("进程组初始化", "distributed/init"),
]
EN = [
    ("mixed precision training", "training/amp"),
    ("save checkpoint", "parallel/checkpointing"),
    ("initialize process group", "distributed/init"),
]


def top_pages(browser: WebDriver, base_url: str, lang: str, query: str) -> list[str]:
    found = search(browser, f"{base_url}{lang}/search.html?q={urllib.parse.quote(query)}")
    pages = []
    for url, _ in found:
        page = url.removeprefix(f"{base_url}{lang}/").split("#")[0].removesuffix(".html")
        if page not in pages:
            pages.append(page)
    return pages


@pytest.mark.parametrize(("lang", "query", "page"), [("zh", *case) for case in ZH] + [("en", *case) for case in EN])
def test_a_phrase_finds_its_page_among_the_first_three(browser: WebDriver, base_url: str, lang: str,
                                                       query: str, page: str) -> None:
    pages = top_pages(browser, base_url, lang, query)
    assert page in pages[:3], f"searching {query!r} ({lang}): {page} is not among the first three of {pages[:5]}"
    errors, urls = drain(browser)
    assert not errors and all(map(is_local, urls)), (errors, urls)
