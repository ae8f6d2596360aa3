"""`create_block_mask` from maskopt's packed form: torch's BlockMask, exactly.

torch's `create_block_mask` evaluates the mask_mod at every (b, h, q, kv)
(`create_mask`), pads the `[B, H, Q_LEN, KV_LEN]` bool tensor with False up
to whole blocks, sums each block and calls a block *full* when all its
`Q_BLOCK x KV_BLOCK` elements are kept (so a block cut by Q_LEN or KV_LEN is
never full) and *partial* when some but not all are. It then orders the
dense block tables with a stable descending argsort (`_dense_to_ordered`:
the listed blocks ascending, then the others ascending) and builds the
BlockMask with `BlockMask.from_kv_blocks`, which derives the q-side tables.

Here the block tables come from the packed form instead: the mask_mod is
compiled once (`maskopt.compile_mask`, cached per code and closure
metadata); `lowering.block_bounds` settles the blocks whose bounds prove
them all kept or all dropped, and the keep words of the other blocks are
evaluated in chunks of blocks (`lowering.keep_words.GridWords`: one int64
per 32 kv per row, the lanes past KV_LEN cleared, the rows past Q_LEN
zero). A block is full iff the minimum of its words is 0xFFFFFFFF, empty iff
their maximum is 0.
The dense tables then go through the same torch functions as torch's own
(`_create_sparse_block_from_block_mask`), so the ordered tensors and the
q-side tensors are torch's for the same dense tables.

The compiled mask reads its indices as int32 (as the kernels call it);
torch's create_block_mask as int64. `lowering.index_range` checks, by
interval arithmetic over the mask as imported, that no i32 result can leave
the i32 range for these sizes and aux values, where the two agree.

Whenever this path cannot be exact (a possible i32 wrap, a per-lane mask, a KV block size that is
not a multiple of 32, an i32 result out of range, an op the word evaluator
lacks, an index error), it falls back to torch's `create_block_mask`.
"""

from __future__ import annotations

import copy
import functools
import os
from dataclasses import dataclass, field
from typing import Any, Callable

import torch

from maskopt.lowering.block_bounds import classify
from maskopt.lowering.index_range import i32_overflow_reason
from maskopt.lowering.keep_words import GridUnsupported, GridWords, IndexWrap
from maskopt.lowering.mask_cache import MaskCache

__all__ = ["BlockMaskBuild", "build_block_mask", "create_block_mask", "block_tables", "CACHE"]

_WORD = (1 << 32) - 1

#: Compiles of Python mask_mods, keyed on their code and closure metadata.
CACHE = MaskCache()

#: Words evaluated at once (a chunk of undecided blocks): 2^22 int64 words
#: (32 MiB a tensor) cover 2^27 (q, kv) pairs.
DEFAULT_CHUNK_WORDS = 1 << 22


@dataclass
class BlockMaskBuild:
    """What `build_block_mask` did."""

    block_mask: Any
    """The torch `BlockMask`."""
    path: str
    """"packed" (keep words of the compiled mask), "specialized" (keep words of
    a mask over derived tensors, see `lowering.specialize`) or "torch" (torch's
    own create_block_mask)."""
    reason: str | None = None
    """Why torch's create_block_mask was used (path "torch")."""
    remarks: list[Any] = field(default_factory=list)
    """`maskopt.Remark`s: why the mask did not pack or was not specialized."""
    cache_hit: bool = False
    """The compile came from the cache."""
    compiled_tables: bool = False
    """The tables came from the compiled graph (`_fast_tables`), not the eager path."""
    graph: bool = False
    """The call was a replay of its key's CUDA graph (see `GRAPHS`)."""


@dataclass
class _Compiled:
    """A `maskopt.CompiledMask` and the mask as imported (before any pass),
    which `lowering.index_range` checks for i32 results that could wrap."""

    compiled: Any
    imported: Any
    fast: dict = field(default_factory=dict)
    """`_CompiledTables` of this mask per shape key (see `_fast_tables`)."""
    i32: dict = field(default_factory=dict)
    """`i32_overflow_reason` per (sizes, aux value ranges)."""
    graphs: dict = field(default_factory=dict)
    """`_Graph` (or False: none) of this mask per call key (see `GRAPHS`)."""

    @property
    def aux_tensors(self) -> list[torch.Tensor]:
        return self.compiled.aux_tensors


def _compile_mask(fn: Callable) -> _Compiled:
    import maskopt
    from maskopt.lowering.fx_import import import_mask_mod

    imported, _ = import_mask_mod(fn)
    return _Compiled(maskopt.compile_mask(fn), imported)


def block_tables(
    grid: GridWords,
    aux_tensors: tuple[torch.Tensor, ...],
    B: int,
    H: int,
    Q_LEN: int,
    KV_LEN: int,
    Q_BLOCK: int,
    KV_BLOCK: int,
    device: torch.device,
    chunk_words: int = DEFAULT_CHUNK_WORDS,
    use_bounds: bool = True,
) -> tuple[torch.Tensor, torch.Tensor]:
    """(partial, full): int8 `[B, H, ceil(Q_LEN/Q_BLOCK), ceil(KV_LEN/KV_BLOCK)]`
    tables of the blocks with some but not all, resp. all, elements kept.

    With `use_bounds`, `lowering.block_bounds` first settles the blocks that
    the mask's bounds prove all kept or all dropped; the keep words are
    computed for the other blocks only (all of them without it)."""
    if KV_BLOCK % 32:
        raise GridUnsupported(f"KV block size {KV_BLOCK} is not a multiple of 32")
    nq = -(-Q_LEN // Q_BLOCK)
    nkv = -(-KV_LEN // KV_BLOCK)
    wpb = KV_BLOCK // 32
    last_word = (-(-KV_LEN // 32) - 1) * 32
    i64 = dict(dtype=torch.int64, device=device)
    qb = torch.arange(nq, **i64).reshape(-1, 1)
    kb = torch.arange(nkv, **i64).reshape(1, -1)
    q_lo, q_hi = qb * Q_BLOCK, torch.clamp(qb * Q_BLOCK + Q_BLOCK - 1, max=Q_LEN - 1)
    kv_lo = kb * KV_BLOCK
    kv_hi = torch.clamp(kv_lo + KV_BLOCK - 32, max=last_word)
    inside = ((qb + 1) * Q_BLOCK <= Q_LEN) & ((kb + 1) * KV_BLOCK <= KV_LEN)
    minmax = _q_block_minmax(aux_tensors, Q_LEN, Q_BLOCK) if use_bounds else None
    rows = torch.arange(Q_BLOCK, **i64).reshape(1, -1, 1)
    cols = (torch.arange(wpb, **i64) * 32).reshape(1, 1, -1)
    per_chunk = max(1, chunk_words // (Q_BLOCK * wpb))
    Bv = B if grid.reads_b else 1
    Hv = H if grid.reads_h else 1
    partial = torch.zeros(Bv, Hv, nq, nkv, dtype=torch.int8, device=device)
    full = torch.zeros(Bv, Hv, nq, nkv, dtype=torch.int8, device=device)
    for b in range(Bv):
        for h in range(Hv):
            if use_bounds:
                sure_full, sure_empty = classify(grid.func, aux_tensors, b, h, q_lo, q_hi,
                                                 kv_lo, kv_hi, minmax)
                sure_full = sure_full.expand(nq, nkv)
                sure_empty = sure_empty.expand(nq, nkv)
            else:
                sure_full = sure_empty = torch.zeros(nq, nkv, dtype=torch.bool, device=device)
            # every in-range word all ones: full inside, partial at the edge
            full[b, h] = (sure_full & inside).to(torch.int8)
            partial[b, h] = (sure_full & ~inside & ~sure_empty).to(torch.int8)
            todo = torch.nonzero(~sure_full & ~sure_empty)
            bt = torch.tensor(b, **i64)
            ht = torch.tensor(h, **i64)
            for c in range(0, todo.shape[0], per_chunk):
                blk = todo[c:c + per_chunk]
                qi, ki = blk[:, 0], blk[:, 1]
                q = qi.reshape(-1, 1, 1) * Q_BLOCK + rows            # [U, Q_BLOCK, 1]
                kv = ki.reshape(-1, 1, 1) * KV_BLOCK + cols          # [U, 1, wpb]
                w = grid.words_at(bt, ht, q.clamp(max=Q_LEN - 1), kv.clamp(max=last_word),
                                  aux_tensors)
                lanes = torch.clamp(KV_LEN - kv, 0, 32)
                w = w & ((torch.ones((), **i64) << lanes) - 1)
                w = torch.where(q < Q_LEN, w, 0).expand(-1, Q_BLOCK, wpb)
                lo = w.amin(dim=(1, 2))
                hi = w.amax(dim=(1, 2))
                is_full = lo == _WORD
                full[b, h, qi, ki] = is_full.to(torch.int8)
                partial[b, h, qi, ki] = ((hi != 0) & ~is_full).to(torch.int8)
    if Bv != B or Hv != H:
        partial = partial.expand(B, H, nq, nkv).contiguous()
        full = full.expand(B, H, nq, nkv).contiguous()
    return partial, full


def _q_block_minmax(aux_tensors, Q_LEN: int, Q_BLOCK: int):
    """Per aux tensor: (min, max) `[nq, 1]` over each q block's rows of a 1-D
    integer tensor (the bound of `aux[q_idx]` in a block), else None."""
    out = []
    nq = -(-Q_LEN // Q_BLOCK)
    for t in aux_tensors:
        if t.dim() != 1 or t.dtype == torch.bool or t.is_floating_point() or t.numel() < Q_LEN:
            out.append(None)
            continue
        v = t[:Q_LEN].to(torch.int64)
        pad = nq * Q_BLOCK - Q_LEN
        if pad:
            v = torch.cat([v, v[-1:].expand(pad)])
        v = v.reshape(nq, Q_BLOCK)
        out.append((v.amin(dim=1, keepdim=True), v.amax(dim=1, keepdim=True)))
    return out


def _block_sizes(BLOCK_SIZE) -> tuple[int, int]:
    if isinstance(BLOCK_SIZE, int):
        return BLOCK_SIZE, BLOCK_SIZE
    return tuple(BLOCK_SIZE)  # type: ignore[return-value]


def _torch_create_block_mask(mask_mod, B, H, Q_LEN, KV_LEN, device, BLOCK_SIZE, _compile,
                             separate_full_blocks, compute_dq_write_order, dq_kv_order):
    """torch's create_block_mask, passing only the options this torch has (torch
    2.11 lacks separate_full_blocks / compute_dq_write_order / dq_kv_order): an
    option it lacks must have its default."""
    from torch.nn.attention.flex_attention import create_block_mask as torch_cbm

    kw = _supported_options(torch_cbm, separate_full_blocks=(separate_full_blocks, True),
                            compute_dq_write_order=(compute_dq_write_order, False),
                            dq_kv_order=(dq_kv_order, True))
    return torch_cbm(mask_mod, B, H, Q_LEN, KV_LEN, device, BLOCK_SIZE, _compile, **kw)


@functools.lru_cache(maxsize=None)
def _parameters(fn) -> frozenset:
    import inspect

    return frozenset(inspect.signature(fn).parameters)


def _supported_options(fn, **options) -> dict:
    params = _parameters(fn)
    kw = {}
    for name, (value, default) in options.items():
        if name in params:
            kw[name] = value
        elif value != default:
            raise TypeError(f"torch {torch.__version__}'s {fn.__name__} has no option {name}")
    return kw


def _from_tables(partial, full, mask_mod, Q_LEN, KV_LEN, Q_BLOCK, KV_BLOCK,
                 separate_full_blocks, compute_dq_write_order, dq_kv_order):
    """The BlockMask torch builds from these dense tables (its own functions:
    `_create_sparse_block_from_block_mask` where it takes `seq_lengths`, else
    `_dense_to_ordered` and `BlockMask.from_kv_blocks`, as older torch does)."""
    from torch.nn.attention import flex_attention as fa

    if separate_full_blocks:
        tables = (partial, full)
    else:
        tables = ((partial | full), None)
    sparse = getattr(fa, "_create_sparse_block_from_block_mask", None)
    if sparse is not None and "seq_lengths" in _parameters(sparse):
        block_mask = sparse(tables, mask_mod, (Q_LEN, KV_LEN), Q_BLOCK, KV_BLOCK)
    else:
        kv = fa._dense_to_ordered(tables[0])
        fkv = fa._dense_to_ordered(tables[1]) if tables[1] is not None else (None, None)
        extra = {}
        if "seq_lengths" in _parameters(fa.BlockMask.from_kv_blocks):
            extra["seq_lengths"] = (Q_LEN, KV_LEN)
        block_mask = fa.BlockMask.from_kv_blocks(kv[0], kv[1], fkv[0], fkv[1],
                                                 BLOCK_SIZE=(Q_BLOCK, KV_BLOCK),
                                                 mask_mod=mask_mod, **extra)
    if compute_dq_write_order:
        dq_order = getattr(fa, "_compute_dq_write_order_from_block_mask", None)
        if dq_order is None:
            raise TypeError(f"torch {torch.__version__} has no compute_dq_write_order")
        dq_wo, dq_wo_full = dq_order(block_mask, dq_kv_order=dq_kv_order)
        block_mask.dq_write_order = dq_wo
        block_mask.dq_write_order_full = dq_wo_full
        block_mask.dq_kv_order = None
        block_mask.dq_kv_order_spt = dq_kv_order
    return block_mask


def build_block_mask(
    mask_mod: Callable,
    B: int | None,
    H: int | None,
    Q_LEN: int,
    KV_LEN: int,
    device=None,
    BLOCK_SIZE: int | tuple[int, int] = 128,
    _compile: bool = False,
    separate_full_blocks: bool = True,
    compute_dq_write_order: bool = False,
    dq_kv_order: bool = True,
    *,
    specialize: bool = True,
    chunk_words: int = DEFAULT_CHUNK_WORDS,
) -> BlockMaskBuild:
    """`create_block_mask` with a record of the path taken (see `BlockMaskBuild`)."""
    if device is None:
        device = torch.accelerator.current_accelerator() or "cpu"
    device = torch.device(device)
    B = 1 if B is None else B
    H = 1 if H is None else H
    Q_BLOCK, KV_BLOCK = _block_sizes(BLOCK_SIZE)
    args = (B, H, Q_LEN, KV_LEN, device, BLOCK_SIZE, _compile, separate_full_blocks,
            compute_dq_write_order, dq_kv_order)

    def fallback(reason: str, remarks=(), hit=False) -> BlockMaskBuild:
        return BlockMaskBuild(_torch_create_block_mask(mask_mod, *args), "torch", reason,
                              list(remarks), hit)

    if not isinstance(dq_kv_order, bool):
        raise ValueError("dq_kv_order must be a bool when using create_block_mask")
    try:
        entry, aux, hit = CACHE.compile(mask_mod, _compile_mask)
    except Exception as e:  # noqa: BLE001 - untraceable: torch evaluates it
        return fallback(f"maskopt could not compile the mask_mod: {type(e).__name__}: {e}")
    gkey = tape = None
    if _use_graphs(device) and _use_compiled(device) and not compute_dq_write_order:
        gkey = (B, H, Q_LEN, KV_LEN, Q_BLOCK, KV_BLOCK, bool(separate_full_blocks), str(device),
                bool(specialize), tuple((t.dtype, tuple(t.shape), str(t.device)) for t in aux))
        g = entry.graphs.get(gkey)
        if g:
            out = _replay(g, aux, mask_mod, hit, (B, H, Q_LEN, KV_LEN), Q_BLOCK, KV_BLOCK)
            if out is not None:
                return out
            # a check fired (the values lack what the graph assumed): the path below
        elif g is None:
            from maskopt.lowering.mask_cache import closure_key
            from maskopt.lowering.specialize import SyncFree

            if closure_key(mask_mod) is not None:  # else the entry is not cached
                tape = SyncFree()
    from maskopt.lowering.specialize import sync_free

    with sync_free(tape):  # records the specialization's host decisions
        build, state = _build(mask_mod, entry, aux, hit, fallback, B, H, Q_LEN, KV_LEN, device,
                              Q_BLOCK, KV_BLOCK, separate_full_blocks, compute_dq_write_order,
                              dq_kv_order, specialize, chunk_words)
    if tape is not None:
        global LAST_GRAPH_ERROR
        entry.graphs[gkey] = False
        if tape.why is not None:
            LAST_GRAPH_ERROR = f"not captured: {tape.why}"
        elif state is not None and build.compiled_tables:
            try:
                entry.graphs[gkey] = _capture(mask_mod, entry, aux, tape.decisions, build, state,
                                              B, H, Q_LEN, KV_LEN, Q_BLOCK, KV_BLOCK,
                                              separate_full_blocks, device, specialize)
            except Exception as e:  # noqa: BLE001 - no graph: the path without it
                LAST_GRAPH_ERROR = f"{type(e).__name__}: {str(e)[:500]}"
    return build


def _eval_mask(mask_mod, entry, aux, B, H, Q_LEN, KV_LEN, device, specialize):
    """(the mask_mod to evaluate, its `_Compiled`, its aux tensors, path, remarks):
    the specialization of `mask_mod` for the values `aux` (the original where
    there is none)."""
    compiled = entry.compiled
    remarks = list(compiled.remarks)
    eval_mod, eval_entry, eval_aux, path = mask_mod, entry, aux, "packed"
    if specialize and (not compiled.packed or any(t.dim() and t.dtype != torch.bool for t in aux)):
        from maskopt.lowering.mask_cache import closure_key
        from maskopt.lowering.specialize import specialize_mask

        keyed = closure_key(mask_mod)
        spec = specialize_mask(mask_mod, compiled, aux, Q_LEN, device,
                               None if keyed is None else keyed[0], B=B, H=H, KV_LEN=KV_LEN,
                               packed=compiled.packed)
        remarks.extend(spec.remarks)
        spec_entry = None
        if spec.mask_mod is not None:
            try:
                spec_entry, spec_aux, _ = CACHE.compile(spec.mask_mod, _compile_mask)
            except Exception as e:  # noqa: BLE001 - keep the original
                from maskopt.lowering.specialize import _remark

                remarks.append(_remark(compiled.name, "not specialized: the specialized mask does "
                                       f"not compile ({type(e).__name__}: {e})"))
        if spec_entry is not None:
            if spec_entry.compiled.packed or not compiled.packed:
                eval_mod, path = spec.mask_mod, "specialized"
                eval_entry, eval_aux = spec_entry, spec_aux
    return eval_mod, eval_entry, eval_aux, path, remarks


def _build(mask_mod, entry, aux, hit, fallback, B, H, Q_LEN, KV_LEN, device, Q_BLOCK, KV_BLOCK,
           separate_full_blocks, compute_dq_write_order, dq_kv_order, specialize, chunk_words):
    """(BlockMaskBuild, state): the call without CUDA graphs; state is
    (the evaluated `_Compiled`, its compiled-tables key) where the compiled
    tables made the BlockMask, else None."""
    eval_mod, eval_entry, eval_aux, path, remarks = _eval_mask(
        mask_mod, entry, aux, B, H, Q_LEN, KV_LEN, device, specialize)
    if not eval_entry.compiled.packed:
        return fallback(f"the mask_mod does not pack: {eval_entry.compiled.reason}", remarks, hit), None
    aux_dev = tuple(t.to(device) for t in eval_aux)
    if _use_compiled(device) and not compute_dq_write_order:
        block_mask, wraps = _fast_tables(eval_entry, aux_dev, B, H, Q_LEN, KV_LEN, Q_BLOCK,
                                         KV_BLOCK, separate_full_blocks, device, eval_mod)
        if wraps is not None:
            return fallback(wraps, remarks, hit), None
        if block_mask is not None:
            return (BlockMaskBuild(block_mask, path, None, remarks, hit, compiled_tables=True),
                    (eval_entry, eval_mod))
    wraps = i32_overflow_reason(eval_entry.imported.ops.first, (B, H, Q_LEN, KV_LEN), aux_dev)
    if wraps is not None:
        return fallback(wraps, remarks, hit), None
    try:
        grid = GridWords(eval_entry.compiled.module, device)
        partial, full = block_tables(grid, aux_dev, B, H, Q_LEN, KV_LEN, Q_BLOCK, KV_BLOCK,
                                     device, chunk_words)
    except (GridUnsupported, IndexWrap, IndexError, ZeroDivisionError, NotImplementedError) as e:
        return fallback(f"{type(e).__name__}: {e}", remarks, hit), None
    except Exception as e:  # noqa: BLE001 - e.g. an xDSL InterpretationError
        if type(e).__name__ != "InterpretationError":
            raise
        return fallback(f"{type(e).__name__}: {e}", remarks, hit), None
    block_mask = _from_tables(partial, full, eval_mod, Q_LEN, KV_LEN, Q_BLOCK, KV_BLOCK,
                              separate_full_blocks, compute_dq_write_order, dq_kv_order)
    return BlockMaskBuild(block_mask, path, None, remarks, hit), None


def create_block_mask(
    mask_mod: Callable,
    B: int | None,
    H: int | None,
    Q_LEN: int,
    KV_LEN: int,
    device=None,
    BLOCK_SIZE: int | tuple[int, int] = 128,
    _compile: bool = False,
    separate_full_blocks: bool = True,
    compute_dq_write_order: bool = False,
    dq_kv_order: bool = True,
) -> Any:
    """torch's `create_block_mask` (same signature, same BlockMask), built from
    maskopt's packed keep words; see the module docstring and `build_block_mask`."""
    return build_block_mask(
        mask_mod, B, H, Q_LEN, KV_LEN, device, BLOCK_SIZE, _compile,
        separate_full_blocks, compute_dq_write_order, dq_kv_order,
    ).block_mask


# The compiled path: the whole per-call tensor computation as one inductor graph.
#
# On CUDA the eager path above costs about 300-500 small torch ops per call
# (bounds classification, word chunks, range checks, ordering), each a kernel
# launch or a host sync. The compiled path traces, once per mask (its cached
# compile) and shape key, a function of the aux tensors alone: the keep words
# of *every* word of the padded grid (no bounds classification, no chunks: the
# words, the lane and row masks and the per-block min / max are one fused
# reduction, nothing of grid size is materialized), the partial / full tables,
# torch's own `_dense_to_ordered` of them and of their transposes (the kv- and
# q-side tables, as `BlockMask.from_kv_blocks` derives them), and one small
# int64 `stats` tensor: whether any check of the eager path would have raised
# (an i32 result out of range, a division by zero, a load out of bounds, a
# shift out of range), and each aux tensor's (min, max, has a zero), which is
# all `lowering.index_range` reads of its values. `make_fx` traces it (fake
# tensors: no grid-size work at trace time) and `compile_fx` compiles it for
# those static shapes; new tensor values of the same shapes reuse it, with no
# guards and no recompiles. A call is then the specialization (if any), one
# compiled call, one host sync (`stats`) and a copy of a template BlockMask.
# Where a check fires, the eager path runs (and falls back to torch with its
# reason); where tracing or compiling fails, the eager path is used for that
# key from then on.

#: "auto": the compiled path on CUDA devices; True: on every device (the
#: tests use it on the CPU); False: never.
COMPILED: Any = "auto"

#: Why the last compiled-path trace or compile failed (its key then takes the eager path).
LAST_COMPILE_ERROR: str | None = None

_TENSOR_ATTRS = ("kv_num_blocks", "kv_indices", "full_kv_num_blocks", "full_kv_indices",
                 "q_num_blocks", "q_indices", "full_q_num_blocks", "full_q_indices")


def _use_compiled(device: torch.device) -> bool:
    if COMPILED == "auto":
        return device.type == "cuda"
    return bool(COMPILED)


class _Untraceable(Exception):
    pass


from maskopt.lowering.keep_words import GridSemantics, _int as _kw_int, _width  # noqa: E402
from xdsl.dialects import arith as _arith  # noqa: E402
from xdsl.interpreter import Interpreter, impl, register_impls  # noqa: E402
from maskopt.dialects import mask as _mask  # noqa: E402
from maskopt.dialects.semantics import MaskSemantics, wrap as _wrap_int  # noqa: E402


@register_impls
class _FlagSemantics(GridSemantics):
    """`GridSemantics` whose checks are recorded as bool tensors in `flags`
    instead of raising (a traced graph has no host decisions); the checked
    values are made safe (divisor 1, index clamped) so that the compiled
    kernels never divide by zero or read out of bounds."""

    def __init__(self, device):
        super().__init__(device)
        self.flags: list[torch.Tensor] = []

    def _flag(self, bad: torch.Tensor) -> None:
        self.flags.append(bad.any().reshape(()))

    def _binary(self, op, fn, args):
        w = _width(op.result.type)
        x = fn(*(_kw_int(a) for a in args))
        if w < 64:
            half = 1 << (w - 1)
            self._flag((x < -half) | (x >= half))
        return (x,)

    def _safe(self, rhs):
        rhs = _kw_int(rhs)
        self._flag(rhs == 0)
        return torch.where(rhs == 0, torch.ones_like(rhs), rhs)

    @impl(_arith.FloorDivSIOp)
    def run_floordivsi(self, interpreter, op, args):
        return self._binary(op, lambda a, b: torch.div(a, b, rounding_mode="floor"),
                            (args[0], self._safe(args[1])))

    @impl(_arith.DivSIOp)
    def run_divsi(self, interpreter, op, args):
        return self._binary(op, lambda a, b: torch.div(a, b, rounding_mode="trunc"),
                            (args[0], self._safe(args[1])))

    @impl(_arith.RemSIOp)
    def run_remsi(self, interpreter, op, args):
        return self._binary(op, torch.fmod, (args[0], self._safe(args[1])))

    @impl(_mask.FloorModOp)
    def run_floormod(self, interpreter, op, args):
        rhs = self._safe(args[1])
        return (_wrap_int(torch.remainder(_kw_int(args[0]), rhs), _width(op.result.type)),)

    def _shift_amount(self, op, amount):
        w = _width(op.result.type)
        self._flag((amount < 0) | (amount >= w))

    @impl(_mask.LoadOp)
    def run_load(self, interpreter, op, args):
        tensor, *indices = args
        wrapped = []
        for size, index in zip(tensor.shape, indices, strict=True):
            if size == 0:
                raise _Untraceable("a load from an empty tensor")
            index = _kw_int(index)
            index = torch.where(index < 0, index + size, index)
            self._flag((index < 0) | (index >= size))
            wrapped.append(index.clamp(0, size - 1))
        wrapped = torch.broadcast_tensors(*wrapped) if wrapped else []
        value = tensor[tuple(wrapped)] if wrapped else tensor.reshape(1, 1)
        if value.dtype == torch.bool:
            return (value,)
        return (_wrap_int(value.to(torch.int64), _width(op.result.type)),)


@dataclass
class _CompiledTables:
    fn: Callable
    """aux tensors -> (the BlockMask tensors present, stats)."""
    names: tuple[str, ...]
    """The BlockMask attributes `fn` returns, in order."""
    ranged: tuple[int, ...]
    """The aux tensors whose (min, max, has zero) follow the flag in stats."""
    template: Any = None
    """A BlockMask of this key: each call copies it and sets its tensors."""
    copy_template: bool = False


def _trace_tables(module, aux: tuple[torch.Tensor, ...], B, H, Q_LEN, KV_LEN, Q_BLOCK,
                  KV_BLOCK, separate_full_blocks, device) -> _CompiledTables:
    from torch.fx.experimental.proxy_tensor import make_fx
    from torch.nn.attention import flex_attention as fa

    func = module.ops.first
    if not isinstance(func, _mask.FuncOp) or not func.is_packed or not func.is_windowed:
        raise _Untraceable("not packed")
    if KV_BLOCK % 32 or min(B, H, Q_LEN, KV_LEN) <= 0:
        raise _Untraceable("shape")
    sem = _FlagSemantics(device)
    interp = Interpreter(module)
    interp.register_implementations(MaskSemantics())
    interp.register_implementations(sem, override=True)
    args = func.body.block.args
    Bv = B if args[0].uses else 1
    Hv = H if args[1].uses else 1
    nq, nkv, wpb = -(-Q_LEN // Q_BLOCK), -(-KV_LEN // KV_BLOCK), KV_BLOCK // 32
    last_word = (-(-KV_LEN // 32) - 1) * 32
    ranged = tuple(i for i, t in enumerate(aux)
                   if t.dtype != torch.bool and not t.is_floating_point() and t.numel())
    names = (("kv_num_blocks", "kv_indices", "full_kv_num_blocks", "full_kv_indices",
              "q_num_blocks", "q_indices", "full_q_num_blocks", "full_q_indices")
             if separate_full_blocks else ("kv_num_blocks", "kv_indices", "q_num_blocks", "q_indices"))

    def tables(*aux_t):
        sem.flags = []
        i64 = dict(dtype=torch.int64, device=device)
        b = torch.arange(Bv, **i64).reshape(Bv, 1, 1, 1, 1, 1)
        h = torch.arange(Hv, **i64).reshape(1, Hv, 1, 1, 1, 1)
        q = torch.arange(nq * Q_BLOCK, **i64).reshape(1, 1, nq, Q_BLOCK, 1, 1)
        kv = (torch.arange(nkv * wpb, **i64) * 32).reshape(1, 1, 1, 1, nkv, wpb)
        (w,) = interp.call_op(func, (b, h, q.clamp(max=Q_LEN - 1), kv.clamp(max=last_word), *aux_t))
        w = _kw_int(w)
        lanes = torch.clamp(KV_LEN - kv, 0, 32)
        w = w & ((torch.ones((), **i64) << lanes) - 1)
        w = torch.where(q < Q_LEN, w, torch.zeros((), **i64))
        w = w.expand(Bv, Hv, nq, Q_BLOCK, nkv, wpb)
        lo = w.amin(dim=(3, 5))
        hi = w.amax(dim=(3, 5))
        is_full = lo == _WORD
        full = is_full.to(torch.int8)
        partial = ((hi != 0) & ~is_full).to(torch.int8)
        if Bv != B or Hv != H:
            partial = partial.expand(B, H, nq, nkv).contiguous()
            full = full.expand(B, H, nq, nkv).contiguous()
        tabs = (partial, full) if separate_full_blocks else (partial | full,)
        kv_side = [fa._dense_to_ordered(t) for t in tabs]
        q_side = [fa._dense_to_ordered(t.transpose(-2, -1)) for t in tabs]
        outs = [x for pair in kv_side for x in pair] + [x for pair in q_side for x in pair]
        flags = sem.flags + [torch.zeros((), dtype=torch.bool, device=device)]
        stats = [torch.stack(flags).any().to(torch.int64)]
        for i in ranged:
            v = aux_t[i].reshape(-1).to(torch.int64)
            stats += [v.amin(), v.amax(), (v == 0).any().to(torch.int64)]
        return (*outs, torch.stack(stats))

    from torch._inductor.compile_fx import compile_fx

    gm = make_fx(tables, tracing_mode="fake")(*aux)
    fn = compile_fx(gm, list(aux))
    return _CompiledTables(fn, names, ranged)


def _standins(aux: tuple[torch.Tensor, ...], ranged, stats: list[int]) -> tuple[torch.Tensor, ...]:
    """Small CPU tensors with the aux tensors' (min, max, zero or not), dtype
    and emptiness: what `i32_overflow_reason` reads of them."""
    out = []
    pos = {i: k for k, i in enumerate(ranged)}
    for i, t in enumerate(aux):
        if i in pos:
            lo, hi, zero = stats[1 + 3 * pos[i]: 4 + 3 * pos[i]]
            out.append(torch.tensor([lo, hi, 0 if zero else lo], dtype=torch.int64))
        else:
            out.append(torch.zeros(min(t.numel(), 1), dtype=t.dtype))
    return tuple(out)


def _round_out(lo: int, hi: int) -> tuple[int, int]:
    """[lo, hi] widened to bounds of the form +-2^k, 2^k - 1 (few distinct keys)."""
    lo = (1 << (lo.bit_length() - 1) if lo > 0 else 0) if lo >= 0 else -(1 << (-lo - 1).bit_length())
    hi = (1 << hi.bit_length()) - 1 if hi >= 0 else -(1 << ((-hi).bit_length() - 1))
    return lo, hi


def _i32_reason(entry: _Compiled, sizes, aux, ranged, st: list[int]) -> str | None:
    """`i32_overflow_reason` for aux value ranges `st` (flag, then min, max,
    has zero per ranged tensor), cached per mask. The interval check is
    monotone in the ranges, so a pass with ranges widened to powers of two
    (a key that new values of the same data rarely change) is a pass for the
    exact ones; only where the widened ranges fail are the exact ones checked."""
    wide = list(st)
    for k in range(len(ranged)):
        wide[1 + 3 * k], wide[2 + 3 * k] = _round_out(st[1 + 3 * k], st[2 + 3 * k])
    func = entry.imported.ops.first
    for ranges in (wide, st):
        key = (sizes, tuple(ranges))
        if key not in entry.i32:
            if len(entry.i32) > 256:
                entry.i32.clear()
            entry.i32[key] = i32_overflow_reason(func, sizes, _standins(aux, ranged, ranges))
        if entry.i32[key] is None:
            return None
    return entry.i32[key]


def _fast_tables(entry: _Compiled, aux_dev: tuple[torch.Tensor, ...], B, H, Q_LEN, KV_LEN,
                 Q_BLOCK, KV_BLOCK, separate_full_blocks, device, mask_mod):
    """(BlockMask or None, i32 reason or None): None, None where the compiled
    path does not apply or a check fired (the caller runs the eager path)."""
    aux_dev = tuple(t.contiguous() for t in aux_dev)
    key = (B, H, Q_LEN, KV_LEN, Q_BLOCK, KV_BLOCK, bool(separate_full_blocks), str(device),
           tuple((t.dtype, tuple(t.shape)) for t in aux_dev))
    ct = entry.fast.get(key)
    if ct is None:
        try:
            ct = _trace_tables(entry.compiled.module, aux_dev, B, H, Q_LEN, KV_LEN, Q_BLOCK,
                               KV_BLOCK, separate_full_blocks, device)
        except Exception as e:  # noqa: BLE001 - untraceable / no compiler: eager from then on
            global LAST_COMPILE_ERROR
            LAST_COMPILE_ERROR = f"{type(e).__name__}: {e}"
            ct = False
        entry.fast[key] = ct
    if ct is False:
        return None, None
    *outs, stats = ct.fn(*aux_dev)
    st = stats.tolist()  # the one host sync
    if st[0]:
        return None, None
    wraps = _i32_reason(entry, (B, H, Q_LEN, KV_LEN), aux_dev, ct.ranged, st)
    if wraps is not None:
        return None, wraps
    return _finish(ct, outs, mask_mod, Q_LEN, KV_LEN, Q_BLOCK, KV_BLOCK), None


def _finish(ct: _CompiledTables, outs, mask_mod, Q_LEN, KV_LEN, Q_BLOCK, KV_BLOCK):
    """The BlockMask of the compiled tables' outputs `outs` (ct.names order)."""
    if ct.template is None:
        from torch.nn.attention import flex_attention as fa

        d = dict(zip(ct.names, outs))
        ct.template = fa.BlockMask.from_kv_blocks(
            d["kv_num_blocks"], d["kv_indices"], d.get("full_kv_num_blocks"),
            d.get("full_kv_indices"), BLOCK_SIZE=(Q_BLOCK, KV_BLOCK), mask_mod=mask_mod,
            **({"seq_lengths": (Q_LEN, KV_LEN)}
               if "seq_lengths" in _parameters(fa.BlockMask.from_kv_blocks) else {}))
        ct.copy_template = ct.template.mask_mod is mask_mod and all(
            hasattr(ct.template, name) for name in _TENSOR_ATTRS)
    d = dict(zip(ct.names, outs))
    if ct.copy_template:  # the BlockMask holds what it was given: copy it
        block_mask = copy.copy(ct.template)
        for name in _TENSOR_ATTRS:
            setattr(block_mask, name, d.get(name))
        block_mask.mask_mod = mask_mod
        return block_mask
    from torch.nn.attention import flex_attention as fa

    block_mask = fa.BlockMask.from_kv_blocks(
        d["kv_num_blocks"], d["kv_indices"], d.get("full_kv_num_blocks"),
        d.get("full_kv_indices"), BLOCK_SIZE=(Q_BLOCK, KV_BLOCK), mask_mod=mask_mod,
        compute_q_blocks=False, **({"seq_lengths": (Q_LEN, KV_LEN)}
                                   if "seq_lengths" in _parameters(fa.BlockMask.from_kv_blocks) else {}))
    for name in ("q_num_blocks", "q_indices", "full_q_num_blocks", "full_q_indices"):
        setattr(block_mask, name, d.get(name))
    return block_mask


# CUDA graphs: the whole per-call GPU work replayed.
#
# On CUDA a call with new values of a mask used before is host-bound (about
# 0.2 ms of GPU time at 16k against about 1 ms of launches, syncs and
# guards). So per call key (the mask's cache entry; B, H, lengths, block
# sizes, options; each aux tensor's dtype, shape and device), after the
# first call has compiled everything, the per-call GPU work is captured once
# in a `torch.cuda.CUDAGraph`: the specialization with its host decisions
# replayed from that first call (`specialize.SyncFree`: no syncs; a device
# check per decision says whether new values break it), the compiled
# tables call, its check flags and aux ranges, and the outputs packed into
# one flat buffer per dtype. A later call is a copy of its aux tensors into
# the graph's static inputs, `replay()`, one host read of the stats (the
# only sync), a clone of the flat buffers and the BlockMask of views of them
# (so the next replay cannot overwrite it). Where a check says the values
# lack the structure (a document split in two, an int64 value out of the
# narrowed range), or a flag of the compiled tables fires, the call runs the
# path without the graph, which decides (and remarks) as before.

#: "auto": CUDA graphs on CUDA devices (with the compiled path); False: never;
#: "eager": the same per-call flow with the captured step run eagerly on
#: every device instead of replayed (the tests use it on the CPU).
#: On by default since its H200 measurement (test/block-mask-results.md,
#: session 16: 11-18x torch's eager create_block_mask at 16k, against 3-6x
#: without graphs); the environment variable MASKOPT_CUDA_GRAPHS=0 turns it off.
GRAPHS: Any = False if os.environ.get("MASKOPT_CUDA_GRAPHS", "").lower() in ("0", "false", "off", "no") else "auto"

#: A graph whose memory pool (what its capture reserved) exceeds this is
#: dropped: its key takes the path without a graph (at 128k the compiled
#: tables' int64 word grid alone is 4 GiB, held for as long as the graph).
GRAPH_POOL_LIMIT = 1 << 30

#: Why the last capture was not made or failed.
LAST_GRAPH_ERROR: str | None = None


def _use_graphs(device: torch.device) -> bool:
    if GRAPHS == "eager":
        return True
    return bool(GRAPHS) and device.type == "cuda" and torch.cuda.is_available()


class _EagerStep:
    """A stand-in for a CUDAGraph (GRAPHS == "eager"): `replay()` runs the
    step and copies its results into the static outputs."""

    def __init__(self, step, outputs):
        self.step, self.outputs = step, outputs

    def replay(self) -> None:
        for dst, src in zip(self.outputs, self.step(), strict=True):
            dst.copy_(src)


@dataclass
class _Graph:
    graph: Any
    """The `torch.cuda.CUDAGraph` (or `_EagerStep`)."""
    static_in: tuple[torch.Tensor, ...]
    """The aux tensors' static copies (the call's aux order)."""
    flat: tuple[torch.Tensor, ...]
    """The outputs, one flat buffer per dtype (overwritten by each replay)."""
    layout: tuple[tuple[int, int, int, tuple[int, ...]], ...]
    """Per output: (buffer, offset, numel, shape): the BlockMask tensors in
    `ct.names` order, then the specialized mask's tensors."""
    small: tuple[bool, ...]
    """Per specialized-mask tensor: marked small (`specialize._mark_small`)."""
    stats: torch.Tensor
    """The compiled tables' stats, then the specialization's checks."""
    n_stats: int
    ct: _CompiledTables
    eval_entry: _Compiled
    eval_aux: tuple[torch.Tensor, ...]
    spec: tuple[Any, str] | None
    """(the specialized graph, its name); None: the call's own mask_mod."""
    path: str
    remarks: list
    pool_bytes: int = 0


def graph_pool_bytes() -> int:
    """The memory pools of the CUDA graphs of the cached masks, in all."""
    return sum(g.pool_bytes for e in CACHE._entries.values() for g in
               getattr(e.compiled, "graphs", {}).values() if g)


def _capture(mask_mod, entry: _Compiled, aux, decisions, build: BlockMaskBuild, state,
             B, H, Q_LEN, KV_LEN, Q_BLOCK, KV_BLOCK, separate_full_blocks, device, specialize):
    """The `_Graph` of this call key, checked against `build` (the BlockMask
    of the same values made without it); None where it does not apply."""
    from maskopt.lowering.specialize import SyncFree, sync_free

    eager = GRAPHS == "eager"
    static_in = tuple(torch.empty(t.shape, dtype=t.dtype, device=device).copy_(t) for t in aux)
    info = {}

    def step():
        with sync_free(SyncFree(decisions)) as tape:
            eval_mod, eval_entry, eval_aux, path, remarks = _eval_mask(
                mask_mod, entry, static_in, B, H, Q_LEN, KV_LEN, device, specialize)
            if tape.pos != len(tape.decisions):
                raise RuntimeError("the replay did not read the whole tape")
        if eval_entry is not state[0]:
            raise RuntimeError("the replay evaluates another mask")
        aux_dev = tuple(t.to(device).contiguous() for t in eval_aux)
        key = (B, H, Q_LEN, KV_LEN, Q_BLOCK, KV_BLOCK, bool(separate_full_blocks), str(device),
               tuple((t.dtype, tuple(t.shape)) for t in aux_dev))
        ct = eval_entry.fast.get(key)
        if not ct:
            raise RuntimeError("no compiled tables for the replayed mask")
        *outs, stats = ct.fn(*aux_dev)
        if tape.checks:
            stats = torch.cat([stats, torch.stack(tape.checks).to(stats.dtype)])
        parts = getattr(eval_mod, "_maskopt_parts", None) if path == "specialized" else None
        derived = tuple(parts[1]) if parts is not None else ()
        if path == "specialized" and parts is None:
            raise RuntimeError("a specialized mask_mod without its parts")
        tensors = [*outs, *derived]
        dtypes = list(dict.fromkeys(t.dtype for t in tensors))
        layout, offsets = [], [0] * len(dtypes)
        for t in tensors:
            k = dtypes.index(t.dtype)
            layout.append((k, offsets[k], t.numel(), tuple(t.shape)))
            offsets[k] += t.numel()
        flat = [torch.cat([t.reshape(-1) for t in tensors if t.dtype == d]) for d in dtypes]
        info.update(ct=ct, eval_entry=eval_entry, eval_aux=aux_dev, path=path, remarks=remarks,
                    layout=tuple(layout), n_stats=len(ct.ranged) * 3 + 1,
                    small=tuple(bool(getattr(t, "_maskopt_small", False)) for t in derived),
                    spec=None if parts is None else (parts[0], parts[2]))
        return (*flat, stats)

    if eager:
        outputs = tuple(t.clone() for t in step())
        graph, pool = _EagerStep(step, outputs), 0
    else:
        side = torch.cuda.Stream(device)
        side.wait_stream(torch.cuda.current_stream(device))
        mode = torch.cuda.get_sync_debug_mode()
        torch.cuda.set_sync_debug_mode("error")  # a sync in the step: no graph
        try:
            with torch.cuda.stream(side):
                step()
        finally:
            torch.cuda.set_sync_debug_mode(mode)
        torch.cuda.current_stream(device).wait_stream(side)
        graph = torch.cuda.CUDAGraph()
        torch.cuda.synchronize(device)
        torch.cuda.empty_cache()  # torch.cuda.graph does too: the delta below is the pool
        before = torch.cuda.memory_reserved(device)
        with torch.cuda.graph(graph):
            outputs = step()
        torch.cuda.synchronize(device)
        pool = torch.cuda.memory_reserved(device) - before
        if pool > GRAPH_POOL_LIMIT:
            raise RuntimeError(f"its memory pool takes {pool} bytes (GRAPH_POOL_LIMIT {GRAPH_POOL_LIMIT})")
    g = _Graph(graph, static_in, tuple(outputs[:-1]), info["layout"], info["small"], outputs[-1],
               info["n_stats"], info["ct"], info["eval_entry"], info["eval_aux"], info["spec"],
               info["path"], info["remarks"], pool)
    # the graph on the values it was captured from must give this call's BlockMask
    again = _replay(g, aux, mask_mod, build.cache_hit, (B, H, Q_LEN, KV_LEN), Q_BLOCK, KV_BLOCK)
    if again is None or again.path != build.path:
        raise RuntimeError("the graph's checks fire on the values it was captured from")
    for name in _TENSOR_ATTRS:
        a, b = getattr(again.block_mask, name, None), getattr(build.block_mask, name, None)
        if (a is None) != (b is None) or (a is not None and not torch.equal(a, b)):
            raise RuntimeError(f"the graph's {name} differs from the call's")
    return g


def _replay(g: _Graph, aux, mask_mod, hit, sizes, Q_BLOCK, KV_BLOCK) -> BlockMaskBuild | None:
    """The call as a replay of `g`; None where a check fired."""
    for dst, src in zip(g.static_in, aux, strict=True):
        dst.copy_(src)
    g.graph.replay()
    st = g.stats.tolist()  # the one host sync
    n = g.n_stats
    if st[0] or any(st[n:]):
        return None
    if g.ct.ranged and _i32_reason(g.eval_entry, sizes, g.eval_aux, g.ct.ranged, st[:n]) is not None:
        return None
    bufs = [b.clone() for b in g.flat]
    tensors = [bufs[k][o:o + c].view(shape) for k, o, c, shape in g.layout]
    m = len(g.ct.names)
    outs, derived = tensors[:m], tensors[m:]
    if g.spec is None:
        eval_mod = mask_mod
    else:
        from maskopt.lowering.specialize import _mark_small, _wrap

        for t, small in zip(derived, g.small):
            if small:
                _mark_small(t)
        eval_mod = _wrap(g.spec[0], tuple(derived), g.spec[1])
    block_mask = _finish(g.ct, outs, eval_mod, sizes[2], sizes[3], Q_BLOCK, KV_BLOCK)
    return BlockMaskBuild(block_mask, g.path, None, list(g.remarks), hit, compiled_tables=True,
                          graph=True)
