/*
 * ratomic.h -- the atomics seam: how the library performs remote atomics
 * (gex_AD_*, gasnet_ratomic.h).
 *
 * An implementation is one const stp_ad_impl_t.  The reference
 * (ext-ref/ref_ratomic.c: stp_ad_ref_impl) works on every stage; a stage's
 * RMA backend may offer a specialization in its table's `ad` field (rma.h;
 * ext-ucx: stp_ad_ucx_impl).
 *
 * The domain rule: gex_AD_Create picks ONE implementation for a domain --
 * the backend's if it says it can do the domain's type with the WHOLE
 * operation set (and flags), else the reference; STAGEPORT_AD_IMPL=reference
 * always the reference -- and every operation of the domain, on any rank
 * including the caller's own, goes through that one.  A NIC's atomics are
 * not coherent with a CPU's on the same memory, so a domain never mixes
 * them.  The choice depends only on arguments every member passes alike
 * (and on the knob, which must agree), so every member chooses the same
 * without communicating.
 *
 * The API layer (api/ex_ratomic.c) owns everything the typed variants
 * share: argument checks (operation in the set, the call's type, alignment,
 * the target inside the target's bound segment, flags), rank translation
 * (team rank or GEX_FLAG_RANK_IS_JOBRANK to job rank, `node`), the event
 * (a pooled root for NB, the NBI set) and the release fence
 * (GEX_FLAG_AD_REL: before op() is called).  Then:
 *
 *  - supports(dt, ops, flags): at creation; non-zero if this
 *    implementation can do every operation in ops on dt.
 *  - op(ad, result_p, node, addr, op, op1, op2, flags, ev): one operation.
 *    Operands are the type's bits in a uint64_t (a 32-bit type's in the
 *    low half; FLT and DBL their IEEE bits).  result_p: where a fetching
 *    operation's old value goes (the type's size), NULL otherwise.  Counts
 *    in ev, category stp_ad_cat(op): start before returning, finish once
 *    the operation is done at the target and the old value is at
 *    *result_p (or finish at once / never start, when it completed inline).
 *    GEX_FLAG_AD_ACQ in flags: an acquire fence once complete, before the
 *    count finishes.  GEX_FLAG_IMMEDIATE: return 1, having done nothing, if
 *    it would have to wait for a resource; else 0.  The caller's own node
 *    is passed like any other.
 *  - Progress: completions come from the Core's handlers or the network's
 *    poll, never from another thread.
 */
#ifndef STP_RATOMIC_H
#define STP_RATOMIC_H

#include <stdint.h>

#include "event.h"
#include "gasnetex.h"

struct _stp_ad;

typedef struct stp_ad_impl {
  const char *name;
  int (*supports)(gex_DT_t dt, gex_OP_t ops, gex_Flags_t flags);
  int (*op)(struct _stp_ad *ad, void *result_p, gex_Rank_t node, void *addr, gex_OP_t op, uint64_t op1, uint64_t op2,
            gex_Flags_t flags, stp_ev_t *ev);
} stp_ad_impl_t;

/* A domain: what gex_AD_Create was given, and the implementation chosen. */
struct _stp_ad {
  gex_TM_t tm;
  gex_DT_t dt;
  gex_OP_t ops;
  gex_Flags_t flags;
  const void *cdata;
  const stp_ad_impl_t *impl;
  unsigned size; /* the type's size: 4 or 8 */
};

/* The event category an operation counts in (the description: SET is a
 * put's, GET a get's, every other an atomic's). */
static inline int stp_ad_cat(gex_OP_t op) {
  return op == GEX_OP_SET ? STP_EC_PUT : op == GEX_OP_GET ? STP_EC_GET : STP_EC_RMW;
}
/* Operations that write the old value to *result_p. */
#define STP_AD_FETCHING                                                                                              \
  (GEX_OP_FAND | GEX_OP_FOR | GEX_OP_FXOR | GEX_OP_FADD | GEX_OP_FSUB | GEX_OP_FMULT | GEX_OP_FMIN | GEX_OP_FMAX | \
   GEX_OP_FINC | GEX_OP_FDEC | GEX_OP_SWAP | GEX_OP_FCAS | GEX_OP_GET)

/* The reference (ext-ref/ref_ratomic.c), and its CPU atomic: the operation
 * on *addr (aligned, dt's type), returning the old value's bits -- what the
 * target of an AM does, and an own-rank operation. */
extern const stp_ad_impl_t stp_ad_ref_impl;
uint64_t stp_ad_cpu(gex_DT_t dt, gex_OP_t op, void *addr, uint64_t op1, uint64_t op2);

#endif /* STP_RATOMIC_H */
