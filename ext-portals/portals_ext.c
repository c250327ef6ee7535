/*
 * portals_ext.c -- the GASNet Extended API over ptl: stage 1 of seed 000
 * (the `hybrid` stage: the MPI Core keeps the Active Messages, Put/Get go
 * through Portals).
 *
 * Everything it stands on -- NI, SAFE_EQ, RAR/RARSRC, ReqSB, TMPMDs, the
 * operation records and send tokens -- is the Portals conduit's
 * (net-portals/portals_conduit.h).  A put or get takes a conduit op named
 * in its match bits, picks its local MD (RARSRC, a bounce buffer, a TMPMD
 * or a firehose region, which the upper word of the match bits names) and
 * is issued to the target's RAR entry; its ACK or REPLY_END comes back
 * through the conduit to done() below, which retires it in its event
 * record; a put's SEND_END (local completion) to sent(), which counts it
 * in the lc event when one was asked for -- at once when the data was
 * copied to a bounce buffer.  IMMEDIATE: a put or
 * get that finds no op record or send token is refused, nothing taken.
 * Remote atomics (the table's `ad`): portals_ratomic.c, on the same ops.
 * VIS runs (the table's putv/getv): the same, from a scatter/gather MD.
 */
#include "portals_conduit.h"
#include "ratomic.h"

/* (portals_ratomic.c: remote atomics as ptl atomics) */
extern const stp_ad_impl_t stp_ad_portals_impl;
void stp_ad_portals_attach(void);

/* ACK / REPLY_END of one of ours: the operation's remote completion. */
static void done(stp_pc_op_t *o) { stp_ev_finish(o->owner, o->type == STP_POP_GET ? STP_EC_GET : STP_EC_PUT); }

/* SEND_END of a put: its local completion, if asked for. */
static void sent(stp_pc_op_t *o) {
  if (o->lc) stp_ev_finish(o->lc, STP_EC_LC);
}

static int portals_attach(void) {
  stp_pc_on_op(STP_POP_PUT, done, sent);
  stp_pc_on_op(STP_POP_PUT_BULK, done, sent);
  stp_pc_on_op(STP_POP_GET, done, NULL);
  stp_ad_portals_attach();
  return GASNET_OK;
}

static int put1(stp_ev_t *rc, stp_ev_t *lc, gex_Rank_t node, void *dst, const void *src, size_t n, int may_wait) {
  unsigned kind = lc ? STP_POP_PUT : STP_POP_PUT_BULK;
  uint32_t oi = stp_pc_op_take(rc, 0, kind, node, STP_PC_NEED_SEND | STP_PC_NEED_DONE, may_wait);
  stp_pc_op_t *o;
  ptl_size_t off;
  ptl_handle_md_t md;
  if (STP_UNLIKELY(oi == STP_PC_NO_OP)) return 1;
  o = stp_pc_op(oi);
  md = stp_pc_local_md(o, (void *)src, n, &off, STP_PC_SRC);
  if (lc && !stp_pc_op_bounced(o)) { /* (bounced: copied, locally complete now) */
    o->lc = lc;
    stp_ev_start(lc, STP_EC_LC);
  }
  stp_ev_start(rc, STP_EC_PUT);
  stp_pc_check(PtlPutRegion(md, off, n, PTL_ACK_REQ, stp_pc_target(node), STP_PC_RAR_PTE, 0,
                            stp_pbits(STP_PSEL_RAR, kind, 0, oi, stp_pc_oos_name(&o->oos)), stp_pc_seg_off(node, dst),
                            0),
               "PtlPutRegion");
  return 0;
}

static int get1(stp_ev_t *rc, void *dst, gex_Rank_t node, const void *src, size_t n, int may_wait) {
  uint32_t oi = stp_pc_op_take(rc, 0, STP_POP_GET, node, STP_PC_NEED_DONE, may_wait);
  stp_pc_op_t *o;
  ptl_size_t off;
  ptl_handle_md_t md;
  if (STP_UNLIKELY(oi == STP_PC_NO_OP)) return 1;
  o = stp_pc_op(oi);
  md = stp_pc_local_md(o, dst, n, &off, STP_PC_DST);
  stp_ev_start(rc, STP_EC_GET);
  stp_pc_check(PtlGetRegion(md, off, n, stp_pc_target(node), STP_PC_RAR_PTE, 0,
                            stp_pbits(STP_PSEL_RAR, STP_POP_GET, 0, oi, stp_pc_oos_name(&o->oos)),
                            stp_pc_seg_off(node, src)),
               "PtlGetRegion");
  return 0;
}

/* A transfer longer than one local MD may cover (a firehose region) goes
 * in pieces, each its own op; IMMEDIATE applies to the first. */
static int portals_put(stp_ev_t *rc, stp_ev_t *lc, gex_Rank_t node, void *dst, const void *src, size_t n,
                       gex_Flags_t flags) {
  size_t k = stp_pc.xfer_max;
  int may_wait = !(flags & GEX_FLAG_IMMEDIATE);
  for (; STP_UNLIKELY(n > k); n -= k, dst = (char *)dst + k, src = (const char *)src + k, may_wait = 1)
    if (put1(rc, lc, node, dst, src, k, may_wait)) return 1;
  return put1(rc, lc, node, dst, src, n, may_wait);
}

static int portals_get(stp_ev_t *rc, void *dst, gex_Rank_t node, const void *src, size_t n, gex_Flags_t flags) {
  size_t k = stp_pc.xfer_max;
  int may_wait = !(flags & GEX_FLAG_IMMEDIATE);
  for (; STP_UNLIKELY(n > k); n -= k, dst = (char *)dst + k, src = (const char *)src + k, may_wait = 1)
    if (get1(rc, dst, node, src, k, may_wait)) return 1;
  return get1(rc, dst, node, src, n, may_wait);
}

/* A VIS run (stp_rma_ops_t.putv/getv): its local pieces as one
 * scatter/gather MD (ptl's PTL_MD_IOVEC), held by the op as a TMPMD is,
 * and one PtlPutRegion/PtlGetRegion of the whole run. */
static ptl_handle_md_t run_md(stp_pc_op_t *o, const gex_Memvec_t *v, size_t nv) {
  static __thread ptl_md_iovec_t iov[STP_VIS_RUN_MAX]; /* (ptl copies it) */
  for (size_t i = 0; i < nv; i++) iov[i] = (ptl_md_iovec_t){v[i].gex_addr, v[i].gex_len};
  return stp_pc_iov_hold(iov, nv, &o->oos);
}

static int portals_putv(stp_ev_t *rc, stp_ev_t *lc, gex_Rank_t node, void *dst, const gex_Memvec_t *src, size_t nsrc,
                        size_t n, gex_Flags_t flags) {
  unsigned kind = lc ? STP_POP_PUT : STP_POP_PUT_BULK;
  uint32_t oi = stp_pc_op_take(rc, 0, kind, node, STP_PC_NEED_SEND | STP_PC_NEED_DONE, !(flags & GEX_FLAG_IMMEDIATE));
  stp_pc_op_t *o;
  ptl_handle_md_t md;
  if (STP_UNLIKELY(oi == STP_PC_NO_OP)) return 1;
  o = stp_pc_op(oi);
  md = run_md(o, src, nsrc);
  if (lc) {
    o->lc = lc;
    stp_ev_start(lc, STP_EC_LC);
  }
  stp_ev_start(rc, STP_EC_PUT);
  stp_pc_check(PtlPutRegion(md, 0, n, PTL_ACK_REQ, stp_pc_target(node), STP_PC_RAR_PTE, 0,
                            stp_pbits(STP_PSEL_RAR, kind, 0, oi, 0), stp_pc_seg_off(node, dst), 0),
               "PtlPutRegion (a VIS run)");
  return 0;
}

static int portals_getv(stp_ev_t *rc, const gex_Memvec_t *dst, size_t ndst, gex_Rank_t node, const void *src,
                        size_t n, gex_Flags_t flags) {
  uint32_t oi = stp_pc_op_take(rc, 0, STP_POP_GET, node, STP_PC_NEED_DONE, !(flags & GEX_FLAG_IMMEDIATE));
  ptl_handle_md_t md;
  if (STP_UNLIKELY(oi == STP_PC_NO_OP)) return 1;
  md = run_md(stp_pc_op(oi), dst, ndst);
  stp_ev_start(rc, STP_EC_GET);
  stp_pc_check(PtlGetRegion(md, 0, n, stp_pc_target(node), STP_PC_RAR_PTE, 0, stp_pbits(STP_PSEL_RAR, STP_POP_GET, 0, oi, 0),
                            stp_pc_seg_off(node, src)),
               "PtlGetRegion (a VIS run)");
  return 0;
}

const stp_rma_ops_t stp_rma_portals_ops = {
    .name = "ext-portals",
    .attach = portals_attach,
    .put = portals_put,
    .get = portals_get,
    .ad = &stp_ad_portals_impl,
    .vis_ampipe_max = 512, /* lists, 50 %: packing 3-18x at 8-128 B, 1.0-2.3x at 512, 0.8-1.3x at 1024 (portals, hybrid, firehose) */
    .vis_ampipe_shape_max = 256, /* strided, 50 %: packing 16-44x at 8 B, 1.1-1.9x at 256, 0.3-0.95x at 512 */
    .putv = portals_putv,
    .getv = portals_getv,
    .vis_iov_min = 0, /* auto never: testvisperf -r (runs of 8-8192 local pieces, 500 NBI operations, 2
                       * processes, one host) ran 0.3-0.8x of the best of reference and ampipe at every
                       * piece size from 8 B to 4 KiB (STAGEPORT_VIS=iovec forces it) */
};
