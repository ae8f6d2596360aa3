"""Trace a FlexAttention ``mask_mod`` into the aten FX graph that inductor sees.

``trace_mask_mod(mask_mod)`` reproduces what happens to a mask_mod on its way
into torch 2.13's inductor lowering of ``torch.ops.higher_order.flex_attention``
(where ``select_packed_mask_intervals`` and the CuTe mask codegen consume it):

1. ``trace_flex_attention`` (torch/_higher_order_ops/flex_attention.py) calls
   ``reenter_make_fx(mask_mod)(*mask_example_vals, *mask_mod_other_buffers)``
   under ``TransformGetItemToIndex()``, where the example values are four
   0-dim ``torch.int`` (int32) tensors.  Under ``torch.compile`` the outer
   tracer is AOTAutograd's post-dispatch make_fx with inductor's
   ``select_decomp_table()``; we do the same (``pre_dispatch=False``: the
   pre-dispatch trace would add no-op ``aten.to.dtype`` nodes inductor never
   sees) with ``tracing_mode="fake"`` so that data-dependent Python control
   flow fails the way it does under compile instead of silently specializing.
2. Dynamo lifts tensors captured by the closure into extra graph inputs
   (``mask_mod_other_buffers``).  make_fx on a plain Python function records
   them as ``get_attr`` constants instead, so we turn every captured-tensor
   constant into a placeholder after ``b, h, q_idx, kv_idx``.  **Order: first
   use in the traced graph** (the order in which the mask_mod's Python code
   first touches each tensor), one placeholder per distinct tensor object.
   This is also the order Dynamo gives them.  Tensors created *inside* the
   mask_mod (``torch.tensor(...)``, and the int64 scalar tensors that
   ``TransformGetItemToIndex`` makes for Python-int indices such as
   ``x[-1]``) are not captures: they are consumed by ``lift_fresh_copy`` and
   stay constants, which step 3 folds into ``aten.full.default([], v)`` exactly
   as inductor's ``constant_fold_uniform_value`` does.
3. Inductor runs ``_recursive_joint_graph_passes`` and
   ``_recursive_post_grad_passes`` on HOP subgraphs before lowering.  By
   default (``inductor_passes=True``) we run the same two passes on the mask
   graph (as for an inference graph: ``reorder_for_locality`` moves nodes next
   to their first user).  Node names are the ones make_fx gives; inductor's
   graph has ``arg0_1 ...`` placeholder names where ours are ``b, h, q_idx,
   kv_idx`` and a name per aux tensor (the closure variable name when it can
   be found, else ``aux<i>``); ``node.meta["aux_index"]`` holds i.

Every node carries ``meta["val"]`` (a FakeTensor) and ``meta["tensor_meta"]``.
Call nodes carry ``meta["stack_trace"]`` with the user's frames (torch-internal
frames are dropped; a node made only by torch code, e.g. the ``result & ...``
of ``and_masks``/``or_masks``, gets its torch/nn frames).  make_fx does
record stack traces with ``record_stack_traces=True``, but its default filter
keeps only frames of functions named ``forward`` (so a plain mask_mod gets
nothing, and ``x[i]`` gets torch's own ``ModIndex.forward`` frame); we install
a per-trace filter on the tracer instead.  Python ints captured by the closure
are baked in as constants (``aux_scalars`` is always ``[]``).
"""

from __future__ import annotations

import contextlib
import inspect
import os
import sys
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import torch
import torch.fx

__all__ = [
    "MaskTraceError",
    "TracedMask",
    "trace_mask_mod",
    "mask_mod_name",
    "capture_inductor_mask_graph",
    "graph_signature",
]

_TORCH_DIR = os.path.dirname(os.path.abspath(torch.__file__)) + os.sep
_TORCH_NN_DIR = os.path.join(_TORCH_DIR, "nn") + os.sep
_THIS_FILE = os.path.abspath(__file__)
_INDEX_NAMES = ("b", "h", "q_idx", "kv_idx")
_INTEGER_DTYPES = (
    torch.int8,
    torch.int16,
    torch.int32,
    torch.int64,
    torch.uint8,
    torch.bool,
)


class MaskTraceError(Exception):
    """A mask_mod could not be traced; the message is one line naming it and the cause.

    ``location`` is the ``(file, line, column)`` (1-based) in the user's source
    that the error is about when no traceback gives it (the parameters of a
    mask_mod of the wrong arity), else None."""

    def __init__(self, message: str, *, location: tuple[str, int, int] | None = None):
        super().__init__(message)
        self.location = location


@dataclass
class TracedMask:
    graph_module: torch.fx.GraphModule
    aux_tensors: list[torch.Tensor]  # in placeholder order, after b, h, q_idx, kv_idx
    aux_scalars: list[int] = field(default_factory=list)  # symbolic scalar captures: unsupported, always []
    name: str = "mask_mod"
    aux_names: list[str] = field(default_factory=list)  # placeholder names of aux_tensors

    @property
    def placeholders(self) -> list[torch.fx.Node]:
        return list(self.graph_module.graph.find_nodes(op="placeholder"))

    @property
    def output_node(self) -> torch.fx.Node:
        (out,) = self.graph_module.graph.find_nodes(op="output")
        return out.args[0]

    def __call__(self, b, h, q_idx, kv_idx):
        """Run the traced graph eagerly (same calling convention as the mask_mod)."""
        return self.graph_module(b, h, q_idx, kv_idx, *self.aux_tensors)


def mask_mod_name(mask_mod: Callable, name: str | None = None) -> str:
    if name is not None:
        return name
    for attr in ("__name__", "__qualname__"):
        n = getattr(mask_mod, attr, None)
        if isinstance(n, str):
            return n
    func = getattr(mask_mod, "func", None)  # functools.partial
    if func is not None:
        return mask_mod_name(func)
    return type(mask_mod).__name__


def _one_line(exc: BaseException) -> str:
    msg = str(exc).strip()
    lines = [ln.strip() for ln in msg.splitlines() if ln.strip()]
    first = lines[0] if lines else ""
    if len(first) > 300:
        first = first[:297] + "..."
    return f"{type(exc).__name__}: {first}" if first else type(exc).__name__


def _user_frame_filter(summary: traceback.StackSummary) -> traceback.StackSummary:
    """Keep the frames below our tracing wrapper that are not torch internals."""
    frames = list(summary)
    start = 0
    for i, fr in enumerate(frames):
        if os.path.abspath(fr.filename) == _THIS_FILE and fr.name == "_traced_mask_entry":
            start = i + 1
    below = [fr for fr in frames[start:] if os.path.abspath(fr.filename) != _THIS_FILE]
    kept = [fr for fr in below if not os.path.abspath(fr.filename).startswith(_TORCH_DIR)]
    if not kept:
        # Only torch frames: keep user-facing library code such as the
        # and_masks/or_masks combinators (torch/nn/attention/flex_attention.py).
        kept = [fr for fr in below if os.path.abspath(fr.filename).startswith(_TORCH_NN_DIR)]
    return traceback.StackSummary.from_list(_with_positions(kept))


def _with_positions(frames: list[traceback.FrameSummary]) -> list[traceback.FrameSummary]:
    """
    The frames with the column span of the expression each one is evaluating
    (`colno`/`end_colno`, taken from the live frame's current instruction),
    so that the formatted stack trace underlines it with carets like a
    Python 3.11 traceback: `doc_ids[kv_idx]` rather than the whole line.
    """
    live: dict[tuple[str, int, str], Any] = {}
    frame = sys._getframe(1)
    while frame is not None:
        live.setdefault((frame.f_code.co_filename, frame.f_lineno, frame.f_code.co_name), frame)
        frame = frame.f_back
    out = []
    for fr in frames:
        f = live.get((fr.filename, fr.lineno, fr.name))
        pos = None
        if f is not None and f.f_lasti >= 0:
            with contextlib.suppress(Exception):
                pos = list(f.f_code.co_positions())[f.f_lasti // 2]
        if pos is None or None in pos or pos[0] != fr.lineno:
            out.append(fr)
            continue
        out.append(
            traceback.FrameSummary(
                fr.filename, fr.lineno, fr.name, end_lineno=pos[1], colno=pos[2], end_colno=pos[3]
            )
        )
    return out


def _closure_tensor_names(fn: Any, depth: int = 0, seen: set[int] | None = None) -> dict[int, str]:
    """Best-effort map id(tensor) -> closure variable name, following nested closures."""
    names: dict[int, str] = {}
    if seen is None:
        seen = set()
    if depth > 8 or id(fn) in seen:
        return names
    seen.add(id(fn))
    if hasattr(fn, "func"):  # functools.partial
        for a in list(getattr(fn, "args", ())) + list((getattr(fn, "keywords", None) or {}).values()):
            if isinstance(a, torch.Tensor):
                names.setdefault(id(a), "aux")
        names.update({k: v for k, v in _closure_tensor_names(fn.func, depth + 1, seen).items() if k not in names})
    code = getattr(fn, "__code__", None)
    closure = getattr(fn, "__closure__", None)
    if code is not None and closure:
        for var, cell in zip(code.co_freevars, closure):
            try:
                val = cell.cell_contents
            except ValueError:
                continue
            if isinstance(val, torch.Tensor):
                names.setdefault(id(val), var)
            elif callable(val):
                for k, v in _closure_tensor_names(val, depth + 1, seen).items():
                    names.setdefault(k, v)
            elif isinstance(val, (list, tuple)):
                for item in val:
                    if isinstance(item, torch.Tensor):
                        names.setdefault(id(item), var)
                    elif callable(item):
                        for k, v in _closure_tensor_names(item, depth + 1, seen).items():
                            names.setdefault(k, v)
    glob = getattr(fn, "__globals__", None)
    if code is not None and glob is not None:
        for var in code.co_names:
            val = glob.get(var)
            if isinstance(val, torch.Tensor):
                names.setdefault(id(val), var)
    return names


def _check_arity(mask_mod: Callable, name: str) -> None:
    """A mask_mod is called with 4 positional arguments ``(b, h, q_idx,
    kv_idx)``: raise ``MaskTraceError`` (at its parameters) if it cannot be."""
    try:
        sig = inspect.signature(mask_mod)
    except (TypeError, ValueError):
        return
    try:
        sig.bind(0, 0, 0, 0)
        return
    except TypeError:
        pass
    P = inspect.Parameter
    params = list(sig.parameters.values())
    positional = [p for p in params if p.kind in (P.POSITIONAL_ONLY, P.POSITIONAL_OR_KEYWORD)]
    required = sum(p.default is P.empty for p in positional)
    varargs = any(p.kind is P.VAR_POSITIONAL for p in params)
    needs = "a mask_mod needs 4 (b, h, q_idx, kv_idx)"
    if required <= 4 and (varargs or len(positional) >= 4):
        keyword = [p.name for p in params if p.kind is P.KEYWORD_ONLY and p.default is P.empty]
        what = (
            f"has a required keyword-only argument {keyword[0]!r}"
            if len(keyword) == 1
            else f"has required keyword-only arguments {', '.join(map(repr, keyword))}"
        )
        needs = "a mask_mod is called with 4 positional arguments (b, h, q_idx, kv_idx)"
    elif varargs:
        what = f"takes at least {required} positional arguments"
    elif required == len(positional):
        what = f"takes {required} positional argument{'' if required == 1 else 's'}"
    else:
        what = f"takes from {required} to {len(positional)} positional arguments"
    raise MaskTraceError(
        f"mask_mod {name!r} {what}, but {needs}", location=_parameters_location(mask_mod)
    )


def _parameters_location(fn: Callable) -> tuple[str, int, int] | None:
    """(file, line, column) of the first parameter of the ``def`` or ``lambda``
    of ``fn`` (of the ``def`` when it has none), from its source file; None
    when the source cannot be found."""
    import ast
    import linecache

    fn = inspect.unwrap(getattr(fn, "__func__", fn))
    code = getattr(fn, "__code__", None)
    if code is None:
        return None
    source = "".join(linecache.getlines(code.co_filename))
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return None
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            if node.name != code.co_name:
                continue
            first_line = min([node.lineno] + [d.lineno for d in node.decorator_list])
        elif isinstance(node, ast.Lambda) and code.co_name == "<lambda>":
            first_line = node.lineno
        else:
            continue
        if first_line != code.co_firstlineno:
            continue
        a = node.args
        params = [*a.posonlyargs, *a.args, *([a.vararg] if a.vararg else []), *a.kwonlyargs]
        at = params[0] if params else node
        return code.co_filename, at.lineno, at.col_offset + 1
    return None


def _tensor_meta(val: torch.Tensor):
    from torch.fx.passes.shape_prop import _extract_tensor_metadata

    return _extract_tensor_metadata(val)


def _make_fx_trace(mask_mod: Callable) -> torch.fx.GraphModule:
    from torch._dynamo._trace_wrapped_higher_order_op import TransformGetItemToIndex
    from torch._inductor.decomposition import select_decomp_table
    from torch.fx.experimental.proxy_tensor import get_proxy_mode, make_fx

    def _traced_mask_entry(b, h, q_idx, kv_idx):
        mode = get_proxy_mode()
        if mode is not None:
            # Instance attribute shadows PythonKeyTracer._filter_traceback_frames
            # for this trace only.
            mode.tracer._filter_traceback_frames = _user_frame_filter
        return mask_mod(b, h, q_idx, kv_idx)

    example = [torch.zeros((), dtype=torch.int) for _ in range(4)]
    with TransformGetItemToIndex():
        return make_fx(
            _traced_mask_entry,
            decomposition_table=select_decomp_table(),
            tracing_mode="fake",
            _allow_non_fake_inputs=True,
            pre_dispatch=False,
            record_stack_traces=True,
        )(*example)


def _lift_captured_tensors(
    gm: torch.fx.GraphModule, tensor_names: dict[int, str]
) -> tuple[torch.fx.GraphModule, list[torch.Tensor], list[str]]:
    """Rebuild gm with placeholders b, h, q_idx, kv_idx, aux... (captures in first-use order)."""
    old = gm.graph
    old_placeholders = list(old.find_nodes(op="placeholder"))
    assert len(old_placeholders) == 4, old_placeholders

    def is_fresh_constant(node: torch.fx.Node) -> bool:
        users = list(node.users)
        return bool(users) and all(
            u.op == "call_function" and u.target is torch.ops.aten.lift_fresh_copy.default
            for u in users
        )

    # Distinct captured tensors, in order of first get_attr (= first use).
    aux_targets: list[str] = []
    aux_by_id: dict[int, int] = {}
    target_to_aux: dict[str, int] = {}
    aux_tensors: list[torch.Tensor] = []
    for node in old.nodes:
        if node.op != "get_attr":
            continue
        val = getattr(gm, node.target)
        if not isinstance(val, torch.Tensor) or is_fresh_constant(node):
            continue
        if node.target in target_to_aux:
            continue
        key = id(val)
        if key not in aux_by_id:
            aux_by_id[key] = len(aux_tensors)
            aux_tensors.append(val)
            aux_targets.append(node.target)
        target_to_aux[node.target] = aux_by_id[key]

    new = torch.fx.Graph()
    env: dict[torch.fx.Node, torch.fx.Node] = {}
    for old_ph, nm in zip(old_placeholders, _INDEX_NAMES):
        ph = new.placeholder(nm)
        ph.meta.update(old_ph.meta)
        ph.meta.pop("stack_trace", None)
        env[old_ph] = ph

    used_names = set(_INDEX_NAMES)
    aux_names: list[str] = []
    aux_nodes: list[torch.fx.Node] = []
    first_get_attr: dict[int, torch.fx.Node] = {}
    for node in old.nodes:
        if node.op == "get_attr" and node.target in target_to_aux:
            first_get_attr.setdefault(target_to_aux[node.target], node)
    for i, t in enumerate(aux_tensors):
        cand = tensor_names.get(id(t))
        if not cand or not cand.isidentifier() or cand in used_names or cand.startswith("aux"):
            cand = f"aux{i}"
        while cand in used_names:
            cand = cand + "_"
        used_names.add(cand)
        ph = new.placeholder(cand)
        src = first_get_attr[i]
        val = src.meta.get("val")
        if not isinstance(val, torch.Tensor):
            from torch._subclasses.fake_tensor import FakeTensorMode

            val = FakeTensorMode(allow_non_fake_inputs=True).from_tensor(t)
        ph.meta["val"] = val
        ph.meta["tensor_meta"] = _tensor_meta(val)
        ph.meta["aux_index"] = i
        aux_names.append(ph.name)
        aux_nodes.append(ph)

    for node in old.nodes:
        if node.op == "placeholder":
            continue
        if node.op == "get_attr" and node.target in target_to_aux:
            env[node] = aux_nodes[target_to_aux[node.target]]
            continue
        env[node] = new.node_copy(node, lambda n: env[n])

    # Keep the non-captured constants (fresh torch.tensor(...) values).
    root = torch.nn.Module()
    for node in new.nodes:
        if node.op == "get_attr":
            setattr(root, node.target, getattr(gm, node.target))
    new_gm = torch.fx.GraphModule(root, new, class_name=gm.__class__.__name__)
    return new_gm, aux_tensors, aux_names


def _run_inductor_passes(gm: torch.fx.GraphModule) -> torch.fx.GraphModule:
    from torch._guards import detect_fake_mode
    from torch._inductor.compile_fx import (
        _recursive_joint_graph_passes,
        _recursive_post_grad_passes,
    )
    from torch._inductor.virtualized import V

    vals = [n.meta.get("val") for n in gm.graph.nodes]
    fake_mode = detect_fake_mode([v for v in vals if isinstance(v, torch.Tensor)])
    ctx = V.set_fake_mode(fake_mode) if fake_mode is not None else contextlib.nullcontext()
    with ctx:
        gm = _recursive_joint_graph_passes(gm)
        _recursive_post_grad_passes(gm, is_inference=True)
    gm.graph.eliminate_dead_code()
    gm.recompile()
    return gm


def _fill_meta(gm: torch.fx.GraphModule) -> None:
    """Every value node gets meta['val'] and meta['tensor_meta']."""
    for node in gm.graph.nodes:
        if node.op == "output":
            continue
        val = node.meta.get("val")
        if not isinstance(val, torch.Tensor) and node.op == "get_attr":
            t = getattr(gm, node.target, None)
            if isinstance(t, torch.Tensor):
                from torch._subclasses.fake_tensor import FakeTensorMode

                val = FakeTensorMode(allow_non_fake_inputs=True).from_tensor(t)
                node.meta["val"] = val
        if isinstance(val, torch.Tensor) and "tensor_meta" not in node.meta:
            node.meta["tensor_meta"] = _tensor_meta(val)


class _CapturedMaskGraph(Exception):
    pass


def capture_inductor_mask_graph(
    mask_mod: Callable, shape: tuple[int, int, int, int] = (1, 1, 128, 128)
) -> torch.fx.GraphModule:
    """Ground truth (slow, seconds): the mask graph inductor's flex_attention lowering receives.

    Compiles ``flex_attention`` on CPU with a block mask for ``mask_mod`` and
    intercepts ``torch.ops.higher_order.flex_attention``'s inductor lowering to
    grab ``mask_graph.graph_module`` (placeholders ``arg0_1 ...``).  Used to
    check that ``trace_mask_mod`` reproduces it; ``shape`` = (B, H, Q_LEN,
    KV_LEN) must be valid for the mask's aux tensors.
    """
    import torch._dynamo
    import torch._inductor.lowering as lowering
    from torch.nn.attention.flex_attention import create_block_mask, flex_attention

    B, H, Q, KV = shape
    block_mask = create_block_mask(mask_mod, B, H, Q, KV, device="cpu", _compile=False)
    query = torch.zeros(B, H, Q, 16)
    key = torch.zeros(B, H, KV, 16)
    op = torch.ops.higher_order.flex_attention
    original = lowering.lowerings[op]
    captured: list[torch.fx.GraphModule] = []

    def intercept(query, key, value, subgraph, block_mask, *args, **kwargs):
        captured.append(block_mask[-1].graph_module)
        raise _CapturedMaskGraph()

    torch._dynamo.reset()
    lowering.lowerings[op] = intercept
    try:
        torch.compile(flex_attention, fullgraph=True, dynamic=False)(query, key, key, block_mask=block_mask)
    except Exception:  # noqa: BLE001 - the interception aborts compilation
        if not captured:
            raise
    finally:
        lowering.lowerings[op] = original
        torch._dynamo.reset()
    return captured[0]


def graph_signature(gm: torch.fx.GraphModule) -> list[tuple]:
    """Placeholder-name-independent structure of a graph, for comparing with inductor's."""
    index: dict[torch.fx.Node, int] = {}
    sig = []

    def norm(a):
        if isinstance(a, torch.fx.Node):
            return ("%", index[a])
        if isinstance(a, (list, tuple)):
            return tuple(norm(x) for x in a)
        if isinstance(a, torch.device):
            return ("device", a.type)
        return a

    for i, node in enumerate(gm.graph.nodes):
        index[node] = i
        val = node.meta.get("val")
        meta = (val.dtype, tuple(val.shape)) if isinstance(val, torch.Tensor) else None
        target = node.target if node.op in ("call_function", "get_attr") else node.op
        sig.append((node.op, str(target), norm(node.args), norm(dict(node.kwargs)), meta))
    return sig


def trace_mask_mod(
    mask_mod: Callable,
    *,
    name: str | None = None,
    inductor_passes: bool = True,
) -> TracedMask:
    """Trace ``mask_mod(b, h, q_idx, kv_idx) -> bool`` into inductor's aten FX graph.

    Placeholders: ``b, h, q_idx, kv_idx`` (0-dim int32), then one placeholder
    per captured tensor in order of first use (see module docstring).  The
    graph's single output is a 0-dim ``torch.bool`` node.  Raises
    ``MaskTraceError`` (one-line message naming the mask_mod) when the
    mask_mod raises, has the wrong arity, returns a non-tensor / non-bool /
    non-0-dim value, or uses data-dependent control flow.
    """
    nm = mask_mod_name(mask_mod, name)
    if not callable(mask_mod):
        raise MaskTraceError(f"mask_mod {nm!r}: not callable ({type(mask_mod).__name__})")
    _check_arity(mask_mod, nm)
    try:
        gm = _make_fx_trace(mask_mod)
    except MaskTraceError:
        raise
    except Exception as e:  # noqa: BLE001 - any user error becomes a MaskTraceError
        cause = _one_line(e)
        if "data-dependent" in cause or "data dependent" in cause or "GuardOnDataDependent" in cause:
            cause = (
                "data-dependent Python control flow on an index tensor (if/and/or/not/bool()/builtin "
                "min/max on a tensor; use &, |, ~, torch.where, torch.minimum/maximum): " + cause
            )
        if "tensors used as indices must be" in cause:
            cause = (
                "an aux tensor indexed with a tensor that is not int64 or int32 (torch reads a "
                "uint8 index as a boolean mask; uint16/32/64 and float tensors do not trace as "
                "indices): convert the index with .long() or .int(): " + cause
            )
        raise MaskTraceError(f"mask_mod {nm!r} failed to trace: {cause}") from e

    (out,) = gm.graph.find_nodes(op="output")
    res = out.args[0]
    if isinstance(res, (tuple, list)):
        raise MaskTraceError(f"mask_mod {nm!r}: returned a {type(res).__name__}, expected a 0-dim bool tensor")
    if not isinstance(res, torch.fx.Node):
        raise MaskTraceError(
            f"mask_mod {nm!r}: returned {type(res).__name__} {res!r}, expected a 0-dim bool tensor "
            "(return a tensor, e.g. b.new_ones((), dtype=torch.bool))"
        )
    val = res.meta.get("val")
    if not isinstance(val, torch.Tensor):
        raise MaskTraceError(f"mask_mod {nm!r}: returned a non-tensor value, expected a 0-dim bool tensor")
    if val.dtype != torch.bool:
        raise MaskTraceError(f"mask_mod {nm!r}: returned dtype {val.dtype}, expected torch.bool")
    if val.dim() != 0:
        raise MaskTraceError(f"mask_mod {nm!r}: returned shape {tuple(val.shape)}, expected a 0-dim bool tensor")
    for node in gm.graph.nodes:
        if node.op == "call_function" and node.target in (
            torch.ops.aten._local_scalar_dense.default,
            torch.ops.aten.item.default,
        ):
            raise MaskTraceError(
                f"mask_mod {nm!r}: converts an index tensor to a Python scalar (.item()/int()/float()), "
                "which is data-dependent; keep it a tensor"
            )
    if res.op == "placeholder":
        raise MaskTraceError(f"mask_mod {nm!r}: returned one of its inputs, expected a bool tensor")

    gm, aux_tensors, aux_names = _lift_captured_tensors(gm, _closure_tensor_names(mask_mod))
    if inductor_passes:
        try:
            gm = _run_inductor_passes(gm)
        except Exception as e:  # noqa: BLE001
            raise MaskTraceError(f"mask_mod {nm!r}: inductor graph passes failed: {_one_line(e)}") from e
    _fill_meta(gm)
    gm.graph.lint()
    gm.recompile()
    gm.meta["mask_mod_name"] = nm
    return TracedMask(
        graph_module=gm,
        aux_tensors=aux_tensors,
        aux_scalars=[],
        name=nm,
        aux_names=aux_names,
    )
