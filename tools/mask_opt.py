"""
`mask-opt`: maskopt's driver, xDSL's `xdsl-opt` with a curated set of
dialects, passes and targets.

    mask-opt in.mlir -p pack-mask -t cute
    mask-opt in.mlir -p 'lane-affine,fold-intervals{max-intervals=4}'
    mask-opt masks.py:causal -t cute          # trace, pack (pack-mask), print
    mask-opt --split-input-file --print-op-generic in.mlir

Dialects: builtin, arith, mask, interval. Passes: canonicalize, cse, dce,
lane-affine, fold-intervals, simplify-intervals, pack-mask. Targets: mlir,
cute. A `.py` input (`FILE.py:FUNCTION`, FUNCTION defaulting to `mask_mod`)
is traced like inductor does and, without `-p`, packed with `pack-mask`.
Functions that do not pack are reported as remarks on stderr.

Extra passes and targets come from `maskopt.register_pass`/`register_target`
in plugin modules: `maskopt.plugins` entry points and `$MASKOPT_PLUGINS`
(comma-separated module names).

Errors (a missing file, malformed IR, an op that fails verification, an
exception in the user's mask_mod, an unknown pass) print one line,
`mask-opt: error: ...`, and exit with status 1; `-o` is written only when
the whole run succeeds.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys
import tempfile
from collections.abc import Sequence
from io import StringIO
from typing import IO

from xdsl.dialects.builtin import ModuleOp
from xdsl.xdsl_opt_main import xDSLOptMain

EXIT_ERROR = 1


class MaskOptError(Exception):
    """A user-facing error: printed as one line, exit status 1."""


def get_all_dialects():
    def get_builtin():
        from xdsl.dialects.builtin import Builtin

        return Builtin

    def get_arith():
        from xdsl.dialects.arith import Arith

        return Arith

    def get_mask():
        from maskopt.dialects.mask import Mask

        return Mask

    def get_interval():
        from maskopt.dialects.interval import Interval

        return Interval

    return {
        "builtin": get_builtin,
        "arith": get_arith,
        "mask": get_mask,
        "interval": get_interval,
    }


def get_all_targets():
    def get_mlir():
        from xdsl.targets.mlir import MLIRTarget

        return MLIRTarget

    def get_cute():
        from maskopt.lowering.cute import CuteTarget

        return CuteTarget

    return {"mlir": get_mlir, "cute": get_cute} | _REGISTERED_TARGETS


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


# Targets added at run time with `register_target` (`maskopt.register_target`).
_REGISTERED_TARGETS: dict = {}


def register_target(name: str, factory, *, replace: bool = False) -> None:
    """Add a `-t` target: an xDSL `Target` class or a function returning it."""
    from xdsl.utils.target import Target

    if isinstance(factory, type):
        if not issubclass(factory, Target):
            raise TypeError(f"{factory.__name__} is not an xDSL Target")
        cls = factory
        factory = lambda: cls  # noqa: E731
    elif not callable(factory):
        raise TypeError(f"target factory for '{name}' is not callable")
    if not replace and name in get_all_targets():
        raise ValueError(f"a target named '{name}' is already registered")
    _REGISTERED_TARGETS[name] = factory


def split_python_spec(spec: str) -> tuple[str, str] | None:
    """`file.py:fn` -> (file.py, fn); `file.py` -> (file.py, mask_mod)."""
    path, sep, fn = spec.rpartition(":")
    if sep and path.endswith(".py") and fn.isidentifier():
        return path, fn
    if spec.endswith(".py"):
        return spec, "mask_mod"
    return None


def import_python_mask(path: str, fn_name: str) -> ModuleOp:
    """Load `fn_name` from the Python file `path`, trace and import it."""
    if not os.path.isfile(path):
        raise MaskOptError(f"{path}: no such file")
    spec = importlib.util.spec_from_file_location("_mask_opt_user_module", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except Exception as e:  # the user's file failed to run
        raise MaskOptError(f"{path}: importing the file raised {type(e).__name__}: {e}") from e
    fn = getattr(module, fn_name, None)
    if fn is None:
        raise MaskOptError(f"{path}: no function named '{fn_name}'")
    if not callable(fn):
        raise MaskOptError(f"{path}: '{fn_name}' is not a function")
    from maskopt.lowering.fx_import import FXImportError, import_mask_mod
    from maskopt.lowering.trace import MaskTraceError

    try:
        module_op, _ = import_mask_mod(fn, name=fn_name)
    except (MaskTraceError, FXImportError) as e:
        raise MaskOptError(str(e)) from e
    return module_op


class MaskOptMain(xDSLOptMain):
    """xdsl-opt with maskopt's dialects, passes and targets."""

    version_format = "mask-opt (maskopt) built on xdsl {xdsl_version}"

    def __init__(self, args: Sequence[str] | None = None):
        self.python_input: tuple[str, str] | None = None
        argv = list(sys.argv[1:] if args is None else args)
        super().__init__(description="maskopt: pack FlexAttention mask_mods into keep words", args=argv)

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
        super().register_all_arguments(arg_parser)
        arg_parser.add_argument(
            "--no-remarks",
            default=False,
            action="store_true",
            help="Do not report functions that did not pack",
        )

    def setup_pipeline(self):
        spec = self.args.input_file and split_python_spec(self.args.input_file)
        if spec:
            self.python_input = spec
            if not self.args.passes:
                self.args.passes = "pack-mask"
        try:
            super().setup_pipeline()
        except Exception as e:
            raise MaskOptError(f"invalid pass pipeline '{self.args.passes}': {e}") from e

    def run(self):
        if self.python_input is not None:
            module = import_python_mask(*self.python_input)
            self.apply_passes(module)
            text = self.output_resulting_program(module)
            self.report(module)
            self.write_output(text)
            return
        if self.args.input_file is not None and not os.path.isfile(self.args.input_file):
            raise MaskOptError(f"{self.args.input_file}: no such file")
        real_output, self.args.output_file = self.args.output_file, None
        buffer = _KeptOpen()
        self.prepare_output = lambda: buffer  # type: ignore[method-assign]
        try:
            super().run()
        finally:
            self.args.output_file = real_output
        self.write_output(buffer.getvalue())

    def apply_passes(self, prog: ModuleOp):
        super().apply_passes(prog)
        if self.python_input is None:
            self.report(prog)

    def report(self, module: ModuleOp) -> None:
        """Print a remark for every function that did not pack."""
        if self.args.no_remarks:
            return
        from maskopt.dialects.mask import FuncOp

        for op in module.walk():
            if isinstance(op, FuncOp) and op.unpacked is not None:
                where = _format_loc(op) or (self.args.input_file or "<stdin>")
                print(
                    f"{where}: remark: mask.func @{op.sym_name.data} not packed: "
                    f"{op.unpacked.data}",
                    file=sys.stderr,
                )

    def write_output(self, text: str) -> None:
        """Write to -o atomically (a temp file renamed into place), or stdout."""
        path = self.args.output_file
        if path is None:
            sys.stdout.write(text)
            sys.stdout.flush()
            return
        directory = os.path.dirname(os.path.abspath(path))
        fd, tmp = tempfile.mkstemp(dir=directory, prefix=".mask-opt-")
        try:
            with os.fdopen(fd, "w") as f:
                f.write(text)
            os.replace(tmp, path)
        except BaseException:
            if os.path.exists(tmp):
                os.unlink(tmp)
            raise

    def prepare_output(self) -> IO[str]:  # replaced in run()
        return sys.stdout


class _KeptOpen(StringIO):
    """A buffer xDSLOptMain.run may `close()` without losing its contents."""

    def close(self) -> None:
        pass


def _format_loc(op) -> str | None:
    from xdsl.dialects.builtin import FileLineColLoc

    loc = op.location
    if isinstance(loc, FileLineColLoc):
        return f"{loc.filename.data}:{loc.line.data}:{loc.column.data}"
    for inner in op.walk():
        loc = inner.location
        if isinstance(loc, FileLineColLoc):
            return f"{loc.filename.data}:{loc.line.data}:{loc.column.data}"
    return None


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
    try:
        MaskOptMain(args).run()
    except SystemExit:
        raise
    except KeyboardInterrupt:
        return 130
    except Exception as e:  # every error becomes one line, never a traceback
        print(f"mask-opt: error: {_error_text(e)}", file=sys.stderr)
        return EXIT_ERROR
    return 0


def _error_text(e: BaseException) -> str:
    from xdsl.utils.exceptions import DiagnosticException, VerifyException

    if isinstance(e, MaskOptError):
        return str(e)
    if isinstance(e, (VerifyException, DiagnosticException)):
        return _verify_message(e)
    return _one_line(e)


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
