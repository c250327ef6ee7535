/*
 * ptl_atomic.c -- the atomic operations of ptl.h section 6 applied to
 * memory: which (operation, datatype, length) a call may ask for, and the
 * element-by-element update the target's CPU performs on the matched path.
 * Pure (no MPI, no UCX): unit-tested against a model by ptl_unit.
 *
 * Every naturally aligned element is updated by a compare-and-swap loop on
 * its bits, so it is atomic with respect to any other atomic instruction on
 * it -- the NI's other CPU-path atomics, and UCX's atomics from peers (the
 * NIC path, consistent with the CPU's: ptl.h section 6).  A misaligned
 * element is read and written plainly: the caller holds the NI's lock,
 * which every CPU-path atomic holds, and the NIC path never takes one.
 */
#include <string.h>

#include "ptl_internal.h"

/* One element: the new value of t (bits tb) from x (xb) and the operand o
 * (ob); 0 when a conditional swap leaves it as it is.  FP: T is a
 * floating type (arithmetic in T), else integer arithmetic on the bits
 * (wrapping, no signed overflow). */
#define PTL_AMO_ELEM(NAME, T, W, FP)                                                                                   \
  static int NAME(ptl_op_t op, W tb, W xb, W ob, W *nb) {                                                              \
    T t, x, o, r;                                                                                                      \
    memcpy(&t, &tb, sizeof(T));                                                                                        \
    memcpy(&x, &xb, sizeof(T));                                                                                        \
    memcpy(&o, &ob, sizeof(T));                                                                                        \
    switch (op) {                                                                                                      \
      case PTL_MIN: r = x < t ? x : t; break;                                                                          \
      case PTL_MAX: r = x > t ? x : t; break;                                                                          \
      case PTL_SUM:                                                                                                    \
        if (FP) r = t + x;                                                                                             \
        else { *nb = tb + xb; return 1; }                                                                              \
        break;                                                                                                         \
      case PTL_PROD:                                                                                                   \
        if (FP) r = t * x;                                                                                             \
        else { *nb = tb * xb; return 1; }                                                                              \
        break;                                                                                                         \
      case PTL_LOR: *nb = (W)(tb != 0 || xb != 0); return 1;                                                           \
      case PTL_LAND: *nb = (W)(tb != 0 && xb != 0); return 1;                                                          \
      case PTL_LXOR: *nb = (W)((tb != 0) != (xb != 0)); return 1;                                                      \
      case PTL_BOR: *nb = tb | xb; return 1;                                                                           \
      case PTL_BAND: *nb = tb & xb; return 1;                                                                          \
      case PTL_BXOR: *nb = tb ^ xb; return 1;                                                                          \
      case PTL_SWAP: *nb = xb; return 1;                                                                               \
      case PTL_CSWAP: if (!(o == t)) return 0; *nb = xb; return 1;                                                     \
      case PTL_CSWAP_NE: if (!(o != t)) return 0; *nb = xb; return 1;                                                  \
      case PTL_CSWAP_LE: if (!(o <= t)) return 0; *nb = xb; return 1;                                                  \
      case PTL_CSWAP_LT: if (!(o < t)) return 0; *nb = xb; return 1;                                                   \
      case PTL_CSWAP_GE: if (!(o >= t)) return 0; *nb = xb; return 1;                                                  \
      case PTL_CSWAP_GT: if (!(o > t)) return 0; *nb = xb; return 1;                                                   \
      case PTL_MSWAP: *nb = (tb & ~ob) | (xb & ob); return 1;                                                          \
      default: return 0;                                                                                               \
    }                                                                                                                  \
    memcpy(nb, &r, sizeof(T));                                                                                         \
    return 1;                                                                                                          \
  }
PTL_AMO_ELEM(amo_i32, int32_t, uint32_t, 0)
PTL_AMO_ELEM(amo_u32, uint32_t, uint32_t, 0)
PTL_AMO_ELEM(amo_i64, int64_t, uint64_t, 0)
PTL_AMO_ELEM(amo_u64, uint64_t, uint64_t, 0)
PTL_AMO_ELEM(amo_f32, float, uint32_t, 1)
PTL_AMO_ELEM(amo_f64, double, uint64_t, 1)

/* Every element of [t, +len): atomic where aligned (a CAS loop on its
 * bits), else plain; the old bits into fetched (if not NULL). */
#define PTL_AMO_APPLY(NAME, ELEM, W)                                                                                   \
  static void NAME(char *t, const char *x, W ob, char *fetched, size_t len, ptl_op_t op) {                             \
    for (size_t i = 0; i < len; i += sizeof(W)) {                                                                      \
      W old, xb, nb;                                                                                                   \
      memcpy(&xb, x + i, sizeof(W));                                                                                   \
      if (((uintptr_t)(t + i) & (sizeof(W) - 1)) == 0) {                                                               \
        W *p = (W *)(void *)(t + i);                                                                                   \
        old = __atomic_load_n(p, __ATOMIC_RELAXED);                                                                    \
        while (ELEM(op, old, xb, ob, &nb) &&                                                                           \
               !__atomic_compare_exchange_n(p, &old, nb, 1, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED)) {                     \
        }                                                                                                              \
      } else {                                                                                                         \
        memcpy(&old, t + i, sizeof(W));                                                                                \
        if (ELEM(op, old, xb, ob, &nb)) memcpy(t + i, &nb, sizeof(W));                                                 \
      }                                                                                                                \
      if (fetched) memcpy(fetched + i, &old, sizeof(W));                                                               \
    }                                                                                                                  \
  }
PTL_AMO_APPLY(apply_i32, amo_i32, uint32_t)
PTL_AMO_APPLY(apply_u32, amo_u32, uint32_t)
PTL_AMO_APPLY(apply_i64, amo_i64, uint64_t)
PTL_AMO_APPLY(apply_u64, amo_u64, uint64_t)
PTL_AMO_APPLY(apply_f32, amo_f32, uint32_t)
PTL_AMO_APPLY(apply_f64, amo_f64, uint64_t)

void ptl_atomic_apply(void *target, const void *data, const void *operand, void *fetched, size_t len, ptl_op_t op,
                      ptl_datatype_t dt) {
  uint64_t o64 = 0;
  uint32_t o32 = 0;
  if (operand && ptl_dt_size(dt) == 8)
    memcpy(&o64, operand, 8);
  else if (operand)
    memcpy(&o32, operand, 4);
  switch (dt) {
    case PTL_INT32_T: apply_i32(target, data, o32, fetched, len, op); break;
    case PTL_UINT32_T: apply_u32(target, data, o32, fetched, len, op); break;
    case PTL_INT64_T: apply_i64(target, data, o64, fetched, len, op); break;
    case PTL_UINT64_T: apply_u64(target, data, o64, fetched, len, op); break;
    case PTL_FLOAT: apply_f32(target, data, o32, fetched, len, op); break;
    case PTL_DOUBLE: apply_f64(target, data, o64, fetched, len, op); break;
    default: break;
  }
}
