// mask_mods that cannot be compiled (Inputs/bad_masks.py): one line each,
// `mask-opt: error: FILE:LINE[:COL]: ...` at the user's source, exit status
// 1, no traceback, no output file. (Each run imports torch: a few seconds;
// more bad mask_mods run in-process in test/python/test_mask_opt.py.)

// RUN: sh -c 'mask-opt %S/Inputs/bad_masks.py:raises -o %t.out; echo "exit $?"' 2>&1 | filecheck %s --check-prefix=RAISES
// RUN: sh -c 'mask-opt %S/Inputs/bad_masks.py:three_args -o %t.out; echo "exit $?"' 2>&1 | filecheck %s --check-prefix=ARITY
// RUN: sh -c 'mask-opt %S/Inputs/bad_masks.py:five_args -o %t.out; echo "exit $?"' 2>&1 | filecheck %s --check-prefix=ARITY5
// RUN: sh -c 'mask-opt %S/Inputs/bad_masks.py:not_bool -o %t.out; echo "exit $?"' 2>&1 | filecheck %s --check-prefix=NOTBOOL
// RUN: sh -c 'mask-opt %S/Inputs/bad_masks.py:float_bounds -o %t.out; echo "exit $?"' 2>&1 | filecheck %s --check-prefix=FLOAT
// RUN: not test -e %t.out

// RAISES:      {{^}}mask-opt: error: {{.*}}Inputs/bad_masks.py:10:30: mask_mod 'raises' failed to trace: KeyError: 'kv'{{$}}
// RAISES-NEXT: {{^}}exit 1{{$}}

// ARITY:       {{^}}mask-opt: error: {{.*}}Inputs/bad_masks.py:13:16: mask_mod 'three_args' takes 3 positional arguments, but a mask_mod needs 4 (b, h, q_idx, kv_idx){{$}}
// ARITY-NEXT:  {{^}}exit 1{{$}}

// ARITY5:      {{^}}mask-opt: error: {{.*}}Inputs/bad_masks.py:35:15: mask_mod 'five_args' takes 5 positional arguments, but a mask_mod needs 4 (b, h, q_idx, kv_idx){{$}}
// ARITY5-NEXT: {{^}}exit 1{{$}}

// NOTBOOL:      {{^}}mask-opt: error: {{.*}}Inputs/bad_masks.py:17: mask_mod 'not_bool': returned dtype torch.int32, expected torch.bool{{$}}
// NOTBOOL-NEXT: {{^}}exit 1{{$}}

// FLOAT:      {{^}}mask-opt: error: {{.*}}Inputs/bad_masks.py:22:21: aux tensor bounds has dtype torch.float32 (used in `bounds[q_idx]` (aten.index)); mask_mods compute on bool and integer tensors (int8, int16, int32, int64, uint8, uint16, uint32, uint64): store it as integers{{$}}
// FLOAT-NEXT: {{^}}exit 1{{$}}

