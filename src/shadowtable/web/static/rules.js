// The rules page's search box: shows only the sections holding every word typed (and their
// entries in the contents), and says how many match.  Without scripts the box stays hidden.
const form = document.querySelector(".rules-search");
const input = document.getElementById("rules-filter");
const count = document.getElementById("rules-count");
const none = document.getElementById("rules-none");
const sections = Array.from(document.querySelectorAll(".rules-section"));
const contents = new Map(
  Array.from(document.querySelectorAll(".rules-toc li")).map((li) => [li.querySelector("a").hash.slice(1), li]),
);
const texts = new Map(sections.map((section) => [section, section.textContent.toLowerCase()]));

function filter() {
  const words = input.value.toLowerCase().split(/\s+/).filter(Boolean);
  let shown = 0;
  for (const section of sections) {
    const hit = words.every((word) => texts.get(section).includes(word));
    section.hidden = !hit;
    const entry = contents.get(section.id);
    if (entry) entry.hidden = !hit;
    if (hit) shown += 1;
  }
  none.hidden = shown > 0;
  count.textContent = words.length ? `${shown} of ${sections.length} sections` : "";
}

if (form && input) {
  form.hidden = false;
  form.addEventListener("submit", (event) => event.preventDefault());
  input.addEventListener("input", filter);
}
