"""
`pack-mask{max-intervals=8}`: the whole packing pipeline as one pass.

    canonicalize, cse, lane-affine, canonicalize, cse,
    fold-intervals{max-intervals=N}, simplify-intervals,
    lower-interval-bounds, canonicalize, cse

And `parse_pipeline_spec`, the parser of `-p` specs that `mask-opt` and
`maskopt.Pipeline.parse` share: a malformed spec is a `PipelineSyntaxError`;
and `parse_target_spec`, the parser of `-t` specs that `mask-opt` and
`maskopt.emit` share: a malformed one is a `TargetSyntaxError`.
"""

import re
from collections.abc import Callable
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import builtin
from xdsl.passes import ModulePass, PassPipeline
from xdsl.utils.arg_spec import ArgSpec, PipelineLexer, SpecTokenKind, parse_pipeline, parse_spec
from xdsl.utils.exceptions import ArgSpecParseError


class PipelineSyntaxError(ValueError):
    """
    A pass pipeline spec that does not parse, e.g. `pack-mask{` or
    `pack-mask,,cse`. A `ValueError`, like an unknown pass or pass option.

    spec: the spec as given.
    column: the 1-based column of the problem in the spec (None if unknown).
    found: the text found there (None at the end of the spec).
    reason: what was expected there, in xDSL's words.

    `str()` is one line, `column 11, at the end: expected argument name
    here`; the spec and a caret under the column are a note (shown in a
    traceback).
    """

    def __init__(self, spec: str, column: int | None, found: str | None, reason: str):
        self.spec = spec
        self.column = column
        self.found = found
        self.reason = reason
        if column is None:
            message = reason
        else:
            at = "the end" if found is None else f"'{found}'" if found.isprintable() else repr(found)
            message = f"column {column}, at {at}: {reason}"
        super().__init__(message)
        if column is not None:
            start = spec.rfind("\n", 0, column - 1) + 1
            end = spec.find("\n", start)
            line = spec[start : end if end >= 0 else len(spec)]
            self.add_note(f"  {line}\n  {' ' * (column - 1 - start)}^")

    @classmethod
    def from_xdsl(cls, spec: str, e: ArgSpecParseError) -> "PipelineSyntaxError":
        """
        Convert xDSL's `ArgSpecParseError`, which carries its position only in
        its text: `pass-pipeline:LINE:COL`, the spec's line, carets under the
        token, the message.
        """
        lines = [ln for ln in str(e).splitlines() if ln.strip()]
        reason = lines[-1].strip() if lines else "malformed pass pipeline"
        if reason[:1].isupper() and reason[1:2].islower():
            reason = reason[0].lower() + reason[1:]
        where = next((m for ln in lines if (m := re.fullmatch(r"pass-pipeline:(\d+):(\d+)", ln))), None)
        if where is None:
            return cls(spec, None, None, reason)
        line, column = int(where.group(1)), int(where.group(2))
        start = sum(len(ln) + 1 for ln in spec.split("\n")[: line - 1]) + column - 1
        carets = next((ln for ln in lines if set(ln.strip()) == {"^"}), "^")
        end = start + max(carets.count("^"), 1)
        found = spec[start:end] if start < len(spec) else None
        # The column through the whole spec (the same unless it has newlines).
        return cls(spec, start + 1, found, reason)


class TargetSyntaxError(PipelineSyntaxError):
    """
    A target spec (`mask-opt -t`, `maskopt.emit`) that does not parse, e.g.
    `cute{`, `cute}`, `cute,mlir` or an empty one. A target spec has the
    syntax of one pass of a pipeline, `name` or `name{options}`, so this is a
    `PipelineSyntaxError` (and a `ValueError`), with the same fields and
    one-line `str()`: `column 6, at the end: expected argument name here`.
    """


def parse_pipeline_spec(
    available_passes: dict[str, Callable[[], type[ModulePass]]], spec: str
) -> PassPipeline:
    """
    `PassPipeline.parse_spec`, with a malformed spec raised as a
    `PipelineSyntaxError` (xDSL raises a `BaseException`, which escapes
    `except Exception`). An unknown pass or option is xDSL's `ValueError`.

    A trailing comma (`pack-mask,`) is malformed: an empty pass name, as
    mlir-opt reads it (xDSL drops it). An empty spec is no passes.
    """
    try:
        tuple(parse_pipeline(spec))  # the syntax first: the first problem is reported
        tokens = list(_tokens(spec))
        if len(tokens) > 1 and tokens[-2].kind is SpecTokenKind.COMMA:
            raise ArgSpecParseError(tokens[-1], "Expected pass name here")
        return PassPipeline.parse_spec(available_passes, spec)
    except ArgSpecParseError as e:
        raise PipelineSyntaxError.from_xdsl(spec, e) from None


def parse_target_spec(spec: str, what: str = "target") -> ArgSpec:
    """
    A target spec, `name` or `name{options}`, and nothing after it; a
    malformed one raises `TargetSyntaxError`. `what` names the spec in the
    messages (`frontend` for `-f`, whose spec has the same form). (xDSL's `parse_spec` raises a
    `BaseException`, and stops after the first spec: it reads `cute,mlir` and
    `cute{}x` as `cute`.) The name and options are not checked here.
    """
    try:
        tokens = list(_tokens(spec))
        name = tokens[0]
        if name.kind is not SpecTokenKind.IDENT:
            raise ArgSpecParseError(name, f"Expected {what} name here")
        after = tokens[1]  # the lexer ends a non-empty spec with an EOF token
        if after.kind is SpecTokenKind.EOF:
            return ArgSpec(name.span.text, {})
        if after.kind is not SpecTokenKind.L_BRACE:
            raise ArgSpecParseError(after, f"Expected `{{` or the end of the {what} here")
        parsed = parse_spec(spec)  # the options; raises if they are malformed
        # They parsed, so the first `}` closes them (a string value is one token).
        close = next(i for i, t in enumerate(tokens) if t.kind is SpecTokenKind.R_BRACE)
        if tokens[close + 1].kind is not SpecTokenKind.EOF:
            raise ArgSpecParseError(tokens[close + 1], f"Expected the end of the {what} here")
        return parsed
    except ArgSpecParseError as e:
        raise TargetSyntaxError.from_xdsl(spec, e) from None


def _tokens(spec: str):
    """The tokens of `spec`, EOF included (`ArgSpecParseError` at an unknown one)."""
    lexer = PipelineLexer(spec)
    while True:
        token = lexer.lex()
        yield token
        if token.kind is SpecTokenKind.EOF:
            return


def pack_mask_passes(max_intervals: int = 8) -> tuple[ModulePass, ...]:
    """The passes of `pack-mask`, in order."""
    from maskopt.lowering.interval_bounds import LowerIntervalBoundsPass
    from maskopt.passes.fold_intervals import FoldIntervalsPass
    from maskopt.passes.lane_affine import LaneAffinePass
    from maskopt.passes.rewriting import (
        CanonicalizePass,
        CommonSubexpressionElimination,
    )
    from maskopt.passes.simplify_intervals import SimplifyIntervalsPass

    return (
        CanonicalizePass(),
        CommonSubexpressionElimination(),
        LaneAffinePass(),
        CanonicalizePass(),
        CommonSubexpressionElimination(),
        FoldIntervalsPass(max_intervals=max_intervals),
        SimplifyIntervalsPass(),
        LowerIntervalBoundsPass(),
        CanonicalizePass(),
        CommonSubexpressionElimination(),
    )


@dataclass(frozen=True)
class PackMaskPass(ModulePass):
    """
    Pack every mask.func into a keep word where possible (see module doc).

    max_intervals: the most lane runs a packed keep word may be built from.
    """

    name = "pack-mask"

    max_intervals: int = 8

    def __post_init__(self):
        if not isinstance(self.max_intervals, int) or self.max_intervals < 1:
            raise ValueError(f"max-intervals must be at least 1, got {self.max_intervals}")

    def apply(self, ctx: Context, op: builtin.ModuleOp) -> None:
        PassPipeline(pack_mask_passes(self.max_intervals)).apply(ctx, op)
