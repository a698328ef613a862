"""A game's rulebook text read into sections with anchors, for the rules page.

The rulebook ships with its game as ``data/rulebook.txt``: a title, a table of contents (a bulleted
list, two spaces of indent per level), then the body.  A heading is a paragraph of one short line
that does not end as a sentence does; its level comes from the table of contents (a heading the
table does not list sits one level below the listed heading before it).  A paragraph or list item
that opens with a short ``Term:`` gets an anchor of its own, so that a rule quoted as ``Section >
Term`` can be linked to the place it is written.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

BULLET = "•"
SENTENCE_ENDS = ".:!?,;"
MAX_HEADING = 70
MAX_TERM = 50
TERM = re.compile(r"^([^:]{1,50}):\s+(.*)$", re.DOTALL)


@dataclass(frozen=True)
class Text:
    """A paragraph or list item: its lead term (``Voting`` of ``Voting: ...``; may be empty),
    the rest, and the lead term's anchor."""

    lead: str
    body: str
    anchor: str = ""


@dataclass(frozen=True)
class Item:
    text: Text
    children: tuple[Item, ...] = ()


@dataclass(frozen=True)
class Block:
    """A paragraph (``text``), a bulleted list (``items``) or a table (``rows``, the first the header)."""

    kind: str
    text: Text | None = None
    items: tuple[Item, ...] = ()
    rows: tuple[tuple[str, ...], ...] = ()


@dataclass(frozen=True)
class Section:
    """One heading of the rulebook and what it holds up to the next heading.  ``level`` 0 is a
    top heading; ``path`` names the headings above it, outermost first."""

    title: str
    anchor: str
    level: int
    path: tuple[str, ...]
    blocks: tuple[Block, ...]


def slug(text: str) -> str:
    """``text`` as an anchor: lower case, words joined by hyphens (``Step 6 - Fight``: ``step-6-fight``)."""
    return "-".join(re.findall(r"[a-z0-9]+", text.lower().replace("'", ""))) or "section"


def unique(anchor: str, taken: set[str]) -> str:
    """``anchor``, or with ``-2``, ``-3``... after it if taken; recorded as taken."""
    found, n = anchor, 1
    while found in taken:
        n += 1
        found = f"{anchor}-{n}"
    taken.add(found)
    return found


def paragraphs(text: str) -> list[str]:
    return [chunk.strip("\n") for chunk in re.split(r"\n[ \t]*\n", text) if chunk.strip()]


def is_heading(chunk: str) -> bool:
    line = chunk.strip()
    return (
        "\n" not in line
        and "\t" not in line
        and not line.startswith(BULLET)
        and len(line) <= MAX_HEADING
        and line[-1] not in SENTENCE_ENDS
    )


def contents_levels(chunk: str) -> list[tuple[str, int]]:
    """The table of contents' entries with their levels (two spaces of indent per level)."""
    entries = []
    for line in chunk.splitlines():
        indent = len(line) - len(line.lstrip(" "))
        entries.append((line.strip().removeprefix(BULLET).strip(), indent // 2))
    return entries


def split_contents(text: str) -> tuple[list[tuple[str, int]], list[str]]:
    """The table of contents' entries and the body's paragraphs (the title and contents left out).
    A rulebook with no table of contents is all body, every heading at the top level."""
    chunks = paragraphs(text)
    for i, chunk in enumerate(chunks):
        if chunk.lstrip().startswith(BULLET) and i and chunks[i - 1].strip() == "Table of Contents":
            return contents_levels(chunk), chunks[i + 1 :]
    return [], chunks[1:] if chunks and is_heading(chunks[0]) else chunks


def heading_levels(headings: list[str], contents: list[tuple[str, int]]) -> list[int]:
    """Each heading's level: as the table of contents lists it (matched in order), else one
    below the last listed heading."""
    levels, at, last = [], 0, -1
    for title in headings:
        if at < len(contents) and contents[at][0] == title:
            last = contents[at][1]
            levels.append(last)
            at += 1
        else:
            levels.append(last + 1)
    return levels


def lead_text(line: str, anchor_of: str, taken: set[str]) -> Text:
    """A paragraph or item, its lead term (if it has a short one) anchored under ``anchor_of``."""
    found = TERM.match(line)
    if found is None or len(found.group(1).split()) > 8:
        return Text("", line)
    term = found.group(1).strip()
    return Text(term, found.group(2), unique(f"{anchor_of}--{slug(term)}", taken))


def bullet_items(lines: list[str], anchor_of: str, taken: set[str]) -> tuple[Item, ...]:
    """Bulleted lines as nested items (two spaces of indent per level)."""
    parsed = [(len(line) - len(line.lstrip(" ")), line.strip().removeprefix(BULLET).strip()) for line in lines]
    return _items(parsed, 0, len(parsed), anchor_of, taken)


def _items(parsed: list[tuple[int, str]], start: int, stop: int, anchor_of: str, taken: set[str]) -> tuple[Item, ...]:
    items, i = [], start
    while i < stop:
        indent, line = parsed[i]
        end = i + 1
        while end < stop and parsed[end][0] > indent:
            end += 1
        text = lead_text(line, anchor_of, taken)
        items.append(Item(text, _items(parsed, i + 1, end, anchor_of, taken)))
        i = end
    return tuple(items)


def chunk_blocks(chunk: str, anchor_of: str, taken: set[str]) -> list[Block]:
    """One paragraph of the body as blocks: a table (tab-separated lines), else each run of
    bulleted lines a list and each other line a paragraph."""
    lines = chunk.splitlines()
    if all("\t" in line for line in lines):
        return [Block("table", rows=tuple(tuple(cell.strip() for cell in line.split("\t")) for line in lines))]
    blocks: list[Block] = []
    run: list[str] = []
    for line in [*lines, ""]:
        if line.lstrip().startswith(BULLET):
            run.append(line)
            continue
        if run:
            blocks.append(Block("list", items=bullet_items(run, anchor_of, taken)))
            run = []
        if line.strip():
            blocks.append(Block("p", text=lead_text(line.strip(), anchor_of, taken)))
    return blocks


def parse_rulebook(text: str) -> list[Section]:
    """The rulebook's body as sections, in order (text before the first heading is a section
    named ``Introduction``)."""
    contents, body = split_contents(text)
    levels = iter(heading_levels([chunk.strip() for chunk in body if is_heading(chunk)], contents))
    taken: set[str] = set()
    sections: list[Section] = []
    open_headings: list[tuple[str, int]] = []  # the headings above the current one, and it
    blocks: list[Block] = []
    current = Section("Introduction", "", 0, (), ())
    for chunk in body:
        if not is_heading(chunk):
            if not current.anchor:
                current = Section(current.title, unique(slug(current.title), taken), 0, (), ())
            blocks.extend(chunk_blocks(chunk, current.anchor, taken))
            continue
        if blocks or current.anchor:
            sections.append(Section(current.title, current.anchor, current.level, current.path, tuple(blocks)))
        title, level = chunk.strip(), next(levels)
        open_headings = [(t, lv) for t, lv in open_headings if lv < level]
        path = tuple(t for t, _ in open_headings)
        current, blocks = Section(title, section_anchor(title, list(path), taken), level, path, ()), []
        open_headings.append((title, level))
    sections.append(Section(current.title, current.anchor, current.level, current.path, tuple(blocks)))
    return sections


def section_anchor(title: str, path: list[str], taken: set[str]) -> str:
    """A heading's anchor: its title's slug, else (a repeated title) with its parent's before it."""
    own = slug(title)
    if own not in taken or not path:
        return unique(own, taken)
    return unique(f"{slug(path[-1])}-{own}", taken)


def find_anchor(sections: list[Section], where: str) -> str | None:
    """The anchor of a place named as a rule quote names it (``Step 6 - Fight > Calling in Allies``;
    after a ``;`` another place, ignored): the heading or lead term named last, under the one
    named before it; else the place named before it; ``None`` if nothing matches."""
    parts = [part.strip() for part in where.split(";")[0].split(">") if part.strip()]
    while parts:
        found = _named(sections, parts[-1], parts[-2] if len(parts) > 1 else None)
        if found is not None:
            return found
        parts.pop()
    return None


def _named(sections: list[Section], name: str, parent: str | None) -> str | None:
    within = [s for s in sections if parent is None or parent == s.title or parent in s.path]
    for section in within:
        if section.title == name:
            return section.anchor
    for section in within:
        for text in section_texts(section):
            if text.lead == name and text.anchor:
                return text.anchor
    return None


def section_texts(section: Section) -> list[Text]:
    """Every paragraph and list item of ``section``, in order."""
    found: list[Text] = []
    for block in section.blocks:
        if block.text is not None:
            found.append(block.text)
        found.extend(_item_texts(block.items))
    return found


def _item_texts(items: tuple[Item, ...]) -> list[Text]:
    found: list[Text] = []
    for item in items:
        found.append(item.text)
        found.extend(_item_texts(item.children))
    return found
