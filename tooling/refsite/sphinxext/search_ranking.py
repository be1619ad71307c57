"""Full-text search that ranks pages by how many of a query's words they hold, weighted by how
rare each word is, in both languages.

Sphinx's own term search (``Search.performTermsSearch`` in searchtools.js) keeps only the pages
that hold every word of the query and scores each by its best word alone: a question, or a phrase
with one word the site does not use ("average loss across ranks"), finds nothing, and for
混合精度训练 every page with 训练 in its title ties with the mixed-precision page. :data:`RANKING`
replaces it for queries of two or more words: a page must hold at least half of them; its score
is the mean of its per-word scores (Sphinx's: a word in the title 15, in the text 5, part of a
word 7 or 2), each word weighted by its inverse document frequency, so 混合精度 counts more than
训练, and divided by the page's length in distinct words relative to the mean (half of it), so
that a page which holds nearly every word (the A-Z index, the coverage table) does not come first. A one-word query is scored as Sphinx scores it, so an API name still finds its entry first.
A result's preview is fetched only when the result comes near the screen, each page once, and
from the page's small preview file (:mod:`refsite.sphinxext.search_previews`), not the page
(Sphinx fetches every result's whole page at once).
An object whose dotted name ends with a dotted query ("fft.rfft") is scored above a page title
that holds its words, and among objects of one name the one spelled as typed, then
``torch.nn.functional``'s, torch's top-level names and the Tensor's members come first (what code
calls most: ``F.softmax``, ``torch.topk`` before ``Tensor.topk``, ``x.size()`` before ``torch.Size``).
The code goes into ``language_data.js``, which search pages load after searchtools.js.
"""

from __future__ import annotations

import typing

from sphinx.application import Sphinx
from sphinx.search.en import SearchEnglish

from refsite import __version__

RANKING = """
(() => {
  // An API name typed with its namespace ("fft.rfft", "cuda.is_available": searchtools.js splits
  // the query at the dots) finds the object whose dotted name ends with it first; among objects of
  // one name, the one spelled as typed, then torch.nn.functional's, torch's own functions and the
  // Tensor's members (what code calls most) come before those of other classes.
  const typed = () => (new URLSearchParams(window.location.search).get("q") || "").trim();
  const sphinxObjectSearch = Search.performObjectSearch;
  Search.performObjectSearch = (object, objectTerms) => {
    const query = typed();  // once per search, not once per object found
    return sphinxObjectSearch(object, objectTerms).map((result) => {
      const name = result[1];
      const lower = name.toLowerCase();
      if (query.includes(".") && (lower === query.toLowerCase() || lower.endsWith("." + query.toLowerCase())))
        result[4] += Scorer.objNameMatch + Scorer.title;
      // spelled as typed first (size: Tensor.size before torch.Size), then torch.nn.functional's
      // (softmax: what code calls), torch's own (topk: torch.topk), the Tensor method of the name
      if (name.split(".").slice(-1)[0] === query.split(".").slice(-1)[0]) result[4] += 4;
      if (lower.startsWith("torch.nn.functional.")) result[4] += 3;
      else if (lower.split(".").length === 2) result[4] += 2;
      else if (lower.startsWith("torch.tensor.")) result[4] += 1;
      return result;
    });
  };
  const sphinxTermsSearch = Search.performTermsSearch;
  Search.performTermsSearch = (searchTerms, excludedTerms) => {
    const words = [...searchTerms];
    if (words.length < 2) return sphinxTermsSearch(searchTerms, excludedTerms);
    const index = Search._index;
    const filesOf = (table, word) => {
      if (!Object.prototype.hasOwnProperty.call(table, word)) return [];
      const found = table[word];
      return found.length === undefined ? [found] : found;
    };
    const partial = (table, word) => word.length > 2 && !Object.prototype.hasOwnProperty.call(table, word)
      ? Object.keys(table).filter((term) => term.includes(word)).flatMap((term) => filesOf(table, term)) : [];
    const pages = index.docnames.length;
    if (Search.refsiteLengths === undefined) {  // distinct words per page, counted once
      Search.refsiteLengths = new Array(pages).fill(0);
      for (const word of Object.keys(index.terms)) filesOf(index.terms, word).forEach((f) => Search.refsiteLengths[f]++);
    }
    const lengths = Search.refsiteLengths;
    const meanLength = lengths.reduce((sum, n) => sum + n, 0) / pages;
    const scores = new Map();  // file -> Map(word -> best score)
    const weights = new Map();
    for (const word of words) {
      const found = new Map();
      const note = (files, score) => files.forEach((file) => found.set(file, Math.max(found.get(file) || 0, score)));
      note(filesOf(index.terms, word), Scorer.term);
      note(filesOf(index.titleterms, word), Scorer.title);
      note(partial(index.terms, word), Scorer.partialTerm);
      note(partial(index.titleterms, word), Scorer.partialTitle);
      weights.set(word, Math.log(1 + pages / (1 + found.size)));
      for (const [file, score] of found) {
        if (!scores.has(file)) scores.set(file, new Map());
        scores.get(file).set(word, score);
      }
    }
    const excluded = new Set([...excludedTerms].flatMap((word) =>
      [...filesOf(index.terms, word), ...filesOf(index.titleterms, word)]));
    const needed = Math.ceil(words.length / 2);
    const total = words.reduce((sum, word) => sum + weights.get(word), 0);
    const results = [];
    for (const [file, found] of scores) {
      if (found.size < needed || excluded.has(file)) continue;
      let score = 0;
      for (const [word, wordScore] of found) score += wordScore * weights.get(word);
      score /= 0.5 + 0.5 * lengths[file] / meanLength;  // a page of every word (an index) matches anything
      results.push([index.docnames[file], index.titles[file], "", null, Math.round(score / total * 10) / 10,
                    index.filenames[file], SearchResultKind.text]);
    }
    return results;
  };
})();
(() => {
  // Previews: searchtools.js fetches every result's page as soon as it lists it (megabytes for a
  // common word). Here a page's preview file (its prose alone, refsite.sphinxext.search_previews)
  // is fetched only when its result comes near the screen, and once for all its results.
  if (!DOCUMENTATION_OPTIONS.SHOW_SEARCH_SUMMARY) return;
  DOCUMENTATION_OPTIONS.SHOW_SEARCH_SUMMARY = false;  // read by searchtools.js per result
  const query = new URLSearchParams(window.location.search).get("q") || "";
  const split = typeof splitQuery === "function" ? splitQuery : (q) => q.split(" ");
  const keywords = new Set(split(query.toLowerCase()).filter((word) => word));
  const pages = new Map();  // page URL -> promise of its HTML
  const fetchPage = (url) => {
    if (!pages.has(url)) pages.set(url, fetch(url).then((response) => response.text()).catch(() => ""));
    return pages.get(url);
  };
  const root = new URL(document.documentElement.dataset.content_root || "./", window.location.href).href;
  const preview = (item) => {
    const link = item.querySelector("a");
    const url = new URL(link.href);
    const anchor = url.hash;
    url.hash = "";
    if (!url.href.startsWith(root)) return;  // not a page of this site: nothing to preview
    fetchPage(root + "_previews/" + url.href.slice(root.length)).then((html) => {
      const summary = html && Search.makeSearchSummary(html, keywords, anchor);
      if (!summary) return;
      item.appendChild(summary);
      if (typeof SPHINX_HIGHLIGHT_ENABLED !== "undefined" && SPHINX_HIGHLIGHT_ENABLED)
        keywords.forEach((word) => _highlightText(item, word, "highlighted"));
    });
  };
  const seen = new IntersectionObserver((entries) => entries.forEach((entry) => {
    if (!entry.isIntersecting) return;
    seen.unobserve(entry.target);
    preview(entry.target);
  }), { rootMargin: "200px" });
  // Objects (kind-object) show their description instead of a preview, as in searchtools.js.
  new MutationObserver((changes) => changes.forEach((change) => change.addedNodes.forEach((node) => {
    if (node.nodeName === "LI" && !node.classList.contains("kind-object") && node.querySelector("a")
        && node.parentElement && node.parentElement.matches("#search-results ul.search"))  // not the navigation
      seen.observe(node);
  }))).observe(document.documentElement, { childList: true, subtree: true });  // no body yet
})();
"""


class SearchEnglishRanked(SearchEnglish):
    """Sphinx's English search with :data:`RANKING`."""

    js_splitter_code = RANKING


def setup(app: Sphinx) -> dict[str, typing.Any]:
    """Register the ``en`` search language with the ranking (``zh``: :mod:`.zh_search`)."""
    app.add_search_language(SearchEnglishRanked)
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True}
