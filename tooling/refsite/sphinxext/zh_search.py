"""Chinese search that runs in the browser with Sphinx 9.0, for queries typed without spaces.

Sphinx's ``zh`` search language segments the pages with jieba when it builds the index, but
splits a query only at spaces and punctuation: 保存检查点 stays one term, which the index does
not hold, and since every term must match, the search finds nothing. So the query is segmented
in the browser too (:data:`SPLITTER`), against the index's own words: each run of Chinese
characters is cut, left to right, into the longest words the index holds (the words jieba made
of the pages, so query and index are cut alike, with no dictionary to download), and what the
index does not hold, or only asks (如何, 吗, :data:`QUESTION_WORDS`), is left out, so a question
keeps its content words. Latin words are split as Sphinx splits them. Pages are then ranked as
in English (:mod:`refsite.sphinxext.search_ranking`).

Sphinx 9.0 also names the stemmer after the language in ``language_data.js`` (``window.Stemmer
= ChineseStemmer``), a class that does not exist, so every search failed with a
``ReferenceError`` (sphinx-doc/sphinx#14229): the stemmer code is inlined under its real name.
"""

from __future__ import annotations

import json
import re
import typing
from pathlib import Path

import sphinx.search
from sphinx.application import Sphinx
from sphinx.search.zh import SearchChinese
from refsite import __version__
from refsite.sphinxext.search_ranking import RANKING

_MINIFIED = Path(sphinx.search.__file__).with_name("minified-js")


#: Words of a question that say nothing about what it is about.
QUESTION_WORDS = ("如何", "怎么", "怎样", "怎么样", "什么", "为什么", "为何", "哪些", "哪个", "哪里", "是否",
                  "能否", "可以", "需要", "应该", "时候", "时", "吗", "呢", "吧", "的", "了", "在", "和", "与",
                  "及", "或", "中", "里", "把", "被", "是", "有", "我", "我们", "你", "要", "用", "一个")

#: ``splitQuery`` for language_data.js (searchtools.js keeps a splitQuery defined before it).
SPLITTER = """
const ZH_QUESTION_WORDS = new Set(%s);
const ZH_SYNONYMS = new Map(Object.entries(%s));
var splitQuery = (query) => {
  const index = (typeof Search !== "undefined" && Search._index) ? Search._index : null;
  const has = (table, word) => Object.prototype.hasOwnProperty.call(table, word);
  const known = (word) => index !== null && (has(index.terms, word) || has(index.titleterms, word));
  const words = [];
  for (const piece of query.split(/[^\\p{Letter}\\p{Number}_\\p{Emoji_Presentation}]+/gu)) {
    for (let run of piece.match(/\\p{Script=Han}+|[^\\p{Script=Han}]+/gu) || []) {
      if (!/\\p{Script=Han}/u.test(run) || index === null) {
        words.push(run);
        continue;
      }
      for (const [rejected, term] of ZH_SYNONYMS) run = run.split(rejected).join(term);
      for (let start = 0; start < run.length;) {
        let end = Math.min(run.length, start + 8);
        while (end > start + 1 && !known(run.slice(start, end))) end--;
        const word = run.slice(start, end);
        if (known(word) && !ZH_QUESTION_WORDS.has(word)) words.push(word);
        start = end;
      }
    }
  }
  return words;
};
"""


def splitter(synonyms: dict[str, str]) -> str:
    """:data:`SPLITTER` with ``synonyms`` (a rendering the glossary does not use -> its term),
    longest first, replaced in a query before it is cut."""
    ordered = dict(sorted(synonyms.items(), key=lambda item: -len(item[0])))
    return SPLITTER % (json.dumps(list(QUESTION_WORDS), ensure_ascii=False),
                       json.dumps(ordered, ensure_ascii=False)) + RANKING


def glossary_synonyms(text: str) -> dict[str, str]:
    """From the Chinese glossary's tables: each rendering of the "不用" column -> the row's
    first term, where the rendering is all Chinese and is no row's own term (步长 is step's term,
    so it is never replaced for stride's). A reader who types 随机种子 finds the pages on 种子."""
    rows, column = [], None
    for line in text.splitlines():
        if not line.startswith("|"):
            column = None
            continue
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if "不用" in cells:
            column = cells.index("不用")
        elif column is not None and not set(cells[0]) <= set("-: ") and len(cells) > column:
            rows.append((_terms(cells[1]), _terms(cells[column])))
    accepted = {term for terms, _ in rows for term in terms}
    return {rejected: terms[0] for terms, rejects in rows if terms for rejected in rejects
            if re.fullmatch(r"[\u4e00-\u9fff]+", rejected) and rejected not in accepted}


def _terms(cell: str) -> list[str]:
    return [t.strip() for t in re.split(r"[、；;,，]", re.sub(r"[（(][^）)]*[）)]", "", cell)) if t.strip()]


class SearchChineseFixed(SearchChinese):
    """:class:`~sphinx.search.zh.SearchChinese` whose JavaScript stemmer is defined and whose
    query splitter segments Chinese (:func:`splitter`; the ``glossary`` search option names the
    Chinese glossary its synonyms come from)."""

    js_stemmer_rawcode = ""
    js_stemmer_code = "\n".join((
        (_MINIFIED / "base-stemmer.js").read_text(encoding="utf-8"),
        (_MINIFIED / SearchChinese.js_stemmer_rawcode).read_text(encoding="utf-8"),
        "window.Stemmer = EnglishStemmer;",
    ))

    def __init__(self, options: dict[str, str]) -> None:
        super().__init__(options)
        glossary = options.get("glossary")
        text = Path(glossary).read_text(encoding="utf-8") if glossary else ""
        self.js_splitter_code = splitter(glossary_synonyms(text))


def setup(app: Sphinx) -> dict[str, typing.Any]:
    """Register the ``zh`` search language."""
    app.add_search_language(SearchChineseFixed)
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True}
