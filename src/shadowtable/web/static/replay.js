// The replay page: arrow keys, Home and End follow the step links (the links work without this).
const keys = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" };
document.addEventListener("keydown", (event) => {
  if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
  const target = event.target;
  if (target instanceof HTMLElement && target.closest("input, select, textarea, [contenteditable]")) return;
  const which = keys[event.key];
  const link = which && document.querySelector(`a[data-nav="${which}"]`);
  if (link) {
    event.preventDefault();
    window.location.assign(link.href);
  }
});
