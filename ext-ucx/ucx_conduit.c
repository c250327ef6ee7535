/*
 * ucx_conduit.c -- the `ucx` stage's network (net.h): UCX opened with the
 * bootstrap, the segment allocated by UCX and its key exchanged, closed at
 * exit.
 *
 * The segment is UCX's own memory (ucp_mem_map with ALLOCATE) because UCX
 * reaches such memory through its shared-memory transports with plain
 * stores, where ordinary registered memory falls back to slower paths.
 */
#include "ucx_conduit.h"

#include <stdlib.h>

stp_uc_t stp_uc;

static int uc_open(stp_net_args_t *a) {
  if (a->oos != STP_OOS_UCX) stp_fatal("gasnet_attach: the UCX network supports only UCX's own out-of-segment policy");
  if (stp_ucx_open(&stp_uc.u, a->boot, UCP_FEATURE_RMA, 0, "ext-ucx") != UCS_OK)
    stp_fatal("gasnet_attach: the ucx stage could not open UCX (see the message above)");
  return GASNET_OK;
}

static int uc_segment(uintptr_t size, void **base) {
  int rc = GASNET_OK;
  *base = NULL;
  if (size && stp_ucx_region_map(&stp_uc.u, NULL, size, STP_UCX_ALLOCATE | STP_UCX_RKEY, &stp_uc.seg) != UCS_OK)
    rc = GASNET_ERR_RESOURCE; /* (reported; the exchange below is collective all the same) */
  *base = stp_uc.seg.addr;
  stp_uc.rseg = calloc((size_t)stp_uc.u.size, sizeof(*stp_uc.rseg));
  if (!stp_uc.rseg) stp_fatal("gasnet_attach: out of memory");
  if (stp_ucx_exchange(&stp_uc.u, &stp_uc.seg, stp_uc.rseg) != UCS_OK)
    stp_fatal("gasnet_attach: the ucx stage could not exchange segment keys (see the message above)");
  return rc;
}

/* In UCX's order: operations in flight complete (they may still read the
 * segment), peers' keys go, then the endpoints, the segment, the rest. */
static void uc_close(void) {
  stp_uc.closing = 1; /* what the client left unsynced may meet peers gone */
  stp_ucx_flush(&stp_uc.u);
  stp_ucx_remote_release(&stp_uc.u, stp_uc.rseg);
  free(stp_uc.rseg);
  stp_uc.rseg = NULL;
  stp_ucx_close_endpoints(&stp_uc.u);
  if (stp_uc.seg.memh) stp_ucx_region_unmap(&stp_uc.u, &stp_uc.seg);
  stp_ucx_close(&stp_uc.u);
}

static int uc_poll(void) { return (int)ucp_worker_progress(stp_uc.u.worker); }

const stp_net_ops_t stp_net_ucx_ops = {
    .name = "ucx",
    .open = uc_open,
    .segment = uc_segment,
    .close = uc_close,
    .poll = uc_poll,
};
