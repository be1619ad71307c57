// The {compat-changes} chooser (refsite.sphinxext.compat_changes): when another pair of releases
// is picked, fetch the results as compat/v1 publishes them (its index and area files, once) and
// redraw the list of examples that behave differently, with compat_changes.code and
// compat_changes.changed: both releases have a result, and their codes differ. The widget's
// data-drawn attribute names the pair its list shows ("2.6>2.10") once it is drawn.
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
  const codes = (entry) => Object.fromEntries(Object.entries(entry.results).map(([r, v]) => [short(r), code(v)]));
  const entries = new WeakMap();  // widget -> Promise of every variant of compat/v1
  const load = (widget, data) => {
    if (!entries.has(widget)) {
      const base = new URL(data.compat, document.baseURI);
      const json = (name) => fetch(new URL(name, base)).then((r) => {
        if (!r.ok) throw new Error(`${new URL(name, base).pathname}: HTTP ${r.status}`);
        return r.json();
      });
      entries.set(widget, json("index.json")
        .then((index) => Promise.all(index.areas.map((area) => json(area.file))))
        .then((areas) => areas.flatMap((area) => area.variants)));
    }
    return entries.get(widget);
  };
  const draw = async (widget, data) => {
    const old = widget.querySelector('select[name="old"]').value;
    const now = widget.querySelector('select[name="new"]').value;
    const words = data.words;
    const summary = widget.querySelector(".vs-compat-changes-summary");
    widget.dataset.drawn = "";
    summary.textContent = fill(words.loading, {old: old, new: now});
    let variants;
    try {
      variants = await load(widget, data);
    } catch (error) {
      entries.delete(widget);
      summary.textContent = fill(words.load_failed, {error: String(error.message || error)});
      return;
    }
    if (widget.querySelector('select[name="old"]').value !== old
        || widget.querySelector('select[name="new"]').value !== now) return;  // picked again meanwhile
    let unknown = 0;
    const rows = [];
    for (const entry of variants) {
      const found = codes(entry);
      const a = found[old], b = found[now];
      if (!a || !b) { unknown += 1; continue; }
      if (a === b) continue;
      const name = esc(`${entry.snippet} [${entry.variant}]`);
      const url = data.urls[entry.snippet];
      const link = url ? `<a href="${esc(url)}">${name}</a>` : name;
      rows.push(`<tr><td>${link}</td><td>${esc(shown(a, words))}</td><td>${esc(shown(b, words))}</td></tr>`);
    }
    summary.textContent = fill(words.summary, {
      changed: rows.length, total: variants.length - unknown, old: old, new: now, unknown: unknown});
    widget.querySelector("th.vs-old").textContent = fill(words.on, {release: old});
    widget.querySelector("th.vs-new").textContent = fill(words.on, {release: now});
    widget.querySelector("tbody").innerHTML = rows.join("");
    widget.dataset.drawn = `${old}>${now}`;
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
