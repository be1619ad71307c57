"""The interface words (:mod:`refsite.interface_words`) and the one rule for a page's language
(:mod:`refsite.sphinxext.page_language`)."""

from __future__ import annotations

import ast
import re
import string
import types

import pytest

from refsite import interface_words
from refsite.interface_words import WORDS, words
from refsite.languages import LANGUAGES
from refsite.sphinxext.page_language import language_of, page_language, page_words
from tests.support.paths import REPO


def test_every_word_has_every_language() -> None:
    assert interface_words.gaps() == []
    for key, texts in WORDS.items():
        assert set(texts) == set(LANGUAGES), key
        assert all(texts.values()), key


def test_a_gap_is_named_by_key_and_language(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(WORDS, "demo.only_en", {"en": "only English"})
    monkeypatch.setitem(WORDS, "demo.empty_zh", {"en": "x", "zh": ""})
    monkeypatch.setitem(WORDS, "demo.extra", {"en": "x", "zh": "x", "fr": "x"})
    assert interface_words.gaps() == ["demo.only_en: zh", "demo.empty_zh: zh", "demo.extra: fr"]


def test_every_language_fills_the_same_fields() -> None:
    """A ``{field}`` in one language and not in another would print a raw brace or fail."""
    def fields(text: str) -> set[str]:
        return {name for _, name, _, _ in string.Formatter().parse(text) if name}

    for key, texts in WORDS.items():
        assert len({frozenset(fields(text)) for text in texts.values()}) == 1, key


def test_every_key_is_used_by_the_tooling() -> None:
    tooling = REPO / "tooling" / "refsite"
    sources = "\n".join(p.read_text(encoding="utf-8") for p in [*tooling.rglob("*.py"), *tooling.rglob("*.html")]
                        if p.name != "interface_words.py")
    sources = sources.replace("vs_words['", 'vs_words["').replace("']", '"]')  # templates quote with '

    prefixes = ("ledger.kind.", "ledger.reason.", "ledger.enumerated.", "gpu_variants.head_")  # built keys
    unused = [key for key in WORDS if f'"{key}"' not in sources and not key.startswith(prefixes)]
    assert unused == []


#: Modules that may hold Chinese text outside docstrings, and why.
NOT_WORDS = {
    "interface_words.py": "the table itself",
    "languages.py": "each language's own name and the project's title in it",
    "prose_outputs.py": "the page check's patterns for Chinese prose",
    "glossary_terms.py": "the page check reads the Chinese glossary's column header",
    "lang_switch.py": "a configuration value's description quotes a label as an example",
    "zh_search.py": "the question words a Chinese query leaves out, and the glossary's column header it reads",
}


def test_no_module_keeps_translations_of_its_own() -> None:
    """The words live in one table: no other module of the tooling has Chinese strings (but
    in its docstrings)."""
    chinese = re.compile(r"[\u4e00-\u9fff]")
    found = []
    for path in sorted((REPO / "tooling" / "refsite").rglob("*.py")):
        if path.name in NOT_WORDS:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        documented = (tree, *(n for n in ast.walk(tree) if isinstance(n, (ast.ClassDef, ast.FunctionDef))))
        docstrings = {id(n.body[0].value) for n in documented
                      if n.body and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}
        found += [f"{path.relative_to(REPO)}:{node.lineno}" for node in ast.walk(tree)
                  if isinstance(node, ast.Constant) and isinstance(node.value, str)
                  and chinese.search(node.value) and id(node) not in docstrings]
    assert found == [], "Chinese text outside refsite.interface_words: put it in WORDS"


def test_words_of_one_language() -> None:
    assert words("zh")["snippet.source"] == "源代码"
    assert words("en")["tooling_index.title"] == "Tooling index"
    with pytest.raises(KeyError, match="'fr' is not a language of the site"):
        words("fr")


@pytest.mark.parametrize(("sphinx_language", "tree"), [
    ("zh_CN", "zh"), ("zh", "zh"), ("zh-TW", "zh"), ("ZH_cn", "zh"),
    ("en", "en"), ("en_GB", "en"), (None, "en"), ("", "en"), ("fr", "en"),
])
def test_the_page_language_follows_the_sphinx_language(sphinx_language: str | None, tree: str) -> None:
    assert language_of(sphinx_language) == tree
    holder = types.SimpleNamespace(config=types.SimpleNamespace(language=sphinx_language))
    assert page_language(holder) == tree
    assert page_words(holder) == words(tree)


def test_each_tree_of_the_site_reads_as_itself() -> None:
    """``conf.py`` sets ``language`` from the tag: each tree's Sphinx language gives the tree back."""
    for tree, language in LANGUAGES.items():
        assert language_of(language.sphinx) == tree
