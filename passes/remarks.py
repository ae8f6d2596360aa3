"""
Remarks: why a mask did not pack, said in the user's terms.

A pass that gives up on a `mask.func` records the reason in the function's
`unpacked` property (so the IR says why) and emits a `Remark` naming the
sub-expression that broke packing as the user wrote it (`doc_ids[kv_idx]`,
`kv_idx * 2 <= q_idx`), the place in the user's source (from the op's
`FileLineColLoc`, which the FX importer takes from the mask_mod's stack
trace), and, where a known rewrite exists, a suggestion.

Remarks go to whoever collects them: `mask-opt` prints them compiler-style,

    masks.py:40:31: remark: mask.func @document_gather not packed: `doc_ids[kv_idx]` is a per-lane gather ...
        return (doc_ids[q_idx] == doc_ids[kv_idx]) & (kv_idx <= q_idx)
                                  ^~~~~~~~~~~~~~~
    masks.py:40:31: note: index a starts/offsets tensor by q_idx ...

and `maskopt.compile_mask` returns them as `CompiledMask.remarks`:

    with collect_remarks() as remarks:
        PackMaskPass().apply(ctx, module)
"""

from __future__ import annotations

import ast
import contextlib
import contextvars
import linecache
import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache

from xdsl.dialects import arith
from xdsl.dialects.builtin import FileLineColLoc, i1
from xdsl.ir import BlockArgument, Operation, SSAValue

__all__ = [
    "Reason",
    "Remark",
    "collect_remarks",
    "emit_remark",
    "expression",
    "function_remarks",
    "remark_for",
    "source_span",
]


@dataclass(frozen=True)
class Remark:
    """One diagnostic about a mask: where it is and what to do about it."""

    severity: str
    """"remark" (a mask that did not pack), "warning" or "error"."""
    message: str
    """Why, in one line: `` `doc_ids[kv_idx]` is a per-lane gather: ... ``."""
    file: str | None = None
    line: int | None = None
    col: int | None = None
    """1-based; the column where the sub-expression starts."""
    suggestion: str | None = None
    """A rewrite that would pack, when one is known."""
    function: str | None = None
    """The symbol of the `mask.func` the remark is about."""
    expression: str | None = None
    """The sub-expression that broke packing, as written in the source."""
    end_col: int | None = None
    """1-based column just past `expression` on `line` (when on one line)."""

    @property
    def headline(self) -> str:
        """`mask.func @name not packed: <message>` (the message without a function)."""
        if self.function is None:
            return self.message
        return f"mask.func @{self.function} not packed: {self.message}"

    @property
    def reason(self) -> str:
        """The message and the suggestion: the function's `unpacked` text."""
        return f"{self.message}; {self.suggestion}" if self.suggestion else self.message

    @property
    def location(self) -> str | None:
        if self.file is None:
            return None
        parts = [self.file] + [str(x) for x in (self.line, self.col) if x is not None]
        return ":".join(parts)

    def format(self, *, default_location: str = "<unknown>", source: bool = True) -> str:
        """Compiler-style text: `file:line:col: remark: ...`, the source line
        with the sub-expression underlined, and a `note:` with the suggestion;
        with `source=False`, one line (the suggestion after `; `)."""
        where = self.location or default_location
        if not source:
            tail = f"; {self.suggestion}" if self.suggestion else ""
            return f"{where}: {self.severity}: {self.headline}{tail}"
        out = [f"{where}: {self.severity}: {self.headline}"]
        if self.file is not None and self.line is not None:
            text = linecache.getline(self.file, self.line).rstrip("\n")
            if text.strip() and self.col is not None:
                out.append(f"    {text}")
                width = max(1, (self.end_col or self.col + 1) - self.col)
                out.append("    " + " " * (self.col - 1) + "^" + "~" * (width - 1))
        if self.suggestion:
            out.append(f"{where}: note: {self.suggestion}")
        return "\n".join(out)

    def __str__(self) -> str:
        """One line: `file:line:col: remark: mask.func @f not packed: <reason>`."""
        where = f"{self.location}: " if self.location else ""
        return f"{where}{self.severity}: {self.headline}" + (
            f"; {self.suggestion}" if self.suggestion else ""
        )


@dataclass(frozen=True)
class Reason:
    """Why a function does not pack: a message, the value it is about and
    an optional suggestion. `str()` is what goes into `unpacked "..."`."""

    message: str
    at: SSAValue | Operation | None = None
    suggestion: str | None = None

    def __str__(self) -> str:
        if self.suggestion:
            return f"{self.message}; {self.suggestion}"
        return self.message


# Collection -----------------------------------------------------------------

_collector: contextvars.ContextVar[list[Remark] | None] = contextvars.ContextVar(
    "maskopt_remarks", default=None
)


@contextlib.contextmanager
def collect_remarks() -> Iterator[list[Remark]]:
    """Collect the remarks emitted by the passes run inside the block."""
    remarks: list[Remark] = []
    token = _collector.set(remarks)
    try:
        yield remarks
    finally:
        _collector.reset(token)


def emit_remark(remark: Remark) -> None:
    """Hand a remark to the innermost `collect_remarks`, if any."""
    remarks = _collector.get()
    if remarks is not None:
        remarks.append(remark)


def remark_for(func: Operation, reason: Reason | str) -> Remark:
    """The remark for `func` (a mask.func) not packing because of `reason`."""
    if isinstance(reason, str):
        reason = Reason(reason)
    sym = getattr(func, "sym_name", None)
    name = sym.data if sym is not None else None
    op = reason.at.owner if isinstance(reason.at, SSAValue) else reason.at
    span = source_span(op) if isinstance(op, Operation) else None
    loc = _file_line_col(op) if isinstance(op, Operation) else None
    if loc is None:
        loc = _first_location(func)
    file, line, col = loc if loc is not None else (None, None, None)
    end_col = None
    expr = None
    if span is not None:
        file, line, col, end_col, expr = span
    return Remark(
        severity="remark",
        message=reason.message,
        file=file,
        line=line,
        col=col,
        suggestion=reason.suggestion,
        function=name,
        expression=expr,
        end_col=end_col,
    )


def function_remarks(module: Operation, collected: Sequence[Remark] = ()) -> list[Remark]:
    """
    One remark per `mask.func` of `module` that did not pack, in module order:
    the last one a pass emitted for it (in `collected`) whose reason is the
    one the function records, else one built from the recorded reason (IR
    that came in unpacked).
    """
    from maskopt.dialects.mask import FuncOp

    out = []
    for op in module.walk():
        if not isinstance(op, FuncOp) or op.unpacked is None:
            continue
        name, reason = op.sym_name.data, op.unpacked.data
        found = None
        for r in collected:
            if r.function == name and reason == r.reason:
                found = r
        out.append(found if found is not None else remark_for(op, reason))
    return out


def _file_line_col(op: Operation) -> tuple[str, int, int] | None:
    loc = op.location
    if isinstance(loc, FileLineColLoc):
        return loc.filename.data, loc.line.data, loc.column.data
    return None


def _first_location(func: Operation) -> tuple[str, int, int] | None:
    for op in func.walk():
        loc = _file_line_col(op)
        if loc is not None:
            return loc
    return None


# Sub-expressions in the user's terms -----------------------------------------


@dataclass(frozen=True)
class _Source:
    """A parsed source file, indexed once: its expression nodes by start
    position, and its lines split as `ast.get_source_segment` splits them."""

    text: str
    #: (lineno, col_offset) -> the expression nodes that start there
    starts: dict[tuple[int, int], list[ast.expr]]
    lines: list[str]

    def segment(self, node: ast.expr) -> str | None:
        """`ast.get_source_segment(self.text, node)`, without re-splitting the file."""
        if node.end_lineno is None or node.end_col_offset is None:
            return None
        lineno, end_lineno = node.lineno - 1, node.end_lineno - 1
        col, end_col = node.col_offset, node.end_col_offset
        if lineno == end_lineno:
            return self.lines[lineno].encode()[col:end_col].decode()
        first = self.lines[lineno].encode()[col:].decode()
        last = self.lines[end_lineno].encode()[:end_col].decode()
        return "".join([first, *self.lines[lineno + 1 : end_lineno], last])


def _split_lines(text: str) -> list[str]:
    """Lines with their ends, split at \r\n, \n and \r only (not at form
    feeds and the other `str.splitlines` separators), as `ast` does."""
    lines, start, i, n = [], 0, 0, len(text)
    while i < n:
        c = text[i]
        if c == "\r" or c == "\n":
            if c == "\r" and i + 1 < n and text[i + 1] == "\n":
                i += 1
            lines.append(text[start : i + 1])
            start = i + 1
        i += 1
    if start < n:
        lines.append(text[start:])
    return lines


@lru_cache(maxsize=32)
def _parsed(filename: str, mtime: float) -> _Source | None:
    lines = linecache.getlines(filename)
    if not lines:
        return None
    text = "".join(lines)
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return None
    starts: dict[tuple[int, int], list[ast.expr]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.expr):
            starts.setdefault((node.lineno, node.col_offset), []).append(node)
    return _Source(text, starts, _split_lines(text))


def _kinds(op: Operation) -> tuple[type, ...]:
    from maskopt.dialects import mask

    if isinstance(op, mask.LoadOp):
        return (ast.Subscript,)
    if isinstance(op, (arith.CmpiOp, mask.LaneCmpOp)):
        return (ast.Compare,)
    if isinstance(op, arith.SelectOp):
        return (ast.Call, ast.IfExp)
    if isinstance(op, (arith.MinSIOp, arith.MaxSIOp)):
        return (ast.Call,)
    if isinstance(op, arith.XOrIOp):
        return (ast.UnaryOp, ast.BinOp, ast.Call)
    return (ast.BinOp, ast.UnaryOp, ast.Call)


def source_span(op: Operation) -> tuple[str, int, int, int | None, str] | None:
    """
    (file, line, col, end_col, text) of the source expression `op` was made
    from: the expression of the op's kind (a subscript for `mask.load`, a
    comparison for `cmpi`, ...) that starts at the op's location. None when
    the op has no file location or the source is not available.
    """
    loc = _file_line_col(op)
    if loc is None:
        return None
    filename, line, col = loc
    try:
        mtime = os.path.getmtime(filename)
    except OSError:
        return None
    parsed = _parsed(filename, mtime)
    if parsed is None:
        return None
    source_line = linecache.getline(filename, line)
    byte_col = len(source_line[: col - 1].encode())
    kinds = _kinds(op)
    candidates = sorted(
        (node for node in parsed.starts.get((line, byte_col), ()) if isinstance(node, kinds)),
        key=_size,
    )
    if not candidates:
        return None
    # `a | b | c` is `(a | b) | c`: both start at `a`. The op's place in such
    # a chain is the number of ops of its kind from the same place down its
    # first operands.
    depth, x = 0, op
    while x.operands and isinstance(x.operands[0].owner, Operation):
        x = x.operands[0].owner
        if type(x) is not type(op) or _file_line_col(x) != loc:
            break
        depth += 1
    best = candidates[min(depth, len(candidates) - 1)]
    segment = parsed.segment(best)
    if segment is None:
        return None
    segment = " ".join(segment.split())
    end_col = None
    if best.end_lineno == line and best.end_col_offset is not None:
        end_col = len(source_line.encode()[: best.end_col_offset].decode(errors="replace")) + 1
    return filename, line, col, end_col, segment


def _size(node: ast.expr) -> tuple[int, int]:
    return (node.end_lineno or 0, node.end_col_offset or 0)


_BINARY = {
    arith.AddiOp: "+",
    arith.SubiOp: "-",
    arith.MuliOp: "*",
    arith.FloorDivSIOp: "//",
    arith.DivSIOp: "/",
    arith.RemSIOp: "fmod",
    arith.AndIOp: "&",
    arith.OrIOp: "|",
    arith.XOrIOp: "^",
    arith.ShLIOp: "<<",
    arith.ShRSIOp: ">>",
}
_CMP = {"eq": "==", "ne": "!=", "slt": "<", "sle": "<=", "sgt": ">", "sge": ">="}


def expression(value: SSAValue, depth: int = 4) -> str:
    """`value` as the user wrote it (its source expression) or, without
    source, rendered from the IR in Python syntax over the argument names."""
    op = value.owner
    if isinstance(op, Operation):
        span = source_span(op)
        if span is not None:
            return span[4]
    return render(value, depth)


def render(value: SSAValue, depth: int = 4) -> str:
    """`value` rendered from the IR as a Python expression (depth-limited)."""
    from xdsl.transforms.canonicalization_patterns.utils import const_evaluate_operand

    from maskopt.dialects import mask

    if isinstance(value, BlockArgument):
        return value.name_hint or f"arg{value.index}"
    c = const_evaluate_operand(value)
    if c is not None:
        return str(bool(c)) if value.type == i1 else str(c)
    op = value.owner
    assert isinstance(op, Operation)
    if depth <= 0:
        return "..."

    def sub(v: SSAValue) -> str:
        text = render(v, depth - 1)
        owner = v.owner
        simple = isinstance(v, BlockArgument) or isinstance(
            owner, (mask.LoadOp, mask.LaneOp, arith.ConstantOp)
        )
        return text if simple or text == "..." else f"({text})"

    match op:
        case mask.LaneOp():
            return "lane"
        case mask.LoadOp():
            indices = ", ".join(render(i, depth - 1) for i in op.indices)
            return f"{render(op.tensor, depth - 1)}[{indices}]"
        case arith.CmpiOp():
            name = arith.CMPI_COMPARISON_OPERATIONS[op.predicate.value.data]
            sym = _CMP.get(name, name)
            return f"{sub(op.lhs)} {sym} {sub(op.rhs)}"
        case mask.LaneCmpOp():
            sym = _CMP.get(op.predicate.data, op.predicate.data)
            k = op.offset_value
            offset = f" + {k}" if k > 0 else f" - {-k}" if k < 0 else ""
            c = op.coeff_value
            lane = "lane" if c == 1 else "-lane" if c == -1 else f"{c} * lane"
            return f"{lane} + {sub(op.u)}{offset} {sym} 0"
        case arith.SelectOp():
            return f"torch.where({render(op.cond, depth - 1)}, {render(op.lhs, depth - 1)}, {render(op.rhs, depth - 1)})"
        case arith.MinSIOp() | arith.MaxSIOp():
            fn = "minimum" if isinstance(op, arith.MinSIOp) else "maximum"
            return f"torch.{fn}({render(op.lhs, depth - 1)}, {render(op.rhs, depth - 1)})"
        case mask.FloorModOp():
            return f"{sub(op.lhs)} % {sub(op.rhs)}"
        case arith.ExtSIOp() | arith.ExtUIOp() | arith.TruncIOp():
            return render(op.operands[0], depth)
        case _:
            sym = _BINARY.get(type(op))
            if sym is not None and len(op.operands) == 2:
                if isinstance(op, arith.XOrIOp):
                    for x, y in ((op.lhs, op.rhs), (op.rhs, op.lhs)):
                        if const_evaluate_operand(y) == -1 or (
                            y.type == i1 and const_evaluate_operand(y) not in (None, 0)
                        ):
                            return f"~{sub(x)}"
                return f"{sub(op.operands[0])} {sym} {sub(op.operands[1])}"
            args = ", ".join(render(o, depth - 1) for o in op.operands)
            return f"{op.name}({args})"
