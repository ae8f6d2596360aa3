"""Grammar fuzzer for maskopt: random mask_mods, compiled, emulated, compared with eager torch.

A generated mask is a :class:`FuzzMask`: an expression tree over ``b``, ``h``,
``q_idx``, ``kv_idx``, constants (many near the int32 / int64 limits) and aux
tensor loads, rendered as readable Python source::

    import torch
    t0 = torch.tensor([3, 2147483647, -5], dtype=torch.int32)
    def mask_mod(b, h, q_idx, kv_idx):
        return ((q_idx - kv_idx) <= t0[(q_idx % -3)]) & (q_idx >= kv_idx)

That source *is* the mask: the callable is obtained by executing it (inside a
factory, so that the aux tensors are closure variables as in real code), so
``print(mask)`` is always an exact reproducer.

Grammar (int32 unless an int64 aux tensor or ``.to(torch.int64)`` promotes):

* int: ``q_idx kv_idx b h``, ``t[idx]``; ``x + c``, ``x - c``, ``c - x``,
  ``x * c``, ``x + y``, ``x - y``, ``torch.add/sub(x, y, alpha=k)``,
  ``x // c``, ``x % c`` (c of both signs, never 0), ``abs(x)``, ``-x``,
  ``torch.minimum/maximum(x, y)``, ``torch.where(p, x, y)`` / ``(p, x, c)``,
  ``x.to(torch.int64)``, ``torch.clamp``, ``torch.fmod(x, c)``, ``x & | ^ c``,
  ``x >> k``, ``x << k``, ``x * y``.
* bool: ``x OP y`` / ``x OP c`` for ``< <= > >= == !=``; kv-affine templates
  (``(q_idx - kv_idx) OP u``, ``kv_idx // c OP q_idx // c``, ``(q_idx -
  kv_idx).abs() OP u``, bitwise functions of kv_idx such as ``((kv_idx >>
  k) & m) OP u`` or a Morton-decode step, ...; ``u`` lane-uniform, possibly
  an aux load);
  ``p & p``, ``p | p``, ``p ^ p``, ``~p``, ``torch.logical_and/or/not``,
  rarely a bool aux tensor load.
* each mask is compiled with ``max_intervals`` 8 (mostly), 4, 3, 2 or 1.
* aux loads: 1-D int32 / int64 / bool tensors (values small, or with extremes
  such as 2**31 - 1, -2**31, 2**62, -2**63) and 2-D ``t[b, q_idx]``, indexed by
  lane-uniform values that are in range for every sampled point (``b``, ``h``,
  ``q_idx``, ``q_idx - 1`` (-1 at q = 0: torch wraps to the last element),
  constants including negative ones, ``q_idx % 7``, ``q_idx % -5``, ``q_idx //
  2``, another aux load whose values are valid indices); occasionally a
  per-lane gather ``t[kv_idx]`` / ``t[kv_idx % n]`` / ``t[(q_idx + kv_idx) %
  n]`` (must not pack; the per-lane fallback must still be exact).

Constants are always representable in the dtype they meet (torch would wrap an
out-of-range Python scalar; maskopt's importer rejects it with an
``FXImportError``, which is not what this fuzzer is after).

Cases of ``KNOWN_BUGS`` (compiler bugs found by this fuzzer, not fixed yet) are
not generated unless ``known_bugs=True`` / ``--known-bugs``.

``check_mask(mask_mod, points)`` compiles, runs the emitted module in the CPU
emulator (exact CuTe semantics, overflow is ``EmulatedUB``) and compares with
``corpus.reference_words`` (eager torch, vmapped with eager 0-dim type
promotion).  ``sample_points(mask)`` gives every lane alignment
in a small [0, KV_LEN) box, windows around each constant's edges and, when no
aux tensor is indexed by a raw q / kv value, rows at q near 2**31 - 1 and 2**30
(and huge b / h when nothing indexes by them).

CLI::

    python -m maskopt.tools.fuzz --masks 500 --seed 1 [--depth 3] [--shrink] [--known-bugs] [-v]

prints every failure (with ``--shrink`` also a greedily shrunk reproducer),
then the counts (masks, packed, per-lane, mismatches, emulator UB, emulator
errors, compile crashes, ...) and the pack rate; exits 1 on any mismatch,
emulator UB, emulator crash or compiler crash on a valid mask (clean
``FXImportError`` rejections are counted but tolerated).
"""

from __future__ import annotations

import argparse
import linecache
import random
import re
import sys
import time
import traceback
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Sequence

import torch

__all__ = [
    "Node",
    "Aux",
    "FuzzMask",
    "FuzzOutcome",
    "generate",
    "masks",
    "random_mask",
    "sample_points",
    "box_points",
    "check_mask",
    "check",
    "shrink",
    "main",
]

I32_MIN, I32_MAX = -(2**31), 2**31 - 1
I64_MIN, I64_MAX = -(2**63), 2**63 - 1
RANGE = {"i32": (I32_MIN, I32_MAX), "i64": (I64_MIN, I64_MAX), "u8": (0, 255)}
#: unsigned aux dtypes: torch dtype, width
UNSIGNED = {"u8": (torch.uint8, 8), "u16": (torch.uint16, 16), "u32": (torch.uint32, 32), "u64": (torch.uint64, 64)}
_TORCH_DTYPES = {"i32": torch.int32, "i64": torch.int64, "bool": torch.bool, **{k: v[0] for k, v in UNSIGNED.items()}}

# ----------------------------------------------------------------------------
# choosers: the generator is written once against this interface and driven by
# hypothesis (``draw``; shrinks towards the first option / False) or by a seeded
# random.Random (the CLI).
# ----------------------------------------------------------------------------


class _Chooser:
    def pick(self, options: Sequence, weights: Sequence[int] | None = None):
        raise NotImplementedError

    def integer(self, lo: int, hi: int) -> int:
        raise NotImplementedError

    def chance(self, p: float) -> bool:
        raise NotImplementedError


class RandomChooser(_Chooser):
    def __init__(self, rng: random.Random):
        self.rng = rng

    def pick(self, options, weights=None):
        return self.rng.choices(list(options), weights=weights, k=1)[0]

    def integer(self, lo, hi):
        return self.rng.randint(lo, hi)

    def chance(self, p):
        return self.rng.random() < p


class HypothesisChooser(_Chooser):
    def __init__(self, draw):
        from hypothesis import strategies as st

        self.draw, self.st = draw, st

    def pick(self, options, weights=None):
        opts = list(options)
        if weights is not None:  # weights as repetition; order kept (shrinks to the first)
            opts = [o for o, w in zip(opts, weights) for _ in range(w)]
        return self.draw(self.st.sampled_from(opts))

    def integer(self, lo, hi):
        return self.draw(self.st.integers(lo, hi))

    def chance(self, p):
        return self.draw(self.st.integers(0, 99)) >= 100 - round(100 * p)


# ----------------------------------------------------------------------------
# expression trees
# ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Node:
    """``fmt`` with ``{0} {1} ...`` for the children's source.

    ``dtype``: "i32", "i64" or "bool".  ``role``: "value" (may be replaced by
    the shrinker) or "index" (an aux index, kept in range: never replaced).
    ``consts``: the constants this node introduces (used for edge sampling).
    ``lo``/``hi``: a sound range of the value torch computes on the mask
    domain (int32 ops that may wrap get the whole int32 range);
    ``wraps64``: some int64 op in the subtree may wrap (see KNOWN_BUGS);
    ``folds``: the value is a constant after canonicalization (``x * 0``,
    ``x % 1``, ...).
    """

    fmt: str
    dtype: str
    kids: tuple["Node", ...] = ()
    role: str = "value"
    consts: tuple[int, ...] = ()
    lane: bool = False  # depends on kv_idx
    lo: int = I32_MIN
    hi: int = I32_MAX
    wraps64: bool = False
    folds: bool = False

    def src(self) -> str:
        return self.fmt.format(*(k.src() for k in self.kids))

    def walk(self):
        yield self
        for k in self.kids:
            yield from k.walk()


def _leaf(name: str) -> Node:
    return Node(name, "i32", lane=(name == "kv_idx"), lo=0, hi=I32_MAX)


def _mk(fmt: str, dtype: str, *kids: Node, consts=(), role="value", rng=None, folds=None) -> Node:
    """A node; ``rng`` is the exact (unwrapped) range of the op's result."""
    wraps = any(k.wraps64 for k in kids)
    lo, hi = RANGE.get(dtype, (0, 1))
    if rng is not None and dtype != "bool":
        if RANGE[dtype][0] <= rng[0] and rng[1] <= RANGE[dtype][1]:
            lo, hi = rng
        elif dtype == "i64":
            wraps = True
    if folds is None:
        folds = bool(kids) and all(k.folds for k in kids)
    return Node(fmt, dtype, tuple(kids), role, tuple(consts), any(k.lane for k in kids), lo, hi, wraps, folds)


def _span(*vals: int) -> tuple[int, int]:
    return min(vals), max(vals)


def _is_load(n: Node) -> bool:
    return (bool(n.kids) and n.kids[0].role == "index") or n.fmt.endswith("[b, q_idx]")


def _may_fold(x: Node) -> bool:
    """Might canonicalization turn ``x`` into a constant?  (Conservative: folding
    constants, or any op with two identical operands such as ``q_idx <= q_idx``.)"""
    for n in x.walk():
        if n.folds or (n.dtype != "bool" and n.lo == n.hi and not _is_load(n)):
            return True
        if len(n.kids) >= 2 and n.kids[-1].src() == n.kids[-2].src():
            return True
    return False


def _divcmp_risk(a: Node, w: Node) -> bool:
    """``a OP w`` with ``a`` a lane-dependent int64 ``x // d`` (d > 0) and ``w`` lane-uniform:
    lane-affine rewrites it to ``x - w * d OP ...``, whose constant may leave int64
    (KNOWN_BUGS["i64-divcmp-const"])."""
    if a.dtype != "i64" or not a.lane or w.lane or " // " not in a.fmt or not a.kids or not a.consts:
        return False
    d = a.consts[0]
    if d <= 0:
        return False
    kw = sum(abs(c) for n in w.walk() for c in n.consts)
    ka = sum(abs(c) for n in a.kids[0].walk() for c in n.consts)
    return ka + kw * d + d - 1 > I64_MAX


def _i64cmp_risk(x: Node, y: Node) -> bool:
    """An int64 comparison of a lane-dependent value whose affine constant part may
    reach 2**63 in magnitude (KNOWN_BUGS["i64-cmp-offset"]; conservative: the sum of
    all constants' magnitudes)."""
    if "i64" not in (x.dtype, y.dtype) or not (x.lane or y.lane):
        return False
    total = sum(abs(c) for side in (x, y) for n in side.walk() for c in n.consts)
    return total >= 2**63


def _cmp_bugs(x: Node, y: Node) -> list[str]:
    """The KNOWN_BUGS a comparison ``x OP y`` may trigger."""
    out = []
    if _divcmp_risk(x, y) or _divcmp_risk(y, x):
        out.append("i64-divcmp-const")
    if _i64cmp_risk(x, y):
        out.append("i64-cmp-offset")
    return [k for k in out if k in KNOWN_BUGS]


def _shl_may_overflow(x: Node, k: int, dtype: str) -> bool:
    """``x << k`` may overflow as the compiler sees it: aux values are unknown to it."""
    if any(_is_load(n) for n in x.walk()):
        return k > 0
    return not (RANGE[dtype][0] <= x.lo << k and x.hi << k <= RANGE[dtype][1])


def _promote(*dts: str) -> str:
    return "i64" if "i64" in dts else "i32"


def _lit(c: int) -> str:
    """A readable literal: 2**31 - 1 instead of 2147483647."""
    specials = {}
    for e in (16, 24, 30, 31, 32, 40, 62, 63):
        for d in range(-8, 9):
            specials.setdefault(2**e + d, f"2**{e}" + (f" + {d}" if d > 0 else f" - {-d}" if d < 0 else ""))
            specials.setdefault(-(2**e) + d, f"-2**{e}" + (f" + {d}" if d > 0 else f" - {-d}" if d < 0 else ""))
    if abs(c) < 2**15 or c not in specials:
        return f"({c})" if c < 0 else str(c)
    s = specials[c]
    return f"({s})"


@dataclass
class Aux:
    """One captured tensor: ``name = torch.tensor(values, dtype=...)``."""

    name: str
    dtype: str  # "i32", "i64", "bool", or unsigned "u8", "u16", "u32", "u64"
    values: list  # 1-D list, or list of rows (2-D)
    kind: str  # "b", "h", "q", "kv", "small", "bq" (2-D over (B, Q_LEN))

    @property
    def size(self) -> int:
        return len(self.values)

    def span(self) -> tuple[int, int] | None:
        if self.dtype == "bool":
            return None
        flat = [v for row in self.values for v in row] if self.kind == "bq" else list(self.values)
        return min(flat), max(flat)

    def tensor(self) -> torch.Tensor:
        return torch.tensor(self.values, dtype=_TORCH_DTYPES[self.dtype])

    def src(self) -> str:
        dt = str(_TORCH_DTYPES[self.dtype])
        return f"{self.name} = torch.tensor({self.values!r}, dtype={dt})"


@dataclass
class FuzzMask:
    """A generated mask_mod: expression, aux tensors, sampling box and flags."""

    expr: Node
    aux: list[Aux]
    shape: tuple[int, int, int, int]  # (B, H, Q_LEN, KV_LEN)
    raw_q: bool = False  # an aux index uses q_idx unreduced (q must stay < Q_LEN)
    raw_kv: bool = False  # an aux index uses kv_idx unreduced (kv must stay < KV_LEN + 32)
    uses_b: bool = False  # an aux index uses b (b must stay < B)
    uses_h: bool = False
    max_intervals: int = 8  # compile_mask(..., max_intervals=)
    _fn: Callable | None = field(default=None, repr=False, compare=False)

    @property
    def large_ok(self) -> bool:
        return not (self.raw_q or self.raw_kv)

    @property
    def has_gather(self) -> bool:
        return any(k.role == "index" and k.lane for n in self.expr.walk() for k in n.kids)

    def used_aux(self) -> list[Aux]:
        s = self.expr.src()
        return [a for a in self.aux if a.name + "[" in s]

    def body(self) -> str:
        return self.expr.src()

    @property
    def source(self) -> str:
        lines = ["import torch", ""]
        lines += [a.src() for a in self.used_aux()]
        lines += ["", "", "def mask_mod(b, h, q_idx, kv_idx):", f"    return {self.body()}", ""]
        if self.max_intervals != 8:
            lines += [f"# compiled with maskopt.compile_mask(mask_mod, max_intervals={self.max_intervals})", ""]
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.source

    def __repr__(self) -> str:
        return "FuzzMask(\n" + self.source + ")"

    @property
    def known_bug_cases(self) -> list[str]:
        """The ``KNOWN_BUGS`` this mask may trigger (by construction of its tree)."""
        out = []
        if any((" // " in n.fmt or " >> " in n.fmt or n.fmt.startswith("torch.fmod(")) and n.kids
               and _may_fold(n.kids[0]) for n in self.expr.walk()):
            out.append("fold-const")
        if self.expr.wraps64:
            out.append("i64-wrap")
        for n in self.expr.walk():
            if " << " in n.fmt and _shl_may_overflow(n.kids[0], int(n.fmt.split(" << ")[1].rstrip(")")), n.dtype):
                out.append("shl-overflow")
                break
        if any(n.dtype == "i64" and n.fmt.endswith(" // (-1))") for n in self.expr.walk()):
            out.append("i64-floordiv-neg1")
        if any(n.fmt.startswith("torch.fmod(") and n.fmt.endswith(", (-1))") for n in self.expr.walk()):
            out.append("fmod-neg1")
        for n in self.expr.walk():
            if n.dtype != "bool" or not n.kids or n.kids[0].dtype == "bool" or _is_load(n):
                continue
            if len(n.kids) == 2 and n.kids[1].dtype != "bool":
                pair = n.kids
            elif len(n.kids) == 1 and n.consts:
                pair = (n.kids[0], Node("c", n.kids[0].dtype, consts=n.consts))
            else:
                continue
            out += [k for k in _cmp_bugs(*pair) if k not in out]
        return [k for k in out if k in KNOWN_BUGS]

    def aux_edges(self, limit: int = 6) -> set[int]:
        """Large int aux values (sentinels such as 2**31 - 1): edges far outside the box."""
        vals = set()
        for a in self.used_aux():
            if a.dtype == "bool":
                continue
            flat = [v for row in a.values for v in row] if a.kind == "bq" else a.values
            vals |= {v for v in flat if abs(v) >= 2**16}
        return set(sorted(vals)[:limit])

    @property
    def consts(self) -> set[int]:
        return {c for n in self.expr.walk() for c in n.consts}

    @property
    def mask_mod(self) -> Callable:
        if self._fn is None:
            self._fn = build(self)
        return self._fn




_BUILD_COUNTER = [0]


def build(m: FuzzMask, expr: Node | None = None) -> Callable:
    """Exec the mask's source inside a factory (aux tensors become closure cells)."""
    used = m.used_aux()
    params = ", ".join(a.name for a in used)
    body = (expr or m.expr).src()
    src = f"def _make({params}):\n    def mask_mod(b, h, q_idx, kv_idx):\n        return {body}\n    return mask_mod\n"
    _BUILD_COUNTER[0] += 1
    fname = f"<fuzz-mask-{_BUILD_COUNTER[0]}>"
    linecache.cache[fname] = (len(src), None, src.splitlines(True), fname)
    ns: dict[str, Any] = {"torch": torch}
    exec(compile(src, fname, "exec"), ns)  # noqa: S102 - our own generated source
    fn = ns["_make"](*(a.tensor() for a in used))
    fn.__name__ = "mask_mod"
    return fn


# ----------------------------------------------------------------------------
# the generator
# ----------------------------------------------------------------------------

SMALL = [0, 1, 2, 3, 5, 7, 16, 31, 32, 33, 40, 63, 64, 65, 100, -1, -2, -3, -5, -31, -32, -33, -100]
BIG32 = [I32_MAX, I32_MAX - 1, I32_MIN, I32_MIN + 1, I32_MIN + 5, 2**30, 2**30 - 1, 2**30 + 1,
         -(2**30), 2**16, 2**24 + 3, I32_MAX - 31, I32_MAX - 32]
BIG64 = [2**31, 2**31 + 1, -(2**31) - 1, 2**32, -(2**32), 2**40 + 7, 2**62, -(2**62), I64_MAX, I64_MIN,
         I64_MIN + 1, I64_MAX - 31]
DIVS = [2, 3, 5, 7, 8, 32, 96, 1, -1, -2, -3, -5, -7, -32, -96, 2**30, I32_MAX, I32_MIN, -(2**30)]
DIVS64 = [2**32, -(2**32), 2**62, I64_MIN, I64_MAX]
ALPHAS = [2, -1, -2, 3, -3, 1, 0, 32, 2**16, 2**30, I32_MAX, I32_MIN]
MULS = [2, -1, 3, -2, 4, 32, 0, 1, 2**16, 2**30, I32_MIN, -(2**16) - 1]
CMPS = ["<", "<=", ">", ">=", "==", "!="]

#: Compiler bugs this fuzzer found that are not fixed yet.  ``generate(...,
#: known_bugs=False)`` (the default, used by the CI test and the CLI unless
#: ``--known-bugs``) does not generate them (see ``_Gen.avoid``); give each
#: an xfail reproducer in test_fuzz.py, and drop the entry once it is fixed.
KNOWN_BUGS: dict[str, str] = {
    # Fixed ones, with regression tests in test_fuzz.py (test_fixed_fuzzer_bug):
    # fold-const, i64-wrap, i64-floordiv-neg1, fmod-neg1, i64-divcmp-const,
    # i64-cmp-offset, shl-overflow, prefix-width-i32, dropin-floormod-select.
    # The generator's avoidance code for each stays, keyed by name (``avoid``).
}


class _Leaves:
    """The part of `_Gen` that draws leaves: constants, divisors and aux
    tensors with their loads and indices."""

    # ---------------------------------------------------------------- constants

    def const(self, dtype: str) -> int:
        ch = self.ch
        lo, hi = RANGE[dtype]
        kind = ch.pick(["small", "rand", "big", "big64", "full"], [6, 2, 3, 2, 1])
        if kind == "small":
            c = ch.pick(SMALL)
        elif kind == "rand":
            c = ch.integer(-300, 300)
        elif kind == "big":
            c = ch.pick(BIG32)
        elif kind == "big64" and dtype == "i64":
            c = ch.pick(BIG64 + [I64_MIN, I64_MAX])  # the exact limits twice as often
        else:
            c = ch.integer(lo, hi) if kind == "full" else ch.pick(SMALL)
        return max(lo, min(hi, c))

    def divisor(self, dtype: str) -> int:
        if dtype == "i64" and self.ch.chance(0.2):
            return self.ch.pick(DIVS64)
        if self.ch.chance(0.1):
            d = self.ch.integer(-1000, 1000)
            return d if d != 0 else 9
        return self.ch.pick(DIVS)

    # ---------------------------------------------------------------- aux tensors

    def _values(self, dtype: str, n: int, profile: str, bound: int | None = None) -> list:
        ch = self.ch
        B, H, Q, KV = self.shape
        if dtype == "bool":
            return [ch.chance(0.5) for _ in range(n)]
        if dtype in UNSIGNED:  # any value of the dtype: small ones, the top, the sign bit
            w = UNSIGNED[dtype][1]
            top = [2**w - 1, 2 ** (w - 1), 2 ** (w - 1) - 1, 2**w - 2, 128, 255, 256, 65535, 2**31, 2**32 - 1]
            top = [v for v in top if v < 2**w]
            if profile == "divisor":  # nonzero also converted to int32 (2^63 would be 0)
                top = [v for v in top if v % 2**32]
                return [ch.pick(top) if ch.chance(0.2) else ch.integer(1, 70) for _ in range(n)]
            return [ch.pick(top) if ch.chance(0.3) else ch.integer(0, max(Q, KV) + 40) for _ in range(n)]
        if profile == "divisor":  # never 0 (torch raises), either sign, extremes
            return [ch.pick([I32_MIN, -(2**30), 2**30, I32_MAX, -1, 1]) if ch.chance(0.15)
                    else ch.pick([1, -1]) * ch.integer(1, 100) for _ in range(n)]
        if profile == "index":  # valid indices into a tensor of size `bound` (negatives wrap)
            return [ch.integer(-bound, bound - 1) if ch.chance(0.15) else ch.integer(0, bound - 1) for _ in range(n)]
        if profile == "const":  # one value everywhere (a sentinel / per-batch window)
            v = ch.pick([I32_MAX, 0, 17, I32_MIN, 2**30, 64, -1] + ([2**62, I64_MAX, I64_MIN, 2**31] if dtype == "i64" else []))
            return [v] * n
        extremes = [I32_MAX, I32_MIN, 2**30, I32_MAX - 1, -(2**30)]
        if dtype == "i64":
            extremes += [2**62, -(2**62), I64_MAX, I64_MIN, 2**31, -(2**31) - 1, 2**32]
        out = []
        for _ in range(n):
            if profile == "extreme" and ch.chance(0.3):
                out.append(ch.pick(extremes))
            else:
                out.append(ch.integer(-8, max(Q, KV) + 40))
        return out

    def new_aux(self, kind: str, dtype: str | None = None, profile: str | None = None, bound: int | None = None) -> Aux:
        ch = self.ch
        B, H, Q, KV = self.shape
        if dtype is None:
            dtype = ch.pick(["i32", "i64", "bool"], [5, 3, 1])
        if profile is None:
            profile = ch.pick(["small", "extreme", "const"], [4, 3, 1])
        size = {"b": B, "h": H, "q": Q, "kv": KV + 32, "small": ch.pick([8, 5, 1, 13])}.get(kind)
        if kind == "bq":
            vals = [self._values(dtype, Q, profile, bound) for _ in range(B)]
        else:
            vals = self._values(dtype, size, profile, bound)
        a = Aux(f"t{len(self.aux)}", dtype, vals, kind)
        self.aux.append(a)
        return a

    def get_aux(self, kind: str, dtype: str | None = None) -> Aux:
        """Reuse a tensor of this kind (and dtype) or make a new one."""
        cands = [a for a in self.aux if a.kind == kind and (dtype is None or a.dtype == dtype)]
        if cands and (len(self.aux) >= 3 or self.ch.chance(0.5)):
            return self.ch.pick(cands)
        return self.new_aux(kind, dtype)

    def index(self, size: int, depth: int) -> tuple[Node, str]:
        """A lane-uniform index valid for every sampled point of a tensor of ``size``."""
        ch = self.ch
        B, H, Q, KV = self.shape
        opts = ["const", "neg_const", "q_mod", "q_mod_neg"]
        if size >= B:
            opts.append("b")
        if size >= H:
            opts.append("h")
        if size >= Q:
            opts += ["q", "q_minus_1", "q_div_2"]
        if depth > 0:
            opts.append("nested")
        kind = ch.pick(opts)
        if kind == "const":
            c = ch.integer(0, size - 1)
            return _mk(str(c), "i32", role="index"), kind
        if kind == "neg_const":
            c = -ch.integer(1, size) if ch.chance(0.7) else -1
            return _mk(f"({c})", "i32", role="index"), kind
        if kind == "q_mod":
            k = ch.integer(1, min(size, 7))
            return _mk(f"(q_idx % {k})", "i32", _leaf("q_idx"), role="index"), kind
        if kind == "q_mod_neg":
            k = ch.integer(1, min(size, 7))
            return _mk(f"(q_idx % -{k})", "i32", _leaf("q_idx"), role="index"), kind
        if kind == "b":
            self.flags["uses_b"] = True
            return _mk("b", "i32", role="index"), kind
        if kind == "h":
            self.flags["uses_h"] = True
            return _mk("h", "i32", role="index"), kind
        self.flags["raw_q"] = self.flags["raw_q"] or kind in ("q", "q_minus_1", "q_div_2", "nested")
        if kind == "q":
            return _mk("q_idx", "i32", role="index"), kind
        if kind == "q_minus_1":
            return _mk("(q_idx - 1)", "i32", role="index"), kind
        if kind == "q_div_2":
            return _mk("(q_idx // 2)", "i32", role="index"), kind
        # nested: inner tensor (indexed by q / b / const) holding valid indices into this one
        inner_kind = ch.pick(["q", "b", "small"])
        inner = self.new_aux(inner_kind, ch.pick(["i32", "i64"]), "index", bound=size)
        idx, _ = self.index(inner.size, 0)
        return _mk(f"{inner.name}[{{0}}]", inner.dtype, idx, role="index"), kind

    def load(self, depth: int, want_bool: bool = False, uniform: bool = False) -> Node:
        ch = self.ch
        B, H, Q, KV = self.shape
        if not uniform and ch.chance(0.12):  # per-lane gather
            a = self.get_aux("kv", "bool" if want_bool else ch.pick(["i32", "i64"]))
            form = ch.pick(["kv", "kv_mod", "qkv_mod", "kv_div"])
            if form == "kv":
                self.flags["raw_kv"] = True
                idx = _mk("kv_idx", "i32", _leaf("kv_idx"), role="index")
            elif form == "kv_mod":
                idx = _mk(f"(kv_idx % {a.size})", "i32", _leaf("kv_idx"), role="index")
            elif form == "qkv_mod":
                idx = _mk(f"((q_idx + kv_idx) % {a.size})", "i32", _leaf("kv_idx"), role="index")
            else:
                self.flags["raw_kv"] = True
                idx = _mk("(kv_idx // 3)", "i32", _leaf("kv_idx"), role="index")
            return _mk(f"{a.name}[{{0}}]", a.dtype, idx, rng=a.span())
        if ch.chance(0.12):  # 2-D t[b, q_idx]
            a = self.get_aux("bq", "bool" if want_bool else ch.pick(["i32", "i64"]))
            self.flags["uses_b"] = True
            self.flags["raw_q"] = True
            return _mk(f"{a.name}[b, q_idx]", a.dtype, rng=a.span())
        if not want_bool and ch.chance(0.15):
            return self.unsigned_load(depth)
        kind = ch.pick(["b", "h", "q", "small"], [3, 2, 3, 2])
        a = self.get_aux(kind, "bool" if want_bool else ch.pick(["i32", "i64"], [3, 2]))
        idx, _ = self.index(a.size, depth)
        return _mk(f"{a.name}[{{0}}]", a.dtype, idx, rng=a.span())

    def unsigned_load(self, depth: int, *, raw_u8: bool = False, profile: str | None = None) -> Node:
        """A lane-uniform load of an unsigned aux tensor, converted to int32 or
        int64 (`.to(torch.int32)`, `.long()`, `.int()`): torch 2.13's CPU ops
        on uint16/32/64 are only `* == != & | ^`, where and conversions, so the
        value enters the int grammar converted (a uint32 / uint64 value wraps
        into int32, a uint64 one into int64). ``raw_u8``: a uint8 load as it is
        (torch promotes the 0-dim uint8 with the 0-dim int32 to int32), or
        `t[i] + c` wrapping mod 256."""
        ch = self.ch
        kind = ch.pick(["b", "h", "q", "small"], [3, 3, 2, 2])
        dtype = "u8" if raw_u8 else ch.pick(list(UNSIGNED), [3, 2, 2, 2])
        a = self.get_aux(kind, dtype) if profile is None else self.new_aux(kind, dtype, profile)
        idx, _ = self.index(a.size, depth)
        span = a.span()
        if raw_u8:
            if ch.chance(0.3):
                c = ch.integer(1, 255)
                return _mk(f"({a.name}[{{0}}] + {c})", "u8", idx, consts=(c,), rng=(0, 255))
            return _mk(f"{a.name}[{{0}}]", "u8", idx, rng=span)
        w = UNSIGNED[dtype][1]
        to = ch.pick(["i32", "i64"])
        fmt = {"i32": ch.pick([".to(torch.int32)", ".int()"]), "i64": ch.pick([".to(torch.int64)", ".long()"])}[to]
        exact = span is not None and span[1] <= RANGE[to][1]
        return _mk(f"{a.name}[{{0}}]{fmt}", to, idx, rng=span if exact else None)

    def uniform_divisor(self, depth: int) -> Node:
        """A lane-uniform divisor, never 0 on the sampled points: an aux load
        (int32, int64 or unsigned converted, either sign), `h + 1`, `b + 2`,
        `-(h + 1)` or a constant of either sign."""
        ch = self.ch
        form = ch.pick(["aux", "unsigned", "h+1", "b+2", "-(h+1)", "const"], [3, 2, 2, 1, 1, 2])
        if form == "aux":
            kind = ch.pick(["b", "h", "small"])
            a = self.new_aux(kind, ch.pick(["i32", "i64"]), "divisor")
            idx, _ = self.index(a.size, 0)
            return _mk(f"{a.name}[{{0}}]", a.dtype, idx, rng=a.span())
        if form == "unsigned":
            return self.unsigned_load(0, profile="divisor")
        if form == "h+1":
            return _mk("(h + 1)", "i32", _leaf("h"), consts=(1,), rng=(1, I32_MAX))
        if form == "b+2":
            return _mk("(b + 2)", "i32", _leaf("b"), consts=(2,), rng=(2, I32_MAX))
        if form == "-(h+1)":
            return _mk("(-(h + 1))", "i32", _leaf("h"), consts=(1,), rng=(-I32_MAX, -1))
        c = ch.pick([64, -64, -100, 96, -1, 3, -7, I32_MIN, 2**30])
        return _mk(_lit(c), "i32", consts=(c,), rng=(c, c))


class _Gen(_Leaves):
    """Draws one random mask_mod: its shape, aux tensors (`_Leaves`) and
    integer and boolean expressions."""

    def __init__(self, ch: _Chooser, known_bugs: bool = False):
        self.ch = ch
        self.known_bugs = known_bugs
        B = ch.pick([2, 3, 1, 4])
        H = ch.pick([2, 4, 1, 3])
        Q = ch.pick([48, 64, 80, 100])
        KV = ch.pick([64, 48, 80, 100])
        self.shape = (B, H, Q, KV)
        self.aux: list[Aux] = []
        self.flags = {"raw_q": False, "raw_kv": False, "uses_b": False, "uses_h": False}

    def avoid(self, bug: str) -> bool:
        """Steer clear of ``bug``: it is in KNOWN_BUGS and not asked for."""
        return not self.known_bugs and bug in KNOWN_BUGS

    # ---------------------------------------------------------------- expressions

    def int_expr(self, depth: int, u: bool = False) -> Node:
        """An int expression; ``u``: lane-uniform (no kv_idx)."""
        ch = self.ch
        if depth <= 0 or not ch.chance(0.6):
            if u:
                leaf = ch.pick(["q_idx", "b", "h", "load"], [4, 1, 1, 3])
            else:
                leaf = ch.pick(["q_idx", "kv_idx", "b", "h", "load"], [4, 4, 1, 1, 2])
            if leaf == "load":
                return self.load(1, uniform=u)
            return _leaf(leaf)
        op = ch.pick(
            ["sub", "add_c", "sub_c", "rsub_c", "add", "alpha", "floordiv", "mod", "mul", "abs", "neg",
             "min", "max", "where", "to64", "clamp", "fmod", "bitop", "shift", "mul_xy"],
            [5, 3, 2, 1, 2, 2, 2, 2, 1, 1, 1, 1, 1, 2, 1, 1, 1, 1, 1, 1],
        )
        node = self._op(op, depth - 1, u)
        if self.avoid("i64-wrap") and node.wraps64 and not any(k.wraps64 for k in node.kids):
            # KNOWN_BUGS["i64-wrap"]: an int64 op that may wrap in torch; keep the operand instead
            return node.kids[-1] if node.kids[-1].dtype != "bool" else node.kids[0]
        return node

    def _op(self, op: str, d: int, u: bool) -> Node:
        ch = self.ch
        if op in ("sub", "add", "min", "max", "alpha", "mul_xy"):
            x, y = self.int_expr(d, u), self.int_expr(d, u)
            dt = _promote(x.dtype, y.dtype)
            if op == "mul_xy":
                return _mk("({0} * {1})", dt, x, y, rng=_span(x.lo * y.lo, x.lo * y.hi, x.hi * y.lo, x.hi * y.hi))
            if op == "sub":
                return _mk("({0} - {1})", dt, x, y, rng=(x.lo - y.hi, x.hi - y.lo))
            if op == "add":
                return _mk("({0} + {1})", dt, x, y, rng=(x.lo + y.lo, x.hi + y.hi))
            if op in ("min", "max"):
                fn = "minimum" if op == "min" else "maximum"
                f = min if op == "min" else max
                return _mk(f"torch.{fn}({{0}}, {{1}})", dt, x, y, rng=(f(x.lo, y.lo), f(x.hi, y.hi)))
            fn = ch.pick(["sub", "add"])
            k = ch.pick(ALPHAS if fn == "add" else [a for a in ALPHAS if a != I32_MIN])
            if fn == "sub":
                ky = _span(-k * y.lo, -k * y.hi)
            else:
                ky = _span(k * y.lo, k * y.hi)
            # torch computes alpha * y in the result dtype first: that may wrap on its own
            if not (RANGE[dt][0] <= ky[0] and ky[1] <= RANGE[dt][1]):
                ky = (RANGE[dt][0] - 1, RANGE[dt][1] + 1) if dt == "i64" else RANGE[dt]
            return _mk(f"torch.{fn}({{0}}, {{1}}, alpha={_lit(k)})", dt, x, y, consts=(k,),
                       rng=(x.lo + ky[0], x.hi + ky[1]), folds=x.folds and (y.folds or k == 0))
        x = self.int_expr(d, u)
        dt = x.dtype
        if op in ("add_c", "sub_c", "rsub_c"):
            c = self.const(dt)
            fmt = {"add_c": "({0} + %s)", "sub_c": "({0} - %s)", "rsub_c": "(%s - {0})"}[op] % _lit(c)
            rng = {"add_c": (x.lo + c, x.hi + c), "sub_c": (x.lo - c, x.hi - c), "rsub_c": (c - x.hi, c - x.lo)}[op]
            return _mk(fmt, dt, x, consts=(c,), rng=rng)
        if op in ("floordiv", "mod"):
            c = self.divisor(dt)
            if op == "floordiv" and dt == "i64" and c == -1 and self.avoid("i64-floordiv-neg1"):
                c = -2  # KNOWN_BUGS["i64-floordiv-neg1"]
            if op == "floordiv" and _may_fold(x) and self.avoid("fold-const"):
                op = "mod"  # KNOWN_BUGS["fold-const"]
            sym = "//" if op == "floordiv" else "%"
            if op == "floordiv":
                rng = _span(x.lo // c, x.hi // c)
                folds = x.folds
            else:
                rng = (0, c - 1) if c > 0 else (c + 1, 0)
                folds = x.folds or abs(c) == 1
            return _mk(f"({{0}} {sym} {_lit(c)})", dt, x, consts=(c,), rng=rng, folds=folds)
        if op == "mul":
            c = max(RANGE[dt][0], min(RANGE[dt][1], ch.pick(MULS)))
            return _mk(f"({{0}} * {_lit(c)})", dt, x, consts=(c,), rng=_span(x.lo * c, x.hi * c),
                       folds=x.folds or c == 0)
        if op == "abs":
            lo = 0 if x.lo <= 0 <= x.hi else min(abs(x.lo), abs(x.hi))
            return _mk(ch.pick(["abs({0})", "{0}.abs()"]), dt, x, rng=(lo, max(abs(x.lo), abs(x.hi))))
        if op == "neg":
            return _mk("(-{0})", dt, x, rng=(-x.hi, -x.lo))
        if op == "to64":
            return _mk("{0}.to(torch.int64)", "i64", x, rng=(x.lo, x.hi))
        if op == "clamp":
            c1, c2 = sorted((self.const(dt), self.const(dt)))
            form = ch.pick(["both", "min", "max"])
            if form == "both":
                return _mk(f"torch.clamp({{0}}, min={_lit(c1)}, max={_lit(c2)})", dt, x, consts=(c1, c2),
                           rng=(min(max(x.lo, c1), c2), min(max(x.hi, c1), c2)))
            if form == "min":
                return _mk(f"{{0}}.clamp(min={_lit(c1)})", dt, x, consts=(c1,), rng=(max(x.lo, c1), max(x.hi, c1)))
            return _mk(f"{{0}}.clamp(max={_lit(c2)})", dt, x, consts=(c2,), rng=(min(x.lo, c2), min(x.hi, c2)))
        if op == "fmod" and _may_fold(x) and self.avoid("fold-const"):
            op = "mod"  # KNOWN_BUGS["fold-const"]
        if op == "mod":
            c = self.divisor(dt)
            return _mk(f"({{0}} % {_lit(c)})", dt, x, consts=(c,), rng=(0, c - 1) if c > 0 else (c + 1, 0),
                       folds=x.folds or abs(c) == 1)
        if op == "fmod":
            c = self.divisor(dt)
            if c == -1 and self.avoid("fmod-neg1"):
                c = -2  # KNOWN_BUGS["fmod-neg1"]
            m = abs(c) - 1
            return _mk(f"torch.fmod({{0}}, {_lit(c)})", dt, x, consts=(c,), rng=(-m, m), folds=x.folds or m == 0)
        if op == "bitop":
            sym = ch.pick(["&", "|", "^"])
            c = ch.pick([1, 3, 31, 0xFF, -32, 0x7FFFFFFF, -1, 2**30]) if ch.chance(0.8) else self.const(dt)
            rng = (0, c) if sym == "&" and c >= 0 else None
            return _mk(f"({{0}} {sym} {_lit(c)})", dt, x, consts=(c,), rng=rng)
        if op == "shift":
            k = ch.pick([1, 2, 5, 16, 31, 0])
            right = ch.chance(0.5)
            if not right and _shl_may_overflow(x, k, dt) and self.avoid("shl-overflow"):
                right = True  # KNOWN_BUGS["shl-overflow"]
            if right:
                if _may_fold(x) and self.avoid("fold-const"):
                    return x  # KNOWN_BUGS["fold-const"]
                return _mk(f"({{0}} >> {k})", dt, x, rng=(x.lo >> k, x.hi >> k))
            return _mk(f"({{0}} << {k})", dt, x, rng=(x.lo << k, x.hi << k))
        # where
        p = self.bool_expr(d, u)
        if ch.chance(0.35):
            c = self.const(dt)
            if ch.chance(0.5):
                return _mk(f"torch.where({{0}}, {{1}}, {_lit(c)})", dt, p, x, consts=(c,),
                           rng=_span(x.lo, x.hi, c), folds=False)
            return _mk(f"torch.where({{0}}, {_lit(c)}, {{1}})", dt, p, x, consts=(c,),
                       rng=_span(x.lo, x.hi, c), folds=False)
        y = self.int_expr(d, u)
        return _mk("torch.where({0}, {1}, {2})", _promote(x.dtype, y.dtype), p, x, y,
                   rng=_span(x.lo, x.hi, y.lo, y.hi), folds=False)

    def cmp(self, depth: int, u: bool = False) -> Node:
        ch = self.ch
        op = ch.pick(CMPS)
        x = self.int_expr(depth, u)
        if ch.chance(0.45):
            c = self.const(x.dtype)
        else:
            y = self.int_expr(depth, u)
            if self.known_bugs or not _cmp_bugs(x, y):
                return _mk(f"({{0}} {op} {{1}})", "bool", x, y)
            c = 0  # KNOWN_BUGS["i64-divcmp-const"] / ["i64-cmp-offset"]
        return self._cmp_const(x, op, c)

    def _cmp_const(self, x: Node, op: str, c: int) -> Node:
        """``x OP c``, steering clear of KNOWN_BUGS["i64-divcmp-const"] / ["i64-cmp-offset"]."""
        if not self.known_bugs:
            for _ in range(4):
                if not _cmp_bugs(x, Node(_lit(c), x.dtype, consts=(c,))):
                    break
                if c != 0:
                    c = 0
                elif x.kids:
                    x = x.kids[-1] if x.kids[-1].dtype != "bool" else x.kids[0]
                else:
                    break
        return _mk(f"({{0}} {op} {_lit(c)})", "bool", x, consts=(c,))

    def lane_cmp(self, depth: int) -> Node:
        """A comparison of a kv-affine value with a lane-uniform one (what packers pack)."""
        ch = self.ch
        op = ch.pick(CMPS, [3, 3, 3, 3, 1, 1])
        U = self.int_expr(depth, u=True) if ch.chance(0.6) else None
        c = self.const("i32") if U is None else None
        kv, q = _leaf("kv_idx"), _leaf("q_idx")
        form = ch.pick(["q-kv", "kv", "kv-q", "kv+c", "kv*k", "div", "abs", "mod", "alpha", "bits",
                        "udiv", "coef", "u8", "wrap_sum", "diagonals"],
                       [4, 3, 2, 2, 1, 2, 2, 1, 1, 2, 2, 2, 1, 1, 1])
        if form == "udiv":  # a lane-uniform divisor: kv // D OP q // D, or OP a uniform value
            dv = self.uniform_divisor(depth)
            num = ch.pick(["kv_idx", "(kv_idx + 7)", "(kv_idx - q_idx)"])
            x = _mk(f"({num} // {{0}})", _promote(dv.dtype), dv, consts=dv.consts)
            if U is None:
                return _mk(f"({{0}} {op} (q_idx // {{1}}))", "bool", x, dv)
            return _mk(f"({{0}} {op} {{1}})", "bool", x, U)
        if form == "coef":  # a constant lane coefficient c * kv (+ q, + k; int32 or int64)
            k = ch.pick([2, 3, -2, -3, 4, 7, -32, 33, 5, 1 << 20, -(1 << 20), 1 << 27, -(1 << 27), 1 << 28],
                        [3, 3, 3, 3, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1])
            i64 = ch.chance(0.35)
            kvs = "kv_idx.to(torch.int64)" if i64 else "kv_idx"
            tmpl = ch.pick([f"(q_idx - {k} * {kvs})", f"({kvs} * {_lit(k)} + q_idx)", f"({_lit(k)} * {kvs})"])
            x = _mk(tmpl, "i64" if i64 else "i32", q, kv, consts=(k,))
        if form == "u8":  # x OP a uint8 value (zero-extended, promoted to int32), maybe wrapped mod 256
            uv = self.unsigned_load(depth, raw_u8=True)
            x = ch.pick([_mk("(q_idx - kv_idx)", "i32", q, kv), kv, _mk("(kv_idx - q_idx)", "i32", kv, q)])
            return _mk(f"({{0}} {op} {{1}})", "bool", x, uv)
        if form == "wrap_sum":  # q + K that wraps in int32 near 2^31 (bottom-right causal style)
            K = ch.pick([I32_MAX, I32_MAX - 3, 2**31 - 768, 2**30, -(2**31) + 5, 768])
            x = _mk(f"(q_idx + {_lit(K)})", "i32", q, consts=(K,))
            return _mk(f"({{0}} {op} {{1}})", "bool", x, kv)
        if form == "diagonals":  # a union of adjacent diagonals kv == q + K + i, K near the wrap
            K = ch.pick([0, 1, -5, I32_MAX - 4, I32_MAX, 2**31 - 8, I32_MIN + 1])
            n = ch.integer(2, 10)
            terms = [f"(kv_idx == (q_idx + {_lit(K)} + {i}))" if i else f"(kv_idx == (q_idx + {_lit(K)}))"
                     for i in range(n)]
            return _mk("(" + " | ".join(terms) + ")", "bool", q, kv, consts=(K, K + n - 1))
        if form == "q-kv":
            x = _mk("(q_idx - kv_idx)", "i32", q, kv, rng=(-I32_MAX, I32_MAX))
        elif form == "kv-q":
            x = _mk("(kv_idx - q_idx)", "i32", kv, q, rng=(-I32_MAX, I32_MAX))
        elif form == "kv":
            x = kv
        elif form == "kv+c":
            k = self.const("i32")
            x = _mk(f"(kv_idx + {_lit(k)})", "i32", kv, consts=(k,), rng=(k, I32_MAX + k))
        elif form == "kv*k":
            k = ch.pick([2, -1, 3, -2, 32])
            x = _mk(f"(kv_idx * {k})", "i32", kv, consts=(k,), rng=_span(0, I32_MAX * k))
        elif form == "div":
            k = ch.pick([2, 3, 32, 96, 64, 7, -2, -32, -96, -64, -100])
            x = _mk(f"(kv_idx // {_lit(k)})", "i32", kv, consts=(k,), rng=_span(0, I32_MAX // k))
            if U is None:  # chunked: kv // k == q // k
                return _mk(f"({{0}} {op} (q_idx // {_lit(k)}))", "bool", x)
        elif form == "coef":
            pass  # x built above
        elif form == "abs":
            x = _mk("(q_idx - kv_idx).abs()", "i32", q, kv, rng=(0, I32_MAX))
        elif form == "bits":
            x = self.kv_bits()
        elif form == "mod":
            k = ch.pick([2, 3, 32, 64, -3, -32])
            mrng = (0, k - 1) if k > 0 else (k + 1, 0)
            x = _mk(f"(kv_idx % {_lit(k)})", "i32", kv, consts=(k,), rng=mrng)
            if U is not None and ch.chance(0.5):  # same residue: kv % k == U % k
                U = _mk(f"({{0}} % {_lit(k)})", U.dtype, U, consts=(k,), rng=mrng, folds=U.folds)
        else:
            k = ch.pick(ALPHAS[:6])
            x = _mk(f"torch.sub(q_idx, kv_idx, alpha={_lit(k)})", "i32", q, kv, consts=(k,))
        if U is not None and not self.known_bugs and _cmp_bugs(x, U):
            U, c = None, 0  # KNOWN_BUGS["i64-cmp-offset"] / ["i64-divcmp-const"]
        if U is None:
            return self._cmp_const(x, op, c)
        return _mk(f"({{0}} {op} {{1}})", "bool", x, U)

    def kv_bits(self) -> Node:
        """A bitwise function of kv_idx (masks, shifts, power-of-two `//` and
        `%`, a Morton-decode step, sums of such): what `interval.table` packs."""
        ch = self.ch
        kv = _leaf("kv_idx")
        form = ch.pick(["and", "shr_and", "or", "xor_and", "div_mod", "morton", "high", "sum", "shl_and"])
        if form == "and":
            m = ch.pick([1, 3, 7, 12, 31, 0x55555555, 0xF0, -32, 0x7FFFFFFF, 0x2A])
            return _mk(f"(kv_idx & {_lit(m)})", "i32", kv, consts=(m,), rng=(0, m) if m >= 0 else (0, I32_MAX))
        if form == "shr_and":
            k, m = ch.pick([1, 2, 3, 5, 6]), ch.pick([1, 3, 5, 15])
            return _mk(f"((kv_idx >> {k}) & {m})", "i32", kv, consts=(k, m), rng=(0, m))
        if form == "or":
            m = ch.pick([1, 3, 16, 0x55, -2**31])
            return _mk(f"(kv_idx | {_lit(m)})", "i32", kv, consts=(m,), rng=(-(2**31), I32_MAX) if m < 0 else (0, I32_MAX))
        if form == "xor_and":
            m, n = ch.pick([1, 5, 0x1F, 0x3C]), ch.pick([7, 15, 63])
            return _mk(f"((kv_idx ^ {m}) & {n})", "i32", kv, consts=(m, n), rng=(0, n))
        if form == "div_mod":
            d, p = ch.pick([2, 4, 16]), ch.pick([2, 4, 8])
            return _mk(f"((kv_idx // {d}) % {p})", "i32", kv, consts=(d, p), rng=(0, p - 1))
        if form == "morton":
            return _mk("(((kv_idx & 0x55555555) | ((kv_idx & 0x55555555) >> 1)) & 0x33333333)", "i32", kv,
                       consts=(0x55555555, 0x33333333), rng=(0, 0x33333333))
        if form == "high":
            k = ch.pick([3, 5, 7])
            return _mk(f"(kv_idx >> {k})", "i32", kv, consts=(k,), rng=(0, I32_MAX >> k))
        if form == "sum":
            return _mk("((kv_idx >> 3) + (kv_idx & 7))", "i32", kv, consts=(3, 7), rng=(0, (I32_MAX >> 3) + 7))
        k = ch.pick([1, 3, 4])
        m = ch.pick([0xF8, 0xFF, 0x1F0])
        shl = _mk(f"({{0}} << {k})", "i32", kv, rng=(0, I32_MAX << k))  # wraps: drops the bits shifted out
        return _mk(f"({{0}} & {m})", "i32", shl, consts=(m,), rng=(0, m))

    def bool_expr(self, depth: int, u: bool = False) -> Node:
        ch = self.ch
        if depth <= 0 or not ch.chance(0.55):
            if ch.chance(0.04):
                return self.load(1, want_bool=True, uniform=u)
            if not u and ch.chance(0.4):
                return self.lane_cmp(max(0, min(depth, 2)))
            return self.cmp(max(0, min(depth, 2)), u)
        op = ch.pick(["and", "or", "not", "xor"], [4, 3, 1, 1])
        d = depth - 1
        if op == "not":
            return _mk(ch.pick(["(~{0})", "torch.logical_not({0})"], [4, 1]), "bool", self.bool_expr(d, u))
        x, y = self.bool_expr(d, u), self.bool_expr(d, u)
        fmt = {
            "and": ch.pick(["({0} & {1})", "torch.logical_and({0}, {1})"], [4, 1]),
            "or": ch.pick(["({0} | {1})", "torch.logical_or({0}, {1})"], [4, 1]),
            "xor": ch.pick(["({0} ^ {1})", "({0} != {1})"]),
        }[op]
        return _mk(fmt, "bool", x, y)


def generate(ch: _Chooser, depth: int = 3, *, known_bugs: bool = False) -> FuzzMask:
    """One mask.  ``known_bugs=False`` steers clear of the cases in ``KNOWN_BUGS``."""
    g = _Gen(ch, known_bugs)
    expr = g.bool_expr(depth)
    max_iv = ch.pick([8, 4, 2, 1, 3], [6, 1, 1, 1, 1])
    return FuzzMask(expr, g.aux, g.shape, **g.flags, max_intervals=max_iv)


def masks(depth: int = 3, *, known_bugs: bool = False):
    """A hypothesis strategy of :class:`FuzzMask`."""
    from hypothesis import strategies as st

    @st.composite
    def _masks(draw):
        return generate(HypothesisChooser(draw), depth, known_bugs=known_bugs)

    return _masks()


def random_mask(seed: int, depth: int = 3, *, known_bugs: bool = False) -> FuzzMask:
    return generate(RandomChooser(random.Random(seed)), depth, known_bugs=known_bugs)


# ----------------------------------------------------------------------------
# sample points
# ----------------------------------------------------------------------------

LEGAL_KV_TOP = I32_MAX - 31


def sample_points(m: FuzzMask, *, seed: int = 0, n_rows: int = 4, big: bool = True, domain=None):
    """(b, h, q, kv_base) int32 vectors for ``m`` (see ``box_points``)."""
    return box_points(m.shape, consts=m.consts | m.aux_edges(), raw_q=m.raw_q, raw_kv=m.raw_kv,
                      uses_b=m.uses_b, uses_h=m.uses_h, seed=seed, n_rows=n_rows, big=big, domain=domain)


def box_points(shape, *, consts=(), raw_q: bool = False, raw_kv: bool = False, uses_b: bool = False,
               uses_h: bool = False, seed: int = 0, n_rows: int = 4, big: bool = True, domain=None):
    """(b, h, q, kv_base) int32 vectors: every value legal for the mask's aux indices.

    ``shape`` = (B, H, Q_LEN, KV_LEN); ``consts``: the mask's constants (edges);
    ``raw_q`` / ``raw_kv``: an aux tensor is indexed by q_idx / kv_idx itself (so
    q < Q_LEN / kv_base < KV_LEN); ``uses_b`` / ``uses_h``: by b / h (b < B, h < H).

    * ``n_rows`` rows (q = 0, Q_LEN - 1 and random) with every kv_base in
      [0, KV_LEN): every edge inside the box at every lane alignment; plus,
      for each constant c, kv windows of 33 bases ending at q - c, q + c, c
      and -c (every alignment of an edge at q - kv = c, kv = c, ...).
    * q, b and h at each constant c and c +- 1, with a few kv bases (edges of
      lane-uniform conditions).
    * If ``big`` and neither ``raw_q`` nor ``raw_kv``: rows at q near 2**31 - 1
      and 2**30 with kv windows around q, around q - c, near 0 and near
      2**31 - 32; if nothing indexes by b / h, those rows also get huge b / h;
      and rows where q + c wraps (q = 2**31 - 1 - c and 2**31 - c, for each
      constant c > 1) against kv near 0 and near 2**31 - 32.
    * For constants 2 <= |c| <= 2**30 (lane coefficients): in every such
      row, windows about the kv where c * kv, c * kv + q and c * kv - q
      cross 2**31 modulo 2**32 (int32 wraps), the first, the last and a
      random one of them.
    * ``domain`` = (B, H, Q, KV) bounds (or a spec): only points inside it
      (b < B, h < H, q < Q, window start < KV), and instead of the rows near
      2**31 its edges: q at Q - 1, Q - 2 and Q // 2 + 17 (b, h at their
      bounds minus 1 where nothing indexes by them) against kv windows
      around q and q - c, near 0 and up to KV - 1.
    """
    if domain is not None:
        from maskopt.passes.domain import domain_bounds

        dB, dH, dQ, dKV = domain_bounds(domain)
    else:
        dB = dH = dQ = dKV = 2**31
    B, H, Q, KV = shape
    large_ok = not (raw_q or raw_kv)
    g = random.Random(seed)
    consts = sorted(set(consts))
    kv_max = min(KV - 1 if raw_kv else LEGAL_KV_TOP, dKV - 1)
    parts: list[tuple[int, int, int, list[int]]] = []

    def add(bv, hv, qv, kvs):
        if not (bv < dB and hv < dH and qv < dQ):
            return
        kvs = sorted({k for k in kvs if 0 <= k <= kv_max})
        if kvs:
            parts.append((bv, hv, qv, kvs))

    def edge_windows(qv):
        out = []
        for c in consts:
            for centre in (qv - c, qv + c, c, -c):
                if -40 <= centre <= kv_max + 40:
                    out += range(centre - 32, centre + 1)
        return out

    # lane coefficients c (|c| >= 2): c * kv + s * q (s = -1, 0, 1) wraps at
    # kv = (2^31 + m * 2^32 - s * q) / c; windows about the first, last and a
    # random such kv, so a window's wrap lanes are sampled at every alignment
    coefs = [c for c in consts if 2 <= abs(c) <= 2**30][:4]

    def wrap_windows(qv):
        out = []
        for c in coefs:
            for sq in (-qv, 0, qv):
                lo, hi = sorted((sq, sq + c * (kv_max + 31)))
                m0 = -((2**31 - lo) // 2**32)
                m1 = (hi - 2**31) // 2**32
                if m1 < m0:
                    continue
                for m in {m0, m1, g.randint(m0, m1)}:
                    num = 2**31 + m * 2**32 - sq
                    centre = -((-num) // c) if c > 0 else num // c
                    out += range(centre - 33, centre + 1)
        return out

    qs = [0, Q - 1] + [g.randrange(Q) for _ in range(max(0, n_rows - 2))]
    for qv in qs[:n_rows]:
        add(g.randrange(B), g.randrange(H), qv, list(range(KV)) + edge_windows(qv) + wrap_windows(qv))
    # lane-uniform edges: q, b, h at each constant c and c +- 1 (a few kv bases each)
    for c in consts[:12]:
        for v in (c - 1, c, c + 1):
            if not 0 <= v <= I32_MAX:
                continue
            few = [0, 1, 32, v - 32, v - 31, v - 1, v, g.randrange(KV)]
            if v < Q or (large_ok and big):
                add(g.randrange(B), g.randrange(H), v, few)
            if v < B or (not uses_b and big):
                add(v, g.randrange(H), g.randrange(Q), few[:3] + few[-1:])
            if v < H or (not uses_h and big):
                add(g.randrange(B), v, g.randrange(Q), few[:3] + few[-1:])
    if big and large_ok and domain is not None:
        # the domain's edges instead of q, kv near 2**31
        tops = sorted({v for v in (dQ - 1, dQ - 2, dQ // 2 + 17) if v >= 0})
        for i, qv in enumerate(tops):
            bv = dB - 1 if not uses_b and i % 2 == 0 else g.randrange(min(B, dB))
            hv = dH - 1 if not uses_h and i % 2 == 1 else g.randrange(min(H, dH))
            kvs = list(range(qv - 40, qv + 9)) + list(range(0, 33)) + list(range(kv_max - 40, kv_max + 1))
            add(bv, hv, qv, kvs + edge_windows(qv) + wrap_windows(qv))
        add(0, 0, 0, list(range(kv_max - 64, kv_max + 1)))
    elif big and large_ok:
        big_b = I32_MAX if not uses_b else None
        big_h = I32_MAX - 3 if not uses_h else None
        for i, qv in enumerate([I32_MAX, I32_MAX - 1, 2**30, 2**30 - 1, 2**30 + 17]):
            bv = big_b if (big_b is not None and i % 2 == 0) else g.randrange(B)
            hv = big_h if (big_h is not None and i % 2 == 1) else g.randrange(H)
            kvs = list(range(qv - 40, qv + 9)) + list(range(0, 33)) + list(range(LEGAL_KV_TOP - 40, LEGAL_KV_TOP + 1))
            add(bv, hv, qv, kvs + edge_windows(qv) + wrap_windows(qv))
        # where q + c wraps: q + c = 2**31 - 1 and 2**31 (against kv near 0 and the top)
        for c in [c for c in consts if 1 < c <= I32_MAX][:12]:
            for qv in (I32_MAX - c, I32_MAX - c + 1):
                add(g.randrange(B), g.randrange(H), qv,
                    list(range(0, 33)) + list(range(LEGAL_KV_TOP - 32, LEGAL_KV_TOP + 1)))
        # ordinary q against huge kv
        add(0, 0, 0, list(range(LEGAL_KV_TOP - 64, LEGAL_KV_TOP + 1)) + list(range(2**30 - 40, 2**30 + 8)))
    bs, hs, qq, kk = [], [], [], []
    for bv, hv, qv, kvs in parts:
        bs += [bv] * len(kvs)
        hs += [hv] * len(kvs)
        qq += [qv] * len(kvs)
        kk += kvs
    t = lambda v: torch.tensor(v, dtype=torch.int32)  # noqa: E731
    return t(bs), t(hs), t(qq), t(kk)


# ----------------------------------------------------------------------------
# checking
# ----------------------------------------------------------------------------


@dataclass
class FuzzOutcome:
    """What happened to one mask.  ``ok`` iff nothing is wrong."""

    packed: bool | None = None
    reason: str | None = None
    n_words: int = 0
    mismatches: int = 0
    first_mismatch: str | None = None
    ub: str | None = None  # EmulatedUB message
    emulator_error: str | None = None  # emitted code the emulator rejects / crashes on
    compile_error: str | None = None  # compile_mask raised
    compile_rejected: bool = False  # ... with a clean FXImportError / MaskTraceError
    invalid: str | None = None  # eager torch itself raised: the generator made a bad mask
    cute_source: str | None = field(default=None, repr=False)
    # The inductor drop-in (its expressions in torch's FLASH template), for packed masks:
    dropin: bool | None = None  # whether it packs the mask (None: not checked)
    dropin_mismatches: int = 0
    dropin_first_mismatch: str | None = None
    dropin_error: str | None = None  # the drop-in or its emulated kernel raised, or UB
    bare_negation: str | None = None  # emitted text with a `0 - x` (PTXAS_NEGATION): which one

    @property
    def ok(self) -> bool:
        return (
            self.invalid is None
            and self.mismatches == 0
            and self.ub is None
            and self.emulator_error is None
            and self.dropin_mismatches == 0
            and self.dropin_error is None
            and self.bare_negation is None
            and (self.compile_error is None or self.compile_rejected)
            and (self.packed is not False or bool(self.reason))
        )

    @property
    def kind(self) -> str:
        if self.invalid is not None:
            return "invalid"
        if self.compile_error is not None:
            return "rejected" if self.compile_rejected else "compile_crash"
        if self.ub is not None:
            return "ub"
        if self.emulator_error is not None:
            return "emulator_error"
        if self.mismatches:
            return "mismatch"
        if self.bare_negation is not None:
            return "bare_negation"
        if self.dropin_error is not None:
            return "dropin_error"
        if self.dropin_mismatches:
            return "dropin_mismatch"
        if self.packed is False and not self.reason:
            return "no_reason"
        return "packed" if self.packed else "per_lane"

    def describe(self) -> str:
        k = self.kind
        msg = {
            "invalid": self.invalid,
            "compile_crash": self.compile_error,
            "rejected": self.compile_error,
            "ub": self.ub,
            "emulator_error": self.emulator_error,
            "mismatch": f"{self.mismatches}/{self.n_words} words differ; first: {self.first_mismatch}",
            "no_reason": "not packed but reason is empty",
            "bare_negation": f"the {self.bare_negation} prints a bare negation ({_PTXAS_NEGATION})",
            "dropin_error": self.dropin_error,
            "dropin_mismatch": f"drop-in: {self.dropin_mismatches}/{self.n_words} words differ; "
            f"first: {self.dropin_first_mismatch}",
        }.get(k, "")
        return f"{k}: {msg} (packed={self.packed}, reason={self.reason!r})"


_PTXAS_NEGATION = "ptxas drops a negation fused into a 3-input min/max"


def _first_mismatch(words, ref, b, h, q, kv) -> tuple[int, str | None]:
    bad = (words != ref).nonzero().flatten()
    if not bad.numel():
        return 0, None
    i = int(bad[0])
    return int(bad.numel()), (
        f"b={int(b[i])} h={int(h[i])} q={int(q[i])} kv_base={int(kv[i])}: "
        f"emitted {int(words[i]):#010x}, eager {int(ref[i]):#010x}"
    )


def check_mask(mask_mod: Callable, points, *, max_intervals: int = 8, dropin: bool = True,
               domain=None) -> FuzzOutcome:
    """Compile ``mask_mod``, emulate the emitted module on ``points`` = (b, h, q, kv_base), compare.

    The reference is ``corpus.reference_words`` (eager, vmapped, with eager
    0-dim type promotion).  If eager torch raises, the outcome is ``invalid``
    (a generator bug, not a compiler bug).

    ``dropin``: for a packed mask, also ask the inductor drop-in
    (``maskopt.inductor.select_packed_mask_intervals``, at its own
    max-intervals), render its elements through torch's FLASH template
    (``maskopt.tools.flash_template``), emulate that kernel and compare it
    too. The emulator does not model ptxas, so the module's and the kernel's
    text must also be free of bare negations (``ptx_lint.BARE_NEGATION``, the
    shape ptxas miscompiles; the PTX itself is linted by ``ptx_lint --fuzz N
    --dropin`` and run on a GPU by ``tools/gpu/run_gpu_fuzz.py``).

    ``domain``: (B, H, Q, KV) bounds (or a spec `compile_mask` takes); the
    module is compiled for it and the drop-in asked under
    ``maskopt.inductor.domain`` (the points must lie inside it).
    """
    import maskopt
    from maskopt.lowering.cute_emulator import EmulatedUB, load_module
    from maskopt.lowering.fx_import import FXImportError
    from maskopt.lowering.trace import MaskTraceError
    from maskopt.tools.corpus import reference_words
    from maskopt.tools.ptx_lint import BARE_NEGATION

    b, h, q, kv = points
    out = FuzzOutcome(n_words=int(b.numel()))
    try:
        ref = reference_words(mask_mod, b, h, q, kv)
    except Exception as e:  # noqa: BLE001
        out.invalid = f"eager torch raised {type(e).__name__}: {e}"
        return out
    try:
        res = maskopt.compile_mask(mask_mod, max_intervals=max_intervals, domain=domain)
    except Exception as e:  # noqa: BLE001
        out.compile_error = f"{type(e).__name__}: {_one_line(e)}"
        out.compile_rejected = isinstance(e, (FXImportError, MaskTraceError))
        if not out.compile_rejected:
            out.compile_error += "\n" + "".join(traceback.format_exception(e)[-6:])
        return out
    out.packed, out.reason, out.cute_source = res.packed, res.reason, res.cute_source
    if BARE_NEGATION.search(res.cute_source):
        out.bare_negation = "module"
    try:
        words = load_module(res.cute_source).keep_words(
            b, h, q, kv, aux_tensors=res.aux_tensors, aux_scalars=res.aux_scalars)
    except EmulatedUB as e:
        out.ub = f"{type(e).__name__}: {_one_line(e)}"
        return out
    except Exception as e:  # noqa: BLE001
        out.emulator_error = f"{type(e).__name__}: {_one_line(e)}"
        return out
    out.mismatches, out.first_mismatch = _first_mismatch(words, ref, b, h, q, kv)
    if dropin and res.packed:
        from maskopt import inductor

        with inductor.domain(None if domain is None else tuple(res.module.ops.first.domain_bounds)):
            _check_dropin(out, mask_mod, points, ref)
    return out


def _check_dropin(out: FuzzOutcome, mask_mod: Callable, points, ref) -> None:
    """The drop-in part of ``check_mask``: fills ``out.dropin*``."""
    from maskopt.lowering.cute_emulator import load_module
    from maskopt.tools.flash_template import dropin_module
    from maskopt.tools.ptx_lint import BARE_NEGATION

    b, h, q, kv = points
    try:
        d = dropin_module(mask_mod)
        out.dropin = d is not None
        if d is None:
            return
        if BARE_NEGATION.search(d.source) and out.bare_negation is None:
            out.bare_negation = "drop-in kernel"
        words = load_module(d.source).keep_words(b, h, q, kv, aux_tensors=list(d.aux_tensors))
    except Exception as e:  # noqa: BLE001 - EmulatedUB included: the kernel must not overflow
        out.dropin_error = f"drop-in: {type(e).__name__}: {_one_line(e)}"
        return
    out.dropin_mismatches, out.dropin_first_mismatch = _first_mismatch(words, ref, b, h, q, kv)


def _one_line(e: BaseException) -> str:
    s = str(e).strip().splitlines()
    return (s[0] if s else "")[:500]


def check(m: FuzzMask, *, domain=None, **kw) -> FuzzOutcome:
    """``check_mask`` on ``sample_points(m)`` (with ``domain``: compiled for it,
    sampled inside it and on its edges)."""
    return check_mask(m.mask_mod, sample_points(m, domain=domain, **kw), max_intervals=m.max_intervals,
                      domain=domain)


# ----------------------------------------------------------------------------
# shrinking (for CLI-found failures; the hypothesis test shrinks by itself)
# ----------------------------------------------------------------------------


def _replace_at(node: Node, path: tuple[int, ...], new: Node) -> Node:
    if not path:
        return new
    kids = list(node.kids)
    kids[path[0]] = _replace_at(kids[path[0]], path[1:], new)
    return replace(node, kids=tuple(kids), lane=any(k.lane for k in kids))


def _paths(node: Node, path=()):
    yield path, node
    for i, k in enumerate(node.kids):
        if k.role == "value":
            yield from _paths(k, path + (i,))


def _candidates(node: Node):
    """Simpler replacements of a value node (same kind: bool for bool, int for int)."""
    if node.dtype == "bool":
        for sub in node.walk():
            if sub is not node and sub.dtype == "bool" and sub.role == "value":
                yield sub
    else:
        for sub in node.walk():
            if sub is not node and sub.dtype != "bool" and sub.role == "value":
                yield sub
        for name in ("q_idx", "kv_idx"):
            if node.src() != name:
                yield _leaf(name)


def _simpler_consts(c: int):
    for v in (0, 1, -1, 2, 31, 32):
        if abs(v) < abs(c):
            yield v


def _with_body(m: FuzzMask, expr: Node) -> FuzzMask:
    return replace(m, expr=expr, _fn=None)


def shrink(m: FuzzMask, fails: Callable[[FuzzMask], bool], *, budget: int = 400) -> FuzzMask:
    """Greedy: replace subtrees by simpler ones / constants by smaller ones while ``fails`` holds."""
    tries = 0
    changed = True
    while changed and tries < budget:
        changed = False
        for path, node in list(_paths(m.expr)):
            for cand in _candidates(node):
                tries += 1
                trial = _with_body(m, _replace_at(m.expr, path, cand))
                if trial.body() != m.body() and _fails_safely(fails, trial):
                    m, changed = trial, True
                    break
                if tries >= budget:
                    return _shrink_aux(m, fails)
            if changed:
                break
        if not changed:  # constants
            for path, node in list(_paths(m.expr)):
                for c in node.consts:
                    for v in _simpler_consts(c):
                        lit = _lit(c)
                        if lit not in node.fmt:
                            continue
                        tries += 1
                        new = replace(node, fmt=node.fmt.replace(lit, _lit(v), 1),
                                      consts=tuple(v if x == c else x for x in node.consts))
                        trial = _with_body(m, _replace_at(m.expr, path, new))
                        if _fails_safely(fails, trial):
                            m, changed = trial, True
                            break
                    if changed:
                        break
                if changed:
                    break
    return _shrink_aux(m, fails)


def _shrink_aux(m: FuzzMask, fails) -> FuzzMask:
    """Try to make aux tensors shorter-valued: each element to 0 (keeping failure)."""
    for ai, a in enumerate(m.aux):
        if a.kind == "bq" or a.dtype == "bool" or a.name + "[" not in m.body():
            continue
        for i in range(len(a.values)):
            if a.values[i] == 0:
                continue
            vals = list(a.values)
            vals[i] = 0
            aux = list(m.aux)
            aux[ai] = replace(a, values=vals)
            trial = replace(m, aux=aux, _fn=None)
            if _fails_safely(fails, trial):
                m, a = trial, aux[ai]
    return m


def _fails_safely(fails, m: FuzzMask) -> bool:
    try:
        return bool(fails(m))
    except Exception:  # noqa: BLE001
        return False


# ----------------------------------------------------------------------------
# CLI
# ----------------------------------------------------------------------------


FAIL_KINDS = ("mismatch", "ub", "emulator_error", "compile_crash", "no_reason", "invalid")


def run_campaign(n: int, seed: int, *, depth: int = 3, known_bugs: bool = False, do_shrink: bool = False,
                 verbose: bool = False, out=None, domain=None) -> Counter:
    """Check ``n`` masks (mask i from seed ``seed * 1_000_003 + i``); print failures and the counts."""
    out = sys.stdout if out is None else out
    counts: Counter = Counter()
    t0 = time.time()
    for i in range(n):
        m = random_mask(seed * 1_000_003 + i, depth, known_bugs=known_bugs)
        o = check(m, seed=i, domain=domain)
        counts["masks"] += 1
        counts[o.kind] += 1
        counts["dropin_packed"] += bool(o.dropin)
        if (i + 1) % 1000 == 0:
            print(f"... {i + 1} masks, {counts['failures']} failures, {time.time() - t0:.0f} s", file=sys.stderr)
        known = m.known_bug_cases if not o.ok else []
        if verbose:
            print(f"[{i}] {o.kind}: {m.body()}", file=out)
        if not o.ok:
            counts["failures"] += 1
            for k in known:
                counts["known:" + k] += 1
            tag = f" [known: {', '.join(known)}]" if known else ""
            print(f"\n=== mask {i} (seed {seed}){tag}: {o.describe()}\n{m.source}", file=out)
            if do_shrink:
                kind = o.kind
                small = shrink(m, lambda mm: check(mm, seed=i, domain=domain).kind == kind)
                print(f"--- shrunk:\n{small.source}--- {check(small, seed=i, domain=domain).describe()}\n", file=out)
    wall = time.time() - t0
    n_ok = counts["packed"] + counts["per_lane"]
    print(
        f"masks {counts['masks']}  packed {counts['packed']}  per-lane {counts['per_lane']}  "
        f"mismatches {counts['mismatch']}  emulator UB {counts['ub']}  "
        f"emulator errors {counts['emulator_error']}  compile crashes {counts['compile_crash']}  "
        f"drop-in packed {counts['dropin_packed']}  drop-in mismatches {counts['dropin_mismatch']}  "
        f"drop-in errors {counts['dropin_error']}  bare negations {counts['bare_negation']}  "
        f"compile rejections {counts['rejected']}  no-reason {counts['no_reason']}  "
        f"invalid {counts['invalid']}",
        file=out,
    )
    if domain is not None:
        print(f"domain (B, H, Q, KV) = {tuple(domain)}: compiled for it, sampled inside it and on its edges", file=out)
    known = {k: v for k, v in counts.items() if k.startswith("known:")}
    if known:
        print("failures from KNOWN_BUGS (--known-bugs): " + ", ".join(f"{k[6:]} {v}" for k, v in sorted(known.items())),
              file=out)
    rate = counts["packed"] / n_ok if n_ok else 0.0
    print(f"pack rate {rate:.1%} ({counts['packed']}/{n_ok} compiled masks); "
          f"wall {wall:.1f} s ({wall / max(1, n) * 1000:.0f} ms/mask)", file=out)
    counts["_wall_ms"] = int(wall * 1000)
    return counts


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m maskopt.tools.fuzz", description=__doc__.split("\n")[0])
    p.add_argument("--masks", type=int, default=200)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--depth", type=int, default=3)
    p.add_argument("--shrink", action="store_true", help="shrink every failure to a small reproducer")
    p.add_argument("--known-bugs", action="store_true",
                   help="also generate the cases of KNOWN_BUGS (they fail until fixed)")
    p.add_argument("-v", "--verbose", action="store_true")
    p.add_argument("--domain", default=None, metavar="SPEC",
                   help="compile every mask for this domain (as mask-opt --domain, e.g. 'q<131072,kv<131072') "
                   "and sample inside it and on its edges")
    args = p.parse_args(argv)
    domain = None
    if args.domain is not None:
        from maskopt.passes.domain import domain_bounds

        domain = domain_bounds(args.domain)
    import warnings

    warnings.filterwarnings("ignore")
    c = run_campaign(args.masks, args.seed, depth=args.depth, known_bugs=args.known_bugs,
                     do_shrink=args.shrink, verbose=args.verbose, domain=domain)
    return 1 if c["failures"] else 0


if __name__ == "__main__":
    sys.exit(main())
