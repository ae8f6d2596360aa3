"""Compile emitted CuTe DSL mask modules for SM100 without a GPU.

maskopt emits Python modules defining ``mask_mod(b_idx, h_idx, q_idx, kv_idx,
seqlen_info, aux_tensors)`` with ``mask_mod.__vec_size__ = 32`` (FA4's SM100
vector mask ABI: the index arguments are ``vec_size``-lane Int32 TensorSSA
vectors, the return value is indexed ``mask_value[c]`` and each element is a
Uint32 keep word, bit ``j`` <-> ``kv_idx[j]``).  This module checks that such
a module really compiles with the CuTe DSL for ``sm_100a`` and measures the
SASS it costs:

``compile_mask_module(source, aux_tensor_specs=..., arch=..., keep_dir=...)``
    Compiles the mask_mod inside a tiny harness kernel (128 threads, one
    thread per q row; ``q = block_idx.x * 128 + thread_idx.x``,
    ``b = block_idx.z``, ``h = block_idx.y``, ``kv = kv_base + lane`` with a
    runtime ``kv_base``; ``seqlen_info`` is a real ``SeqlenInfoQK`` built from
    runtime seqlens; the keep words are stored to a global Int32 tensor, so
    nothing is dead code).  Other ``__vec_size__`` values are handled as FA4
    does (1: scalar path, Boolean result; <32: several calls per word;
    64, 96, ...: several words per call).
``compile_mask_modules(sources, ...)``
    The same for many modules in ONE subprocess (imports paid once).
``compile_in_fa4(source, aux_tensor_specs=...)``
    Compiles the mask_mod inside FA4's real SM100 forward kernel
    (``flash_attn.cute.interface._flash_attn_fwd`` under ``FakeTensorMode``,
    fake ``cuda`` q/k/v, block sparsity with block size (256, 128), a fake
    ``HardwareInfo`` with 148 SMs, patched into ``cutlass.utils``,
    ``cutlass.utils.hardware_info`` and ``flash_attn.cute.tile_scheduler``).
``sass_delta(source, fa4=False, ...)``
    SASS instruction count of ``source`` minus that of ``BASELINE_SOURCE``
    (a one-operation mask_mod: its keep word is ``q_idx[0] - kv_idx[0]``, a
    runtime value made by one subtraction), both compiled in the same
    subprocess.

Every compile runs in a fresh ``python`` subprocess (``python -m
maskopt.tools.cute_compile --_worker JOB.json``).  Reason: the CuTe DSL reads
its ``CUTE_DSL_*`` environment (ARCH, KEEP, DUMP_DIR) once, when the DSL
singleton is constructed at ``import cutlass`` time, so setting ``os.environ``
afterwards has no effect; FA4 additionally needs ``FLASH_ATTENTION_ARCH`` /
``FLASH_ATTENTION_NUM_SMS`` before import and the ``HardwareInfo``
monkey-patch, which must not leak into the caller.  (In-process harness
compiles would also work through ``cute.compile(..., options="--gpu-arch=sm_100a
--keep-cubin --dump-dir=DIR")``, which needs no environment, but they are not
offered here.)  The worker uses ``CUTE_DSL_KEEP=cubin,ptx`` (the non-deprecated
spelling of ``CUTE_DSL_KEEP_CUBIN=1``) with one scratch ``CUTE_DSL_DUMP_DIR``
and moves each compile's artifacts into that variant's own directory (all
harness kernels get the same mangled name, so files would collide).

SASS is produced with ``cuobjdump -sass`` from the ``nvidia-cuda-cuobjdump``
wheel (``site-packages/nvidia/cu13/bin/cuobjdump``; ``nvdisasm`` from
``nvidia-cuda-nvdisasm`` lives next to it).  The count excludes ``NOP`` and the
trailing self-branch (``BRA`` to its own address).  The harness kernel costs
9 instructions with a constant keep word (thread index, address arithmetic,
the store, EXIT): use ``sass_delta`` for the cost of the mask.

The baseline (``BASELINE_SOURCE``) is a ONE-OPERATION mask_mod: its keep word
is ``Uint32(q_idx[0] - kv_idx[0])``, a runtime value made by one subtraction
of the two indices, so FA4's combination with the seqlen bits and the R2P
application of a runtime word are in both kernels and a delta is the mask's
own arithmetic (plus register-allocation effects). A constant word is not a
fair baseline: with ``0xFFFFFFFF`` FA4's ``mask_val & seqlen_bits`` folds and
the application simplifies (49 R2P instead of 65), so every delta carried
about +240 of applying a runtime word. A word of ``q_idx[0]`` alone is
loop-invariant and lowers the application with P2R/ISETP bit tests instead.

Measured here (nvidia-cutlass-dsl 4.8.1, flash-attn-4 4.0.0b36, sm_100a),
FA4 kernel, one-operation words of the two indices: ``q - kv`` 9203,
``q + kv`` 9204, ``q ^ kv`` 9227, ``kv - q`` 9241 instructions (the constant
all-ones word: 9003). ``q - kv``, the lowest, is the baseline; torch 2.13
inductor's causal rendering is 9240 (+37, the issue's "about 40"). The FA4
counts move by about +-15 with how ptxas allocates registers in the softmax
loop (spills of the exponentials): a causal word with a redundant ``min(.,
32)`` added compiled to 11 fewer instructions than without it. Harness: the
baseline is 11 instructions (the scaffold of a constant word is 9: one LDC of
the kv base and one IADD3 more).
* timings (2-core machine, idle): a subprocess costs about 2.5 s of imports;
  a harness ``cute.compile`` 0.12-0.2 s (plus ~0.1 s cuobjdump); an FA4
  compile 5 s (8 s wall for one ``compile_in_fa4``; 10-20 s when the machine
  is loaded).

CuTe DSL findings (verified by compiling and reading the PTX/MLIR):

* Builtin ``min``/``max`` inside ``@cute.jit`` work: the AST preprocessor
  redirects the names to ``cutlass.min``/``cutlass.max``; on Int32 they lower
  to ``arith.minsi``/``arith.maxsi`` (PTX ``min.s32``/``max.s32``; SASS
  ``VIMNMX``/``VIADDMNMX``).
* ``a if cond else b`` with a runtime ``Boolean`` condition works (both
  operands are evaluated; lowers to ``setp`` + ``selp``), and so does
  ``cutlass.select_(cond, a, b)`` (identical code).
* ``cute.where(cond, a, b)`` does NOT accept scalars: ``ValueError: at least
  one of x and y must be tensor, but got Uint32 and Uint32``.  It is for
  TensorSSA operands only.
* ``cutlass.Uint32(x) << cutlass.Uint32(n)`` is accepted and lowers to a
  plain LLVM ``shl`` (PTX ``shl.b32``).  LLVM treats ``n >= 32`` as poison, so
  for shift amounts that can reach 32 use ``utils.shl_u32``/``utils.shr_u32``
  (inline PTX, where a shift of 32 is defined and yields 0).
* Returning a plain ``cutlass.Uint32`` does NOT work: FA4 does
  ``mask_val = mask_value[c]`` and fails with ``TypeError: 'Uint32' object is
  not subscriptable`` (the harness indexes the result the same way and
  reports the same error).  Return ``packed.load()`` of a 1-element Uint32
  rmem tensor (as inductor's template does).
* Int64 aux tensor element -> ``cutlass.Int32(elem)`` works (truncation; the
  optimiser even narrows the load to ``ld.global.b32``).  Indexing with
  ``aux_tensors[0][b_idx[0]]`` and ``aux_tensors[1][q, cutlass.Int32(3)]``
  works; aux tensors are passed fully dynamic, like FA4's
  ``to_cute_aux_tensor`` (``mark_layout_dynamic()``).
* Signed Int32 ``%`` lowers to ``arith.remsi`` = TRUNCATED remainder (sign of
  the dividend, C semantics), while ``//`` lowers to ``arith.floordivsi`` =
  FLOOR division (Python semantics) -- the pair is NOT consistent (``q*d + r
  != x`` for negative ``x``).  Unsigned types use ``divui``/``remui``.
  (``cutlass_dsl/_mlir_helpers/arith.py`` ``ArithValue.__floordiv__`` /
  ``__mod__``.)
* Careful with constants: when both operands are compile-time Python values
  (``cutlass.Int32(-7) % cutlass.Int32(2)``), the DSL folds with PYTHON
  semantics at trace time (result 1, floor mod), whereas the same expression on
  runtime values yields -1.  ``//`` folds to -4, consistent with runtime.
* A DSL error inside mask_mod (e.g. an unknown ``cute.`` function) surfaces as
  the Python exception raised while tracing; ``CuteCompileError`` carries its
  message and the mask module frame (file/line/code).
"""

import argparse
import dataclasses
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import traceback
from collections import Counter
from pathlib import Path
from typing import Any, Iterable, Sequence

__all__ = [
    "BASELINE_SOURCE",
    "CompileResult",
    "CuteCompileError",
    "compile_in_fa4",
    "compile_mask_module",
    "compile_mask_modules",
    "count_sass",
    "find_cuda_tool",
    "main",
    "sass_delta",
    "sass_of_cubin",
]


#: A one-operation mask_mod, the reference for deltas: its keep word is a
#: runtime value made by one subtraction of the indices (see the module doc).
BASELINE_SOURCE = '''\
import cutlass
import cutlass.cute as cute


@cute.jit
def mask_mod(b_idx, h_idx, q_idx, kv_idx, seqlen_info, aux_tensors):
    packed = cute.make_rmem_tensor(1, dtype=cutlass.Uint32)
    packed[0] = cutlass.Uint32(q_idx[0] - kv_idx[0])
    return packed.load()


mask_mod.__vec_size__ = 32
'''

#: FA4 problem used by ``compile_in_fa4`` (batch, seqlen, heads, head dim).
FA4_DEFAULT_SHAPE = (1, 1024, 8, 128)
FA4_BLOCK_SIZE = (256, 128)
FA4_NUM_SMS = 148

_HARNESS_THREADS = 128


class CuteCompileError(RuntimeError):
    """The CuTe DSL (or the harness around it) rejected a mask module."""

    def __init__(self, message: str, *, log: str = "", result: "CompileResult | None" = None):
        super().__init__(message)
        self.message = message
        self.log = log
        self.result = result


@dataclasses.dataclass
class CompileResult:
    """Outcome of one compile.

    ``sass_count`` counts all SASS instructions of the kernel(s) in the cubin
    except NOP and the trailing self-branch.  ``cubin_path``/``ptx_path``/
    ``sass_path`` are only set when a ``keep_dir`` was given (otherwise the
    artifacts live in a temporary directory that is removed).
    """

    ok: bool
    mode: str  # "harness" or "fa4"
    error: str | None = None
    sass_count: int | None = None
    sass_histogram: dict[str, int] = dataclasses.field(default_factory=dict)
    sass_per_function: dict[str, int] = dataclasses.field(default_factory=dict)
    cubin_path: str | None = None
    ptx_path: str | None = None
    sass_path: str | None = None
    dump_dir: str | None = None
    vec_size: int | None = None
    compile_s: float | None = None  # cute.compile / _flash_attn_fwd, in the worker
    wall_s: float | None = None  # whole subprocess (imports included), shared by a batch
    import_s: float | None = None  # worker start-up imports, shared by a batch
    log: str = ""

    def __bool__(self) -> bool:  # pragma: no cover - convenience
        return self.ok


# --------------------------------------------------------------------------
# SASS tools
# --------------------------------------------------------------------------


def find_cuda_tool(name: str) -> str | None:
    """Locate ``cuobjdump``/``nvdisasm``: the pip wheels first, then PATH/CUDA_HOME."""
    candidates: list[Path] = []
    try:
        import nvidia  # namespace package of the nvidia-* wheels

        for root in getattr(nvidia, "__path__", []):
            for sub in ("cu13", "cu12"):
                candidates.append(Path(root) / sub / "bin" / name)
    except ImportError:
        pass
    # site-packages next to this interpreter, in case `nvidia` isn't importable.
    for p in sys.path:
        if p.endswith("site-packages"):
            candidates.append(Path(p) / "nvidia" / "cu13" / "bin" / name)
    for c in candidates:
        if c.is_file() and os.access(c, os.X_OK):
            return str(c)
    found = shutil.which(name)
    if found:
        return found
    for env in ("CUDA_HOME", "CUDA_PATH"):
        home = os.environ.get(env)
        if home and (Path(home) / "bin" / name).is_file():
            return str(Path(home) / "bin" / name)
    return None


def sass_of_cubin(cubin_path: str | os.PathLike) -> str:
    """``cuobjdump -sass`` text of a cubin (falls back to ``nvdisasm -c``)."""
    tool = find_cuda_tool("cuobjdump")
    if tool is not None:
        return subprocess.run(
            [tool, "-sass", str(cubin_path)], check=True, capture_output=True, text=True
        ).stdout
    tool = find_cuda_tool("nvdisasm")
    if tool is not None:
        return subprocess.run(
            [tool, "-c", str(cubin_path)], check=True, capture_output=True, text=True
        ).stdout
    raise FileNotFoundError(
        "neither cuobjdump nor nvdisasm found (pip install nvidia-cuda-cuobjdump)"
    )


_SASS_LINE = re.compile(r"^\s*/\*([0-9a-fA-F]{4,})\*/\s+(.*?)\s*;")
_FUNC_LINE = re.compile(r"^\s*Function\s*:\s*(\S+)")
_NVDISASM_FUNC = re.compile(r"^([A-Za-z_.$][\w.$]*):\s*$")
_LABEL_DEF = re.compile(r"^\s*(\.L_x_\d+):")


def count_sass(sass_text: str) -> tuple[int, dict[str, int], dict[str, int]]:
    """Count SASS instructions in cuobjdump (or nvdisasm) output.

    Returns ``(total, opcode_histogram, per_function)``.  NOPs and a branch
    to its own address (cuobjdump ``BRA 0xADDR`` at ``/*ADDR*/``, nvdisasm
    ``BRA `(.L_x_N)`` right after ``.L_x_N:``) are not counted.
    """
    hist: Counter[str] = Counter()
    per_func: Counter[str] = Counter()
    func = "?"
    pending_labels: set[str] = set()
    for line in sass_text.splitlines():
        fm = _FUNC_LINE.match(line)
        if fm:
            func = fm.group(1)
            continue
        lm = _LABEL_DEF.match(line)
        if lm:
            pending_labels.add(lm.group(1))
            continue
        nm = _NVDISASM_FUNC.match(line)
        if nm and not nm.group(1).startswith(".text"):
            func = nm.group(1)
            continue
        m = _SASS_LINE.match(line)
        if not m:
            continue
        addr = int(m.group(1), 16)
        text = m.group(2).strip()
        labels, pending_labels = pending_labels, set()
        toks = text.split()
        if toks and toks[0].startswith("@"):
            toks = toks[1:]
        if not toks:
            continue
        opcode = toks[0]
        if opcode == "NOP":
            continue
        if opcode.split(".")[0] == "BRA" and len(toks) >= 2:
            target = toks[-1].strip("`()")
            if target in labels:
                continue
            try:
                if int(target, 16) == addr:
                    continue
            except ValueError:
                pass
        hist[opcode] += 1
        per_func[func] += 1
    return sum(hist.values()), dict(hist), dict(per_func)


# --------------------------------------------------------------------------
# Public API (parent side)
# --------------------------------------------------------------------------

_DTYPE_ALIASES = {
    "boolean": "bool",
    "i8": "int8",
    "i16": "int16",
    "i32": "int32",
    "i64": "int64",
    "u8": "uint8",
    "u16": "uint16",
    "u32": "uint32",
    "u64": "uint64",
    "f16": "float16",
    "f32": "float32",
    "f64": "float64",
    "bf16": "bfloat16",
}


def _dtype_name(dtype: Any) -> str:
    """Normalise a torch dtype / cutlass Numeric type / string to a torch dtype name."""
    if isinstance(dtype, str):
        name = dtype
    else:
        mod = type(dtype).__module__
        if mod.startswith("torch"):  # torch.dtype
            name = str(dtype)
        else:
            name = getattr(dtype, "__name__", str(dtype))
    name = name.strip().lower()
    if name.startswith("torch."):
        name = name[len("torch.") :]
    if name.startswith("cutlass."):
        name = name[len("cutlass.") :]
    return _DTYPE_ALIASES.get(name, name)


def _normalise_aux_specs(specs: Iterable[Any]) -> list[list[Any]]:
    out = []
    for spec in specs or ():
        if hasattr(spec, "dtype") and hasattr(spec, "shape"):  # a tensor
            dtype, shape = spec.dtype, tuple(spec.shape)
        else:
            dtype, shape = spec
        if isinstance(shape, int):
            shape = (shape,)
        out.append([_dtype_name(dtype), [int(s) for s in shape]])
    return out


def _worker_env(arch: str, mode: str) -> dict[str, str]:
    env = dict(os.environ)
    env["CUTE_DSL_ARCH"] = arch
    env.pop("CUTE_DSL_DUMP_DIR", None)
    env["CUTE_DSL_KEEP"] = "cubin,ptx"
    for k in ("CUTE_DSL_KEEP_IR", "CUTE_DSL_KEEP_PTX", "CUTE_DSL_KEEP_CUBIN", "CUTE_DSL_KEEP_SASS"):
        env.pop(k, None)
    if mode == "fa4":
        env["FLASH_ATTENTION_ARCH"] = arch
        env["FLASH_ATTENTION_NUM_SMS"] = str(FA4_NUM_SMS)
        env["FLASH_ATTENTION_CUTE_DSL_CACHE_ENABLED"] = "0"  # a disk-cache hit dumps no cubin
    return env


def _run_batch(
    sources: Sequence[str],
    *,
    mode: str,
    aux_tensor_specs: Any,
    arch: str,
    keep_dir: str | None,
    per_variant_dirs: bool,
    timeout: float,
    fa4_shape: Sequence[int] = FA4_DEFAULT_SHAPE,
    per_source_aux_specs: Sequence[Sequence[Any]] | None = None,
) -> list[CompileResult]:
    """Run one worker subprocess over ``sources``; never raises for DSL errors."""
    n = len(sources)
    if n == 0:
        return []
    if per_source_aux_specs is not None:
        if len(per_source_aux_specs) != n:
            raise ValueError("per_source_aux_specs needs one spec list per source")
        per_source_specs = [_normalise_aux_specs(s) for s in per_source_aux_specs]
    else:
        common = _normalise_aux_specs(aux_tensor_specs)
        per_source_specs = [common] * n

    if keep_dir is not None:
        keep_dir = os.path.abspath(keep_dir)  # the worker runs in another cwd
    work = Path(tempfile.mkdtemp(prefix="maskopt_cute_"))
    try:
        jobs = []
        for i, src in enumerate(sources):
            if keep_dir is None:
                out_dir = work / f"v{i:03d}"
            elif per_variant_dirs:
                out_dir = Path(keep_dir) / f"v{i:03d}"
            else:
                out_dir = Path(keep_dir)
            out_dir.mkdir(parents=True, exist_ok=True)
            src_path = out_dir / "mask_module.py"
            src_path.write_text(src)
            jobs.append(
                {
                    "source_path": str(src_path),
                    "out_dir": str(out_dir),
                    "aux": per_source_specs[i],
                    "module_name": f"_maskopt_cute_mask_{i}",
                }
            )
        job = {
            "mode": mode,
            "arch": arch,
            "scratch_dir": str(work / "scratch"),
            "fa4_shape": list(fa4_shape),
            "jobs": jobs,
        }
        (work / "scratch").mkdir()
        job_path = work / "job.json"
        result_path = work / "result.json"
        job["result_path"] = str(result_path)
        job_path.write_text(json.dumps(job))

        t0 = time.perf_counter()
        try:
            proc = subprocess.run(
                [sys.executable, "-m", "maskopt.tools.cute_compile", "--_worker", str(job_path)],
                env=_worker_env(arch, mode),
                capture_output=True,
                text=True,
                timeout=timeout,
                cwd=str(work),
            )
            log = (proc.stdout or "") + (proc.stderr or "")
            rc = proc.returncode
        except subprocess.TimeoutExpired as e:
            log = f"timed out after {timeout} s\n" + str(e.stdout or "") + str(e.stderr or "")
            rc = -1
        wall = time.perf_counter() - t0

        raw = None
        if result_path.is_file():
            try:
                raw = json.loads(result_path.read_text())
            except json.JSONDecodeError:
                raw = None
        if raw is None:
            msg = f"cute_compile worker failed (rc={rc})"
            tail = log.strip().splitlines()[-20:]
            if tail:
                msg += ":\n" + "\n".join(tail)
            return [
                CompileResult(ok=False, mode=mode, error=msg, wall_s=wall, log=log)
                for _ in sources
            ]

        results = []
        for j, r in zip(jobs, raw["results"]):
            res = CompileResult(
                ok=r["ok"],
                mode=mode,
                error=r.get("error"),
                vec_size=r.get("vec_size"),
                compile_s=r.get("compile_s"),
                wall_s=wall,
                import_s=raw.get("import_s"),
                log=r.get("log", "") + ("\n" + log if not r["ok"] else ""),
            )
            cubins = r.get("cubins") or []
            if res.ok and cubins:
                main_cubin = _pick_cubin(cubins)
                try:
                    text = sass_of_cubin(main_cubin)
                    res.sass_count, res.sass_histogram, res.sass_per_function = count_sass(text)
                    if keep_dir is not None:
                        sp = Path(main_cubin).with_suffix(".sass")
                        sp.write_text(text)
                        res.sass_path = str(sp)
                except (OSError, subprocess.CalledProcessError) as e:
                    res.log += f"\nSASS disassembly failed: {e}"
                if keep_dir is not None:
                    res.cubin_path = main_cubin
                    ptx = main_cubin[: -len(".cubin")] + ".ptx"
                    res.ptx_path = ptx if os.path.isfile(ptx) else None
                    res.dump_dir = j["out_dir"]
            elif res.ok and not cubins:
                res.log += "\nno cubin was written"
            results.append(res)
        return results
    finally:
        # Variant dirs given by the caller live under keep_dir; `work` holds
        # only the job files, the scratch dump dir and (without keep_dir) the
        # artifacts, all of which go.
        shutil.rmtree(work, ignore_errors=True)


def _pick_cubin(cubins: Sequence[str]) -> str:
    fwd = [c for c in cubins if "FlashAttentionForward" in Path(c).name]
    pool = fwd or list(cubins)
    return max(pool, key=lambda p: Path(p).stat().st_size if Path(p).exists() else 0)


def _raise_if_failed(res: CompileResult) -> CompileResult:
    if not res.ok:
        raise CuteCompileError(res.error or "compile failed", log=res.log, result=res)
    return res


def compile_mask_module(
    source: str,
    *,
    aux_tensor_specs: Sequence[Any] = (),
    arch: str = "sm_100a",
    keep_dir: str | os.PathLike | None = None,
    timeout: float = 300.0,
) -> CompileResult:
    """Compile an emitted mask module in the harness kernel (one subprocess).

    ``aux_tensor_specs``: ``((dtype, shape), ...)``, dtype a torch dtype,
    a cutlass type or a name (``"int64"``); tensors are also accepted.
    ``keep_dir``: directory that receives ``mask_module.py``, the cubin, the
    PTX and ``*.sass`` (reuse the same dir only for the same variant).
    Raises ``CuteCompileError`` when the DSL rejects the module.
    """
    (res,) = _run_batch(
        [source],
        mode="harness",
        aux_tensor_specs=aux_tensor_specs,
        arch=arch,
        keep_dir=None if keep_dir is None else str(keep_dir),
        per_variant_dirs=False,
        timeout=timeout,
    )
    return _raise_if_failed(res)


def compile_mask_modules(
    sources: Sequence[str],
    *,
    aux_tensor_specs: Sequence[Any] = (),
    arch: str = "sm_100a",
    keep_dir: str | os.PathLike | None = None,
    fa4: bool = False,
    per_source_aux_specs: Sequence[Sequence[Any]] | None = None,
    timeout: float = 900.0,
) -> list[CompileResult]:
    """Compile many modules in ONE worker subprocess (imports paid once).

    Does not raise on DSL errors: check ``result.ok`` / ``result.error``.
    ``aux_tensor_specs`` applies to every source; ``per_source_aux_specs``
    (one spec list per source) overrides it.  With ``keep_dir``, variant ``i`` goes to
    ``keep_dir/v{i:03d}``.  ``fa4=True`` compiles each inside FA4's kernel.
    """
    return _run_batch(
        list(sources),
        mode="fa4" if fa4 else "harness",
        aux_tensor_specs=aux_tensor_specs,
        arch=arch,
        keep_dir=None if keep_dir is None else str(keep_dir),
        per_variant_dirs=True,
        timeout=timeout,
        per_source_aux_specs=per_source_aux_specs,
    )


def compile_in_fa4(
    source: str,
    *,
    aux_tensor_specs: Sequence[Any] = (),
    arch: str = "sm_100a",
    keep_dir: str | os.PathLike | None = None,
    shape: Sequence[int] = FA4_DEFAULT_SHAPE,
    timeout: float = 600.0,
) -> CompileResult:
    """Compile the mask_mod inside FA4's real SM100 forward kernel (subprocess).

    ``shape`` = (batch, seqlen, heads, head_dim) of the fake bf16 q/k/v; the
    block-sparse tensors use block size (256, 128).  Aux tensors are fake
    ``cuda`` tensors of the given specs.  Raises ``CuteCompileError``.
    """
    (res,) = _run_batch(
        [source],
        mode="fa4",
        aux_tensor_specs=aux_tensor_specs,
        arch=arch,
        keep_dir=None if keep_dir is None else str(keep_dir),
        per_variant_dirs=False,
        timeout=timeout,
        fa4_shape=shape,
    )
    return _raise_if_failed(res)


def sass_delta(
    source: str,
    *,
    fa4: bool = False,
    aux_tensor_specs: Sequence[Any] = (),
    arch: str = "sm_100a",
    baseline: str = BASELINE_SOURCE,
) -> tuple[int, CompileResult, CompileResult]:
    """SASS count of ``source`` minus that of ``baseline`` (same subprocess).

    Returns ``(delta, result, baseline_result)``.  The baseline is compiled
    with the same aux tensors so the kernel signatures match.
    """
    res, base = compile_mask_modules(
        [source, baseline], aux_tensor_specs=aux_tensor_specs, arch=arch, fa4=fa4
    )
    _raise_if_failed(res)
    _raise_if_failed(base)
    if res.sass_count is None or base.sass_count is None:
        raise CuteCompileError("no SASS count (cuobjdump missing?)", log=res.log, result=res)
    return res.sass_count - base.sass_count, res, base


# --------------------------------------------------------------------------
# Worker (runs in the subprocess; imports cutlass only here)
# --------------------------------------------------------------------------


def _format_exception(exc: BaseException, source_path: str) -> str:
    """One-paragraph message: exception line(s) plus the mask-module frames."""
    lines = [f"{type(exc).__name__}: {exc}".rstrip()]
    frames = []
    tb = exc.__traceback__
    for fs in traceback.extract_tb(tb):
        if os.path.abspath(fs.filename) == os.path.abspath(source_path):
            frames.append(f"  mask module line {fs.lineno}, in {fs.name}: {(fs.line or '').strip()}")
    # chained causes from the DSL often carry the real message
    cause = exc.__cause__ or exc.__context__
    seen = 0
    while cause is not None and seen < 3:
        lines.append(f"caused by {type(cause).__name__}: {cause}".rstrip())
        for fs in traceback.extract_tb(cause.__traceback__):
            if os.path.abspath(fs.filename) == os.path.abspath(source_path):
                frames.append(
                    f"  mask module line {fs.lineno}, in {fs.name}: {(fs.line or '').strip()}"
                )
        cause = cause.__cause__ or cause.__context__
        seen += 1
    # de-duplicate frames, keep order
    uniq = list(dict.fromkeys(frames))
    if isinstance(exc, TypeError) and "object is not subscriptable" in str(exc):
        uniq.append(
            "  hint: FA4 indexes the result (mask_value[c]); return a TensorSSA such as "
            "`packed.load()` of a 1-element Uint32 rmem tensor, not a scalar"
        )
    return "\n".join(lines + uniq)


def _load_module(path: str, name: str):
    import importlib.util

    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    if not hasattr(mod, "mask_mod"):
        raise AttributeError("the module defines no `mask_mod`")
    return mod


def _collect_artifacts(scratch: Path, out_dir: Path) -> tuple[list[str], list[str]]:
    cubins, ptxs = [], []
    for f in sorted(scratch.iterdir()):
        dest = out_dir / f.name
        if dest.exists():
            dest.unlink()
        shutil.move(str(f), str(dest))
        if dest.suffix == ".cubin":
            cubins.append(str(dest))
        elif dest.suffix == ".ptx":
            ptxs.append(str(dest))
    return cubins, ptxs


def _torch_dtype(name: str):
    import torch

    dt = getattr(torch, name, None)
    if not isinstance(dt, torch.dtype):
        raise ValueError(f"unknown aux tensor dtype {name!r}")
    return dt


def _harness_compile(mask_mod, aux_specs, torch):
    """Build and cute.compile the harness around ``mask_mod``."""
    import cutlass
    import cutlass.cute as cute
    from cutlass import Int32, Uint32
    from flash_attn.cute import utils
    from flash_attn.cute.cute_dsl_utils import to_cute_aux_tensor, to_cute_tensor
    from flash_attn.cute.seqlen_info import SeqlenInfoQK
    from torch._subclasses.fake_tensor import FakeTensorMode

    vec = int(getattr(mask_mod, "__vec_size__", 1))
    if not (vec % 32 == 0 or 32 % vec == 0):
        raise ValueError(f"__vec_size__={vec} must divide 32 or be a multiple of 32")
    words = max(1, vec // 32)
    calls = max(1, 32 // vec) if vec > 1 else 32
    nthreads = _HARNESS_THREADS

    @cute.kernel
    def harness_kernel(
        out: cute.Tensor, kv_base: Int32, seqlen_q: Int32, seqlen_k: Int32, aux
    ):
        tidx, _, _ = cute.arch.thread_idx()
        bidx, bidy, bidz = cute.arch.block_idx()
        q = Int32(bidx * nthreads + tidx)
        batch = Int32(bidz)
        head = Int32(bidy)
        seqlen_info = SeqlenInfoQK.create(batch, seqlen_q, seqlen_k)
        if cutlass.const_expr(vec == 1):
            # FA4 scalar path: 1-lane vectors, Boolean result, one bit per call.
            word = Uint32(0)
            for j in cutlass.range_constexpr(calls):
                mv = mask_mod(
                    utils.scalar_to_ssa(batch, Int32),
                    utils.scalar_to_ssa(head, Int32),
                    utils.scalar_to_ssa(q, Int32),
                    utils.scalar_to_ssa(kv_base + j, Int32),
                    seqlen_info,
                    aux,
                )
                cond = cutlass.Boolean(utils.ssa_to_scalar(mv))
                word = word | (Uint32(1) << Uint32(j)) if cond else word
            out[q] = Int32(word)
        else:
            b_ssa = utils.scalar_to_ssa(batch, Int32).broadcast_to((vec,))
            h_ssa = utils.scalar_to_ssa(head, Int32).broadcast_to((vec,))
            q_ssa = utils.scalar_to_ssa(q, Int32).broadcast_to((vec,))
            acc = cute.make_rmem_tensor(words, dtype=Uint32)
            for c in cutlass.range_constexpr(words):
                acc[c] = Uint32(0)
            for s in cutlass.range_constexpr(calls):
                kv_vec = cute.make_rmem_tensor(vec, Int32)
                for j in cutlass.range_constexpr(vec):
                    kv_vec[j] = kv_base + (s * vec + j)
                mask_value = mask_mod(b_ssa, h_ssa, q_ssa, kv_vec.load(), seqlen_info, aux)
                for c in cutlass.range_constexpr(words):
                    mask_val = mask_value[c]
                    if cutlass.const_expr(vec < 32):
                        mask_val = mask_val & utils.shr_u32(
                            Uint32(0xFFFFFFFF), Uint32(32 - vec)
                        )
                        mask_val = mask_val << Uint32(s * vec)
                    acc[c] = acc[c] | mask_val
            for c in cutlass.range_constexpr(words):
                out[q * words + c] = Int32(acc[c])

    @cute.jit
    def harness_launch(
        out: cute.Tensor, kv_base: Int32, seqlen_q: Int32, seqlen_k: Int32, aux, stream
    ):
        harness_kernel(out, kv_base, seqlen_q, seqlen_k, aux).launch(
            grid=(1, 1, 1), block=(nthreads, 1, 1), stream=stream
        )

    with FakeTensorMode():
        out_t = torch.empty(nthreads * words * 64, dtype=torch.int32, device="cuda")
        aux_t = [
            torch.empty(tuple(shape), dtype=_torch_dtype(dt), device="cuda")
            for dt, shape in aux_specs
        ]
        out = to_cute_tensor(out_t, assumed_align=4, leading_dim=0)
        aux = [to_cute_aux_tensor(t) for t in aux_t] if aux_t else None

    t0 = time.perf_counter()
    cute.compile(
        harness_launch,
        out,
        Int32(0),
        Int32(1),
        Int32(1),
        aux,
        cute.runtime.make_fake_stream(use_tvm_ffi_env_stream=True),
        options="--enable-tvm-ffi",
    )
    return vec, time.perf_counter() - t0


class _FakeHardwareInfo:
    """Stand-in for ``cutlass.utils.HardwareInfo`` (no CUDA driver needed)."""

    def __init__(self, device_id: int = 0, *args, **kwargs):
        self.device_id = device_id

    def get_device_multiprocessor_count(self) -> int:
        return FA4_NUM_SMS

    def get_max_active_clusters(self, cluster_size: int = 1, *args, **kwargs) -> int:
        return FA4_NUM_SMS // max(1, int(cluster_size))

    def get_l2_cache_size_in_bytes(self) -> int:
        return 126 * 1024 * 1024


def _fa4_setup():
    import cutlass
    import cutlass.utils
    import cutlass.utils.hardware_info

    cutlass.utils.HardwareInfo = _FakeHardwareInfo
    cutlass.utils.hardware_info.HardwareInfo = _FakeHardwareInfo
    import flash_attn.cute.tile_scheduler as tile_scheduler

    tile_scheduler.HardwareInfo = _FakeHardwareInfo
    try:
        import flash_attn.cute.cute_dsl_utils as cdu

        if hasattr(cdu.get_max_active_clusters, "cache_clear"):
            cdu.get_max_active_clusters.cache_clear()
    except Exception:  # pragma: no cover
        pass


def _fa4_compile(mask_mod, aux_specs, shape, torch):
    from flash_attn.cute.block_sparsity import BlockSparseTensorsTorch
    from flash_attn.cute.interface import _flash_attn_fwd
    from torch._subclasses.fake_tensor import FakeTensorMode

    vec = int(getattr(mask_mod, "__vec_size__", 1))
    _flash_attn_fwd.compile_cache.clear()
    batch, seqlen, heads, hdim = (int(x) for x in shape)
    bm, bn = FA4_BLOCK_SIZE
    nm, nn = -(-seqlen // bm), -(-seqlen // bn)
    t0 = time.perf_counter()
    with FakeTensorMode():
        dev = "cuda"
        q = torch.empty(batch, seqlen, heads, hdim, dtype=torch.bfloat16, device=dev)
        k = torch.empty(batch, seqlen, heads, hdim, dtype=torch.bfloat16, device=dev)
        v = torch.empty(batch, seqlen, heads, hdim, dtype=torch.bfloat16, device=dev)
        i32 = torch.int32
        bst = BlockSparseTensorsTorch(
            mask_block_cnt=torch.empty(batch, heads, nm, dtype=i32, device=dev),
            mask_block_idx=torch.empty(batch, heads, nm, nn, dtype=i32, device=dev),
            full_block_cnt=torch.empty(batch, heads, nm, dtype=i32, device=dev),
            full_block_idx=torch.empty(batch, heads, nm, nn, dtype=i32, device=dev),
            block_size=(bm, bn),
        )
        aux = [
            torch.empty(tuple(s), dtype=_torch_dtype(dt), device=dev) for dt, s in aux_specs
        ] or None
        _flash_attn_fwd(q, k, v, mask_mod=mask_mod, block_sparse_tensors=bst, aux_tensors=aux)
    return vec, time.perf_counter() - t0


def _worker(job_path: str) -> int:
    import io
    import warnings
    from contextlib import redirect_stderr, redirect_stdout

    job = json.loads(Path(job_path).read_text())
    mode = job["mode"]
    scratch = Path(job["scratch_dir"])
    scratch.mkdir(parents=True, exist_ok=True)
    os.environ["CUTE_DSL_DUMP_DIR"] = str(scratch)  # read when cutlass is imported

    results: list[dict[str, Any]] = []
    t0 = time.perf_counter()
    import_error = None
    try:
        warnings.filterwarnings("ignore")
        import torch
        import cutlass  # noqa: F401  (reads CUTE_DSL_* now)
        import cutlass.cute  # noqa: F401
        import flash_attn.cute.utils  # noqa: F401

        if mode == "fa4":
            _fa4_setup()
            import flash_attn.cute.interface  # noqa: F401
    except Exception as e:  # pragma: no cover - environment problem
        import_error = f"import failed: {type(e).__name__}: {e}"
    import_s = time.perf_counter() - t0

    for j in job["jobs"]:
        if import_error:
            results.append({"ok": False, "error": import_error})
            continue
        for f in scratch.iterdir():  # stale artifacts from a failed compile
            f.unlink()
        buf = io.StringIO()
        rec: dict[str, Any] = {"ok": False}
        try:
            with redirect_stdout(buf), redirect_stderr(buf):
                mod = _load_module(j["source_path"], j["module_name"])
                if mode == "fa4":
                    vec, dt = _fa4_compile(mod.mask_mod, j["aux"], job["fa4_shape"], torch)
                else:
                    vec, dt = _harness_compile(mod.mask_mod, j["aux"], torch)
            rec.update(ok=True, vec_size=vec, compile_s=dt)
        except BaseException as e:  # noqa: BLE001 - report everything
            if isinstance(e, KeyboardInterrupt):
                raise
            rec.update(
                ok=False,
                error=_format_exception(e, j["source_path"]),
            )
            buf.write(traceback.format_exc())
        cubins, ptxs = _collect_artifacts(scratch, Path(j["out_dir"]))
        rec.update(cubins=cubins, ptxs=ptxs, log=buf.getvalue()[-20000:])
        results.append(rec)

    Path(job["result_path"]).write_text(json.dumps({"import_s": import_s, "results": results}))
    return 0


# --------------------------------------------------------------------------
# CLI
# --------------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["--_worker"]:
        return _worker(argv[1])
    ap = argparse.ArgumentParser(
        prog="python -m maskopt.tools.cute_compile",
        description="Compile an emitted CuTe mask module for sm_100a (no GPU needed).",
    )
    ap.add_argument("files", nargs="+", help="emitted mask module(s) (.py)")
    ap.add_argument("--fa4", action="store_true", help="compile inside FA4's SM100 forward kernel")
    ap.add_argument(
        "--sass",
        action="store_true",
        help="also compile the one-op baseline and print the SASS delta",
    )
    ap.add_argument(
        "--aux",
        action="append",
        default=[],
        metavar="DTYPE:D0xD1..",
        help="aux tensor spec, e.g. int64:4 or int32:1024x8 (repeatable, in order)",
    )
    ap.add_argument("--arch", default="sm_100a")
    ap.add_argument("--keep-dir", default=None, help="keep cubin/ptx/sass here (v000, v001, ...)")
    ap.add_argument("--histogram", action="store_true", help="print the SASS opcode histogram")
    args = ap.parse_args(argv)

    aux = []
    for a in args.aux:
        dt, _, shp = a.partition(":")
        aux.append((dt, tuple(int(x) for x in shp.lower().split("x") if x)))

    sources = [Path(f).read_text() for f in args.files]
    batch = list(sources) + ([BASELINE_SOURCE] if args.sass else [])
    t0 = time.perf_counter()
    results = compile_mask_modules(
        batch, aux_tensor_specs=aux, arch=args.arch, keep_dir=args.keep_dir, fa4=args.fa4
    )
    wall = time.perf_counter() - t0
    base = results[-1] if args.sass else None
    rc = 0
    for f, r in zip(args.files, results):
        where = "fa4" if args.fa4 else "harness"
        if r.ok:
            line = f"{f}: OK ({where}, vec_size={r.vec_size}, compile {r.compile_s:.2f} s)"
            if r.sass_count is not None:
                line += f" sass={r.sass_count}"
                if base is not None and base.ok and base.sass_count is not None:
                    line += f" baseline={base.sass_count} delta={r.sass_count - base.sass_count}"
            if r.cubin_path:
                line += f" cubin={r.cubin_path}"
            print(line)
            if args.histogram:
                for op, n in sorted(r.sass_histogram.items(), key=lambda kv: -kv[1]):
                    print(f"    {n:6d} {op}")
        else:
            rc = 1
            print(f"{f}: ERROR ({where})\n{r.error}")
    if base is not None and not base.ok:
        print(f"baseline: ERROR\n{base.error}")
        rc = 1
    print(f"total {wall:.2f} s (subprocess; imports {results[0].import_s or 0:.2f} s)")
    return rc


if __name__ == "__main__":
    sys.exit(main())
