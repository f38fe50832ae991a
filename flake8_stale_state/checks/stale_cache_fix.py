"""SS102's fix: libcst rewrites the source, keeping its layout, to reset the lists before the loops that rebuild
them."""

from __future__ import annotations

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

from flake8_stale_state.checks.stale_cache import CODE, METHOD, method_of, reset_statement
from flake8_stale_state.checks.stale_cache_ast import collect
from flake8_stale_state.summary import collected


class ResetInserter(cst.CSTTransformer):
    """Puts reset statements right before the loops at the given positions, taking over the loop's leading
    comments and blank lines so those stay above the rebuild."""

    METADATA_DEPENDENCIES = (PositionProvider,)

    def __init__(self, before_loop: dict[tuple[int, int], list[str]]) -> None:
        super().__init__()
        self.before_loop = before_loop

    def leave_IndentedBlock(
        self, original_node: cst.IndentedBlock, updated_node: cst.IndentedBlock
    ) -> cst.IndentedBlock:
        body: list[cst.BaseStatement] = []
        for original, updated in zip(original_node.body, updated_node.body):
            start = self.get_metadata(PositionProvider, original).start
            statements = [cst.parse_statement(text) for text in self.before_loop.get((start.line, start.column), ())]
            if statements:
                statements[0] = statements[0].with_changes(leading_lines=updated.leading_lines)
                updated = updated.with_changes(leading_lines=())
            body.extend(statements)
            body.append(updated)
        return updated_node.with_changes(body=body)


def insert_resets(source: str, wanted: set[tuple[int, int]]) -> str:
    """The source with a reset inserted before each loop whose appends at the `wanted` positions are SS102's."""
    made = collected(source, {CODE: collect})
    if made is None:  # a source Python rejects holds no finding of SS102's
        return source
    found = made[CODE].found
    chosen = [rebuild for rebuild in found if (rebuild.line, rebuild.col) in wanted]
    # lists a method rebuilds in parallel are fixed together: a fix of one alone would leave the others stale
    methods = {method_of(rebuild) for rebuild in chosen if rebuild.shape == METHOD}
    chosen += [r for r in found if r.shape == METHOD and method_of(r) in methods and r not in chosen]
    before_loop: dict[tuple[int, int], list[str]] = {}
    for rebuild in sorted(chosen, key=lambda r: (r.line, r.col)):
        if rebuild.loop is not None:
            statements = before_loop.setdefault(rebuild.loop, [])
            if reset_statement(rebuild) + "\n" not in statements:
                statements.append(reset_statement(rebuild) + "\n")
    if not before_loop:
        return source
    return MetadataWrapper(cst.parse_module(source), unsafe_skip_copy=True).visit(ResetInserter(before_loop)).code
