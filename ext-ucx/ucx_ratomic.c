/*
 * ucx_ratomic.c -- remote atomics as UCX atomics (ratomic.h), the
 * specialization of the ucx and ucx-mpi stages (their RMA table's `ad`).
 *
 * A domain qualifies when its type is an integer (I32, U32, I64, U64) and
 * every operation of its set maps onto ucp_atomic_op_nbx:
 *   ADD/FADD, SUB/FSUB (add -op1), INC/FINC (add 1), DEC/FDEC (add -1),
 *   AND, OR, XOR (posted), SWAP, FCAS, GET (fetch-add 0), and SET (swap)
 *   and CAS (cswap) whose old value goes to a scratch word.
 * FLT/DBL, MULT, MIN, MAX and the fetching FAND/FOR/FXOR (wrong in UCX
 * 1.13.1, below) are not UCX's: such a domain is the reference's whole,
 * never part UCX and part CPU.  GEX_FLAG_AD_FAVOR_MY_RANK
 * also takes the reference (its own-rank operations are plain CPU atomics,
 * no UCX round).  Every operation of a UCX domain, the caller's own rank
 * included (UCX's self endpoint), goes to UCX, into the target's segment
 * through its key; the API layer has checked the range (checks on).
 *
 * Each operation holds a record (operand, scratch result, the event's
 * callback data) until UCX completes it: the operand and reply buffer must
 * stay put until then.  A posted operation (ADD, SUB, INC, DEC, AND, OR,
 * XOR: no reply buffer) is complete for UCX once sent; the endpoint's flush
 * after it, counted in the same event, makes the event's completion mean
 * "done at the target" (a sum read after a barrier sees every rank's ADD).  Completion counts in the event (stp_uc_ev_*, the
 * category ratomic.h's stp_ad_cat); GEX_FLAG_AD_ACQ adds an acquire fence
 * before the count finishes.  IMMEDIATE: refused behind sends UCX still
 * holds for the node (as ucx_rma.c).
 */
#include "ucx_conduit.h"

#include <stdlib.h>

#include "ratomic.h"

/* (FAND, FOR, FXOR: not here -- UCX 1.13.1's fetching AND/OR/XOR, on every
 * transport (self, shared memory, tcp), return the old value but apply the
 * operation with that old value as the operand (x|x, x^x = 0, x&x): a domain
 * with one of them is the reference's.) */
#define UCX_OPS                                                                                                  \
  (GEX_OP_SET | GEX_OP_GET | GEX_OP_SWAP | GEX_OP_CAS | GEX_OP_FCAS | GEX_OP_ADD | GEX_OP_FADD | GEX_OP_SUB |    \
   GEX_OP_FSUB | GEX_OP_INC | GEX_OP_FINC | GEX_OP_DEC | GEX_OP_FDEC | GEX_OP_AND | GEX_OP_OR | GEX_OP_XOR)

static int ucx_ad_supports(gex_DT_t dt, gex_OP_t ops, gex_Flags_t flags) {
  if (!(dt & (GEX_DT_I32 | GEX_DT_U32 | GEX_DT_I64 | GEX_DT_U64))) return 0;
  if (ops & ~UCX_OPS) return 0;
  return !(flags & GEX_FLAG_AD_FAVOR_MY_RANK);
}

/* ------------------------------------------------------------------ */
/* operation records (pooled: no malloc per operation after warm-up)   */
/* ------------------------------------------------------------------ */
typedef struct rec {
  uint64_t operand;  /* what `buffer` points to */
  uint64_t scratch;  /* SET/CAS: the reply buffer (CAS: the swap value going in) */
  void *ud;          /* the event's callback data (stp_uc_ev_param) */
  int acq;
  struct rec *next;
} rec_t;
static rec_t *free_recs;

static rec_t *rec_get(void) {
  rec_t *r = free_recs;
  if (r) free_recs = r->next;
  else if (!(r = malloc(sizeof(*r)))) stp_fatal("ucx stage: remote atomics: out of memory");
  return r;
}
static void rec_put(rec_t *r) {
  r->next = free_recs;
  free_recs = r;
}

static void rec_done(void *req, ucs_status_t st, void *user_data) {
  rec_t *r = user_data;
  void *ud = r->ud;
  if (r->acq) stp_fence(__ATOMIC_ACQUIRE);
  rec_put(r);
  stp_uc_ev_done(req, st, ud);
}

/* ------------------------------------------------------------------ */
/* an operation                                                        */
/* ------------------------------------------------------------------ */
static int ucx_ad_op(struct _stp_ad *ad, void *result_p, gex_Rank_t node, void *addr, gex_OP_t op, uint64_t op1,
                     uint64_t op2, gex_Flags_t flags, stp_ev_t *ev) {
  int cat = stp_ad_cat(op);
  unsigned size = ad->size;
  uint64_t mask = size == 8 ? UINT64_MAX : UINT32_MAX;
  ucp_atomic_op_t uop;
  void *reply = result_p;
  ucp_request_param_t p;
  ucs_status_ptr_t req;
  rec_t *r;

  if (STP_UNLIKELY(flags & GEX_FLAG_IMMEDIATE) && stp_uc_queued(node)) return 1;
  r = rec_get();
  r->acq = (flags & GEX_FLAG_AD_ACQ) != 0;
  switch (op) {
  case GEX_OP_SET: uop = UCP_ATOMIC_OP_SWAP, r->operand = op1, reply = &r->scratch; break;
  case GEX_OP_SWAP: uop = UCP_ATOMIC_OP_SWAP, r->operand = op1; break;
  case GEX_OP_GET: uop = UCP_ATOMIC_OP_ADD, r->operand = 0; break;
  case GEX_OP_CAS: uop = UCP_ATOMIC_OP_CSWAP, r->operand = op1, r->scratch = op2, reply = &r->scratch; break;
  case GEX_OP_FCAS: /* (the reply buffer carries the swap value in) */
    uop = UCP_ATOMIC_OP_CSWAP, r->operand = op1;
    if (size == 8) memcpy(result_p, &op2, 8);
    else {
      uint32_t v = (uint32_t)op2;
      memcpy(result_p, &v, 4);
    }
    break;
  case GEX_OP_ADD: case GEX_OP_FADD: uop = UCP_ATOMIC_OP_ADD, r->operand = op1; break;
  case GEX_OP_SUB: case GEX_OP_FSUB: uop = UCP_ATOMIC_OP_ADD, r->operand = (0 - op1) & mask; break;
  case GEX_OP_INC: case GEX_OP_FINC: uop = UCP_ATOMIC_OP_ADD, r->operand = 1; break;
  case GEX_OP_DEC: case GEX_OP_FDEC: uop = UCP_ATOMIC_OP_ADD, r->operand = mask; break;
  case GEX_OP_AND: uop = UCP_ATOMIC_OP_AND, r->operand = op1; break;
  case GEX_OP_OR: uop = UCP_ATOMIC_OP_OR, r->operand = op1; break;
  case GEX_OP_XOR: uop = UCP_ATOMIC_OP_XOR, r->operand = op1; break;
  default: stp_fatal("ucx stage: remote atomics: operation 0x%x in a UCX domain", (unsigned)op);
  }
  if (size == 4) { /* 32-bit operands in the first 4 bytes */
    uint32_t v = (uint32_t)r->operand, s = (uint32_t)r->scratch;
    memcpy(&r->operand, &v, 4);
    memcpy(&r->scratch, &s, 4);
  }

  p.op_attr_mask = UCP_OP_ATTR_FIELD_DATATYPE;
  p.datatype = ucp_dt_make_contig(size);
  if (reply) {
    p.op_attr_mask |= UCP_OP_ATTR_FIELD_REPLY_BUFFER;
    p.reply_buffer = reply;
  }
  stp_uc_ev_param(&p, ev, cat);
  r->ud = p.user_data;
  p.cb.send = rec_done;
  p.user_data = r;
  req = ucp_atomic_op_nbx(stp_uc.u.ep[node], uop, &r->operand, 1, (uint64_t)(uintptr_t)addr, stp_uc_rkey(node), &p);
  if (stp_uc_ev_track(req, ev, cat, "a remote atomic on", node)) { /* completed at once (or failed while closing) */
    if (r->acq) stp_fence(__ATOMIC_ACQUIRE);
    rec_put(r);
  }
  if (!reply) { /* posted: UCX completes it when sent; the endpoint's flush, when done at the target */
    ucp_request_param_t f;
    f.op_attr_mask = 0;
    stp_uc_ev_param(&f, ev, cat);
    (void)stp_uc_ev_track(ucp_ep_flush_nbx(stp_uc.u.ep[node], &f), ev, cat, "flushing a remote atomic to", node);
  }
  return 0;
}

const stp_ad_impl_t stp_ad_ucx_impl = {
    .name = "ucx",
    .supports = ucx_ad_supports,
    .op = ucx_ad_op,
};
