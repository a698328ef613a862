// The replay page: arrow keys, Home and End follow the step links (the links work without this);
// "Copy link" copies this view's address; "Analyse this game" asks for the analysis and polls
// its progress, then reloads the page to show it (without JavaScript the form posts and the
// page says where the analysis stands).
const keys = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" };
document.addEventListener("keydown", (event) => {
  if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
  const target = event.target;
  if (target instanceof HTMLElement && target.closest("input, select, textarea, button, [contenteditable]")) return;
  const which = keys[event.key];
  const link = which && document.querySelector(`a[data-nav="${which}"]`);
  if (link) {
    event.preventDefault();
    window.location.assign(link.href);
  }
});

const share = document.getElementById("share-link");
const copy = document.getElementById("copy-link");
if (share && copy) {
  share.value = new URL(share.dataset.path, window.location.origin).href;
  copy.hidden = false;
  copy.addEventListener("click", async () => {
    const done = document.getElementById("copy-done");
    try {
      await navigator.clipboard.writeText(share.value);
      done.textContent = "Link copied.";
    } catch {
      share.select();
      done.textContent = "Select the link and copy it (Ctrl+C).";
    }
  });
}

const table = document.body.dataset.table;
const status = document.getElementById("analysis-status");
const api = `/api/tables/${encodeURIComponent(table)}/analysis`;
const WORDS = {
  none: "Not analysed yet.",
  queued: "Waiting for a free analysis worker…",
  running: "Analysing…",
  done: "Analysed: showing it…",
  failed: "The analysis failed.",
};

function show(answer) {
  let words = WORDS[answer.status] || answer.status;
  if (answer.status === "queued" || answer.status === "running") {
    const pct = Math.round(100 * (answer.progress || 0));
    words += ` ${pct}% done.`;
    let bar = document.getElementById("analysis-progress");
    if (!bar) {
      bar = document.createElement("progress");
      bar.id = "analysis-progress";
      bar.max = 100;
      bar.setAttribute("aria-label", "analysis progress");
      status.after(bar);
    }
    bar.value = pct;
  }
  if (answer.status === "failed" && answer.error) words += ` ${answer.error}.`;
  status.textContent = words;
  status.dataset.status = answer.status;
}

async function poll() {
  for (;;) {
    let answer;
    try {
      const reply = await fetch(api, { credentials: "same-origin", cache: "no-store" });
      answer = await reply.json();
      if (!reply.ok) {
        status.textContent = `The analysis cannot be shown: ${answer.error || reply.status}.`;
        return;
      }
    } catch {
      status.textContent = "The server did not answer; reload the page to try again.";
      return;
    }
    show(answer);
    if (answer.status === "done") {
      window.location.reload();
      return;
    }
    if (answer.status === "failed" || answer.status === "none") {
      const form = document.getElementById("analyse-form");
      if (form) form.hidden = false;
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

const form = document.getElementById("analyse-form");
if (form && status) {
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    form.hidden = true;
    status.textContent = "Asking for the analysis…";
    try {
      const reply = await fetch(api, { method: "POST", credentials: "same-origin" });
      const answer = await reply.json();
      if (!reply.ok) {
        status.textContent = `The analysis was refused: ${answer.error || reply.status}.`;
        form.hidden = false;
        return;
      }
      show(answer);
    } catch {
      status.textContent = "The server did not answer; try again.";
      form.hidden = false;
      return;
    }
    poll();
  });
}
const hint = document.getElementById("analysis-reload");
if (hint) hint.hidden = true;
if (status && (status.dataset.status === "queued" || status.dataset.status === "running")) poll();
