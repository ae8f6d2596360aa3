"""
maskopt: an MLIR-style mask compiler (on xDSL) for FlexAttention mask_mods.

    import maskopt
    result = maskopt.compile_mask(lambda b, h, q, kv: q >= kv)
    result.packed          # True
    print(result.cute_source)   # @cute.jit mask_mod(...) for FA4's SM100 path

The pipeline: FX import -> `mask` dialect -> canonicalize, lane-affine ->
fold-intervals, simplify-intervals -> `interval` dialect -> CuTe target.

The public API (stable; everything else is internal):

- `compile_mask(mask_mod_or_graph_module, ...) -> CompiledMask`
- `Pipeline`, `run_pipeline(module, passes, callback=...)`: build and run
  pass pipelines, see the module after each pass. A malformed spec raises
  `PipelineSyntaxError` (a `ValueError`, with the column of the problem).
- `register_pass`, `register_target`, `get_all_passes`, `get_all_targets`:
  the registries `mask-opt` uses too (kept in `maskopt.passes` and
  `maskopt.lowering`; the dialects in `maskopt.dialects`).
- `make_context`, `parse_mlir`, `emit`: IR in, IR or target text out. A
  malformed target spec raises `TargetSyntaxError` (a `PipelineSyntaxError`).
- `create_block_mask(mask_mod, B, H, Q_LEN, KV_LEN, device=None,
  BLOCK_SIZE=128, ...)`: torch's `create_block_mask` (same signature, the same
  BlockMask) built from maskopt's packed keep words, with value
  specialization of document-id and kv-flag gathers
  (`maskopt.lowering.block_mask`; `build_block_mask` there also says which
  path it took and why).
- `maskopt.inductor`: a drop-in for torch inductor's
  `select_packed_mask_intervals`, with `install()`/`uninstall()`.

`import maskopt` imports neither torch nor cutlass; `compile_mask` on a
Python mask_mod imports torch.
"""

from __future__ import annotations

import gc
import io
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Union

if TYPE_CHECKING:  # pragma: no cover
    import types

    from maskopt.passes.pipeline import PipelineSyntaxError, TargetSyntaxError
    from maskopt.passes.remarks import Remark

    import torch
    from xdsl.context import Context
    from xdsl.dialects.builtin import ModuleOp
    from xdsl.passes import ModulePass
    from xdsl.utils.target import Target

__version__ = "0.1.0"

__all__ = [
    "CompiledMask",
    "Pipeline",
    "PassCallback",
    "PipelineSyntaxError",
    "Remark",
    "TargetSyntaxError",
    "__version__",
    "compile_mask",
    "create_block_mask",
    "emit",
    "get_all_passes",
    "get_all_targets",
    "make_context",
    "parse_mlir",
    "register_pass",
    "register_target",
    "run_pipeline",
]

#: Called after every pass of a pipeline with the pass that just ran and the
#: module (mutated in place; clone it to keep a snapshot).
PassCallback = Callable[["ModulePass", "ModuleOp"], None]

#: What `Pipeline`/`run_pipeline`/`compile_mask` accept as a pipeline: a
#: `mask-opt -p` spec string, a sequence of pass instances, or a `Pipeline`.
PipelineLike = Union[str, Sequence["ModulePass"], "Pipeline"]


# Contexts, parsing, targets -----------------------------------------------------


def make_context() -> Context:
    """An xDSL context with maskopt's dialects (builtin, arith, mask, interval)."""
    from xdsl.context import Context

    from maskopt.dialects import get_all_dialects

    ctx = Context()
    for name, factory in get_all_dialects().items():
        ctx.register_dialect(name, factory)
    return ctx


def parse_mlir(text: str, *, ctx: Context | None = None) -> ModuleOp:
    """Parse MLIR text (a module, or ops that are wrapped in one) with maskopt's dialects."""
    from xdsl.dialects.builtin import ModuleOp
    from xdsl.parser import Parser

    module = Parser(ctx or make_context(), text).parse_module()
    assert isinstance(module, ModuleOp)
    return module


def get_all_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    """Every pass `mask-opt -p` knows, by name: the curated ones and registered ones."""
    from maskopt.passes import get_all_passes as passes

    return passes()


def get_all_targets() -> dict[str, Callable[[], type[Target]]]:
    """Every target `mask-opt -t` knows, by name: mlir, cute and registered ones."""
    from maskopt.lowering import get_all_targets as targets

    return targets()


def register_pass(
    name: str,
    factory: Callable[[], type[ModulePass]] | type[ModulePass],
    *,
    replace: bool = False,
) -> None:
    """
    Make a pass available to `Pipeline.parse`, `compile_mask(pipeline=...)`
    and `mask-opt -p` (in this process) under `name`.

    `factory` is the pass class (a frozen-dataclass `ModulePass` whose `name`
    is `name`) or, to keep imports lazy, a function returning it. A name that
    is already taken raises `ValueError` unless `replace=True`.
    """
    from maskopt.passes import register_pass as register

    register(name, factory, replace=replace)


def register_target(
    name: str,
    factory: Callable[[], type[Target]] | type[Target],
    *,
    replace: bool = False,
) -> None:
    """
    Make an output target available to `emit` and `mask-opt -t` (in this
    process) under `name`: an xDSL `Target` class or a function returning it.
    A name that is already taken raises `ValueError` unless `replace=True`.
    """
    from maskopt.lowering import register_target as register

    register(name, factory, replace=replace)


def emit(module: ModuleOp, target: str = "cute", *, ctx: Context | None = None) -> str:
    """
    The text a target prints for `module` (`target` is a `-t` spec, e.g.
    `"cute"`). A malformed spec (`cute{`, `cute,mlir`, `""`) raises
    `TargetSyntaxError` (a `PipelineSyntaxError`), an unknown target `ValueError`.
    """
    from maskopt.passes.pipeline import parse_target_spec

    targets = get_all_targets()
    spec = parse_target_spec(target)
    if spec.name not in targets:
        raise ValueError(f"unknown target '{spec.name}'; known: {', '.join(sorted(targets))}")
    out = io.StringIO()
    targets[spec.name]().from_spec(spec).emit(ctx or make_context(), module, out)
    return out.getvalue()


# Pipelines -----------------------------------------------------------------------


@dataclass(frozen=True)
class Pipeline:
    """
    A sequence of passes, run in order on a module.

        p = maskopt.Pipeline.parse("lane-affine,fold-intervals{max-intervals=4}")
        p = maskopt.Pipeline.pack_mask(max_intervals=8)   # what compile_mask runs
        p.run(module, callback=lambda pass_, module: print(pass_.name))
        for name, ir in p.stages(module): ...             # IR after each pass

    `str(p)` is the spec `mask-opt -p` accepts.
    """

    passes: tuple[ModulePass, ...]

    @classmethod
    def parse(cls, spec: str) -> Pipeline:
        """
        A pipeline from a `mask-opt -p` spec, with registered passes too.

        A malformed spec (`pack-mask{`, `pack-mask,,cse`, `pack-mask,`) raises
        `PipelineSyntaxError`, an unknown pass or pass option `ValueError`.
        """
        from maskopt.passes.pipeline import parse_pipeline_spec

        return cls(parse_pipeline_spec(get_all_passes(), spec).passes)

    @classmethod
    def pack_mask(cls, max_intervals: int = 8) -> Pipeline:
        """The passes of `pack-mask{max-intervals=N}`, one by one."""
        from maskopt.passes.pipeline import pack_mask_passes

        return cls(tuple(pack_mask_passes(max_intervals)))

    @classmethod
    def of(cls, passes: PipelineLike) -> Pipeline:
        """Coerce a spec string, a sequence of passes or a Pipeline."""
        if isinstance(passes, Pipeline):
            return passes
        if isinstance(passes, str):
            return cls.parse(passes)
        return cls(tuple(passes))

    def __str__(self) -> str:
        return ",".join(str(p.pipeline_pass_spec()) for p in self.passes)

    def __add__(self, other: PipelineLike) -> Pipeline:
        return Pipeline(self.passes + Pipeline.of(other).passes)

    def run(
        self,
        module: ModuleOp,
        *,
        callback: PassCallback | None = None,
        ctx: Context | None = None,
        verify: bool = True,
    ) -> ModuleOp:
        """
        Run the passes on `module` in place (and return it). `callback(pass_,
        module)` is called after each pass; with `verify`, the module is
        verified after each pass and a failure names the pass.
        """
        ctx = ctx or make_context()
        for p in self.passes:
            p.apply(ctx, module)
            if verify:
                try:
                    module.verify()
                except Exception as e:
                    e.add_note(f"(the module does not verify after pass '{p.name}')")
                    raise
            if callback is not None:
                callback(p, module)
        return module

    def stages(self, module: ModuleOp, *, ctx: Context | None = None) -> list[tuple[str, str]]:
        """(pass spec, IR text) after each pass, run on a clone of `module`."""
        out: list[tuple[str, str]] = []
        self.run(
            module.clone(),
            ctx=ctx,
            callback=lambda p, m: out.append((str(p.pipeline_pass_spec()), _print(m))),
        )
        return out


def run_pipeline(
    module: ModuleOp,
    passes: PipelineLike,
    *,
    callback: PassCallback | None = None,
    ctx: Context | None = None,
) -> ModuleOp:
    """`Pipeline.of(passes).run(module, callback=callback)`: run in place, return `module`."""
    return Pipeline.of(passes).run(module, callback=callback, ctx=ctx)


def _print(op: Any) -> str:
    from xdsl.printer import Printer

    out = io.StringIO()
    Printer(stream=out).print_op(op)
    return out.getvalue()


# compile_mask ----------------------------------------------------------------------


@dataclass
class CompiledMask:
    """What `compile_mask` produced for one mask_mod."""

    name: str
    """The mask.func's symbol (the mask_mod's `__name__` or `name=`)."""
    packed: bool
    """The keep word is computed as a union of lane runs (else: a per-lane loop)."""
    reason: str | None
    """Why it did not pack (None when packed)."""
    module: Any
    """The xDSL `ModuleOp` after the pipeline (`interval` dialect when packed)."""
    cute_source: str
    """The CuTe DSL Python module: `@cute.jit mask_mod(...)`, `__vec_size__ = 32`."""
    keep_mask_exprs: list[str] = field(default_factory=list)
    """When packed: one self-contained CuTe expression per top-level run; their OR
    is the keep word (names in scope: b_idx, h_idx, q_idx, kv_idx, aux_tensors,
    aux_scalars, cutlass, utils). Empty when the word cannot be written without
    a helper the module defines (a negation with nothing to push it into, see
    `maskopt.lowering.cute.PTXAS_NEGATION`); `cute_source` is complete then."""
    aux_tensors: list[Any] = field(default_factory=list)
    """The tensors behind `aux_tensors[i]`, in order (captured or given)."""
    aux_scalars: list[Any] = field(default_factory=list)
    """The values behind `aux_scalars[i]`, when known."""
    remarks: list[Remark] = field(default_factory=list)
    """One `maskopt.Remark` per function that did not pack: severity, message,
    file, line, col, suggestion (and the sub-expression as written), located
    in the mask_mod's source."""

    cute_module: Any = None
    """The module as the CuTe targets print it: `module` after
    `interval-to-cute` (every run's word form chosen, as `cute` ops), on a
    copy; `module` itself when there was nothing to lower."""

    @property
    def ir(self) -> str:
        """The module after the pipeline, in MLIR syntax (the interval IR when packed)."""
        return _print(self.module)

    @property
    def cute_ir(self) -> str:
        """`cute_module` in MLIR syntax: the word forms `cute_source` prints."""
        return _print(self.cute_module if self.cute_module is not None else self.module)

    def import_module(self, module_name: str | None = None) -> types.ModuleType:
        """
        Import `cute_source` as a Python module (needs `nvidia-cutlass-dsl`
        and `flash-attn-4`). Its `mask_mod` goes to FA4 as `mask_mod=`, with
        `aux_tensors=self.aux_tensors`.
        """
        import importlib.util
        import os
        import sys
        import tempfile

        module_name = module_name or f"maskopt_cute_{self.name}"
        # The CuTe DSL reads the function's source file: write a real one.
        directory = tempfile.mkdtemp(prefix="maskopt-")
        path = os.path.join(directory, f"{module_name}.py")
        with open(path, "w") as f:
            f.write(self.cute_source)
        spec = importlib.util.spec_from_file_location(module_name, path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[module_name] = module
        spec.loader.exec_module(module)
        return module

    def emulate(self) -> Any:
        """
        The CuTe module on maskopt's CPU emulator (`lowering.cute_emulator`):
        `.keep_words(b, h, q, kv_base)` gives the emitted words of the kv
        positions kv_base .. kv_base + 31 at each point, reading
        `self.aux_tensors`; `aux_tensors=` overrides them (as many, in the
        same order: e.g. new values of the same dtype and shape). A missing
        aux tensor is a `ValueError` that names it.
        """
        from maskopt.lowering.cute_emulator import load_module

        return load_module(
            self.cute_source, aux_tensors=self.aux_tensors, aux_specs=self._aux_specs()
        )

    def _aux_specs(self) -> list[str]:
        """`name: dtype shape` of each aux tensor the mask.func reads (its
        block arguments; the dtype and shape of `aux_tensors` when given)."""
        func = self.module.ops.first
        args = func.aux_tensor_args if func is not None else []
        specs = []
        for i, arg in enumerate(args):
            name = arg.name_hint or f"aux{i}"
            if len(self.aux_tensors) == len(args):
                t = self.aux_tensors[i]
                specs.append(f"{name}: {t.dtype} {tuple(t.shape)}")
            else:  # a GraphModule compiled without aux_tensors=: the IR type
                specs.append(f"{name}: {arg.type}")
        return specs


@contextmanager
def gc_paused() -> Iterator[None]:
    """
    Pause Python's cyclic garbage collector for one compile, like a batch
    compiler: the pipeline allocates many IR objects that live until the end
    of the compile, and every young-generation collection would scan them
    again (and, in a process that has imported torch, an occasional full
    collection scans the whole heap). Garbage made meanwhile is collected at
    the next collection after the compile; a collector that was already
    disabled stays disabled.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def compile_mask(
    mask_mod: Callable[..., Any] | torch.fx.GraphModule,
    *,
    aux_tensors: Sequence[torch.Tensor] | None = None,
    max_intervals: int = 8,
    name: str | None = None,
    pipeline: PipelineLike | None = None,
    callback: PassCallback | None = None,
    domain: Any = None,
) -> CompiledMask:
    """
    Compile a mask_mod into a CuTe keep-mask module.

    `mask_mod` is a Python callable `(b, h, q_idx, kv_idx) -> bool tensor`
    (traced the way inductor traces it; captured tensors become
    `aux_tensors[i]` in order of first use), or an inductor-style mask
    `torch.fx.GraphModule` (placeholders b, h, q_idx, kv_idx, then the
    captured tensors; nodes carry `meta["val"]`). For a GraphModule,
    `aux_tensors` are the tensors of its extra placeholders, in order: they
    are returned in the result, and give dtype and shape to placeholders
    without metadata.

    `max_intervals` bounds the lane runs of a packed word (the `pack-mask`
    option). `domain` states where the kernel calls the mask: exclusive
    bounds of b, h, q_idx and the window start kv, as a mapping
    (`{"q": 32768, "kv": 32768}`), a sequence `(B, H, Q, KV)` (None: no
    bound) or the text `'q<32768,kv<32768'` (`maskopt.passes.domain`); the
    word is then exact for every lane of every window inside it, and value
    ranges start from it. Without it the domain is the whole int32 contract.
    `pipeline` replaces `pack-mask` (a `-p` spec, passes or a
    `Pipeline`); `callback(pass_, module)` runs after every pass.

    Returns a `CompiledMask`: the packed flag, the reason when it did not pack
    (the CuTe module then evaluates the mask per lane), the IR after the
    pipeline, the CuTe module text, the per-run keep-mask expressions, the
    aux tensors, and remarks. Raises `MaskTraceError`/`FXImportError` (from
    `maskopt.lowering`) when the mask cannot be traced or imported.
    """
    with gc_paused():
        return _compile_mask(mask_mod, aux_tensors, max_intervals, name, pipeline, callback, domain)


def _compile_mask(mask_mod, aux_tensors, max_intervals, name, pipeline, callback, domain=None) -> CompiledMask:
    import torch.fx
    from xdsl.dialects.builtin import ModuleOp

    from maskopt.lowering.cute import lower_for_cute, print_cute_module
    from maskopt.lowering.fx_import import import_graph, import_mask_mod

    aux: list[Any] = []
    if isinstance(mask_mod, torch.fx.GraphModule):
        func_name = name or mask_mod.meta.get("mask_mod_name") or "mask_mod"
        aux = list(aux_tensors or ())
        if aux:
            _fill_placeholder_meta(mask_mod, aux)
        module = ModuleOp([import_graph(mask_mod, _symbol(func_name))])
    else:
        if aux_tensors is not None:
            raise TypeError(
                "aux_tensors= is for a GraphModule; a Python mask_mod's captured "
                "tensors are found by tracing"
            )
        module, traced = import_mask_mod(mask_mod, name=name)
        aux = list(traced.aux_tensors)
        func_name = traced.name
    from maskopt.passes.remarks import collect_remarks, function_remarks

    if domain is not None:
        from maskopt.passes.domain import SetDomainPass

        SetDomainPass.of(domain).apply(None, module)

    passes = Pipeline.pack_mask(max_intervals) if pipeline is None else Pipeline.of(pipeline)
    # A custom pipeline is verified after every pass (a failure names the
    # pass); the stock pack-mask pipeline once, at the end (speed: the
    # verifier costs about as much as a pass).
    with collect_remarks() as collected:
        passes.run(module, callback=callback, verify=pipeline is not None)
        if pipeline is None:
            module.verify()
    func = module.ops.first
    # lowered once (interval-to-cute on a copy): the module, the
    # self-contained expressions and the inductor drop-in print this IR
    cute_module = lower_for_cute(module)
    out = io.StringIO()
    print_cute_module(cute_module, out)
    packed = func.is_packed  # type: ignore[union-attr]
    reason = None if packed or func.unpacked is None else func.unpacked.data  # type: ignore[union-attr]
    return CompiledMask(
        name=func_name,
        packed=packed,
        reason=reason,
        module=module,
        cute_source=out.getvalue(),
        keep_mask_exprs=_self_contained_exprs(cute_module.ops.first) if packed else [],
        cute_module=cute_module,
        aux_tensors=aux,
        remarks=function_remarks(module, collected),
    )


def _self_contained_exprs(func) -> list[str]:
    from maskopt.lowering.cute import CuteEmitError, keep_mask_exprs

    try:
        return keep_mask_exprs(func)
    except CuteEmitError:
        return []  # needs a module-level helper: only cute_source has the word


def _symbol(name: str) -> str:
    import re

    s = re.sub(r"\W", "_", name)
    return s if s and not s[0].isdigit() else f"m_{s}"


def _fill_placeholder_meta(gm: Any, aux_tensors: Sequence[Any]) -> None:
    """Give aux placeholders without metadata the dtype/shape of the given tensors."""
    placeholders = [n for n in gm.graph.nodes if n.op == "placeholder"][4:]
    if len(aux_tensors) != len(placeholders):
        raise ValueError(
            f"the graph has {len(placeholders)} aux placeholder(s), "
            f"{len(aux_tensors)} aux tensor(s) were given"
        )
    for node, t in zip(placeholders, aux_tensors):
        if "val" not in node.meta and "tensor_meta" not in node.meta:
            node.meta["val"] = t


def create_block_mask(
    mask_mod: Callable[..., Any],
    B: int | None,
    H: int | None,
    Q_LEN: int,
    KV_LEN: int,
    device: Any = None,
    BLOCK_SIZE: int | tuple[int, int] = 128,
    _compile: bool = False,
    separate_full_blocks: bool = True,
    compute_dq_write_order: bool = False,
    dq_kv_order: bool = True,
) -> Any:
    """
    A drop-in for `torch.nn.attention.flex_attention.create_block_mask`: the
    same arguments, a torch `BlockMask` with the same tensors, computed from
    the mask's packed keep words (one word per 32 kv per row, in chunks of
    whole block rows) instead of one bool per (q, kv). A mask that reads a
    document-id or kv-flag tensor per lane is specialized to the tensor's
    values (the BlockMask's `mask_mod` is then an equivalent mask over
    derived run-bound tensors). Any mask this cannot build exactly goes to
    torch's own `create_block_mask`. Like torch's, the result is stale when
    the mask's tensors change: build it again. Imports torch.
    """
    from maskopt.lowering.block_mask import create_block_mask as build

    return build(mask_mod, B, H, Q_LEN, KV_LEN, device, BLOCK_SIZE, _compile,
                 separate_full_blocks, compute_dq_write_order, dq_kv_order)


def __getattr__(name: str) -> Any:
    if name == "Remark":  # lazily: maskopt.passes.remarks.Remark
        from maskopt.passes.remarks import Remark

        return Remark
    if name == "PipelineSyntaxError":  # lazily: maskopt.passes.pipeline imports xDSL
        from maskopt.passes.pipeline import PipelineSyntaxError

        return PipelineSyntaxError
    if name == "TargetSyntaxError":
        from maskopt.passes.pipeline import TargetSyntaxError

        return TargetSyntaxError
    raise AttributeError(f"module 'maskopt' has no attribute {name!r}")
