"""The rules pages in Chromium: the search box filters the sections, the page fits a 390 px phone,
and every text on it has a contrast of at least 4.5:1 (3:1 for large text) against its background.

With ``SHADOWTABLE_SCREENSHOTS`` set to a folder, the pages are saved there as
``rules-<game>-desktop.png`` (1280x800) and ``rules-<game>-phone.png`` (390 px wide)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from web.driver import _watch_csp

pytestmark = pytest.mark.browser

LOW_CONTRAST = """() => {
  const rgb = (text) => (text.match(/[\\d.]+/g) || []).map(Number);
  const lum = ([r, g, b]) => {
    const f = (c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  const background = (el) => {
    for (; el; el = el.parentElement) {
      const c = rgb(getComputedStyle(el).backgroundColor);
      if (c.length === 3 || (c.length === 4 && c[3] > 0.5)) return c.slice(0, 3);
    }
    return [255, 255, 255];
  };
  const low = [];
  for (const el of document.querySelectorAll("body *")) {
    const own = Array.from(el.childNodes).some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!own || !el.getClientRects().length) continue;
    const style = getComputedStyle(el);
    if (style.visibility === "hidden") continue;
    const a = lum(rgb(style.color).slice(0, 3)), b = lum(background(el));
    const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    const size = parseFloat(style.fontSize), bold = Number(style.fontWeight) >= 700;
    const large = size >= 24 || (bold && size >= 18.66);
    if (ratio < (large ? 3 : 4.5)) low.push(`${el.tagName} ${ratio.toFixed(2)} ${el.textContent.trim().slice(0, 40)}`);
  }
  return low;
}"""

VISIBLE_SECTIONS = "() => Array.from(document.querySelectorAll('.rules-section')).filter((s) => !s.hidden).length"
SHOWN_TEXTS = "() => Array.from(document.querySelectorAll('.rules-section:not([hidden])'), (s) => s.textContent)"


def _open(browser: Any, url: str, width: int, height: int) -> Any:
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.on("console", _watch_csp)
    page.goto(url)
    return page


def _save(page: Any, name: str) -> None:
    folder = os.environ.get("SHADOWTABLE_SCREENSHOTS")
    if folder:
        page.screenshot(path=str(Path(folder) / name))


@pytest.mark.parametrize("game_id", ["shadow-planet", "shadowlord"])
def test_the_rules_page_searches_and_reads_on_a_desktop_and_a_phone(
    browser: Any, live_server: Any, game_id: str
) -> None:
    server = live_server()
    page = _open(browser, f"{server.url}/rules/{game_id}", 1280, 800)
    assert page.locator("h1").inner_text().startswith("Rules of")
    assert page.evaluate(LOW_CONTRAST) == []
    _save(page, f"rules-{game_id}-desktop.png")
    every = page.evaluate(VISIBLE_SECTIONS)
    word = "Moonette" if game_id == "shadow-planet" else "Spacestorm"
    page.fill("#rules-filter", word)
    shown = page.evaluate(VISIBLE_SECTIONS)
    assert 0 < shown < every
    texts = page.evaluate(SHOWN_TEXTS)
    assert all(word.lower() in text.lower() for text in texts)
    assert f"{shown} of {every} sections" in page.locator("#rules-count").inner_text()
    page.fill("#rules-filter", "zzzz-no-such-word")
    assert page.evaluate(VISIBLE_SECTIONS) == 0 and page.locator("#rules-none").is_visible()
    page.fill("#rules-filter", "")
    assert page.evaluate(VISIBLE_SECTIONS) == every
    page.context.close()

    phone = _open(browser, f"{server.url}/rules/{game_id}", 390, 844)
    assert phone.evaluate("() => document.documentElement.scrollWidth") <= 390, "the page scrolls sideways"
    assert phone.evaluate(LOW_CONTRAST) == []
    _save(phone, f"rules-{game_id}-phone.png")
    phone.context.close()
