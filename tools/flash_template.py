"""
The inductor drop-in's keep words as torch renders them: the `mask_mod` of
torch 2.13's FLASH template (`torch/_inductor/kernel/flex/templates/
flash_attention.py.jinja`) for the elements that
`maskopt.inductor.select_packed_mask_intervals` returns, as a CuTe module.

The template is rendered with jinja2 from torch's own file (only the
kernel-level callables it needs besides the mask block are stubbed), so the
module holds exactly the text inductor would compile: the elements'
`keep_mask_expr()`s ORed into the keep word. It can be loaded by the CPU
emulator (`maskopt.lowering.cute_emulator.load_module`), compiled for sm_100a
or sm_90a like any emitted module (`maskopt.tools.cute_compile`,
`maskopt.tools.ptx_lint`), and run on a GPU (`tools/gpu`).

    from maskopt.tools.flash_template import dropin_module
    d = dropin_module(mask_mod)        # None where the drop-in declines the mask
    d.source, d.aux_tensors, d.elements
"""

from __future__ import annotations

import os
import textwrap
from dataclasses import dataclass
from typing import Any, Callable

#: What the module of a rendered mask_mod imports (the names the template's
#: expressions use: `cutlass`, `cute`, `utils`).
_PRELUDE = "import cutlass\nimport cutlass.cute as cute\nimport flash_attn.cute.utils as utils\n\n"


def _template():
    import jinja2
    import torch._inductor.kernel.flex as flex

    path = os.path.join(os.path.dirname(flex.__file__), "templates", "flash_attention.py.jinja")
    with open(path) as f:
        return jinja2.Environment(undefined=jinja2.StrictUndefined).from_string(f.read())


def render_kernel(elements, n_tensor_buffers: int) -> str:
    """The FLASH kernel source torch's template renders for the packed
    `elements` (its other kernel-level callables stubbed)."""
    tensor_names = [f"aux_tensors[{i}]" for i in range(n_tensor_buffers)]
    return _template().render(
        def_kernel=lambda *names: "def kernel():",
        unpack_buffers=lambda *a, **k: "",
        add_tensor_inputs=lambda buffers: tensor_names,
        modification=lambda **k: "",
        set_cute_hash=lambda *a: "",
        get_output=lambda: "None",
        get_tensor_buffers=lambda: [],
        NEEDS_BLOCK_MASK=True,
        HAS_SCORE_MOD=False,
        MASK_MOD_PACKED_INTERVALS=elements,
        MASK_MOD_OTHER_BUFFERS=[],
        MASK_MOD_VEC_SIZE=32,
        SCORE_MOD_VEC_SIZE=None,
        SM_SCALE=1.0,
        SPARSE_Q_BLOCK_SIZE=128,
        SPARSE_KV_BLOCK_SIZE=128,
    )


def extract_mask_mod(kernel_source: str) -> str:
    """The `@cute.jit def mask_mod` block of a rendered FLASH kernel, as a module."""
    lines = kernel_source.splitlines()
    start = next(i for i, ln in enumerate(lines) if ln.strip().startswith("def mask_mod("))
    if lines[start - 1].strip() != "@cute.jit":
        raise ValueError("the rendered mask_mod is not a @cute.jit function")
    end = next(i for i, ln in enumerate(lines) if ln.strip().startswith("mask_mod.__vec_size__"))
    body = textwrap.dedent("\n".join(lines[start - 1 : end + 1]))
    return _PRELUDE + body + "\n"


def template_mask_mod(elements, n_tensor_buffers: int) -> str:
    """The mask_mod that torch's template prints for `elements`, as a module
    the emulator (or the CuTe DSL) can load."""
    return extract_mask_mod(render_kernel(elements, n_tensor_buffers))


@dataclass(frozen=True)
class DropinModule:
    """The drop-in's rendering of one mask."""

    source: str
    """the rendered mask_mod as a CuTe module"""
    aux_tensors: tuple
    """its `aux_tensors[i]`, in order"""
    elements: tuple
    """what `select_packed_mask_intervals` returned"""


def dropin_module(mask_mod: Callable[..., Any], *, name: str | None = None) -> DropinModule | None:
    """Trace `mask_mod` the way inductor does, ask the drop-in
    (`maskopt.inductor.select_packed_mask_intervals`) and render its elements
    through torch's template. None where the drop-in declines (inductor's
    per-lane path) or the mask keeps every lane (no mask_mod is called)."""
    from maskopt import inductor
    from maskopt.lowering.trace import trace_mask_mod

    traced = trace_mask_mod(mask_mod, name=name)
    elements = inductor.select_packed_mask_intervals(traced.graph_module, traced.aux_tensors)
    if elements is None:
        return None
    aux = tuple(traced.aux_tensors)
    return DropinModule(template_mask_mod(elements, len(aux)), aux, tuple(elements))
