/*
 * ucx_conduit.c -- the `ucx` stage's network (net.h): UCX opened with the
 * bootstrap (RMA and active messages), the segment allocated by UCX and its
 * key exchanged, exit notices as UCX active messages (so a running job makes
 * no MPI call), closed at exit.
 *
 * The segment is UCX's own memory (ucp_mem_map with ALLOCATE) because UCX
 * reaches such memory through its shared-memory transports with plain
 * stores, where ordinary registered memory falls back to slower paths.
 */
#include "ucx_conduit.h"

#include <stdlib.h>
#include <string.h>

stp_uc_t stp_uc;

/* An exit notice: the header is the peer's exit code.  Kept until taken
 * (at most one per peer: a node sends its notice once). */
static ucs_status_t notice_arrived(void *arg, const void *header, size_t header_length, void *data, size_t length,
                                   const ucp_am_recv_param_t *param) {
  int32_t code;
  (void)arg, (void)data, (void)param;
  if (header_length != sizeof(code) || length)
    stp_fatal("ucx network: a malformed exit notice (%zu + %zu bytes)", header_length, length);
  if (stp_uc.notices_in - stp_uc.notices_out >= stp_uc.u.size)
    stp_fatal("ucx network: more exit notices than peers");
  memcpy(&code, header, sizeof(code));
  stp_uc.notice[stp_uc.notices_in++ % stp_uc.u.size] = code;
  return UCS_OK;
}

static int uc_open(stp_net_args_t *a) {
  ucp_am_handler_param_t hp = {0};
  if (a->oos != STP_OOS_UCX) stp_fatal("gasnet_attach: the UCX network supports only UCX's own out-of-segment policy");
  /* (AMO32/AMO64: remote atomics, ext-ucx/ucx_ratomic.c) */
  if (stp_ucx_open(&stp_uc.u, a->boot, UCP_FEATURE_RMA | UCP_FEATURE_AM | UCP_FEATURE_AMO32 | UCP_FEATURE_AMO64, 0,
                   "ucx", NULL) != UCS_OK)
    stp_fatal("gasnet_attach: the ucx stage could not open UCX (see the message above)");
  stp_uc.notice = calloc((size_t)stp_uc.u.size, sizeof(int));
  stp_uc.queued = calloc((size_t)stp_uc.u.size, sizeof(uint32_t));
  if (!stp_uc.notice || !stp_uc.queued) stp_fatal("gasnet_attach: out of memory");
  hp.field_mask = UCP_AM_HANDLER_PARAM_FIELD_ID | UCP_AM_HANDLER_PARAM_FIELD_CB;
  hp.id = STP_UC_AM_EXIT;
  hp.cb = notice_arrived;
  if (ucp_worker_set_am_recv_handler(stp_uc.u.worker, &hp) != UCS_OK)
    stp_fatal("gasnet_attach: the ucx stage could not set its exit-notice handler");
  return GASNET_OK;
}

static int uc_segment(uintptr_t size, void **base) {
  int rc = GASNET_OK;
  *base = NULL;
  if (size && stp_ucx_region_map(&stp_uc.u, NULL, size, STP_UCX_ALLOCATE | STP_UCX_RKEY, &stp_uc.seg) != UCS_OK)
    rc = GASNET_ERR_RESOURCE; /* (reported; the exchange below is collective all the same) */
  *base = stp_uc.seg.addr;
  stp_uc.rkeys = calloc((size_t)stp_uc.u.size, sizeof(*stp_uc.rkeys));
  if (!stp_uc.rkeys) stp_fatal("gasnet_attach: out of memory");
  if (stp_ucx_exchange(&stp_uc.u, &stp_uc.seg, stp_uc.rkeys) != UCS_OK)
    stp_fatal("gasnet_attach: the ucx stage could not exchange segment keys (see the message above)");
  return rc;
}

/* In UCX's order: operations in flight complete (they may still read the
 * segment), peers' keys go, then the endpoints, the segment, the rest. */
static void uc_close(void) {
  stp_uc.closing = 1; /* what the client left unsynced may meet peers gone */
  stp_ucx_flush(&stp_uc.u);
  stp_ucx_remote_release(&stp_uc.u, stp_uc.rkeys);
  free(stp_uc.rkeys);
  stp_uc.rkeys = NULL;
  stp_ucx_close_endpoints(&stp_uc.u);
  if (stp_uc.seg.memh) stp_ucx_region_unmap(&stp_uc.u, &stp_uc.seg);
  stp_ucx_close(&stp_uc.u);
  free(stp_uc.notice);
  stp_uc.notice = NULL;
  free(stp_uc.queued);
  stp_uc.queued = NULL;
}

static int uc_poll(void) { return stp_uc.core_progresses ? 0 : (int)ucp_worker_progress(stp_uc.u.worker); }

static void notice_sent(void *req, ucs_status_t st, void *user_data) {
  (void)st, (void)user_data; /* a peer gone already needs no notice */
  ucp_request_free(req);
}

/* To every peer, not waiting: the sends complete in later progress (or are
 * flushed at close).  But first every RMA put of this node -- the UCX
 * Core's mailbox images, stamps and Long payloads, the Extended API's puts
 * -- completes at its target: a peer that has every notice unmaps its
 * mailbox and segment, and UCX orders neither an active message after a
 * put (they may take different lanes: on an RDMA network the notice could
 * overtake the put) nor anything without a flush across transports. */
static void uc_exit_notify(int code) {
  static int32_t c; /* UCX reads a header it could not send at once later: not on the stack */
  ucp_request_param_t prm = {0};
  stp_ucx_flush(&stp_uc.u);
  c = code;
  prm.op_attr_mask = UCP_OP_ATTR_FIELD_CALLBACK | UCP_OP_ATTR_FIELD_FLAGS;
  prm.cb.send = notice_sent;
  prm.flags = UCP_AM_SEND_FLAG_EAGER;
  for (int p = 0; p < stp_uc.u.size; p++) {
    ucs_status_ptr_t r;
    if (p == stp_uc.u.rank) continue;
    r = ucp_am_send_nbx(stp_uc.u.ep[p], STP_UC_AM_EXIT, &c, sizeof(c), NULL, 0, &prm);
    if (UCS_PTR_IS_ERR(r)) stp_ucx_report(&stp_uc.u, UCS_PTR_STATUS(r), "sending the exit notice to rank %d", p);
  }
}

static int uc_exit_take(int *code) {
  if (stp_uc.notices_out == stp_uc.notices_in) {
    ucp_worker_progress(stp_uc.u.worker); /* (the exit protocol's wait polls only this) */
    if (stp_uc.notices_out == stp_uc.notices_in) return 0;
  }
  *code = stp_uc.notice[stp_uc.notices_out++ % stp_uc.u.size];
  return 1;
}

const stp_net_ops_t stp_net_ucx_ops = {
    .name = "ucx",
    .open = uc_open,
    .segment = uc_segment,
    .close = uc_close,
    .poll = uc_poll,
    .exit_notify = uc_exit_notify,
    .exit_take = uc_exit_take,
};

/* ------------------------------------------------------------------ */
/* operations counted in event records                                 */
/* ------------------------------------------------------------------ */
_Static_assert(STP_EC_N <= 8 && _Alignof(stp_ev_t) >= 8, "an event category fits an event pointer's low bits");

static const char *const cat_name[STP_EC_N] = {"a get", "a put's remote completion", "an AM payload",
                                               "a local completion", "an atomic", "a collective"};

void stp_uc_ev_done(void *req, ucs_status_t st, void *user_data) {
  uintptr_t v = (uintptr_t)user_data;
  int cat = (int)(v & 7u);
  if (STP_UNLIKELY(st != UCS_OK) && !stp_uc.closing)
    stp_fatal("ucx stage: %s failed in UCX: %s", cat_name[cat], ucs_status_string(st));
  stp_ev_finish((stp_ev_t *)(v & ~(uintptr_t)7u), cat);
  ucp_request_free(req);
}

int stp_uc_ev_track(ucs_status_ptr_t req, stp_ev_t *e, int cat, const char *what, gex_Rank_t node) {
  if (STP_LIKELY(req == NULL)) return 1;
  if (STP_UNLIKELY(UCS_PTR_IS_ERR(req))) {
    if (stp_uc.closing) return 1;
    stp_ucx_report(&stp_uc.u, UCS_PTR_STATUS(req), "%s node %u", what, (unsigned)node);
    stp_fatal("ucx stage: %s node %u failed: %s", what, (unsigned)node, ucs_status_string(UCS_PTR_STATUS(req)));
  }
  stp_ev_start(e, cat);
  return 0;
}
