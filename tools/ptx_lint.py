"""
PTX lint for emitted keep-mask code: find the shapes a known ptxas
miscompile needs.

The ptxas bug (CUDA 13.0's ptxas and the compiler bundled with
nvidia-cutlass-dsl 4.8.1; sm_90a and sm_100a alike): for

    neg.s32 %n, %x;            // or sub.s32 %n, 0, %x / mul.lo.s32 %n, %x, -1
    max.s32 %t, %a, %n;
    max.s32 %r, %t, %b;

ptxas emits one `VIMNMX3 %r, %a, %x, %b` (the same for min): the negation is
dropped, so the kernel computes max(a, x, b). The instruction encoding is the
same with and without the `neg`; on an H200 it turned the keep word of
corpus mask `batchify_sliding_window_16_128` into 0x80000000 where 0 was right
(q=256, kv_base=97: max(31, -159, 15) instead of max(31, 159, 15)).
Two-input min/max, `max(a, max(-x, b))` and `VIADDMNMX` keep the negation.

The CuTe target therefore never prints an i32 `0 - x` (see
`maskopt.lowering.cute.PTXAS_NEGATION`), and this lint checks the PTX that
LLVM actually produced: no register defined by a negation may be an
operand of a `min`/`max` chained with another of the same kind (either
nesting order, either operand position: more than the shape known to fail).
A lone two-input min/max of a negation is compiled right (its SASS keeps the
negation) and is not reported: LLVM forms those itself, e.g. `max(-kv, 0)`
from `(q - kv) - q`.

    python -m maskopt.tools.ptx_lint FILE.ptx ...     # exit 1 when a hazard is found
    python -m maskopt.tools.ptx_lint --corpus         # compile the corpus (sm_100a), lint it
    python -m maskopt.tools.ptx_lint --fuzz 300 --seed 7   # the same for fuzzer masks
    python -m maskopt.tools.ptx_lint --corpus --dropin     # also the inductor drop-in's kernels

The drop-in's kernels are its keep-mask expressions rendered through torch's
FLASH template (`maskopt.tools.flash_template`): the PTX that inductor would
run, linted by the same rule as the modules.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass

#: A bare negation in emitted CuTe text (`cutlass.Int32(0) - x`, `x *
#: cutlass.Int32(-1)`): the printer never writes one (PTXAS_NEGATION). The
#: text check is what the CPU fuzzer can do; the PTX lint below is the real one.
BARE_NEGATION = re.compile(r"cutlass\.Int(?:32|64)\(0\) - |\* cutlass\.Int(?:32|64)\(-1\)\)")

_INSTR = re.compile(r"^\s*(?:@!?%\w+\s+)?([a-z][\w.]*)\s+([^;]*);")


@dataclass(frozen=True)
class Hazard:
    """A negation (`line` of the PTX) that reaches a min/max (`use_line`)."""

    line: int
    negation: str
    use_line: int
    use: str

    def __str__(self) -> str:
        return f"line {self.line}: `{self.negation}` feeds line {self.use_line}: `{self.use}`"


def _operands(text: str) -> list[str]:
    return [o.strip() for o in text.split(",")]


def _negated(opcode: str, ops: list[str]) -> bool:
    """Whether `opcode ops` computes `0 - x` (a form ptxas treats as a negation)."""
    if len(ops) < 2:
        return False
    if opcode.startswith("neg.s") or opcode.startswith("neg.b"):
        return True
    if opcode.startswith("sub.") and not opcode.startswith("sub.f") and len(ops) == 3:
        return ops[1] in ("0", "0x0", "0x00000000")
    if opcode.startswith("mul.lo.") and len(ops) == 3:
        return "-1" in (ops[1], ops[2]) or "0xFFFFFFFF" in (ops[1].upper(), ops[2].upper())
    return False


def _minmax_kind(opcode: str) -> tuple[str, str] | None:
    """("min" or "max", the operand type) of an integer min/max opcode."""
    if not opcode.startswith(("min.", "max.")) or opcode.startswith(("min.f", "max.f")):
        return None
    return opcode[:3], opcode.rsplit(".", 1)[-1]


def negation_into_minmax(ptx: str) -> list[Hazard]:
    """
    Every negated register that is an operand of an integer `min`/`max` that
    is chained with a second one of the same kind and type (its result feeds
    one, or one of its operands is the result of one): the shapes ptxas fuses
    into a three-input VIMNMX3. A lone two-input min/max of a negation is
    compiled right and is not reported.
    """
    negs: dict[str, tuple[int, str]] = {}
    minmax_defs: dict[str, tuple[str, str]] = {}  # register -> kind of the min/max defining it
    # negated operands of a min/max whose result is not known to be chained yet
    pending: dict[str, tuple[tuple[str, str], list[Hazard]]] = {}
    hazards: list[Hazard] = []
    for n, raw in enumerate(ptx.splitlines(), 1):
        line = raw.split("//", 1)[0]
        m = _INSTR.match(line)
        if m is None:
            continue
        opcode, ops = m.group(1), _operands(m.group(2))
        kind = _minmax_kind(opcode)
        srcs = ops[1:]
        found: list[Hazard] = []
        chained = False
        if kind is not None:
            found = [Hazard(*negs[src], n, line.strip()) for src in srcs if src in negs]
            for src in srcs:  # this min/max consumes a pending one of the same kind
                if src in pending and pending[src][0] == kind:
                    hazards += pending.pop(src)[1]
            chained = any(minmax_defs.get(src) == kind for src in srcs)
            if found and chained:
                hazards += found
        if ops and ops[0].startswith("%"):
            dest = ops[0]  # (re)defined here: forget what the register held before
            pending.pop(dest, None)
            minmax_defs.pop(dest, None)
            negs.pop(dest, None)
            if kind is not None:
                minmax_defs[dest] = kind
                if found and not chained:
                    pending[dest] = (kind, found)
            elif _negated(opcode, ops):
                negs[dest] = (n, line.strip())
    return sorted(set(hazards), key=lambda h: (h.line, h.use_line))


def lint_sources(
    names: list[str], sources: list[str], aux_specs: list[list], *, arch: str = "sm_100a"
) -> tuple[dict[str, list[Hazard]], dict[str, str]]:
    """Compile emitted modules in the harness (nvidia-cutlass-dsl, no GPU needed)
    and lint their PTX: (hazards by name, compile errors by name)."""
    import tempfile

    from maskopt.tools.cute_compile import compile_mask_modules

    with tempfile.TemporaryDirectory() as keep:
        results = compile_mask_modules(
            sources, per_source_aux_specs=aux_specs, keep_dir=keep, arch=arch
        )
        hazards, errors = {}, {}
        for name, r in zip(names, results):
            if not r.ok or r.ptx_path is None:
                errors[name] = (r.error or "no PTX").splitlines()[0]
                continue
            with open(r.ptx_path) as f:
                found = negation_into_minmax(f.read())
            if found:
                hazards[name] = found
    return hazards, errors


def _dropin(fn, names, sources, specs, label):
    """Append the drop-in's rendering of `fn` (torch's FLASH template around
    its keep-mask expressions), where it packs it."""
    from maskopt.tools.flash_template import dropin_module

    d = dropin_module(fn)
    if d is not None:
        names.append(f"{label} [drop-in]")
        sources.append(d.source)
        specs.append([(t.dtype, tuple(t.shape)) for t in d.aux_tensors])


def _corpus_sources(*, module: bool = True, dropin: bool = False):
    import maskopt
    from maskopt.tools import corpus

    names, sources, specs = [], [], []
    for case in corpus.CORPUS:
        if module:
            r = maskopt.compile_mask(case.make(), name=case.name)
            names.append(case.name)
            sources.append(r.cute_source)
            specs.append([(t.dtype, tuple(t.shape)) for t in r.aux_tensors])
        if dropin:
            _dropin(case.make(), names, sources, specs, case.name)
    return names, sources, specs


def _fuzz_sources(n: int, seed: int, *, module: bool = True, dropin: bool = False):
    import maskopt
    from maskopt.tools import fuzz

    names, sources, specs, skipped = [], [], [], 0
    for i in range(n):
        m = fuzz.random_mask(seed * 1_000_003 + i)
        try:
            r = maskopt.compile_mask(m.mask_mod, max_intervals=m.max_intervals)
        except Exception:  # noqa: BLE001 - rejected masks have no module to lint
            skipped += 1
            continue
        label = f"fuzz[{seed}:{i}]{' packed' if r.packed else ''}"
        if module:
            names.append(label)
            sources.append(r.cute_source)
            specs.append([(t.dtype, tuple(t.shape)) for t in r.aux_tensors])
        if dropin and r.packed:
            _dropin(m.mask_mod, names, sources, specs, label)
    return names, sources, specs, skipped


def main(argv: list[str] | None = None) -> int:
    import argparse

    ap = argparse.ArgumentParser(
        prog="python -m maskopt.tools.ptx_lint",
        description="Find negations that reach a PTX min/max (a ptxas miscompile; see the module doc).",
    )
    ap.add_argument("ptx", nargs="*", help="PTX files to lint")
    ap.add_argument("--corpus", action="store_true", help="compile and lint the example corpus")
    ap.add_argument("--fuzz", type=int, default=0, metavar="N", help="compile and lint N fuzzer masks")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument(
        "--dropin",
        action="store_true",
        help="also lint the inductor drop-in's kernels (its keep-mask expressions in torch's FLASH template)",
    )
    ap.add_argument("--dropin-only", action="store_true", help="lint only the drop-in's kernels")
    ap.add_argument("--arch", default="sm_100a")
    args = ap.parse_args(argv)
    if not (args.ptx or args.corpus or args.fuzz):
        ap.error("give PTX files, --corpus or --fuzz N")
    found = 0
    for path in args.ptx:
        with open(path) as f:
            for h in negation_into_minmax(f.read()):
                print(f"{path}: {h}")
                found += 1
    batches = []
    which = {"module": not args.dropin_only, "dropin": args.dropin or args.dropin_only}
    if args.corpus:
        batches.append(("corpus", *_corpus_sources(**which), 0))
    if args.fuzz:
        batches.append((f"fuzz seed {args.seed}", *_fuzz_sources(args.fuzz, args.seed, **which)))
    for label, names, sources, specs, skipped in batches:
        hazards, errors = lint_sources(names, sources, specs, arch=args.arch)
        for name, hs in hazards.items():
            for h in hs:
                print(f"{name}: {h}")
        for name, e in errors.items():
            print(f"{name}: compile error: {e}")
        packed = sum(n.endswith("packed") for n in names) if label != "corpus" else None
        dropins = sum(n.endswith("[drop-in]") for n in names)
        print(
            f"{label}: {len(names)} modules compiled for {args.arch}"
            + (f" ({dropins} of them drop-in kernels)" if dropins else "")
            + (f" ({packed} packed, {skipped} masks rejected before emission)" if packed is not None else "")
            + f", {sum(map(len, hazards.values()))} hazards in {len(hazards)} modules,"
            f" {len(errors)} compile errors"
        )
        found += len(hazards) + len(errors)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
