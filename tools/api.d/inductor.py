"""
`maskopt.inductor`: maskopt as a drop-in for torch inductor's packed-mask analysis.

torch inductor's FLASH backend of flex_attention (FlashAttention-4, SM100)
asks `select_packed_mask_intervals(graph_module, other_buffers,
aux_scalar_symbol_codes)` (torch/_inductor/kernel/flex/interval_mask_packing.py)
for a packed form of the mask_mod graph; its template
(`templates/flash_attention.py.jinja`) then prints

    @cute.jit
    def mask_mod(b_idx, h_idx, q_idx, kv_idx, seqlen_info, aux_tensors):
        aux_tensors = [<the mask_mod's tensor buffers>]       # when it has any
        mask_mod_packed = cute.make_rmem_tensor(1, dtype=cutlass.Uint32)
        mask_mod_packed[0] = cutlass.Uint32(0)
        mask_mod_packed[0] = mask_mod_packed[0] | <element.keep_mask_expr()>   # per element
        return mask_mod_packed.load()

`select_packed_mask_intervals` here has the same contract, with maskopt's
compiler behind it:

- It returns None when the mask does not pack (within 8 runs), is the
  constant True (as inductor does), or uses something it cannot render; `()`
  when it keeps no lane; else a tuple of elements whose `keep_mask_expr()`s
  OR to the keep word. A mask that maskopt proves keeps every lane without
  being the constant True (`q_idx - kv_idx <= q_idx`) is one all-ones word
  element: inductor packs such a mask, so the drop-in must not leave it
  per-lane.
- Each element's `keep_mask_expr()` is a CuTe expression for a 32-bit keep
  word using only the template's names: `b_idx[0]`, `h_idx[0]`, `q_idx[0]`,
  `kv_idx[0]` (Int32 vectors), `aux_tensors[i]`, `cutlass`, `utils`
  (`flash_attn.cute.utils`), `min`, `max`.
- `aux_tensors[i]` is the i-th tensor buffer of `other_buffers` (the
  template's order); a buffer that is a `sympy.Expr` is a scalar, rendered
  through `aux_scalar_symbol_codes` (symbol -> CuTe code). Placeholders
  past `other_buffers` are tensors.
- Range elements (`PackedMaskRange`, a half-open lane run) also have
  `render_lower()`, `render_upper()` (Int32 lane bounds, unclamped) and
  `is_full()`; other elements (`PackedMaskWord`: a select, an intersection,
  a complement of runs) only have the word. Every element has
  `with_symbol_codes(codes)`, which re-renders the scalars with new codes.
- It needs no inductor graph handler (`V.graph`); with one set it is used
  the same way.

`install()` makes torch inductor's flex FLASH lowering call this function
(`uninstall()` restores inductor's own analysis; `installed()` is a context
manager). Where query's and key's shapes are static, it compiles the mask
for the kernel's domain (`flex_domain`: b < B, h < H, q_idx < Q_LEN,
kv < KV_LEN, lengths rounded up to 256), so guards that only the full
int32 domain needs disappear; symbolic shapes keep the full domain. On
torch 2.13, whose call site passes only the graph module, the
mask_mod's `other_buffers` are handed over from `get_flex_flash_fwd_configs`.
"""

from __future__ import annotations

import contextlib
import contextvars
import copy
import dataclasses
import functools
import logging
import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

__all__ = [
    "PackedMaskRange",
    "PackedMaskWord",
    "install",
    "installed",
    "is_installed",
    "select_packed_mask_intervals",
    "uninstall",
]

#: The code-size cap of inductor's analysis (MAX_PACKED_MASK_INTERVALS_FOR_CODE_SIZE).
MAX_INTERVALS = 8

_log = logging.getLogger(__name__)

_TOKEN = "__maskopt_aux_scalar_{}__"
_TOKEN_RE = re.compile(r"__maskopt_aux_scalar_(\d+)__")


# Elements ---------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class PackedMaskWord:
    """
    One element of a packed keep word: its `keep_mask_expr()` is a CuTe
    Uint32 expression; the template ORs the elements' expressions.

    `scalar_exprs[i]` is the sympy expression of the i-th aux placeholder when
    it is a scalar (None for a tensor), rendered through `symbol_codes`.
    """

    word_code: str
    scalar_exprs: tuple[Any, ...] = ()
    symbol_codes: Mapping[Any, str] = dataclasses.field(
        default_factory=dict, compare=False, repr=False
    )

    def keep_mask_expr(self) -> str:
        """The CuTe expression of this element's 32-bit keep word."""
        return self._render(self.word_code)

    def is_full(self) -> bool:
        """Whether the element keeps all 32 lanes (never, for a packed word)."""
        return False

    def render_lower(self) -> str:
        raise TypeError(
            f"{type(self).__name__} is not a lane range: it has no lower bound; "
            "use keep_mask_expr()"
        )

    def render_upper(self) -> str:
        raise TypeError(
            f"{type(self).__name__} is not a lane range: it has no upper bound; "
            "use keep_mask_expr()"
        )

    def with_symbol_codes(self, symbol_codes: Mapping[Any, str]) -> PackedMaskWord:
        """A copy that renders symbolic aux scalars through `symbol_codes`."""
        return dataclasses.replace(self, symbol_codes=dict(symbol_codes))

    def _render(self, code: str) -> str:
        if not self.scalar_exprs:
            return code
        codes: dict[int, str] = {}

        def scalar(m: re.Match[str]) -> str:
            k = int(m.group(1))
            if k not in codes:
                rendered = _render_scalar(self.scalar_exprs[k], self.symbol_codes)
                if rendered is None:
                    raise AssertionError(
                        f"failed to render aux scalar {self.scalar_exprs[k]} as CuTe code"
                    )
                codes[k] = rendered
            return codes[k]

        return _TOKEN_RE.sub(scalar, code)


@dataclasses.dataclass(frozen=True)
class PackedMaskRange(PackedMaskWord):
    """A half-open lane run [lower, upper) of a packed keep word (lanes 0..31)."""

    lower_code: str = "cutlass.Int32(0)"
    upper_code: str = "cutlass.Int32(32)"
    lower_const: int | None = None
    upper_const: int | None = None

    def is_full(self) -> bool:
        """Whether the run is statically [0, 32) (or wider)."""
        return (
            self.lower_const is not None
            and self.upper_const is not None
            and self.lower_const <= 0
            and self.upper_const >= 32
        )

    def render_lower(self) -> str:
        """The Int32 CuTe expression of the first kept lane (may lie outside [0, 32])."""
        return self._render(self.lower_code)

    def render_upper(self) -> str:
        """The Int32 CuTe expression of the lane past the run (may lie outside [0, 32])."""
        return self._render(self.upper_code)


def _render_scalar(expr: Any, symbol_codes: Mapping[Any, str]) -> str | None:
    """A sympy expression as CuTe index code, as inductor renders it."""
    import sympy

    if isinstance(expr, (int, sympy.Integer)):
        return f"cutlass.Int32({int(expr)})"
    from torch._inductor.kernel.flex.interval_mask_packing import sympy_to_cute_index

    return sympy_to_cute_index(expr, symbol_codes)


# The analysis -----------------------------------------------------------------------


def select_packed_mask_intervals(
    graph_module: Any,
    other_buffers: Sequence[object] = (),
    aux_scalar_symbol_codes: Mapping[Any, str] | None = None,
) -> tuple[PackedMaskWord, ...] | None:
    """
    maskopt's packed form of an inductor mask_mod graph, or None.

    Same contract as torch inductor's function of that name (see the module
    doc): None when the graph does not pack into at most 8 runs, is the
    constant True, or cannot be rendered; else a tuple of elements whose
    `keep_mask_expr()`s OR to the keep word (`()`: no lane kept).
    """
    import sympy
    import torch.fx

    from maskopt.lowering.cute import CuteEmitError, printing_room
    from maskopt.lowering.fx_import import FXImportError

    graph = graph_module.graph
    nodes = list(graph.nodes)
    placeholders = [n for n in nodes if n.op == "placeholder"]
    outputs = [n for n in nodes if n.op == "output"]
    if len(placeholders) < 4 or len(outputs) != 1:
        return None
    if not isinstance(outputs[0].args[0], torch.fx.Node):
        return None
    from torch._inductor.kernel.flex.interval_mask_packing import is_bool_full_node

    if is_bool_full_node(outputs[0].args[0], True):
        return None  # the constant True: inductor's own analysis returns None too
    aux_placeholders = placeholders[4:]
    buffers = list(other_buffers)[: len(aux_placeholders)]
    is_scalar = [isinstance(b, sympy.Expr) for b in buffers]
    is_scalar += [False] * (len(aux_placeholders) - len(buffers))
    symbol_codes = dict(aux_scalar_symbol_codes or {})

    try:
        gm = _prepare(graph_module, aux_placeholders, buffers, is_scalar)
        if gm is None:
            return None
        result = _compile(gm)
    except (FXImportError, CuteEmitError, NotImplementedError):
        return None  # maskopt cannot import or print it: inductor's per-lane path
    except Exception:  # noqa: BLE001 - never break the user's compile; say so
        _log.warning("maskopt failed on a mask graph; using the per-lane path", exc_info=True)
        return None
    if not result.packed:
        _perf_hint(result)
        return None
    func = result.module.ops.first

    # maskopt numbers tensor block arguments as aux_tensors[j] in order; that is
    # inductor's numbering (tensor buffers in order) when every placeholder is
    # the same kind (tensor or scalar) for both.
    from xdsl.dialects.builtin import TensorType

    order = [i for i, s in enumerate(is_scalar) if not s] + [i for i, s in enumerate(is_scalar) if s]
    scalar_args = []
    for i, arg in zip(order, list(func.body.block.args)[4:]):
        tensor_arg = isinstance(arg.type, TensorType)
        if not is_scalar[i]:
            if not tensor_arg:
                return None  # e.g. a 0-dim tensor capture, or a scalar without its buffer
            continue
        if tensor_arg:
            return None
        if arg.uses.get_length():
            if _render_scalar(buffers[i], symbol_codes) is None:
                return None
            scalar_args.append((arg, i))
    scalar_exprs = tuple(buffers[i] if is_scalar[i] else None for i in range(len(buffers)))
    try:
        with printing_room(func):
            return _elements(func, result.cute_module.ops.first, scalar_args, scalar_exprs, symbol_codes)
    except CuteEmitError:
        return None  # e.g. too deep for one expression: inductor's per-lane path


def _perf_hint(result: Any) -> None:
    """Say why the mask evaluates per lane, where inductor says it (TORCH_LOGS=perf_hints)."""
    import torch._logging

    log = torch._logging.getArtifactLogger(
        "torch._inductor.kernel.flex.interval_mask_packing", "perf_hints"
    )
    for remark in result.remarks:
        log.info("flex FLASH (maskopt): mask_mod evaluates per lane in partial blocks: %s", remark)


def _compile(gm: Any):
    import maskopt

    return maskopt.compile_mask(gm, max_intervals=MAX_INTERVALS, domain=_DOMAIN.get())


#: the (B, H, Q, KV) domain of the flex lowering in progress (`install()`
#: sets it where query's and key's shapes are static), else None
_DOMAIN: contextvars.ContextVar[tuple[int, int, int, int] | None] = contextvars.ContextVar(
    "maskopt_flex_domain", default=None
)

#: q and kv bounds are rounded up to this: FA4's last tile computes rows and
#: columns past the lengths (discarded), and their words stay exact too
_DOMAIN_TILE = 256


def flex_domain(query_size: Sequence[Any], key_size: Sequence[Any]) -> tuple[int, int, int, int] | None:
    """
    The domain a flex kernel calls its mask_mod in, from query's
    (B, H, Q_LEN, D) and key's (B, H_kv, KV_LEN, D) sizes: b < B, h < H (query
    heads), q_idx < Q_LEN and kv < KV_LEN, the lengths rounded up to a
    multiple of 256 (the rows and columns of FA4's last tile). None where a
    size is symbolic (dynamic shapes: the full int32 domain stays).
    """
    import sympy

    def static(x):
        if isinstance(x, bool):
            return None
        if isinstance(x, int):
            return x
        if isinstance(x, sympy.Integer):
            return int(x)
        return None

    try:
        b, h, q = (static(x) for x in list(query_size)[:3])
        kv = static(list(key_size)[2])
    except (TypeError, ValueError, IndexError):
        return None
    if None in (b, h, q, kv) or min(b, h, q, kv) < 1:
        return None
    up = lambda n: min(-(-n // _DOMAIN_TILE) * _DOMAIN_TILE, 2**31)  # noqa: E731
    return (min(b, 2**31), min(h, 2**31), up(q), up(kv))


@contextlib.contextmanager
def domain(bounds: tuple[int, int, int, int] | None) -> Iterator[None]:
    """`with maskopt.inductor.domain((B, H, Q, KV)): ...`: the drop-in compiles
    masks for that domain (what `install()` does during a flex lowering with
    static shapes)."""
    token = _DOMAIN.set(bounds)
    try:
        yield
    finally:
        _DOMAIN.reset(token)


def _wrap_kernel(original):
    @functools.wraps(original)
    def create_flex_flash_attention_kernel(query, key, *args, **kwargs):
        try:
            bounds = flex_domain(query.get_size(), key.get_size())
        except Exception:  # noqa: BLE001 - no shapes: the full domain
            bounds = None
        with domain(bounds):
            return original(query, key, *args, **kwargs)

    create_flex_flash_attention_kernel.__maskopt_original__ = original  # type: ignore[attr-defined]
    return create_flex_flash_attention_kernel


_ONES = "cutlass.Uint32(0xffffffff)"


def _elements(func, lowered, scalar_args, scalar_exprs, symbol_codes):
    """Split the packed word of `func` into template elements: each word as
    `lowered` (compile_mask's `cute_module`, the module's IR) prints it, each
    run's bounds from `func` (the interval IR)."""
    import io

    from xdsl.transforms.canonicalization_patterns.utils import const_evaluate_operand

    from maskopt.dialects import interval
    from maskopt.lowering.cute import (
        CutePrintContext,
        _FunctionPrinter,
        check_nesting,
        ctype,
        with_lowered_expressions,
    )

    # The lowering keeps the union's operands in order. The bounds are the
    # interval IR's, their expressions lowered for printing.
    bounds_func, bounds_ops = with_lowered_expressions(func)
    printer = _FunctionPrinter(lowered, CutePrintContext(io.StringIO()), inline=True)
    bounds = _FunctionPrinter(bounds_func, CutePrintContext(io.StringIO()), inline=True)
    bounds_args, lowered_args = bounds_func.body.block.args, lowered.body.block.args
    for arg, k in scalar_args:
        text = f"{ctype(arg.type)}({_TOKEN.format(k)})"
        bounds.ctx.names[bounds_args[arg.index]] = text
        printer.ctx.names[lowered_args[arg.index]] = text

    def word(code: str) -> PackedMaskWord:
        return PackedMaskWord(code, scalar_exprs, symbol_codes)

    def parts_of(f):
        s = f.yield_op.value.owner.set
        return s.owner.sets if isinstance(s.owner, interval.UnionOp) else (s,)

    v = func.yield_op.value
    c = const_evaluate_operand(v)
    if c is not None:
        c %= 1 << 32
        return () if c == 0 else (word(f"cutlass.Uint32({c:#x})"),)
    assert isinstance(v.owner, interval.KeepWordOp)
    elements: list[PackedMaskWord] = []
    for p, original in zip(parts_of(lowered), parts_of(func), strict=True):
        op = original.owner
        if isinstance(op, interval.FullOp):
            return (word(_ONES),)
        if isinstance(op, interval.EmptyOp):
            continue
        code = check_nesting(printer.expr(p))
        if isinstance(op, interval.RangeOp):
            elements.append(
                PackedMaskRange(
                    code,
                    scalar_exprs,
                    symbol_codes,
                    lower_code=check_nesting(bounds.expr(bounds_ops[op].lo)),
                    upper_code=check_nesting(bounds.expr(bounds_ops[op].hi)),
                    lower_const=const_evaluate_operand(op.lo),
                    upper_const=const_evaluate_operand(op.hi),
                )
            )
        else:
            elements.append(word(code))
    if any(e.is_full() for e in elements):
        return (word(_ONES),)
    return tuple(elements)


def _prepare(gm, aux_placeholders, buffers, is_scalar):
    """`gm`, or a copy whose aux placeholders are tensors first, then scalars (the
    order of a mask.func's arguments), and whose nodes all have `meta["val"]`
    (fake tensor propagation); None when the inputs' dtypes/shapes are unknown."""
    import torch
    import torch.fx

    def has_meta(n) -> bool:
        return "val" in n.meta or "tensor_meta" in n.meta

    reorder = any(s and not t for s, t in zip(is_scalar, is_scalar[1:]))
    needs_meta = not all(has_meta(n) for n in gm.graph.nodes if n.op != "output")
    if not reorder and not needs_meta:
        return gm
    order = [i for i, s in enumerate(is_scalar) if not s] + [i for i, s in enumerate(is_scalar) if s]
    graph = torch.fx.Graph()
    env: dict[Any, Any] = {}
    placeholders = [n for n in gm.graph.nodes if n.op == "placeholder"]
    for n in placeholders[:4] + [aux_placeholders[i] for i in order]:
        env[n] = graph.placeholder(n.name)
        env[n].meta = copy.copy(n.meta)
    for n in gm.graph.nodes:
        if n.op != "placeholder":
            env[n] = graph.node_copy(n, lambda x: env[x])
            env[n].meta = copy.copy(n.meta)
    copy_gm = torch.fx.GraphModule(gm, graph)
    if not needs_meta:
        return copy_gm

    inputs: list[Any] = [torch.zeros((), dtype=torch.int32) for _ in range(4)]
    for i in order:
        if is_scalar[i]:
            inputs.append(torch.zeros((), dtype=torch.int64))
            continue
        ph = aux_placeholders[i]
        meta = ph.meta.get("val", ph.meta.get("tensor_meta"))
        dtype, shape = getattr(meta, "dtype", None), getattr(meta, "shape", None)
        if (dtype is None or shape is None) and i < len(buffers):
            buf = buffers[i]
            try:
                dtype, shape = buf.get_dtype(), buf.get_size()
            except Exception:  # noqa: BLE001 - not an inductor buffer
                dtype = getattr(buf, "dtype", None)
                shape = getattr(buf, "shape", None)
        if dtype is None or shape is None:
            return None
        try:
            shape = tuple(int(d) for d in shape)
        except TypeError:
            return None  # symbolic sizes
        inputs.append(torch.zeros(shape, dtype=dtype))
    from torch._subclasses.fake_tensor import FakeTensorMode
    from torch.fx.passes.fake_tensor_prop import FakeTensorProp

    for n in copy_gm.graph.nodes:
        n.meta.pop("tensor_meta", None)
    try:
        FakeTensorProp(copy_gm, FakeTensorMode(allow_non_fake_inputs=True)).propagate(*inputs)
    except Exception:  # noqa: BLE001 - the graph does not run on these inputs
        return None
    return copy_gm


# Installing into torch inductor --------------------------------------------------

_ORIGINALS: dict[tuple[Any, str], Any] = {}
_MASK_OTHER_BUFFERS: contextvars.ContextVar[Sequence[object] | None] = contextvars.ContextVar(
    "maskopt_mask_mod_other_buffers", default=None
)


def _inductor_entry(
    graph_module: Any,
    other_buffers: Sequence[object] | None = None,
    aux_scalar_symbol_codes: Mapping[Any, str] | None = None,
):
    """What inductor calls once installed: `select_packed_mask_intervals`, with the
    mask_mod's buffers taken from the enclosing config selection when the call
    site (torch 2.13) passes none."""
    if other_buffers is None:
        other_buffers = _MASK_OTHER_BUFFERS.get() or ()
    return select_packed_mask_intervals(graph_module, other_buffers, aux_scalar_symbol_codes)


def _wrap_configs(original):
    @functools.wraps(original)
    def get_flex_flash_fwd_configs(*args, **kwargs):
        token = _MASK_OTHER_BUFFERS.set(tuple(kwargs.get("mask_mod_other_buffers", ()) or ()))
        try:
            return original(*args, **kwargs)
        finally:
            _MASK_OTHER_BUFFERS.reset(token)

    get_flex_flash_fwd_configs.__maskopt_original__ = original  # type: ignore[attr-defined]
    return get_flex_flash_fwd_configs


def is_installed() -> bool:
    """Whether `install()` is in effect."""
    return bool(_ORIGINALS)


def install() -> None:
    """
    Make torch inductor's flex_attention FLASH lowering use maskopt's
    `select_packed_mask_intervals` instead of its own analysis (idempotent).
    """
    if _ORIGINALS:
        return
    import torch._inductor.kernel.flex.flex_attention as fa
    import torch._inductor.kernel.flex.flex_flash_attention as ffa
    import torch._inductor.kernel.flex.interval_mask_packing as imp

    kernel = _wrap_kernel(ffa.create_flex_flash_attention_kernel)
    patches = {
        (ffa, "select_packed_mask_intervals"): _inductor_entry,
        (imp, "select_packed_mask_intervals"): _inductor_entry,
        (ffa, "get_flex_flash_fwd_configs"): _wrap_configs(ffa.get_flex_flash_fwd_configs),
        # the domain from query's and key's static shapes (flex_attention
        # imports the function by name: both names are patched)
        (ffa, "create_flex_flash_attention_kernel"): kernel,
    }
    if getattr(fa, "create_flex_flash_attention_kernel", None) is ffa.create_flex_flash_attention_kernel:
        patches[(fa, "create_flex_flash_attention_kernel")] = kernel
    for (module, attr), new in patches.items():
        _ORIGINALS[(module, attr)] = getattr(module, attr)
        setattr(module, attr, new)


def uninstall() -> None:
    """Restore torch inductor's own analysis (no-op when not installed)."""
    while _ORIGINALS:
        (module, attr), original = _ORIGINALS.popitem()
        setattr(module, attr, original)


@contextlib.contextmanager
def installed() -> Iterator[None]:
    """`with maskopt.inductor.installed(): ...`: install for the block, then restore."""
    was = is_installed()
    install()
    try:
        yield
    finally:
        if not was:
            uninstall()
