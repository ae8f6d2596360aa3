"""
FX import: an inductor-style mask GraphModule -> a `mask.func` in a module.

Follows torch-mlir's `fx_importer.py`: a dispatch table from aten overloads
to emitters, types from each node's `meta["val"]`/`meta["tensor_meta"]`, FX
node names as SSA name hints and the user's source line (from
`meta["stack_trace"]`) as each op's location. An op without an emitter is an
`FXImportError` naming the node (`node.format_node()`) and the source line.

Graph contract (what inductor hands `select_packed_mask_intervals`):
placeholders b, h, q_idx, kv_idx (0-dim int32), then captured tensors, then
captured scalars; one output, a 0-dim bool.

Integer semantics are torch's: ops on int32 wrap, a Python scalar takes the
tensor's dtype, tensor-tensor ops promote to the result dtype in `val` (a
comparison to `torch.result_type` of its operands, where a dimensioned
operand's dtype wins over a 0-dim one's of the same category).

Unsigned dtypes (`_UNSIGNED`) have no IR type of their own: `arith` is
signless and its orderings signed. A uint8, uint16 or uint32 value is held
exactly, zero-extended, in a wider signed type (i32, i32, i64), which signed
comparisons, divisions, min/max and right shifts then compute on exactly;
an op that may leave [0, 2^w) in torch's wrapping arithmetic (`+ - *`,
negation, `<<`, a conversion from another dtype) is reduced back with
`arith.andi` by 2^w - 1. An unsigned aux tensor is `tensor<...xui8>`: its
`mask.load` yields the element's bits (i8), which `arith.extui` zero-extends
to the holding type. A uint64 value is held as its bits in i64: torch 2.13
CPU implements only `*`, `== !=`, `& | ^`, `where` and conversions on
uint16/32/64 (and no promotion with other dtypes), which are the same on
the bits; the other ops are an `FXImportError`, as eager torch raises.
A Python constant combined with an unsigned value must be in
[-2^(w-1), 2^w); torch wraps it into the dtype, and so does the import.

Small tensors are scalarized: the `mask` dialect is scalar, so a value of
static shape with at most `MAX_TENSOR_ELEMENTS` elements (the top-k row
`topk[b, h, q // T]` of VSA, `kv_tile.unsqueeze(-1)`) is imported as its
elements, one SSA value each, in row-major order (`_Tensor`). An aux tensor
indexed in its leading dimensions only yields the loads of the remaining
ones with constant indices; elementwise ops map over the broadcast elements;
`unsqueeze`/`squeeze`/`expand`/`view`/`select` rearrange them; `any`/`all`
reduce them with `ori`/`andi` chains. A larger or dynamically shaped
tensor value is an `FXImportError` naming it.
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import torch
import torch.fx
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    FileLineColLoc,
    IntAttr,
    IntegerType,
    LocationAttr,
    ModuleOp,
    Signedness,
    StringAttr,
    TensorType,
    UnknownLoc,
    i1,
    i8,
    i32,
    i64,
)
from xdsl.ir import Block, Operation, SSAValue
from xdsl.transforms.canonicalization_patterns.utils import const_evaluate_operand

from maskopt.dialects import mask

aten = torch.ops.aten

_SIGNED: dict[torch.dtype, IntegerType] = {
    torch.bool: IntegerType(1),
    torch.int8: i8,
    torch.int16: IntegerType(16),
    torch.int32: IntegerType(32),
    torch.int64: i64,
}
#: torch's unsigned dtypes: (width, the signed IR type their values are held in).
_UNSIGNED: dict[torch.dtype, tuple[int, IntegerType]] = {
    torch.uint8: (8, i32),
    torch.uint16: (16, i32),
    torch.uint32: (32, i64),
    torch.uint64: (64, i64),
}
#: The unsigned dtypes torch 2.13 implements only a few CPU ops for.
_LIMITED_UNSIGNED = (torch.uint16, torch.uint32, torch.uint64)
#: The IR type the values of each torch dtype are computed in.
_DTYPES: dict[torch.dtype, IntegerType] = {
    **_SIGNED,
    **{d: held for d, (_, held) in _UNSIGNED.items()},
}
#: The torch dtype a signless IR type stands for where no dtype is known.
_DTYPE_OF = {t: d for d, t in _SIGNED.items()}
_SUPPORTED_DTYPES = "int8, int16, int32, int64, uint8, uint16, uint32, uint64"

_TORCH_DIR = os.path.dirname(torch.__file__)
#: The most elements of a tensor value the importer scalarizes.
MAX_TENSOR_ELEMENTS = 32
_FRAME = re.compile(r'File "([^"]+)", line (\d+)')


class FXImportError(Exception):
    """The graph has something maskopt cannot import; the message says what and where."""


def element_type(dtype: torch.dtype, what: str) -> IntegerType:
    """The IR type values of `dtype` are computed in (see `_UNSIGNED`)."""
    if dtype not in _DTYPES:
        raise FXImportError(
            f"{what} has dtype {dtype}; mask_mods index with bool and integer "
            f"tensors ({_SUPPORTED_DTYPES})"
        )
    return _DTYPES[dtype]


def storage_type(dtype: torch.dtype, what: str) -> IntegerType:
    """The IR type of an aux tensor's elements (or an aux scalar) of `dtype`:
    an unsigned dtype's is the unsigned integer of its width (`ui8`)."""
    if dtype in _UNSIGNED:
        return IntegerType(_UNSIGNED[dtype][0], Signedness.UNSIGNED)
    return element_type(dtype, what)


def _unsigned_width(dtype: torch.dtype | None) -> int | None:
    """The width of an unsigned dtype held exactly (uint8/16/32), else None."""
    u = _UNSIGNED.get(dtype)  # type: ignore[arg-type]
    return u[0] if u is not None and u[0] < 64 else None


def _val(node: torch.fx.Node) -> Any:
    meta = node.meta.get("tensor_meta")
    if meta is not None:
        return meta
    return node.meta.get("val")


def node_dtype(node: torch.fx.Node) -> torch.dtype | None:
    v = _val(node)
    return getattr(v, "dtype", None)


def node_shape(node: torch.fx.Node) -> tuple[int, ...] | None:
    v = _val(node)
    shape = getattr(v, "shape", None)
    return None if shape is None else tuple(int(d) for d in shape)


def user_location(node: torch.fx.Node) -> LocationAttr:
    """
    The innermost frame of the user's code in the node's stack trace, with
    the column where the expression that made the node starts (from the
    caret line under the source line, as `trace_mask_mod` records it; the
    first column of the statement when there is none).
    """
    trace = node.meta.get("stack_trace") or ""
    lines = trace.splitlines()
    found = None
    for i, line in enumerate(lines):
        m = _FRAME.search(line)
        if m and not os.path.abspath(m.group(1)).startswith(_TORCH_DIR):
            filename, lineno = m.group(1), int(m.group(2))
            found = (filename, lineno, _column(filename, lineno, lines[i + 1 : i + 3]))
    if found is None:
        return UnknownLoc()
    return FileLineColLoc(StringAttr(found[0]), IntAttr(found[1]), IntAttr(found[2]))


def _column(filename: str, lineno: int, following: list[str]) -> int:
    """The 1-based column a frame points at: its caret line, else the statement start."""
    import linecache

    source = linecache.getline(filename, lineno)
    indent = len(source) - len(source.lstrip()) if source.strip() else 0
    if len(following) == 2 and not _FRAME.search(following[0]):
        carets = following[1]
        body = carets.strip()
        if body and set(body) <= set("^~") and carets.startswith("    "):
            # The formatted line is the stripped source line after 4 spaces.
            return len(carets) - len(carets.lstrip()) - 4 + indent + 1
    return indent + 1


def user_source(node: torch.fx.Node) -> str | None:
    """The source text of the expression that made `node`: the part of the
    innermost user frame's line underlined by its caret line, or None."""
    lines = (node.meta.get("stack_trace") or "").splitlines()
    text = None
    for i, line in enumerate(lines):
        m = _FRAME.search(line)
        if m and not os.path.abspath(m.group(1)).startswith(_TORCH_DIR):
            text = None
            if i + 2 < len(lines) and not _FRAME.search(lines[i + 1]):
                src, carets = lines[i + 1], lines[i + 2]
                body = carets.strip()
                if body and set(body) <= set("^~"):
                    start = len(carets) - len(carets.lstrip())
                    text = src[start : start + len(body)] or None
    return text


def node_text(node: torch.fx.Node) -> str:
    """A node for error messages: its source expression and aten target when
    the stack trace has them (`q_idx.float()` (prims.convert_element_type)),
    else `node.format_node()`."""
    source = user_source(node)
    if source is None:
        return f"`{node.format_node()}`"
    target = node.target
    name = getattr(target, "__name__", None) or str(target)
    if hasattr(target, "namespace") and hasattr(target, "_overloadpacket"):
        name = f"{target.namespace}.{target._overloadpacket.__name__}"
    return f"`{source}` ({name})"


def format_location(loc: LocationAttr) -> str:
    if isinstance(loc, FileLineColLoc):
        return f"{loc.filename.data}:{loc.line.data}:{loc.column.data}"
    return "<unknown>"


Emitter = Callable[["_Importer", torch.fx.Node], SSAValue]


@dataclass
class _Importer:
    gm: torch.fx.GraphModule
    block: Block
    values: dict[torch.fx.Node, SSAValue] = field(default_factory=dict)
    location: LocationAttr = field(default_factory=UnknownLoc)
    #: The element of a tensor result an elementwise emitter is emitting
    #: (None for a 0-dim result): `scalar` picks the operands' elements.
    element: tuple[int, ...] | None = None
    #: Rows of aux tensors (`_Row`) loaded element by element, by node.
    rows: dict[torch.fx.Node, _Tensor] = field(default_factory=dict)
    #: The node being imported (for error messages).
    current: torch.fx.Node | None = None

    # Building ---------------------------------------------------------------

    def add(self, op: Operation, name: str | None = None) -> SSAValue:
        op.location = self.location
        self.block.add_op(op)
        if not op.results:
            return None  # type: ignore[return-value]
        result = op.results[0]
        if name is not None:
            result.name_hint = name
        return result

    def const(self, value: int | bool, t: IntegerType) -> SSAValue:
        if t == i1:
            value = -1 if value else 0
        return self.add(arith.ConstantOp.from_int_and_width(int(value), t, truncate_bits=True))

    def constant(self, value: int | bool, dtype: torch.dtype, what: str) -> SSAValue:
        """A Python constant as a value of `dtype`: it must fit a signed
        dtype; an unsigned one takes [-2^(w-1), 2^w), wrapped into [0, 2^w)
        as torch converts it."""
        t = element_type(dtype, what)
        if t == i1:
            return self.const(bool(value), i1)
        value = int(value)
        if dtype in _UNSIGNED:
            w = _UNSIGNED[dtype][0]
            if not -(2 ** (w - 1)) <= value < 2**w:
                raise FXImportError(f"{self.constant_site(what)}: the constant {value} does not fit {dtype}")
            return self.const(value % 2**w, t)
        r = t.width.data
        if not -(2 ** (r - 1)) <= value < 2 ** (r - 1):
            raise FXImportError(f"{self.constant_site(what)}: the constant {value} does not fit {t}")
        return self.const(value, t)

    def constant_site(self, what: str) -> str:
        """Where a constant is used, for errors: the node being imported."""
        node = self.current
        if node is None or node.name != what:
            return what
        return f"{self.where(node)}: {node_text(node)}"

    def cast(
        self, v: SSAValue, t: IntegerType | torch.dtype, src: torch.dtype | None = None
    ) -> SSAValue:
        """Convert `v`, a value of dtype `src` (None: the signed dtype of its
        IR type), to `t` (a dtype, or an IR type standing for its signed
        dtype) like torch's `.to(dtype)`: to bool `!= 0`; else the value
        modulo 2^w of the target (a sign extension or truncation of the held
        value, then, into an unsigned dtype, the mask 2^w - 1 unless the
        value is an unsigned one that already fits)."""
        dst = t if isinstance(t, torch.dtype) else _DTYPE_OF[t]
        t = _DTYPES[dst]
        if src is None:
            src = _DTYPE_OF.get(v.type)  # type: ignore[arg-type]
        if src == dst and v.type == t:
            return v
        assert isinstance(v.type, IntegerType)
        if t == i1:
            zero = self.const(0, v.type)
            return self.add(arith.CmpiOp(v, zero, "ne"))
        if v.type == i1:
            return self.add(arith.ExtUIOp(v, t))
        w, ws = _unsigned_width(dst), _unsigned_width(src)
        masked = w is not None and not (ws is not None and ws <= w)
        if v.type.width.data > t.width.data:
            # Mask first, then truncate: the truncation of a value in
            # [0, 2^w) cannot wrap (value ranges keep it exact).
            x = self.wrapped(v, dst) if masked else v
            return self.add(arith.TruncIOp(x, t))
        x = v
        if v.type.width.data < t.width.data:
            x = self.add(arith.ExtSIOp(v, t))
        return self.wrapped(x, dst) if masked else x

    def wrapped(self, v: SSAValue, dtype: torch.dtype) -> SSAValue:
        """`v` reduced into [0, 2^w) for a uint8/16/32 `dtype` (torch's wrap)."""
        w = _unsigned_width(dtype)
        if w is None:
            return v
        return self.add(arith.AndIOp(v, self.const(2**w - 1, v.type)))  # type: ignore[arg-type]

    def operand(self, arg: Any, t: IntegerType | torch.dtype, what: str) -> SSAValue:
        """An FX argument (node or Python scalar) as a value of dtype `t` (an
        IR type stands for its signed dtype)."""
        dtype = t if isinstance(t, torch.dtype) else _DTYPE_OF[t]
        if isinstance(arg, torch.fx.Node):
            return self.cast(self.scalar(arg), dtype, node_dtype(arg))
        if isinstance(arg, (bool, int)):
            return self.constant(arg, dtype, what)
        raise FXImportError(f"{what}: unsupported argument {arg!r} of type {type(arg).__name__}")

    def load(self, tensor: SSAValue, indices: Sequence[SSAValue]) -> SSAValue:
        """One element of an aux tensor, as the value its dtype computes in:
        an unsigned element's bits zero-extended (`_UNSIGNED`)."""
        v = self.add(mask.LoadOp(tensor, indices))
        return self.widened(v, tensor.type.element_type)  # type: ignore[attr-defined]

    def widened(self, v: SSAValue, storage: IntegerType) -> SSAValue:
        """A loaded (or aux scalar) value of type `storage` as the value of
        its dtype: an unsigned one of at most 32 bits zero-extended."""
        if storage.signedness.data != Signedness.UNSIGNED or storage.width.data == 64:
            return v
        return self.add(arith.ExtUIOp(v, _held_type(storage)))

    def result_type(self, node: torch.fx.Node) -> IntegerType:
        dtype = node_dtype(node)
        t = _DTYPES.get(dtype)  # type: ignore[arg-type]
        if t is not None:  # the common case: no error message to format
            return t
        if dtype is None:
            raise FXImportError(f"{self.where(node)}: {node_text(node)} has no dtype metadata")
        return element_type(dtype, f"{self.where(node)}: {node_text(node)}")

    def result_dtype(self, node: torch.fx.Node) -> torch.dtype:
        """The dtype of a node's value (an `FXImportError` if maskopt has no
        IR type for it)."""
        self.result_type(node)
        return node_dtype(node)  # type: ignore[return-value]

    def promoted(self, node: torch.fx.Node, args: Sequence[Any]) -> torch.dtype:
        """The dtype torch computes a comparison in: `torch.result_type` of
        its operands (a dimensioned tensor's dtype wins over a 0-dim one's
        of the same category: a uint8 row compared with q_idx is compared
        in uint8). Without metadata, the widest operand."""
        operands: list[Any] = []
        for a in args:
            if isinstance(a, torch.fx.Node):
                dtype, shape = node_dtype(a), getattr(_val(a), "shape", None)
                if dtype is None or shape is None:
                    return self._widest(args)
                operands.append(torch.empty((1,) * len(shape), dtype=dtype))
            else:
                operands.append(a)
        if not any(isinstance(o, torch.Tensor) for o in operands):
            return self._widest(args)
        dtype = torch.result_type(*operands)
        if dtype not in _DTYPES:  # `q_idx < 3.5` compares in float
            raise FXImportError(
                f"{self.where(node)}: {node_text(node)} compares in {dtype}; mask_mods "
                f"compare bool and integer values ({_SUPPORTED_DTYPES})"
            )
        return dtype

    def _widest(self, args: Sequence[Any]) -> torch.dtype:
        types = [self.scalar(a).type for a in args if isinstance(a, torch.fx.Node)]
        ints = [t for t in types if isinstance(t, IntegerType) and t != i1]
        if ints:
            return _DTYPE_OF[max(ints, key=lambda t: t.width.data)]
        if any(isinstance(a, int) and not isinstance(a, bool) for a in args):
            return torch.int64
        return torch.bool

    def check_unsigned_support(self, node: torch.fx.Node) -> None:
        """uint16/32/64 values take part only in the ops torch 2.13 implements
        for them on CPU (`_LIMITED_UNSIGNED_OPS`); fake tracing does not
        check that, eager torch raises NotImplementedError."""
        if node.target in _LIMITED_UNSIGNED_OPS:
            return
        dtypes = [node_dtype(node)] + [
            node_dtype(a) for a in _flat_args(node.args) if isinstance(a, torch.fx.Node)
        ]
        for d in dtypes:
            if d in _LIMITED_UNSIGNED:
                raise FXImportError(
                    f"{self.where(node)}: {node_text(node)} computes on {d}, for which "
                    "torch 2.13 implements only `*`, `==`, `!=`, `&`, `|`, `^`, "
                    "torch.where and conversions on CPU (eager torch raises "
                    "NotImplementedError); convert it first, e.g. with `.int()` or `.long()`"
                )

    def where(self, node: torch.fx.Node) -> str:
        return format_location(user_location(node))

    # Small tensors ----------------------------------------------------------

    def scalar(self, arg: torch.fx.Node) -> SSAValue:
        """The value of `arg`; of a tensor, the element that broadcasts to
        the element being emitted (`self.element`)."""
        v = self.values[arg]
        if isinstance(v, _Row):
            v = self.materialize(arg)
        if isinstance(v, _Tensor):
            if self.element is None:
                raise FXImportError(
                    f"{self.where(arg)}: {node_text(arg)} is a tensor of shape "
                    f"{list(v.shape)} where the mask_mod needs a scalar"
                )
            return v.pick(self.element)
        return v

    def tensor(self, arg: torch.fx.Node) -> _Tensor:
        """The value of `arg` as a `_Tensor` (a 0-dim one for a scalar)."""
        v = self.values[arg]
        if isinstance(v, _Row):
            return self.materialize(arg)
        if isinstance(v, _Tensor):
            return v
        if isinstance(v.type, TensorType):
            raise FXImportError(
                f"{self.where(arg)}: aux tensor {arg.name} is used as a whole; a mask_mod "
                "indexes aux tensors"
            )
        return _Tensor((), (v,), v.type)  # type: ignore[arg-type]

    def check_size(self, node: torch.fx.Node, shape: Sequence[int]) -> None:
        n = math.prod(shape)
        if n > MAX_TENSOR_ELEMENTS:
            raise FXImportError(
                f"{self.where(node)}: {node_text(node)} is a tensor of shape {list(shape)} "
                f"({n} elements); the mask dialect is scalar and maskopt scalarizes "
                f"tensor values of at most {MAX_TENSOR_ELEMENTS} elements"
            )

    def result_shape(self, node: torch.fx.Node) -> tuple[int, ...]:
        """The static shape of a node's value (() without metadata)."""
        shape = getattr(_val(node), "shape", None)
        if shape is None:
            return ()
        if not all(isinstance(d, int) for d in shape):
            raise FXImportError(
                f"{self.where(node)}: {node_text(node)} has a dynamic shape "
                f"{list(shape)}; maskopt scalarizes tensor values of static shape"
            )
        return tuple(shape)

    def materialize(self, node: torch.fx.Node) -> _Tensor:
        """The elements of the aux tensor row `node` (a `_Row`): one load each,
        with constant indices for the dimensions the mask_mod left open."""
        if node in self.rows:
            return self.rows[node]
        row = self.values[node]
        assert isinstance(row, _Row) and isinstance(row.tensor.type, TensorType)
        shape = tuple(row.tensor.type.get_shape()[len(row.prefix) :])
        self.check_size(node, shape)
        saved, self.location = self.location, user_location(node)
        elems = []
        for idx in _ndindex(shape):
            consts = [self.const(i, i64) for i in idx]
            elems.append(self.load(row.tensor, [*row.prefix, *consts]))
        self.location = saved
        for i, e in enumerate(elems):
            e.name_hint = f"{node.name}_{i}"
        t = _Tensor(shape, tuple(elems), _held_type(row.tensor.type.element_type))  # type: ignore[arg-type]
        self.rows[node] = t
        return t

    def elementwise(self, node: torch.fx.Node, emitter: Emitter, shape: tuple[int, ...]) -> _Tensor:
        """An elementwise op on tensors: the scalar emitter once per element."""
        for a in node.args:  # a row too large to load is the culprit, not its user
            if isinstance(a, torch.fx.Node) and isinstance(self.values.get(a), _Row):
                self.materialize(a)
        self.check_size(node, shape)
        elems = []
        try:
            for idx in _ndindex(shape):
                self.element = idx
                elems.append(emitter(self, node))
        finally:
            self.element = None
        return _Tensor(shape, tuple(elems), self.result_type(node))

    # Import -----------------------------------------------------------------

    def run(self) -> SSAValue:
        output = None
        # Nodes made by one source expression share their stack trace: parse
        # each distinct trace once (the location depends only on the trace).
        locations: dict[str, LocationAttr] = {}
        for node in self.gm.graph.nodes:
            trace = node.meta.get("stack_trace") or ""
            location = locations.get(trace)
            if location is None:
                location = locations[trace] = user_location(node)
            self.location = location
            if node.op == "placeholder":
                continue
            if node.op == "output":
                output = node
                break
            if node.op != "call_function":
                raise FXImportError(
                    f"{self.where(node)}: unsupported node in mask_mod: "
                    f"{node_text(node)}"
                )
            self.current = node
            self.check_unsigned_support(node)
            emitter = EMITTERS.get(node.target)
            if emitter is not None:
                shape = self.result_shape(node)
                value = self.elementwise(node, emitter, shape) if shape else emitter(self, node)
            elif (shaper := TENSOR_EMITTERS.get(node.target)) is not None:
                value = shaper(self, node)
            else:
                raise FXImportError(
                    f"{self.where(node)}: unsupported operation in mask_mod: "
                    f"{node_text(node)}"
                )
            if isinstance(value, _Tensor):
                for i, e in enumerate(value.elems):
                    if e.name_hint is None:
                        e.name_hint = f"{node.name}_{i}"
            elif value.name_hint is None:
                value.name_hint = node.name
            self.values[node] = value
        if output is None:
            raise FXImportError("the mask graph has no output")
        (result,) = output.args
        if isinstance(result, (tuple, list)) and len(result) == 1:
            (result,) = result
        if isinstance(result, bool):
            return self.const(result, i1)
        if not isinstance(result, torch.fx.Node):
            raise FXImportError(f"mask_mod returns {result!r}, not a bool tensor")
        value = self.values[result]
        if isinstance(value, (_Tensor, _Row)):
            raise FXImportError(
                f"{self.where(result)}: mask_mod returns a tensor of shape "
                f"{list(self.result_shape(result))}, not a 0-dim bool tensor"
            )
        if value.type != i1:
            raise FXImportError(
                f"{self.where(result)}: mask_mod returns {node_dtype(result)}, "
                "not a bool tensor"
            )
        return value


# Emitters ---------------------------------------------------------------------


#: Ops whose exact result on values in [0, 2^w) may leave it: a uint8/16/32
#: result is reduced back (`_Importer.wrapped`).
_WRAPPING = (arith.AddiOp, arith.SubiOp, arith.MuliOp, arith.ShLIOp)


def _binary(op_cls) -> Emitter:
    def emit(self: _Importer, node: torch.fx.Node) -> SSAValue:
        d = self.result_dtype(node)
        lhs = self.operand(node.args[0], d, node.name)
        rhs = self.operand(node.args[1], d, node.name)
        if op_cls in _WRAPPING and _unsigned_width(d) is not None:
            return self.wrapped(self.add(op_cls(lhs, rhs)), d)
        return self.add(op_cls(lhs, rhs), node.name)

    return emit


def _add_sub(op_cls) -> Emitter:
    """aten.add/sub with `alpha`: x + alpha * y."""

    def emit(self: _Importer, node: torch.fx.Node) -> SSAValue:
        d = self.result_dtype(node)
        lhs = self.operand(node.args[0], d, node.name)
        rhs = self.operand(node.args[1], d, node.name)
        alpha = node.kwargs.get("alpha", node.args[2] if len(node.args) > 2 else 1)
        if alpha != 1:
            if not isinstance(alpha, int):
                raise FXImportError(f"{self.where(node)}: non-integer alpha in {node_text(node)}")
            rhs = self.add(arith.MuliOp(rhs, self.operand(alpha, d, node.name)))
        if _unsigned_width(d) is not None:
            return self.wrapped(self.add(op_cls(lhs, rhs)), d)
        return self.add(op_cls(lhs, rhs), node.name)

    return emit


def _rsub(self: _Importer, node: torch.fx.Node) -> SSAValue:
    d = self.result_dtype(node)
    lhs = self.operand(node.args[0], d, node.name)
    rhs = self.operand(node.args[1], d, node.name)
    alpha = node.kwargs.get("alpha", 1)
    if alpha != 1:
        lhs = self.add(arith.MuliOp(lhs, self.operand(alpha, d, node.name)))
    if _unsigned_width(d) is not None:
        return self.wrapped(self.add(arith.SubiOp(rhs, lhs)), d)
    return self.add(arith.SubiOp(rhs, lhs), node.name)


def _div_mode(self: _Importer, node: torch.fx.Node) -> SSAValue:
    mode = node.kwargs.get("rounding_mode")
    d = self.result_dtype(node)
    if d == torch.bool or mode not in ("floor", "trunc"):
        raise FXImportError(
            f"{self.where(node)}: true division in a mask_mod is float arithmetic: "
            f"{node_text(node)}; use // (floor division)"
        )
    lhs = self.operand(node.args[0], d, node.name)
    rhs = self.operand(node.args[1], d, node.name)
    # On unsigned values (held >= 0) floor and truncation agree.
    op = arith.FloorDivSIOp if mode == "floor" else arith.DivSIOp
    return self.add(op(lhs, rhs), node.name)


def _floor_divide(self: _Importer, node: torch.fx.Node) -> SSAValue:
    d = self.result_dtype(node)
    lhs = self.operand(node.args[0], d, node.name)
    rhs = self.operand(node.args[1], d, node.name)
    return self.add(arith.FloorDivSIOp(lhs, rhs), node.name)


def _compare(pred: str) -> Emitter:
    def emit(self: _Importer, node: torch.fx.Node) -> SSAValue:
        d = self.promoted(node, node.args[:2])
        lhs = self.operand(node.args[0], d, node.name)
        rhs = self.operand(node.args[1], d, node.name)
        if d == torch.bool:  # bools compare as 0/1 integers
            lhs, rhs = self.cast(lhs, i8, torch.bool), self.cast(rhs, i8, torch.bool)
        # Unsigned values are held zero-extended: signed predicates order them.
        return self.add(arith.CmpiOp(lhs, rhs, pred), node.name)

    return emit


def _bitwise(op_cls) -> Emitter:
    return _binary(op_cls)


def _logical(op_cls) -> Emitter:
    def emit(self: _Importer, node: torch.fx.Node) -> SSAValue:
        lhs = self.operand(node.args[0], torch.bool, node.name)
        rhs = self.operand(node.args[1], torch.bool, node.name)
        return self.add(op_cls(lhs, rhs), node.name)

    return emit


def _bitwise_not(self: _Importer, node: torch.fx.Node) -> SSAValue:
    d = self.result_dtype(node)
    t = self.result_type(node)
    x = self.operand(node.args[0], d, node.name)
    w = _unsigned_width(d)
    ones = -1 if w is None else 2**w - 1
    return self.add(arith.XOrIOp(x, self.const(ones, t)), node.name)


def _logical_not(self: _Importer, node: torch.fx.Node) -> SSAValue:
    x = self.operand(node.args[0], torch.bool, node.name)
    return self.add(arith.XOrIOp(x, self.const(True, i1)), node.name)


def _neg(self: _Importer, node: torch.fx.Node) -> SSAValue:
    d = self.result_dtype(node)
    t = self.result_type(node)
    x = self.operand(node.args[0], d, node.name)
    if _unsigned_width(d) is not None:
        return self.wrapped(self.add(arith.SubiOp(self.const(0, t), x)), d)
    return self.add(arith.SubiOp(self.const(0, t), x), node.name)


def _abs(self: _Importer, node: torch.fx.Node) -> SSAValue:
    d = self.result_dtype(node)
    t = self.result_type(node)
    x = self.operand(node.args[0], d, node.name)
    if d in _UNSIGNED:
        return x  # abs of an unsigned value is the value
    zero = self.const(0, t)
    neg = self.add(arith.SubiOp(zero, x))
    is_neg = self.add(arith.CmpiOp(x, zero, "slt"))
    return self.add(arith.SelectOp(is_neg, neg, x), node.name)


def _where(self: _Importer, node: torch.fx.Node) -> SSAValue:
    d = self.result_dtype(node)
    cond = self.operand(node.args[0], torch.bool, node.name)
    x = self.operand(node.args[1], d, node.name)
    y = self.operand(node.args[2], d, node.name)
    return self.add(arith.SelectOp(cond, x, y), node.name)


def _clamp(self: _Importer, node: torch.fx.Node) -> SSAValue:
    d = self.result_dtype(node)
    x = self.operand(node.args[0], d, node.name)
    lo = node.args[1] if len(node.args) > 1 else node.kwargs.get("min")
    hi = node.args[2] if len(node.args) > 2 else node.kwargs.get("max")
    if lo is not None:
        x = self.add(arith.MaxSIOp(x, self.operand(lo, d, node.name)))
    if hi is not None:
        x = self.add(arith.MinSIOp(x, self.operand(hi, d, node.name)))
    return x


def _full(self: _Importer, node: torch.fx.Node) -> SSAValue:
    """One element of `torch.full(size, value)` (elementwise: no operands)."""
    value = node.args[1]
    d = self.result_dtype(node)
    if not isinstance(value, (bool, int)):
        raise FXImportError(f"{self.where(node)}: non-integer constant in {node_text(node)}")
    if d in _UNSIGNED:
        return self.constant(value, d, f"{self.where(node)}: {node_text(node)}")
    return self.const(value, self.result_type(node))


def _scalar_tensor(self: _Importer, node: torch.fx.Node) -> SSAValue:
    d = self.result_dtype(node)
    if d in _UNSIGNED:
        return self.constant(node.args[0], d, f"{self.where(node)}: {node_text(node)}")
    return self.const(node.args[0], self.result_type(node))


def _convert(self: _Importer, node: torch.fx.Node) -> SSAValue:
    arg = node.args[0]
    return self.cast(self.scalar(arg), self.result_dtype(node), node_dtype(arg))


def _identity(self: _Importer, node: torch.fx.Node) -> SSAValue:
    return self.scalar(node.args[0])


def _held_type(storage: IntegerType) -> IntegerType:
    """The IR type the values of an aux element type are computed in: an
    unsigned one's is its dtype's (`_UNSIGNED`), any other its own."""
    if storage.signedness.data != Signedness.UNSIGNED:
        return storage
    return {8: i32, 16: i32, 32: i64, 64: i64}[storage.width.data]


@dataclass(frozen=True)
class _Row:
    """An aux tensor indexed in its leading dimensions only (`t[i]` of a 2-D `t`)."""

    tensor: SSAValue
    prefix: tuple[SSAValue, ...]
    name_hint: str | None = None


@dataclass(frozen=True)
class _Tensor:
    """
    A tensor value of static shape, scalarized: its elements in row-major
    order (`elems[i]` is a scalar SSA value of `element_type`). 0-dim values
    are plain SSA values; a `_Tensor` has at least one dimension (or is the
    0-dim view `_Importer.tensor` makes of a scalar).
    """

    shape: tuple[int, ...]
    elems: tuple[SSAValue, ...]
    element_type: IntegerType

    def flat(self, idx: Sequence[int]) -> int:
        flat = 0
        for d, i in zip(self.shape, idx):
            flat = flat * d + i
        return flat

    def pick(self, idx: tuple[int, ...]) -> SSAValue:
        """The element that broadcasts to position `idx` of a result of rank
        len(idx) >= rank (numpy broadcasting: trailing dimensions align,
        size-1 dimensions repeat)."""
        own = idx[len(idx) - len(self.shape) :] if self.shape else ()
        return self.elems[self.flat([0 if d == 1 else i for d, i in zip(self.shape, own)])]


def _ndindex(shape: Sequence[int]) -> Iterator[tuple[int, ...]]:
    """Row-major positions of a tensor of `shape` (one, `()`, for a 0-dim one)."""
    if not shape:
        yield ()
        return
    for i in range(shape[0]):
        for rest in _ndindex(shape[1:]):
            yield (i, *rest)


def _dim(self: _Importer, node: torch.fx.Node, dim: int, rank: int) -> int:
    """A dimension argument normalized to [0, rank) (a 0-dim tensor takes 0 and -1)."""
    n = max(rank, 1)
    if not isinstance(dim, int) or not -n <= dim < n:
        raise FXImportError(f"{self.where(node)}: dimension {dim!r} out of range in {node_text(node)}")
    return dim % n


def _index(self: _Importer, node: torch.fx.Node) -> SSAValue | _Row | _Tensor:
    """
    `t[i, j, ...]` of an aux tensor: one `mask.load` per element. Scalar
    indices into fewer dimensions than `t` has give a `_Row` (loaded when it
    is used as a value); tensor indices (`sizes[tiles]`) broadcast, and the
    result has their shape followed by the dimensions left open.
    """
    base, indices = node.args
    if not isinstance(base, torch.fx.Node):
        raise FXImportError(f"{self.where(node)}: unsupported {node_text(node)}")
    tensor = self.values[base]
    prefix: tuple[SSAValue, ...] = ()
    if isinstance(tensor, _Row):
        tensor, prefix = tensor.tensor, tensor.prefix
    if isinstance(tensor, _Tensor):
        return _index_scalarized(self, node, tensor, indices)
    if not isinstance(tensor.type, TensorType):
        raise FXImportError(
            f"{self.where(node)}: {node_text(node)} indexes a value that is "
            "not an aux tensor"
        )
    shape = tuple(tensor.type.get_shape())
    rank = len(shape) - len(prefix)
    if len(indices) > rank or any(i is None for i in indices):
        raise FXImportError(
            f"{self.where(node)}: {node_text(node)} must index the "
            f"dimensions of {base.name} with scalars"
        )
    index_tensors: list[_Tensor] = []
    for i in indices:
        if isinstance(i, torch.fx.Node):
            if node_dtype(i) in _UNSIGNED:
                raise FXImportError(
                    f"{self.where(node)}: {node_text(node)} indexes {base.name} with a "
                    f"{node_dtype(i)} tensor, which torch reads as a boolean mask "
                    "(uint8) or does not take as an index; convert the index with "
                    "`.long()` or `.int()`"
                )
            t = self.tensor(i)
            if t.element_type == i1:
                raise FXImportError(f"{self.where(node)}: boolean index in {node_text(node)}")
            index_tensors.append(t)
        else:
            index_tensors.append(_Tensor((), (self.operand(i, i64, node.name),), i64))
    batch = tuple(torch.broadcast_shapes(*(t.shape for t in index_tensors)))
    rest = shape[len(prefix) + len(indices) :]
    if not batch and rest:
        return _Row(tensor, (*prefix, *(t.elems[0] for t in index_tensors)), node.name)
    self.check_size(node, batch + rest)
    elems = []
    for idx in _ndindex(batch):
        values = [*prefix, *(t.pick(idx) for t in index_tensors)]
        for r in _ndindex(rest):
            consts = [self.const(j, i64) for j in r]
            elems.append(self.load(tensor, [*values, *consts]))
    if not batch + rest:
        elems[0].name_hint = node.name
        return elems[0]
    return _Tensor(batch + rest, tuple(elems), _held_type(tensor.type.element_type))  # type: ignore[arg-type]


def _index_scalarized(
    self: _Importer, node: torch.fx.Node, t: _Tensor, indices: Sequence[Any]
) -> SSAValue | _Tensor:
    """`v[i]` of a scalarized tensor `v` (`topk[b, h, q // T][0]`) with constant indices."""
    position = []
    for d, i in enumerate(indices):
        c = i
        if isinstance(i, torch.fx.Node):
            c = const_evaluate_operand(self.scalar(i))
        if not isinstance(c, int) or d >= len(t.shape) or not -t.shape[d] <= c < t.shape[d]:
            raise FXImportError(
                f"{self.where(node)}: {node_text(node)} indexes a tensor value (not an aux "
                "tensor) with a non-constant or out-of-range index"
            )
        position.append(c % t.shape[d])
    rest = t.shape[len(position) :]
    elems = tuple(t.elems[t.flat(position + list(r))] for r in _ndindex(rest))
    return _reshaped(_Tensor(rest, elems, t.element_type), rest)


def _unsqueeze(self: _Importer, node: torch.fx.Node) -> _Tensor:
    t = self.tensor(node.args[0])
    d = _dim(self, node, node.args[1], len(t.shape) + 1)
    return _Tensor(t.shape[:d] + (1,) + t.shape[d:], t.elems, t.element_type)


def _reshaped(t: _Tensor, shape: tuple[int, ...]) -> SSAValue | _Tensor:
    """The elements of `t` (row-major) as a tensor of `shape`; a scalar for ()."""
    return t.elems[0] if not shape else _Tensor(shape, t.elems, t.element_type)


def _view(self: _Importer, node: torch.fx.Node) -> SSAValue | _Tensor:
    """squeeze / view / reshape: the same elements in the same order."""
    t = self.tensor(node.args[0])
    shape = self.result_shape(node)
    if math.prod(shape) != len(t.elems):
        raise FXImportError(f"{self.where(node)}: element count changes in {node_text(node)}")
    return _reshaped(t, shape)


def _expand(self: _Importer, node: torch.fx.Node) -> SSAValue | _Tensor:
    t = self.tensor(node.args[0])
    shape = self.result_shape(node)
    self.check_size(node, shape)
    return _reshaped(_Tensor(shape, tuple(t.pick(i) for i in _ndindex(shape)), t.element_type), shape)


def _select(self: _Importer, node: torch.fx.Node) -> SSAValue | _Tensor:
    """`t.select(dim, i)` (`t[..., i]`) with a constant i."""
    t = self.tensor(node.args[0])
    d = _dim(self, node, node.args[1], len(t.shape))
    i = node.args[2]
    if not t.shape or not isinstance(i, int) or not -t.shape[d] <= i < t.shape[d]:
        raise FXImportError(f"{self.where(node)}: unsupported {node_text(node)}")
    i %= t.shape[d]
    shape = t.shape[:d] + t.shape[d + 1 :]
    elems = tuple(t.elems[t.flat(idx[:d] + (i,) + idx[d:])] for idx in _ndindex(shape))
    return _reshaped(_Tensor(shape, elems, t.element_type), shape)


def _reduce(op_cls, empty: bool) -> Emitter:
    """`any` (`ori` chain) / `all` (`andi` chain) over some or all dimensions."""

    def emit(self: _Importer, node: torch.fx.Node) -> SSAValue | _Tensor:
        t = self.tensor(node.args[0])
        rank = len(t.shape)
        dim = node.args[1] if len(node.args) > 1 else node.kwargs.get("dim")
        keepdim = node.args[2] if len(node.args) > 2 else node.kwargs.get("keepdim", False)
        if dim is None:
            dims = set(range(rank))
        else:
            dims = {_dim(self, node, d, rank) for d in (dim if isinstance(dim, (list, tuple)) else [dim])}
            if rank == 0:
                dims = set()
        kept = [d for d in range(rank) if d not in dims]
        reduced = [d for d in range(rank) if d in dims]
        out = []
        for k in _ndindex([t.shape[d] for d in kept]):
            acc: SSAValue | None = None
            for r in _ndindex([t.shape[d] for d in reduced]):
                full = [0] * rank
                for d, i in zip(kept, k):
                    full[d] = i
                for d, i in zip(reduced, r):
                    full[d] = i
                bit = self.cast(t.elems[t.flat(full)], i1)
                acc = bit if acc is None else self.add(op_cls(acc, bit))
            out.append(acc if acc is not None else self.const(empty, i1))
        shape = tuple(1 if d in dims else t.shape[d] for d in range(rank)) if keepdim else tuple(
            t.shape[d] for d in kept
        )
        if not shape:
            return out[0]
        return _Tensor(shape, tuple(out), i1)

    return emit


def _shift(op_cls) -> Emitter:
    def emit(self: _Importer, node: torch.fx.Node) -> SSAValue:
        d = self.result_dtype(node)
        t = self.result_type(node)
        width = _unsigned_width(d) or t.width.data
        amount = node.args[1]
        if not isinstance(amount, int) or not 0 <= amount < width:
            raise FXImportError(
                f"{self.where(node)}: shift by a non-constant or out-of-range "
                f"amount in {node_text(node)}"
            )
        x = self.operand(node.args[0], d, node.name)
        # An unsigned value is held >= 0: the arithmetic >> is the logical one.
        if op_cls is arith.ShLIOp and _unsigned_width(d) is not None:
            return self.wrapped(self.add(op_cls(x, self.const(amount, t))), d)
        return self.add(op_cls(x, self.const(amount, t)), node.name)

    return emit


EMITTERS: dict[Any, Emitter] = {
    aten.add.Tensor: _add_sub(arith.AddiOp),
    aten.add.Scalar: _add_sub(arith.AddiOp),
    aten.sub.Tensor: _add_sub(arith.SubiOp),
    aten.sub.Scalar: _add_sub(arith.SubiOp),
    aten.rsub.Scalar: _rsub,
    aten.rsub.Tensor: _rsub,
    aten.mul.Tensor: _binary(arith.MuliOp),
    aten.mul.Scalar: _binary(arith.MuliOp),
    aten.div.Tensor_mode: _div_mode,
    aten.div.Scalar_mode: _div_mode,
    aten.floor_divide.default: _floor_divide,
    aten.remainder.Tensor: _binary(mask.FloorModOp),
    aten.remainder.Scalar: _binary(mask.FloorModOp),
    aten.fmod.Tensor: _binary(arith.RemSIOp),
    aten.fmod.Scalar: _binary(arith.RemSIOp),
    aten.minimum.default: _binary(arith.MinSIOp),
    aten.maximum.default: _binary(arith.MaxSIOp),
    aten.clamp.default: _clamp,
    aten.clamp_min.default: lambda self, node: _clamp_one(self, node, arith.MaxSIOp),
    aten.clamp_max.default: lambda self, node: _clamp_one(self, node, arith.MinSIOp),
    aten.neg.default: _neg,
    aten.abs.default: _abs,
    aten.eq.Tensor: _compare("eq"),
    aten.eq.Scalar: _compare("eq"),
    aten.ne.Tensor: _compare("ne"),
    aten.ne.Scalar: _compare("ne"),
    aten.lt.Tensor: _compare("slt"),
    aten.lt.Scalar: _compare("slt"),
    aten.le.Tensor: _compare("sle"),
    aten.le.Scalar: _compare("sle"),
    aten.gt.Tensor: _compare("sgt"),
    aten.gt.Scalar: _compare("sgt"),
    aten.ge.Tensor: _compare("sge"),
    aten.ge.Scalar: _compare("sge"),
    aten.bitwise_and.Tensor: _bitwise(arith.AndIOp),
    aten.bitwise_and.Scalar: _bitwise(arith.AndIOp),
    aten.bitwise_or.Tensor: _bitwise(arith.OrIOp),
    aten.bitwise_or.Scalar: _bitwise(arith.OrIOp),
    aten.bitwise_xor.Tensor: _bitwise(arith.XOrIOp),
    aten.bitwise_xor.Scalar: _bitwise(arith.XOrIOp),
    aten.bitwise_not.default: _bitwise_not,
    aten.logical_and.default: _logical(arith.AndIOp),
    aten.logical_or.default: _logical(arith.OrIOp),
    aten.logical_xor.default: _logical(arith.XOrIOp),
    aten.logical_not.default: _logical_not,
    aten.where.self: _where,
    aten.full.default: _full,
    aten.scalar_tensor.default: _scalar_tensor,
    aten._to_copy.default: _convert,
    aten.to.dtype: _convert,
    torch.ops.prims.convert_element_type.default: _convert,
    aten.clone.default: _identity,
    aten.alias.default: _identity,
    aten.lift_fresh_copy.default: _identity,
    aten.__rshift__.Scalar: _shift(arith.ShRSIOp),
    aten.__lshift__.Scalar: _shift(arith.ShLIOp),
}


#: The ops torch 2.13 implements on CPU for uint16, uint32 and uint64
#: (elementwise, conversions, views and indexing of the tensor).
_LIMITED_UNSIGNED_OPS = frozenset({
    aten.mul.Tensor,
    aten.mul.Scalar,
    aten.eq.Tensor,
    aten.eq.Scalar,
    aten.ne.Tensor,
    aten.ne.Scalar,
    aten.bitwise_and.Tensor,
    aten.bitwise_and.Scalar,
    aten.bitwise_or.Tensor,
    aten.bitwise_or.Scalar,
    aten.bitwise_xor.Tensor,
    aten.bitwise_xor.Scalar,
    aten.where.self,
    aten.full.default,
    aten.scalar_tensor.default,
    aten._to_copy.default,
    aten.to.dtype,
    torch.ops.prims.convert_element_type.default,
    aten.clone.default,
    aten.alias.default,
    aten.lift_fresh_copy.default,
    aten.index.Tensor,
    aten.unsqueeze.default,
    aten.squeeze.default,
    aten.squeeze.dim,
    aten.squeeze.dims,
    aten.view.default,
    aten.reshape.default,
    aten._unsafe_view.default,
    aten.expand.default,
    aten.select.int,
    aten.any.default,
    aten.any.dim,
    aten.any.dims,
    aten.all.default,
    aten.all.dim,
    aten.all.dims,
})


def _flat_args(args: Any) -> Iterator[Any]:
    for a in args:
        if isinstance(a, (list, tuple)):
            yield from _flat_args(a)
        else:
            yield a


#: Ops that are not elementwise: indexing, shape ops and reductions of
#: scalarized tensors (see `_Tensor`).
TENSOR_EMITTERS: dict[Any, Callable[[_Importer, torch.fx.Node], Any]] = {
    aten.index.Tensor: _index,
    aten.unsqueeze.default: _unsqueeze,
    aten.squeeze.default: _view,
    aten.squeeze.dim: _view,
    aten.squeeze.dims: _view,
    aten.view.default: _view,
    aten.reshape.default: _view,
    aten._unsafe_view.default: _view,
    aten.expand.default: _expand,
    aten.select.int: _select,
    aten.any.default: _reduce(arith.OrIOp, False),
    aten.any.dim: _reduce(arith.OrIOp, False),
    aten.any.dims: _reduce(arith.OrIOp, False),
    aten.all.default: _reduce(arith.AndIOp, True),
    aten.all.dim: _reduce(arith.AndIOp, True),
    aten.all.dims: _reduce(arith.AndIOp, True),
}


def _clamp_one(self: _Importer, node: torch.fx.Node, op_cls) -> SSAValue:
    d = self.result_dtype(node)
    x = self.operand(node.args[0], d, node.name)
    return self.add(op_cls(x, self.operand(node.args[1], d, node.name)), node.name)


# Entry points -----------------------------------------------------------------

_INDEX_NAMES = ("b", "h", "q_idx", "kv_idx")


def import_graph(gm: torch.fx.GraphModule, name: str = "mask_mod") -> mask.FuncOp:
    """Import one mask GraphModule as a `mask.func` named `name`."""
    placeholders = [n for n in gm.graph.nodes if n.op == "placeholder"]
    if len(placeholders) < 4:
        raise FXImportError(
            f"a mask graph takes b, h, q_idx, kv_idx; {name} has "
            f"{len(placeholders)} placeholder(s)"
        )
    arg_types: list[Any] = []
    for i, ph in enumerate(placeholders):
        shape = node_shape(ph)
        dtype = node_dtype(ph)
        if i < 4:
            arg_types.append(i32)
            continue
        if dtype is not None and dtype not in _DTYPES:
            raise FXImportError(_aux_dtype_error(ph, dtype, "tensor" if shape else "scalar"))
        if dtype is not None and shape is not None and len(shape) > 0:
            elem = storage_type(dtype, f"aux tensor {ph.name}")
            arg_types.append(TensorType(elem, shape))
        elif dtype == torch.uint64:
            raise FXImportError(
                f"aux scalar {ph.name} (a 0-dim tensor) has dtype torch.uint64; maskopt "
                "reads uint64 values from aux tensors of at least one dimension"
            )
        elif dtype is not None:
            arg_types.append(storage_type(dtype, f"aux scalar {ph.name}"))
        else:
            val = ph.meta.get("val")
            if isinstance(val, (int, torch.SymInt)):
                arg_types.append(i64)
            else:
                raise FXImportError(f"placeholder {ph.name} has no tensor or scalar metadata")
    block = Block(arg_types=arg_types)
    importer = _Importer(gm, block)
    for i, (ph, arg) in enumerate(zip(placeholders, block.args)):
        arg.name_hint = _INDEX_NAMES[i] if i < 4 else ph.name
        importer.values[ph] = arg
        if isinstance(arg.type, IntegerType) and arg.type.signedness.data == Signedness.UNSIGNED:
            importer.location = user_location(ph)
            importer.values[ph] = importer.widened(arg, arg.type)  # an unsigned aux scalar
    keep = importer.run()
    importer.location = UnknownLoc()
    importer.add(mask.YieldOp(keep))
    func = mask.FuncOp(name, body=_region(block))
    return func


def _aux_dtype_error(ph: torch.fx.Node, dtype: torch.dtype, kind: str) -> str:
    """An aux tensor of a dtype maskopt does not compute on, located at its first use."""
    users = sorted(ph.users, key=lambda n: list(ph.graph.nodes).index(n))
    where, used = "", ""
    for user in users:
        if user.meta.get("stack_trace"):
            where = format_location(user_location(user)) + ": "
            used = f" (used in {node_text(user)})"
            break
    return (
        f"{where}aux {kind} {ph.name} has dtype {dtype}{used}; mask_mods compute on bool "
        f"and integer tensors ({_SUPPORTED_DTYPES}): store it as integers"
    )


def _region(block: Block):
    from xdsl.ir import Region

    return Region(block)


def import_module(graphs: Sequence[tuple[str, torch.fx.GraphModule]]) -> ModuleOp:
    """A module with one `mask.func` per (name, GraphModule)."""
    return ModuleOp([import_graph(gm, name) for name, gm in graphs])


def import_mask_mod(mask_mod: Callable, name: str | None = None):
    """Trace a Python mask_mod like inductor and import it.

    Returns (module, traced) where `traced` is the `TracedMask` (its
    `aux_tensors` are the captured tensors, in block-argument order).
    """
    from maskopt.lowering.trace import trace_mask_mod

    traced = trace_mask_mod(mask_mod, name=name)
    func = import_graph(traced.graph_module, _symbol(traced.name))
    return ModuleOp([func]), traced


def _symbol(name: str) -> str:
    s = re.sub(r"\W", "_", name)
    return s if s and not s[0].isdigit() else f"m_{s}"
