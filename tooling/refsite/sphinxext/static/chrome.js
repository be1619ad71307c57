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
  patch();
  document.addEventListener("DOMContentLoaded", patch);
})();
