// Turns each .vs-tabs container into tabs: one button per .vs-tab-panel child, named by the
// panel's .vs-tab-label. Without this script the panels simply show stacked, with their labels.
"use strict";

function vsSelect(tabs, index) {
  tabs.vsButtons.forEach((button, i) => {
    const selected = i === index;
    button.setAttribute("aria-selected", String(selected));
    button.tabIndex = selected ? 0 : -1;
    tabs.vsPanels[i].hidden = !selected;
  });
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
    panel.setAttribute("role", "tabpanel");
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
  tabs.insertBefore(list, tabs.firstChild);
  tabs.classList.add("vs-tabs-ready");
  vsSelect(tabs, 0);
}

document.addEventListener("DOMContentLoaded", () => {
  document.querySelectorAll(".vs-tabs").forEach(vsSetUpTabs);
});
