// RUN: not mask-opt %s -t cute 2>&1 | filecheck %s
// RUN: mask-opt %s | filecheck %s --check-prefix=MLIR

// An empty module: the CuTe target needs a mask.func, the MLIR target
// prints the empty module.

// CHECK: mask-opt: error: the module has no mask.func to print
// MLIR:      builtin.module {
// MLIR-NEXT: }

builtin.module {
}
