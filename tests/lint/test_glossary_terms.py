"""One Chinese term per concept (:mod:`refsite.lint.glossary_terms`): the check on the real tree
(no rejected rendering in the Chinese pages and comments, both glossaries alike) and on planted
texts, both ways."""

from __future__ import annotations

from pathlib import Path

import pytest

from refsite.lint import glossary_terms
from refsite.lint.glossary_terms import check_page, check_translation, read_glossary, rules
from tests.support.paths import DOCS, SNIPPETS


# --- the real tree -------------------------------------------------------------------------------

def test_the_glossary_names_rejected_renderings() -> None:
    terms = read_glossary((DOCS / glossary_terms.ZH_GLOSSARY).read_text(encoding="utf-8"))
    rejected = {term.english: term.rejected for term in terms if term.rejected}
    for english in ("stride", "seed", "unsharded", "dtype", "one-hot"):
        assert english in rejected, f"docs/zh/glossary.md lists no rejected rendering for {english!r}"
    by_rule = {r.variant: r.against_english for r in rules(terms)}
    assert by_rule["步长"] and by_rule["截断"] and not by_rule["聚合"], by_rule


def test_both_glossaries_reject_the_same_renderings() -> None:
    problems = glossary_terms.glossaries_differ(DOCS)
    assert not problems, "\n".join(problems)


def test_a_planted_difference_between_the_glossaries_is_found(tmp_path: Path) -> None:
    for lang, header in (("zh", "| 英文 | 中文 | 不用 |"), ("en", "| English | Chinese | Not used |")):
        (tmp_path / lang).mkdir()
        rejected = "聚合" if lang == "zh" else "汇聚"
        (tmp_path / lang / "glossary.md").write_text(f"{header}\n| --- | --- | --- |\n| gather | 收集 | {rejected} |\n",
                                                     encoding="utf-8")
    assert glossary_terms.glossaries_differ(tmp_path) == [
        "docs/zh/glossary.md and docs/en/glossary.md differ on 'gather': ('聚合',) against ('汇聚',)"]


def test_no_rejected_rendering_in_the_chinese_pages_and_comments() -> None:
    found = glossary_terms.check_tree(DOCS, SNIPPETS)
    assert not found, "\n".join(found)


# --- planted cases -------------------------------------------------------------------------------

GLOSSARY = """\
| 英文 | 中文 | 不用 |
| --- | --- | --- |
| stride | 步幅 | 步长 |
| step (of a slice) | 步长 | |
| gather (parameters) | 收集 | 聚合 |
| clamp, clip (to a range) | 钳位 | 截断 |
| truncate (toward zero) | 截断 | |
| kernel (the compiled code that runs an operator) | 内核 | kernel |
"""
RULES = rules(read_glossary(GLOSSARY))


@pytest.mark.parametrize(("text", "variant"), [
    ("参数在前向之前聚合。", "聚合"),
    ("`view` 要求 `stride` 兼容，即步长兼容。", "步长"),
    ("被截断的位置梯度为零：先 clamp 再取 log。", "截断"),
    ("在 GPU 上生成 Triton kernel。", "kernel"),
])
def test_a_planted_page_line_is_found(text: str, variant: str) -> None:
    found = check_page(f"# 页\n\n{text}\n", RULES, "zh/page.md")
    assert len(found) == 1 and found[0].startswith(f"zh/page.md:3: {variant!r}"), found


@pytest.mark.parametrize("text", [
    "参数在前向之前收集。",
    "切片的步长必须为正。",  # step: the right term
    "浮点数转整数时向零截断。",  # truncate: the right term
    "`view` 要求步幅兼容。",
    "卷积层的 `kernel_size` 为 3，`sdpa_kernel(...)` 选择内核。",  # code, and an identifier
])
def test_a_right_page_line_is_not_found(text: str) -> None:
    assert check_page(f"# 页\n\n{text}\n", RULES, "zh/page.md") == []


def test_the_glossary_rows_are_not_findings() -> None:
    assert check_page(GLOSSARY, RULES, "zh/glossary.md", glossary=True) == []
    assert len(check_page(GLOSSARY + "\n参数聚合。\n", RULES, "zh/glossary.md", glossary=True)) == 1


def test_a_planted_comment_is_found_against_its_english() -> None:
    toml = ('[docstring]\nen = """view needs compatible strides."""\nzh = """view 要求步长兼容。"""\n\n'
            '[comments]\n"no negative steps" = "不支持负步长"\n'
            '"slicing would clip" = "切片会截断到边界"\n'
            '"x is int32, so 2.7 is truncated to 2" = "x 是 int32，所以 2.7 被截断为 2"\n'
            '"the gathered weights" = "聚合后的权重"\n')
    found = check_translation(toml, RULES, "demo.zh.toml")
    assert [f.split(": ")[1] for f in found] == ["'view needs compatible strides.'", "'slicing would clip'",
                                                  "'the gathered weights'"], found
    fixed = toml.replace("步长兼容", "步幅兼容").replace("截断到边界", "钳位到边界").replace("聚合", "收集")
    assert check_translation(fixed, RULES, "demo.zh.toml") == []


def test_code_blocks_are_not_prose() -> None:
    page = "# 页\n\n```python\n# a Triton kernel\n```\n\n在 GPU 上生成 Triton kernel。\n"
    found = check_page(page, RULES, "zh/page.md")
    assert len(found) == 1 and found[0].startswith("zh/page.md:7: 'kernel'"), found
