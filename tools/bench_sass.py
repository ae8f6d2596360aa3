"""SASS benchmark of keep-mask code: maskopt vs torch 2.13 inductor vs per-lane.

    python -m maskopt.tools.bench_sass [--jobs N] [--only NAME ...] [--out FILE]
    python -m maskopt.tools.bench_sass --fa4 [--only NAME ...]

Harness mode (default). For every mask of the test corpus
(``maskopt.tools.corpus.CORPUS``) three mask_mod modules are built:

* ``maskopt``: the module ``compile_mask`` emits (the packed keep word, or the
  per-lane loop when maskopt does not pack the mask);
* ``inductor``: torch 2.13's rendering where inductor packs the mask: its
  ``select_packed_mask_intervals`` on the same traced graph, each interval's
  ``keep_mask_expr()`` ORed into ``mask_mod_packed[0]`` exactly as
  ``templates/flash_attention.py.jinja`` does;
* ``per-lane``: maskopt's per-lane fallback for the same mask (the pipeline
  without ``fold-intervals``: 32 evaluations of the predicate, one bit each).

Each is compiled for ``sm_100a`` on the CPU into the same one-thread-per-row
harness kernel (``maskopt.tools.cute_compile``: q = block * 128 + thread, a
runtime kv base, the keep word stored to global memory) and its SASS
instructions are counted (NOP and the trailing self-branch excluded). The
table gives the counts, the kernel's scaffold (the same harness with a mask
that returns the constant 0 word), and the ratios maskopt/inductor and
maskopt/per-lane, with totals.

``--fa4`` compiles a few masks inside FA4's real SM100 forward kernel and
reports the SASS delta over a one-operation mask_mod
(``cute_compile.BASELINE_SOURCE``: its keep word is ``q_idx[0] - kv_idx[0]``,
a runtime word made by one subtraction, so the combination with the seqlen
bits and the R2P application of a runtime word are in the baseline too) for
maskopt's and inductor's code.

Compiles run in ``--jobs`` worker subprocesses at once (each in its own
temporary directory, removed afterwards); nothing is cached.
"""

from __future__ import annotations

import argparse
import io
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Sequence

VARIANTS = ("maskopt", "inductor", "per-lane")

#: A mask_mod that keeps nothing: the harness kernel alone (its scaffold).
SCAFFOLD_SOURCE = '''\
import cutlass
import cutlass.cute as cute


@cute.jit
def mask_mod(b_idx, h_idx, q_idx, kv_idx, seqlen_info, aux_tensors):
    packed = cute.make_rmem_tensor(1, dtype=cutlass.Uint32)
    packed[0] = cutlass.Uint32(0)
    return packed.load()


mask_mod.__vec_size__ = 32
'''

#: Masks compiled in FA4's kernel by ``--fa4`` (when in the corpus).
FA4_MASKS = (
    "causal",
    "sliding_window_100",
    "prefix_lm_77",
    "chunked_causal_96",
    "doc_start_causal_i32",
    "bottom_right_window_256",
)


def inductor_source(intervals) -> str:
    """The mask_mod torch 2.13's flash_attention.py.jinja renders for packed intervals."""
    lines = [
        "import cutlass",
        "import cutlass.cute as cute",
        "from flash_attn.cute import utils",
        "",
        "",
        "@cute.jit",
        "def mask_mod(b_idx, h_idx, q_idx, kv_idx, seqlen_info, aux_tensors):",
        "    mask_mod_packed = cute.make_rmem_tensor(1, dtype=cutlass.Uint32)",
        "    mask_mod_packed[0] = cutlass.Uint32(0)",
    ]
    for interval in intervals:
        lines.append(
            f"    mask_mod_packed[0] = mask_mod_packed[0] | {interval.keep_mask_expr()}"
        )
    lines += ["    return mask_mod_packed.load()", "", "", "mask_mod.__vec_size__ = 32", ""]
    return "\n".join(lines)


def per_lane_source(mask_mod, name: str) -> str:
    """maskopt's per-lane fallback for `mask_mod` (the pipeline without fold-intervals)."""
    from xdsl.dialects.builtin import StringAttr
    from xdsl.passes import PassPipeline

    from maskopt import make_context
    from maskopt.dialects import mask
    from maskopt.lowering.cute import print_cute_module
    from maskopt.lowering.fx_import import import_mask_mod
    from maskopt.passes.fold_intervals import FoldIntervalsPass
    from maskopt.passes.pipeline import pack_mask_passes

    module, _ = import_mask_mod(mask_mod, name=name)
    passes = tuple(p for p in pack_mask_passes() if not isinstance(p, FoldIntervalsPass))
    PassPipeline(passes).apply(make_context(), module)
    for func in module.walk():
        if isinstance(func, mask.FuncOp) and func.unpacked is None:
            func.unpacked = StringAttr("per-lane baseline of the SASS benchmark")
    out = io.StringIO()
    print_cute_module(module, out)
    return out.getvalue()


@dataclass
class Row:
    """One mask of the table: SASS counts per variant (None: not built / failed)."""

    name: str
    maskopt_packed: bool
    inductor_packed: bool
    counts: dict[str, int | None] = field(default_factory=dict)
    errors: dict[str, str] = field(default_factory=dict)


@dataclass
class Job:
    row: Row
    variant: str
    source: str
    aux: list


def build_jobs(cases) -> tuple[list[Row], list[Job]]:
    """Trace every case and emit the three modules (no compiling yet)."""
    from maskopt import compile_mask
    from maskopt.lowering.trace import trace_mask_mod
    from maskopt.tools.corpus import inductor_select

    rows, jobs = [], []
    for case in cases:
        mm = case.make()
        row = Row(case.name, False, False)
        rows.append(row)
        try:
            traced = trace_mask_mod(mm, name=case.name)
            result = compile_mask(mm, name=case.name)
        except Exception as e:  # noqa: BLE001 - a row that says why
            row.errors["maskopt"] = f"{type(e).__name__}: {e}"
            continue
        aux = [(t.dtype, tuple(t.shape)) for t in traced.aux_tensors]
        row.maskopt_packed = result.packed
        jobs.append(Job(row, "maskopt", result.cute_source, aux))
        intervals = inductor_select(traced)
        if intervals is not None:
            row.inductor_packed = True
            jobs.append(Job(row, "inductor", inductor_source(intervals), aux))
        try:
            jobs.append(Job(row, "per-lane", per_lane_source(mm, case.name), aux))
        except Exception as e:  # noqa: BLE001
            row.errors["per-lane"] = f"{type(e).__name__}: {e}"
    return rows, jobs


def compile_jobs(sources: Sequence[tuple[str, list]], *, jobs: int, fa4: bool = False):
    """Compile (source, aux specs) pairs in `jobs` worker subprocesses; results in order."""
    from maskopt.tools.cute_compile import compile_mask_modules

    items = list(sources)
    n = max(1, min(jobs, len(items)))
    chunks = [list(range(i, len(items), n)) for i in range(n)]

    def run(idx: list[int]):
        return compile_mask_modules(
            [items[i][0] for i in idx],
            per_source_aux_specs=[items[i][1] for i in idx],
            fa4=fa4,
        )

    out: list = [None] * len(items)
    with ThreadPoolExecutor(n) as pool:
        for idx, results in zip(chunks, pool.map(run, chunks)):
            for i, r in zip(idx, results):
                out[i] = r
    return out


def _ratio(a: int | None, b: int | None) -> str:
    return f"{a / b:.2f}" if a is not None and b else "-"


def _cell(row: Row, v: str) -> str:
    if v in row.errors:
        return "error"
    c = row.counts.get(v)
    return "-" if c is None else str(c)


def format_table(rows: Sequence[Row], scaffold: int | None) -> str:
    """The markdown table: per-mask counts, ratios and totals."""
    out = [
        "| mask | maskopt | inductor | per-lane | maskopt/inductor | maskopt/per-lane |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    both_m = both_i = all_m = all_p = 0
    n_both = n_all = 0
    worse = []
    for row in rows:
        m, i, p = (row.counts.get(v) for v in VARIANTS)
        tag = "" if row.maskopt_packed else " (per-lane)"
        out.append(
            f"| {row.name}{tag} | {_cell(row, 'maskopt')} | {_cell(row, 'inductor')} | "
            f"{_cell(row, 'per-lane')} | {_ratio(m, i)} | {_ratio(m, p)} |"
        )
        if m is not None and i is not None:
            both_m, both_i, n_both = both_m + m, both_i + i, n_both + 1
            if m > i:
                worse.append(row.name)
        if m is not None and p is not None:
            all_m, all_p, n_all = all_m + m, all_p + p, n_all + 1
    out.append(
        f"| **total, {n_both} masks both pack** | {both_m} | {both_i} | | "
        f"{_ratio(both_m, both_i)} | |"
    )
    out.append(
        f"| **total, {n_all} masks with a per-lane count** | {all_m} | | {all_p} | | "
        f"{_ratio(all_m, all_p)} |"
    )
    out.append("")
    packed = sum(r.maskopt_packed for r in rows)
    ind = sum(r.inductor_packed for r in rows)
    out.append(
        f"{len(rows)} masks; maskopt packs {packed}, inductor packs {ind}. "
        f"Harness scaffold (constant 0 word): "
        f"{'-' if scaffold is None else scaffold} instructions."
    )
    out.append(
        "Masks where maskopt emits more than inductor: "
        + (", ".join(worse) if worse else "none")
        + "."
    )
    errors = [(r.name, v, e) for r in rows for v, e in r.errors.items()]
    for name, v, e in errors:
        first = e.strip().splitlines()[0] if e.strip() else "?"
        out.append(f"- error: {name} / {v}: {first}")
    return "\n".join(out) + "\n"


def run_harness(cases, *, jobs: int) -> str:
    rows, job_list = build_jobs(cases)
    results = compile_jobs(
        [(SCAFFOLD_SOURCE, [])] + [(j.source, j.aux) for j in job_list], jobs=jobs
    )
    scaffold_res, results = results[0], results[1:]
    for j, r in zip(job_list, results):
        if r.ok and r.sass_count is not None:
            j.row.counts[j.variant] = r.sass_count
        else:
            j.row.errors[j.variant] = r.error or "no SASS count"
    scaffold = scaffold_res.sass_count if scaffold_res.ok else None
    return format_table(rows, scaffold)


def run_fa4(cases, *, jobs: int) -> str:
    from maskopt import compile_mask
    from maskopt.lowering.trace import trace_mask_mod
    from maskopt.tools.corpus import inductor_select
    from maskopt.tools.cute_compile import BASELINE_SOURCE

    items: list[tuple[str, str, str, list]] = [("one-operation mask_mod", "", BASELINE_SOURCE, [])]
    for case in cases:
        mm = case.make()
        traced = trace_mask_mod(mm, name=case.name)
        aux = [(t.dtype, tuple(t.shape)) for t in traced.aux_tensors]
        result = compile_mask(mm, name=case.name)
        items.append((case.name, "maskopt", result.cute_source, aux))
        intervals = inductor_select(traced)
        if intervals is not None:
            items.append((case.name, "inductor", inductor_source(intervals), aux))
    results = compile_jobs([(s, a) for _, _, s, a in items], jobs=jobs, fa4=True)
    base = results[0]
    if not base.ok or base.sass_count is None:
        return f"baseline failed: {base.error}\n"
    table: dict[str, dict[str, str]] = {}
    for (name, variant, _, _), r in zip(items[1:], results[1:]):
        cell = (
            f"{r.sass_count} (+{r.sass_count - base.sass_count})"
            if r.ok and r.sass_count is not None
            else "error"
        )
        table.setdefault(name, {})[variant] = cell
    out = [
        f"FA4 SM100 forward kernel; one-operation mask_mod: {base.sass_count} instructions.",
        "",
        "| mask | maskopt (delta) | inductor (delta) |",
        "|---|---:|---:|",
    ]
    for name, cells in table.items():
        out.append(f"| {name} | {cells.get('maskopt', '-')} | {cells.get('inductor', '-')} |")
    return "\n".join(out) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m maskopt.tools.bench_sass",
        description="SASS instruction counts of maskopt's, inductor's and per-lane keep-mask code.",
    )
    ap.add_argument("--jobs", type=int, default=2, help="compile subprocesses at once (default 2)")
    ap.add_argument("--only", nargs="+", metavar="NAME", help="corpus masks to measure")
    ap.add_argument("--fa4", action="store_true", help="compile a few masks inside FA4's kernel")
    ap.add_argument("--out", help="also write the table to this file")
    args = ap.parse_args(argv)

    from maskopt.tools.corpus import CORPUS

    names = args.only or (FA4_MASKS if args.fa4 else None)
    cases = [c for c in CORPUS if names is None or c.name in names]
    if names is not None:
        missing = set(names) - {c.name for c in cases}
        if missing:
            print(f"unknown mask(s): {', '.join(sorted(missing))}", file=sys.stderr)
            return 2
    t0 = time.perf_counter()
    text = run_fa4(cases, jobs=args.jobs) if args.fa4 else run_harness(cases, jobs=args.jobs)
    text += f"\n({time.perf_counter() - t0:.0f} s)\n"
    print(text, end="")
    if args.out:
        with open(args.out, "w") as f:
            f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
