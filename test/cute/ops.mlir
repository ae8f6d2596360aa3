// RUN: mask-opt %s | mask-opt | filecheck %s
// RUN: mask-opt %s --print-op-generic | mask-opt | filecheck %s
// RUN: mask-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// Round-trips of every op of the `cute` dialect.

mask.func @words window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32, %t : tensor<4xi64>):
  %ones = cute.constant 4294967295 : ui32
  %zero = cute.constant 0 : ui32
  %c3 = cute.constant 3 : i32
  %bits = cute.constant 2863311530 : ui32 hex
  %d = arith.subi %q, %kv : i32
  %du = cute.to_u32 %d : i32
  %x = mask.load %t[%b] : tensor<4xi64>[i32] -> i64
  %sat = cute.sat_u32 %x
  %sati = cute.sat_i32 %x
  %d64 = cute.to_i64 %d
  %lo32 = cute.to_u32 %d64 : i64
  %n = cute.neg_i32 %d
  %n64 = cute.neg_i64 %x
  %shl = cute.shl_u32 %ones, %n : i32
  %shr = cute.shr_u32 %ones, %du : ui32
  %add = cute.add %du, %sat : ui32
  %sub = cute.sub %d, %c3 : i32
  %max = cute.max %add, %du : ui32
  %min = cute.min %sub, %d : i32
  %and = cute.and %shl, %shr : ui32
  %bm = cute.bmsk %zero, %max
  %hi64 = cute.shl_hi64 %bits, %du : ui32
  %rem = cute.rem %d, %c3 : i32
  %neg = cute.lt %rem, %c3 : i32
  %sel = cute.select %neg, %rem, %d : i32
  %wi = cute.wrap_index %sel by 4 : i32
  %x32 = cute.to_i32 %x
  %su = cute.to_u32 %wi : i32
  %or = cute.or %bm, %su : ui32
  %w2 = cute.and %and, %or : ui32
  %s = cute.lanes %w2
  %w = interval.keep_word %s : i32
  mask.yield %w : i32
}

// CHECK-LABEL: mask.func @words window {
// CHECK:         %[[ONES:.*]] = cute.constant 4294967295 : ui32
// CHECK-NEXT:    %[[ZERO:.*]] = cute.constant 0 : ui32
// CHECK-NEXT:    %[[C3:.*]] = cute.constant 3 : i32
// CHECK-NEXT:    %[[BITS:.*]] = cute.constant 2863311530 : ui32 hex
// CHECK-NEXT:    %[[D:.*]] = arith.subi %{{.*}}, %{{.*}} : i32
// CHECK-NEXT:    %[[DU:.*]] = cute.to_u32 %[[D]] : i32
// CHECK-NEXT:    %[[X:.*]] = mask.load
// CHECK-NEXT:    %[[SAT:.*]] = cute.sat_u32 %[[X]]
// CHECK-NEXT:    %{{.*}} = cute.sat_i32 %[[X]]
// CHECK-NEXT:    %[[D64:.*]] = cute.to_i64 %[[D]]
// CHECK-NEXT:    %{{.*}} = cute.to_u32 %[[D64]] : i64
// CHECK-NEXT:    %[[N:.*]] = cute.neg_i32 %[[D]]
// CHECK-NEXT:    %{{.*}} = cute.neg_i64 %[[X]]
// CHECK-NEXT:    %[[SHL:.*]] = cute.shl_u32 %[[ONES]], %[[N]] : i32
// CHECK-NEXT:    %[[SHR:.*]] = cute.shr_u32 %[[ONES]], %[[DU]] : ui32
// CHECK-NEXT:    %[[ADD:.*]] = cute.add %[[DU]], %[[SAT]] : ui32
// CHECK-NEXT:    %[[SUB:.*]] = cute.sub %[[D]], %[[C3]] : i32
// CHECK-NEXT:    %[[MAX:.*]] = cute.max %[[ADD]], %[[DU]] : ui32
// CHECK-NEXT:    %{{.*}} = cute.min %[[SUB]], %[[D]] : i32
// CHECK-NEXT:    %[[AND:.*]] = cute.and %[[SHL]], %[[SHR]] : ui32
// CHECK-NEXT:    %[[BM:.*]] = cute.bmsk %[[ZERO]], %[[MAX]]
// CHECK-NEXT:    %{{.*}} = cute.shl_hi64 %[[BITS]], %[[DU]] : ui32
// CHECK-NEXT:    %[[REM:.*]] = cute.rem %[[D]], %[[C3]] : i32
// CHECK-NEXT:    %[[NEG:.*]] = cute.lt %[[REM]], %[[C3]] : i32
// CHECK-NEXT:    %[[SEL:.*]] = cute.select %[[NEG]], %[[REM]], %[[D]] : i32
// CHECK-NEXT:    %[[WI:.*]] = cute.wrap_index %[[SEL]] by 4 : i32
// CHECK-NEXT:    %{{.*}} = cute.to_i32 %[[X]]
// CHECK-NEXT:    %[[SU:.*]] = cute.to_u32 %[[WI]] : i32
// CHECK-NEXT:    %[[OR:.*]] = cute.or %[[BM]], %[[SU]] : ui32
// CHECK-NEXT:    %[[W2:.*]] = cute.and %[[AND]], %[[OR]] : ui32
// CHECK-NEXT:    %[[S:.*]] = cute.lanes %[[W2]]
// CHECK-NEXT:    %[[W:.*]] = interval.keep_word %[[S]] : i32
// CHECK-NEXT:    mask.yield %[[W]] : i32

// GENERIC: "cute.constant"() <{value = 4294967295 : ui32}> : () -> ui32
// GENERIC: "cute.to_u32"(%{{.*}}) : (i32) -> ui32
// GENERIC: "cute.sat_u32"(%{{.*}}) : (i64) -> ui32
// GENERIC: "cute.sat_i32"(%{{.*}}) : (i64) -> i32
// GENERIC: "cute.to_i64"(%{{.*}}) : (i32) -> i64
// GENERIC: "cute.to_u32"(%{{.*}}) : (i64) -> ui32
// GENERIC: "cute.neg_i32"(%{{.*}}) : (i32) -> i32
// GENERIC: "cute.neg_i64"(%{{.*}}) : (i64) -> i64
// GENERIC: "cute.shl_u32"(%{{.*}}, %{{.*}}) : (ui32, i32) -> ui32
// GENERIC: "cute.shr_u32"(%{{.*}}, %{{.*}}) : (ui32, ui32) -> ui32
// GENERIC: "cute.add"(%{{.*}}, %{{.*}}) : (ui32, ui32) -> ui32
// GENERIC: "cute.sub"(%{{.*}}, %{{.*}}) : (i32, i32) -> i32
// GENERIC: "cute.max"(%{{.*}}, %{{.*}}) : (ui32, ui32) -> ui32
// GENERIC: "cute.min"(%{{.*}}, %{{.*}}) : (i32, i32) -> i32
// GENERIC: "cute.and"(%{{.*}}, %{{.*}}) : (ui32, ui32) -> ui32
// GENERIC: "cute.bmsk"(%{{.*}}, %{{.*}}) : (ui32, ui32) -> ui32
// GENERIC: "cute.shl_hi64"(%{{.*}}, %{{.*}}) : (ui32, ui32) -> ui32
// GENERIC: "cute.rem"(%{{.*}}, %{{.*}}) : (i32, i32) -> i32
// GENERIC: "cute.lt"(%{{.*}}, %{{.*}}) : (i32, i32) -> i1
// GENERIC: "cute.select"(%{{.*}}, %{{.*}}, %{{.*}}) : (i1, i32, i32) -> i32
// GENERIC: "cute.wrap_index"(%{{.*}}) <{size = 4 : i64}> : (i32) -> i32
// GENERIC: "cute.to_i32"(%{{.*}}) : (i64) -> i32
// GENERIC: "cute.or"(%{{.*}}, %{{.*}}) : (ui32, ui32) -> ui32
// GENERIC: "cute.lanes"(%{{.*}}) : (ui32) -> !interval.set

mask.func @divisions window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32, %t : tensor<4xi64>):
  %d = arith.subi %q, %kv : i32
  %x = mask.load %t[%b] : tensor<4xi64>[i32] -> i64
  %sd = cute.safe_divisor %d : i32
  %sx = cute.safe_divisor %x or_minus_one : i64
  %m = cute.floor_rem %q, %sd : i32
  %n = cute.floor_rem %x, %sx negative : i64
  %a = cute.add_wrap %q, %kv : i32
  %s = cute.sub_wrap %x, %sx : i64
  %p = cute.mul_wrap %a, %d : i32
  %f = cute.floordiv_wrap %s, %sx : i64
  %n2 = arith.xori %n, %f : i64
  %n32 = arith.trunci %n2 : i64 to i32
  %y0 = arith.xori %m, %n32 : i32
  %y = arith.xori %y0, %p : i32
  mask.yield %y : i32
}

// CHECK-LABEL: mask.func @divisions window {
// CHECK:         %[[SD:.*]] = cute.safe_divisor %{{.*}} : i32
// CHECK-NEXT:    %[[SX:.*]] = cute.safe_divisor %{{.*}} or_minus_one : i64
// CHECK-NEXT:    %{{.*}} = cute.floor_rem %q, %[[SD]] : i32
// CHECK-NEXT:    %{{.*}} = cute.floor_rem %{{.*}}, %[[SX]] negative : i64
// CHECK-NEXT:    %[[A:.*]] = cute.add_wrap %q, %kv : i32
// CHECK-NEXT:    %[[S:.*]] = cute.sub_wrap %{{.*}}, %[[SX]] : i64
// CHECK-NEXT:    %{{.*}} = cute.mul_wrap %[[A]], %{{.*}} : i32
// CHECK-NEXT:    %{{.*}} = cute.floordiv_wrap %[[S]], %[[SX]] : i64

// GENERIC: "cute.safe_divisor"(%{{.*}}) : (i32) -> i32
// GENERIC: "cute.safe_divisor"(%{{.*}}) <{or_minus_one}> : (i64) -> i64
// GENERIC: "cute.floor_rem"(%{{.*}}, %{{.*}}) : (i32, i32) -> i32
// GENERIC: "cute.floor_rem"(%{{.*}}, %{{.*}}) <{negative}> : (i64, i64) -> i64
// GENERIC: "cute.add_wrap"(%{{.*}}, %{{.*}}) : (i32, i32) -> i32
// GENERIC: "cute.sub_wrap"(%{{.*}}, %{{.*}}) : (i64, i64) -> i64
// GENERIC: "cute.mul_wrap"(%{{.*}}, %{{.*}}) : (i32, i32) -> i32
// GENERIC: "cute.floordiv_wrap"(%{{.*}}, %{{.*}}) : (i64, i64) -> i64

mask.func @clamped window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32, %t : tensor<4xi64>):
  %d = arith.subi %q, %kv : i32
  %x = mask.load %t[%b] : tensor<4xi64>[i32] -> i64
  %both = cute.clamped_sub %d, %kv lo -32 hi 0 : i32
  %lo = cute.clamped_sub %d, %kv lo 0 : i32
  %hi = cute.clamped_sub %d, %kv hi 32 : i32
  %wide = cute.clamped_sub %x, %kv lo 0 hi 32 : i64
  %s = arith.addi %both, %lo : i32
  %s1 = arith.addi %s, %hi : i32
  %s2 = arith.addi %s1, %wide : i32
  mask.yield %s2 : i32
}

// CHECK-LABEL: mask.func @clamped window {
// CHECK:         %[[D:.*]] = arith.subi
// CHECK-NEXT:    %[[X:.*]] = mask.load
// CHECK-NEXT:    %{{.*}} = cute.clamped_sub %[[D]], %kv lo -32 hi 0 : i32
// CHECK-NEXT:    %{{.*}} = cute.clamped_sub %[[D]], %kv lo 0 : i32
// CHECK-NEXT:    %{{.*}} = cute.clamped_sub %[[D]], %kv hi 32 : i32
// CHECK-NEXT:    %{{.*}} = cute.clamped_sub %[[X]], %kv lo 0 hi 32 : i64

// GENERIC: "cute.clamped_sub"(%{{.*}}, %{{.*}}) <{lo = -32 : i64, hi = 0 : i64}> : (i32, i32) -> i32
// GENERIC: "cute.clamped_sub"(%{{.*}}, %{{.*}}) <{lo = 0 : i64}> : (i32, i32) -> i32
