// The {compat-changes} chooser (refsite.sphinxext.compat_changes): redraw the list of examples
// that behave differently between the two releases picked, from the compat/v1 entries the page
// holds, with compat_changes.code and compat_changes.changed: both releases have a result, and
// their codes differ.
(() => {
  "use strict";
  const esc = (text) => text.replace(/[&<>"]/g, (c) => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;"})[c]);
  const fill = (template, values) => template.replace(/\{(\w+)\}/g, (_, key) => values[key]);
  const shown = (code, words) => {
    const [kind, errorType] = code.split(": ");
    return fill(words[kind], {error_type: errorType || ""});
  };
  const short = (release) => release.split("+")[0].split(".").slice(0, 2).join(".");
  const code = (result) => result.result === "fails" ? `fails: ${result.error_type}`
    : result.result === "unmeasured" ? "" : result.result;
  const codes = (row) => Object.fromEntries(Object.entries(row.results).map(([r, v]) => [short(r), code(v)]));
  const draw = (widget, data) => {
    const old = widget.querySelector('select[name="old"]').value;
    const now = widget.querySelector('select[name="new"]').value;
    const words = data.words;
    let unknown = 0;
    const rows = [];
    for (const row of data.rows) {
      const found = codes(row);
      const a = found[old], b = found[now];
      if (!a || !b) { unknown += 1; continue; }
      if (a === b) continue;
      const name = esc(`${row.snippet} [${row.variant}]`);
      const link = row.url ? `<a href="${esc(row.url)}">${name}</a>` : name;
      rows.push(`<tr><td>${link}</td><td>${esc(shown(a, words))}</td><td>${esc(shown(b, words))}</td></tr>`);
    }
    widget.querySelector(".vs-compat-changes-summary").textContent = fill(words.summary, {
      changed: rows.length, total: data.rows.length - unknown, old: old, new: now, unknown: unknown});
    widget.querySelector("th.vs-old").textContent = fill(words.on, {release: old});
    widget.querySelector("th.vs-new").textContent = fill(words.on, {release: now});
    widget.querySelector("tbody").innerHTML = rows.join("");
  };
  const start = () => {
    for (const widget of document.querySelectorAll(".vs-compat-changes")) {
      const data = JSON.parse(widget.querySelector(".vs-compat-changes-data").textContent);
      for (const select of widget.querySelectorAll("select")) select.addEventListener("change", () => draw(widget, data));
    }
  };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
