/* Search result previews start from the page's content: the theme puts its header buttons (the
   colour-mode switcher's "System Settings Light Dark", the language link) and the page's table of
   contents inside the part of the page Sphinx reads previews from, so they are removed before
   it takes the text. */
(() => {
  const CHROME = [".bd-header-article", ".header-article-items", ".theme-switch-container", ".prev-next-footer",
                  ".bd-sidebar-secondary", ".bd-toc", "nav"].join(", ");
  const patch = () => {
    // searchtools.js declares `const Search`: a global name, not a property of window
    if (typeof Search === "undefined" || !Search.htmlToText || Search.htmlToText.vsPatched) return;
    const original = Search.htmlToText;
    Search.htmlToText = (htmlString, anchor) => {
      const page = new DOMParser().parseFromString(htmlString, "text/html");
      page.querySelectorAll(CHROME).forEach((element) => element.remove());
      return original(page.documentElement.outerHTML, anchor);
    };
    Search.htmlToText.vsPatched = true;
  };
  /* On the Chinese pages, among results that score alike (every page with a section title naming
     the term scores the same), a page whose own title begins with the searched term comes first,
     then one whose title holds it; Sphinx would otherwise order them by title, Latin letters
     before Chinese ones ("DTensor：分布式张量" before "张量判断函数…" for 张量). */
  const rank = () => {
    if (typeof Scorer === "undefined" || Scorer.score || !document.documentElement.lang.startsWith("zh")) return;
    const words = (new URLSearchParams(window.location.search).get("q") || "").trim().split(/\s+/).filter(Boolean);
    Scorer.score = (result) => {
      const page = (result[1] || "").split(" > ")[0];
      const bonus = words.some((w) => page.startsWith(w)) ? 2 : words.some((w) => page.includes(w)) ? 1 : 0;
      return result[4] + bonus;
    };
  };
  patch();
  rank();
  document.addEventListener("DOMContentLoaded", () => { patch(); rank(); });
})();

/* The navigation shows the page it is on. The theme restores the sidebar's scroll position of the
   previous page, so a page opened from search often showed another section and hid its own link;
   when it is hidden, the sidebar is scrolled to put it a quarter of the way down. */
(() => {
  const showCurrent = () => {
    const sidebar = document.querySelector("div.bd-sidebar");
    const item = [...document.querySelectorAll(".bd-docs-nav li.active")].pop();
    const link = item && (item.querySelector(":scope > a") || item);
    if (!sidebar || !link) return;
    const box = sidebar.getBoundingClientRect();
    const at = link.getBoundingClientRect();
    if (at.top < box.top || at.bottom > box.bottom) {
      sidebar.scrollTop += at.top - box.top - sidebar.clientHeight * 0.25;
    }
  };
  if (document.readyState === "complete") showCurrent();
  else window.addEventListener("load", showCurrent);
})();

/* Long API names in the page's contents and in the navigation wrap after "_" or ".", not in the
   middle of a word (the theme lets code break anywhere once a word does not fit): a break
   opportunity (<wbr>) follows each "_" and ".". */
(() => {
  const soften = () => document.querySelectorAll(".bd-toc code, .bd-sidenav code").forEach((code) => {
    if (code.dataset.vsSoft) return;
    code.dataset.vsSoft = "1";
    const parts = code.textContent.split(/(?<=[_.])/);
    code.textContent = "";
    parts.forEach((part, i) => {
      if (i) code.appendChild(document.createElement("wbr"));
      code.appendChild(document.createTextNode(part));
    });
  });
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", soften);
  else soften();
})();
