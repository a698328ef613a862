"""The pages are ready before the first request: every template compiles, every game's board and
typed view load; and a log line is escaped as a template would escape it."""

from __future__ import annotations

from shadowtable.web.render import _log_line, warm_pages
from shadowtable.web.templating import ENV, PAGE_TEMPLATES


def test_warming_compiles_every_page_and_board_template() -> None:
    pages = [name for name in PAGE_TEMPLATES.list_templates() if name.endswith(".html")]
    compiled = warm_pages()
    assert compiled > len(pages) >= 20  # the boards' templates beside the pages'
    assert ENV.cache is not None and len(ENV.cache) >= compiled


def test_a_log_line_escapes_what_it_is_given() -> None:
    line = _log_line('<script>"x"</script> & co', 'move"', "2.1 <b>", "1", "1", 'g"1', "")
    assert "<script>" not in line and "&lt;script&gt;&#34;x&#34;&lt;/script&gt; &amp; co" in line
    assert 'class="event ev-move&#34; group-start"' in line and 'data-group="g&#34;1"' in line
    assert 'data-mine="1" data-private="1"' in line and "(rule: 2.1 &lt;b&gt;)" in line
    assert line.endswith("</li>\n") and "data-next" not in line


def test_a_plain_log_line_has_no_marks() -> None:
    assert _log_line("Seat 1 draws.", "draw", "", "", "", "", "") == '<li class="event ev-draw">Seat 1 draws.</li>\n'
