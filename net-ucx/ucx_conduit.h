/*
 * ucx_conduit.h -- the `ucx` stage's network: one UCX context and worker
 * (the ucx/ module), the segment UCX allocated, every peer's segment key,
 * and the exit notices.  Its owner is ucx_conduit.c; the backends of the
 * stage (the Extended API, ext-ucx/ucx_rma.c; the UCX Core,
 * core-ucx/ucx_am.c) read it here, never set it up themselves, and change
 * it only through the functions below.  Segment addresses and sizes are
 * the job's segment table's (stp.seg, range checks with stp_seg_contains),
 * not kept here.
 *
 * UCX active-message ids on the worker: the network's own exit notices and
 * the UCX Core's requests and replies; one list, here.
 */
#ifndef STP_UCX_CONDUIT_H
#define STP_UCX_CONDUIT_H

#include "stp_internal.h"
#include "stp_ucx.h"

enum { STP_UC_AM_EXIT = 0, STP_UC_AM_REQUEST = 1, STP_UC_AM_REPLY = 2 };

typedef struct stp_uc {
  stp_ucx_t u;            /* context, worker, an endpoint per node */
  stp_ucx_region_t seg;   /* this node's segment's UCX memory handle and packed key (UCX-allocated), or empty */
  stp_ucx_remote_t *rkeys; /* every node's segment key (stp_uc_rkey), in the records ucx/'s exchange fills and
                            * releases (their address and length are not read: stp.seg is the one copy) */
  int closing;            /* after the exit protocol: peers are leaving, and
                           * operations still in flight may fail (not fatal) */
  int core_progresses;    /* the stage's Core progresses the worker on every
                           * poll: the network's poll need not */
  int *notice;            /* exit notices taken from peers, not yet handed on */
  uint32_t *queued;       /* per node: sends returned to the caller while UCX still
                           * holds them (stp_uc_queued_*): an IMMEDIATE operation
                           * to a node with any is refused, since UCX keeps an
                           * endpoint's operations in order behind them */
  int notices_in, notices_out;
} stp_uc_t;

extern stp_uc_t stp_uc;
extern const stp_net_ops_t stp_net_ucx_ops;

/* Node's segment key (for an RMA into its segment). */
static inline ucp_rkey_h stp_uc_rkey(gex_Rank_t node) { return stp_uc.rkeys[node].rkey; }

/* A send to node the caller did not wait for is in UCX (started) or has
 * left it (done); queued: whether any is still in. */
static inline void stp_uc_queued_start(gex_Rank_t node) { stp_uc.queued[node]++; }
static inline void stp_uc_queued_done(gex_Rank_t node) { stp_uc.queued[node]--; }
static inline int stp_uc_queued(gex_Rank_t node) { return stp_uc.queued[node] != 0; }

/* The stage's Core says whether it progresses the worker on every poll
 * (at its attach, and no longer at its detach): the network's poll then
 * need not. */
static inline void stp_uc_core_progresses(int on) { stp_uc.core_progresses = on; }

/* A UCX operation whose completion counts in an event record (event.h):
 * stp_uc_ev_param adds to *p the callback that finishes category cat of e
 * (and frees the request); after the call, stp_uc_ev_track starts that
 * count if UCX returned a request (0), or does nothing if the operation
 * completed at once (1).  A failed operation is a fatal error naming what
 * (and node), unless the network is closing.  Both backends of the stage
 * count this way: an RMA's completion, an AM payload's local completion. */
void stp_uc_ev_done(void *req, ucs_status_t st, void *user_data);
static inline void stp_uc_ev_param(ucp_request_param_t *p, stp_ev_t *e, int cat) {
  p->op_attr_mask |= UCP_OP_ATTR_FIELD_CALLBACK | UCP_OP_ATTR_FIELD_USER_DATA;
  p->cb.send = stp_uc_ev_done;
  p->user_data = (void *)((uintptr_t)e | (uintptr_t)cat); /* (records are 8-aligned; STP_EC_N <= 8) */
}
int stp_uc_ev_track(ucs_status_ptr_t req, stp_ev_t *e, int cat, const char *what, gex_Rank_t node);

#endif /* STP_UCX_CONDUIT_H */
