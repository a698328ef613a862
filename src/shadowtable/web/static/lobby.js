// The lobby's creation form: when the browser restored other choices than the ones the
// game-dependent part was drawn for (going back to the page), that part is fetched again.
htmx.onLoad(() => {
  const fieldset = document.querySelector("#setup > fieldset");
  const game = document.querySelector("select[name=game]");
  if (!fieldset || !game) return;
  if (game.value !== fieldset.dataset.game) {
    htmx.trigger(game, "stale");
    return;
  }
  const players = fieldset.querySelector("select[name=players]");
  if (players && players.value !== fieldset.dataset.players) htmx.trigger(players, "stale");
});
