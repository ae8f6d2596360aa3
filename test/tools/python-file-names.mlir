// Errors, remarks and notes about a Python input name the file as the user
// gave it on the command line, as compilers do: a relative path stays
// relative (the FX stack traces, hence op locations, carry it as given) and
// an absolute one stays absolute. (Each run but the syntax error imports
// torch: a few seconds.)

// Relative to the directory mask-opt runs in.
// RUN: cd %S && sh -c 'mask-opt Inputs/bad_masks.py:float_bounds; echo "exit $?"' 2>&1 | filecheck %s --check-prefix=IMPORT
// RUN: cd %S && sh -c 'mask-opt Inputs/bad_masks.py:raises; echo "exit $?"' 2>&1 | filecheck %s --check-prefix=RAISES
// RUN: cd %S && sh -c 'mask-opt Inputs/syntax_error.py:causal; echo "exit $?"' 2>&1 | filecheck %s --check-prefix=SYNTAX
// RUN: cd %S/../.. && mask-opt tools/examples/masks.py:document_gather 2>&1 >/dev/null | filecheck %s --check-prefix=REMARK
// RUN: cd %S && not mask-opt ./Inputs/../Inputs/bad_masks.py:float_math 2>&1 | filecheck %s --check-prefix=DOTS

// IMPORT:      {{^}}mask-opt: error: Inputs/bad_masks.py:22:21: aux tensor bounds has dtype torch.float32 (used in `bounds[q_idx]` (aten.index)); {{.*}}{{$}}
// IMPORT-NEXT: {{^}}exit 1{{$}}
// RAISES:      {{^}}mask-opt: error: Inputs/bad_masks.py:10:30: mask_mod 'raises' failed to trace: KeyError: 'kv'{{$}}
// RAISES-NEXT: {{^}}exit 1{{$}}
// SYNTAX:      {{^}}mask-opt: error: Inputs/syntax_error.py:4:32: importing the file raised SyntaxError: {{.*}}{{$}}
// SYNTAX-NEXT: {{^}}exit 1{{$}}
// REMARK:      {{^}}tools/examples/masks.py:40:31: remark: mask.func @document_gather not packed: `doc_ids[kv_idx]` is a per-lane gather: its index depends on kv_idx{{$}}
// REMARK-NEXT: {{^}}        return (doc_ids[q_idx] == doc_ids[kv_idx]) & (kv_idx <= q_idx){{$}}
// REMARK-NEXT: {{^}}                                  ^~~~~~~~~~~~~~~{{$}}
// REMARK-NEXT: {{^}}tools/examples/masks.py:40:31: note: if documents are contiguous, {{.*}}{{$}}
// REMARK-NOT:  {{.}}
// DOTS:        {{^}}mask-opt: error: ./Inputs/../Inputs/bad_masks.py:26:22: `q_idx.float()` (prims.convert_element_type) has dtype torch.float32; {{.*}}{{$}}

// Absolute.
// RUN: sh -c 'mask-opt %S/Inputs/bad_masks.py:float_bounds; echo "exit $?"' 2>&1 | filecheck %s --check-prefix=ABSOLUTE -DDIR=%S
// RUN: cd %S && mask-opt %S/../../tools/examples/masks.py:document_gather --no-remark-source 2>&1 >/dev/null | filecheck %s --check-prefix=ABSREMARK -DDIR=%S
// ABSOLUTE:      {{^}}mask-opt: error: [[DIR]]/Inputs/bad_masks.py:22:21: aux tensor bounds has dtype torch.float32 {{.*}}{{$}}
// ABSOLUTE-NEXT: {{^}}exit 1{{$}}
// ABSREMARK:     {{^}}[[DIR]]/../../tools/examples/masks.py:40:31: remark: mask.func @document_gather not packed: {{.*}}{{$}}
