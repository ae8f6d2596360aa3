"""
maskopt: an MLIR-style mask compiler (on xDSL) for FlexAttention mask_mods.

    import maskopt
    result = maskopt.compile_mask(lambda b, h, q, kv: q >= kv)
    result.packed          # True
    print(result.cute_source)   # @cute.jit mask_mod(...) for FA4's SM100 path

The pipeline: FX import -> `mask` dialect -> canonicalize, lane-affine ->
fold-intervals, simplify-intervals -> `interval` dialect -> CuTe target.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from maskopt.passes.remarks import Remark

__version__ = "0.1.0"

__all__ = ["CompiledMask", "Remark", "compile_mask", "make_context", "__version__"]


def make_context():
    """An xDSL context with maskopt's dialects (builtin, arith, mask, interval)."""
    from xdsl.context import Context

    from maskopt.tools.mask_opt import get_all_dialects

    ctx = Context()
    for name, factory in get_all_dialects().items():
        ctx.register_dialect(name, factory)
    return ctx


@dataclass
class CompiledMask:
    """What `compile_mask` produced for one mask_mod."""

    name: str
    packed: bool
    reason: str | None
    module: Any  # the xDSL ModuleOp after the pipeline
    cute_source: str
    keep_mask_exprs: list[str] = field(default_factory=list)
    aux_tensors: list[Any] = field(default_factory=list)
    aux_scalars: list[Any] = field(default_factory=list)
    remarks: list[Remark] = field(default_factory=list)
    """Why it did not pack, structured (`maskopt.Remark`: severity, message,
    file, line, col, suggestion), located in the mask_mod's source."""

    @property
    def ir(self) -> str:
        """The module after the pipeline, in MLIR syntax."""
        from xdsl.printer import Printer

        out = io.StringIO()
        Printer(stream=out).print_op(self.module)
        return out.getvalue()


def compile_mask(
    mask_mod: Callable | Any,
    *,
    max_intervals: int = 8,
    name: str | None = None,
) -> CompiledMask:
    """
    Compile a mask_mod (a Python callable, traced the way inductor does, or an
    inductor-style mask `torch.fx.GraphModule`) into a CuTe keep-mask module.

    Returns the packed flag, the reason when it did not pack (the CuTe module
    then evaluates the mask per lane), the IR, the CuTe module text and, when
    packed, one keep-mask expression per run.
    """
    import torch.fx

    from maskopt.lowering.cute import keep_mask_exprs, print_cute_module
    from maskopt.lowering.fx_import import import_graph, import_mask_mod
    from maskopt.passes.pipeline import PackMaskPass
    from maskopt.passes.remarks import collect_remarks, function_remarks
    from xdsl.dialects.builtin import ModuleOp

    aux_tensors: list[Any] = []
    if isinstance(mask_mod, torch.fx.GraphModule):
        func_name = name or "mask_mod"
        module = ModuleOp([import_graph(mask_mod, func_name)])
    else:
        module, traced = import_mask_mod(mask_mod, name=name)
        aux_tensors = list(traced.aux_tensors)
        func_name = traced.name
    with collect_remarks() as collected:
        PackMaskPass(max_intervals=max_intervals).apply(make_context(), module)
    module.verify()
    func = module.ops.first
    out = io.StringIO()
    print_cute_module(module, out)
    packed = func.is_packed  # type: ignore[union-attr]
    return CompiledMask(
        name=func_name,
        packed=packed,
        reason=None if packed else func.unpacked.data,  # type: ignore[union-attr]
        module=module,
        cute_source=out.getvalue(),
        keep_mask_exprs=keep_mask_exprs(func) if packed else [],  # type: ignore[arg-type]
        aux_tensors=aux_tensors,
        remarks=function_remarks(module, collected),
    )


def __getattr__(name: str) -> Any:
    if name == "Remark":  # lazily: `import maskopt` does not import xDSL
        from maskopt.passes.remarks import Remark

        return Remark
    raise AttributeError(f"module 'maskopt' has no attribute {name!r}")
