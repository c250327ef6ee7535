/*
 * ucx_rma.c -- the Extended API over UCX one-sided RMA (the `ucx` stage).
 *
 * The network (ucx_conduit.h) holds the UCX worker, endpoints and every
 * node's segment key.  Puts and gets go straight to ucp_put_nbx/ucp_get_nbx
 * into the target's segment; local buffers may be anywhere (UCX copies or
 * registers them itself).
 *
 * Completion: a get completes when its data is local (callback, or at once).
 * A put completes locally when ucp_put_nbx's request does -- counted in the
 * lc event, if one was asked for, by the request's callback (a put UCX
 * completed inline needs no count); without one the request is released at
 * once -- and remotely only after a flush of its endpoint.  Each event
 * records which endpoints it dirtied (rma_state: one node inline, a bitmap
 * when it spans several) and is marked need-sync; the first test that finds
 * it drained calls ucx_sync(), which flushes exactly those endpoints and
 * holds one put count per flush still in flight.  A blocking put is a put
 * plus one endpoint flush.  IMMEDIATE: UCX queues what it cannot send at
 * once rather than refusing, so nothing is refused here.
 */
#include "ucx_conduit.h"

#include <stdlib.h>

#include "ratomic.h"
#include "stp_copy.h"

extern const stp_ad_impl_t stp_ad_ucx_impl; /* (ucx_ratomic.c: remote atomics) */

#define DIRTY_MANY UINT64_MAX /* rma_state[0]: node+1, or MANY with a bitmap in rma_state[1] */

static struct {
  size_t bitmap_words;
  uint64_t *spare; /* one recycled dirty bitmap: no malloc per multi-node sync */
} rma;

/* ------------------------------------------------------------------ */
/* setup                                                               */
/* ------------------------------------------------------------------ */
static int ucx_attach(void) {
  rma.bitmap_words = (stp.nodes + 63) / 64;
  return GASNET_OK;
}

static void ucx_detach(void) {
  free(rma.spare);
  rma.spare = NULL;
}

/* ------------------------------------------------------------------ */
/* completion                                                          */
/* ------------------------------------------------------------------ */
static void mark_dirty(stp_ev_t *e, gex_Rank_t node) {
  uint64_t *bits;
  if (STP_LIKELY(e->rma_state[0] == (uint64_t)node + 1)) return;
  stp_ev_need_sync(e);
  if (!e->rma_state[0]) {
    e->rma_state[0] = (uint64_t)node + 1;
    return;
  }
  if (e->rma_state[0] != DIRTY_MANY) { /* second node: switch to a bitmap */
    gex_Rank_t first = (gex_Rank_t)(e->rma_state[0] - 1);
    bits = rma.spare ? rma.spare : malloc(rma.bitmap_words * sizeof(uint64_t));
    if (!bits) stp_fatal("ucx stage: out of memory");
    rma.spare = NULL;
    memset(bits, 0, rma.bitmap_words * sizeof(uint64_t));
    bits[first / 64] |= 1ull << (first % 64);
    e->rma_state[0] = DIRTY_MANY;
    e->rma_state[1] = (uint64_t)(uintptr_t)bits;
  }
  bits = (uint64_t *)(uintptr_t)e->rma_state[1];
  bits[node / 64] |= 1ull << (node % 64);
}

static void flush_node(stp_ev_t *e, gex_Rank_t node) {
  ucp_request_param_t p;
  p.op_attr_mask = 0;
  stp_uc_ev_param(&p, e, STP_EC_PUT);
  (void)stp_uc_ev_track(ucp_ep_flush_nbx(stp_uc.u.ep[node], &p), e, STP_EC_PUT, "flushing puts to", node);
}

static void ucx_sync(stp_ev_t *e) {
  uint64_t d = e->rma_state[0];
  e->put_sync = 0;
  e->rma_state[0] = 0;
  if (d != DIRTY_MANY) {
    if (d) flush_node(e, (gex_Rank_t)(d - 1));
    return;
  }
  uint64_t *bits = (uint64_t *)(uintptr_t)e->rma_state[1];
  for (size_t w = 0; w < rma.bitmap_words; w++)
    for (uint64_t b = bits[w]; b; b &= b - 1) flush_node(e, (gex_Rank_t)(w * 64 + (unsigned)__builtin_ctzll(b)));
  e->rma_state[1] = 0;
  if (rma.spare) free(bits);
  else rma.spare = bits;
}

/* ------------------------------------------------------------------ */
/* initiation                                                          */
/* ------------------------------------------------------------------ */
/* The put itself: its local completion counted in lc if asked for, else
 * its request released at once (its remote completion is a flush's).
 * 1: done here, complete -- a word into a segment mapped here, one store
 * (UCX's shared-memory put is a memcpy, which may store it twice:
 * stp_copy.h). */
static int put_issue(stp_ev_t *rc, stp_ev_t *lc, gex_Rank_t node, void *dst, const void *src, size_t n) {
  ucp_request_param_t p;
  ucs_status_ptr_t req;
  const stp_ucx_remote_t *r = &stp_uc.rkeys[node];
  if (r->map && stp_copy_word(r->map + ((uintptr_t)dst - r->addr), src, n)) return 1;
  p.op_attr_mask = 0;
  if (lc) stp_uc_ev_param(&p, lc, STP_EC_LC); /* local completion: when UCX no longer reads the source */
  req = ucp_put_nbx(stp_uc.u.ep[node], src, n, (uint64_t)(uintptr_t)dst, stp_uc_rkey(node), &p);
  if (lc) {
    (void)stp_uc_ev_track(req, lc, STP_EC_LC, "a put to", node);
  } else if (STP_UNLIKELY(req != NULL)) {
    if (UCS_PTR_IS_ERR(req)) (void)stp_uc_ev_track(req, rc, STP_EC_PUT, "a put to", node); /* (reports it) */
    else ucp_request_free(req);
  }
  return 0;
}

static int ucx_put(stp_ev_t *rc, stp_ev_t *lc, gex_Rank_t node, void *dst, const void *src, size_t n,
                   gex_Flags_t flags) {
  /* IMMEDIATE: refused behind sends UCX still holds for node (the put would
   * wait in the endpoint's queue behind them, for node to progress) */
  if (STP_UNLIKELY(flags & GEX_FLAG_IMMEDIATE) && stp_uc_queued(node)) return 1;
  if (!put_issue(rc, lc, node, dst, src, n)) mark_dirty(rc, node);
  return 0;
}

/* A blocking put: the put, then at once its endpoint's flush counted in rc
 * (no dirty-node record, no sync to come). */
static int ucx_put_blocking(stp_ev_t *rc, gex_Rank_t node, void *dst, const void *src, size_t n, gex_Flags_t flags) {
  if (STP_UNLIKELY(flags & GEX_FLAG_IMMEDIATE) && stp_uc_queued(node)) return 1; /* (as ucx_put) */
  if (!put_issue(rc, NULL, node, dst, src, n)) flush_node(rc, node);
  return 0;
}

static int ucx_get(stp_ev_t *rc, void *dst, gex_Rank_t node, const void *src, size_t n, gex_Flags_t flags) {
  ucp_request_param_t p;
  if (STP_UNLIKELY(flags & GEX_FLAG_IMMEDIATE) && stp_uc_queued(node)) return 1; /* (as ucx_put) */
  p.op_attr_mask = 0;
  stp_uc_ev_param(&p, rc, STP_EC_GET);
  (void)stp_uc_ev_track(ucp_get_nbx(stp_uc.u.ep[node], dst, n, (uint64_t)(uintptr_t)src, stp_uc_rkey(node), &p),
                        rc, STP_EC_GET, "a get from", node);
  return 0;
}

const stp_rma_ops_t stp_rma_ucx_ops = {
    .name = "ext-ucx",
    .attach = ucx_attach,
    .detach = ucx_detach,
    .put = ucx_put,
    .get = ucx_get,
    .put_blocking = ucx_put_blocking,
    .sync = ucx_sync,
    .ad = &stp_ad_ucx_impl,
    .vis_ampipe_max = 128, /* lists, 50 %: packing 4-6x at 8 B, 1.8-1.9x at 64, 1.0-1.5x at 128, 0.6-0.9x at 256 */
    .vis_ampipe_min_pieces = 32, /* 8-byte Indexed puts: packing 0.3-0.6x at 2-8 pieces, 1.0x at 16, 1.35x at 32, 1.9x at 64 */
    .vis_ampipe_shape_max = 32, /* strided, 50 %: packing 7-9x at 8 B, 1.6-1.9x at 32, 0.8-0.9x at 64 */
};
