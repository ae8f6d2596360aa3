// RUN: sh -c 'mask-opt %s -t cute -o %t.py; echo "exit $?"' 2>&1 | filecheck %s
// RUN: not test -e %t.py
// RUN: mask-opt %s | filecheck %s --check-prefix=MLIR

// An empty module: the CuTe target needs a mask.func, the MLIR target
// prints the empty module.

// CHECK:      {{^}}mask-opt: error: -t cute: the module has no mask.func to print{{$}}
// CHECK-NEXT: {{^}}exit 1{{$}}
// MLIR:      builtin.module {
// MLIR-NEXT: }

builtin.module {
}
