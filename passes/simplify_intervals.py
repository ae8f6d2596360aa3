"""
`simplify-intervals`: fold constant and trivial lane sets and deduplicate
equal sets (the `interval` canonicalization patterns plus CSE), so that a
packed keep word is built from as few ranges as possible.
"""

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import builtin
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriteWalker

from maskopt.passes.canonicalization_patterns.interval import ALL_PATTERNS
from maskopt.passes.rewriting import PatternApplier, cse, dce


@dataclass(frozen=True)
class SimplifyIntervalsPass(ModulePass):
    """Simplify lane-set expressions: constant sets, identities, duplicates."""

    name = "simplify-intervals"

    def apply(self, ctx: Context, op: builtin.ModuleOp) -> None:
        cse(op)
        PatternRewriteWalker(
            PatternApplier(ALL_PATTERNS),
            post_walk_func=dce,
        ).rewrite_module(op)
        cse(op)
