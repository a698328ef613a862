// The lobby's creation form: when the browser restored other choices than the ones its
// game-dependent part was drawn for (going back to the page), that part is fetched again.
// Checked when the page loads (the game and the player count) and when that part is swapped in
// (its player count), not when the table lists refresh.
htmx.onLoad((elt) => {
  const fieldset = document.querySelector("#setup > fieldset");
  if (!fieldset) return;
  const atStart = elt === document.body;
  const game = document.querySelector("select[name=game]");
  if (atStart && game && game.value !== fieldset.dataset.game) {
    htmx.trigger(game, "stale");
    return;
  }
  if (!atStart && !fieldset.contains(elt) && elt !== fieldset) return;
  const players = fieldset.querySelector("select[name=players]");
  if (players && players.value !== fieldset.dataset.players) htmx.trigger(players, "stale");
});

// Only the settings of the chosen way to play are shown (without scripts, both are, each titled).
function showModeSettings() {
  const mode = document.querySelector("select[name=mode]");
  if (!mode) return;
  for (const part of document.querySelectorAll("fieldset[data-mode]")) {
    part.hidden = part.dataset.mode !== mode.value;
  }
}
document.addEventListener("change", (event) => {
  if (event.target.matches && event.target.matches("select[name=mode]")) showModeSettings();
});
showModeSettings();
