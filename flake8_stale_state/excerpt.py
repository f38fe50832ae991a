"""The part of a file the checks' collectors must see to judge some of its lines.

A collector's walk costs more than the summary's, and a file's few candidate lines rarely need the rest of it. An
excerpt keeps, for each wanted line, the innermost statement holding it whole, and the headers of the classes,
functions and blocks around it; every other run of statements becomes `pass` and a string literal spanning its
lines. Every kept line keeps its number and its text, so positions found in the excerpt are the file's.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Collection, Iterator

LINE_BREAK = re.compile(r"(\r\n|\r|\n)")


def first_line(statement: ast.stmt) -> int:
    decorators = getattr(statement, "decorator_list", None)
    return decorators[0].lineno if decorators else statement.lineno


def blocks(node: ast.AST) -> Iterator[list[ast.stmt]]:
    """The statement lists directly inside a node: bodies, `else` and `finally` blocks, handlers' and cases'."""
    for name in ("body", "orelse", "finalbody"):
        statements = getattr(node, name, None)
        if isinstance(statements, list) and statements and isinstance(statements[0], ast.stmt):
            yield statements
    for part in (*getattr(node, "handlers", ()), *getattr(node, "cases", ())):
        yield part.body


def clusters(statements: list[ast.stmt]) -> list[list[ast.stmt]]:
    """Statements grouped where they share a line (`a = 1; b = 2`): a line is kept or blanked whole."""
    grouped: list[list[ast.stmt]] = []
    for statement in statements:
        if grouped and first_line(statement) <= grouped[-1][-1].end_lineno:
            grouped[-1].append(statement)
        else:
            grouped.append([statement])
    return grouped


class Excerpt:
    def __init__(self, source: str | bytes) -> None:
        pattern = LINE_BREAK if isinstance(source, str) else re.compile(LINE_BREAK.pattern.encode())
        parts = pattern.split(source)
        self.texts, self.breaks = parts[0::2], parts[1::2]  # line n is texts[n - 1], ended by breaks[n - 1]
        self.empty = source[:0]

    def text(self, value: str) -> str | bytes:
        return value if isinstance(self.empty, str) else value.encode()

    def starts_line(self, statement: ast.stmt) -> bool:
        """Whether the statement begins its first line (no `else:` before it) and is a statement of its own
        (no `elif`, which continues the `if` before it)."""
        decorators = getattr(statement, "decorator_list", None)
        column = decorators[0].col_offset if decorators else statement.col_offset
        line = self.texts[first_line(statement) - 1]
        if isinstance(statement, ast.If) and line[column:].startswith(self.text("elif")):
            return False
        return line[:column].strip() in (self.empty, self.text("@"))

    def blanked_runs(self, statements: list[ast.stmt], wanted: list[int]) -> Iterator[tuple[int, int]]:
        """(first, last) line of each run of statements of the block that hold no wanted line."""
        run: tuple[int, int] | None = None
        for cluster in clusters(statements):
            start, end = first_line(cluster[0]), cluster[-1].end_lineno
            inside = [line for line in wanted if start <= line <= end]
            if not inside and self.starts_line(cluster[0]):
                if run and any(run[1] < line < start for line in wanted):  # a wanted line between statements
                    yield run
                    run = None
                run = (run[0] if run else start, end)
                continue
            if run:
                yield run
                run = None
            if len(cluster) == 1:  # a class, function or block is looked inside: only its header must stay
                for block in blocks(cluster[0]):
                    yield from self.blanked_runs(block, inside)
        if run:
            yield run

    def of(self, tree: ast.Module, lines: Collection[int]) -> str | bytes:
        texts = list(self.texts)
        for first, last in self.blanked_runs(tree.body, sorted(lines)):
            line = texts[first - 1]
            texts[first - 1] = line[:len(line) - len(line.lstrip())] + self.text("pass")
            if last > first:
                # the lines between in one string literal, one token rather than a node per blank line (after
                # `pass`, so it documents no attribute assigned before it)
                texts[first - 1] += self.text('; """')
                texts[last - 1] = self.text('"""')
            for number in range(first + 1, last):
                texts[number - 1] = self.empty
        return self.empty.join(text + end for text, end in zip(texts, [*self.breaks, self.empty]))


def excerpt(source: str | bytes, tree: ast.Module, lines: Collection[int]) -> str | bytes:
    """`source` with only what holds `lines` (and the headers around it) left standing, line numbers kept."""
    return Excerpt(source).of(tree, lines)
