// The designer's lab pages: the players offered for the chosen game, the variant and content
// switches of the new run form, the rules ledger's filter, and a run's progress read every second until it stops.

const game = document.getElementById("lab-game");
const players = document.getElementById("lab-players");
if (game && players) {
  const offer = () => {
    let first = null;
    for (const option of players.options) {
      option.hidden = option.dataset.game !== game.value;
      option.disabled = option.hidden;
      if (!option.hidden && first === null) first = option;
    }
    if (players.selectedOptions[0]?.hidden && first) first.selected = true;
  };
  game.addEventListener("change", offer);
  offer();
}

for (const box of document.querySelectorAll("[data-content-toggle]")) {
  const area = document.getElementById(`v${box.dataset.contentToggle}-content`);
  const sync = () => { if (area) area.disabled = !box.checked; };
  box.addEventListener("change", sync);
  sync();
}

for (const box of document.querySelectorAll("[data-variant-toggle]")) {
  const body = document.querySelector(`.variant-body[data-variant="${box.dataset.variantToggle}"]`);
  const sync = () => { if (body) body.hidden = !box.checked; };
  box.addEventListener("change", sync);
  sync();
}

const run = document.getElementById("lab-run");
if (run && (["queued", "running"].includes(run.dataset.status) || run.dataset.claimed === "yes")) {
  const words = { queued: "waiting for a worker", running: "playing", stopped: "stopped", done: "done", failed: "failed" };
  const poll = async () => {
    try {
      const answer = await fetch(`/api/lab/runs/${encodeURIComponent(run.dataset.run)}`, { credentials: "same-origin" });
      if (answer.ok) {
        const status = await answer.json();
        const done = status.done.reduce((a, b) => a + b, 0);
        document.getElementById("run-done").textContent = String(done);
        document.getElementById("run-progress").value = status.progress;
        document.getElementById("run-status-words").textContent = words[status.status] || status.status;
        if (status.status !== run.dataset.status || (run.dataset.claimed === "yes" && !status.claimed)) {
          if (!["queued", "running"].includes(status.status) || status.status !== run.dataset.status) {
            window.location.reload();
            return;
          }
        }
      }
    } catch (error) {
      // the server restarting: the next poll tries again
    }
    setTimeout(poll, 1000);
  };
  setTimeout(poll, 1000);
}

const filter = document.getElementById("ledger-filter");
if (filter) {
  document.getElementById("ledger-filter-row").hidden = false;
  const apply = () => {
    const wanted = filter.value.trim().toLowerCase();
    for (const section of document.querySelectorAll("#lab-ledger details")) {
      let shown = 0;
      for (const row of section.querySelectorAll("tbody tr")) {
        row.hidden = wanted !== "" && !row.textContent.toLowerCase().includes(wanted);
        if (!row.hidden) shown += 1;
      }
      section.hidden = shown === 0;
      section.open = wanted !== "" && shown > 0;
    }
  };
  filter.addEventListener("input", apply);
  filter.addEventListener("keydown", (event) => { if (event.key === "Enter") event.preventDefault(); });
}
