/*
 * ref_ratomic.c -- the reference remote atomics (ratomic.h): every type,
 * every operation, on every stage, over the Core's AMs.
 *
 * An operation on another node is one AM Short request (STP_H_AD_REQ)
 * carrying the operation, the type, the target address, both operands, the
 * initiator's result address and event record; the target does it with CPU
 * atomics (stp_ad_cpu) and replies (STP_H_AD_REPLY) with the old value,
 * which the reply handler stores at the result address (fetching
 * operations) before finishing the event's count.  An operation on the
 * caller's own node is the same CPU atomic, done at once (no count).
 *
 * CPU atomics: __atomic builtins, sequentially consistent; integer
 * ADD/SUB/INC/DEC/AND/OR/XOR are fetch-and-op (two's complement: signed and
 * unsigned alike), MULT/MIN/MAX and every FLT/DBL arithmetic a CAS loop;
 * (F)CAS on FLT/DBL compares bits (the description allows it).  Every
 * operation on a node's memory in a reference domain is one of these, by
 * that node's CPU, so they are atomic with each other.
 *
 * Ordering: GEX_FLAG_AD_ACQ -- an acquire fence when the operation
 * completes (own node: at once; else in the reply handler, before the count
 * finishes); the release fence of GEX_FLAG_AD_REL is the API layer's.
 * IMMEDIATE: the request is sent IMMEDIATE; the Core's refusal is the
 * call's (nothing counted, nothing sent).
 */
#include "stp_internal.h"

#include "ratomic.h"

/* ------------------------------------------------------------------ */
/* CPU atomics                                                         */
/* ------------------------------------------------------------------ */
#define SEQ __ATOMIC_SEQ_CST

/* The non-fetching operation of op (SWAP: SET, FCAS: CAS; GET stays). */
static inline gex_OP_t base_op(gex_OP_t op) {
  return (op != GEX_OP_GET && (op & STP_AD_FETCHING)) ? GEX_OP_TO_NONFETCHING(op) : op;
}

/* GET, SET and CAS of any type: on its bits (a float's CAS compares bits) */
#define BITS_ATOMIC(NAME, U)                                              \
  static U NAME(gex_OP_t op, U *p, U b1, U b2) {                          \
    U old = b1;                                                           \
    if (op == GEX_OP_GET) return __atomic_load_n(p, SEQ);                 \
    if (op == GEX_OP_SET) return __atomic_exchange_n(p, b1, SEQ);         \
    (void)__atomic_compare_exchange_n(p, &old, b2, 0, SEQ, SEQ); /* CAS */ \
    return old;                                                           \
  }
BITS_ATOMIC(bits32, uint32_t)
BITS_ATOMIC(bits64, uint64_t)

/* the other operations: integer types, T the C type, U its unsigned twin */
#define INT_ATOMIC(NAME, T, U)                                                      \
  static U NAME(gex_OP_t op, U *p, U b1, U b2) {                                    \
    U old, nw;                                                                      \
    (void)b2;                                                                       \
    switch (base_op(op)) {                                                          \
    case GEX_OP_ADD: return __atomic_fetch_add(p, b1, SEQ);                         \
    case GEX_OP_SUB: return __atomic_fetch_sub(p, b1, SEQ);                         \
    case GEX_OP_INC: return __atomic_fetch_add(p, (U)1, SEQ);                       \
    case GEX_OP_DEC: return __atomic_fetch_sub(p, (U)1, SEQ);                       \
    case GEX_OP_AND: return __atomic_fetch_and(p, b1, SEQ);                         \
    case GEX_OP_OR: return __atomic_fetch_or(p, b1, SEQ);                           \
    case GEX_OP_XOR: return __atomic_fetch_xor(p, b1, SEQ);                         \
    default: break;                                                                 \
    }                                                                               \
    old = __atomic_load_n(p, __ATOMIC_RELAXED);                                     \
    do {                                                                            \
      T a = (T)old, v = (T)b1;                                                      \
      switch (base_op(op)) {                                                        \
      case GEX_OP_MULT: nw = (U)(old * b1); break;                                  \
      case GEX_OP_MIN: nw = (U)(a < v ? a : v); break;                              \
      case GEX_OP_MAX: nw = (U)(a > v ? a : v); break;                              \
      default: stp_fatal("remote atomics: operation 0x%x on an integer", (unsigned)op); \
      }                                                                             \
    } while (!__atomic_compare_exchange_n(p, &old, nw, 1, SEQ, __ATOMIC_RELAXED));  \
    return old;                                                                     \
  }
INT_ATOMIC(cpu_i32, int32_t, uint32_t)
INT_ATOMIC(cpu_u32, uint32_t, uint32_t)
INT_ATOMIC(cpu_i64, int64_t, uint64_t)
INT_ATOMIC(cpu_u64, uint64_t, uint64_t)

/* floating types: T the C type, U the unsigned integer of its bits */
#define FP_ATOMIC(NAME, T, U)                                                      \
  static U NAME(gex_OP_t op, U *p, U b1, U b2) {                                   \
    U old, nw;                                                                     \
    T v;                                                                           \
    (void)b2;                                                                      \
    memcpy(&v, &b1, sizeof(v));                                                    \
    old = __atomic_load_n(p, __ATOMIC_RELAXED);                                    \
    do {                                                                           \
      T a, r;                                                                      \
      memcpy(&a, &old, sizeof(a));                                                 \
      switch (base_op(op)) {                                                       \
      case GEX_OP_ADD: r = a + v; break;                                           \
      case GEX_OP_SUB: r = a - v; break;                                           \
      case GEX_OP_MULT: r = a * v; break;                                          \
      case GEX_OP_INC: r = a + 1; break;                                           \
      case GEX_OP_DEC: r = a - 1; break;                                           \
      case GEX_OP_MIN: r = a < v ? a : v; break;                                   \
      case GEX_OP_MAX: r = a > v ? a : v; break;                                   \
      default: stp_fatal("remote atomics: operation 0x%x on a floating type", (unsigned)op); \
      }                                                                            \
      memcpy(&nw, &r, sizeof(nw));                                                 \
    } while (!__atomic_compare_exchange_n(p, &old, nw, 1, SEQ, __ATOMIC_RELAXED)); \
    return old;                                                                    \
  }
FP_ATOMIC(cpu_flt, float, uint32_t)
FP_ATOMIC(cpu_dbl, double, uint64_t)

uint64_t stp_ad_cpu(gex_DT_t dt, gex_OP_t op, void *addr, uint64_t op1, uint64_t op2) {
  gex_OP_t b = base_op(op);
  if (b == GEX_OP_GET || b == GEX_OP_SET || b == GEX_OP_CAS)
    return (dt & (GEX_DT_I64 | GEX_DT_U64 | GEX_DT_DBL)) ? bits64(b, addr, op1, op2)
                                                         : bits32(b, addr, (uint32_t)op1, (uint32_t)op2);
  switch (dt) {
  case GEX_DT_I32: return cpu_i32(op, addr, (uint32_t)op1, (uint32_t)op2);
  case GEX_DT_U32: return cpu_u32(op, addr, (uint32_t)op1, (uint32_t)op2);
  case GEX_DT_I64: return cpu_i64(op, addr, op1, op2);
  case GEX_DT_U64: return cpu_u64(op, addr, op1, op2);
  case GEX_DT_FLT: return cpu_flt(op, addr, (uint32_t)op1, (uint32_t)op2);
  case GEX_DT_DBL: return cpu_dbl(op, addr, op1, op2);
  default: stp_fatal("remote atomics: data type 0x%x", (unsigned)dt);
  }
}

/* The old value to the initiator's result location (the type's size). */
static inline void store_result(void *result_p, uint64_t old, gex_DT_t dt) {
  if (dt & (GEX_DT_I32 | GEX_DT_U32 | GEX_DT_FLT)) {
    uint32_t v = (uint32_t)old;
    memcpy(result_p, &v, sizeof(v));
  } else {
    memcpy(result_p, &old, sizeof(old));
  }
}

/* ------------------------------------------------------------------ */
/* handlers                                                            */
/* ------------------------------------------------------------------ */
/* request: op, dt | cat << 8 | acq << 16, addr, op1, op2, result, ev (pairs) */
#define ACQ_BIT (1u << 16)

static void req_handler(gex_Token_t token, gex_AM_Arg_t op, gex_AM_Arg_t dtc, gex_AM_Arg_t a_lo, gex_AM_Arg_t a_hi,
                        gex_AM_Arg_t o1_lo, gex_AM_Arg_t o1_hi, gex_AM_Arg_t o2_lo, gex_AM_Arg_t o2_hi,
                        gex_AM_Arg_t r_lo, gex_AM_Arg_t r_hi, gex_AM_Arg_t ev_lo, gex_AM_Arg_t ev_hi) {
  gex_DT_t dt = (gex_DT_t)((uint32_t)dtc & 0xffu);
  void *addr = STP_ARG_PTR(a_lo, a_hi);
  unsigned size = (dt & (GEX_DT_I64 | GEX_DT_U64 | GEX_DT_DBL)) ? 8 : 4;
  uint64_t old;
  if (STP_UNLIKELY(!stp_in_my_segment(addr, size) || ((uintptr_t)addr & (size - 1))))
    stp_bad_address("a remote atomic", ((stp_token_t *)token)->src, addr, size);
  old = stp_ad_cpu(dt, (gex_OP_t)(uint32_t)op, addr, STP_ARG_U64(o1_lo, o1_hi), STP_ARG_U64(o2_lo, o2_hi));
  {
    gex_AM_Arg_t args[7] = {STP_ARG_LO(old), STP_ARG_HI(old), dtc, r_lo, r_hi, ev_lo, ev_hi};
    stp_am_t am = {STP_AM_SHORT, 0, STP_H_AD_REPLY, 7, args, NULL, 0, NULL, 0, NULL, 0};
    stp_am_reply(token, &am);
  }
}

static void reply_handler(gex_Token_t token, gex_AM_Arg_t old_lo, gex_AM_Arg_t old_hi, gex_AM_Arg_t dtc,
                          gex_AM_Arg_t r_lo, gex_AM_Arg_t r_hi, gex_AM_Arg_t ev_lo, gex_AM_Arg_t ev_hi) {
  void *result_p = STP_ARG_PTR(r_lo, r_hi);
  uint32_t d = (uint32_t)dtc;
  (void)token;
  if (result_p) store_result(result_p, STP_ARG_U64(old_lo, old_hi), (gex_DT_t)(d & 0xffu));
  if (d & ACQ_BIT) stp_fence(__ATOMIC_ACQUIRE);
  stp_ev_finish(STP_ARG_PTR(ev_lo, ev_hi), (int)((d >> 8) & 0xffu));
}

static const stp_handler_reg_t ad_handlers[] = {
    {STP_H_AD_REQ, (gex_AM_Fn_t)req_handler},
    {STP_H_AD_REPLY, (gex_AM_Fn_t)reply_handler},
};

void stp_ad_ref_register(void) {
  for (size_t k = 0; k < sizeof(ad_handlers) / sizeof(ad_handlers[0]); k++) {
    stp.handler[ad_handlers[k].index].fn = ad_handlers[k].fn;
    memset(&stp.handler[ad_handlers[k].index].entry, 0, sizeof(gex_AM_Entry_t));
  }
}

/* ------------------------------------------------------------------ */
/* the implementation                                                  */
/* ------------------------------------------------------------------ */
static int ref_supports(gex_DT_t dt, gex_OP_t ops, gex_Flags_t flags) {
  (void)dt, (void)ops, (void)flags;
  return 1;
}

static int ref_op(struct _stp_ad *ad, void *result_p, gex_Rank_t node, void *addr, gex_OP_t op, uint64_t op1,
                  uint64_t op2, gex_Flags_t flags, stp_ev_t *ev) {
  int cat = stp_ad_cat(op);
  if (node == stp.mynode) {
    uint64_t old = stp_ad_cpu(ad->dt, op, addr, op1, op2);
    if (result_p) store_result(result_p, old, ad->dt);
    if (flags & GEX_FLAG_AD_ACQ) stp_fence(__ATOMIC_ACQUIRE);
    return 0;
  }
  {
    uint32_t dtc = (uint32_t)ad->dt | ((uint32_t)cat << 8) | ((flags & GEX_FLAG_AD_ACQ) ? ACQ_BIT : 0);
    gex_AM_Arg_t args[12] = {(gex_AM_Arg_t)op,       (gex_AM_Arg_t)dtc,      STP_ARG_LO(addr),     STP_ARG_HI(addr),
                             STP_ARG_LO(op1),        STP_ARG_HI(op1),        STP_ARG_LO(op2),      STP_ARG_HI(op2),
                             STP_ARG_LO(result_p),   STP_ARG_HI(result_p),   STP_ARG_LO(ev),       STP_ARG_HI(ev)};
    stp_am_t am = {STP_AM_SHORT, 0, STP_H_AD_REQ, 12, args, NULL, 0, NULL, flags & GEX_FLAG_IMMEDIATE, NULL, 0};
    stp_ev_start(ev, cat);
    if (STP_UNLIKELY(stp_am_request(node, &am))) {
      stp_ev_finish(ev, cat);
      return 1;
    }
  }
  return 0;
}

const stp_ad_impl_t stp_ad_ref_impl = {
    .name = "reference",
    .supports = ref_supports,
    .op = ref_op,
};
