"""SASS benchmark of keep-mask code: maskopt's module and drop-in vs torch 2.13 inductor vs per-lane.

    python -m maskopt.tools.bench_sass [--jobs N] [--only NAME ...] [--out FILE]
    python -m maskopt.tools.bench_sass --fa4 [--jobs N] [--only NAME ...] [--out FILE]

Harness mode (default). For every mask of the test corpus
(``maskopt.tools.corpus.CORPUS``) four mask_mod modules are built:

* ``maskopt``: the module ``compile_mask`` emits (the packed keep word, or the
  per-lane loop when maskopt does not pack the mask);
* ``drop-in``: maskopt as torch inductor runs it once installed: the
  elements of ``maskopt.inductor.select_packed_mask_intervals`` on the traced
  graph, rendered by torch's own FLASH template
  (``templates/flash_attention.py.jinja``, through
  ``maskopt.tools.flash_template``);
* ``inductor``: torch 2.13's own elements (its ``select_packed_mask_intervals``
  on the same graph), rendered by the same template;
* ``per-lane``: maskopt's per-lane fallback for the same mask (the pipeline
  without ``fold-intervals``: 32 evaluations of the predicate, one bit each).

Each is compiled for ``sm_100a`` on the CPU into the same one-thread-per-row
harness kernel (``maskopt.tools.cute_compile``: q = block * 128 + thread, a
runtime kv base, the keep word stored to global memory) and its SASS
instructions are counted (NOP and the trailing self-branch excluded). The
table gives the counts, the kernel's scaffold (the same harness with a mask
that returns the constant 0 word), and the ratios to inductor and per-lane,
with totals over the masks that all of maskopt, its drop-in and inductor pack.

``--fa4`` compiles the masks of ``FA4_MASKS`` inside FA4's real SM100 forward
kernel and reports the SASS delta over a one-operation mask_mod
(``cute_compile.BASELINE_SOURCE``: its keep word is ``q_idx[0] - kv_idx[0]``,
a runtime word made by one subtraction, so the combination with the seqlen
bits and the R2P application of a runtime word are in the baseline too) for
the module, the drop-in and inductor. FA4's kernel is the arbiter of code
size: where it and the harness disagree, FA4 wins.

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

VARIANTS = ("maskopt", "drop-in", "inductor", "per-lane")

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

#: Masks compiled in FA4's kernel by ``--fa4``: causal, sliding windows (one
#: wider than a word, one narrower), the diagonal, prefix LM (constant and
#: int64 per-batch lengths), chunked, document starts
#: (int32 and int64), per-head (int32 and int64) and per-batch windows,
#: padding (int32 and int64 lengths), row-bounded causal, a packed causal
#: document mask and a bottom-right window.
FA4_MASKS = (
    "causal",
    "sliding_window_100",
    "sliding_window_16",
    "diagonal",
    "prefix_lm_77",
    "chunked_causal_96",
    "doc_start_causal_i32",
    "doc_start_causal_i64",
    "per_head_window",
    "per_head_window_i64",
    "per_batch_window",
    "kv_padding",
    "kv_padding_i64",
    "prefix_lm_i64",
    "row_bounded_causal",
    "packed_causal_doc",
    "bottom_right_window_256",
    "bottom_right_causal",
    "per_head_strict_window",
    "per_batch_offset_causal",
    # session 24: the rest of the masks that inductor packs too, so that the
    # table shows every mask the targets compare
    "attn_gym_causal",
    "causal_strict",
    "wrapped_conjunction_10",
    "streaming_sink",
    "batched_doc_start_causal",
    "extreme_start_causal",
    "batchify_noop_64",
    "chunked_causal_neg64",
    "window_or_prefix",
    "per_head_window_u8",
)


def inductor_source(intervals, n_tensor_buffers: int = 0) -> str:
    """The mask_mod torch 2.13's flash_attention.py.jinja renders for packed
    elements (torch's intervals or the drop-in's), through torch's template."""
    from maskopt.tools.flash_template import template_mask_mod

    return template_mask_mod(intervals, n_tensor_buffers)


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
    dropin_packed: bool = False


@dataclass
class Job:
    row: Row
    variant: str
    source: str
    aux: list


def case_modules(mask_mod, name: str, domain=None) -> tuple[list, bool, dict[str, str]]:
    """One mask's aux specs, whether maskopt packs it, and its mask_mod
    modules by variant: maskopt's module, and where each packs the drop-in's
    and inductor's elements rendered by torch's FLASH template (maskopt's
    module and drop-in compiled for `domain`, (B, H, Q, KV) or None, as
    `install()` does for a flex lowering with static shapes)."""
    from maskopt import compile_mask, inductor
    from maskopt.lowering.trace import trace_mask_mod
    from maskopt.tools.corpus import inductor_select

    traced = trace_mask_mod(mask_mod, name=name)
    result = compile_mask(mask_mod, name=name, domain=domain)
    aux = [(t.dtype, tuple(t.shape)) for t in traced.aux_tensors]
    out = {"maskopt": result.cute_source}
    with inductor.domain(domain):
        elements = inductor.select_packed_mask_intervals(traced.graph_module, traced.aux_tensors)
    if elements is not None:
        out["drop-in"] = inductor_source(elements, len(aux))
    intervals = inductor_select(traced)
    if intervals is not None:
        out["inductor"] = inductor_source(intervals, len(aux))
    return aux, result.packed, out


def build_jobs(cases, domain=None) -> tuple[list[Row], list[Job]]:
    """Trace every case and emit its modules (no compiling yet); maskopt's
    module and drop-in for `domain` ((B, H, Q, KV) or None: the full one)."""
    rows, jobs = [], []
    for case in cases:
        mm = case.make()
        row = Row(case.name, False, False)
        rows.append(row)
        try:
            aux, row.maskopt_packed, sources = case_modules(mm, case.name, domain)
        except Exception as e:  # noqa: BLE001 - a row that says why
            row.errors["maskopt"] = f"{type(e).__name__}: {e}"
            continue
        for variant, source in sources.items():
            if variant != "maskopt":
                setattr(row, f"{variant.replace('-', '')}_packed", True)
            jobs.append(Job(row, variant, source, aux))
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
        "| mask | maskopt | drop-in | inductor | per-lane | maskopt/inductor | drop-in/inductor "
        "| drop-in - maskopt | maskopt/per-lane |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    tot = {v: 0 for v in VARIANTS}
    n_three = all_m = all_p = n_all = 0
    worse: dict[str, list[str]] = {"maskopt": [], "drop-in": []}
    apart = []
    for row in rows:
        m, d, i, p = (row.counts.get(v) for v in VARIANTS)
        tag = "" if row.maskopt_packed else " (per-lane)"
        gap = "-" if m is None or d is None else f"{d - m:+d}"
        out.append(
            f"| {row.name}{tag} | {_cell(row, 'maskopt')} | {_cell(row, 'drop-in')} | {_cell(row, 'inductor')} | "
            f"{_cell(row, 'per-lane')} | {_ratio(m, i)} | {_ratio(d, i)} | {gap} | {_ratio(m, p)} |"
        )
        if m is not None and d is not None and i is not None and row.maskopt_packed:
            n_three += 1
            for v, c in (("maskopt", m), ("drop-in", d), ("inductor", i)):
                tot[v] += c
            for v, c in (("maskopt", m), ("drop-in", d)):
                if c > i:
                    worse[v].append(row.name)
        if m is not None and d is not None and row.maskopt_packed and abs(d - m) > 1:
            apart.append(f"{row.name} ({d - m:+d})")
        if m is not None and p is not None:
            all_m, all_p, n_all = all_m + m, all_p + p, n_all + 1
    out.append(
        f"| **total, {n_three} masks all three pack** | {tot['maskopt']} | {tot['drop-in']} | {tot['inductor']} | | "
        f"{_ratio(tot['maskopt'], tot['inductor'])} | {_ratio(tot['drop-in'], tot['inductor'])} | "
        f"{tot['drop-in'] - tot['maskopt']:+d} | |"
    )
    if scaffold is not None and n_three:
        # The mask's own code, as FA4's table counts it: the delta over the
        # scaffold, which every row of the total carries once.
        over = {v: tot[v] - n_three * scaffold for v in tot}
        out.append(
            f"| **total over the scaffold, {n_three} masks** | +{over['maskopt']} | +{over['drop-in']} | "
            f"+{over['inductor']} | | {_ratio(over['maskopt'], over['inductor'])} | "
            f"{_ratio(over['drop-in'], over['inductor'])} | | |"
        )
    out.append(
        f"| **total, {n_all} masks with a per-lane count** | {all_m} | | | {all_p} | | | | "
        f"{_ratio(all_m, all_p)} |"
    )
    out.append("")
    packed = sum(r.maskopt_packed for r in rows)
    dropin = sum(r.dropin_packed for r in rows)
    ind = sum(r.inductor_packed for r in rows)
    out.append(
        f"{len(rows)} masks; maskopt packs {packed}, its drop-in {dropin}, inductor {ind}. "
        f"Harness scaffold (constant 0 word): "
        f"{'-' if scaffold is None else scaffold} instructions."
    )
    for v in ("maskopt", "drop-in"):
        out.append(
            f"Masks where {v} emits more than inductor: "
            + (", ".join(worse[v]) if worse[v] else "none")
            + "."
        )
    out.append("Masks where the drop-in is more than one instruction from the module: "
               + (", ".join(apart) if apart else "none") + ".")
    errors = [(r.name, v, e) for r in rows for v, e in r.errors.items()]
    for name, v, e in errors:
        first = e.strip().splitlines()[0] if e.strip() else "?"
        out.append(f"- error: {name} / {v}: {first}")
    return "\n".join(out) + "\n"


def run_harness(cases, *, jobs: int, domain=None) -> str:
    rows, job_list = build_jobs(cases, domain)
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


def run_fa4(cases, *, jobs: int, domain=None) -> str:
    from maskopt.tools.cute_compile import BASELINE_SOURCE

    items: list[tuple[str, str, str, list]] = [("one-operation mask_mod", "", BASELINE_SOURCE, [])]
    for case in cases:
        aux, _, sources = case_modules(case.make(), case.name, domain)
        items += [(case.name, variant, source, aux) for variant, source in sources.items()]
    results = compile_jobs([(s, a) for _, _, s, a in items], jobs=jobs, fa4=True)
    base = results[0]
    if not base.ok or base.sass_count is None:
        return f"baseline failed: {base.error}\n"
    return format_fa4_table(
        base.sass_count,
        [(name, variant, r.sass_count if r.ok else None) for (name, variant, _, _), r in zip(items[1:], results[1:])],
    )


def format_fa4_table(baseline: int, counts: Sequence[tuple[str, str, int | None]]) -> str:
    """The FA4 table from (mask, variant, SASS count or None for an error)."""
    table: dict[str, dict[str, int | None]] = {}
    for name, variant, c in counts:
        table.setdefault(name, {})[variant] = c
    out = [
        f"FA4 SM100 forward kernel; one-operation mask_mod: {baseline} instructions. Deltas over it:",
        "",
        "| mask | maskopt | drop-in | inductor | maskopt/inductor | drop-in/inductor |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    tot = {"maskopt": 0, "drop-in": 0, "inductor": 0}
    n = 0
    worse: dict[str, list[str]] = {"maskopt": [], "drop-in": []}

    def cell(cells, v):
        if v not in cells:
            return "-"
        return "error" if cells[v] is None else f"+{cells[v] - baseline}"

    for name, cells in table.items():
        d = {v: (None if cells.get(v) is None else cells[v] - baseline) for v in tot}
        out.append(
            f"| {name} | {cell(cells, 'maskopt')} | {cell(cells, 'drop-in')} | {cell(cells, 'inductor')} | "
            f"{_ratio(d['maskopt'], d['inductor'])} | {_ratio(d['drop-in'], d['inductor'])} |"
        )
        if all(x is not None for x in d.values()):
            n += 1
            for v in tot:
                tot[v] += d[v]
            for v in worse:
                if d[v] > d["inductor"]:
                    worse[v].append(name)
    out.append(
        f"| **total, {n} masks all three pack** | +{tot['maskopt']} | +{tot['drop-in']} | +{tot['inductor']} | "
        f"{_ratio(tot['maskopt'], tot['inductor'])} | {_ratio(tot['drop-in'], tot['inductor'])} |"
    )
    out.append("")
    for v in worse:
        out.append(f"Masks where {v} is above inductor: " + (", ".join(worse[v]) or "none") + ".")
    return "\n".join(out) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m maskopt.tools.bench_sass",
        description="SASS instruction counts of maskopt's, inductor's and per-lane keep-mask code.",
    )
    ap.add_argument("--jobs", type=int, default=2, help="compile subprocesses at once (default 2)")
    ap.add_argument("--only", nargs="+", metavar="NAME", help="corpus masks to measure")
    ap.add_argument("--fa4", action="store_true", help="compile the FA4_MASKS inside FA4's kernel")
    ap.add_argument("--out", help="also write the table to this file")
    ap.add_argument(
        "--domain",
        metavar="'q<Q,kv<KV'",
        help="also measure maskopt's module and drop-in compiled for this domain "
        "(maskopt.passes.domain's spelling, e.g. 'q<131072,kv<131072'): a second "
        "table in the same run, after the full int32 domain's",
    )
    args = ap.parse_args(argv)
    domain = None
    if args.domain is not None:
        from maskopt.passes.domain import DomainError, domain_bounds

        try:
            domain = domain_bounds(args.domain)
        except DomainError as e:
            print(f"invalid --domain: {e}", file=sys.stderr)
            return 2

    from maskopt.tools.corpus import CORPUS

    names = args.only or (FA4_MASKS if args.fa4 else None)
    cases = [c for c in CORPUS if names is None or c.name in names]
    if names is not None:
        missing = set(names) - {c.name for c in cases}
        if missing:
            print(f"unknown mask(s): {', '.join(sorted(missing))}", file=sys.stderr)
            return 2
    t0 = time.perf_counter()
    run = run_fa4 if args.fa4 else run_harness
    text = run(cases, jobs=args.jobs)
    if domain is not None:
        text += f"\nmaskopt and its drop-in compiled for the domain {args.domain} (inductor unchanged):\n\n"
        text += run(cases, jobs=args.jobs, domain=domain)
    text += f"\n({time.perf_counter() - t0:.0f} s)\n"
    print(text, end="")
    if args.out:
        with open(args.out, "w") as f:
            f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
