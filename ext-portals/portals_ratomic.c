/*
 * portals_ratomic.c -- remote atomics as ptl atomics (ratomic.h), the
 * specialization of the stages on ptl (hybrid, portals, firehose: their RMA
 * table's `ad`).
 *
 * Every domain qualifies -- every type, every operation -- but one created
 * with GEX_FLAG_AD_FAVOR_MY_RANK (the reference: its own-rank operations
 * are plain CPU atomics, no ptl round).  One operation is one ptl call to
 * the target's RAR entry at the address's segment offset, the caller's own
 * rank included (ptl.h section 6; a domain never mixes ptl with CPU
 * atomics):
 *   ADD, SUB, INC, DEC (and fetching)   PTL_SUM of op1, -op1, 1, -1
 *   MULT, AND, OR, XOR (and fetching)   PTL_PROD, PTL_BAND, PTL_BOR, PTL_BXOR
 *   MIN, MAX: integers                  PTL_MIN, PTL_MAX
 *   MIN, MAX: FLT, DBL                  PtlSwap PTL_CSWAP_LE / _GE, operand
 *                                       and new value op1 (below)
 *   SET, SWAP                           PtlSwap PTL_SWAP     } on the same-size
 *   CAS, FCAS                           PtlSwap PTL_CSWAP    } unsigned type:
 *   GET                                 fetching PTL_SUM of 0 } the bits
 * non-fetching ones as PtlAtomic (ACK asked), fetching ones as
 * PtlFetchAtomic or PtlSwap.  Offload mode sends the integer SUM, BAND,
 * BOR, BXOR, SWAP and CSWAP as UCX atomics with no target CPU (ptl's NIC
 * path, PTLX_SR_ATOMIC_NIC; PTL_VERBOSE=1 prints each rank's count at
 * exit), everything else is performed by the target's CPU when ptl
 * matches it; ptl keeps the two atomic with each other.
 *
 * The same results as the reference (ext-ref/ref_ratomic.c) for the same
 * inputs: the bit-level operations (SET, SWAP, (F)CAS, GET) use the
 * unsigned type of the same size, so a FLT/DBL CAS compares bits as the
 * reference's does (ptl's PTL_FLOAT CSWAP would compare as floats: -0.0
 * equal to 0.0, NaN unequal to itself) and a GET leaves -0.0 alone (a
 * floating SUM of 0.0 would not); a floating SUB is a SUM of op1 with its
 * sign flipped (a - b is a + -b in IEEE arithmetic).  A floating MIN is
 * "t = op1 unless t < op1", as the description's ((op0 < op1) ? op0 : op1);
 * ptl's PTL_MIN ("x < t ? x : t") keeps +0.0 against -0.0 where that
 * expression takes op1, so FLT/DBL MIN is PTL_CSWAP_LE with op1 as both
 * operand and new value (replace when op1 <= t) and MAX PTL_CSWAP_GE:
 * the same but for quiet NaNs (the reference replaces a NaN target and
 * takes a NaN op1, these leave the target), a deviation the description
 * allows for MIN and MAX.
 *
 * Resources are the Portals conduit's (net-portals/portals_conduit.h): an
 * op record (op type STP_POP_ATOMIC, index in the match bits) with a send
 * token for each of its two events (SEND_END, then ACK or REPLY_END), and
 * the op's scratch -- the operand goes out from it, the old value comes
 * back into it and is copied to result_p before done() runs.  Completion
 * counts in the event (category stp_ad_cat); GEX_FLAG_AD_ACQ adds an
 * acquire fence before the count finishes.  IMMEDIATE: refused, nothing
 * taken, when no op record or token is free (the scratch never waits).
 */
#include "portals_conduit.h"
#include "ratomic.h"

#define DT_INT (GEX_DT_I32 | GEX_DT_U32 | GEX_DT_I64 | GEX_DT_U64)
#define OPS_BIT (GEX_OP_AND | GEX_OP_FAND | GEX_OP_OR | GEX_OP_FOR | GEX_OP_XOR | GEX_OP_FXOR)
#define TAG_ACQ 0x100u /* in an op's tag, with the event category in the low byte */

static int portals_ad_supports(gex_DT_t dt, gex_OP_t ops, gex_Flags_t flags) {
  if (!(dt & (DT_INT | GEX_DT_FLT | GEX_DT_DBL))) return 0;
  if (!(dt & DT_INT) && (ops & OPS_BIT)) return 0; /* (gex_AD_Create refuses these) */
  return !(flags & GEX_FLAG_AD_FAVOR_MY_RANK);
}

/* ACK or REPLY_END (the old value copied to result_p already). */
static void done(stp_pc_op_t *o) {
  if (o->tag & TAG_ACQ) stp_fence(__ATOMIC_ACQUIRE);
  stp_ev_finish(o->owner, (int)(o->tag & 0xffu));
}

static ptl_datatype_t ptl_type(gex_DT_t dt) {
  switch (dt) {
  case GEX_DT_I32: return PTL_INT32_T;
  case GEX_DT_U32: return PTL_UINT32_T;
  case GEX_DT_I64: return PTL_INT64_T;
  case GEX_DT_U64: return PTL_UINT64_T;
  case GEX_DT_FLT: return PTL_FLOAT;
  default: return PTL_DOUBLE;
  }
}

/* A value's bits (size bytes) where ptl reads one element. */
static inline void put_bits(void *p, uint64_t v, unsigned size) {
  if (size == 8) memcpy(p, &v, 8);
  else {
    uint32_t w = (uint32_t)v;
    memcpy(p, &w, 4);
  }
}

enum { VIA_ATOMIC, VIA_FETCH, VIA_SWAP };

static int portals_ad_op(struct _stp_ad *ad, void *result_p, gex_Rank_t node, void *addr, gex_OP_t op, uint64_t op1,
                         uint64_t op2, gex_Flags_t flags, stp_ev_t *ev) {
  int cat = stp_ad_cat(op), fp = !(ad->dt & DT_INT);
  unsigned size = ad->size;
  uint64_t mask = size == 8 ? UINT64_MAX : UINT32_MAX;
  uint64_t sign = fp ? (size == 8 ? (uint64_t)1 << 63 : (uint64_t)1 << 31) : 0; /* negation: fp flips it */
  uint64_t one = 1, x = op1, cmp = 0;
  ptl_datatype_t dt = ptl_type(ad->dt), bits = size == 8 ? PTL_UINT64_T : PTL_UINT32_T;
  ptl_op_t pop;
  int via = (op & STP_AD_FETCHING) ? VIA_FETCH : VIA_ATOMIC;
  uint64_t cmp_bits[1];
  ptl_size_t off, roff;
  ptl_match_bits_t mb;
  uint32_t oi;

  if (fp) {
    if (size == 8) {
      double d = 1.0;
      memcpy(&one, &d, 8);
    } else {
      float f = 1.0f;
      uint32_t w;
      memcpy(&w, &f, 4);
      one = w;
    }
  }
#define NEG(v) (fp ? (v) ^ sign : (0 - (v)) & mask)
  switch (op) {
  case GEX_OP_SET: case GEX_OP_SWAP: via = VIA_SWAP, pop = PTL_SWAP, dt = bits; break;
  case GEX_OP_CAS: case GEX_OP_FCAS: via = VIA_SWAP, pop = PTL_CSWAP, dt = bits, cmp = op1, x = op2; break;
  case GEX_OP_GET: pop = PTL_SUM, dt = bits, x = 0; break;
  case GEX_OP_ADD: case GEX_OP_FADD: pop = PTL_SUM; break;
  case GEX_OP_SUB: case GEX_OP_FSUB: pop = PTL_SUM, x = NEG(op1); break;
  case GEX_OP_INC: case GEX_OP_FINC: pop = PTL_SUM, x = one; break;
  case GEX_OP_DEC: case GEX_OP_FDEC: pop = PTL_SUM, x = NEG(one); break;
  case GEX_OP_MULT: case GEX_OP_FMULT: pop = PTL_PROD; break;
  case GEX_OP_MIN: case GEX_OP_FMIN:
    if (fp) via = VIA_SWAP, pop = PTL_CSWAP_LE, cmp = op1;
    else pop = PTL_MIN;
    break;
  case GEX_OP_MAX: case GEX_OP_FMAX:
    if (fp) via = VIA_SWAP, pop = PTL_CSWAP_GE, cmp = op1;
    else pop = PTL_MAX;
    break;
  case GEX_OP_AND: case GEX_OP_FAND: pop = PTL_BAND; break;
  case GEX_OP_OR: case GEX_OP_FOR: pop = PTL_BOR; break;
  case GEX_OP_XOR: case GEX_OP_FXOR: pop = PTL_BXOR; break;
  default: stp_fatal("Portals conduit: remote atomics: operation 0x%x", (unsigned)op);
  }
#undef NEG

  oi = stp_pc_op_take(ev, (uint32_t)cat | ((flags & GEX_FLAG_AD_ACQ) ? TAG_ACQ : 0u), STP_POP_ATOMIC, node,
                      STP_PC_NEED_SEND | STP_PC_NEED_DONE, !(flags & GEX_FLAG_IMMEDIATE));
  if (STP_UNLIKELY(oi == STP_PC_NO_OP)) return 1;
  /* the old value back to result_p (NULL: a non-fetching one's, if any, stays in the scratch) */
  put_bits(stp_pc_op_scratch(oi, result_p, size, &off), x, size);
  put_bits(cmp_bits, cmp, size);
  mb = stp_pbits(STP_PSEL_RAR, STP_POP_ATOMIC, 0, oi, 0);
  roff = stp_pc_seg_off(node, addr);
  stp_ev_start(ev, cat);
  switch (via) {
  case VIA_ATOMIC:
    stp_pc_check(PtlAtomic(stp_pc.scratch_md, off, size, PTL_ACK_REQ, stp_pc_target(node), STP_PC_RAR_PTE, 0, mb, roff,
                           0, pop, dt),
                 "PtlAtomic");
    break;
  case VIA_FETCH:
    stp_pc_check(PtlFetchAtomic(stp_pc.scratch_md, off + 8, stp_pc.scratch_md, off, size, stp_pc_target(node),
                                STP_PC_RAR_PTE, 0, mb, roff, 0, pop, dt),
                 "PtlFetchAtomic");
    break;
  default:
    stp_pc_check(PtlSwap(stp_pc.scratch_md, off + 8, stp_pc.scratch_md, off, size, stp_pc_target(node),
                         STP_PC_RAR_PTE, 0, mb, roff, 0, cmp_bits, pop, dt),
                 "PtlSwap");
  }
  return 0;
}

/* At the RMA backend's attach (portals_ext.c): this op type's callback. */
void stp_ad_portals_attach(void);
void stp_ad_portals_attach(void) { stp_pc_on_op(STP_POP_ATOMIC, done, NULL); }

const stp_ad_impl_t stp_ad_portals_impl = {
    .name = "portals",
    .supports = portals_ad_supports,
    .op = portals_ad_op,
};
