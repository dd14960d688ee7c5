"""A battle system's rules document (its registry entry's `rules`, a copy of the project's canonical
shared/rules beside the system's code) as a page, so that each term of a battle report can link to the
section that produced it.

A small reader for the Markdown the document uses (headings, paragraphs, lists, tables, **bold**,
`code`), not a general one: the project takes no Markdown dependency for one page.
"""

from __future__ import annotations

import re
from functools import cache
from html import escape

from django.utils.safestring import SafeString, mark_safe

from rules.engine.systems import DEFAULT_SYSTEM, system_get

SECTION = re.compile(r"§(\d+(?:\.\d+)?)")


def rule_anchor(rule: str | None) -> str | None:
    """ "§5 exception 2" -> "s5"; "§7.1" -> "s7-1"; None when the text names no section."""
    match = SECTION.search(rule or "")
    return "s" + match.group(1).replace(".", "-") if match else None


def _inline(text: str) -> str:
    text = escape(text, quote=False)
    text = re.sub(r"`([^`]+)`", r"<code>\1</code>", text)
    text = re.sub(r"\*\*([^*]+)\*\*", r"<strong>\1</strong>", text)
    return re.sub(r"\*([^*\s][^*]*)\*", r"<em>\1</em>", text)


def _player_lines(name: str) -> list[str]:
    """The lines a player reads: not the document's title and note to developers (before the first
    section), nor the sections its system hides (`rules_hidden`: the engine's determinism, say)."""
    system = system_get(name)
    hidden = tuple(f"## {number}. " for number in system.rules_hidden)
    lines, keep, started = [], True, False
    for line in system.rules.read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            started = True
            keep = not line.startswith(hidden)
        if started and keep:
            lines.append(line)
    return lines


@cache
def rules_toc(name: str = DEFAULT_SYSTEM) -> list[tuple[str, str]]:
    """(anchor, title) of each section a player reads, for the page's table of contents."""
    toc = []
    for line in _player_lines(name):
        found = re.match(r"## ((\d+)\. (.*))", line)
        if found:
            toc.append((f"s{found.group(2)}", re.sub(r"\*\*\[[^]]*\]\*\*", "", found.group(1)).strip()))
    return toc


@cache
def rules_html(name: str = DEFAULT_SYSTEM) -> SafeString:
    out: list[str] = []
    block: list[str] = []
    kind = None

    def flush() -> None:
        nonlocal kind
        if kind == "p":
            out.append(f"<p>{_inline(' '.join(block))}</p>")
        elif kind in ("ul", "ol"):
            items = "".join(f"<li>{_inline(item)}</li>" for item in block)
            out.append(f"<{kind}>{items}</{kind}>")
        elif kind == "table":
            rows = [[c.strip() for c in line.strip().strip("|").split("|")] for line in block]
            rows = [r for r in rows if not all(set(c) <= set("-: ") for c in r)]
            head = "".join(f'<th scope="col">{_inline(c)}</th>' for c in rows[0])
            body = "".join("<tr>" + "".join(f"<td>{_inline(c)}</td>" for c in r) + "</tr>" for r in rows[1:])
            out.append(
                f'<div class="scroll"><table class="grid"><thead><tr>{head}</tr></thead>{body}</table></div>'
            )
        elif kind == "pre":
            out.append(f"<pre>{escape(chr(10).join(block))}</pre>")
        block.clear()
        kind = None

    for line in _player_lines(name):
        if kind == "pre":
            if line.startswith("```"):
                flush()
            else:
                block.append(line)
            continue
        stripped = line.strip()
        heading = re.match(r"(#{1,3}) (.*)", line)
        if line.startswith("```"):
            flush()
            kind = "pre"
        elif heading:
            flush()
            level, title = len(heading.group(1)), heading.group(2)
            number = re.match(r"(\d+(?:\.\d+)?)\.? ", title)
            anchor = f' id="s{number.group(1).replace(".", "-")}"' if number else ""
            out.append(f"<h{level}{anchor}>{_inline(title)}</h{level}>")
        elif not stripped:
            flush()
        elif stripped.startswith("|"):
            if kind != "table":
                flush()
                kind = "table"
            block.append(stripped)
        elif re.match(r"(- |\d+\. )", stripped):
            listing = "ul" if stripped.startswith("- ") else "ol"
            if kind != listing:
                flush()
                kind = listing
            block.append(re.sub(r"^(- |\d+\. )", "", stripped))
        elif kind in ("ul", "ol") and line.startswith(" "):
            block[-1] += " " + stripped
        else:
            if kind != "p":
                flush()
                kind = "p"
            block.append(stripped)
    flush()
    return mark_safe("\n".join(out))
