"""refsite.sphinxext.theme_css: what the cut keeps and drops, rule by rule (the browser test
holds the built site's styles to the whole stylesheet's)."""

from __future__ import annotations

from pathlib import Path

from refsite.sphinxext.theme_css import THEME_CSS, prune, prune_output, usable_classes

CSS = """/*! licence */
/* a comment with .unused-word in it */
html{color:red}
.used,.unused{margin:0}
.unused .used{padding:0}
dl:not(.option-list) .used{gap:1px}
[data-theme=dark] .used{color:#fff}
@media (min-width:960px){.unused{display:none}}
@media (min-width:960px){.used>.unused,.used{display:flex}}
@font-face{font-family:x;src:url(../a.woff2)}
@keyframes spin{to{transform:rotate(1turn)}}
a.used:is(.unused,.used)::before{content:"\\f002"}
"""


def test_the_cut_keeps_the_rules_a_usable_class_needs_and_nothing_named_by_an_unused_one() -> None:
    assert prune(CSS, {"used"}) == (
        "/*! licence */\n\n\nhtml{color:red}\n.used{margin:0}\ndl:not(.option-list) .used{gap:1px}\n"
        "[data-theme=dark] .used{color:#fff}\n@media (min-width:960px){.used{display:flex}}\n"
        "@font-face{font-family:x;src:url(../a.woff2)}\n@keyframes spin{to{transform:rotate(1turn)}}\n"
        "a.used:is(.unused,.used)::before{content:\"\\f002\"}\n")


def test_the_classes_of_pages_and_the_words_of_scripts_are_usable(tmp_path: Path) -> None:
    (tmp_path / "a.html").write_text('<div class="used other">x</div>', encoding="utf-8")
    (tmp_path / "theme.js").write_text('el.classList.add("show")', encoding="utf-8")
    (tmp_path / "searchindex.js").write_text('Search.setIndex({"terms": ["nothere"]})', encoding="utf-8")
    classes = usable_classes(tmp_path)
    assert {"used", "other", "show", "classList"} <= classes and "nothere" not in classes
    (tmp_path / THEME_CSS).parent.mkdir(parents=True)
    (tmp_path / THEME_CSS).write_text(CSS, encoding="utf-8")
    before, after = prune_output(tmp_path)
    assert before == len(CSS.encode()) and after < before
    assert ".unused{display:none}" not in (tmp_path / THEME_CSS).read_text(encoding="utf-8")
