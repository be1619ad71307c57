// Turns each .vs-tabs container into tabs: one button per .vs-tab-panel child, named by the
// panel's .vs-tab-label. Without this script the panels simply show stacked, with their labels.
//
// Rank outputs the directive marked .vs-ranks-columns start side by side (the stylesheet lays
// them out in columns, or stacks them where the block is too narrow): every panel stays
// visible, as a labelled group, and a switch beside the tab list, "all ranks", can be
// turned off (aria-pressed) to get ordinary tabs (class .vs-as-tabs) and on again. Its words hold
// in both layouts: on a phone the groups stack instead of standing side by side.
"use strict";

// The switch's text, by the page's language (<html lang>); English otherwise.
const VS_ALL_RANKS = { en: "all ranks", zh: "全部 rank" };

function vsAllRanksLabel() {
  const lang = (document.documentElement.lang || "en").split("-")[0];
  return VS_ALL_RANKS[lang] || VS_ALL_RANKS.en;
}

function vsInColumns(tabs) {
  return tabs.classList.contains("vs-ranks-columns") && !tabs.classList.contains("vs-as-tabs");
}

function vsSelect(tabs, index) {
  tabs.vsIndex = index;
  const columns = vsInColumns(tabs);
  tabs.vsButtons.forEach((button, i) => {
    const selected = i === index;
    button.setAttribute("aria-selected", String(selected));
    button.tabIndex = selected ? 0 : -1;
    const panel = tabs.vsPanels[i];
    panel.hidden = !selected && !columns;
    panel.setAttribute("role", columns ? "group" : "tabpanel");
  });
}

// Puts the tab list and the switch in one bar (a tab list holds only tabs).
function vsAddLayoutSwitch(tabs, list) {
  const toggle = document.createElement("button");
  toggle.type = "button";
  toggle.className = "vs-tab-button vs-layout-switch";
  toggle.textContent = vsAllRanksLabel();
  toggle.setAttribute("aria-pressed", "true");
  toggle.addEventListener("click", () => {
    const columns = tabs.classList.toggle("vs-as-tabs");  // true: now tabs
    toggle.setAttribute("aria-pressed", String(!columns));
    vsSelect(tabs, tabs.vsIndex);
  });
  const bar = document.createElement("div");
  bar.className = "vs-tab-bar";
  bar.append(list, toggle);
  return bar;
}

function vsSetUpTabs(tabs) {
  const panels = Array.from(tabs.children).filter((el) => el.classList.contains("vs-tab-panel"));
  if (panels.length === 0) return;
  const list = document.createElement("div");
  list.className = "vs-tab-list";
  list.setAttribute("role", "tablist");
  const buttons = panels.map((panel, i) => {
    const label = panel.querySelector(":scope > .vs-tab-label");
    const button = document.createElement("button");
    button.type = "button";
    button.className = "vs-tab-button";
    button.setAttribute("role", "tab");
    button.textContent = label ? label.textContent : String(i + 1);
    if (label) panel.setAttribute("aria-label", label.textContent);
    button.addEventListener("click", () => vsSelect(tabs, i));
    button.addEventListener("keydown", (event) => {
      const step = { ArrowRight: 1, ArrowLeft: -1 }[event.key];
      if (step === undefined) return;
      const next = (i + step + panels.length) % panels.length;
      vsSelect(tabs, next);
      buttons[next].focus();
    });
    list.appendChild(button);
    return button;
  });
  tabs.vsButtons = buttons;
  tabs.vsPanels = panels;
  const columns = tabs.classList.contains("vs-ranks-columns");
  tabs.insertBefore(columns ? vsAddLayoutSwitch(tabs, list) : list, tabs.firstChild);
  tabs.classList.add("vs-tabs-ready");
  vsSelect(tabs, 0);
}

// Each line of an output block becomes a block-level .vs-line, so that a line wider than the block
// wraps with a hanging indent (the stylesheet); a line that did wrap is marked .vs-line-wrapped
// (measured on load, again when the window is resized, and when a tab or column shows it).
function vsSplitLines(pre) {
  const text = pre.textContent.replace(/\n$/, "");
  pre.textContent = "";
  for (const line of text.split("\n")) {
    const span = document.createElement("span");
    span.className = "vs-line";
    span.textContent = line;
    pre.appendChild(span);
  }
}

function vsMarkWrapped() {
  document.querySelectorAll("div.vs-output pre .vs-line").forEach((line) => {
    if (!line.offsetParent) return;
    const range = document.createRange();
    range.selectNodeContents(line);
    const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
    line.classList.toggle("vs-line-wrapped", tops.size > 1);
  });
}

document.addEventListener("DOMContentLoaded", () => {
  document.querySelectorAll(".vs-tabs").forEach(vsSetUpTabs);
  document.querySelectorAll("div.vs-output pre").forEach(vsSplitLines);
  vsMarkWrapped();
  let pending = null;
  const later = () => { clearTimeout(pending); pending = setTimeout(vsMarkWrapped, 100); };
  window.addEventListener("resize", later);
  document.addEventListener("click", (event) => { if (event.target.closest(".vs-tab-button, .vs-layout-switch")) later(); });
});
