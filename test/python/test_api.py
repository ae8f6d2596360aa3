"""The public Python API: compile_mask, pipelines, pass/target registries."""

from __future__ import annotations

import io
import subprocess
import sys
import textwrap
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass

import pytest
import torch
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.utils.target import Target

import maskopt
from maskopt.dialects import mask
from maskopt.lowering import cute_emulator
from maskopt.lowering.trace import trace_mask_mod
from maskopt.tools import corpus

CAUSAL_MLIR = textwrap.dedent(
    """\
    mask.func @causal {
    ^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
      %ge = arith.cmpi sge, %q, %kv : i32
      mask.yield %ge : i1
    }
    """
)


def _grid(n_q=40, n_kv=48):
    q = torch.arange(0, 40 * n_q, 40, dtype=torch.int32).repeat_interleave(n_kv)
    kv = torch.arange(0, 32 * n_kv, 32, dtype=torch.int32).repeat(n_q) + 5
    z = torch.zeros_like(q)
    return z, z, q, kv


# compile_mask ---------------------------------------------------------------------


def test_compile_mask_packed_result():
    def window(b, h, q_idx, kv_idx):
        return (q_idx >= kv_idx) & (q_idx - kv_idx <= 256)

    r = maskopt.compile_mask(window)
    assert r.packed and r.reason is None and not r.remarks
    assert r.name == "window"
    assert "interval.keep_word" in r.ir and "mask.func @window" in r.ir
    assert "def mask_mod(" in r.cute_source and "__vec_size__ = 32" in r.cute_source
    assert len(r.keep_mask_exprs) == 1
    b, h, q, kv = _grid()
    assert torch.equal(r.emulate().keep_words(b, h, q, kv), corpus.reference_words(window, b, h, q, kv))


def test_compile_mask_unpacked_result_has_reason_and_remark():
    case = corpus.get_case("doc_mask_gather")
    r = maskopt.compile_mask(case.make(), name="doc_mask_gather")
    assert not r.packed and "per-lane gather" in r.reason
    assert r.keep_mask_exprs == []
    (remark,) = r.remarks
    assert remark.function == "doc_mask_gather" and remark.reason == r.reason
    assert remark.location and remark.location.split(":")[0].endswith("corpus.py")
    assert str(remark).startswith(f"{remark.location}: remark: mask.func @doc_mask_gather not packed: ")


def _three(b, q_idx, kv_idx):
    return q_idx >= kv_idx


def _five(b, h, q_idx, kv_idx, window):
    return q_idx - kv_idx <= window


def _optional(b, q_idx=0, kv_idx=0):
    return q_idx >= kv_idx


def _at_least_five(b, h, q_idx, kv_idx, window, *rest):
    return q_idx - kv_idx <= window


def _keyword(b, h, q_idx, kv_idx, *, window):
    return q_idx - kv_idx <= window


@pytest.mark.parametrize(
    ("fn", "message"),
    [
        (_three, "mask_mod '_three' takes 3 positional arguments, but a mask_mod needs 4 (b, h, q_idx, kv_idx)"),
        (_five, "mask_mod '_five' takes 5 positional arguments, but a mask_mod needs 4 (b, h, q_idx, kv_idx)"),
        (_optional, "mask_mod '_optional' takes from 1 to 3 positional arguments, but a mask_mod needs 4 (b, h, q_idx, kv_idx)"),
        (_at_least_five, "mask_mod '_at_least_five' takes at least 5 positional arguments, but a mask_mod needs 4 (b, h, q_idx, kv_idx)"),
        (
            _keyword,
            "mask_mod '_keyword' has a required keyword-only argument 'window', but a mask_mod "
            "is called with 4 positional arguments (b, h, q_idx, kv_idx)",
        ),
        (lambda b, h, q: q >= 0, "mask_mod '<lambda>' takes 3 positional arguments, but a mask_mod needs 4"),
    ],
)
def test_compile_mask_wrong_arity(fn, message):
    from maskopt.lowering.trace import MaskTraceError

    with pytest.raises(MaskTraceError) as e:
        maskopt.compile_mask(fn)
    assert str(e.value).startswith(message), str(e.value)
    # Where: the first parameter of the def (for mask-opt's FILE:LINE:COL).
    file, line, col = e.value.location
    assert file == __file__
    assert open(file).read().splitlines()[line - 1][col - 1 :].startswith("b")


def test_compile_mask_arity_with_defaults_or_varargs_is_fine():
    def windowed(b, h, q_idx, kv_idx, window=128):
        return (q_idx >= kv_idx) & (q_idx - kv_idx <= window)

    def star(b, h, *idx):
        return idx[0] >= idx[1]

    assert maskopt.compile_mask(windowed).packed and maskopt.compile_mask(star).packed


def test_compile_mask_graph_module_with_aux_tensors():
    fn = corpus.get_case("doc_start_causal_i32").make()
    traced = trace_mask_mod(fn)
    gm = traced.graph_module
    for node in gm.graph.nodes:  # an embedder's graph may lack placeholder metadata
        if node.op == "placeholder" and node.name not in ("b", "h", "q_idx", "kv_idx"):
            node.meta.pop("val"), node.meta.pop("tensor_meta")
    r = maskopt.compile_mask(gm, aux_tensors=traced.aux_tensors, name="doc")
    assert r.packed and r.name == "doc" and r.aux_tensors == traced.aux_tensors
    b, h, q, kv = _grid(n_q=25)  # q < 1000: the doc tensors' length
    words = r.emulate().keep_words(b, h, q, kv, aux_tensors=r.aux_tensors)
    assert torch.equal(words, corpus.reference_words(fn, b, h, q, kv))
    with pytest.raises(TypeError, match="aux_tensors= is for a GraphModule"):
        maskopt.compile_mask(fn, aux_tensors=traced.aux_tensors)


def _doc_window(doc, start):
    """A mask_mod with two aux tensors: a per-batch offset and a per-head start."""

    def doc_window(b, h, q_idx, kv_idx):
        return (kv_idx <= q_idx + doc[b]) & (kv_idx >= start[h])

    return doc_window


def _eager_words(mask_mod, points):
    """Keep words of (b, h, q, kv_base) points: bit L = eager mask_mod(b, h, q, kv_base + L)."""
    words = []
    for b, h, q, kv in points:
        idx = [torch.tensor(x, dtype=torch.int32) for x in (b, h, q)]
        words.append(
            sum(1 << lane for lane in range(32) if bool(mask_mod(*idx, torch.tensor(kv + lane, dtype=torch.int32))))
        )
    return torch.tensor(words, dtype=torch.int64)


_DOC_POINTS = [(0, 0, 0, 0), (1, 2, 40, 30), (2, 1, 100, 96), (3, 3, 7, 0), (1, 0, 64, 64), (3, 2, 500, 480)]


def test_emulate_reads_the_compiled_aux_tensors():
    """`r.emulate().keep_words(b, h, q, kv_base)` (the README's call) reads
    `r.aux_tensors`; `aux_tensors=` overrides them with new values."""
    doc = torch.tensor([0, 3, 17, 40], dtype=torch.int32)
    start = torch.tensor([0, 5, 44, 2], dtype=torch.int64)
    r = maskopt.compile_mask(_doc_window(doc, start))
    assert r.packed and len(r.aux_tensors) == 2
    b, h, q, kv = (torch.tensor(c, dtype=torch.int32) for c in zip(*_DOC_POINTS))
    words = r.emulate().keep_words(b, h, q, kv)
    assert torch.equal(words, _eager_words(_doc_window(doc, start), _DOC_POINTS))
    assert words.ne(0).any() and words.ne(0xFFFFFFFF).any()
    assert torch.equal(r.emulate().keep_bits(b, h, q, kv), cute_emulator.unpack_words(words))
    doc2 = torch.tensor([9, 0, 2, 31], dtype=torch.int32)
    start2 = torch.tensor([3, 0, 90, 11], dtype=torch.int64)
    new = r.emulate().keep_words(b, h, q, kv, aux_tensors=[doc2, start2])
    assert torch.equal(new, _eager_words(_doc_window(doc2, start2), _DOC_POINTS))
    assert not torch.equal(new, words)


def test_emulate_missing_aux_tensor_is_a_clear_error():
    doc = torch.tensor([0, 3, 17, 40], dtype=torch.int32)
    start = torch.tensor([0, 5, 44, 2], dtype=torch.int64)
    r = maskopt.compile_mask(_doc_window(doc, start))
    b, h, q, kv = (torch.tensor(c, dtype=torch.int32) for c in zip(*_DOC_POINTS))
    # Too few or too many given explicitly: named before anything runs.
    with pytest.raises(ValueError, match=r"reads 2 aux tensors, 1 given: aux_tensors\[1\] \(start: torch.int64 \(4,\)\) is missing"):
        r.emulate().keep_words(b, h, q, kv, aux_tensors=[doc])
    with pytest.raises(ValueError, match=r"reads 2 aux tensors \(doc: torch.int32 \(4,\), start: torch.int64 \(4,\)\), 3 given"):
        r.emulate().keep_words(b, h, q, kv, aux_tensors=[doc, start, doc])
    # An emulator that knows nothing of them: the read names the tensor.
    emu = cute_emulator.load_module(r.cute_source)
    with pytest.raises(ValueError, match=r"the mask_mod reads aux_tensors\[\d\], but 0 aux tensors were given"):
        emu.keep_words(b, h, q, kv)
    with pytest.raises(ValueError, match=r"the mask_mod reads aux_tensors\[1\], but 1 aux tensor was given"):
        emu.keep_words(b, h, q, kv, aux_tensors=[doc])
    assert torch.equal(emu.keep_words(b, h, q, kv, aux_tensors=r.aux_tensors), r.emulate().keep_words(b, h, q, kv))


def test_compile_mask_max_intervals_and_custom_pipeline():
    def two_runs(b, h, q_idx, kv_idx):
        return (kv_idx < 10) | (q_idx == kv_idx)

    assert maskopt.compile_mask(two_runs).packed
    one = maskopt.compile_mask(two_runs, max_intervals=1)
    assert not one.packed and one.reason
    seen = []
    r = maskopt.compile_mask(
        two_runs,
        pipeline="canonicalize,lane-affine,fold-intervals{max-intervals=2}",
        callback=lambda p, m: seen.append(p.name),
    )
    assert r.packed and seen == ["canonicalize", "lane-affine", "fold-intervals"]


# Pipelines ------------------------------------------------------------------------


def test_pipeline_parse_print_and_stages():
    p = maskopt.Pipeline.parse("lane-affine,fold-intervals{max-intervals=4},simplify-intervals")
    assert [q.name for q in p.passes] == ["lane-affine", "fold-intervals", "simplify-intervals"]
    assert p.passes[1].max_intervals == 4
    assert maskopt.Pipeline.parse(str(p)) == p
    full = maskopt.Pipeline.pack_mask(3)
    assert str(full).count(",") == 9 and "fold-intervals{max_intervals=3}" in str(full)
    module = maskopt.parse_mlir(CAUSAL_MLIR)
    before = str(module)
    stages = full.stages(module)
    assert str(module) == before  # stages() runs on a clone
    assert [name for name, _ in stages][:3] == ["canonicalize", "cse", "lane-affine"]
    assert "mask.lane_cmp" in stages[2][1] and "interval.keep_word" in stages[-1][1]
    with pytest.raises(ValueError, match="Unrecognized passes"):
        maskopt.Pipeline.parse("no-such-pass")


# A malformed spec: (spec, column, the text found there, None at the end).
MALFORMED_PIPELINES = [
    ("pack-mask{", 11, None, "expected argument name here"),
    ("pack-mask}", 10, "}", "expected a comma or pass arguments here"),
    (",", 1, ",", "expected pass name here"),
    ("pack-mask,,cse", 11, ",", "expected pass name here"),
    ("{}", 1, "{", "expected pass name here"),
    ("fold-intervals{max-intervals=}", 30, "}", "unknown argument value"),
    ("pack-mask,", 11, None, "expected pass name here"),  # mlir-opt rejects it too
    ("lane-affine,fold-intervals{max-intervals=4},", 45, None, "expected pass name here"),
]


@pytest.mark.parametrize(("spec", "column", "found", "reason"), MALFORMED_PIPELINES)
def test_pipeline_parse_malformed_spec_says_where(spec, column, found, reason):
    with pytest.raises(maskopt.PipelineSyntaxError) as info:
        maskopt.Pipeline.parse(spec)
    e = info.value
    assert isinstance(e, ValueError)  # like an unknown pass or option
    assert (e.spec, e.column, e.found) == (spec, column, found)
    at = "the end" if found is None else f"'{found}'"
    assert str(e).startswith(f"column {column}, at {at}: {reason}") and "\n" not in str(e)
    assert e.__notes__ == [f"  {spec}\n  {' ' * (column - 1)}^"]  # the caret, in a traceback
    with pytest.raises(maskopt.PipelineSyntaxError):
        maskopt.compile_mask(lambda b, h, q, kv: q >= kv, pipeline=spec)


# A malformed target spec: (spec, column, the text found there, None at the end).
MALFORMED_TARGETS = [
    ("cute{", 6, None, "expected argument name here"),
    ("cute}", 5, "}", "expected `{` or the end of the target here"),
    ("{}", 1, "{", "expected target name here"),
    ("", 1, None, "expected target name here"),
    ("cute{x=}", 8, "}", "unknown argument value"),
    ("cute,mlir", 5, ",", "expected `{` or the end of the target here"),
    ("cute,", 5, ",", "expected `{` or the end of the target here"),
    ("cute{}x", 7, "x", "expected the end of the target here"),
]


@pytest.mark.parametrize(("spec", "column", "found", "reason"), MALFORMED_TARGETS)
def test_emit_malformed_target_says_where(spec, column, found, reason):
    module = maskopt.parse_mlir(CAUSAL_MLIR)
    with pytest.raises(maskopt.TargetSyntaxError) as info:
        maskopt.emit(module, spec)
    e = info.value
    # A target spec has the syntax of one pass: the same error, and a ValueError.
    assert isinstance(e, maskopt.PipelineSyntaxError) and isinstance(e, ValueError)
    assert (e.spec, e.column, e.found) == (spec, column, found)
    at = "the end" if found is None else f"'{found}'"
    assert str(e).startswith(f"column {column}, at {at}: {reason}") and "\n" not in str(e)
    assert e.__notes__ == [f"  {spec}\n  {' ' * (column - 1)}^"]


def test_emit_well_formed_target_specs():
    module = maskopt.parse_mlir(CAUSAL_MLIR)
    assert maskopt.emit(module, "cute{}") == maskopt.emit(module, "cute")
    assert "mask.func @causal" in maskopt.emit(module, "mlir")


def test_run_pipeline_callback_sees_module_after_each_pass():
    module = maskopt.parse_mlir(CAUSAL_MLIR)
    seen: list[tuple[str, bool]] = []

    def callback(p: ModulePass, m: ModuleOp) -> None:
        seen.append((p.name, "interval.keep_word" in str(m)))

    out = maskopt.run_pipeline(module, "lane-affine,fold-intervals", callback=callback)
    assert out is module
    assert seen == [("lane-affine", False), ("fold-intervals", True)]
    again = maskopt.Pipeline.of("canonicalize") + "cse"
    assert [q.name for q in again.passes] == ["canonicalize", "cse"]


# Registries -----------------------------------------------------------------------


@dataclass(frozen=True)
class TagFuncs(ModulePass):
    """Test pass: renames every mask.func to `<prefix><name>`."""

    name = "tag-funcs"
    prefix: str = "t_"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        from xdsl.dialects.builtin import StringAttr

        for f in op.walk():
            if isinstance(f, mask.FuncOp):
                f.sym_name = StringAttr(self.prefix + f.sym_name.data)


@dataclass(frozen=True)
class FuncNames(Target):
    """Test target: one line per mask.func: its name and whether it packed."""

    name = "func-names"

    def emit(self, ctx: Context, module: ModuleOp, output) -> None:
        for f in module.walk():
            if isinstance(f, mask.FuncOp):
                print(f"{f.sym_name.data} packed={f.is_packed}", file=output)


@pytest.fixture
def registered():
    from maskopt.passes import _REGISTERED
    from maskopt.lowering import _REGISTERED_TARGETS

    maskopt.register_pass("tag-funcs", TagFuncs)
    maskopt.register_target("func-names", lambda: FuncNames)
    yield
    _REGISTERED.pop("tag-funcs", None)
    _REGISTERED_TARGETS.pop("func-names", None)


def test_registered_pass_and_target_in_api_and_driver(registered, tmp_path):
    assert "tag-funcs" in maskopt.get_all_passes() and "func-names" in maskopt.get_all_targets()
    module = maskopt.parse_mlir(CAUSAL_MLIR)
    maskopt.run_pipeline(module, "tag-funcs{prefix=x_},pack-mask")
    assert maskopt.emit(module, "func-names") == "x_causal packed=True\n"
    # mask-opt (in this process) sees both.
    from maskopt.tools.mask_opt import main

    src = tmp_path / "causal.mlir"
    src.write_text(CAUSAL_MLIR)
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        rc = main([str(src), "-p", "tag-funcs,pack-mask", "-t", "func-names"])
    assert rc == 0, err.getvalue()
    assert out.getvalue() == "t_causal packed=True\n"


def test_register_refuses_taken_names_and_wrong_classes(registered):
    with pytest.raises(ValueError, match="already registered"):
        maskopt.register_pass("tag-funcs", TagFuncs)
    with pytest.raises(ValueError, match="already registered"):
        maskopt.register_pass("lane-affine", lambda: TagFuncs)
    with pytest.raises(ValueError, match="is named 'tag-funcs'"):
        maskopt.register_pass("other-name", TagFuncs)
    with pytest.raises(TypeError, match="not an xDSL ModulePass"):
        maskopt.register_pass("not-a-pass", FuncNames)
    with pytest.raises(ValueError, match="already registered"):
        maskopt.register_target("cute", FuncNames)
    maskopt.register_pass("tag-funcs", lambda: TagFuncs, replace=True)
    with pytest.raises(ValueError, match="unknown target 'nope'"):
        maskopt.emit(maskopt.parse_mlir(CAUSAL_MLIR), "nope")


def test_ir_api_imports_neither_torch_nor_cutlass():
    code = textwrap.dedent(
        f"""
        import sys
        import maskopt, maskopt.inductor
        m = maskopt.parse_mlir({CAUSAL_MLIR!r})
        maskopt.Pipeline.pack_mask().run(m)
        src = maskopt.emit(m, "cute")
        assert "def mask_mod(" in src
        bad = [n for n in ("torch", "cutlass", "sympy") if n in sys.modules]
        assert not bad, bad
        # The dialect and target registries are the library's, not the CLI's.
        maskopt.get_all_targets(), maskopt.register_target("x", lambda: None)
        assert "maskopt.tools.mask_opt" not in sys.modules
        """
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_every_module_loads_under_one_name():
    """One module object per file: the root package's folder is no subpackage
    of maskopt.tools (issue 17). Every maskopt module is imported in a fresh
    process; no file may be in sys.modules under two names, and
    `maskopt.tools.api` (the folder's old name) is not a second `maskopt`."""
    code = textwrap.dedent(
        """
        import collections, importlib, os, pkgutil, sys
        import maskopt, maskopt.inductor, maskopt.tools.mask_opt
        names = ["maskopt"]
        # An editable install maps each subpackage onto its own folder, so
        # maskopt.__path__ only holds the root package's: walk each of them.
        for pkg in ("maskopt", "maskopt.dialects", "maskopt.passes", "maskopt.lowering", "maskopt.tools"):
            names.append(pkg)
            path = importlib.import_module(pkg).__path__
            names += [m.name for m in pkgutil.walk_packages(path, pkg + ".")]
        for name in names:
            importlib.import_module(name)
        for alias, name in [("maskopt.tools.api", "maskopt"),
                            ("maskopt.tools.api.inductor", "maskopt.inductor")]:
            try:
                mod = importlib.import_module(alias)
            except ModuleNotFoundError:
                continue
            # A namespace package (no file: e.g. an old checkout's leftover
            # tools/api/__pycache__/) is no copy; anything else must be one object.
            if getattr(mod, "__file__", None) is not None:
                assert mod is sys.modules[name], f"{alias} is a second copy of {name}"
        by_file = collections.defaultdict(set)
        for name, mod in list(sys.modules.items()):
            if getattr(mod, "__file__", None):
                by_file[os.path.realpath(mod.__file__)].add(name)
        twice = {f: sorted(n) for f, n in by_file.items()
                 if len(n) > 1 and any(x == "maskopt" or x.startswith("maskopt.") for x in n)}
        assert not twice, twice
        print(len(set(names)), "modules")
        """
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert int(run.stdout.split()[0]) >= 30, run.stdout  # the walk found the packages


def test_emitted_keep_mask_exprs_or_to_the_word():
    """CompiledMask.keep_mask_exprs: OR-ed in a template, they give the module's words."""
    r = maskopt.compile_mask(corpus.get_case("streaming_sink").make())
    assert len(r.keep_mask_exprs) == 2  # the sink and the causal window
    body = "\n".join(f"    w = w | {e}" for e in r.keep_mask_exprs)
    source = (
        "import cutlass\nimport cutlass.cute as cute\nfrom flash_attn.cute import utils\n\n"
        "@cute.jit\ndef mask_mod(b_idx, h_idx, q_idx, kv_idx, seqlen_info, aux_tensors):\n"
        f"    w = cutlass.Uint32(0)\n{body}\n"
        "    packed = cute.make_rmem_tensor(1, dtype=cutlass.Uint32)\n"
        "    packed[0] = w\n    return packed.load()\n\nmask_mod.__vec_size__ = 32\n"
    )
    b, h, q, kv = _grid()
    got = cute_emulator.load_module(source).keep_words(b, h, q, kv)
    assert torch.equal(got, r.emulate().keep_words(b, h, q, kv))


@pytest.mark.parametrize("links", [20, 170, 400])
def test_keep_mask_exprs_are_parsable_or_absent(links):
    """A self-contained expression is one line of Python: CPython rejects more
    than 200 nested brackets. A deep affine chain gets none (the module, which
    names its values, still packs), a shallow one gets expressions that parse;
    the inductor drop-in goes per-lane rather than hand inductor a SyntaxError."""
    from maskopt import inductor as mi
    from maskopt.tools.bench_speed import gen_affine_chain

    gm = gen_affine_chain(links)
    r = maskopt.compile_mask(gm)
    assert r.packed
    compile(r.cute_source, "module", "exec")
    elements = mi.select_packed_mask_intervals(gm)
    if links > 300:
        assert r.keep_mask_exprs == [] and elements is None
    if links < 100:
        assert r.keep_mask_exprs and elements
    for e in [*r.keep_mask_exprs, *(x.keep_mask_expr() for x in elements or ())]:
        compile(e, "expr", "eval")


def test_mask_opt_cli_loads_plugins(tmp_path):
    """A plugin module ($MASKOPT_PLUGINS or a `maskopt.plugins` entry point)
    registers a pass and a target that the mask-opt command line uses."""
    import os
    import shutil

    (tmp_path / "my_maskopt_plugin.py").write_text(
        textwrap.dedent(
            """\
            import maskopt

            def _pass():
                from dataclasses import dataclass
                from xdsl.passes import ModulePass

                @dataclass(frozen=True)
                class Nothing(ModulePass):
                    name = "do-nothing"

                    def apply(self, ctx, op):
                        pass

                return Nothing

            def _target():
                from dataclasses import dataclass
                from xdsl.utils.target import Target

                @dataclass(frozen=True)
                class Count(Target):
                    name = "count-funcs"

                    def emit(self, ctx, module, output):
                        print(len(list(module.ops)), file=output)

                return Count

            maskopt.register_pass("do-nothing", _pass)
            maskopt.register_target("count-funcs", _target)
            """
        )
    )
    src = tmp_path / "causal.mlir"
    src.write_text(CAUSAL_MLIR)
    mask_opt = shutil.which("mask-opt", path=os.path.dirname(sys.executable))
    env = dict(os.environ, MASKOPT_PLUGINS="my_maskopt_plugin", PYTHONPATH=str(tmp_path))
    run = subprocess.run(
        [mask_opt, str(src), "-p", "do-nothing,pack-mask", "-t", "count-funcs"],
        env=env, capture_output=True, text=True,
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout == "1\n"
    env["MASKOPT_PLUGINS"] = "no_such_plugin_module"
    run = subprocess.run([mask_opt, str(src)], env=env, capture_output=True, text=True)
    assert run.returncode == 1
    assert run.stderr.startswith("mask-opt: error: plugin no_such_plugin_module: ModuleNotFoundError")


def test_cute_module_is_the_lowered_ir_the_targets_print():
    """`CompiledMask.cute_module` is `module` after interval-to-cute, on a copy:
    the interval IR stays in `module` (block masks read it), the word forms are
    `cute` ops in `cute_module`, and printing either gives `cute_source`."""
    import io

    from maskopt.lowering.cute import print_cute_module

    r = maskopt.compile_mask(lambda b, h, q, kv: q >= kv, name="causal")
    assert "interval.range" in r.ir and "cute." not in r.ir
    assert "cute.lanes" in r.cute_ir and "cute.shr_u32" in r.cute_ir and "interval.range" not in r.cute_ir
    assert r.cute_module is not r.module
    for m in (r.module, r.cute_module):
        out = io.StringIO()
        print_cute_module(m, out)
        assert out.getvalue() == r.cute_source
    unpacked = maskopt.compile_mask(lambda b, h, q, kv: (q ^ kv) > 1000, name="per_lane")
    assert not unpacked.packed and unpacked.cute_module is unpacked.module  # nothing to lower
    # a per-lane floor remainder of a dividend that may be negative: lowered too
    remainder = maskopt.compile_mask(lambda b, h, q, kv: (q * kv) % 7 == 0, name="per_lane_remainder")
    assert not remainder.packed and remainder.cute_module is not remainder.module
    assert "cute.floor_rem" in remainder.cute_ir and "mask.floormod" in remainder.ir
