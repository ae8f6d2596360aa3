"""A CPU emulator for the CuTe DSL mask_mod modules that maskopt emits.

``load_module(source)`` executes an emitted module (``import cutlass``,
``import cutlass.cute as cute``, ``from flash_attn.cute import utils``) against
fake ``cutlass`` / ``cutlass.cute`` / ``flash_attn.cute.utils`` modules.  The
fakes are resolved through a private ``__import__`` in the exec globals'
``__builtins__``; nothing is put in ``sys.modules`` and the real cutlass package
is never imported.  ``EmulatedMaskMod.keep_words`` then evaluates the mask_mod
for a whole batch of (b, h, q, kv_base) points at once and returns the 32-bit
keep word of each point, exactly as FlashAttention-4 calls a ``__vec_size__ =
32`` mask_mod (b_idx/h_idx/q_idx: 32 equal lanes, kv_idx lane L = kv_base + L,
word = ``packed.load()[0]``).

Values
------
Every DSL scalar (``Int8 Int16 Int32 Int64 Uint8 Uint16 Uint32 Boolean``) holds
either a Python ``int`` -- a *trace-time constant*, i.e. something built only from
literals, such as ``cutlass.Int32(3)`` -- or a 1-D ``torch.int64`` tensor with one
value per batch point -- a *runtime* value (index lanes, aux loads, aux
scalars and everything computed from them).  Values are always stored exactly
(signed types sign-extended, unsigned zero-extended, Boolean as 0/1).

Semantics modelled (checked against nvidia-cutlass-dsl 4.8.1)
-------------------------------------------------------------
* Types follow the DSL's ``_binary_op_type_promote``: a Python int literal
  becomes ``Int32`` (``Int64`` if it does not fit in 32 bits; ``True``/``False``
  become ``Boolean``), then the two operand types are unified: same signedness
  -> the wider type; mixed signedness -> the unsigned type if it is at least as
  wide as the signed one, else the signed type.  So ``Int32 op Int64 -> Int64``,
  ``Int32 op Uint32 -> Uint32``, ``Int8 op 5 -> Int32``, ``Uint32 & 0xFFFFFFFF
  -> Int64`` (the literal does not fit in Int32!).  Arithmetic on two Booleans is
  rejected.
* STRICT: the emitted code must never rely on wrap-around.  A ``+ - * // %``,
  unary ``-`` or ``abs`` whose exact result is outside the result type raises
  ``EmulatedUB`` (message names the operation, the operands and the batch
  element).  An *implicit* conversion made by promotion that changes a value
  (``Int32(-1) < Uint32(1)``, ``Uint32 + (-1)``) raises
  ``EmulatedLossyConversion`` (a subclass of ``EmulatedUB``).  *Explicit*
  conversions ``cutlass.IntN(x)`` never raise: they keep the low N bits and
  reinterpret them (C cast; ``Uint32(Int32(-1)) == 0xFFFFFFFF``;
  ``Boolean(x)`` is ``x != 0``).  The one exception to STRICT is ``Uint64``,
  the modular type through which maskopt prints int64 arithmetic that wraps
  like torch's: ``Int64(Uint64(a) + Uint64(b))`` is arith.addi without
  overflow flags in the DSL, a defined wrap mod 2**64 (see ``Uint64``).
* Runtime ``//`` is ``arith.floordivsi`` (floor), runtime ``%`` is
  ``arith.remsi`` (truncated, sign of the dividend); unsigned types use
  ``divui``/``remui``.  Division or remainder by zero, ``MIN // -1`` and
  ``MIN % -1`` (LLVM ``srem`` UB) raise ``EmulatedUB``.
* Trace-time constants are folded by the real DSL in Python, so ``//`` and
  ``%`` on two constants use Python (floor) semantics: ``Int32(-7) % Int32(2)
  == 1`` while the same operation on runtime values gives -1.  (The real DSL
  silently wraps overflowing constant folds with a warning; the emulator
  raises.)
* ``<<``/``>>`` lower to ``arith.shli``/``shrsi``/``shrui``: a shift amount < 0
  or >= the bit width (for any executed element) is LLVM poison and raises
  ``EmulatedUB``; ``<<`` discards high bits (no nsw/nuw); ``>>`` is
  arithmetic for signed types, logical for unsigned ones.  Only
  ``utils.shl_u32`` / ``utils.shr_u32`` (inline PTX ``shl.b32`` / ``shr.u32``)
  may shift by >= 32: they convert both operands with an explicit
  ``Uint32(...)`` and clamp the amount, so amounts >= 32 give 0.
* ``& | ^ ~`` are bitwise on integers and logical on Booleans; comparisons give
  ``Boolean`` (signed or unsigned compare after promotion).
* ``a if c else b`` with a runtime ``c`` is an ``scf.if`` in the DSL: each
  element executes only its arm.  The module's AST is rewritten so that both
  arms are evaluated under an *active-element mask*; UB (overflow,
  out-of-bounds, division by zero, bad shifts) is only reported for elements
  that execute the arm.  Both arms must have the same DSL type (Python int arms
  are converted to the other arm's type, checked).  With a constant condition
  only the chosen arm runs.  ``cutlass.select_(c, a, b)`` is ``arith.select``
  (both arms already evaluated, no masking) and needs a runtime condition like
  in the DSL.  ``and``/``or``/``not`` are rewritten to logical ops on Booleans
  (the DSL's ``and_``/``or_``/``not_``; the right operand is evaluated eagerly).
  Chained comparisons ``a < b < c`` become ``(a < b) & (b < c)``.  Python
  ``if``/``while``/``assert``/``bool()`` on a runtime value is rejected with
  ``EmulatorUnsupported``; on constants it works as in the DSL.
* Builtin ``min``/``max`` are redirected (as the DSL's preprocessor does) to
  elementwise ``cutlass.min``/``cutlass.max`` when an argument is a DSL value
  (promotion as for ``+`` with Boolean promoted to Int32), and to the Python
  builtins otherwise.
* ``aux_tensors[i][idx]`` / ``aux_tensors[i][i0, i1, ...]`` gathers from the
  caller's torch tensor; an index outside ``[0, size)`` for any executed
  element raises ``EmulatedUB`` (no negative-index wrapping on the GPU).  The
  element type follows the dtype (int64 -> Int64, int32 -> Int32, int16 ->
  Int16, int8 -> Int8, uint8 -> Uint8, uint16 -> Uint16, uint32 -> Uint32,
  uint64 -> Uint64, bool -> Boolean).  Reading an ``aux_tensors[i]`` (or ``aux_scalars[i]``)
  the caller did not give raises ``ValueError`` naming it.
* ``cute.make_rmem_tensor(n, dtype=...)`` is a register array: stores must have
  the element type exactly (Python ints are converted, checked), reading an
  unset element raises ``EmulatedUB``; ``.load()`` gives a vector indexable
  with Python ints.

The emulator keeps its active-element mask in thread-local state, so
different threads may run different batches.
"""

from __future__ import annotations

import ast
import builtins
import contextlib
import inspect
import itertools
import linecache
import numbers
import threading
import types
from typing import Any, Callable, Sequence

import torch

from maskopt.lowering.helpers import by_asm

__all__ = [
    "EmulatedUB",
    "EmulatedLossyConversion",
    "EmulatorUnsupported",
    "EmulatedMaskMod",
    "load_module",
    "unpack_words",
    "Int8",
    "Int16",
    "Int32",
    "Int64",
    "Uint8",
    "Uint16",
    "Uint32",
    "Uint64",
    "Boolean",
]

_I64_MIN = -(1 << 63)
_I64_MAX = (1 << 63) - 1


class EmulatedUB(ArithmeticError):
    """Executing the emitted code would hit undefined behaviour (or wrap-around
    the emitted code must never rely on) for at least one batch element."""


class EmulatedLossyConversion(EmulatedUB):
    """An implicit (promotion) conversion changed a value."""


class EmulatorUnsupported(TypeError):
    """The module uses a construct the emulator (or the DSL) does not support."""


# ---------------------------------------------------------------------------
# Thread-local runtime state: batch size and the active-element mask stack.
# ---------------------------------------------------------------------------

_STATE = threading.local()


def _masks() -> list:
    m = getattr(_STATE, "masks", None)
    if m is None:
        m = _STATE.masks = []
    return m


def _active():
    m = _masks()
    return m[-1] if m else None


def _batch_n() -> int:
    n = getattr(_STATE, "n", None)
    if n is None:
        raise EmulatorUnsupported(
            "runtime values only exist inside EmulatedMaskMod.keep_words()"
        )
    return n


def _any_active() -> bool:
    a = _active()
    return True if a is None else bool(a.any())


@contextlib.contextmanager
def _masked(cond: torch.Tensor):
    top = _active()
    m = _masks()
    m.append(cond if top is None else (top & cond))
    try:
        yield
    finally:
        m.pop()


def _at(v, i: int) -> int:
    if isinstance(v, int):
        return v
    if v.dim() == 0:
        return int(v)
    return int(v[i])


def _check(bad, describe: Callable[[int], str], exc=None) -> None:
    """Raise ``exc`` (EmulatedUB) if ``bad`` holds for an executed element.

    ``bad`` is a Python bool (constant operands) or a bool tensor."""
    exc = exc or EmulatedUB
    if isinstance(bad, bool):
        if bad and _any_active():
            raise exc(describe(0))
        return
    a = _active()
    if a is not None:
        bad = bad & a
    if bool(bad.any()):
        if bad.dim() == 0:
            i = 0
        else:
            i = int(torch.nonzero(bad)[0, 0])
        n = getattr(_STATE, "n", None)
        where = f" (batch element {i} of {n})" if n is not None else ""
        raise exc(describe(i) + where)


# ---------------------------------------------------------------------------
# Scalar types.
# ---------------------------------------------------------------------------


def _t(v) -> torch.Tensor:
    return v if isinstance(v, torch.Tensor) else torch.tensor(v, dtype=torch.int64)


def _wrap(v, cls):
    """Keep the low ``cls.width`` bits of the exact integer ``v`` and
    reinterpret them with ``cls``'s signedness (C cast); Boolean: ``v != 0``."""
    if cls is Boolean:
        return int(v != 0) if isinstance(v, int) else (v != 0).to(torch.int64)
    w = cls.width
    if isinstance(v, int):
        m = v & ((1 << w) - 1)
        if cls.signed and m >= (1 << (w - 1)):
            m -= 1 << w
        return m
    if w == 64:
        return v  # int64 storage; every stored value already fits in int64
    m = v & ((1 << w) - 1)
    if cls.signed:
        m = torch.where(m >= (1 << (w - 1)), m - (1 << w), m)
    return m


class Numeric:
    """Base of the emulated DSL integer scalars.  ``v`` is a Python int
    (trace-time constant) or a 1-D int64 tensor (runtime value, one per point)."""

    __slots__ = ("v",)
    width: int = 0
    signed: bool = True
    _lo: int = 0
    _hi: int = 0

    def __new__(cls, x=0):  # explicit conversion, e.g. cutlass.Int32(x)
        if cls in (Numeric, Integer):
            raise EmulatorUnsupported(f"cannot instantiate abstract {cls.__name__}")
        return _explicit(x, cls)

    def ir_value(self, *, loc=None, ip=None):
        """The operand of an inline-asm call (see ``_inline_asm``): the value itself."""
        return self

    # -- helpers ---------------------------------------------------------
    @property
    def is_const(self) -> bool:
        return isinstance(self.v, int)

    def __repr__(self) -> str:
        if isinstance(self.v, int):
            return f"{type(self).__name__}({self.v})"
        vals = self.v[:4].tolist()
        more = ", ..." if self.v.numel() > 4 else ""
        return f"{type(self).__name__}[runtime]({', '.join(map(str, vals))}{more})"

    __hash__ = object.__hash__

    def __bool__(self) -> bool:
        if isinstance(self.v, int):
            return bool(self.v)
        raise EmulatorUnsupported(
            f"truth value of a runtime {type(self).__name__} is a per-element batch: "
            "Python `if`/`while`/`assert`/bool() on a runtime DSL value is not "
            "supported by the emulator (emit `a if c else b` or cutlass.select_)"
        )

    def __index__(self) -> int:
        if isinstance(self.v, int):
            return self.v
        raise EmulatorUnsupported(
            f"a runtime {type(self).__name__} cannot be used as a Python int "
            "(range bound, list index, ...)"
        )

    __int__ = __index__

    def __float__(self):
        raise EmulatorUnsupported("float conversion of DSL integers is not modelled")

    def __truediv__(self, other):
        raise EmulatorUnsupported("`/` on DSL integers gives Float32; not modelled")

    __rtruediv__ = __truediv__

    # -- binary operators -------------------------------------------------
    def __add__(self, o):
        return _binop("+", self, o)

    def __radd__(self, o):
        return _binop("+", o, self)

    def __sub__(self, o):
        return _binop("-", self, o)

    def __rsub__(self, o):
        return _binop("-", o, self)

    def __mul__(self, o):
        return _binop("*", self, o)

    def __rmul__(self, o):
        return _binop("*", o, self)

    def __floordiv__(self, o):
        return _binop("//", self, o)

    def __rfloordiv__(self, o):
        return _binop("//", o, self)

    def __mod__(self, o):
        return _binop("%", self, o)

    def __rmod__(self, o):
        return _binop("%", o, self)

    def __lshift__(self, o):
        return _binop("<<", self, o)

    def __rlshift__(self, o):
        return _binop("<<", o, self)

    def __rshift__(self, o):
        return _binop(">>", self, o)

    def __rrshift__(self, o):
        return _binop(">>", o, self)

    def __and__(self, o):
        return _binop("&", self, o)

    def __rand__(self, o):
        return _binop("&", o, self)

    def __or__(self, o):
        return _binop("|", self, o)

    def __ror__(self, o):
        return _binop("|", o, self)

    def __xor__(self, o):
        return _binop("^", self, o)

    def __rxor__(self, o):
        return _binop("^", o, self)

    def __lt__(self, o):
        return _binop("<", self, o)

    def __le__(self, o):
        return _binop("<=", self, o)

    def __gt__(self, o):
        return _binop(">", self, o)

    def __ge__(self, o):
        return _binop(">=", self, o)

    def __eq__(self, o):  # type: ignore[override]
        return _binop("==", self, o)

    def __ne__(self, o):  # type: ignore[override]
        return _binop("!=", self, o)

    # -- unary operators --------------------------------------------------
    def __pos__(self):
        return self

    def __neg__(self):
        cls = type(self)
        if cls is Uint64:
            raise EmulatorUnsupported("unary operators on Uint64 are not modelled")
        if cls is Boolean:
            raise EmulatorUnsupported("unary `-` on Boolean")
        v = self.v
        if isinstance(v, int):
            r = -v
            _check(not (cls._lo <= r <= cls._hi),
                   lambda i: f"{cls.__name__} overflow in -({v}) = {r}")
            return _mk(cls, r)
        if cls.signed:
            bad = v == cls._lo
        else:
            bad = v != 0
        _check(bad, lambda i: f"{cls.__name__} overflow in -({_at(v, i)}) = {-_at(v, i)}")
        return _mk(cls, -torch.where(bad, 0, v))

    def __abs__(self):
        cls = type(self)
        if cls is Uint64:
            raise EmulatorUnsupported("unary operators on Uint64 are not modelled")
        if cls is Boolean or not cls.signed:
            return self
        v = self.v
        if isinstance(v, int):
            _check(v == cls._lo, lambda i: f"{cls.__name__} overflow in abs({v})")
            return _mk(cls, abs(v))
        bad = v == cls._lo
        _check(bad, lambda i: f"{cls.__name__} overflow in abs({_at(v, i)})")
        return _mk(cls, torch.where(bad, 0, v).abs())

    def __invert__(self):
        cls = type(self)
        if cls is Uint64:
            raise EmulatorUnsupported("unary operators on Uint64 are not modelled")
        v = self.v
        if cls is Boolean:
            return _mk(cls, 1 - v)
        if cls.signed:
            return _mk(cls, ~v)
        return _mk(cls, (~v) & ((1 << cls.width) - 1))


class Integer(Numeric):
    __slots__ = ()


def _make_type(name: str, width: int, signed: bool, lo: int, hi: int):
    return type(name, (Integer,), {
        "__slots__": (), "width": width, "signed": signed, "_lo": lo, "_hi": hi,
        "__module__": __name__,
    })


Int8 = _make_type("Int8", 8, True, -(1 << 7), (1 << 7) - 1)
Int16 = _make_type("Int16", 16, True, -(1 << 15), (1 << 15) - 1)
Int32 = _make_type("Int32", 32, True, -(1 << 31), (1 << 31) - 1)
Int64 = _make_type("Int64", 64, True, _I64_MIN, _I64_MAX)
Uint8 = _make_type("Uint8", 8, False, 0, (1 << 8) - 1)
Uint16 = _make_type("Uint16", 16, False, 0, (1 << 16) - 1)
Uint32 = _make_type("Uint32", 32, False, 0, (1 << 32) - 1)
_SIGNED = {8: Int8, 16: Int16, 32: Int32, 64: Int64}
# Uint64 is the one *modular* type: maskopt prints int64 arithmetic that may
# wrap as ``cutlass.Int64(cutlass.Uint64(a) + cutlass.Uint64(b))`` (the DSL
# lowers it to arith.addi/subi/muli without overflow flags, and the same-width
# conversions to nothing, so it wraps mod 2**64 on the GPU).  Only what that
# needs is modelled: explicit conversion from 64-bit values and constants,
# ``+ - *`` (wrapping), ``& | ^ == !=`` between two Uint64, and explicit
# conversion back; anything else raises EmulatorUnsupported.  A constant is
# stored exactly in [0, 2**64); a runtime value as its int64 bit pattern.
Uint64 = _make_type("Uint64", 64, False, 0, (1 << 64) - 1)
# The DSL declares Boolean as a signed 1-bit Integer (this matters for promotion:
# Boolean op Int32 -> Int32, Boolean op Uint32 -> Uint32); its values are 0/1.
Boolean = _make_type("Boolean", 1, True, 0, 1)

_TYPES = {c.__name__: c for c in (Int8, Int16, Int32, Int64, Uint8, Uint16, Uint32, Boolean)}

_TORCH_DTYPES = {
    torch.int64: Int64,
    torch.int32: Int32,
    torch.int16: Int16,
    torch.int8: Int8,
    torch.uint8: Uint8,
    torch.bool: Boolean,
}
for _name, _cls in (("uint16", Uint16), ("uint32", Uint32), ("uint64", Uint64)):
    if hasattr(torch, _name):
        _TORCH_DTYPES[getattr(torch, _name)] = _cls  # a uint64 load: its int64 bit pattern


def _mk(cls, v):
    obj = object.__new__(cls)
    obj.v = v
    return obj


def _explicit(x, cls):
    """``cls(x)``: an explicit C-style cast (never raises on value change)."""
    if cls is Uint64:
        return _to_u64(x)
    if isinstance(x, Numeric):
        if type(x) is cls:
            return x
        return _mk(cls, _wrap(x.v, cls))
    if isinstance(x, bool):
        return _mk(cls, _wrap(int(x), cls))
    if isinstance(x, numbers.Integral):
        return _mk(cls, _wrap(int(x), cls))
    raise EmulatorUnsupported(
        f"{cls.__name__}({type(x).__name__}) is not modelled by the emulator"
    )


def _to_u64(x):
    if isinstance(x, Numeric) and type(x) is not Uint64 and not x.is_const and x.width != 64:
        # The DSL zero-extends into an unsigned target (extui): not modelled.
        raise EmulatorUnsupported(f"Uint64({type(x).__name__}) of a runtime value")
    v = x.v if isinstance(x, Numeric) else x
    if isinstance(v, bool) or not isinstance(v, (numbers.Integral, torch.Tensor)):
        raise EmulatorUnsupported(f"Uint64({type(x).__name__})")
    return _mk(Uint64, int(v) & ((1 << 64) - 1) if not isinstance(v, torch.Tensor) else v)


_U64_OPS = {"+", "-", "*", "&", "|", "^", "==", "!="}


def _u64_op(op: str, a, b):
    """``a op b`` with a Uint64 operand: wrapping mod 2**64 (see Uint64)."""
    if type(a) is not Uint64 or type(b) is not Uint64 or op not in _U64_OPS:
        raise EmulatorUnsupported(
            f"`{type(a).__name__} {op} {type(b).__name__}`: Uint64 is only modelled "
            "for + - * & | ^ == != between two explicit Uint64 values"
        )
    x, y = a.v, b.v
    if isinstance(x, int) and isinstance(y, int):
        r = _PY_OPS[op](x, y)
        return _mk(Boolean, int(r)) if op in _CMP else _mk(Uint64, r & ((1 << 64) - 1))
    tx, ty = _t(_wrap(x, Int64)), _t(_wrap(y, Int64))  # int64 bit patterns
    r = _PY_OPS[op](tx, ty)  # torch's int64 arithmetic wraps mod 2**64
    return _mk(Boolean, r.to(torch.int64)) if op in _CMP else _mk(Uint64, r)


def _lit(x):
    """A Python literal as the DSL's ``as_numeric`` sees it."""
    if isinstance(x, Numeric):
        return x
    if isinstance(x, bool):
        return _mk(Boolean, int(x))
    if isinstance(x, numbers.Integral):
        x = int(x)
        if Int32._lo <= x <= Int32._hi:
            return _mk(Int32, x)
        if _I64_MIN <= x <= _I64_MAX:
            return _mk(Int64, x)
        raise EmulatorUnsupported(f"integer literal {x} does not fit in Int64")
    return None


def _promote(ta, tb, promote_bool: bool):
    if ta is tb:
        if promote_bool and ta is Boolean:
            return Int32
        return ta
    if ta.signed != tb.signed:
        u, s = (ta, tb) if not ta.signed else (tb, ta)
        return u if u.width >= s.width else s
    return ta if ta.width >= tb.width else tb


def _implicit(x, cls, what: str):
    if type(x) is cls:
        return x
    nv = _wrap(x.v, cls)
    src = type(x).__name__
    if isinstance(x.v, int):
        _check(nv != x.v,
               lambda i: f"implicit conversion {src} -> {cls.__name__} in {what} "
                         f"changes {x.v} to {nv}",
               EmulatedLossyConversion)
    else:
        _check(nv != x.v,
               lambda i: f"implicit conversion {src} -> {cls.__name__} in {what} "
                         f"changes {_at(x.v, i)} to {_at(nv, i)}",
               EmulatedLossyConversion)
    return _mk(cls, nv)


_ARITH = {"+", "-", "*", "//", "%"}
_SHIFT = {"<<", ">>"}
_BITWISE = {"&", "|", "^"}
_CMP = {"<", "<=", ">", ">=", "==", "!="}

_PY_OPS = {
    "+": lambda a, b: a + b,
    "-": lambda a, b: a - b,
    "*": lambda a, b: a * b,
    "&": lambda a, b: a & b,
    "|": lambda a, b: a | b,
    "^": lambda a, b: a ^ b,
    "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b,
    ">": lambda a, b: a > b,
    ">=": lambda a, b: a >= b,
    "==": lambda a, b: a == b,
    "!=": lambda a, b: a != b,
}


def _binop(op: str, a, b):
    la, lb = _lit(a), _lit(b)
    if la is None or lb is None:
        return NotImplemented
    if op in _ARITH | _SHIFT and type(la) is Boolean and type(lb) is Boolean:
        raise EmulatorUnsupported(f"arithmetic `{op}` on two Booleans")
    if Uint64 in (type(la), type(lb)):
        return _u64_op(op, la, lb)
    res = _promote(type(la), type(lb), promote_bool=op in _ARITH)
    desc = f"`{type(la).__name__} {op} {type(lb).__name__}`"
    la = _implicit(la, res, desc)
    lb = _implicit(lb, res, desc)
    if op in _SHIFT and res is Boolean:
        raise EmulatorUnsupported(f"shift `{op}` on Boolean")
    x, y = la.v, lb.v
    if isinstance(x, int) and isinstance(y, int):
        return _const_op(op, x, y, res)
    return _runtime_op(op, x, y, res)


def _range_msg(cls, op, x, y, r):
    return (f"{cls.__name__} overflow in {x} {op} {y} = {r} "
            f"(outside [{cls._lo}, {cls._hi}])")


def _const_op(op: str, x: int, y: int, cls):
    name = cls.__name__
    if op in _CMP:
        return _mk(Boolean, int(_PY_OPS[op](x, y)))
    if op in _BITWISE:
        return _mk(cls, _PY_OPS[op](x, y))
    if op in _SHIFT:
        bad = not (0 <= y < cls.width)
        _check(bad, lambda i: f"{name} shift {x} {op} {y}: amount outside [0, {cls.width}) "
                              "is LLVM poison (use utils.shl_u32/shr_u32)")
        if bad:  # only reachable when no element executes this
            return _mk(cls, 0)
        return _mk(cls, _wrap(x << y, cls) if op == "<<" else x >> y)
    if op in ("//", "%"):
        if y == 0:
            _check(True, lambda i: f"{name} division by zero in {x} {op} {y}")
            return _mk(cls, 0)
        r = x // y if op == "//" else x % y  # trace-time fold: Python semantics
    else:
        r = _PY_OPS[op](x, y)
    if not (cls._lo <= r <= cls._hi):
        _check(True, lambda i: _range_msg(cls, op, x, y, r) + " [constant fold]")
        r = _wrap(r, cls)
    return _mk(cls, r)


def _runtime_op(op: str, x, y, cls):
    name = cls.__name__
    tx, ty = _t(x), _t(y)
    if op in _CMP:
        return _mk(Boolean, _PY_OPS[op](tx, ty).to(torch.int64))
    if op in _BITWISE:
        return _mk(cls, _PY_OPS[op](tx, ty))
    if op in _SHIFT:
        bad = (ty < 0) | (ty >= cls.width)
        _check(bad, lambda i: f"{name} shift {_at(tx, i)} {op} {_at(ty, i)}: amount outside "
                              f"[0, {cls.width}) is LLVM poison (use utils.shl_u32/shr_u32)")
        s = torch.where(bad, 0, ty)
        if op == "<<":
            return _mk(cls, _wrap(tx << s, cls))
        return _mk(cls, tx >> s)
    if op in ("//", "%"):
        zero = ty == 0
        _check(zero, lambda i: f"{name} division by zero in {_at(tx, i)} {op} {_at(ty, i)}")
        bad = zero
        if cls.signed:
            ovf = (tx == cls._lo) & (ty == -1)
            what = "overflow" if op == "//" else "overflow (LLVM srem UB)"
            _check(ovf, lambda i: f"{name} {what} in {_at(tx, i)} {op} {_at(ty, i)}")
            bad = bad | ovf
        safe = torch.where(bad, 1, ty)
        if op == "//":
            mode = "floor" if cls.signed else "trunc"
            return _mk(cls, torch.div(tx, safe, rounding_mode=mode))
        return _mk(cls, torch.fmod(tx, safe))  # remsi: truncated, sign of dividend
    # + - *
    if cls.width < 64:
        if op == "*":
            # |operands| <= 2**32: a float64 product is exact below 2**53 and
            # certainly out of range above it.
            est = tx.double() * ty.double()
            bad = (est < cls._lo) | (est > cls._hi)
            r = torch.where(bad, 0, tx) * torch.where(bad, 0, ty)
        else:
            r = tx + ty if op == "+" else tx - ty
            bad = (r < cls._lo) | (r > cls._hi)
    else:  # Int64: detect overflow without computing a wrapped result
        if op == "+":
            bad = (tx > _I64_MAX - ty.clamp(min=0)) | (tx < _I64_MIN - ty.clamp(max=0))
            r = torch.where(bad, 0, tx) + torch.where(bad, 0, ty)
        elif op == "-":
            bad = (tx > _I64_MAX + ty.clamp(max=0)) | (tx < _I64_MIN + ty.clamp(min=0))
            r = torch.where(bad, 0, tx) - torch.where(bad, 0, ty)
        else:
            bx, by = torch.broadcast_tensors(tx, ty)
            est = bx.double() * by.double()
            risky = est.abs() >= 2.0 ** 62
            bad = torch.zeros(bx.shape, dtype=torch.bool)
            if bool(risky.any()):
                for i in torch.nonzero(risky.reshape(-1)).reshape(-1).tolist():
                    p = int(bx.reshape(-1)[i]) * int(by.reshape(-1)[i])
                    if not (_I64_MIN <= p <= _I64_MAX):
                        bad.view(-1)[i] = True
            r = torch.where(bad, 0, bx) * torch.where(bad, 0, by)
    def describe(i):
        a, c = _at(tx, i), _at(ty, i)
        return _range_msg(cls, op, a, c, _PY_OPS[op](a, c))

    _check(bad, describe)
    return _mk(cls, r)


def _minmax(kind: str, a, b):
    la, lb = _lit(a), _lit(b)
    if la is None or lb is None:
        raise EmulatorUnsupported(f"{kind}() of {type(a).__name__} and {type(b).__name__}")
    if Uint64 in (type(la), type(lb)):
        raise EmulatorUnsupported(f"{kind}() of Uint64 values is not modelled")
    res = _promote(type(la), type(lb), promote_bool=True)
    desc = f"`{kind}({type(la).__name__}, {type(lb).__name__})`"
    x = _implicit(la, res, desc).v
    y = _implicit(lb, res, desc).v
    if isinstance(x, int) and isinstance(y, int):
        return _mk(res, builtins.min(x, y) if kind == "min" else builtins.max(x, y))
    f = torch.minimum if kind == "min" else torch.maximum
    tx, ty = torch.broadcast_tensors(_t(x), _t(y))
    if isinstance(x, int) and not res.signed and res is not Boolean:
        # The DSL's arith `_min`/`_max` picks the signedness of the left
        # operand, and a constant left operand becomes an `arith.constant`
        # without one: signed min/max (`max.s32`) of unsigned values.
        sx, sy = _wrap(tx, _SIGNED[res.width]), _wrap(ty, _SIGNED[res.width])
        return _mk(res, _wrap(f(sx, sy), res))
    return _mk(res, f(tx, ty).clone())


def _has_numeric(args) -> bool:
    return builtins.any(isinstance(a, Numeric) for a in args)


def _make_minmax(kind: str):
    py = builtins.min if kind == "min" else builtins.max

    def fn(*args, **kwargs):
        items = args
        if len(args) == 1 and not isinstance(args[0], Numeric) and hasattr(args[0], "__iter__"):
            items = tuple(args[0])
        if not _has_numeric(items):
            return py(*args, **kwargs)
        if kwargs:
            raise EmulatorUnsupported(f"{kind}() with keyword arguments on DSL values")
        flat = []
        for it in items:  # cutlass.min(a, (x, y)) flattens iterables
            if not isinstance(it, Numeric) and hasattr(it, "__iter__"):
                flat.extend(it)
            else:
                flat.append(it)
        acc = flat[0]
        for it in flat[1:]:
            acc = _minmax(kind, acc, it)
        return _lit(acc) if not isinstance(acc, Numeric) else acc

    fn.__name__ = kind
    return fn


_emu_min = _make_minmax("min")
_emu_max = _make_minmax("max")


# ---------------------------------------------------------------------------
# Control flow helpers (targets of the AST rewrite) and logical ops.
# ---------------------------------------------------------------------------


def _to_bool_scalar(c):
    if isinstance(c, Numeric):
        return c if type(c) is Boolean else _explicit(c, Boolean)
    return None


def _merge(cond: torch.Tensor, t, e, what: str):
    if isinstance(t, tuple) or isinstance(e, tuple):
        if not (isinstance(t, tuple) and isinstance(e, tuple) and len(t) == len(e)):
            raise EmulatorUnsupported(f"{what}: arms have different structures")
        return tuple(_merge(cond, a, b, what) for a, b in zip(t, e))
    tn, en = isinstance(t, Numeric), isinstance(e, Numeric)
    if tn and en:
        if type(t) is not type(e):
            raise EmulatorUnsupported(
                f"{what}: arms have different DSL types {type(t).__name__} and "
                f"{type(e).__name__} (the DSL requires identical result types)")
        cls = type(t)
    elif tn or en:
        cls = type(t) if tn else type(e)
        other = e if tn else t
        lo = _lit(other)
        if lo is None:
            raise EmulatorUnsupported(f"{what}: arm of type {type(other).__name__}")
        conv = _wrap(lo.v, cls)
        if conv != lo.v:
            raise EmulatedLossyConversion(
                f"{what}: Python arm {other} does not fit in {cls.__name__}")
        if tn:
            e = _mk(cls, conv)
        else:
            t = _mk(cls, conv)
    else:
        lt, le = _lit(t), _lit(e)
        if lt is None or le is None:
            raise EmulatorUnsupported(
                f"{what}: arms of type {type(t).__name__}/{type(e).__name__} under a "
                "runtime condition")
        if type(lt) is not type(le):
            raise EmulatorUnsupported(f"{what}: Python arms {t!r} and {e!r} have different DSL types")
        cls, t, e = type(lt), lt, le
    tv, ev = torch.broadcast_tensors(_t(t.v), _t(e.v), cond)[:2]
    return _mk(cls, torch.where(cond, tv, ev))


def _emu_ifexp(cond, then_fn, else_fn):
    c = _to_bool_scalar(cond)
    if c is None:
        return then_fn() if cond else else_fn()
    if isinstance(c.v, int):
        return then_fn() if c.v else else_fn()
    mask = c.v != 0
    with _masked(mask):
        t = then_fn()
    with _masked(~mask):
        e = else_fn()
    return _merge(mask, t, e, "`a if c else b`")


def _select_(cond, if_value, else_value):
    c = _to_bool_scalar(cond)
    if c is None or isinstance(c.v, int):
        raise EmulatorUnsupported(
            "cutlass.select_ requires a runtime (dynamic) condition, like the DSL")
    return _merge(c.v != 0, if_value, else_value, "cutlass.select_")


def _as_logical(x, what: str):
    if isinstance(x, bool):
        return _mk(Boolean, int(x))
    if isinstance(x, Numeric):
        if type(x) is not Boolean:
            raise EmulatorUnsupported(
                f"`{what}` on a {type(x).__name__}: use &, |, ~ or compare explicitly")
        return x
    raise EmulatorUnsupported(f"`{what}` mixing {type(x).__name__} with a DSL Boolean")


def _logical(kind: str, a, b):
    x, y = _as_logical(a, kind), _as_logical(b, kind)
    return x & y if kind == "and" else x | y


def _emu_boolop(kind: str, *thunks):
    val = thunks[0]()
    for th in thunks[1:]:
        if not isinstance(val, Numeric):
            if kind == "and" and not val:
                return val
            if kind == "or" and val:
                return val
            val = th()
            continue
        val = _logical(kind, val, th())  # DSL and_/or_: rhs evaluated eagerly
    return val


def _emu_not(x):
    if isinstance(x, Numeric):
        return ~_as_logical(x, "not")
    return not x


def _cutlass_and(*args):
    if not args:
        raise ValueError("and_() requires at least one argument")
    return _emu_boolop("and", *[(lambda a=a: a) for a in args])


def _cutlass_or(*args):
    if not args:
        raise ValueError("or_() requires at least one argument")
    return _emu_boolop("or", *[(lambda a=a: a) for a in args])


_CMP_FUNCS = {
    "<": lambda a, b: a < b, "<=": lambda a, b: a <= b,
    ">": lambda a, b: a > b, ">=": lambda a, b: a >= b,
    "==": lambda a, b: a == b, "!=": lambda a, b: a != b,
}


def _emu_cmpchain(ops: tuple, *operands):
    results = [_CMP_FUNCS[op](operands[i], operands[i + 1]) for i, op in enumerate(ops)]
    if not _has_numeric(results):
        return builtins.all(results)
    acc = results[0]
    for r in results[1:]:
        acc = _logical("and", acc, r)
    return acc


# ---------------------------------------------------------------------------
# Tensors and vectors.
# ---------------------------------------------------------------------------


class _Vector:
    """A TensorSSA-like value: ``.load()`` results and the index lane vectors."""

    __slots__ = ("_elems", "dtype", "_name")

    def __init__(self, elems: Sequence, dtype, name: str = "vector"):
        self._elems = list(elems)
        self.dtype = dtype
        self._name = name

    def __len__(self):
        return len(self._elems)

    @property
    def shape(self):
        return (len(self._elems),)

    def _index(self, i) -> int:
        if isinstance(i, tuple) and len(i) == 1:
            i = i[0]
        if isinstance(i, Numeric):
            if not isinstance(i.v, int):
                raise EmulatorUnsupported(f"{self._name}[runtime index] is not supported")
            i = i.v
        if not isinstance(i, numbers.Integral) or isinstance(i, bool):
            raise EmulatorUnsupported(f"{self._name}[{i!r}]: index must be a Python int")
        i = int(i)
        if not 0 <= i < len(self._elems):
            raise IndexError(f"{self._name}[{i}] outside [0, {len(self._elems)})")
        return i

    def __getitem__(self, i):
        i = self._index(i)
        e = self._elems[i]
        if e is None:
            raise EmulatedUB(f"read of uninitialised {self._name}[{i}]")
        return e

    def __iter__(self):
        raise EmulatorUnsupported(f"iteration over {self._name}; index it with Python ints")

    def __bool__(self):
        raise EmulatorUnsupported(f"truth value of {self._name}")

    def __repr__(self):
        return f"<emulated {self._name} of {len(self._elems)} x {getattr(self.dtype, '__name__', self.dtype)}>"


class _RmemTensor(_Vector):
    """``cute.make_rmem_tensor(n, dtype)``: a register array."""

    __slots__ = ()

    def __setitem__(self, i, value):
        i = self._index(i)
        self._elems[i] = self._coerce(value, i)

    def _coerce(self, value, i):
        cls = self.dtype
        if isinstance(value, Numeric):
            if type(value) is not cls:
                raise EmulatorUnsupported(
                    f"storing a {type(value).__name__} into a {cls.__name__} rmem tensor "
                    f"(element {i}); convert explicitly")
            return value
        lv = _lit(value)
        if lv is None:
            raise EmulatorUnsupported(f"storing {type(value).__name__} into an rmem tensor")
        conv = _wrap(lv.v, cls)
        if conv != lv.v:
            raise EmulatedLossyConversion(
                f"storing Python {value} into a {cls.__name__} rmem tensor changes it to {conv}")
        return _mk(cls, conv)

    def fill(self, value):
        for i in range(len(self._elems)):
            self._elems[i] = self._coerce(value, i)

    def load(self):
        return _Vector(self._elems, self.dtype, "loaded vector")

    def store(self, vec):
        if len(vec) != len(self._elems):
            raise EmulatorUnsupported("rmem store of a vector with a different length")
        for i in range(len(self._elems)):
            self._elems[i] = self._coerce(vec[i], i)

    @property
    def element_type(self):
        return self.dtype


def _make_rmem_tensor(shape, dtype=None, *args, **kwargs):
    if dtype is None:
        dtype = kwargs.pop("element_type", None)
    if not (isinstance(dtype, type) and issubclass(dtype, Numeric) and dtype in _TYPES.values()):
        raise EmulatorUnsupported(f"make_rmem_tensor dtype {dtype!r} is not modelled")
    if isinstance(shape, tuple):
        n = 1
        for s in shape:
            n *= int(s)
    else:
        n = int(shape)
    return _RmemTensor([None] * n, dtype, "rmem tensor")


class _AuxTensor:
    """A caller-provided torch tensor read with DSL indices (gather)."""

    def __init__(self, t: torch.Tensor, pos: int):
        if not isinstance(t, torch.Tensor):
            t = torch.as_tensor(t)
        if t.dtype not in _TORCH_DTYPES:
            raise EmulatorUnsupported(f"aux_tensors[{pos}] has unsupported dtype {t.dtype}")
        self.dtype = _TORCH_DTYPES[t.dtype]
        self.shape = tuple(t.shape)
        self._pos = pos
        self._src = t
        self._flat = None
        strides, acc = [], 1
        for s in reversed(self.shape):
            strides.append(acc)
            acc *= s
        self._strides = tuple(reversed(strides))
        self._numel = acc

    def _flat_i64(self) -> torch.Tensor:
        if self._flat is None:
            self._flat = self._src.detach().cpu().contiguous().reshape(-1).to(torch.int64)
        return self._flat

    def __getitem__(self, idx):
        if not isinstance(idx, tuple):
            idx = (idx,)
        if len(idx) != len(self.shape):
            raise EmulatorUnsupported(
                f"aux_tensors[{self._pos}] has {len(self.shape)} dims, indexed with {len(idx)}")
        vals = []
        for d, ix in enumerate(idx):
            if isinstance(ix, Numeric):
                if type(ix) is Boolean:
                    raise EmulatorUnsupported(f"aux_tensors[{self._pos}] indexed with a Boolean")
                vals.append(ix.v)
            elif isinstance(ix, numbers.Integral) and not isinstance(ix, bool):
                vals.append(int(ix))
            else:
                raise EmulatorUnsupported(
                    f"aux_tensors[{self._pos}] index {d} of type {type(ix).__name__}")
        n = _batch_n()
        bad = False
        for v, size in zip(vals, self.shape):
            b = (v < 0) | (v >= size) if not isinstance(v, int) else not (0 <= v < size)
            bad = b if bad is False else (bad | b)

        def describe(i):
            shown = ", ".join(str(_at(v, i)) for v in vals)
            return (f"out-of-bounds read aux_tensors[{self._pos}][{shown}] "
                    f"of shape {self.shape}")

        if isinstance(bad, bool) or bad.dim() == 0:
            bad_b = bool(bad)
            _check(bad_b, describe)
            if bad_b or self._numel == 0:
                return _mk(self.dtype, torch.zeros(n, dtype=torch.int64))
            lin = sum(v * s for v, s in zip(vals, self._strides))
            return _mk(self.dtype, torch.full((n,), int(self._flat_i64()[lin]), dtype=torch.int64))
        _check(bad, describe)
        if self._numel == 0:
            return _mk(self.dtype, torch.zeros(n, dtype=torch.int64))
        lin = torch.zeros(n, dtype=torch.int64)
        for v, s in zip(vals, self._strides):
            lin = lin + torch.where(bad, 0, _t(v)) * s
        return _mk(self.dtype, self._flat_i64()[lin])

    def __setitem__(self, idx, value):
        raise EmulatorUnsupported("mask_mods must not write aux tensors")

    def __repr__(self):
        return f"<emulated aux_tensors[{self._pos}] {self.dtype.__name__}{list(self.shape)}>"


class _NoSeqlenInfo:
    def __getattr__(self, name):
        raise EmulatorUnsupported(
            f"seqlen_info.{name}: pass seqlen_info=... to keep_words to model it")


# ---------------------------------------------------------------------------
# Fake modules.
# ---------------------------------------------------------------------------


class _Placeholder:
    """Stand-in for DSL annotation types (``cutlass.Constexpr[int]`` etc.)."""

    def __class_getitem__(cls, item):
        return cls


def _jit(fn=None, **kwargs):
    if fn is None:
        return lambda f: f
    return fn


def _const_expr(x):
    if isinstance(x, Numeric) and not isinstance(x.v, int):
        raise EmulatorUnsupported("cutlass.const_expr of a runtime value")
    return x


def _range(*args, **kwargs):
    return builtins.range(*[int(a) for a in args])


def _u32_shift(kind: str):
    def fn(val, shift, *, loc=None, ip=None):
        v = _explicit(val, Uint32).v
        s = _explicit(shift, Uint32).v
        if isinstance(v, int) and isinstance(s, int):
            r = 0 if s >= 32 else ((v << s) & 0xFFFFFFFF if kind == "shl" else v >> s)
            return _mk(Uint32, r)
        tv, ts = torch.broadcast_tensors(_t(v), _t(s))
        big = ts >= 32  # PTX clamps shift amounts to 32
        sc = torch.where(big, 0, ts)
        r = ((tv << sc) & 0xFFFFFFFF) if kind == "shl" else (tv >> sc)
        return _mk(Uint32, torch.where(big, 0, r))

    fn.__name__ = f"{kind}_u32"
    return fn


def _helper_semantics(helper):
    """An emulated inline-PTX helper (``maskopt.lowering.helpers``): its
    operands converted to their CuTe types, its registry semantics applied to
    their values, the result in its type."""

    def fn(*operands):
        vals = [_explicit(x, _TYPES[t]).v for x, (_, t) in zip(operands, helper.params)]
        if any(isinstance(v, torch.Tensor) for v in vals):
            vals = [_t(v) for v in vals]
            vals = list(torch.broadcast_tensors(*vals)) if len(vals) > 1 else vals
        return _mk(_TYPES[helper.result], helper.semantics(*vals))

    fn.__name__ = helper.name
    return fn


#: Inline PTX the emulator models (``llvm.inline_asm`` in emitted helpers and
#: self-contained expressions): maskopt's helpers, and the two shifts of
#: ``flash_attn.cute.utils``.
_INLINE_PTX = {
    **{asm: _helper_semantics(h) for asm, h in by_asm().items()},
    "shl.b32 $0, $1, $2;": lambda v, s: _u32_shift("shl")(v, s),
    "shr.u32 $0, $1, $2;": lambda v, s: _u32_shift("shr")(v, s),
}


def _inline_asm(res_type, operands, asm, constraints, **kwargs):
    if res_type not in ("i32", "i64") or asm not in _INLINE_PTX:
        raise EmulatorUnsupported(f"inline asm {asm!r} is not modelled by the emulator")
    return _INLINE_PTX[asm](*operands)


class _T:
    @staticmethod
    def i32():
        return "i32"

    @staticmethod
    def i64():
        return "i64"


def _dsl_user_op(fn):
    return fn


def _build_fakes() -> dict:
    def module(name, **attrs):
        m = types.ModuleType(name)
        m.__dict__.update(attrs)
        return m

    cute = module(
        "cutlass.cute",
        jit=_jit,
        kernel=_jit,
        make_rmem_tensor=_make_rmem_tensor,
        make_fragment=_make_rmem_tensor,
        Tensor=_Placeholder,
        TensorSSA=_Placeholder,
        Numeric=Numeric,
    )
    cutlass = module(
        "cutlass",
        cute=cute,
        Numeric=Numeric,
        Integer=Integer,
        Constexpr=_Placeholder,
        range_constexpr=_range,
        range=_range,
        const_expr=_const_expr,
        min=_emu_min,
        max=_emu_max,
        select_=_select_,
        and_=_cutlass_and,
        or_=_cutlass_or,
        not_=_emu_not,
        **_TYPES,
        Uint64=Uint64,
    )
    utils = module(
        "flash_attn.cute.utils",
        shl_u32=_u32_shift("shl"),
        shr_u32=_u32_shift("shr"),
    )
    fa_cute = module("flash_attn.cute", utils=utils)
    fa = module("flash_attn", cute=fa_cute)
    llvm = module(
        "cutlass._mlir.dialects.llvm",
        inline_asm=_inline_asm,
        AsmDialect=types.SimpleNamespace(AD_ATT="AD_ATT"),
    )
    dialects = module("cutlass._mlir.dialects", llvm=llvm)
    mlir = module("cutlass._mlir", dialects=dialects)
    cutlass_dsl = module("cutlass.cutlass_dsl", T=_T, dsl_user_op=_dsl_user_op)
    cutlass._mlir = mlir
    cutlass.cutlass_dsl = cutlass_dsl
    return {
        "cutlass": cutlass,
        "cutlass._mlir": mlir,
        "cutlass._mlir.dialects": dialects,
        "cutlass._mlir.dialects.llvm": llvm,
        "cutlass.cutlass_dsl": cutlass_dsl,
        "cutlass.cute": cute,
        "flash_attn": fa,
        "flash_attn.cute": fa_cute,
        "flash_attn.cute.utils": utils,
    }


def _make_import(fakes: dict):
    real_import = builtins.__import__

    def _import(name, globals=None, locals=None, fromlist=(), level=0):
        root = name.split(".")[0]
        if level == 0 and root in ("cutlass", "flash_attn"):
            if name not in fakes:
                raise ImportError(f"the CuTe emulator does not provide module {name!r}")
            return fakes[name] if fromlist else fakes[root]
        return real_import(name, globals, locals, fromlist, level)

    return _import


# ---------------------------------------------------------------------------
# AST rewrite.
# ---------------------------------------------------------------------------


def _thunk(expr: ast.expr) -> ast.Lambda:
    return ast.Lambda(
        args=ast.arguments(posonlyargs=[], args=[], vararg=None, kwonlyargs=[],
                           kw_defaults=[], kwarg=None, defaults=[]),
        body=expr,
    )


class _Rewriter(ast.NodeTransformer):
    _CMP_NAMES = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=",
                  ast.Eq: "==", ast.NotEq: "!="}

    def visit_IfExp(self, node):
        self.generic_visit(node)
        call = ast.Call(func=ast.Name("__emu_ifexp__", ast.Load()),
                        args=[node.test, _thunk(node.body), _thunk(node.orelse)],
                        keywords=[])
        return ast.copy_location(call, node)

    def visit_BoolOp(self, node):
        self.generic_visit(node)
        kind = "and" if isinstance(node.op, ast.And) else "or"
        call = ast.Call(func=ast.Name("__emu_boolop__", ast.Load()),
                        args=[ast.Constant(kind)] + [_thunk(v) for v in node.values],
                        keywords=[])
        return ast.copy_location(call, node)

    def visit_UnaryOp(self, node):
        self.generic_visit(node)
        if isinstance(node.op, ast.Not):
            call = ast.Call(func=ast.Name("__emu_not__", ast.Load()),
                            args=[node.operand], keywords=[])
            return ast.copy_location(call, node)
        return node

    def visit_Compare(self, node):
        self.generic_visit(node)
        if len(node.ops) < 2 or not all(type(o) in self._CMP_NAMES for o in node.ops):
            return node
        ops = ast.Tuple([ast.Constant(self._CMP_NAMES[type(o)]) for o in node.ops], ast.Load())
        call = ast.Call(func=ast.Name("__emu_cmpchain__", ast.Load()),
                        args=[ops, node.left, *node.comparators], keywords=[])
        return ast.copy_location(call, node)


# ---------------------------------------------------------------------------
# Public API.
# ---------------------------------------------------------------------------

_COUNTER = itertools.count()


def _runtime_scalar(x, n: int, pos: int):
    """An aux scalar as a runtime value broadcast over the batch."""
    if isinstance(x, Numeric):
        if isinstance(x.v, int):
            return _mk(type(x), torch.full((n,), x.v, dtype=torch.int64))
        return x
    if isinstance(x, torch.Tensor):
        if x.dtype not in _TORCH_DTYPES:
            raise EmulatorUnsupported(f"aux_scalars[{pos}] has dtype {x.dtype}")
        cls = _TORCH_DTYPES[x.dtype]
        v = x.detach().cpu().to(torch.int64).reshape(-1)
        if v.numel() == 1:
            v = v.expand(n)
        if v.numel() != n:
            raise ValueError(f"aux_scalars[{pos}]: expected 1 or {n} values, got {v.numel()}")
        return _mk(cls, v.clone())
    tname = type(x).__name__
    if tname in _TYPES and hasattr(x, "value") and isinstance(x.value, int):  # real cutlass scalar
        return _mk(_TYPES[tname], torch.full((n,), _wrap(int(x.value), _TYPES[tname]),
                                             dtype=torch.int64))
    if hasattr(x, "dtype") and hasattr(x, "item"):  # numpy scalar
        return _runtime_scalar(torch.as_tensor(x), n, pos)
    lv = _lit(x)
    if lv is None:
        raise EmulatorUnsupported(f"aux_scalars[{pos}] of type {tname}")
    return _mk(type(lv), torch.full((n,), lv.v, dtype=torch.int64))


def _index_input(x, name: str):
    t = torch.as_tensor(x)
    if t.is_floating_point() or t.is_complex():
        raise TypeError(f"{name} must be an integer tensor")
    return t.detach().cpu().to(torch.int64).reshape(-1) if t.dim() else t.to(torch.int64)


def _plural(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


class _AuxArgs(tuple):
    """The ``aux_tensors`` / ``aux_scalars`` argument of the mask_mod: a tuple
    whose missing entries are a ``ValueError`` naming them and the count
    given (not a bare tuple's ``IndexError: tuple index out of range``)."""

    kind: str = "aux_tensors"
    specs: Sequence[str] = ()

    def __new__(cls, items, kind: str, specs: Sequence[str] | None = None):
        self = super().__new__(cls, items)
        self.kind = kind
        self.specs = tuple(specs or ())
        return self

    def __getitem__(self, i):
        try:
            return super().__getitem__(i)
        except IndexError:
            spec = f" ({self.specs[i]})" if isinstance(i, int) and 0 <= i < len(self.specs) else ""
            noun = "aux tensor" if self.kind == "aux_tensors" else "aux scalar"
            was = "was" if len(self) == 1 else "were"
            raise ValueError(
                f"the mask_mod reads {self.kind}[{i}]{spec}, but {_plural(len(self), noun)} "
                f"{was} given (keep_words(..., {self.kind}=[...]))"
            ) from None


def _aux_spec(t) -> str:
    """`torch.int32 (4,)`: how an aux tensor is named in messages."""
    return f"{t.dtype} {tuple(t.shape)}" if hasattr(t, "dtype") and hasattr(t, "shape") else type(t).__name__


class EmulatedMaskMod:
    """An emitted mask_mod module executed by the emulator.

    ``aux_tensors`` are the tensors ``keep_words`` reads when it is given
    none; ``aux_specs``, one line per aux tensor the module reads (e.g.
    ``"doc: torch.int32 (4,)"``), when known: ``keep_words`` then checks the
    count of the tensors it is given, and its errors name them."""

    def __init__(self, source: str, namespace: dict, fn: Callable, transformed_source: str,
                 *, aux_tensors: Sequence[Any] = (), aux_specs: Sequence[str] | None = None):
        self.source = source
        self.namespace = namespace
        self.fn = fn
        self.transformed_source = transformed_source
        self.aux_tensors = tuple(aux_tensors)
        self.aux_specs = None if aux_specs is None else tuple(aux_specs)
        self.vec_size = getattr(fn, "__vec_size__", None)
        self.num_params = len(inspect.signature(fn).parameters)
        if self.num_params not in (6, 7):
            raise EmulatorUnsupported(
                f"mask_mod takes {self.num_params} parameters (expected 6 or 7)")

    def keep_words(self, b, h, q, kv_base, aux_tensors=None, aux_scalars=(), *,
                   seqlen_info=None, kv_lanes=None) -> torch.Tensor:
        """Keep words (int64 values in [0, 2**32)) of the 32 kv positions
        ``kv_base .. kv_base + 31`` for each point; bit L is lane L.

        ``aux_tensors`` (None: the emulator's own ``self.aux_tensors``) are
        read as ``aux_tensors[i]``; when ``self.aux_specs`` is known they must
        be that many (``ValueError`` naming the missing ones otherwise).

        ``kv_lanes`` (an int tensor [N, 32]) replaces ``kv_base + L`` as the
        kv index of lane L (``kv_base`` may then be None): FA4 passes
        ``(kv_base + L) % seqlen_k`` in the last, partial kv tile when aux
        tensors are present."""
        if self.vec_size != 32:
            raise EmulatorUnsupported(
                f"keep_words needs mask_mod.__vec_size__ == 32 (got {self.vec_size!r})")
        aux_tensors = self.aux_tensors if aux_tensors is None else tuple(aux_tensors)
        self._check_aux_count(aux_tensors)
        named = [(b, "b"), (h, "h"), (q, "q")]
        if kv_lanes is None:
            named.append((kv_base, "kv_base"))
        ins = [_index_input(x, nm) for x, nm in named]
        kl = None
        if kv_lanes is not None:
            kl = torch.as_tensor(kv_lanes)
            if kl.dim() != 2 or kl.shape[1] != 32 or kl.is_floating_point():
                raise ValueError("kv_lanes must be an integer tensor of shape [N, 32]")
            kl = kl.detach().cpu().to(torch.int64)
        sizes = {t.numel() for t in ins if t.dim() == 1}
        if kl is not None:
            sizes.add(kl.shape[0])
        if len(sizes) > 1:
            raise ValueError(f"b, h, q, kv_base/kv_lanes have different lengths {sorted(sizes)}")
        n = sizes.pop() if sizes else 1
        ins = [t.expand(n).clone() if t.dim() == 0 else t for t in ins]
        bt, ht, qt = ins[:3]
        if kl is None:
            kt = ins[3]
            lanes = [kt + lane for lane in range(32)]
        else:
            lanes = [kl[:, lane].clone() for lane in range(32)]
        for nm, t in (("b", bt), ("h", ht), ("q", qt)) + tuple(
                (f"kv lane {i}", t) for i, t in enumerate(lanes)):
            if t.numel() and (int(t.min()) < Int32._lo or int(t.max()) > Int32._hi):
                raise ValueError(f"{nm} does not fit in Int32")
        if self.num_params == 6 and aux_scalars:
            raise EmulatorUnsupported("aux_scalars given but mask_mod takes no aux_scalars")

        prev_n, prev_masks = getattr(_STATE, "n", None), getattr(_STATE, "masks", None)
        _STATE.n, _STATE.masks = n, []
        try:
            def vec(t, name):
                s = _mk(Int32, t)
                return _Vector([s] * 32, Int32, name)

            aux_scalars = () if aux_scalars is None else aux_scalars
            args = [vec(bt, "b_idx"), vec(ht, "h_idx"), vec(qt, "q_idx"),
                    _Vector([_mk(Int32, l) for l in lanes], Int32, "kv_idx"),
                    seqlen_info if seqlen_info is not None else _NoSeqlenInfo(),
                    _AuxArgs((_AuxTensor(t, i) for i, t in enumerate(aux_tensors)),
                             "aux_tensors", self.aux_specs)]
            if self.num_params == 7:
                args.append(_AuxArgs((_runtime_scalar(s, n, i) for i, s in enumerate(aux_scalars)),
                                     "aux_scalars"))
            out = self.fn(*args)
            if not isinstance(out, _Vector) or isinstance(out, _RmemTensor):
                raise EmulatorUnsupported(
                    f"mask_mod returned {type(out).__name__}; a vec_size-32 mask_mod must "
                    "return packed.load() of a Uint32 rmem tensor")
            w = out[0]
            if type(w) is not Uint32:
                raise EmulatorUnsupported(f"keep word has type {type(w).__name__}, not Uint32")
            if isinstance(w.v, int):
                return torch.full((n,), w.v, dtype=torch.int64)
            return w.v.expand(n).clone()
        finally:
            _STATE.n, _STATE.masks = prev_n, prev_masks

    def _check_aux_count(self, aux_tensors: Sequence[Any]) -> None:
        """``ValueError`` unless ``aux_tensors`` are as many as ``self.aux_specs``."""
        specs = self.aux_specs
        if specs is None or len(aux_tensors) == len(specs):
            return
        k, n = len(aux_tensors), len(specs)
        if k < n:
            missing = [f"aux_tensors[{i}] ({specs[i]})" for i in range(k, n)]
            verb = "is" if len(missing) == 1 else "are"
            raise ValueError(
                f"the mask_mod reads {_plural(n, 'aux tensor')}, {k} given: "
                f"{', '.join(missing)} {verb} missing")
        raise ValueError(
            f"the mask_mod reads {_plural(n, 'aux tensor')}"
            + (f" ({', '.join(specs)})" if specs else "")
            + f", {k} given")

    def keep_bits(self, b, h, q, kv_base, aux_tensors=None, aux_scalars=(), *,
                  seqlen_info=None, kv_lanes=None) -> torch.Tensor:
        """``unpack_words(keep_words(...))``: a bool tensor [N, 32]."""
        return unpack_words(self.keep_words(b, h, q, kv_base, aux_tensors, aux_scalars,
                                            seqlen_info=seqlen_info, kv_lanes=kv_lanes))


def unpack_words(words: torch.Tensor) -> torch.Tensor:
    """Keep words [N] -> bool [N, 32] (column L = bit L = kv_base + L)."""
    return ((words.to(torch.int64).unsqueeze(-1) >> torch.arange(32)) & 1).bool()


def load_module(source: str, name: str = "mask_mod", *, aux_tensors: Sequence[Any] = (),
                aux_specs: Sequence[str] | None = None) -> EmulatedMaskMod:
    """Execute an emitted CuTe DSL module against the fake DSL modules and
    return its ``name`` function wrapped as an :class:`EmulatedMaskMod`.

    ``aux_tensors`` become the emulator's default aux tensors; ``aux_specs``
    describe the aux tensors the module reads, one line each (default: those
    of ``aux_tensors`` when given, else unknown)."""
    if aux_specs is None and aux_tensors:
        aux_specs = [_aux_spec(t) for t in aux_tensors]
    tree = ast.parse(source)
    tree = ast.fix_missing_locations(_Rewriter().visit(tree))
    transformed = ast.unparse(tree)
    filename = f"<cute_emulator:{next(_COUNTER)}>"
    # Tracebacks show the original source lines (the rewrite keeps line numbers).
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    code = compile(tree, filename, "exec")

    fakes = _build_fakes()
    bdict = dict(builtins.__dict__)
    bdict["__import__"] = _make_import(fakes)
    bdict["min"] = _emu_min
    bdict["max"] = _emu_max
    namespace: dict[str, Any] = {
        "__builtins__": bdict,
        "__name__": "maskopt_emulated_module",
        "__emu_ifexp__": _emu_ifexp,
        "__emu_boolop__": _emu_boolop,
        "__emu_not__": _emu_not,
        "__emu_cmpchain__": _emu_cmpchain,
    }
    exec(code, namespace)
    fn = namespace.get(name)
    if not callable(fn):
        raise EmulatorUnsupported(f"module defines no function {name!r}")
    return EmulatedMaskMod(source, namespace, fn, transformed,
                           aux_tensors=aux_tensors, aux_specs=aux_specs)
