/*
 * ucx_rma.c -- the Extended API over UCX one-sided RMA (the `ucx` stage).
 *
 * The network (ucx_conduit.h) holds the UCX worker, endpoints and every
 * node's segment key.  Puts and gets go straight to ucp_put_nbx/ucp_get_nbx
 * into the target's segment; local buffers may be anywhere (UCX copies or
 * registers them itself).
 *
 * Completion: a get completes when its data is local (callback, or at once).
 * A put completes locally when ucp_put_nbx's request does (non-bulk puts wait
 * for that before returning; bulk puts release the request at once), and
 * remotely only after a flush of its endpoint.  Each operation records which
 * endpoints it dirtied -- one node inline, a bitmap when it spans several --
 * and sets put_sync; the first sync that finds it drained calls
 * ucx_sync(), which flushes exactly those endpoints and holds one put count
 * per flush still in flight.  A blocking put is a put plus one endpoint flush.
 */
#include "ucx_conduit.h"

#include <stdlib.h>

#define DIRTY_MANY UINT64_MAX /* op->ext[0]: node+1, or MANY with a bitmap in ext[1] */

static struct {
  size_t bitmap_words;
  uint64_t *spare; /* one recycled dirty bitmap: no malloc per multi-node sync */
} x;

/* ------------------------------------------------------------------ */
/* setup                                                               */
/* ------------------------------------------------------------------ */
static int ucx_attach(void) {
  x.bitmap_words = (stp.nodes + 63) / 64;
  return GASNET_OK;
}

static void ucx_detach(void) {
  free(x.spare);
  x.spare = NULL;
}

/* ------------------------------------------------------------------ */
/* completion                                                          */
/* ------------------------------------------------------------------ */
static void fail(ucs_status_t st, const char *what, gasnet_node_t node) {
  stp_ucx_report(&stp_uc.u, st, "%s node %u", what, (unsigned)node);
  stp_fatal("ucx stage: %s node %u failed: %s", what, (unsigned)node, ucs_status_string(st));
}

static void put_flushed(void *req, ucs_status_t st, void *user_data) {
  stp_op_t *op = user_data;
  if (st != UCS_OK && !stp_uc.closing)
    stp_fatal("ucx stage: flush for remote completion failed: %s", ucs_status_string(st));
  op->puts--;
  ucp_request_free(req);
}

static void get_done(void *req, ucs_status_t st, void *user_data) {
  stp_op_t *op = user_data;
  if (st != UCS_OK && !stp_uc.closing) stp_fatal("ucx stage: get failed: %s", ucs_status_string(st));
  op->gets--;
  ucp_request_free(req);
}

static void mark_dirty(stp_op_t *op, gasnet_node_t node) {
  uint64_t *bits;
  if (STP_LIKELY(op->ext[0] == (uint64_t)node + 1)) return;
  op->put_sync = 1;
  if (!op->ext[0]) {
    op->ext[0] = (uint64_t)node + 1;
    return;
  }
  if (op->ext[0] != DIRTY_MANY) { /* second node: switch to a bitmap */
    gasnet_node_t first = (gasnet_node_t)(op->ext[0] - 1);
    bits = x.spare ? x.spare : malloc(x.bitmap_words * sizeof(uint64_t));
    if (!bits) stp_fatal("ucx stage: out of memory");
    x.spare = NULL;
    memset(bits, 0, x.bitmap_words * sizeof(uint64_t));
    bits[first / 64] |= 1ull << (first % 64);
    op->ext[0] = DIRTY_MANY;
    op->ext[1] = (uint64_t)(uintptr_t)bits;
  }
  bits = (uint64_t *)(uintptr_t)op->ext[1];
  bits[node / 64] |= 1ull << (node % 64);
}

static void flush_node(stp_op_t *op, gasnet_node_t node) {
  ucp_request_param_t p;
  ucs_status_ptr_t req;
  p.op_attr_mask = UCP_OP_ATTR_FIELD_CALLBACK | UCP_OP_ATTR_FIELD_USER_DATA;
  p.cb.send = put_flushed;
  p.user_data = op;
  req = ucp_ep_flush_nbx(stp_uc.u.ep[node], &p);
  if (STP_LIKELY(req == NULL)) return;
  if (UCS_PTR_IS_ERR(req)) fail(UCS_PTR_STATUS(req), "flushing puts to", node);
  op->puts++;
}

static void ucx_sync(stp_op_t *op) {
  uint64_t d = op->ext[0];
  op->put_sync = 0;
  op->ext[0] = 0;
  if (d != DIRTY_MANY) {
    if (d) flush_node(op, (gasnet_node_t)(d - 1));
    return;
  }
  uint64_t *bits = (uint64_t *)(uintptr_t)op->ext[1];
  for (size_t w = 0; w < x.bitmap_words; w++)
    for (uint64_t b = bits[w]; b; b &= b - 1) flush_node(op, (gasnet_node_t)(w * 64 + (unsigned)__builtin_ctzll(b)));
  op->ext[1] = 0;
  if (x.spare) free(bits);
  else x.spare = bits;
}

/* ------------------------------------------------------------------ */
/* initiation                                                          */
/* ------------------------------------------------------------------ */
static void ucx_put(stp_op_t *op, gasnet_node_t node, void *dst, const void *src, size_t n, int bulk) {
  ucp_request_param_t p;
  ucs_status_ptr_t req;
  p.op_attr_mask = 0;
  req = ucp_put_nbx(stp_uc.u.ep[node], src, n, (uint64_t)(uintptr_t)dst, stp_uc.rseg[node].rkey, &p);
  mark_dirty(op, node);
  if (STP_LIKELY(req == NULL)) return;
  if (UCS_PTR_IS_ERR(req)) fail(UCS_PTR_STATUS(req), "put to", node);
  if (!bulk) { /* non-bulk: the source must be reusable on return */
    unsigned spins = 0;
    ucs_status_t st;
    while ((st = ucp_request_check_status(req)) == UCS_INPROGRESS) stp_wait_step(&spins);
    if (STP_UNLIKELY(st != UCS_OK)) fail(st, "put to", node);
  }
  ucp_request_free(req);
}

static void ucx_get(stp_op_t *op, void *dst, gasnet_node_t node, const void *src, size_t n) {
  ucp_request_param_t p;
  ucs_status_ptr_t req;
  p.op_attr_mask = UCP_OP_ATTR_FIELD_CALLBACK | UCP_OP_ATTR_FIELD_USER_DATA;
  p.cb.send = get_done;
  p.user_data = op;
  req = ucp_get_nbx(stp_uc.u.ep[node], dst, n, (uint64_t)(uintptr_t)src, stp_uc.rseg[node].rkey, &p);
  if (STP_LIKELY(req == NULL)) return;
  if (UCS_PTR_IS_ERR(req)) fail(UCS_PTR_STATUS(req), "get from", node);
  op->gets++;
}

const stp_ext_ops_t stp_ext_ucx_ops = {
    .name = "ext-ucx",
    .attach = ucx_attach,
    .detach = ucx_detach,
    .put = ucx_put,
    .get = ucx_get,
    .sync = ucx_sync, /* (no memset: UCX has none; the API layer's AM) */
};
