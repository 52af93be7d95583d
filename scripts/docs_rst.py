"""Reading the tables of the modules' docstrings for the documentation generator
(scripts/gen_docs.py): reStructuredText simple tables to rows, inline markup to Markdown.

The action and observation tables are written once, in the docstrings of each game's
``actions.py`` and ``observation.py``; the site renders them from there.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_BORDER = re.compile(r"^=+( +=+)+ *$")
_ROLE = re.compile(r":(?:data|class|func|meth|attr|mod|obj):`~?\.?([^`]+)`")


@dataclass(frozen=True)
class Table:
    """One simple table: its column headers and rows (one string per column; a row's
    continuation lines are joined to it with spaces)."""

    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]


def _columns(border: str) -> list[int]:
    return [m.start() for m in re.finditer(r"=+", border)]


def _cells(line: str, starts: list[int]) -> list[str]:
    ends = [*starts[1:], None]
    return [line[a:b].strip() if b else line[a:].strip() for a, b in zip(starts, ends, strict=True)]


def simple_tables(text: str) -> list[Table]:
    """Every simple table of ``text``, in order: a border line of ``=`` runs, the header, a
    border, the rows, a closing border. A line whose first column is blank continues the row
    above."""
    lines = text.splitlines()
    tables, i = [], 0
    while i < len(lines):
        if not _BORDER.match(lines[i]):
            i += 1
            continue
        starts = _columns(lines[i])
        j = i + 1
        while j < len(lines) and not _BORDER.match(lines[j]):
            j += 1
        header = tuple(" ".join(c) for c in zip(*(_cells(x, starts) for x in lines[i + 1 : j]), strict=True))
        rows: list[list[str]] = []
        k = j + 1
        while k < len(lines) and not _BORDER.match(lines[k]):
            cells = _cells(lines[k], starts)
            if cells[0] or not rows:
                rows.append(cells)
            else:
                rows[-1] = [f"{old} {new}".strip() for old, new in zip(rows[-1], cells, strict=True)]
            k += 1
        tables.append(Table(header, tuple(tuple(r) for r in rows)))
        i = k + 1
    return tables


def markdown(text: str) -> str:
    """RST inline markup as Markdown: ````x```` -> `` `x` ``, ``:class:`~a.B``` -> `` `a.B` ``."""
    return _ROLE.sub(r"`\1`", text.replace("``", "`"))


def table_markdown(table: Table) -> str:
    """``table`` as a Markdown table (pipes in cells escaped)."""
    def row(cells):
        return "| " + " | ".join(markdown(c).replace("|", "\\|") for c in cells) + " |"

    return "\n".join([row(table.header), "|" + "---|" * len(table.header), *(row(r) for r in table.rows)])
