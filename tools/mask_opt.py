"""
`mask-opt`: maskopt's driver, xDSL's `xdsl-opt` with a curated set of
dialects, passes and targets.

    mask-opt in.mlir -p pack-mask,interval-to-cute -t cute
    mask-opt in.mlir -p 'lane-affine,fold-intervals{max-intervals=4}'
    mask-opt masks.py:causal -t cute          # trace, pack-mask, interval-to-cute, print
    mask-opt --split-input-file --print-op-generic in.mlir
    mask-opt in.mlir -p pack-mask --print-ir-after-all --time-passes

Dialects: builtin, arith, mask, interval, cute. Passes: canonicalize, cse, dce,
lane-affine, fold-intervals, simplify-intervals, lower-interval-bounds, interval-to-cute,
pack-mask. Targets: mlir, cute, cute-exprs. A `.py` input (`FILE.py:FUNCTION`,
FUNCTION defaulting to `mask_mod`) is traced like inductor does and, without
`-p`, packed with `pack-mask`, followed for a CuTe target by
`interval-to-cute`, which chooses the word forms that target prints (so
`--print-ir-after-all` shows them as `cute` ops). Given IR whose runs are
not lowered yet, a CuTe target lowers a copy with the same pass.

Functions that do not pack are reported on stderr as remarks in the user's
terms, at the user's source line, with a suggestion where one is known:

    masks.py:40:31: remark: mask.func @document_gather not packed: `doc_ids[kv_idx]` is a per-lane gather ...

`--print-ir-after-all` dumps the IR after every pass and `--time-passes`
prints a timing report, both on stderr; `pack-mask` is expanded into its
passes for both.

Exit status: 0 success; 1 the input cannot be compiled (a missing file or
function, malformed IR, an op that fails verification, a mask_mod that
raises or that maskopt cannot import, IR the target cannot print); 2 a
usage error (an unknown option, target, pass or pass option, a malformed
pipeline or target); 3 an internal error (a bug in maskopt). Every error
is one line, `mask-opt: error: ...`, never a traceback, and `-o` is
written (atomically) only when the whole run succeeds.

Extra passes and targets come from `maskopt.register_pass`/`register_target`
in plugin modules: `maskopt.plugins` entry points and `$MASKOPT_PLUGINS`
(comma-separated module names).
"""

from __future__ import annotations

import gc

# Importing xDSL builds many classes; the cyclic collector has nothing to
# reclaim meanwhile (as during a compile, see `maskopt.gc_paused`).
_gc_was_enabled = gc.isenabled()
gc.disable()

import argparse  # noqa: E402
import errno  # noqa: E402
import importlib.util  # noqa: E402
import os  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable, Sequence  # noqa: E402
from io import StringIO  # noqa: E402
from typing import IO, Any, NoReturn  # noqa: E402

try:
    from xdsl.dialects.builtin import ModuleOp
    from xdsl.xdsl_opt_main import xDSLOptMain
finally:
    if _gc_was_enabled:
        gc.enable()

# The registries live in the library (all lazy: a `.mlir` run imports neither
# torch nor cutlass); `register_target` is also importable from here, as it
# was when the registry lived in this module.
from maskopt.dialects import get_all_dialects  # noqa: E402
from maskopt.lowering import get_all_targets, register_target  # noqa: E402, F401

EXIT_OK = 0
EXIT_INPUT_ERROR = 1
EXIT_USAGE_ERROR = 2
EXIT_INTERNAL_ERROR = 3
EXIT_ERROR = EXIT_INPUT_ERROR  # kept for callers of the first driver

EXIT_CODES_HELP = """\
exit status:
  0  success (a mask that does not pack is a remark, not an error)
  1  the input cannot be compiled: a missing file or function, malformed IR
     (with line and column), an op that fails verification, a mask_mod that
     raises, has the wrong arity, returns a non-bool or uses an unsupported
     op or dtype, IR the target cannot print
  2  usage error: an unknown option, target, pass or pass option, a malformed
     pipeline or target (with its column)
  3  internal error in maskopt (please report it)
every error is one line on stderr, `mask-opt: error: ...`; -o is only
written when the whole run succeeds.
"""

EXAMPLES_HELP = """\
examples:
  mask-opt tools/examples/masks.py:causal -t cute          trace, pack-mask, interval-to-cute, print CuTe
  mask-opt tools/examples/masks.py:document_gather         IR, and a remark saying why it did not pack
  mask-opt in.mlir -p pack-mask                            the whole pipeline on IR
  mask-opt in.mlir -p 'lane-affine,fold-intervals{max-intervals=4},simplify-intervals'
  mask-opt in.mlir -p pack-mask --print-ir-after-all       IR after every pass (stderr)
  mask-opt masks.py:causal --print-ir-before-all           the imported IR, then before every pass
  mask-opt in.mlir -p pack-mask --time-passes              per-pass wall time (stderr)
  mask-opt in.mlir -p pack-mask,interval-to-cute -t cute -o out.py   -o is written atomically
  mask-opt in.mlir --split-input-file --print-op-generic

passes (-p, comma-separated, options in braces):
  canonicalize, cse, dce         xDSL's stock passes (maskopt's patterns via traits)
  lane-affine                    window kv_idx = base + lane; lane-affine comparisons -> mask.lane_cmp
  fold-intervals{max-intervals=8}  fold the keep value into lane runs -> interval.keep_word
  simplify-intervals             constant and trivial interval sets
  lower-interval-bounds          interval.bound -> the arith of its cheapest plan
  pack-mask{max-intervals=8}     all of the above, in order (the default for .py input)
  interval-to-cute               each lane run -> cute.lanes of its word, the form chosen
                                 (after pack-mask by default for .py input with -t cute)

"""


class MaskOptError(Exception):
    """A user-facing input error: printed as one line, exit status 1."""

    exit_code = EXIT_INPUT_ERROR


class MaskOptUsageError(MaskOptError):
    """A command-line error: printed as one line, exit status 2."""

    exit_code = EXIT_USAGE_ERROR


class MaskOptInternalError(MaskOptError):
    """A bug in maskopt (a pass produced invalid IR): one line, exit status 3."""

    exit_code = EXIT_INTERNAL_ERROR


PLUGIN_GROUP = "maskopt.plugins"
_LOADED_PLUGINS: set[str] = set()


def load_plugins() -> None:
    """
    Import, once, the plugin modules that register extra passes and targets:
    the `maskopt.plugins` entry points of installed packages and the modules
    named in `$MASKOPT_PLUGINS` (comma-separated).
    """
    from importlib import import_module
    from importlib.metadata import entry_points

    names = [ep.value.split(":")[0] for ep in entry_points(group=PLUGIN_GROUP)]
    names += [n.strip() for n in os.environ.get("MASKOPT_PLUGINS", "").split(",") if n.strip()]
    for name in names:
        if name in _LOADED_PLUGINS:
            continue
        _LOADED_PLUGINS.add(name)
        try:
            import_module(name)
        except Exception as e:
            raise MaskOptError(f"plugin {name}: {type(e).__name__}: {e}") from e


def split_python_spec(spec: str) -> tuple[str, str] | None:
    """`file.py:fn` -> (file.py, fn); `file.py` -> (file.py, mask_mod)."""
    path, sep, fn = spec.rpartition(":")
    if sep and path.endswith(".py") and fn.isidentifier():
        return path, fn
    if spec.endswith(".py"):
        return spec, "mask_mod"
    return None


def load_python_function(path: str, fn_name: str) -> Callable:
    """
    Load `fn_name` from the Python file `path`.

    The file is compiled under the name the user gave, `path` as spelled on
    the command line, as `runpy.run_path` does (importlib's loader would
    record the absolute path): its code objects' `co_filename`, so the FX
    stack traces, op locations, remarks and errors about it, name it as given.
    """
    if os.path.isdir(path):
        raise MaskOptError(f"{path}: is a directory")
    if not os.path.isfile(path):
        raise MaskOptError(f"{path}: no such file")
    spec = importlib.util.spec_from_file_location("_mask_opt_user_module", path)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    try:
        with open(path, "rb") as f:
            source = f.read()
    except OSError as e:
        raise MaskOptError(f"{path}: {e.strerror or e}") from None
    try:
        exec(compile(source, path, "exec", dont_inherit=True), module.__dict__)
    except SyntaxError as e:
        raise MaskOptError(
            f"{e.filename or path}:{e.lineno}:{e.offset or 1}: importing the file raised "
            f"SyntaxError: {e.msg}"
        ) from None
    except (Exception, SystemExit) as e:  # the user's file failed to run
        raise MaskOptError(
            f"{_user_frame(e, path)}importing the file raised {type(e).__name__}: {_first_line(e)}"
        ) from None
    fn = getattr(module, fn_name, None)
    if fn is None:
        raise MaskOptError(f"{path}: no function named '{fn_name}'")
    if not callable(fn):
        raise MaskOptError(f"{path}: '{fn_name}' is not a function")
    return fn


def import_python_mask(path: str, fn_name: str, timer: _Timer | None = None) -> ModuleOp:
    """Load `fn_name` from the Python file `path`, trace and import it."""
    timer = timer or _Timer(False)
    with timer.phase(f"load {os.path.basename(path)}"):
        fn = load_python_function(path, fn_name)
    from maskopt.lowering.fx_import import FXImportError, _symbol, import_graph
    from maskopt.lowering.trace import MaskTraceError, trace_mask_mod

    try:
        with timer.phase("trace"):
            traced = trace_mask_mod(fn, name=fn_name)
        with timer.phase("fx-import"):
            func = import_graph(traced.graph_module, _symbol(traced.name))
    except MaskTraceError as e:
        where = _user_frame(e.__cause__, path) or _location(e, path) or _definition(fn, path)
        raise MaskOptError(f"{where}{e}") from None
    except FXImportError as e:
        raise MaskOptError(str(e)) from None
    return ModuleOp([func])


class _Timer:
    """Wall time of the driver's phases and passes, for `--time-passes`."""

    def __init__(self, enabled: bool):
        self.enabled = enabled
        self.start = time.perf_counter()
        self.rows: list[tuple[int, str, float]] = []  # (depth, name, seconds)

    def phase(self, name: str, depth: int = 0):
        timer = self

        class _Phase:
            def __enter__(self):
                self.start = time.perf_counter()
                self.index = len(timer.rows)
                timer.rows.append((depth, name, 0.0))

            def __exit__(self, *exc: Any):
                timer.rows[self.index] = (depth, name, time.perf_counter() - self.start)

        return _Phase()

    def add(self, depth: int, name: str, seconds: float) -> None:
        self.rows.append((depth, name, seconds))

    def report(self, stream: IO[str]) -> None:
        """MLIR's `-mlir-timing` layout: wall time and share per row."""
        total = time.perf_counter() - self.start
        rest = total - sum(t for d, _, t in self.rows if d == 0)
        rows = self.rows + [(0, "rest (verification, remarks)", max(rest, 0.0))]
        bar = "===" + "-" * 73 + "==="
        print(bar, file=stream)
        print(" " * 26 + "... Execution time report ...", file=stream)
        print(bar, file=stream)
        print(f"  Total Execution Time: {total:.4f} seconds", file=stream)
        print(file=stream)
        print("  ----Wall Time----  ----Name----", file=stream)
        for depth, name, t in rows:
            share = 100.0 * t / total if total > 0 else 0.0
            print(f"  {t:8.4f} ({share:5.1f}%)  {'  ' * depth}{name}", file=stream)
        print(f"  {total:8.4f} (100.0%)  Total", file=stream)


class MaskOptMain(xDSLOptMain):
    """xdsl-opt with maskopt's dialects, passes and targets."""

    version_format = "mask-opt (maskopt) built on xdsl {xdsl_version}"

    def __init__(self, args: Sequence[str] | None = None):
        self.python_input: tuple[str, str] | None = None
        argv = list(sys.argv[1:] if args is None else args)
        super().__init__(
            description="maskopt: pack FlexAttention mask_mods into FlashAttention-4 keep words",
            args=argv,
        )
        if self.args.input_file == "-":  # stdin, as for mlir-opt and xdsl-opt: .mlir text
            self.args.input_file = None
        if self.args.print_between_passes:
            self.args.print_ir_after_all = True
        self.timer = _Timer(self.args.time_passes)

    def register_all_dialects(self):
        for name, factory in get_all_dialects().items():
            self.ctx.register_dialect(name, factory)

    def register_all_passes(self):
        from maskopt.passes import get_all_passes

        load_plugins()
        for name, factory in get_all_passes().items():
            self.register_pass(name, factory)

    def register_all_targets(self):
        for name, factory in get_all_targets().items():
            self.available_targets[name] = factory

    def register_all_frontends(self):
        super().register_all_frontends()

    def register_all_arguments(self, arg_parser: argparse.ArgumentParser):
        arg_parser.prog = "mask-opt"
        arg_parser.formatter_class = argparse.RawDescriptionHelpFormatter
        arg_parser.epilog = EXAMPLES_HELP + EXIT_CODES_HELP
        arg_parser.error = _usage_error  # type: ignore[method-assign]
        super().register_all_arguments(arg_parser)
        _help = {
            "input_file": "the input: a .mlir file (`-` or none: stdin) or a Python file "
            "FILE.py:FUNCTION (FUNCTION defaults to mask_mod), traced like inductor",
            "target": "output: mlir (IR, the default), cute (the CuTe DSL Python "
            "module FA4 imports) or cute-exprs (the self-contained keep-mask "
            "expressions the inductor drop-in hands torch's FLASH template)",
            "passes": "the pass pipeline, e.g. 'pack-mask' or "
            "'lane-affine,fold-intervals{max-intervals=4}' (default: none for .mlir, "
            "pack-mask for .py). Passes: " + ", ".join(self.available_passes),
            "print_between_passes": "the same as --print-ir-after-all (xdsl-opt's name)",
            "time_passes": "print the wall time of every pass (pack-mask expanded into "
            "its passes) and of loading, tracing, importing and printing, on stderr",
            "output_file": "write the output to this file instead of stdout (`-`: "
            "stdout), like a plain write (a symlink is followed, an existing file keeps "
            "its mode) but atomically, and only when the whole run succeeds",
        }
        _help.update(
            {
                "disable_verify": "do not verify the IR after parsing and after every pass",
                "version": "print mask-opt's version and exit",
                "shrink": argparse.SUPPRESS,
            }
        )
        for action in arg_parser._actions:
            if action.dest in _help:
                action.help = _help[action.dest]
            if action.dest == "target":
                # A malformed -t is a usage error raised as argparse reads it
                # (xDSLOptMain parses it next, where xDSL raises a BaseException).
                action.type = _checked_target_spec
            if action.dest == "frontend":
                action.type = _checked_frontend_spec  # the same, for -f
        arg_parser.add_argument(
            "--print-ir-after-all",
            default=False,
            action="store_true",
            help="print the IR after every pass on stderr, under "
            "`// -----// IR Dump After PASS //----- //` headers (pack-mask is "
            "expanded into its passes)",
        )
        arg_parser.add_argument(
            "--print-ir-before-all",
            default=False,
            action="store_true",
            help="print the IR before every pass on stderr, under "
            "`// -----// IR Dump Before PASS //----- //` headers (the first dump is "
            "the imported or parsed IR)",
        )
        arg_parser.add_argument(
            "--domain",
            default=None,
            metavar="'b<B,h<H,q<Q,kv<KV'",
            help="the index domain the kernel calls the mask in (any subset, "
            "exclusive bounds): runs the set-domain pass first, so value ranges "
            "start from it (e.g. --domain 'q<32768,kv<32768')",
        )
        arg_parser.add_argument(
            "--no-remarks",
            default=False,
            action="store_true",
            help="do not report the functions that did not pack",
        )
        arg_parser.add_argument(
            "--no-remark-source",
            default=False,
            action="store_true",
            help="print each remark on one line, the suggestion appended after "
            "`; `, without the source line",
        )

    # The pipeline ---------------------------------------------------------

    def setup_pipeline(self):
        spec = self.args.input_file and split_python_spec(self.args.input_file)
        if spec:
            self.python_input = spec
            if not self.args.passes:
                self.args.passes = self.default_pipeline()
        from maskopt.passes.pipeline import parse_pipeline_spec

        if self.args.domain is not None:
            from maskopt.passes.domain import DomainError, SetDomainPass

            try:
                first = str(SetDomainPass.of(self.args.domain).pipeline_pass_spec())
            except DomainError as e:
                raise MaskOptUsageError(f"invalid --domain '{self.args.domain}': {e}") from None
            self.args.passes = f"{first},{self.args.passes}" if self.args.passes else first
        try:
            parsed = parse_pipeline_spec(self.available_passes, self.args.passes)
        except Exception as e:  # malformed (PipelineSyntaxError), unknown pass or option
            raise MaskOptUsageError(
                f"invalid pass pipeline '{self.args.passes}': {_first_line(e)}"
            ) from None
        self.steps = _expand(parsed.passes)
        self.pipeline = parsed
        self._check_target_options()

    #: targets that print the `cute` dialect: a traced mask's default pipeline
    #: lowers to it, so `--print-ir-after-all` shows the word forms they print
    CUTE_TARGETS = ("cute", "cute-exprs")

    def default_pipeline(self) -> str:
        """The pipeline of a traced `.py` mask without `-p`: `pack-mask`, and
        `interval-to-cute` after it for a CuTe target."""
        from maskopt.passes.pipeline import parse_target_spec

        target = parse_target_spec(self.args.target).name
        return "pack-mask,interval-to-cute" if target in self.CUTE_TARGETS else "pack-mask"

    def _check_target_options(self) -> None:
        """An unknown or ill-typed `-t` option is a usage error, like a pass
        option's, found before the input is read (xDSL finds it only when
        the target prints, as a `ValueError`: an internal error)."""
        import inspect

        from maskopt.passes.pipeline import parse_target_spec

        spec = parse_target_spec(self.args.target)  # checked as argparse read it
        factory = self.available_targets[spec.name]  # and so was the name
        if inspect.signature(factory).parameters:
            return  # a legacy target function: no options
        try:
            factory().from_spec(spec)
        except ValueError as e:
            raise MaskOptUsageError(f"invalid target '{self.args.target}': {_first_line(e)}") from None

    def apply_passes(self, prog: ModuleOp):
        """Run the (expanded) pipeline, verifying the IR before the first pass
        (an input error) and after every pass (a maskopt bug; an expanded
        `pack-mask` is verified once, after its last pass, like the one pass it
        is), dumping and timing each pass on request; then report the remarks."""
        from maskopt.passes.remarks import collect_remarks

        with collect_remarks() as remarks:
            self._verify(prog, None)
            group = None  # the timing row of the pass pipeline being expanded
            group_label = None
            for i, (depth, label, p) in enumerate(self.steps):
                if p is None:
                    group = len(self.timer.rows)
                    group_label = label
                    self.timer.add(depth, label, 0.0)
                    continue
                if self.args.print_ir_before_all:
                    self._dump(prog, label, "Before")
                start = time.perf_counter()
                p.apply(self.ctx, prog)
                seconds = time.perf_counter() - start
                self.timer.add(depth, label, seconds)
                if depth > 0 and group is not None:
                    d, name, t = self.timer.rows[group]
                    self.timer.rows[group] = (d, name, t + seconds)
                if depth == 0:
                    self._verify(prog, label)
                elif i + 1 == len(self.steps) or self.steps[i + 1][0] == 0:
                    # The passes of an expanded pipeline (pack-mask) are one
                    # pass to the verifier, as in mlir-opt: verified at its end.
                    self._verify(prog, group_label or label)
                if self.args.print_ir_after_all:
                    self._dump(prog, label, "After")
        self.report(prog, remarks)

    def _verify(self, prog: ModuleOp, after: str | None) -> None:
        if self.args.disable_verify:
            return
        from xdsl.utils.exceptions import DiagnosticException, VerifyException

        try:
            prog.verify()
        except (VerifyException, DiagnosticException) as e:
            if after is None:
                raise
            raise MaskOptInternalError(
                f"the IR after pass {after} does not verify: {_verify_message(e)}"
            ) from None

    def _dump(self, prog: ModuleOp, label: str, when: str) -> None:
        from xdsl.printer import Printer

        sys.stdout.flush()
        print(f"// -----// IR Dump {when} {label} //----- //", file=sys.stderr)
        printer = Printer(
            stream=sys.stderr,
            print_generic_format=self.args.print_op_generic,
            print_debuginfo=self.args.print_debuginfo,
        )
        printer.print_op(prog)
        print("\n", file=sys.stderr)
        sys.stderr.flush()

    def get_input_name(self):
        return self.args.input_file or "<stdin>"

    def parse_chunk(self, chunk: IO[bytes], file_extension: str, start_offset: int = 0):
        """Parse `.mlir` like mlir-opt: an op without `loc(...)` gets the
        file, line and column where it starts (remarks point there)."""
        if (self.args.frontend or file_extension) != "mlir":
            return super().parse_chunk(chunk, file_extension, start_offset)
        parser = _LocatingParser(self.ctx, chunk.read(), self.get_input_name())
        parser.line_offset = start_offset
        return parser.parse_module(not self.args.no_implicit_module)

    # Running ---------------------------------------------------------------

    def run(self):
        if self.python_input is not None:
            module = import_python_mask(*self.python_input, timer=self.timer)
            self.apply_passes(module)
            text = self.output_resulting_program(module)
        else:
            text = self._run_mlir()
        if self.args.time_passes:
            self.timer.report(sys.stderr)
        self.write_output(text)

    def _run_mlir(self) -> str:
        path = self.args.input_file
        if path is not None:
            if os.path.isdir(path):
                raise MaskOptError(f"{path}: is a directory")
            if not os.path.isfile(path):
                raise MaskOptError(f"{path}: no such file")
            ext = os.path.splitext(path)[1].lstrip(".")
            if not self.args.frontend and ext not in self.available_frontends:
                raise MaskOptUsageError(
                    f"{path}: unrecognized input; give a .mlir file or a Python "
                    "mask_mod as FILE.py:FUNCTION"
                )
        real_output, self.args.output_file = self.args.output_file, None
        buffer = _KeptOpen()
        self.prepare_output = lambda: buffer  # type: ignore[method-assign]
        real_parse = self.parse_chunk

        def timed_parse(*a: Any, **k: Any):
            with self.timer.phase("parse"):
                return real_parse(*a, **k)

        self.parse_chunk = timed_parse  # type: ignore[method-assign]
        try:
            super().run()
        finally:
            self.args.output_file = real_output
        return buffer.getvalue()

    def output_resulting_program(self, prog: ModuleOp) -> str:
        target = self.args.target
        with self.timer.phase(f"output ({target})"):
            try:
                return super().output_resulting_program(prog)
            except Exception as e:
                from maskopt.lowering.cute import CuteEmitError

                if isinstance(e, CuteEmitError):
                    raise MaskOptError(f"-t {target}: {e}") from None
                raise

    # Remarks -----------------------------------------------------------------

    def report(self, module: ModuleOp, remarks: Sequence[Any] = ()) -> None:
        """Print a remark for every function that did not pack: the one a pass
        emitted (the sub-expression, its source line, a suggestion) or, for IR
        that came in unpacked, the recorded reason at the function."""
        if self.args.no_remarks:
            return
        from maskopt.passes.remarks import function_remarks

        for remark in function_remarks(module, remarks):
            text = remark.format(
                default_location=self.args.input_file or "<stdin>",
                source=not self.args.no_remark_source,
            )
            print(text, file=sys.stderr)

    # Output ----------------------------------------------------------------

    def write_output(self, text: str) -> None:
        """Write to stdout (no -o, or `-o -` as for mlir-opt and xdsl-opt), or
        to -o like a plain write, atomically (see `write_file_atomically`).
        Called once the whole run has succeeded."""
        path = self.args.output_file
        if path is None or path == "-":
            sys.stdout.write(text)
            sys.stdout.flush()
            return
        try:
            write_file_atomically(path, text)
        except OSError as e:
            raise MaskOptError(f"cannot write {path}: {e.strerror or e}") from None

    def prepare_output(self) -> IO[str]:  # replaced in _run_mlir()
        return sys.stdout


def write_file_atomically(path: str, text: str) -> None:
    """
    Write `text` to `path` as a plain `open(path, "w")` would, but atomically:
    into a temp file in the directory of the file that is written, renamed
    over it, so that `path` has its old contents or all of the new ones.

    - A symlink is followed: its target is written (created if need be), the
      link stays a link.
    - An existing file keeps its mode (and, where permitted, its owner and
      group); a new file gets 0666 & ~umask.
    - A path that exists and is not a regular file (/dev/null, /dev/stdout, a
      FIFO) is written in place: there is nothing to rename over.
    """
    import stat

    try:
        st: os.stat_result | None = os.stat(path)  # follows symlinks
    except FileNotFoundError:
        st = None
    if st is not None and stat.S_ISDIR(st.st_mode):
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), path)
    if st is not None and not stat.S_ISREG(st.st_mode):
        with open(path, "w") as f:
            f.write(text)
        return
    target = os.path.realpath(path)
    fd, tmp = _create_temp_file(os.path.dirname(target))
    try:
        with os.fdopen(fd, "w") as f:
            if st is not None:
                _copy_owner_and_mode(f.fileno(), st)
            f.write(text)
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


def _create_temp_file(directory: str) -> tuple[int, str]:
    """A new file `.mask-opt-XXXXXXXX` in `directory`, open for writing, with
    mode 0666 & ~umask (the kernel applies the umask; `tempfile.mkstemp`
    would make it 0600)."""
    import secrets

    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)
    for _ in range(100):
        tmp = os.path.join(directory, f".mask-opt-{secrets.token_hex(4)}")
        try:
            return os.open(tmp, flags, 0o666), tmp
        except FileExistsError:
            continue
    raise FileExistsError(errno.EEXIST, "no unused temporary file name", directory)


def _copy_owner_and_mode(fd: int, st: os.stat_result) -> None:
    """Give the open file `fd` the owner, group (as far as permitted) and mode
    of the file `st` describes, which it replaces."""
    import stat

    if (st.st_uid, st.st_gid) != (os.geteuid(), os.getegid()):
        for uid in (st.st_uid, -1):  # the group alone, when the owner cannot be kept
            try:
                os.fchown(fd, uid, st.st_gid)
                break
            except OSError:
                continue
    os.fchmod(fd, stat.S_IMODE(st.st_mode))  # after fchown, which may clear setuid bits


def _expand(passes: Sequence[Any]) -> list[tuple[int, str, Any]]:
    """(depth, label, pass) per step; `pack-mask` becomes a row of its own
    (pass None, for the timing report) and its passes, one level deeper."""
    from maskopt.passes.pipeline import PackMaskPass, pack_mask_passes

    steps: list[tuple[int, str, Any]] = []
    for p in passes:
        if isinstance(p, PackMaskPass):
            inner = pack_mask_passes(p.max_intervals)
            steps.append((0, f"pack-mask{{max-intervals={p.max_intervals}}}", None))
            for i, q in enumerate(inner):
                steps.append((1, f"{_spec(q)} (pack-mask {i + 1}/{len(inner)})", q))
        else:
            steps.append((0, _spec(p), p))
    return steps


def _spec(p: Any) -> str:
    """A pass as `-p` spells it, with the options that differ from the default:
    `fold-intervals{max-intervals=4}`."""
    import dataclasses

    options = []
    if dataclasses.is_dataclass(p):
        for f in dataclasses.fields(p):
            value = getattr(p, f.name)
            if f.default is not dataclasses.MISSING and value == f.default:
                continue
            options.append(f"{f.name.replace('_', '-')}={value}")
    return p.name + (f"{{{','.join(options)}}}" if options else "")


def _locating_parser_class():
    from xdsl.parser import Parser

    class LocatingParser(Parser):
        line_offset = 0
        _line_starts: list[int] | None = None

        def parse_operation(self):
            from xdsl.dialects.builtin import FileLineColLoc, IntAttr, StringAttr, UnknownLoc

            start = self._current_token.span.start
            op = super().parse_operation()
            if isinstance(op.location, UnknownLoc):
                line, col = self._line_col(start)
                op.location = FileLineColLoc(
                    StringAttr(self.lexer.input.name), IntAttr(line), IntAttr(col)
                )
            return op

        def _line_col(self, pos: int) -> tuple[int, int]:
            import bisect

            if self._line_starts is None:
                content = self.lexer.input.content
                newline = "\n" if isinstance(content, str) else b"\n"
                starts, i = [0], content.find(newline)
                while i >= 0:
                    starts.append(i + 1)
                    i = content.find(newline, i + 1)
                self._line_starts = starts
            index = bisect.bisect_right(self._line_starts, pos) - 1
            return index + 1 + self.line_offset, pos - self._line_starts[index] + 1

    return LocatingParser


def _LocatingParser(*args: Any):  # noqa: N802 - a lazily defined class
    return _locating_parser_class()(*args)


class _KeptOpen(StringIO):
    """A buffer xDSLOptMain.run may `close()` without losing its contents."""

    def close(self) -> None:
        pass


def _checked_target_spec(spec: str, what: str = "target") -> str:
    """`spec`, a `-t` spec that parses (see `parse_target_spec`); a malformed
    one is a `MaskOptUsageError` (not a `ValueError`: argparse would replace
    the message with its own)."""
    from maskopt.passes.pipeline import TargetSyntaxError, parse_target_spec

    try:
        parse_target_spec(spec, what)
    except TargetSyntaxError as e:
        raise MaskOptUsageError(f"invalid {what} '{spec}': {e}") from None
    return spec


def _checked_frontend_spec(spec: str) -> str:
    """`spec`, a `-f` spec that parses (the form of a target spec)."""
    return _checked_target_spec(spec, "frontend")


def _usage_error(message: str) -> NoReturn:
    print(f"mask-opt: error: {message} (see mask-opt --help)", file=sys.stderr)
    sys.exit(EXIT_USAGE_ERROR)


def _first_line(e: BaseException) -> str:
    lines = [ln.strip() for ln in str(e).splitlines() if ln.strip()]
    return lines[0] if lines else type(e).__name__


def _user_frame(e: BaseException | None, path: str) -> str:
    """`file:line: ` of the innermost frame of `e`'s traceback in the user's
    file `path` (where their code raised), or ''."""
    if e is None:
        return ""
    import traceback

    target = os.path.abspath(path)
    where = ""
    for fr in traceback.extract_tb(e.__traceback__):
        if os.path.abspath(fr.filename) == target:
            col = f":{fr.colno + 1}" if getattr(fr, "colno", None) is not None else ""
            where = f"{path}:{fr.lineno}{col}: "
    return where


def _location(e: BaseException, path: str) -> str:
    """`file:line:col: ` of a `MaskTraceError`'s `location` when it is in `path`, or ''."""
    loc = getattr(e, "location", None)
    if loc is None or os.path.abspath(loc[0]) != os.path.abspath(path):
        return ""
    return f"{path}:{loc[1]}:{loc[2]}: "


def _definition(fn: Callable, path: str) -> str:
    """`file:line: ` of the `def` of `fn` when it is in `path`, or ''."""
    code = getattr(fn, "__code__", None)
    if code is None or os.path.abspath(code.co_filename) != os.path.abspath(path):
        return ""
    return f"{path}:{code.co_firstlineno}: "


def _one_line(e: BaseException) -> str:
    text = str(e).strip()
    lines = [ln for ln in text.splitlines() if ln.strip()]
    if not lines:
        return type(e).__name__
    from xdsl.utils.exceptions import ParseError

    if isinstance(e, ParseError) and len(lines) >= 1:
        # "<file>:L:C" then the source line, the caret and the message.
        return f"{lines[0]}: {lines[-1].strip()}"
    if "Error while applying pattern" in text or "Operation does not verify" in text:
        for ln in lines:
            if ln.strip().startswith("| ") and "Error" not in ln:
                return ln.strip()[2:]
    return " ".join(ln.strip() for ln in lines[:1] + [lines[-1]] if ln) if len(lines) > 1 else lines[0]


def main(args: Sequence[str] | None = None) -> int:
    from maskopt import gc_paused

    try:
        with gc_paused():
            MaskOptMain(args).run()
    except SystemExit as e:  # argparse (--help, --version, usage errors)
        return e.code if isinstance(e.code, int) else EXIT_USAGE_ERROR
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return EXIT_OK
    except Exception as e:  # every error becomes one line, never a traceback
        code, text = _classify(e)
        print(f"mask-opt: {'internal error' if code == EXIT_INTERNAL_ERROR else 'error'}: {text}", file=sys.stderr)
        return code
    return EXIT_OK


def _classify(e: BaseException) -> tuple[int, str]:
    from xdsl.utils.exceptions import DiagnosticException, ParseError, VerifyException

    if isinstance(e, MaskOptError):
        return e.exit_code, str(e)
    if isinstance(e, ParseError):
        return EXIT_INPUT_ERROR, _one_line(e)
    if isinstance(e, (VerifyException, DiagnosticException)):
        return EXIT_INPUT_ERROR, _verify_message(e)
    if isinstance(e, OSError):
        name = getattr(e, "filename", None)
        return EXIT_INPUT_ERROR, f"{name + ': ' if name else ''}{e.strerror or e}"
    if isinstance(e, UnicodeDecodeError):
        return EXIT_INPUT_ERROR, f"the input is not UTF-8 text: {e}"
    return EXIT_INTERNAL_ERROR, f"{type(e).__name__}: {_one_line(e)} (a bug in maskopt; please report it)"


def _verify_message(e: BaseException) -> str:
    text = str(e)
    for ln in text.splitlines():
        s = ln.strip()
        if s.startswith("| ") and "Operation does not verify" not in s:
            return s[2:].strip()
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    return lines[-1] if lines else type(e).__name__


if __name__ == "__main__":
    sys.exit(main())
