/*
 * ucx_rma.c -- the Extended API over UCX one-sided RMA (the `ucx` stage).
 *
 * The segment is allocated by UCX, so shared-memory transports reach it with
 * plain stores and network transports with RDMA; its rkey is exchanged at
 * attach.  Puts and gets go straight to ucp_put_nbx/ucp_get_nbx into the
 * target's segment; local buffers may be anywhere (UCX copies or registers
 * them itself).
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
#include "stp_internal.h"

#include <stdlib.h>

#include "stp_ucx.h"

#define DIRTY_MANY UINT64_MAX /* op->ext[0]: node+1, or MANY with a bitmap in ext[1] */

static struct {
  stp_ucx_t u;
  stp_ucx_region_t seg;
  stp_ucx_remote_t *rseg;
  size_t bitmap_words;
  uint64_t *spare; /* one recycled dirty bitmap: no malloc per multi-node sync */
} x;

static void boot_allgather(void *ctx, const void *mine, void *all, size_t len) {
  (void)ctx;
  stp_boot_allgather(mine, all, len);
}

/* ------------------------------------------------------------------ */
/* setup                                                               */
/* ------------------------------------------------------------------ */
static int ucx_segment_alloc(uintptr_t size, void **base) {
  stp_ucx_boot_t boot = {(int)stp.mynode, (int)stp.nodes, boot_allgather, NULL};
  if (stp_ucx_open(&x.u, &boot, UCP_FEATURE_RMA, 0, "ext-ucx") != UCS_OK)
    stp_fatal("gasnet_attach: the ucx stage could not open UCX (see the message above)");
  x.bitmap_words = (stp.nodes + 63) / 64;
  *base = NULL;
  if (!size) return GASNET_OK;
  if (stp_ucx_region_map(&x.u, NULL, size, &x.seg) != UCS_OK) return GASNET_ERR_RESOURCE;
  *base = x.seg.addr;
  return GASNET_OK;
}

static int ucx_attach(void) {
  x.rseg = calloc(stp.nodes, sizeof(*x.rseg));
  if (!x.rseg) stp_fatal("gasnet_attach: out of memory");
  if (stp_ucx_exchange(&x.u, &x.seg, x.rseg) != UCS_OK)
    stp_fatal("gasnet_attach: the ucx stage could not exchange segment keys (see the message above)");
  return GASNET_OK;
}

static void ucx_detach(void) {
  stp_ucx_remote_release(&x.u, x.rseg);
  free(x.rseg);
  x.rseg = NULL;
  free(x.spare);
  x.spare = NULL;
  if (x.seg.memh) stp_ucx_region_unmap(&x.u, &x.seg);
  stp_ucx_close(&x.u);
}

/* ------------------------------------------------------------------ */
/* completion                                                          */
/* ------------------------------------------------------------------ */
static void fail(ucs_status_t st, const char *what, gasnet_node_t node) {
  stp_ucx_report(&x.u, st, "%s node %u", what, (unsigned)node);
  stp_fatal("ucx stage: %s node %u failed: %s", what, (unsigned)node, ucs_status_string(st));
}

static void put_flushed(void *req, ucs_status_t st, void *user_data) {
  stp_op_t *op = user_data;
  if (st != UCS_OK) stp_fatal("ucx stage: flush for remote completion failed: %s", ucs_status_string(st));
  op->puts--;
  ucp_request_free(req);
}

static void get_done(void *req, ucs_status_t st, void *user_data) {
  stp_op_t *op = user_data;
  if (st != UCS_OK) stp_fatal("ucx stage: get failed: %s", ucs_status_string(st));
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
  req = ucp_ep_flush_nbx(x.u.ep[node], &p);
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
  req = ucp_put_nbx(x.u.ep[node], src, n, (uint64_t)(uintptr_t)dst, x.rseg[node].rkey, &p);
  mark_dirty(op, node);
  if (STP_LIKELY(req == NULL)) return;
  if (UCS_PTR_IS_ERR(req)) fail(UCS_PTR_STATUS(req), "put to", node);
  if (!bulk) { /* non-bulk: the source must be reusable on return */
    unsigned spins = 0;
    while (ucp_request_check_status(req) == UCS_INPROGRESS) stp_wait_step(&spins);
  }
  ucp_request_free(req);
}

static void ucx_get(stp_op_t *op, void *dst, gasnet_node_t node, const void *src, size_t n) {
  ucp_request_param_t p;
  ucs_status_ptr_t req;
  p.op_attr_mask = UCP_OP_ATTR_FIELD_CALLBACK | UCP_OP_ATTR_FIELD_USER_DATA;
  p.cb.send = get_done;
  p.user_data = op;
  req = ucp_get_nbx(x.u.ep[node], dst, n, (uint64_t)(uintptr_t)src, x.rseg[node].rkey, &p);
  if (STP_LIKELY(req == NULL)) return;
  if (UCS_PTR_IS_ERR(req)) fail(UCS_PTR_STATUS(req), "get from", node);
  op->gets++;
}

static int ucx_poll(void) { return (int)ucp_worker_progress(x.u.worker); }

const stp_ext_ops_t stp_ext_ucx_ops = {
    .name = "ucx",
    .segment_alloc = ucx_segment_alloc,
    .attach = ucx_attach,
    .detach = ucx_detach,
    .put = ucx_put,
    .get = ucx_get,
    .memset = stp_ext_ref_memset, /* UCX has no remote memset: one AM, as in ext-ref */
    .sync = ucx_sync,
    .poll = ucx_poll,
};
