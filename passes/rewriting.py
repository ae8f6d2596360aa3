"""
Fast drivers for xDSL's stock `canonicalize`, `cse` and dead-code elimination.

They compute what the stock ones compute, in the same order, on the same
IR; they only avoid the per-op overhead of the generic drivers:

- Every per-op question that depends only on the op's class (its traits:
  canonicalization patterns, `HasFolder`, `ConstantLike`, `IsTerminator`,
  `SymbolOpInterface`, memory effects when they are class-level, i.e. every
  `MemoryEffect` trait is `NoMemoryEffect`/`Pure`, `MemoryReadEffect` or
  `MemoryWriteEffect`) is answered once per class and cached (`op_info`).
  Ops with instance-dependent effects (e.g. `RecursiveMemoryEffect`) are
  asked each time, as the stock code does.
- `canonicalize` is `PatternRewriteWalker(GreedyRewritePatternApplier(...),
  post_walk_func=region_dce)`: the same walker, worklist and fixpoint; the
  applier erases dead ops, folds and applies the op's canonicalization
  patterns in the stock order, with cached dispatch.
- `dce(region)` is `region_dce` for regions whose blocks have no successors
  and whose ops below the top level have no regions (every mask IR): one
  reverse sweep per block erases the ops that are unused and removable;
  erasing an op drops the uses of its operands, which are visited later in
  the sweep. Any other region goes to `region_dce`.
- `cse(op)` is `xdsl.transforms.common_subexpression_elimination.cse` with
  each op's structural key (name, attributes, properties, result types,
  operands) hashed once instead of on every dictionary probe, and cached
  effect queries.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from xdsl.context import Context
from xdsl.dialects import builtin
from xdsl.folder import Folder
from xdsl.ir import Block, Operation, Region
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriterListener,
    PatternRewriteWalker,
    RewritePattern,
)
from xdsl.traits import (
    ConstantLike,
    HasCanonicalizationPatternsTrait,
    HasFolder,
    IsolatedFromAbove,
    IsTerminator,
    MemoryEffect,
    MemoryEffectKind,
    MemoryReadEffect,
    MemoryWriteEffect,
    NoMemoryEffect,
    SymbolOpInterface,
    get_effects,
)
from xdsl.transforms import canonicalize as _stock_canonicalize
from xdsl.transforms import common_subexpression_elimination as _stock_cse
from xdsl.transforms.dead_code_elimination import (
    region_dce,
    would_be_trivially_dead,
)

_STATIC_EFFECTS = (NoMemoryEffect, MemoryReadEffect, MemoryWriteEffect)


@dataclass(frozen=True)
class OpInfo:
    """What the generic drivers ask about an op class, asked once."""

    patterns: tuple[RewritePattern, ...]
    folds: bool  # HasFolder and not ConstantLike: the applier tries to fold it
    terminator: bool
    #: the op's memory effects when they do not depend on the instance, else None
    effects: frozenset | None
    #: would_be_trivially_dead(op) when it does not depend on the instance, else None
    removable: bool | None

    def would_be_trivially_dead(self, op: Operation) -> bool:
        if self.removable is not None:
            return self.removable
        return would_be_trivially_dead(op)

    def get_effects(self, op: Operation):
        if self.effects is not None:
            return self.effects
        return get_effects(op)


_INFO: dict[type[Operation], OpInfo] = {}


def op_info(cls: type[Operation]) -> OpInfo:
    info = _INFO.get(cls)
    if info is None:
        info = _INFO[cls] = _compute_info(cls)
    return info


def _compute_info(cls: type[Operation]) -> OpInfo:
    patterns = tuple(
        p
        for trait in cls.get_traits_of_type(HasCanonicalizationPatternsTrait)
        for p in trait.get_patterns(cls)
    )
    folds = cls.has_trait(HasFolder, value_if_unregistered=False) and not cls.has_trait(
        ConstantLike, value_if_unregistered=True
    )
    terminator = cls.has_trait(IsTerminator)
    effect_traits = cls.get_traits_of_type(MemoryEffect)
    effects: frozenset | None = None
    if effect_traits and all(
        isinstance(t, _STATIC_EFFECTS)
        and type(t).get_effects.__func__ in {s.get_effects.__func__ for s in _STATIC_EFFECTS}  # type: ignore[attr-defined]
        for t in effect_traits
    ):
        acc: set = set()
        for t in effect_traits:
            acc.update(t.get_effects(None))  # type: ignore[arg-type]
        effects = frozenset(acc)
    removable: bool | None = None
    if effects is not None:
        # would_be_trivially_dead: not a terminator, not a symbol, and
        # result_only_effects (only READ effects among the static kinds).
        removable = (
            not cls.has_trait(IsTerminator, value_if_unregistered=False)
            and not cls.has_trait(SymbolOpInterface, value_if_unregistered=False)
            and all(e.kind == MemoryEffectKind.READ for e in effects)
        )
    return OpInfo(patterns, folds, terminator, effects, removable)


def is_trivially_dead(op: Operation) -> bool:
    """`xdsl.transforms.dead_code_elimination.is_trivially_dead`, cached per class."""
    for r in op.results:
        if r.first_use is not None:
            return False
    return op_info(type(op)).would_be_trivially_dead(op)


# -----------------------------------------------------------------------------
# dead code elimination
# -----------------------------------------------------------------------------


def _simple(region: Region) -> bool:
    """Blocks without successors; ops of the blocks' nested regions have none."""
    for block in region.blocks:
        if len(region.blocks) > 1:
            return False
        for op in block.ops:
            if op.successors:
                return False
            for inner in op.regions:
                for b in inner.blocks:
                    if len(inner.blocks) > 1:
                        return False
                    for o in b.ops:
                        if o.regions or o.successors:
                            return False
    return True


def dce(region: Region, listener: PatternRewriterListener | None = None) -> bool:
    """`region_dce` (same result) for the regions of mask IR; see the module doc."""
    if not _simple(region):
        return region_dce(region, listener)
    changed = False
    for block in region.blocks:
        for op in list(block.ops):
            for inner in op.regions:
                for b in inner.blocks:
                    changed |= _sweep(b, listener)
        changed |= _sweep(block, listener)
    return changed


def _sweep(block: Block, listener: PatternRewriterListener | None) -> bool:
    changed = False
    op = block.last_op
    while op is not None:
        prev = op.prev_op
        if is_trivially_dead(op):
            changed = True
            if listener is not None:
                listener.handle_operation_removal(op)
            block.erase_op(op, safe_erase=False)
        op = prev
    return changed


# -----------------------------------------------------------------------------
# canonicalize
# -----------------------------------------------------------------------------


class _CanonicalizeApplier(RewritePattern):
    """GreedyRewritePatternApplier([CanonicalizationRewritePattern()], ctx,
    folding_enabled=True), with cached dispatch."""

    def __init__(self, ctx: Context):
        self.folder = Folder(ctx)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        info = op_info(type(op))
        if is_trivially_dead(op):
            rewriter.erase(op)
            return
        if info.folds:
            folded = self.folder.try_fold(op)
            if folded is not None:
                values, new_ops = folded
                rewriter.replace(op, new_ops=new_ops, new_results=values)
                return
        # CanonicalizationRewritePattern: the op's patterns in order; with
        # several, an inner greedy applier (which first re-checks deadness:
        # the op is not dead here).
        for pattern in info.patterns:
            pattern.match_and_rewrite(op, rewriter)
            if rewriter.has_done_action:
                return


class PatternApplier(RewritePattern):
    """`GreedyRewritePatternApplier(patterns)` (dead ops erased first, no
    folding, the first pattern that acts wins), with cached deadness."""

    def __init__(self, patterns):
        self.patterns = tuple(patterns)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if is_trivially_dead(op):
            rewriter.erase(op)
            return
        for pattern in self.patterns:
            pattern.match_and_rewrite(op, rewriter)
            if rewriter.has_done_action:
                return


def canonicalize(ctx: Context, op: builtin.ModuleOp) -> None:
    PatternRewriteWalker(_CanonicalizeApplier(ctx), post_walk_func=dce).rewrite_module(op)


@dataclass(frozen=True)
class CanonicalizePass(_stock_canonicalize.CanonicalizePass):
    """xDSL's `canonicalize` (all canonicalization patterns and folders), fast."""

    name = "canonicalize"

    def apply(self, ctx: Context, op: builtin.ModuleOp) -> None:
        canonicalize(ctx, op)


# -----------------------------------------------------------------------------
# CSE
# -----------------------------------------------------------------------------


class _Key(_stock_cse.OperationInfo):
    """OperationInfo with its hash computed once."""

    def __init__(self, op: Operation):
        self.op = op
        self._hash = _stock_cse.OperationInfo.__hash__(self)

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, _Key) or self._hash != other._hash:
            return False
        a, b = self.op, other.op
        return (
            a.name == b.name
            and a.attributes == b.attributes
            and a.properties == b.properties
            and a.operands == b.operands
            and a.result_types == b.result_types
            and all(
                s.is_structurally_equivalent(o)
                for s, o in zip(a.regions, b.regions, strict=True)
            )
        )


class _KnownOps(_stock_cse.KnownOps):
    """KnownOps probed with a `_Key` (hashed once per probe, not per dict step)."""

    def __getitem__(self, k: Operation):
        return self._known_ops[_Key(k)]

    def __setitem__(self, k: Operation, v: Operation):
        self._known_ops[_Key(k)] = v

    def __contains__(self, k: Operation):
        return _Key(k) in self._known_ops

    def get(self, k: Operation, default: Any = None):
        return self._known_ops.get(_Key(k), default)

    def pop(self, k: Operation):
        return self._known_ops.pop(_Key(k))


class _CSEDriver(_stock_cse.CSEDriver):
    def __init__(self):
        super().__init__()
        self._known_ops = _KnownOps()

    def _simplify_operation(self, op: Operation):
        info = op_info(type(op))
        if info.terminator:
            return
        if is_trivially_dead(op):
            self._mark_erasure(op)
            return
        if any(len(region.blocks) > 1 for region in op.regions):
            return
        effects = info.get_effects(op)
        if effects is None or len(effects) != 0:
            # not surely side-effect free: the stock path (read-only ops)
            return super()._simplify_operation(op)
        key = _Key(op)
        known = self._known_ops._known_ops
        if existing := known.get(key):
            self._replace_and_delete(op, existing)
            return
        known[key] = op

    def _simplify_block(self, block: Block):
        for op in block.ops:
            if op.regions:
                if op.has_trait(IsolatedFromAbove, value_if_unregistered=True):
                    old_scope = self._known_ops
                    self._known_ops = _KnownOps()
                    for region in op.regions:
                        self._simplify_region(region)
                    self._known_ops = old_scope
                else:
                    for region in op.regions:
                        self._simplify_region(region)
            self._simplify_operation(op)

    def _simplify_region(self, region: Region):
        if not region.blocks:
            return
        if len(region.blocks) == 1:
            old_scope = self._known_ops
            self._known_ops = _KnownOps(self._known_ops)
            self._simplify_block(region.block)
            self._known_ops = old_scope


def cse(thing: Operation | Block | Region) -> None:
    """`xdsl.transforms.common_subexpression_elimination.cse`, fast."""
    _CSEDriver().simplify(thing)


@dataclass(frozen=True)
class CommonSubexpressionElimination(_stock_cse.CommonSubexpressionElimination):
    """xDSL's `cse`, fast."""

    name = "cse"

    def apply(self, ctx: Context, op: builtin.ModuleOp) -> None:
        cse(op)
