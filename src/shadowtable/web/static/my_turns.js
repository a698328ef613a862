// The "My tables" badge on every page: how many of the player's tables wait for their decision,
// asked of the server every little while (less often while the tab is hidden).  The count shows
// in the header link, before the tab's title and as the favicon's badge; a table that newly waits
// plays the tone or shows the desktop notification the player turned on (never otherwise).

import { alertTable, showWaiting } from "./alerts.js";

const EVERY_MS = 20_000;
const HIDDEN_EVERY_MS = 60_000;
const known = new Set();
let first = true;
let timer = null;

function showBadge(count) {
  const badge = document.getElementById("my-turns");
  const shown = document.getElementById("my-turns-count");
  if (!badge || !shown) return;
  shown.textContent = count > 0 ? String(count) : "";
  badge.hidden = count === 0;
}

function alertNew(tables) {
  const here = document.body.dataset.table || "";
  for (const table of tables) {
    if (!known.has(table.id) && !first && table.id !== here) alertTable(table);
  }
  known.clear();
  for (const table of tables) known.add(table.id);
  first = false;
}

async function poll() {
  try {
    const answer = await fetch("/me/tables/count", { credentials: "same-origin", cache: "no-store" });
    if (answer.ok) {
      const data = await answer.json();
      const tables = Array.isArray(data.tables) ? data.tables : [];
      const count = Number(data.waiting) || 0;
      showBadge(count);
      showWaiting(count);
      alertNew(tables);
    }
  } catch {
    // offline or restarting: the badge keeps its last count until the next try
  }
  schedule();
}

function schedule() {
  clearTimeout(timer);
  timer = setTimeout(poll, document.hidden ? HIDDEN_EVERY_MS : EVERY_MS);
}

document.addEventListener("visibilitychange", () => {
  if (!document.hidden) poll();
});
poll();
